"""Time the solver on the bench's fixed codes, one process, and compare it with the reference search.

    .venv/bin/python bench/solver.py [--deals 1000] [--reference-deals 100] [--rules easy classic]

Prints median, p99 and max time per deal and deals/s for "decide" (is_winnable) and "best win"
(solve), whether the verdicts (winnable, fewest draws, most cards removed) agree with the reference's
stored in tests/data, then the reference's time on the first ``--reference-deals`` of the same deals,
its verdicts there, and the speed-up over it. Figures only: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from reference import Verdict, fixed_codes, reference_search

from tripeaks.codes import GameCode, deal
from tripeaks.rules import Rules
from tripeaks.solver import COMPILED, Solution, is_winnable, solve

T = TypeVar("T")


STORED = Path(__file__).parent.parent / "tests" / "data" / "solver_reference.jsonl"
"""The reference's verdicts on the fixed codes, written by bench/reference.py (hours of work)."""


def timed(run: Callable[[GameCode], T], codes: list[GameCode]) -> tuple[list[float], list[T]]:
    seconds, results = [], []
    for code in codes:
        started = time.perf_counter()
        results.append(run(code))
        seconds.append(time.perf_counter() - started)
    return seconds, results


def stored_verdicts() -> dict[str, Verdict]:
    if not STORED.exists():
        return {}
    rows = [json.loads(line) for line in STORED.read_text().splitlines() if line]
    return {row["code"]: Verdict(row["winnable"], row["draws"], row["max_removed"]) for row in rows}


def as_verdict(solution: Solution) -> Verdict:
    return Verdict(
        solution.winnable, solution.draws if solution.winnable else None, solution.max_removed
    )


def agreement(
    label: str, codes: list[GameCode], mine: list[Verdict], theirs: dict[str, Verdict]
) -> str:
    """How many of the deals the reference knows get the same verdict, fewest draws and most removed."""
    known = [(str(c), v) for c, v in zip(codes, mine, strict=True) if str(c) in theirs]
    wrong = [code for code, verdict in known if verdict != theirs[code]]
    line = f"  agrees with the {label} on {len(known) - len(wrong)} of {len(known)} deals"
    return line + (f"; DISAGREES on {', '.join(wrong)}" if wrong else "")


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
    print(
        f"search: {'compiled (tripeaks/_search.c)' if COMPILED else 'Python (no compiled search built)'}"
    )
    for name in args.rules:
        rules = Rules.EASY if name == "easy" else Rules.CLASSIC
        codes = fixed_codes(args.deals, rules)
        decide, winnable = timed(is_winnable, codes)
        best, solutions = timed(solve, codes)
        assert winnable == [solution.winnable for solution in solutions]
        print(f"{name}: {len(codes)} deals, {sum(winnable)} winnable")
        print(summary("decide", decide))
        print(summary("best win", best))
        verdicts = [as_verdict(solution) for solution in solutions]
        print(agreement("stored reference verdicts", codes, verdicts, stored_verdicts()))
        sample = codes[: args.reference_deals]
        if not sample:
            continue
        reference, theirs = timed(lambda code: reference_search(deal(code), code.rules), sample)
        print(summary("reference", reference))
        live = {str(code): verdict for code, verdict in zip(sample, theirs, strict=True)}
        print(agreement("reference run now", codes, verdicts, live))
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
