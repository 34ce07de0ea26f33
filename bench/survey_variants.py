"""The share of winnable deals for each variant of our scoring, exactly: the survey's table.

    .venv/bin/python bench/survey_variants.py [--deals 100000] [--seed 2026] [--options "" D J DJ]

The same deal numbers (a SplitMix64 from ``--seed``) are decided under every option and both
rules by tripeaks.solver.survey_numbers, so the rows differ only by the options. Prints one
Markdown row per rules and options: winnable deals, the share with its 95% Wilson interval, and
the CPU time. Open peaks is left out: it changes no verdict (tests/test_solver_variants.py).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from tripeaks.codes import CODE_SPACE, SplitMix64
from tripeaks.rules import Rules
from tripeaks.solver import survey_numbers
from tripeaks.variant import Variant

BATCH = 2000


def wilson(won: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share won / total."""
    share = won / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    return centre - half / (1 + z * z / total), centre + half / (1 + z * z / total)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--options", nargs="+", default=["", "D", "J", "DJ"])
    args = parser.parse_args(argv)
    rng = SplitMix64(args.seed)
    numbers = [rng.below(CODE_SPACE) for _ in range(args.deals)]
    print("| rules | options | winnable | share (95% interval) | CPU |")
    print("|---|---|---|---|---|")
    for rules in Rules:
        for options in args.options:
            variant = Variant(rules).with_options(options.upper())
            started = time.process_time()
            won = sum(
                sum(survey_numbers(numbers[i : i + BATCH], variant))
                for i in range(0, len(numbers), BATCH)
            )
            cpu = time.process_time() - started
            low, high = wilson(won, len(numbers))
            print(
                f"| {rules.name.title()} | {options or '(none)'} | {won:,} of {len(numbers):,} |"
                f" {100 * won / len(numbers):.1f}% ({100 * low:.1f}%–{100 * high:.1f}%) |"
                f" {cpu:.1f} s |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
