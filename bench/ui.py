"""How the page feels: tap to first changed frame, frame times while cards move, long tasks, first-load bytes.

Starts the real server (``python -m tripeaks serve``, as bench/api.py does) on a temporary SQLite file and
drives Debian's chromium headless through Playwright (the browser tests' executable and arguments) with the
CPU slowed 4× (CDP ``Emulation.setCPUThrottlingRate``), at phone size (390×844, touch, full motion). It
wins one deal by taps, then deals again with "Play again", and prints:

- tap → first changed frame. A tap is a finger's (CDP touchStart, held ``--hold`` ms, 80 by default,
  touchEnd): Playwright's ``touchscreen.tap`` lifts the finger at once, which put the pointerdown, the
  pointerup and the click in one frame, so what this bench printed before was the click's frame, never the
  pressed state's. Timed apart, for the pointerdown (the pressed state) and for the click (the flight begun
  at the tap): from the event's ``timeStamp`` to the end of the first frame after it (a
  requestAnimationFrame callback registered in the handler, then a message posted from it, which runs once
  that frame's style, layout, paint and commit are done); when that frame began; and how long the event
  took to reach the page at all (input routing, which the CPU throttle slows as well). Also the Event
  Timing API's count of those that took 16 ms or more to their frame's presentation (it reports nothing
  shorter, in steps of 8 ms).
- frame times (intervals between requestAnimationFrame timestamps) during a card flight (a play that turns
  nothing over), a flip (a play that turns a card over, or a draw: the card turns on its way), the win
  celebration and the new deal: median and p95;
- long tasks over 50 ms (PerformanceObserver 'longtask') that overlap any of those animations;
- the bytes of a first load (the page, its CSS and modules, the API replies it asks for), as received.

Targets: first changed frame ≤ 16 ms after the tap at p95; no long task over 50 ms during any animation;
first load ≤ 150 KB. Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests" / "browser")]

from api import server  # noqa: E402  (bench/api.py: the real server as a child process)
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from tripeaks_page import WIN_CODE, winning_line  # noqa: E402

from tripeaks.engine.game import ActionKind, Game  # noqa: E402

PROBE = """() => {
  const b = (window.bench = { taps: [], frames: [], longtasks: [], events: [], windows: [] });
  const loop = (ts) => { b.frames.push(ts); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.name === "pointerdown" || e.name === "pointerup" || e.name === "click")
        b.events.push([e.name, e.startTime, e.duration, e.processingStart, e.processingEnd]);
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
  // the first frame after each pointerdown (the pressed state) and each click (a flight begun at the tap):
  // its requestAnimationFrame, then a message posted from it, which runs once that frame's style, layout,
  // paint and commit are done
  for (const type of ["pointerdown", "click"]) addEventListener(type, (event) => {
    const t0 = event.timeStamp;
    const seen = performance.now();
    requestAnimationFrame((raf) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => b.taps.push([type, t0, seen, raf, performance.now()]);
      channel.port2.postMessage(0);
    });
  }, true);
  // The waits below cost the page nothing while it animates: no polling each frame (document.getAnimations
  // flushes style, a textContent check each frame is a task of its own under 4x throttle).
  // when #moves reads n
  window.movesAre = (n) => new Promise((resolve) => {
    const el = document.querySelector("#moves");
    if (el.textContent === n) return resolve();
    const seen = new MutationObserver(() => {
      if (el.textContent === n) { seen.disconnect(); resolve(); }
    });
    seen.observe(el, { childList: true, characterData: true, subtree: true });
  });
  // when a selector matches
  window.shown = (selector) => new Promise((resolve) => {
    if (document.querySelector(selector)) return resolve();
    const seen = new MutationObserver(() => {
      if (document.querySelector(selector)) { seen.disconnect(); resolve(); }
    });
    seen.observe(document.body, { attributes: true, subtree: true });
  });
  // when every animation has ended (asked again as those it knew of end): resolves to that time
  window.settled = async () => {
    for (;;) {
      // a new deal's first frame draws its board hidden, with no animation yet (motion.js deal)
      if (document.querySelector("#tableau.dealing")) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        continue;
      }
      const running = document.getAnimations().filter((a) => a.playState === "running");
      if (!running.length) return performance.now();
      await Promise.all(running.map((a) => a.finished.catch(() => {})));
    }
  };
}"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def first_load(browser: Any, base: str) -> tuple[int, int, list[tuple[str, int]]]:
    """Bytes received on a first visit: (static files, API replies, the largest files)."""
    context = browser.new_context(base_url=base)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    cdp.on(
        "Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"])
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])),
    )
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_timeout(500)
    files = [(urls[r].removeprefix(base), n) for r, n in sizes.items() if r in urls]
    static = sum(n for u, n in files if not u.startswith("/api/"))
    api = sum(n for u, n in files if u.startswith("/api/"))
    context.close()
    return static, api, sorted(files, key=lambda x: -x[1])


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "blink.user_timing",
    "toplevel",
    "v8.execute",
    "disabled-by-default-devtools.timeline.stack",
]


