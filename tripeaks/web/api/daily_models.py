"""The JSON shapes of the deal of the day (docs/api.md, "The deal of the day")."""

from __future__ import annotations

from pydantic import BaseModel, Field

NAME_MAX_INPUT = 200
"""A name request longer than this is refused before it is even read as a name."""


class NameIn(BaseModel):
    name: str = Field(max_length=NAME_MAX_INPUT)


class NameOut(BaseModel):
    name: str | None
    """The name the boards show: the nickname, or the generated one in the reply's language
    (null before the player has a cookie)."""
    chosen: bool
    """Whether the player chose it (PUT /api/player/name)."""


class BoardRowOut(BaseModel):
    rank: int = Field(ge=1)
    """Equal figures share a rank (1, 2, 2, 4)."""
    name: str
    score: int
    moves: int = Field(ge=0)
    seconds: float = Field(ge=0)
    """From the first action to the last, as the server measured them."""


class MyDailyOut(BaseModel):
    """The player's ranked attempt of the day, with what a spoiler-free share needs."""

    name: str
    finished: bool
    """Won or stuck: the ranked attempt has ended (a left one has not finished)."""
    ended: bool
    """It takes no more moves: finished, or left for another game (then it has no place)."""
    won: bool
    rank: int | None
    """Null until finished, and for an attempt too fast for the board (``too_fast``)."""
    too_fast: bool
    """Finished faster than a person plays (docs/api.md, "The deal of the day"): the player's
    own result, kept and shown to them, but on no public board and in nobody's rank."""
    score: int
    moves: int
    seconds: float
    longest_streak: int
    peaks: list[bool] = Field(min_length=3, max_length=3)
    """Which peaks (left, middle, right) were cleared."""
    share: str | None
    """The share text (server.po ``daily.share``), once finished."""


class BoardOut(BaseModel):
    day: str
    code: str | None
    """The code that deals the day's cards (docs/deal-format.md); null while the day is open."""
    best_score: int | None
    """The best score the deal can be won with (the solver's best win, standard scoring); null
    while the day is open."""
    players: int
    """Finished ranked attempts of the day."""
    shown: bool
    """Whether ``top`` holds the board: once the day is over, or once the player's own ranked
    attempt has ended; before that it is empty, however many have finished."""
    top: list[BoardRowOut]
    me: MyDailyOut | None


class HistoryDayOut(BaseModel):
    day: str
    played: bool
    finished: bool
    ended: bool
    """The ranked attempt takes no more moves: finished, left for another game, or its day has
    closed; played and not ended is an attempt under way."""
    won: bool
    score: int | None
    rank: int | None


class HistoryOut(BaseModel):
    today: str
    streak: int = Field(ge=0)
    """Days in a row with a finished daily, ending today or yesterday."""
    best_streak: int = Field(ge=0)
    days: list[HistoryDayOut]
    """Newest first: the last 30 days, or every day of the month asked for (up to today)."""
