"""Time the traditional scoring's best score (tripeaks.solver.streak.best_score) from the start of a deal.

    .venv/bin/python bench/streak.py [--deals 500] [--rules easy classic] [--options DJ]
                                     [--python-deals 0] [--layouts three_peaks valley ... | all]

The bench's fixed codes (bench/reference.py) with the traditional scoring (and ``--options``, any of
D J O, the variants beside it), on each of ``--layouts`` (Three Peaks unless said; the same letters
deal every layout), one process: median,
p99 and max wall time per deal and deals/s, the load average, and the spread of the best scores
(how many deals have a best line that is not a win, how many cannot be won). ``--python-deals``
times the Python fallback on the first few deals too (seconds each) and says on how many its
best score and best win equal the compiled search's. The checksum (the first 12 hex digits of a
SHA-256 over every deal's best score and best win, in order) says that two builds of the search
answered every deal alike: compare it before and after a change. Figures only: nothing here
asserts on time.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from reference import fixed_codes

from tripeaks.engine.codes import GameCode
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_ID, BY_WORD, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import COMPILED, portable, streak
from tripeaks.solver.kernel import KERNEL, Kernel


def timed(
    codes: list[GameCode], kernel: Kernel
) -> tuple[list[float], list[float], list[streak.StreakSolution]]:
    """Wall seconds and this thread's CPU seconds per deal (the CPU time is what the call itself
    cost, whatever else the machine runs), and the answers."""
    wall, cpu, answers = [], [], []
    for code in codes:
        start, start_cpu = time.perf_counter(), time.thread_time()
        answers.append(streak.best_score(code, kernel))
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
    return wall, cpu, answers


def checksum(answers: list[streak.StreakSolution]) -> str:
    """The deals' (best score, best win) in order, as 12 hex digits: equal for equal answers."""
    digest = hashlib.sha256()
    for answer in answers:
        digest.update(f"{answer.score},{answer.win_score};".encode())
    return digest.hexdigest()[:12]


def report(label: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    print(
        f"{label:<34} median {statistics.median(ms):7.1f} ms  p99 {p99:7.1f} ms  "
        f"max {ms[-1]:7.1f} ms  {len(ms) / sum(seconds):6.1f} deals/s  "
        f"(load {os.getloadavg()[0]:.2f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument(
        "--rules", nargs="+", choices=["easy", "classic"], default=["easy", "classic"]
    )
    parser.add_argument("--options", default="", help="variants beside T: any of D, J, O")
    parser.add_argument("--python-deals", type=int, default=0)
    parser.add_argument(
        "--layouts",
        nargs="+",
        default=["three_peaks"],
        help="layout ids or code words (valley, VALLEY), or all",
    )
    args = parser.parse_args(argv)
    if set(args.options) - set("DJO"):
        parser.error("--options takes D, J and O")
    names = [layout.id for layout in LAYOUTS] if args.layouts == ["all"] else args.layouts
    unknown = [n for n in names if n.lower() not in BY_ID and n.upper() not in BY_WORD]
    if unknown:
        parser.error(f"no layout {', '.join(unknown)}: the layouts are {', '.join(BY_ID)}")
    layouts = [BY_ID.get(n.lower()) or BY_WORD[n.upper()] for n in names]
    print(f"compiled: {COMPILED}")
    for layout in layouts:
        for name in args.rules:
            run(layout, name, args)
    return 0


def run(layout: Layout, name: str, args: argparse.Namespace) -> None:
    """One layout under one rules: the figures, the spread of the scores and the checksum."""
    rules = Rules.EASY if name == "easy" else Rules.CLASSIC
    variant = Variant(rules, Scoring.TRADITIONAL).with_options(args.options + "T")
    codes = [GameCode(variant, c.letters, layout) for c in fixed_codes(args.deals, rules)]
    wall, cpu, answers = timed(codes, KERNEL)
    name = name if layout is THREE_PEAKS else f"{layout.id} {name}"
    report(f"{name} best score, wall", wall)
    report(f"{name} best score, CPU", cpu)
    scores = sorted(a.score for a in answers)
    not_won = sum(1 for a in answers if not a.won)
    lost = sum(1 for a in answers if not a.winnable)
    memo = sorted(a.memoised for a in answers)
    print(f"{'':<34} positions memoised median {statistics.median(memo):.0f}, max {memo[-1]}")
    print(
        f"{'':<34} best score median {statistics.median(scores)}, min {scores[0]}, "
        f"max {scores[-1]}; best line not a win: {not_won}; no win at all: {lost}"
    )
    print(f"{'':<34} checksum of (best score, best win) per deal: {checksum(answers)}")
    if args.python_deals:
        python, _, slow = timed(codes[: args.python_deals], portable)
        report(f"{name} in Python, wall", python)
        agree = sum(
            (a.score, a.win_score) == (b.score, b.win_score)
            for a, b in zip(slow, answers, strict=False)
        )
        print(f"{'':<34} Python and compiled agree on {agree} of {len(slow)} deals")


if __name__ == "__main__":
    raise SystemExit(main())