def tap(page: Page, cdp: Any, x: float, y: float, hold: float) -> None:
    """A finger's tap: down, held `hold` ms (a person's tap lasts 50-150 ms), up. Playwright's own
    touchscreen.tap lifts the finger at once, which puts the pointerdown, the pointerup and the click in one
    frame: the pressed state could never be seen on its own."""
    point = [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 0}]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    if hold:
        page.wait_for_timeout(hold)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def play(
    browser: Any, base: str, throttle: float, hold: float, trace: Path | None = None
) -> dict[str, Any]:
    context = browser.new_context(
        base_url=base,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        reduced_motion="no-preference",
    )
    game_id = context.request.post("/api/games", data={"code": WIN_CODE}).json()["id"]
    context.add_init_script(
        f"localStorage.setItem('tripeaks.game', {game_id!r});"
        "localStorage.setItem('tripeaks.guide', 'done');"
    )
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.evaluate(PROBE)
    page.wait_for_timeout(300)
    if trace:
        browser.start_tracing(page=page, path=str(trace), categories=TRACE_CATEGORIES)
    windows: dict[str, list[tuple[float, float]]] = {
        "flight": [],
        "flip": [],
        "win": [],
        "deal": [],
    }
    line = winning_line(WIN_CODE)
    engine = Game.new(WIN_CODE)
    for n, action in enumerate(line, start=1):
        turn = engine.apply(action)
        selector = (
            "#stock" if action.kind is ActionKind.DRAW else f"#tableau [data-pos='{action.pos}']"
        )
        x, y = centre(page, selector)
        start = page.evaluate("performance.now()")
        tap(page, cdp, x, y, hold)
        page.evaluate(f"window.movesAre('{n}')")
        if n == len(line):
            page.evaluate("window.shown('#dlg-win[open]')")
            windows["win"].append((start, page.evaluate("performance.now()")))
            break
        end = page.evaluate("window.settled()")
        kind = "flip" if action.kind is ActionKind.DRAW or turn.revealed else "flight"
        windows[kind].append((start, end))
    page.evaluate("window.settled()")
    start = page.evaluate("performance.now()")
    tap(page, cdp, *centre(page, "#win-again"), hold)
    page.evaluate("window.movesAre('0')")
    windows["deal"].append((start, page.evaluate("window.settled()")))
    data: dict[str, Any] = page.evaluate("window.bench")
    if trace:
        browser.stop_tracing()
    context.close()
    data["windows"] = windows
    return data


