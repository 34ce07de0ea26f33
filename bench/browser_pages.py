"""What opening the app in a fresh browser context costs the machine: the CPU time of every chromium
process, per page, as the browser tests open one (tests/browser/conftest.py ``new_page``: a new
context, the app loaded, its ready mark waited for).

Starts the real server (``python -m tripeaks serve``, as bench/api.py does) on a temporary SQLite file
and launches Debian's chromium twice, one after the other in the same run: with only the switches the
tests must have (the prescribed six), and with the tests' CHROMIUM_ARGS (the same six, Playwright's
disabled features repeated, and the window's preloaded browser pages off). For each it opens
``--pages`` fresh contexts, lets each settle ``--settle`` ms (the preload comes a moment after the
page), and prints the chromium CPU seconds a page (median, p99, mean; summed over every chromium
process, read from /proc) and the wall time a page. Prints figures only; it asserts nothing.

    PYTHONPATH=. python bench/browser_pages.py --pages 30
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests" / "browser")]

from api import percentile, server  # noqa: E402  (bench/api.py: the real server, a child process)
from conftest import CHROMIUM, CHROMIUM_ARGS, PRESCRIBED_ARGS  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def chromium_cpu() -> float:
    """CPU seconds (user and system, with reaped children) of every chromium process now."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if not stat[stat.find("(") + 1 :].startswith("chrom"):
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        total += sum(int(f) for f in fields[11:15]) / TICKS
    return total


def pages(
    browser: Browser, base: str, count: int, settle: float
) -> tuple[list[float], list[float]]:
    """CPU seconds and wall seconds of each of ``count`` fresh contexts with the app open."""
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(count):
        before, started = chromium_cpu(), time.perf_counter()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(base)
        page.wait_for_selector("body[data-ready]")
        wall.append(time.perf_counter() - started)
        page.wait_for_timeout(settle)
        context.close()
        cpu.append(chromium_cpu() - before)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=30, help="fresh contexts a launch (30)")
    parser.add_argument("--settle", type=float, default=1500, help="ms a page stays open (1500)")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        server(Path(tmp) / "bench.db") as base,
        sync_playwright() as p,
    ):
        print(f"{args.pages} fresh contexts each, the app opened and left {args.settle:g} ms")
        print(f"{'switches':34} {'CPU s/page p50':>14} {'p99':>6} {'mean':>6} {'wall s p50':>10}")
        for name, switches in (
            ("prescribed six", PRESCRIBED_ARGS),
            ("the tests' CHROMIUM_ARGS", CHROMIUM_ARGS),
        ):
            browser = p.chromium.launch(executable_path=CHROMIUM, args=switches)
            pages(browser, base, 2, args.settle)  # warm: the first contexts start shared processes
            cpu, wall = pages(browser, base, args.pages, args.settle)
            browser.close()
            print(
                f"{name:34} {statistics.median(cpu):14.2f} {percentile(cpu, 0.99):6.2f} "
                f"{statistics.fmean(cpu):6.2f} {statistics.median(wall):10.2f}"
            )


if __name__ == "__main__":
    main()
