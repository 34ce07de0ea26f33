"""The grades' time and buckets over the bench deals, and whether the grades mean something.

First ``grade`` on ``--deals`` bench deals a rules (bench/reference.py fixed_codes): median, p99 and
mean milliseconds a deal (the exact verdict and the strategy's plays together; the issue's target is
a mean under 50 ms; wall and CPU of the thread, as the machine is shared) and how many deals fall in each grade.

``--python`` grades every deal a second time with the strategy's plays in Python (the fallback without
a C compiler; explain.COMPILED off), right after the compiled plays, and prints both and whether
every grade agreed: the two side by side in one run.

Then, with ``--validate K``, the fair-hint player (tripeaks/explain.py fair_hint with
``--hint-samples`` samples at every move, always playing its move) plays the first K deals of each
winnable grade to the end, and its win rate per grade is printed with the 95% Wilson interval: the
grades mean something when the rate falls from Gentle to Hard with no two intervals overlapping.
Prints figures only; it asserts nothing.

    PYTHONPATH=. python bench/grade.py [--deals 1000] [--python] [--validate 40] [--hint-samples 50] [--rules classic]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference import fixed_codes

from tripeaks import explain
from tripeaks.codes import GameCode
from tripeaks.game import Game
from tripeaks.rules import Rules
from tripeaks.variant import Variant

COMPILED = explain.COMPILED
WINNABLE = (explain.Grade.GENTLE, explain.Grade.MEDIUM, explain.Grade.HARD)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def fair_player_wins(code: GameCode, samples: int) -> bool:
    """One game played to its end by always taking the fair hint's move."""
    game = Game.new(code)
    while not game.is_won:
        moves = tuple(game.legal_moves())
        if len(moves) < 2:  # no choice to weigh: the hint could only name this move (or none)
            if not moves:
                return False
            game.apply(moves[0])
            continue
        hint = explain.fair_hint(game, samples)
        assert hint.move is not None
        game.apply(hint.move)
    return True


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--options", default="", help="variant letters: D, J, O, T")
    parser.add_argument("--validate", type=int, default=0, help="deals a grade for the fair player")
    parser.add_argument("--hint-samples", type=int, default=50)
    parser.add_argument("--rules", choices=["easy", "classic", "both"], default="both")
    parser.add_argument("--python", action="store_true", help="also time the plays in Python")
    args = parser.parse_args(argv)
    chosen = {"easy": (Rules.EASY,), "classic": (Rules.CLASSIC,)}
    for rules in chosen.get(args.rules, (Rules.EASY, Rules.CLASSIC)):
        variant = Variant(rules).with_options(args.options.upper())
        paths = {"compiled": COMPILED, "python": False} if args.python else {"": COMPILED}
        times: dict[str, list[float]] = {path: [] for path in paths}
        cpu: dict[str, list[float]] = {path: [] for path in paths}
        graded: dict[explain.Grade, list[GameCode]] = {grade: [] for grade in explain.Grade}
        disagreed = 0
        for code in fixed_codes(args.deals, variant):
            grades = []
            for path, compiled in paths.items():
                explain.COMPILED = compiled
                started, thread = time.perf_counter(), time.thread_time()
                grades.append(explain.grade(code))
                times[path].append((time.perf_counter() - started) * 1000)
                cpu[path].append((time.thread_time() - thread) * 1000)
            explain.COMPILED = COMPILED
            disagreed += len(set(grades)) > 1
            graded[grades[0]].append(code)
        counts = Counter({grade.value: len(codes) for grade, codes in graded.items()})
        for path in paths:
            print(
                f"{variant.key:6} grade{' ' + path if path else ''}, {args.deals} deals: median"
                f" {statistics.median(times[path]):.3f} ms  p99 {pct(times[path], 0.99):.3f} ms"
                f"  mean {statistics.mean(times[path]):.3f} ms (CPU of the thread: median"
                f" {statistics.median(cpu[path]):.3f}  p99 {pct(cpu[path], 0.99):.3f}"
                f"  mean {statistics.mean(cpu[path]):.3f} ms)",
                flush=True,
            )
        print(
            "    "
            + "  ".join(f"{grade.value} {counts[grade.value]}" for grade in explain.Grade)
            + (f" | grades that differ between the paths: {disagreed}" if args.python else ""),
            flush=True,
        )
        if not args.validate:
            continue
        intervals = []
        for grade in WINNABLE:
            codes = graded[grade][: args.validate]
            started = time.perf_counter()
            wins = sum(fair_player_wins(code, args.hint_samples) for code in codes)
            low, high = wilson(wins, len(codes))
            intervals.append((low, high))
            print(
                f"    fair player ({args.hint_samples} samples) on {len(codes)} {grade.value}"
                f" deals: won {wins} = {wins / max(1, len(codes)):.0%}"
                f"  95% Wilson [{low:.0%}, {high:.0%}]"
                f"  ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
        apart = all(intervals[i][0] > intervals[i + 1][1] for i in range(len(intervals) - 1))
        print(f"    falling with no overlap of the intervals: {'yes' if apart else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
