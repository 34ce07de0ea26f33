"""What a hosted server's extras cost per request: the same requests on apps made local and hosted.

Four apps in one process (local; metrics; access log; metrics, log and rate limits), driven in process as
bench/cpu.py does, one request to each in turn so that the machine's load falls on all four alike. Prints the
median main-thread CPU (``time.thread_time``) of each and its difference from the local app. The access log is
written to stderr: run with ``2>/dev/null``. Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cpu import call

from tripeaks.web.app import create_app
from tripeaks.web.hosting import Hosting
from tripeaks.web.http.ratelimit import rates

MODES = {
    "local": Hosting(),
    "metrics": Hosting(metrics=True),
    "access log": Hosting(access_log=True),
    "all (+ limits)": Hosting(metrics=True, access_log=True, rates=rates([])),
}


async def measure(requests: int, path: str) -> dict[str, list[float]]:
    apps, games = {}, {}
    for name, hosting in MODES.items():
        app = create_app(os.path.join(tempfile.mkdtemp(), "hosted.db"), hosting=hosting)
        _status, state, cookie = await call(app, "POST", "/api/games", {}, "")
        apps[name], games[name] = app, (state["id"], cookie)
    times: dict[str, list[float]] = {name: [] for name in MODES}
    for _ in range(requests):
        for name, app in apps.items():
            game, cookie = games[name]
            started = time.thread_time()
            await call(app, "GET", path.format(game=game), None, cookie)
            times[name].append(time.thread_time() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--path", default="/api/games/{game}", help="e.g. /api/layout")
    args = parser.parse_args()
    times = asyncio.run(measure(args.requests, args.path))
    base = statistics.median(times["local"])
    print(f"Main-thread CPU per GET {args.path}, in process, {args.requests} each:")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:15} median {median * 1e6:7.1f} µs  ({(median - base) * 1e6:+6.1f} µs)")
    os._exit(0)  # as bench/cpu.py: the apps' threads and workers are not worth a clean shutdown


if __name__ == "__main__":
    main()
