"""Stars for a level, from a game's own actions, measured against the deal's proven best score.

0 stars: not won. 1: a win. 2: a win within the margin of the best score. 3: the best score itself
(under our scoring, a win with the fewest draws the deal needs). The margins (docs/journey.md
"Stars"): under our scoring, at most MARGIN_DRAWS draws more than the fewest, which is the best
score less MARGIN_DRAWS points (a draw costs one); under the traditional scoring, at least
TRADITIONAL_SHARE of the best score, rounded up.

The only inputs are the level and the actions: the game is rebuilt through the engine
(:func:`tripeaks.journey.goals.replay`), so no score, star or goal a caller states is believed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tripeaks.engine.game import Action
from tripeaks.journey.goals import Played, met, replay
from tripeaks.journey.levels import Level

MARGIN_DRAWS = 3
"""Our scoring: two stars for a win with at most this many draws more than the fewest."""
TRADITIONAL_SHARE = Fraction(1, 2)
"""The traditional scoring: two stars for a win scoring at least this share of the best."""
MAX_STARS = 3


def two_star_score(level: Level) -> int:
    """The least score of a two-star win of ``level``."""
    if level.traditional:
        return math.ceil(level.best_score * TRADITIONAL_SHARE)
    return level.best_score - MARGIN_DRAWS


def stars_of(level: Level, played: Played) -> int:
    """The stars a game of ``level`` earned, from the game the engine rebuilt."""
    game = played.game
    if not game.is_won:
        return 0
    if game.score >= level.best_score:
        return 3
    return 2 if game.score >= two_star_score(level) else 1


def next_star(level: Level, stars: int) -> dict[str, Any] | None:
    """What the next star needs, as data: ``{"kind": "win"}``; under our scoring
    ``{"kind": "draws_at_most", "n": …}``, under the traditional ``{"kind": "score_at_least",
    "n": …}``; None at three stars."""
    if stars >= MAX_STARS:
        return None
    if stars == 0:
        return {"kind": "win"}
    if level.traditional:
        need = two_star_score(level) if stars == 1 else level.best_score
        return {"kind": "score_at_least", "n": need}
    extra = MARGIN_DRAWS if stars == 1 else 0
    return {"kind": "draws_at_most", "n": level.fewest_draws + extra}


@dataclass(frozen=True, slots=True)
class Result:
    """How a game of a level ended, all of it found by replaying its actions."""

    stars: int
    won: bool
    score: int
    best_score: int
    goal_met: bool | None
    """None when the level has no goal."""
    next: dict[str, Any] | None

    def to_data(self) -> dict[str, Any]:
        return {
            "stars": self.stars,
            "won": self.won,
            "score": self.score,
            "best_score": self.best_score,
            "goal_met": self.goal_met,
            "next": self.next,
        }


def judge(level: Level, actions: Iterable[Action | str]) -> Result:
    """A game of ``level`` played with ``actions`` (its whole log, undos included), judged: its
    stars, its goal and what the next star needs. An illegal log raises IllegalMove (or ValueError
    for a text that is no action): nothing is earned by a log the engine refuses."""
    played = replay(level.code, actions)
    stars = stars_of(level, played)
    return Result(
        stars=stars,
        won=played.won,
        score=played.game.score,
        best_score=level.best_score,
        goal_met=None if level.goal is None else met(level.goal, played),
        next=next_star(level, stars),
    )


__all__ = [
    "MARGIN_DRAWS",
    "MAX_STARS",
    "TRADITIONAL_SHARE",
    "Result",
    "judge",
    "next_star",
    "stars_of",
    "two_star_score",
]
