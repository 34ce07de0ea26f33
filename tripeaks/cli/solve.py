"""The solver's commands: ``tripeaks solve CODE`` and ``tripeaks survey``."""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import secrets
import sys
import time
from array import array
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, TextIO

from tripeaks.cli.helptext import examples
from tripeaks.cli.refusal import game_code
from tripeaks.engine.codes import (
    CODE_SPACE,
    GameCode,
    SplitMix64,
    deal,
)
from tripeaks.engine.game import Action, ActionKind
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_ID, BY_WORD
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring
from tripeaks.solver import streak
from tripeaks.solver.search import LOST, solve, survey_numbers

_RULES_BY_NAME = {"easy": Rules.EASY, "classic": Rules.CLASSIC}


def _layout(text: str) -> Layout:
    """A layout by its id (``four_peaks``) or its code word (``FOURPEAKS``), in any case."""
    name = text.strip()
    layout = BY_ID.get(name.lower()) or BY_WORD.get(name.upper())
    if layout is None:
        raise argparse.ArgumentTypeError(
            f"the layouts are {', '.join(BY_ID)} (or their code words), not {text!r}"
        )
    return layout


def line_labels(code: GameCode, line: tuple[Action, ...]) -> list[str]:
    """The line as a player reads it: the card played (``K♣``) or ``draw 4♠`` (``draw joker``)."""
    cards = deal(code)
    labels = []
    drawn = 0
    for action in line:
        if action.kind is ActionKind.DRAW:
            labels.append(f"draw {cards.stock[drawn]}")
            drawn += 1
        else:
            assert action.pos is not None
            labels.append(str(cards.tableau[action.pos]))
    return labels


def _result(code: GameCode) -> dict[str, Any]:
    if code.variant.scoring is Scoring.TRADITIONAL:
        return _traditional_result(code)
    solution = solve(code)
    return {
        "code": str(code),
        "rules": code.rules.name.lower(),
        "scoring": "ours",
        "winnable": solution.winnable,
        "final_score": solution.final_score,
        "draws": solution.draws if solution.winnable else None,
        "max_removed": solution.max_removed,
        "line": [str(action) for action in solution.line],
        "cards": line_labels(code, solution.line),
    }


def _traditional_result(code: GameCode) -> dict[str, Any]:
    """Under the traditional scoring the best score is the streak search's, over every ending:
    ``final_score`` and ``line`` are its best line (``won`` says whether it wins), ``win_score``
    the best of the wins alone; ``max_removed``, the most cards any line removes, is the scoring's
    to ignore."""
    best = streak.best_score(code)
    plain = solve(GameCode(replace(code.variant, scoring=Scoring.OURS), code.letters))
    return {
        "code": str(code),
        "rules": code.rules.name.lower(),
        "scoring": "traditional",
        "winnable": best.winnable,
        "final_score": best.score,
        "won": best.won,
        "win_score": best.win_score,
        "draws": sum(1 for action in best.line if action.kind is ActionKind.DRAW),
        "max_removed": plain.max_removed,
        "line": [str(action) for action in best.line],
        "cards": line_labels(code, best.line),
    }


def _describe(result: dict[str, Any]) -> str:
    rules = "Easy" if result["rules"] == "easy" else "Classic"
    if result["scoring"] == "traditional":
        ending = "a win" if result["won"] else "no win"
        verdict = "winnable" if result["winnable"] else "not winnable"
        wins = f"; the best win scores {result['win_score']}" if result["winnable"] else ""
        return (
            f"{result['code']} ({rules}, traditional scoring): {verdict}; best score "
            f"{result['final_score']} ({ending}) with {result['draws']} draws in "
            f"{len(result['line'])} moves{wins}\n  " + " ".join(result["cards"])
        )
    if not result["winnable"]:
        return (
            f"{result['code']} ({rules}): not winnable; "
            f"at most {result['max_removed']} of 28 cards can be removed"
        )
    return (
        f"{result['code']} ({rules}): winnable; best score {result['final_score']} "
        f"with {result['draws']} draws in {len(result['line'])} moves\n"
        + "  "
        + " ".join(result["cards"])
    )


def cmd_solve(args: argparse.Namespace) -> int:
    code: GameCode = args.code
    codes = [code]
    if args.both_rules:
        codes.append(code.with_rules(Rules.CLASSIC if code.rules is Rules.EASY else Rules.EASY))
    results = [_result(c) for c in codes]
    if args.json:
        print(json.dumps(results if args.both_rules else results[0], ensure_ascii=False, indent=2))
    else:
        print("\n".join(_describe(result) for result in results))
    return 0


def survey_codes(deals: int, rules: Rules, seed: int | None) -> Iterator[GameCode]:
    """The surveyed deals: reproducible from ``seed`` (a SplitMix64 stream), else random."""
    for number in survey_numbers_of(deals, seed):
        yield GameCode.from_number(number, rules)


