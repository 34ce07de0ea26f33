"""Decide from a code and "winnable deals only", the two Classic figures of issue 12, alone.

    PYTHONPATH=<checkout> .venv/bin/python bench/decide.py [--deals 1000] [--draws 3000]
        [--repeats 3] [--rules easy classic] [--seed 7]

"from code" times ``is_winnable(code)`` on the bench's fixed codes (bench/reference.py), each
pass over them in turn, and prints every pass's median / p99 / max of the calling thread's CPU
time, then the median and p99 over the deals of each deal's least time in all passes (the
least noisy figure on a shared machine). "winnable only" draws codes from a SplitMix64 seeded
with ``--seed`` (the same draws on every run and checkout: random_winnable_code's loop, with a
reproducible source instead of secrets) until one is proved winnable, and times each such draw.
Also prints how the deals were decided (search alone, backward pass, quick refutation, when the
build has one). Figures only: nothing here asserts on time. Deterministic, so it can be run
under ``valgrind --tool=cachegrind --cache-sim=no`` to compare instruction counts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from reference import fixed_codes

from tripeaks.codes import CODE_SPACE, GameCode, SplitMix64
from tripeaks.rules import Rules
from tripeaks.solver import _decide_deal, is_winnable


def figures(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"median {1e6 * statistics.median(ordered):8.1f} µs  p99 {1e6 * p99:8.1f} µs"
        f"  max {1e6 * ordered[-1]:8.1f} µs"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--draws", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--rules", nargs="+", choices=["easy", "classic"], default=["easy", "classic"]
    )
    args = parser.parse_args(argv)
    for name in args.rules:
        rules = Rules.EASY if name == "easy" else Rules.CLASSIC
        codes = fixed_codes(args.deals, rules)
        is_winnable(codes[0])  # numbers the table sets, once per process
        kinds: dict[str, int] = {}
        for code in codes:
            answer = _decide_deal(code.number, rules)
            kind = ("won" if answer[0] else "lost") + (" by the pass" if answer[1] else "")
            kinds[kind] = kinds.get(kind, 0) + 1
        print(
            f"{name}: {len(codes)} deals: "
            + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        )
        least = [float("inf")] * len(codes)
        for run in range(args.repeats):
            times = []
            for i, code in enumerate(codes):
                cpu = time.thread_time()
                is_winnable(code)
                spent = time.thread_time() - cpu
                times.append(spent)
                least[i] = min(least[i], spent)
            print(f"  from code, pass {run + 1}:  {figures(times)}")
        print(f"  from code, least of {args.repeats}: {figures(least)}")
        rng = SplitMix64(args.seed)
        draws, tried = [], 0
        for _ in range(args.draws):
            cpu = time.thread_time()
            while True:
                tried += 1
                if is_winnable(GameCode.from_number(rng.below(CODE_SPACE), rules)):
                    break
            draws.append(time.thread_time() - cpu)
        print(f"  winnable only ({args.draws} draws, {tried} codes): {figures(draws)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
