"""Each layout's winnable share: decide the same fixed deals on every layout under each rules.

    PYTHONPATH=. .venv/bin/python bench/layouts.py [--deals 1000] [--seed 38] [--layouts valley ...]
        [--rules easy classic]

The deals are the same ``--deals`` deal numbers (from ``random.Random(--seed)``) on every layout and
rules, each decided from its start by tripeaks.solver.search.is_winnable: the kernel the seam
chose (compiled when built) on every layout.
Prints, per layout and rules, the winnable share with its 95% (Wilson) interval and the median,
p99 and max time per decision, one process, with the load average. Figures only: nothing here
asserts on time. A layout more than 98% winnable under Classic is marked trivial, one under 20%
under Easy hopeless (issue 38 keeps neither).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

from tripeaks.engine.codes import CODE_SPACE, GameCode
from tripeaks.engine.layouts import BY_ID, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.solver.search import is_winnable

_RULES = {"easy": Rules.EASY, "classic": Rules.CLASSIC}


def wilson(won: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``won / n``."""
    share = won / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--layouts", nargs="*", default=[layout.id for layout in LAYOUTS])
    parser.add_argument("--rules", nargs="*", default=list(_RULES), choices=list(_RULES))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    numbers = [rng.randrange(CODE_SPACE) for _ in range(args.deals)]
    print(f"{args.deals} deals a row, seed {args.seed}; load {os.getloadavg()[0]:.2f}")
    print(
        f"{'layout':<12} {'cards':>5} {'rules':<8} {'winnable':>8} {'95% interval':>15}"
        f" {'median':>9} {'p99':>9} {'max':>9}  note"
    )
    for layout_id in args.layouts:
        layout = BY_ID[layout_id]
        for rules_name in args.rules:
            rules = _RULES[rules_name]
            won = 0
            times = []
            for number in numbers:
                code = GameCode(rules, GameCode.from_number(number).letters, layout)
                start = time.perf_counter()
                won += is_winnable(code)
                times.append(time.perf_counter() - start)
            low, high = wilson(won, len(numbers))
            share = won / len(numbers)
            note = ""
            if rules is Rules.CLASSIC and share > 0.98:
                note = "trivial"
            if rules is Rules.EASY and share < 0.20:
                note = "hopeless"
            print(
                f"{layout.id:<12} {layout.size:>5} {rules_name:<8} {share:>8.1%}"
                f" {f'{low:.1%}-{high:.1%}':>15}"
                f" {statistics.median(times) * 1000:>7.2f}ms {p99(times) * 1000:>7.1f}ms"
                f" {max(times) * 1000:>7.1f}ms  {note}",
                flush=True,
            )
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
