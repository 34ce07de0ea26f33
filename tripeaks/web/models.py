"""The JSON shapes of docs/api.md as pydantic models, so /openapi.json describes the real API."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictBool, StrictInt

Lang = Literal["en", "fi", "ca"]
RulesName = Literal["easy", "classic"]
SuitName = Literal["clubs", "diamonds", "hearts", "spades"]
SlotName = Literal["face_down", "face_up", "removed"]
StatusName = Literal["playing", "won", "stuck"]
KindName = Literal["play", "draw", "undo"]

REQUEST_ID_MAX = 128


class CardOut(BaseModel):
    rank: int = Field(ge=1, le=13)
    suit: SuitName
    label: str
    name: str


class SlotOut(BaseModel):
    pos: int = Field(ge=0, le=27)
    slot: SlotName
    card: CardOut | None
    """Only when face up."""


class LastOut(BaseModel):
    kind: KindName
    card: CardOut | None
    pos: int | None
    announcement: str


class ResultOut(BaseModel):
    winnable: bool
    best_score: int | None


class GameState(BaseModel):
    """What the player may see of a game, never more."""

    id: str | None
    code: str
    rules: RulesName
    version: int = Field(ge=0)
    status: StatusName
    score: int = Field(ge=0)
    moves: int = Field(ge=0)
    can_undo: bool
    stock_size: int = Field(ge=0)
    stock_label: str
    discard: CardOut
    tableau: list[SlotOut] = Field(min_length=28, max_length=28)
    description: str
    last: LastOut | None = None
    result: ResultOut | None = None


class ErrorDetail(BaseModel):
    reason: str
    message: str = Field(min_length=1)


class ErrorOut(BaseModel):
    error: ErrorDetail
    state: GameState | None = None


class NewGameIn(BaseModel):
    rules: RulesName = "easy"
    code: str | None = Field(default=None, max_length=64)
    winnable_only: StrictBool = False


class PlayIn(BaseModel):
    pos: StrictInt
    version: StrictInt
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX)


class ActionIn(BaseModel):
    version: StrictInt
    request_id: str | None = Field(default=None, min_length=1, max_length=REQUEST_ID_MAX)


class HintAction(BaseModel):
    kind: Literal["play", "draw"]
    pos: int | None = None


class HintOut(BaseModel):
    winnable: bool
    action: HintAction | None
    message: str


class PositionOut(BaseModel):
    pos: int
    row: int = Field(ge=1, le=4)
    index: int
    peak: int = Field(ge=0, le=2)
    covered_by: list[int]
    x: float
    y: float


class LayoutOut(BaseModel):
    positions: list[PositionOut]


class CatalogOut(BaseModel):
    lang: Lang
    messages: dict[str, str | list[str]]
    plural: str


class StatsOut(BaseModel):
    played: int
    won: int
    win_rate: float = Field(ge=0, le=1)
    current_streak: int
    best_streak: int
    best_score: int | None
    average_winning_score: float | None


class RecentOut(BaseModel):
    code: str
    rules: RulesName
    outcome: Literal["won", "lost"]
    score: int
    finished_at: str
    """ISO 8601, UTC."""


class StatsPage(BaseModel):
    easy: StatsOut
    classic: StatsOut
    recent: list[RecentOut]
