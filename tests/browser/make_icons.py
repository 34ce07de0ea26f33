"""Render the app icon's SVG to the PNG sizes the web app manifest lists, with Debian's chromium.

Run by hand after changing ``tripeaks/web/static/icons/icon.svg``:
``.venv/bin/python tests/browser/make_icons.py``. The PNGs are committed; nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[2] / "tripeaks" / "web" / "static" / "icons"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]


def main() -> None:
    svg = (ICONS / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for name, size, padding, background in (
            ("icon-192.png", 192, 0, "transparent"),
            ("icon-512.png", 512, 0, "transparent"),
            # A maskable icon keeps its picture inside the central 80 % safe zone.
            ("maskable-512.png", 512, 52, "#1f5d46"),
        ):
            page = browser.new_page(viewport={"width": size, "height": size})
            inner = size - 2 * padding
            sized = svg.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1)
            page.set_content(
                f"<body style='margin:0;background:{background}'>"
                f"<div style='padding:{padding}px'>{sized}</div></body>"
            )
            page.screenshot(path=str(ICONS / name), omit_background=background == "transparent")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
