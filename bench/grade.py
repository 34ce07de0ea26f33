"""The grades' time and buckets over the bench deals, and whether the grades mean something.

First ``grade`` on ``--deals`` bench deals a rules (bench/reference.py fixed_codes): median, p99 and
mean milliseconds a deal (the exact verdict and the strategy's plays together; the issue's target is
a mean under 50 ms; wall and CPU of the thread, as the machine is shared) and how many deals fall in each grade.

Then, with ``--validate K``, the fair-hint player (tripeaks/explain.py fair_hint with
``--hint-samples`` samples at every move, always playing its move) plays the first K deals of each
winnable grade to the end, and its win rate per grade is printed with the 95% Wilson interval: the
grades mean something when the rate falls from Gentle to Hard with no two intervals overlapping.
Prints figures only; it asserts nothing.

    PYTHONPATH=. python bench/grade.py [--deals 1000] [--validate 40] [--hint-samples 50] [--rules classic]
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
    args = parser.parse_args(argv)
    chosen = {"easy": (Rules.EASY,), "classic": (Rules.CLASSIC,)}
    for rules in chosen.get(args.rules, (Rules.EASY, Rules.CLASSIC)):
        variant = Variant(rules).with_options(args.options.upper())
        times: list[float] = []
        cpu: list[float] = []
        graded: dict[explain.Grade, list[GameCode]] = {grade: [] for grade in explain.Grade}
        for code in fixed_codes(args.deals, variant):
            started, thread = time.perf_counter(), time.thread_time()
            grade = explain.grade(code)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - thread) * 1000)
            graded[grade].append(code)
        counts = Counter({grade.value: len(codes) for grade, codes in graded.items()})
        print(
            f"{variant.key:6} grade, {args.deals} deals: median {statistics.median(times):.1f} ms"
            f"  p99 {pct(times, 0.99):.1f} ms  mean {statistics.mean(times):.1f} ms (CPU of the thread:"
            f" median {statistics.median(cpu):.1f}  p99 {pct(cpu, 0.99):.1f}"
            f"  mean {statistics.mean(cpu):.1f} ms) | "
            + "  ".join(f"{grade.value} {counts[grade.value]}" for grade in explain.Grade),
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
