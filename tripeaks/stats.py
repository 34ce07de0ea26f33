"""A player's statistics as running totals: each counted game is folded in once, when it is counted.

The results log stays the truth (the totals can always be rebuilt from it, and are, for a database
made before they existed); the totals make the statistics cost the same after 200,000 games as
after 20.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.store.policy import Kind as Kind  # a kind of game the statistics keep apart
from tripeaks.store.policy import Totals as Totals  # the totals table's row
from tripeaks.store.policy import Verdict as Verdict  # a counted game's verdict

if TYPE_CHECKING:
    from tripeaks.engine.codes import GameCode
    from tripeaks.store.results import Result

RECENT = 20
"""How many of the latest counted games the statistics list."""


@dataclass(frozen=True, slots=True)
class Stats:
    """The figures of one set of rules."""

    played: int
    won: int
    win_rate: float
    """Won / played, from 0 to 1 (0 before any game)."""
    current_streak: int
    best_streak: int
    best_score: int | None
    average_winning_score: float | None
    longest_card_streak: int | None
    """The longest run of removals in one counted game (None before any game)."""
    winnable_played: int = 0
    """"Won N of the M deals that could be won": M, of the judged games."""
    winnable_won: int = 0
    """N: judged games won (every win is of a deal that could be won)."""
    best_share: float | None = None
    """The share of the deal's best score reached on average (0-1), over judged winnable deals."""
    won_with_hints: int = 0
    won_without_hints: int = 0
    """Judged wins with and without a hint asked."""
    won_with_perfect_hints: int = 0
    won_with_fair_hints: int = 0
    """Judged wins with a perfect hint, and with fair hints only (together won_with_hints)."""
    by_grade: dict[str, dict[str, int]] = field(default_factory=dict)
    """{"played": n, "won": m} of the judged games counted with a grade, by grade (every grade a key)."""


GRADES = ("gentle", "medium", "hard", "unwinnable")
"""explain.Grade's values, in the order the statistics list them."""
HINT_KINDS = ("perfect", "fair")
"""The kinds of hint: the one that knows every card, and the one that sees what the player sees."""


@lru_cache(maxsize=4096)
def judge(code: GameCode) -> Verdict | None:
    """The solver's verdict on a standard deal from its start, with its grade (a few
    milliseconds, compiled, on any layout; kept for the deals seen lately); None for a game with
    options (not judged)."""
    if code.options:
        return None
    from tripeaks.solver import explain
    from tripeaks.solver import search as solver

    solution = solver.solve(code)
    return Verdict(solution.winnable, solution.final_score, explain.grade(code).value)


def per_mille(score: int, best: int | None) -> int:
    """The share of the best score a game reached, in thousandths (0-1000)."""
    if not best:
        return 0
    return max(0, min(1000, round(1000 * score / best)))


def count(
    totals: Totals,
    outcome: str,
    score: int,
    card_streak: int,
    verdict: Verdict | None = None,
    hint: str | None = None,
) -> Totals:
    """The totals with one more counted game: the one place where a game changes the statistics.

    ``verdict`` is the solver's word on the deal (None: not judged); ``hint`` the kind of hint
    the game had ("perfect" if any hint was perfect, "fair", or None: no hint asked)."""
    won = outcome == "won"
    current = totals.current_streak + 1 if won else 0
    if verdict is not None:
        winnable = verdict.winnable
        totals = replace(
            totals,
            judged=totals.judged + 1,
            judged_winnable=totals.judged_winnable + winnable,
            judged_won=totals.judged_won + won,
            won_hinted=totals.won_hinted + (won and hint is not None),
            won_perfect=totals.won_perfect + (won and hint == "perfect"),
            best_share_sum=totals.best_share_sum
            + (per_mille(score, verdict.best) if winnable else 0),
        )
        if verdict.grade in GRADES:
            played, won_name = f"{verdict.grade}_played", f"{verdict.grade}_won"
            totals = replace(
                totals,
                **{
                    played: getattr(totals, played) + 1,
                    won_name: getattr(totals, won_name) + won,
                },
            )
    return replace(
        totals,
        played=totals.played + 1,
        won=totals.won + won,
        won_score_sum=totals.won_score_sum + (score if won else 0),
        best_score=score if totals.best_score is None else max(totals.best_score, score),
        current_streak=current,
        best_streak=max(totals.best_streak, current),
        longest_card_streak=card_streak
        if totals.longest_card_streak is None
        else max(totals.longest_card_streak, card_streak),
    )


def figures(totals: Totals) -> Stats:
    return Stats(
        played=totals.played,
        won=totals.won,
        win_rate=round(totals.won / totals.played, 4) if totals.played else 0.0,
        current_streak=totals.current_streak,
        best_streak=totals.best_streak,
        best_score=totals.best_score,
        average_winning_score=round(totals.won_score_sum / totals.won, 1) if totals.won else None,
        longest_card_streak=totals.longest_card_streak,
        winnable_played=totals.judged_winnable,
        winnable_won=totals.judged_won,
        best_share=round(totals.best_share_sum / totals.judged_winnable / 1000, 4)
        if totals.judged_winnable
        else None,
        won_with_hints=totals.won_hinted,
        won_without_hints=totals.judged_won - totals.won_hinted,
        won_with_perfect_hints=totals.won_perfect,
        won_with_fair_hints=totals.won_hinted - totals.won_perfect,
        by_grade={
            g: {"played": getattr(totals, f"{g}_played"), "won": getattr(totals, f"{g}_won")}
            for g in GRADES
        },
    )


def fold(results: Iterable[Result], kind: Rules | Variant | Kind) -> Totals:
    """The totals of the games of one kind (rules alone: the standard game; a variant: on Three
    Peaks), oldest first in ``results``; each layout, scoring and variant is a kind of its own."""
    if not isinstance(kind, Kind):
        kind = Kind(Variant(kind) if isinstance(kind, Rules) else kind)
    totals = Totals()
    for r in results:
        if Kind.of(r.code) == kind:
            verdict = None if r.winnable is None else Verdict(r.winnable, r.best, r.grade)
            totals = count(totals, r.outcome, r.score, r.streak, verdict, r.hint)
    return totals


def summarize(results: Sequence[Result], kind: Rules | Variant | Kind) -> Stats:
    """The figures straight from the log (what the kept totals must always equal)."""
    return figures(fold(results, kind))


def recent(results: Sequence[Result], limit: int = RECENT) -> list[Result]:
    """The latest counted games, newest first."""
    return list(reversed(results[-limit:])) if limit else []