def survey_numbers_of(deals: int, seed: int | None) -> Iterator[int]:
    """The surveyed deals' numbers, as survey_codes has them."""
    if seed is None:
        for _ in range(deals):
            yield secrets.randbelow(CODE_SPACE)
        return
    rng = SplitMix64(seed)
    for _ in range(deals):
        yield rng.below(CODE_SPACE)


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a share; sound near 0% and 100%, unlike the normal one."""
    if not trials:
        return 0.0, 1.0
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


BATCH = 2_000
"""Deals a worker takes at once: one message each way per batch, no Python object per deal."""


def _survey_batch(job: tuple[bytes, str, bool, str]) -> bytes:
    """A worker's batch: packed 64-bit deal numbers in, one result byte per deal out."""
    packed, rules, fewest_draws, layout = job
    numbers = array("Q", packed).tolist()
    return survey_numbers(numbers, _RULES_BY_NAME[rules], fewest_draws, BY_ID[layout])


class _Progress:
    """A one-line progress bar on stderr, redrawn at most ten times a second; only on a terminal:
    piped to a file or a log it would be a heap of carriage-return frames, so it draws nothing."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total, self.label = total, label
        self.stream = sys.stderr if stream is None else stream
        self.drawn = self.stream.isatty()
        self.started = self.shown = time.monotonic()

    def update(self, done: int) -> None:
        if not self.drawn:
            return
        now = time.monotonic()
        if done < self.total and now - self.shown < 0.1:
            return
        self.shown = now
        width = 30
        filled = width * done // max(1, self.total)
        rate = done / max(now - self.started, 1e-9)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
            f"{done}/{self.total} {rate:.0f} deals/s"
        )
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def cmd_survey(args: argparse.Namespace) -> int:
    started = time.monotonic()
    numbers = array("Q", survey_numbers_of(args.deals, args.seed))
    layout: Layout = args.layout
    jobs = [
        (numbers[i : i + BATCH].tobytes(), args.rules, args.draws, layout.id)
        for i in range(0, len(numbers), BATCH)
    ]
    workers = args.workers or os.cpu_count() or 1
    # The rules, and the layout unless it is Three Peaks.
    label = args.rules if layout is THREE_PEAKS else f"{args.rules} on {layout.id}"
    progress = _Progress(len(numbers), f"survey {label}")
    winnable = done = 0
    histogram = [0] * (52 - layout.size)  # 0 to the whole stock drawn
    with multiprocessing.Pool(workers) as pool:
        for results in pool.imap_unordered(_survey_batch, jobs):
            done += len(results)
            if args.draws:
                for draws in results:
                    if draws != LOST:
                        histogram[draws] += 1
                        winnable += 1
            else:
                winnable += sum(results)
            progress.update(done)
    seconds = time.monotonic() - started
    total = len(numbers)
    low, high = wilson_interval(winnable, total)
    share = winnable / total if total else 0.0
    print(
        f"{label}: {winnable} of {total} deals winnable = {share:.1%} "
        f"(95% Wilson interval {low:.1%} to {high:.1%}); {seconds:.1f} s on {workers} workers"
    )
    if args.draws:
        print("fewest draws of a win: draws, deals, share of the winnable deals")
        for draws, count in enumerate(histogram):
            if count:
                print(f"  {draws:2d} {count:9d} {count / max(1, winnable):6.1%}")
    return 0


def add_commands(commands: Any) -> None:
    """Register ``solve`` and ``survey`` on the ``tripeaks`` command's subparsers."""
    solve_cmd = commands.add_parser(
        "solve",
        help="can a deal be won, and its best win",
        **examples(
            "tripeaks solve TP1-C-AAAAAAB", "tripeaks solve TP1-E-AAAAAAB --json --both-rules"
        ),
    )
    solve_cmd.add_argument(
        "code", type=game_code, help="a game code such as TP1-E-AAAAAAB, or a long TP2-E-… code"
    )
    solve_cmd.add_argument("--json", action="store_true", help="print the result as JSON")
    solve_cmd.add_argument(
        "--both-rules", action="store_true", help="also solve the same cards under the other rules"
    )
    solve_cmd.set_defaults(run=cmd_solve)

    survey_cmd = commands.add_parser(
        "survey",
        help="the share of winnable deals among random codes",
        **examples("tripeaks survey --deals 100000 --rules classic --seed 1 --draws"),
    )
    survey_cmd.add_argument("--deals", type=int, default=1000)
    survey_cmd.add_argument("--rules", choices=sorted(_RULES_BY_NAME), default="easy")
    survey_cmd.add_argument("--workers", type=int, default=0, help="processes (default: all cores)")
    survey_cmd.add_argument("--seed", type=int, default=None, help="make the codes reproducible")
    survey_cmd.add_argument(
        "--layout",
        type=_layout,
        default=THREE_PEAKS,
        help="the table: a layout's id or code word, such as four_peaks or FOURPEAKS "
        "(default: three_peaks)",
    )
    survey_cmd.add_argument(
        "--draws",
        action="store_true",
        help="also the fewest draws of each win, as a histogram (several times slower)",
    )
    survey_cmd.set_defaults(run=cmd_survey)
