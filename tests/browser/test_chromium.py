"""The browser the tests drive: Debian's chromium, launched with conftest's CHROMIUM_ARGS.

Chromium keeps only the last ``--disable-features`` it is given and Playwright passes its own
first, so the tests' switch must repeat every feature Playwright turns off (HTTPS upgrades, paint
holding, storage partitioning...) or those come back on; and it must keep a window from preloading
the browser's own pages (the address bar's popups), which cost a renderer for every context."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, PLAYWRIGHT_DISABLED_FEATURES, PRESCRIBED_ARGS, TOP_CHROME_PRELOADS
from playwright.sync_api import Browser


def _ask(browser: Browser, method: str, params: dict[str, Any] | None = None) -> Any:
    """One DevTools protocol call to the browser itself."""
    session = browser.new_browser_cdp_session()
    try:
        return session.send(method, params)
    finally:
        session.detach()


def _processes(browser: Browser) -> list[tuple[str, list[str]]]:
    """Each of the browser's processes: its type (browser, renderer, gpu...) and its switches."""
    found = []
    for info in _ask(browser, "SystemInfo.getProcessInfo")["processInfo"]:
        try:
            raw = Path(f"/proc/{info['id']}/cmdline").read_bytes()
        except OSError:  # gone since
            continue
        # a child process rewrites its title: its switches then come as one spaced string
        found.append((info["type"], raw.replace(b"\0", b" ").decode().split()))
    return found


def _disabled(switches: list[str]) -> set[str]:
    """The features a process runs without: its last --disable-features, as chromium reads it."""
    values = [s.split("=", 1)[1] for s in switches if s.startswith("--disable-features=")]
    return set(values[-1].split(",")) if values else set()


def _browser_pages(browser: Browser) -> list[str]:
    """The browser's own pages open now (as chrome:// URLs), of every kind of target."""
    targets = _ask(browser, "Target.getTargets", {"filter": [{}]})["targetInfos"]
    return [target["url"] for target in targets if target["type"] == "browser_ui"]


@pytest.fixture(scope="module")
def plain(browser: Browser) -> Iterator[Browser]:
    """Chromium launched with only the prescribed switches: Playwright's own choices."""
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, args=PRESCRIBED_ARGS)
    yield chromium
    chromium.close()


def test_every_feature_playwright_turns_off_stays_off(
    plain: Browser, browser: Browser, base_url: str
) -> None:
    (theirs,) = [_disabled(switches) for kind, switches in _processes(plain) if kind == "browser"]
    assert theirs, "Playwright passes no --disable-features any more"
    assert theirs <= set(PLAYWRIGHT_DISABLED_FEATURES), (
        "Playwright turns off features the tests' switch does not repeat (conftest.py):",
        theirs - set(PLAYWRIGHT_DISABLED_FEATURES),
    )
    context = browser.new_context()
    context.new_page().goto(base_url)  # a renderer, told what the browser runs without
    renderers = [_disabled(s) for kind, s in _processes(browser) if kind == "renderer"]
    context.close()
    assert renderers
    for features in renderers:
        assert theirs | set(TOP_CHROME_PRELOADS) <= features


def test_a_window_preloads_no_page_of_the_browser(
    plain: Browser, browser: Browser, base_url: str
) -> None:
    shown = time.monotonic()
    context = plain.new_context()
    context.new_page().goto(base_url)
    while not _browser_pages(plain):  # the check sees them where they are preloaded
        assert time.monotonic() < shown + 20, "chromium preloads no browser page any more"
        time.sleep(0.1)
    waited = time.monotonic() - shown
    context.close()
    ours = browser.new_context()
    ours.new_page().goto(base_url)
    time.sleep(waited + 1)
    assert _browser_pages(browser) == []
    ours.close()