def empty(browser: Any, throttle: float, hold: float, taps: int = 35) -> dict[str, Any]:
    """The floor: the same probe, throttle and taps on a page with one button and nothing else (no style
    sheet, no script of its own, a `.pressed` class that changes nothing). What this page takes from the
    event's timeStamp to its first frame is what no page can take less than on this browser and machine."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, reduced_motion="no-preference"
    )
    page = context.new_page()
    page.set_content(
        "<!doctype html><meta name=viewport content='width=device-width'>"
        "<button id=b style='width:200px;height:200px;touch-action:manipulation'>x</button>"
        "<span id=moves>0</span>"
        "<script>addEventListener('pointerdown', (e) => e.target.classList.add('pressed'), true);"
        "addEventListener('click', () => { const m = document.querySelector('#moves');"
        " m.textContent = String(Number(m.textContent) + 1); }, true);</script>"
    )
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.evaluate(PROBE)
    page.wait_for_timeout(300)
    x, y = centre(page, "#b")
    for n in range(1, taps + 1):
        tap(page, cdp, x, y, hold)
        page.evaluate(f"window.movesAre('{n}')")
        page.wait_for_timeout(250)
    data: dict[str, Any] = page.evaluate("window.bench")
    context.close()
    return data


def print_taps(data: dict[str, Any]) -> None:
    for kind, what in (
        ("pointerdown", "the pressed state"),
        ("click", "a flight begun at the tap"),
    ):
        taps = [t for t in data["taps"] if t[0] == kind]
        if not taps:
            continue
        done = [end - t0 for _, t0, _, _, end in taps]
        start = [raf - t0 for _, t0, _, raf, _ in taps]
        queued = [seen - t0 for _, t0, seen, _, _ in taps]
        waited = [raf - seen for _, _, seen, raf, _ in taps]
        work = [end - raf for _, _, _, raf, end in taps]
        print(
            f"{kind} -> end of the first frame after it ({what}; {len(taps)} taps): median "
            f"{statistics.median(done):.1f} ms, p95 {pct(done, 0.95):.1f} ms, max {max(done):.1f} ms "
            f"(target p95 <= 16 ms); that frame began: median {statistics.median(start):.1f} ms, "
            f"p95 {pct(start, 0.95):.1f} ms"
        )
        # The three parts in turn: the browser's routing (before the page sees the event), the wait
        # for the next frame to begin (the display's rhythm), and that frame's own work.
        print(
            f"  in parts, median / p95: reaching the page {statistics.median(queued):.1f} / "
            f"{pct(queued, 0.95):.1f} ms, waiting for the frame {statistics.median(waited):.1f} / "
            f"{pct(waited, 0.95):.1f} ms, the frame's work {statistics.median(work):.1f} / "
            f"{pct(work, 0.95):.1f} ms"
        )
        slow = [e for e in data["events"] if e[0] == kind]
        print(
            f"  Event Timing (to the frame's presentation): {len(taps) - len(slow)} of {len(taps)} under "
            f"16 ms"
            + (
                f"; the others median {statistics.median(e[2] for e in slow):.0f} ms, longest "
                f"{max(e[2] for e in slow):.0f} ms; the handlers (processingEnd - processingStart) "
                f"median {statistics.median(e[4] - e[3] for e in slow):.1f} ms, p95 "
                f"{pct([e[4] - e[3] for e in slow], 0.95):.1f} ms"
                if slow
                else ""
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown (default 4)")
    parser.add_argument(
        "--trace",
        type=Path,
        metavar="FILE",
        help="also write a Chrome trace of the play (open it in DevTools' Performance panel)",
    )
    parser.add_argument(
        "--hold",
        type=float,
        default=80,
        metavar="MS",
        help="how long a finger stays down in a tap (default 80; 0: lifted at once, as Playwright's tap)",
    )
    parser.add_argument(
        "--empty",
        action="store_true",
        help="also tap an empty page (one button) with the same probe and throttle: the floor no page beats",
    )
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        server(Path(tmp) / "bench.db") as base,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        static, api, files = first_load(browser, base)
        data = play(browser, base, args.throttle, args.hold, args.trace)
        floor = empty(browser, args.throttle, args.hold) if args.empty else None
        browser.close()

    print(f"Headless Debian chromium, CPU throttled {args.throttle:g}x, 390x844 touch, full motion")
    print(
        f"First load: {static} bytes static = {static / 1024:.1f} KB (target <= 150 KB); API replies {api} bytes"
    )
    for url, n in files[:6]:
        print(f"  {n:7d}  {url}")
    print(f"Taps held {args.hold:g} ms")
    print_taps(data)
    if floor is not None:
        print(
            "The floor: an empty page (one button, no style sheet), same probe, throttle and taps"
        )
        print_taps(floor)
    frames: list[float] = data["frames"]
    longtasks: list[list[float]] = data["longtasks"]
    all_long: list[float] = []
    for kind, spans in data["windows"].items():
        gaps: list[float] = []
        long: list[float] = []
        for start, end in spans:
            inside = [f for f in frames if start <= f <= end]
            gaps += [b - a for a, b in itertools.pairwise(inside)]
            long += [d for s, d in longtasks if s < end and s + d > start and d > 50]
        all_long += long
        if gaps:
            print(
                f"Frames during {kind:6} ({len(spans):2d} runs, {len(gaps):4d} frames): median "
                f"{statistics.median(gaps):5.1f} ms, p95 {pct(gaps, 0.95):5.1f} ms, max {max(gaps):5.1f} ms; "
                f"long tasks > 50 ms: {len(long)}"
                + (f" (longest {max(long):.0f} ms)" if long else "")
            )
    print(
        f"Long tasks over 50 ms during animations: {len(all_long)} (target 0); "
        f"in the whole run: {sum(1 for _, d in longtasks if d > 50)}"
    )


if __name__ == "__main__":
    main()
