"""Time the solver on the bench's fixed codes, one process, and compare it with the reference search.

    .venv/bin/python bench/solver.py [--deals 1000] [--reference-deals 100] [--rules easy classic]

Prints median, p99 and max time per deal and deals/s for "decide" (is_winnable) and "best win"
(solve), then the reference's time on the first ``--reference-deals`` of the same deals and the
speed-up over it. Figures only: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from reference import fixed_codes, reference_search

from tripeaks.codes import GameCode, deal
from tripeaks.rules import Rules
from tripeaks.solver import is_winnable, solve


def timed(run: Callable[[GameCode], object], codes: list[GameCode]) -> list[float]:
    seconds = []
    for code in codes:
        started = time.perf_counter()
        run(code)
        seconds.append(time.perf_counter() - started)
    return seconds


def summary(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"  {name:<10} median {1000 * statistics.median(ordered):8.2f} ms"
        f"  p99 {1000 * p99:8.1f} ms  max {1000 * ordered[-1]:8.1f} ms"
        f"  {len(ordered) / sum(ordered):8.1f} deals/s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--reference-deals", type=int, default=100)
    parser.add_argument(
        "--rules", nargs="+", choices=["easy", "classic"], default=["easy", "classic"]
    )
    args = parser.parse_args(argv)
    for name in args.rules:
        rules = Rules.EASY if name == "easy" else Rules.CLASSIC
        codes = fixed_codes(args.deals, rules)
        decide = timed(is_winnable, codes)
        best = timed(solve, codes)
        won = sum(is_winnable(code) for code in codes)
        print(f"{name}: {len(codes)} deals, {won} winnable")
        print(summary("decide", decide))
        print(summary("best win", best))
        sample = codes[: args.reference_deals]
        if not sample:
            continue
        reference = timed(lambda code: reference_search(deal(code), code.rules), sample)
        print(summary("reference", reference))
        n = len(sample)
        for label, mine in (("decide", decide[:n]), ("best win", best[:n])):
            print(
                f"  speed-up of {label} over the reference on {n} deals: "
                f"{sum(reference) / sum(mine):.1f}x in total time, "
                f"{statistics.median(r / m for r, m in zip(reference, mine, strict=True)):.1f}x "
                "median per deal"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
