"""Time the solver on the bench's fixed codes, one process, and compare it with the reference search.

    .venv/bin/python bench/solver.py [--deals 1000] [--reference-deals 100] [--rules easy classic]
        [--options DJ] [--layout-deals 1000] [--layouts four_peaks valley ...] [--layouts-only]

Prints median, p99 and max time per deal and deals/s for "decide" (is_winnable) and "best win"
(solve); side by side in the same run, "decide" by the depth-first search alone from a Game
("search"), by is_winnable from a Game ("decide") and from a code, dealt and decided in C from its
number ("from code"); the backward pass's preparation of a game's Answers ("prepare") and the
per-position answer and hint from them on random mid-game positions ("answer", "hint"); solve from
a code ("best win") and a preparation plus Answers.solve from a Game ("best/Game"); "winnable
only": random_winnable_code, drawing random codes until one is proved winnable; the load average
with every block. Then whether the verdicts (winnable, fewest draws, most cards removed) agree with
the reference's stored in tests/data, then the reference's time on the first ``--reference-deals``
of the same deals, its verdicts there, and the speed-up over it. Figures only: nothing here asserts
on time. With ``--options`` (D, J, O; not T) the same deals are played as that variant.

Then a figure per layout, Three Peaks first, in the same run (issue 38; ``--layout-deals`` 0 skips
it, ``--layouts-only`` runs it alone): the same ``--layout-deals`` deal numbers on every layout,
"decide" (is_winnable from a code, dealt and decided in C), "best win" (solve from a code) and
"winnable only" (the app's request: a deal from a WinnablePool, the loop when it is empty), each
median and p99, wall and this thread's CPU time, with the load average; then the loop alone
(random_winnable_code, what each request paid before the pool) and the pool's refill: deals proved
a CPU second of its thread, codes tried a deal, requests that found it empty. Each layout's table
sets are numbered before its timing (once a process: 9 ms on Three Peaks, 0.06 s on Valley).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from reference import Verdict, fixed_codes, reference_search

from tripeaks.engine.codes import GameCode, deal
from tripeaks.engine.game import Game
from tripeaks.engine.layout import Layout
from tripeaks.engine.layouts import BY_ID, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver import COMPILED
from tripeaks.solver.pool import WinnablePool
from tripeaks.solver.search import (
    Answers,
    Solution,
    _explore,
    is_winnable,
    random_winnable_code,
    solve,
)

T = TypeVar("T")
U = TypeVar("U")


STORED = Path(__file__).parent.parent / "tests" / "data" / "solver_reference.jsonl"
"""The reference's verdicts on the fixed codes, written by bench/reference.py (hours of work)."""
STORED_VARIANTS = STORED.with_name("solver_reference_variants.jsonl")
"""The same for a sample of the variants' deals (other seeds: few of them are the bench's)."""


