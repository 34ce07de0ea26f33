"""The journey's JSON shapes (docs/api.md "The journey"): the map, the achievements, a transfer code."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from tripeaks.web.api.models import GoalOut, LayoutName, RulesName, VariantOut

LevelStateName = Literal["locked", "open", "done"]
LevelGradeName = Literal["gentle", "medium", "hard"]
LEVEL_GRADE: dict[str, LevelGradeName] = {"gentle": "gentle", "medium": "medium", "hard": "hard"}
"""A level's grade (explain.Grade's value: never unwinnable, every level is proven winnable)."""


class MapLevelOut(BaseModel):
    """One level on the map, with the player's best on it."""

    number: int = Field(ge=1)
    layout: LayoutName
    rules: RulesName
    variant: VariantOut
    grade: LevelGradeName
    goal: GoalOut | None
    best_score: int
    """The best score a win of the deal allows, under the level's scoring (proven)."""
    fewest_draws: int = Field(ge=0)
    stars: int = Field(ge=0, le=3)
    """The player's best on it."""
    goal_met: bool
    state: LevelStateName
    """locked; open (level 1, or the level before is done); done (won at least once)."""


class JourneyOut(BaseModel):
    levels: list[MapLevelOut]
    next: int | None
    """The lowest open level not done; null once every level is done."""
    stars: int = Field(ge=0)
    max_stars: int = Field(ge=0)


class AchievementOut(BaseModel):
    id: str
    """Its name and text are the page's catalog words achievement.<id>.name and .text."""
    unlocked: bool
    unlocked_at: str | None
    """ISO 8601, UTC; null while locked."""
    progress: int = Field(ge=0)
    target: int = Field(ge=1)


class AchievementsOut(BaseModel):
    achievements: list[AchievementOut]
    """Every achievement, in a fixed order."""


class NewLevelIn(BaseModel):
    """A level's game takes nothing: its deal, goal and figures are the journey's."""


class TransferIn(BaseModel):
    """Making a transfer code takes nothing."""


class TransferOut(BaseModel):
    code: str
    """XXXX-XXXX-XXXX (Crockford base32): shown once, kept by the server as a hash only."""
    expires_at: str
    """ISO 8601, UTC."""
    seconds: int = Field(ge=1)


class RedeemIn(BaseModel):
    code: str = Field(max_length=64)


class RedeemOut(BaseModel):
    name: str
    """The player's name this browser now plays as (their nickname, else their generated name)."""
    chosen: bool


__all__ = [
    "LEVEL_GRADE",
    "AchievementOut",
    "AchievementsOut",
    "JourneyOut",
    "MapLevelOut",
    "NewLevelIn",
    "RedeemIn",
    "RedeemOut",
    "TransferIn",
    "TransferOut",
]
