"""The journey's page to be looked at, and timed (issue 39). Not a test: a script.

``PYTHONPATH=. python tests/browser/journey_shots.py [OUT]`` saves PNGs of the map, a level's start, a
three-star end and a level game's table at 360x640, 390x844, 844x390 and 1440x900, in en, fi and ca (light),
and the map in dark at 390x844, into OUT (test-artifacts/journey/ by default). A player of each language first wins
levels 1 to 4 through the API (1 and 4 by their best lines: three stars), so the map has stars on it.

``... journey_shots.py --measure`` times, headless, the median of 10: a level's start (Play clicked → the
table dealt and the focus on it) and the map's load (Journey clicked → the map drawn, the next level focused).
Levels are read from tripeaks.journey.levels: no code is written here.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CHROMIUM, CHROMIUM_ARGS, served
from test_journey_page import open_on, win_by_api

from tripeaks.journey.levels import levels

SIZES = [(360, 640), (390, 844), (844, 390), (1440, 900)]
LANGS = ["en", "fi", "ca"]


def shots(base: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    journey = levels()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in LANGS:
            context = browser.new_context(
                base_url=base, reduced_motion="reduce", color_scheme="light"
            )
            context.add_init_script(
                f"localStorage.setItem('tripeaks.guide', 'done'); localStorage.setItem('tripeaks.lang', '{lang}');"
            )
            page = context.new_page()
            page.goto("/")
            page.wait_for_selector("body[data-ready]")
            for n in (1, 2, 3):
                win_by_api(page, n, journey[n - 1].best_line if n == 1 else journey[n - 1].witness)
            end = win_by_api(page, 4, journey[3].best_line)
            assert end["level_result"]["stars"] == 3, end["level_result"]
            for width, height in SIZES:
                name = f"{width}x{height}-{lang}"
                page.set_viewport_size({"width": width, "height": height})
                open_on(page, end)
                expect(page.locator("#dlg-win")).to_be_visible()
                expect(page.locator("#win-stars .star.on")).to_have_count(3)
                page.screenshot(path=out / f"{name}-end-3-stars.png")
                page.keyboard.press("Escape")
                page.locator("#journey-btn").click()
                expect(page.locator("#dlg-journey")).to_be_visible()
                expect(page.locator("#journey-path .lv[data-n='5']")).to_be_focused()
                page.screenshot(path=out / f"{name}-map.png")
                if lang == "en" and (width, height) == (390, 844):
                    page.emulate_media(color_scheme="dark")
                    page.screenshot(path=out / f"{name}-map-dark.png")
                    page.emulate_media(color_scheme="light")
                page.keyboard.press("Enter")
                expect(page.locator("#dlg-level")).to_be_visible()
                page.screenshot(path=out / f"{name}-level-start.png")
                page.keyboard.press("Enter")
                expect(page.locator("#dlg-level")).to_be_hidden()
                page.wait_for_function("!!document.activeElement.closest('#board')")
                page.screenshot(path=out / f"{name}-level-game.png")
            context.close()
        browser.close()


START = """async () => {
  const play = document.getElementById('level-play');
  const before = localStorage.getItem('tripeaks.game');
  const t0 = performance.now();
  play.click();
  // dealt: the new game stored and drawn, its deal's frames over (no card still hidden, turning or flying)
  await new Promise((done) => {
    const check = () => {
      const dealt = localStorage.getItem('tripeaks.game') !== before && !document.querySelector('#dlg-level[open]')
        && !document.querySelector('#tableau.dealing, #tableau .unshown, #tableau .turning')
        && document.activeElement && document.activeElement.closest('#board')
        && !document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.getTiming().iterations !== Infinity);
      if (dealt) done(); else requestAnimationFrame(check);
    };
    check();
  });
  return performance.now() - t0;
}"""

MAP = """async () => {
  const t0 = performance.now();
  document.getElementById('journey-btn').click();
  await new Promise((done) => {
    const check = () => {
      const line = document.querySelector('#dlg-journey[open] svg.lv-line polyline');
      if (line && line.getAttribute('points') && document.activeElement.closest('.lv')) requestAnimationFrame(() => done());
      else requestAnimationFrame(check);
    };
    check();
  });
  return performance.now() - t0;
}"""


def measure(base: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for motion in ("reduce", "no-preference"):
            context = browser.new_context(
                base_url=base, viewport={"width": 1440, "height": 900}, reduced_motion=motion
            )  # type: ignore[arg-type]
            context.add_init_script("localStorage.setItem('tripeaks.guide', 'done');")
            page = context.new_page()
            page.goto("/")
            page.wait_for_selector("body[data-ready]")
            maps, starts = [], []
            for _ in range(10):
                maps.append(page.evaluate(MAP))
                page.keyboard.press("Enter")  # the next level's start
                expect(page.locator("#dlg-level")).to_be_visible()
                starts.append(page.evaluate(START))
            print(
                f"motion={motion}: map load median {statistics.median(maps):.0f} ms (first {maps[0]:.0f}, "
                f"all {[round(m) for m in maps]}); level start median {statistics.median(starts):.0f} ms "
                f"(all {[round(s) for s in starts]})"
            )
            context.close()
        browser.close()


def main() -> None:
    from tripeaks.web.app import create_app

    app = create_app(Path(tempfile.mkdtemp()) / "tripeaks.db")
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        if "--measure" in sys.argv:
            measure(base)
        else:
            args = [a for a in sys.argv[1:] if not a.startswith("--")]
            shots(base, Path(args[0] if args else "test-artifacts/journey"))


if __name__ == "__main__":
    main()