@dataclass
class Times:
    """Seconds per call: wall clock, and the CPU time of this thread (what the call itself cost,
    whatever else the shared machine was running; the scheduler's waits are in wall only)."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def timed(run: Callable[[U], T], codes: list[U]) -> tuple[Times, list[T]]:
    times, results = Times(), []
    for code in codes:
        started, cpu = time.perf_counter(), time.thread_time()
        results.append(run(code))
        times.cpu.append(time.thread_time() - cpu)
        times.wall.append(time.perf_counter() - started)
    return times, results


def timed_each(run: Callable[[T], object], items: list[T]) -> Times:
    """As timed, each result dropped at once: keeping a thousand prepared tables (367 KB each)
    would make every preparation fault in fresh memory, which is not what a game pays."""
    times = Times()
    for item in items:
        started, cpu = time.perf_counter(), time.thread_time()
        run(item)
        times.cpu.append(time.thread_time() - cpu)
        times.wall.append(time.perf_counter() - started)
    return times


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def mid_games(games: list[Game], per_game: int, rng: random.Random) -> list[tuple[Answers, Game]]:
    """Random positions of each game (random legal moves, plays preferred), with its Answers."""
    out = []
    for start in games:
        answers = Answers.of(start)
        for _ in range(per_game):
            game = start.copy()
            for _ in range(rng.randrange(0, 40)):
                moves = list(game.legal_moves())
                if not moves:
                    break
                game.apply(rng.choice(moves))
            out.append((answers, game))
    return out


def stored_verdicts() -> dict[str, Verdict]:
    rows = [
        json.loads(line)
        for path in (STORED, STORED_VARIANTS)
        if path.exists()
        for line in path.read_text().splitlines()
        if line
    ]
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


def figures(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"median {1000 * statistics.median(ordered):8.3f} ms"
        f"  p99 {1000 * p99:8.3f} ms  max {1000 * ordered[-1]:8.3f} ms"
    )


def summary(name: str, times: Times) -> str:
    rate = len(times.wall) / sum(times.wall)
    return (
        f"  {name:<10} {figures(times.wall)}  {rate:10.1f} /s\n  {'':<6} cpu {figures(times.cpu)}"
    )


def short(seconds: list[float]) -> str:
    """Median and p99 in milliseconds, as figures does."""
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{1000 * statistics.median(ordered):7.3f} {1000 * p99:7.3f}"


def winnable_request(pool: WinnablePool, layout: Layout, variant: Variant) -> bool:
    """The app's winnable-only request: a deal from the pool, else the loop; whether it was empty."""
    if pool.take(variant, layout) is not None:
        return False
    random_winnable_code(variant, layout=layout)
    return True


