"""A player's statistics as running totals: each counted game is folded in once, when it is counted.

The results log stays the truth (the totals can always be rebuilt from it, and are, for a database
made before they existed); the totals make the statistics cost the same after 200,000 games as
after 20.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tripeaks.rules import Rules
from tripeaks.variant import Variant

if TYPE_CHECKING:
    from tripeaks.store import Result

RECENT = 20
"""How many of the latest counted games the statistics list."""


@dataclass(frozen=True, slots=True)
class Totals:
    """What is kept per player and kind of game (rules and options); :func:`figures` makes the
    statistics from it."""

    played: int = 0
    won: int = 0
    won_score_sum: int = 0
    best_score: int | None = None
    current_streak: int = 0
    best_streak: int = 0
    longest_card_streak: int | None = None


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


def count(totals: Totals, outcome: str, score: int, card_streak: int) -> Totals:
    """The totals with one more counted game: the one place where a game changes the statistics."""
    won = outcome == "won"
    current = totals.current_streak + 1 if won else 0
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
    )


def fold(results: Iterable[Result], kind: Rules | Variant) -> Totals:
    """The totals of the games of one kind (rules alone: the standard game), oldest first in
    ``results``; each scoring and variant is a kind of its own."""
    variant = Variant(kind) if isinstance(kind, Rules) else kind
    totals = Totals()
    for r in results:
        if r.code.variant == variant:
            totals = count(totals, r.outcome, r.score, r.streak)
    return totals


def summarize(results: Sequence[Result], kind: Rules | Variant) -> Stats:
    """The figures straight from the log (what the kept totals must always equal)."""
    return figures(fold(results, kind))


def recent(results: Sequence[Result], limit: int = RECENT) -> list[Result]:
    """The latest counted games, newest first."""
    return list(reversed(results[-limit:])) if limit else []
