"""A level's goal beyond clearing the table, judged only from a game's own actions.

A goal is data (a kind and a number); whether a game met it is decided by replaying the game's
actions through the engine (:func:`replay`) and reading the facts the engine keeps or tells in its
Turns: the draws that stand, the longest run, the undos in the log, the order the groups were
emptied in, the score. No figure a caller sends is ever read (docs/journey.md "Goals").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import ACTION_LIMIT, Action, ActionKind, Game
from tripeaks.engine.variant import Scoring


class GoalKind(Enum):
    """What a goal asks of a win; the value is its name in the data file and the API."""

    DRAWS_AT_MOST = "draws_at_most"
    """Win with at most ``n`` draws (the draws that stand: an undone draw is taken back)."""
    RUN_AT_LEAST = "run_at_least"
    """Win with a run of at least ``n`` cards: the game's longest streak of plays between draws."""
    NO_UNDO = "no_undo"
    """Win without a single undo in the log."""
    GROUP_FIRST = "group_first"
    """Win with group ``n`` (of the layout's groups, 0 the first) the first group emptied."""
    SCORE_AT_LEAST = "score_at_least"
    """Win with a traditional score of at least ``n`` (traditional-scored levels only)."""


@dataclass(frozen=True, slots=True)
class Goal:
    """A goal: its kind and its number (None for NO_UNDO, a group's index for GROUP_FIRST)."""

    kind: GoalKind
    n: int | None = None

    def __post_init__(self) -> None:
        if (self.n is None) != (self.kind is GoalKind.NO_UNDO):
            raise ValueError(
                f"a {self.kind.value} goal {'has no' if self.n is None else 'has a'} n"
            )
        if self.n is not None and self.n < 0:
            raise ValueError(f"a goal's n is at least 0, not {self.n}")

    def fits(self, code: GameCode) -> bool:
        """Can a game of ``code`` be judged against this goal at all? A score goal needs the
        traditional scoring, a group goal a group the code's layout has."""
        if self.kind is GoalKind.SCORE_AT_LEAST:
            return code.variant.scoring is Scoring.TRADITIONAL
        if self.kind is GoalKind.GROUP_FIRST:
            return self.n is not None and self.n < len(code.layout.groups)
        return True

    def to_data(self) -> dict[str, Any]:
        """As the data file and the API write it: ``{"kind": "draws_at_most", "n": 4}``."""
        return (
            {"kind": self.kind.value} if self.n is None else {"kind": self.kind.value, "n": self.n}
        )

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Goal:
        n = data.get("n")
        if n is not None and (not isinstance(n, int) or isinstance(n, bool)):
            raise ValueError(f"a goal's n is a whole number, not {n!r}")
        return cls(GoalKind(data["kind"]), n)


@dataclass(frozen=True, slots=True)
class Played:
    """A game rebuilt from its code and its actions, with what the engine told on the way."""

    game: Game
    emptied: tuple[int, ...]
    """The groups emptied that stand at the end, in the order they were emptied (an undo that
    refills a group takes it off)."""
    undos: int
    """The undos in the log."""

    @property
    def won(self) -> bool:
        return self.game.is_won


def replay(code: GameCode | str, actions: Iterable[Action | str]) -> Played:
    """The game of ``code`` after ``actions``, applied one by one through the engine, as
    :meth:`Game.replay` does; an illegal step raises IllegalMove, a text that is no action
    ValueError. The engine's Turns say which group each play emptied and each undo refilled."""
    game = Game.new(code)
    steps = [Action.parse(a) if isinstance(a, str) else a for a in actions]
    game.action_limit = max(ACTION_LIMIT, len(steps))
    emptied: list[int] = []
    undos = 0
    for action in steps:
        turn = game.apply(action)
        if action.kind is ActionKind.UNDO:
            undos += 1
            if turn.peak is not None:
                emptied.pop()
        elif turn.peak is not None:
            emptied.append(turn.peak)
    return Played(game, tuple(emptied), undos)


def met(goal: Goal, played: Played) -> bool:
    """Did the game meet the goal? Every goal asks for a win first."""
    game = played.game
    if not game.is_won:
        return False
    if goal.kind is GoalKind.NO_UNDO:
        return played.undos == 0
    assert goal.n is not None  # every other kind has one (Goal.__post_init__)
    if goal.kind is GoalKind.DRAWS_AT_MOST:
        return game.drawn <= goal.n
    if goal.kind is GoalKind.RUN_AT_LEAST:
        return game.longest_streak >= goal.n
    if goal.kind is GoalKind.GROUP_FIRST:
        return bool(played.emptied) and played.emptied[0] == goal.n
    return game.variant.scoring is Scoring.TRADITIONAL and game.score >= goal.n


__all__ = ["Goal", "GoalKind", "Played", "met", "replay"]
