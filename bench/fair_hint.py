"""The fair hint's time: 200 samples on a mid-game position of each of 100 bench deals a rules.

The position is halfway along the deal's best win (or, on a deal that cannot be won, after as many
first legal moves as half its stock). Prints median/p95/max milliseconds of ``fair_hint`` a rules,
the part of it that deals the samples, and, side by side in the same run, the former way of weighing
them (each sample's every position prepared by the backward pass, ``solver.Answers``, where the hint
now decides just the positions its moves lead to, ``solver.winnable_positions``), CPU of the thread.
The issue's target is p95 < 300 ms. Prints figures only; it asserts nothing.

    PYTHONPATH=. python bench/fair_hint.py [--deals 100] [--samples 200] [--options J]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference import fixed_codes

from tripeaks import explain, solver
from tripeaks.codes import GameCode
from tripeaks.game import Game
from tripeaks.rules import Rules
from tripeaks.variant import Scoring, Variant


def midgame(code: GameCode) -> Game:
    """Halfway along a best win, or along the first legal moves of a deal that cannot be won."""
    game = Game.new(code)
    ours = GameCode(replace(code.variant, scoring=Scoring.OURS), code.letters)
    best = solver.solve(ours)
    if best.winnable:
        line = best.line[: len(best.line) // 2]
    else:
        line = ()
        for _ in range(len(game.deal.stock) // 2 + 4):
            move = next(game.legal_moves(), None)
            if move is None:
                break
            game.apply(move)
    for action in line:
        game.apply(action)
    return game


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--options", default="", help="variant letters: D, J, O, T")
    args = parser.parse_args(argv)
    for rules in (Rules.EASY, Rules.CLASSIC):
        variant = Variant(rules).with_options(args.options.upper())
        times, cpu, dealing, preparing = [], [], [], []
        for code in fixed_codes(args.deals, variant):
            game = midgame(code)
            started, thread = time.perf_counter(), time.thread_time()
            explain.fair_hint(game, args.samples)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - thread) * 1000)
            started = time.perf_counter()
            deals = explain.consistent_deals(game, args.samples)
            dealing.append((time.perf_counter() - started) * 1000)
            thread = time.thread_time()
            for sample in deals:
                solver.Answers(sample, rules)
            preparing.append((time.thread_time() - thread) * 1000)
        print(
            f"{variant.key:6} fair_hint x{args.samples} samples, {args.deals} deals:"
            f" median {statistics.median(times):.1f} ms  p95 {pct(times, 0.95):.1f} ms"
            f"  max {max(times):.1f} ms (CPU of the thread: median {statistics.median(cpu):.1f}"
            f"  p95 {pct(cpu, 0.95):.1f}  max {max(cpu):.1f} ms) | dealing the samples median"
            f" {statistics.median(dealing):.1f} ms | the former way, every sample prepared:"
            f" CPU median {statistics.median(preparing):.1f}  p95 {pct(preparing, 0.95):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
