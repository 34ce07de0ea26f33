"""The journey's levels as data: the model, and the shipped file ``levels.json`` that
``tripeaks journey --make`` makes (tripeaks/journey/make.py; docs/journey.md).

Every level carries its proofs: ``witness``, a winning line of actions (the engine's action text)
that meets the level's goal, and ``best_line``, a win that reaches ``best_score``, the best score a
win of the deal allows under the level's scoring, which the solver proved no win beats. The test
suite replays both through the engine and asks the solver again (tests/test_journey.py).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action
from tripeaks.engine.variant import Scoring
from tripeaks.journey.goals import Goal
from tripeaks.solver.explain import PLAYS, Grade

FORMAT = 1
"""The data file's format; a reader refuses any other."""
FILE = "levels.json"


@dataclass(frozen=True, slots=True)
class Level:
    """One level of the journey."""

    number: int
    """From 1, in the journey's order: gentle to hard (docs/journey.md "The order")."""
    code: GameCode
    """The deal with its layout, rules and options."""
    grade: Grade
    """explain.grade of the code (never UNWINNABLE: the solver proved every level winnable)."""
    won_plays: int
    """Of explain.PLAYS plays of the deal by the visible-card strategy, how many won (the grade's
    measure, and the order within a grade)."""
    best_score: int
    """The best score a win of the deal can end with under the level's scoring."""
    fewest_draws: int
    """The fewest draws of any win of the deal (under our scoring the best score's)."""
    goal: Goal | None
    witness: tuple[Action, ...]
    """A win that meets the goal (any win when there is none)."""
    best_line: tuple[Action, ...]
    """A win that ends with ``best_score``."""

    def __post_init__(self) -> None:
        if self.number < 1:
            raise ValueError(f"levels are numbered from 1, not {self.number}")
        if self.grade is Grade.UNWINNABLE:
            raise ValueError(f"level {self.number}: a level is a winnable deal")
        if not 0 <= self.won_plays <= PLAYS:
            raise ValueError(f"level {self.number}: won_plays is 0 to {PLAYS}")
        if self.goal is not None and not self.goal.fits(self.code):
            raise ValueError(f"level {self.number}: the goal {self.goal} does not fit {self.code}")

    @property
    def traditional(self) -> bool:
        """Scored the traditional way (the code's T option); else ours."""
        return self.code.variant.scoring is Scoring.TRADITIONAL

    def to_data(self) -> dict[str, Any]:
        """The level as the data file writes it, keys in this order."""
        return {
            "number": self.number,
            "code": str(self.code),
            "grade": self.grade.value,
            "won_plays": self.won_plays,
            "best_score": self.best_score,
            "fewest_draws": self.fewest_draws,
            "goal": None if self.goal is None else self.goal.to_data(),
            "witness": [str(action) for action in self.witness],
            "best_line": [str(action) for action in self.best_line],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Level:
        goal = data["goal"]
        return cls(
            number=int(data["number"]),
            code=GameCode.parse(data["code"]),
            grade=Grade(data["grade"]),
            won_plays=int(data["won_plays"]),
            best_score=int(data["best_score"]),
            fewest_draws=int(data["fewest_draws"]),
            goal=None if goal is None else Goal.from_data(goal),
            witness=tuple(Action.parse(text) for text in data["witness"]),
            best_line=tuple(Action.parse(text) for text in data["best_line"]),
        )


@dataclass(frozen=True, slots=True)
class Journey:
    """The levels, and the seed of the tool that made them."""

    seed: int
    levels: tuple[Level, ...]

    def level(self, number: int) -> Level:
        """Level ``number`` (from 1); KeyError when there is none."""
        if not 1 <= number <= len(self.levels):
            raise KeyError(number)
        return self.levels[number - 1]


def dumps(journey: Journey) -> str:
    """The data file's text: a header, then one level a line (a diff shows a changed level as one
    changed line), ASCII only, ending with a newline. The same journey always gives the same text."""
    levels = ",\n".join(
        "    " + json.dumps(level.to_data(), separators=(", ", ": ")) for level in journey.levels
    )
    return (
        f'{{\n  "format": {FORMAT},\n  "seed": {journey.seed},\n  "plays": {PLAYS},\n'
        f'  "levels": [\n{levels}\n  ]\n}}\n'
    )


def loads(text: str) -> Journey:
    """A journey from the data file's text; ValueError when it is not one this version reads."""
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"the journey's format is {FORMAT}, not {data.get('format')!r}")
    if data.get("plays") != PLAYS:
        raise ValueError(f"the journey's grades are of {PLAYS} plays, not {data.get('plays')!r}")
    levels = tuple(Level.from_data(level) for level in data["levels"])
    numbers = [level.number for level in levels]
    if numbers != list(range(1, len(levels) + 1)):
        raise ValueError("the journey's levels are numbered 1, 2, 3 … in order")
    return Journey(int(data["seed"]), levels)


@functools.cache
def load() -> Journey:
    """The shipped journey (tripeaks/journey/levels.json, package data), read once."""
    text = resources.files("tripeaks.journey").joinpath(FILE).read_text(encoding="utf-8")
    return loads(text)


def levels() -> Sequence[Level]:
    """The shipped journey's levels, level 1 first."""
    return load().levels


__all__ = ["FILE", "FORMAT", "Journey", "Level", "dumps", "load", "loads"]
