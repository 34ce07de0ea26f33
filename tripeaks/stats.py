"""A player's statistics, computed from their counted games so that the results log stays the truth."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tripeaks.rules import Rules
from tripeaks.store import Result

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


def summarize(results: Sequence[Result], rules: Rules) -> Stats:
    """The figures of the games played under ``rules``, oldest first in ``results``."""
    mine = [r for r in results if r.code.rules is rules]
    winning = [r.score for r in mine if r.outcome == "won"]
    streak = best = 0
    for result in mine:
        streak = streak + 1 if result.outcome == "won" else 0
        best = max(best, streak)
    return Stats(
        played=len(mine),
        won=len(winning),
        win_rate=round(len(winning) / len(mine), 4) if mine else 0.0,
        current_streak=streak,
        best_streak=best,
        best_score=max((r.score for r in mine), default=None),
        average_winning_score=round(sum(winning) / len(winning), 1) if winning else None,
        longest_card_streak=max((r.streak for r in mine), default=None),
    )


def recent(results: Sequence[Result], limit: int = RECENT) -> list[Result]:
    """The latest counted games, newest first."""
    return list(reversed(results[-limit:])) if limit else []