def layout_figures(rules_names: list[str], options: str, deals: int, layout_ids: list[str]) -> None:
    """decide, best win and winnable-only per layout, side by side with Three Peaks.

    "winnable only" is the app's request (tripeaks/web/backend/solving.py winnable_code): a deal
    from the pool kept ready (tripeaks/solver/pool.py), the loop itself when it is empty; the
    pool is let refill between two requests, untimed, and its cost is given beside: winnable
    deals proved a second of the refill thread's CPU and codes tried a deal ("refill"), with how
    many requests found the pool empty. "loop" is random_winnable_code alone, what each request
    paid before the pool."""
    print(f"per layout, {deals} deals each (the same numbers), ms median p99 (wall; cpu): {load()}")
    print(
        f"  {'layout':<12} {'rules':<8} {'won':>6}  {'decide wall':>15} {'cpu':>15}"
        f"  {'best win wall':>15} {'cpu':>15}  {'win. only wall':>15} {'cpu':>15}"
        f"  {'loop cpu':>15}  {'refill /s':>9} {'tries':>5} {'empty':>5}"
    )
    for name in rules_names:
        rules = Rules.EASY if name == "easy" else Rules.CLASSIC
        variant = Variant(rules).with_options(options)
        numbers = fixed_codes(deals, variant)
        for layout in (BY_ID[layout_id] for layout_id in layout_ids):
            codes = [GameCode(variant, code.letters, layout) for code in numbers]
            solve(codes[0])  # numbers the layout's table sets, once a process, before any timing
            decide, winnable = timed(is_winnable, codes)
            best, solutions = timed(solve, codes)
            assert winnable == [solution.winnable for solution in solutions]
            dealing = functools.partial(random_winnable_code, layout=layout)
            loop = timed_each(dealing, [variant] * deals)
            pool = WinnablePool()
            asking = functools.partial(winnable_request, pool, layout)
            only, empty = Times(), 0
            for _ in range(deals):
                pool.settle(60.0)
                step, found = timed(asking, [variant])
                only.wall += step.wall
                only.cpu += step.cpu
                empty += found[0]
            pool.settle(60.0)
            pool.close()
            refills = pool.refills
            print(
                f"  {layout.id:<12} {name + ('-' + options if options else ''):<8}"
                f" {sum(winnable) / deals:>6.1%}  {short(decide.wall)} {short(decide.cpu)}"
                f"  {short(best.wall)} {short(best.cpu)}  {short(only.wall)} {short(only.cpu)}"
                f"  {short(loop.cpu)}  {refills.proved / refills.seconds:>9.0f}"
                f" {refills.tried / refills.proved:>5.2f} {empty:>5}",
                flush=True,
            )
    print(f"  ({load()})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--reference-deals", type=int, default=100)
    parser.add_argument(
        "--rules", nargs="+", choices=["easy", "classic"], default=["easy", "classic"]
    )
    parser.add_argument("--options", default="", help="variant letters D, J, O (not T)")
    parser.add_argument("--layout-deals", type=int, default=1000)
    parser.add_argument(
        "--layouts", nargs="+", choices=list(BY_ID), default=[layout.id for layout in LAYOUTS]
    )
    parser.add_argument("--layouts-only", action="store_true", help="only the per-layout figures")
    args = parser.parse_args(argv)
    options = args.options.upper()
    if set(options) - set("DJO") or len(set(options)) != len(options):
        parser.error("--options: each of D, J and O at most once (T is not this solver's)")
    print(
        f"search: {'compiled (tripeaks/solver/_search.c)' if COMPILED else 'Python (no compiled search built)'}"
    )
    if args.layouts_only:
        layout_figures(args.rules, options, args.layout_deals, args.layouts)
        return 0
    stored = stored_verdicts()
    for name in args.rules:
        rules = Rules.EASY if name == "easy" else Rules.CLASSIC
        variant = Variant(rules).with_options(options)
        codes = fixed_codes(args.deals, variant)
        games = [Game.new(code) for code in codes]
        Answers.of(games[0])  # numbers the table sets, once per process, before any timing
        print(f"{name}{'-' + options if options else ''}: {load()}")
        searched = timed_each(lambda game: _explore(game, best_win=False), games)
        from_game = timed_each(is_winnable, games)
        decide, winnable = timed(is_winnable, codes)
        prepare = timed_each(Answers.of, games)
        positions = mid_games(games, 5, random.Random(12))
        answer = timed_each(lambda pair: pair[0].winnable(pair[1]), positions)
        hinted = timed_each(lambda pair: pair[0].hint(pair[1]), positions)
        print(f"  ({load()})")
        sweep, swept = timed(lambda game: Answers.of(game).solve(game), games)
        best, solutions = timed(solve, codes)
        assert winnable == [solution.winnable for solution in solutions]
        only = timed_each(random_winnable_code, [variant] * len(codes))
        print(f"{name}: {len(codes)} deals, {sum(winnable)} winnable; {len(positions)} positions")
        print(summary("search", searched))
        print(summary("decide", from_game))
        print(summary("from code", decide))
        print(summary("prepare", prepare))
        print(summary("answer", answer))
        print(summary("hint", hinted))
        print(summary("best win", best))
        print(summary("best/Game", sweep))
        print(summary("win. only", only))
        print(f"  ({load()})")
        verdicts = [as_verdict(solution) for solution in solutions]
        print(agreement("stored reference verdicts", codes, verdicts, stored_verdicts()))
        swept_verdicts = [as_verdict(solution) for solution in swept]
        print(
            "  best/Game:" + agreement("stored reference verdicts", codes, swept_verdicts, stored)
        )
        sample = codes[: args.reference_deals]
        if not sample:
            continue
        reference_times, theirs = timed(
            lambda code: reference_search(deal(code), code.rules), sample
        )
        reference = reference_times.wall
        print(summary("reference", reference_times))
        live = {str(code): verdict for code, verdict in zip(sample, theirs, strict=True)}
        print(agreement("reference run now", codes, verdicts, live))
        n = len(sample)
        for label, mine in (("decide", decide.wall[:n]), ("best win", best.wall[:n])):
            print(
                f"  speed-up of {label} over the reference on {n} deals: "
                f"{sum(reference) / sum(mine):.1f}x in total time, "
                f"{statistics.median(r / m for r, m in zip(reference, mine, strict=True)):.1f}x "
                "median per deal"
            )
    if args.layout_deals:
        layout_figures(args.rules, options, args.layout_deals, args.layouts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
