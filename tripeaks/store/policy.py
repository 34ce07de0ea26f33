"""The one seam between the store and the competition's policy (tripeaks/daily.py, stats.py).

The store keeps games, their results and the daily's rows; what the rules of the competition say
of an action (may it be taken, which figures a ranked daily keeps after it, the verdict and the
running totals a counted game adds) is decided by a :class:`Policy` handed to the store when it is
built (web/app.py). The rows the two speak of are defined here, with the store: each is the shape
of a table's columns, and changes only with a migration.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import ActionKind, Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_WORD
from tripeaks.engine.variant import Variant


@dataclass(frozen=True, slots=True)
class Tag:
    """What makes a game a daily: the day it was started for, and whether it is the player's one
    ranked attempt of that day. A game keeps its day; it counts for that day's board only while
    the day is open (``daily.counts``)."""

    day: date
    ranked: bool


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of game the statistics keep apart: its table and its variant (rules and options)."""

    variant: Variant
    layout: Layout = THREE_PEAKS

    @classmethod
    def of(cls, code: GameCode) -> Kind:
        return cls(code.variant, code.layout)

    @property
    def key(self) -> str:
        """What the ``totals`` table keeps it under: the variant's key (``E``, ``C-T``) on Three
        Peaks, as it always was, else the layout's code word before it (``VALLEY-C-T``)."""
        if self.layout is THREE_PEAKS:
            return self.variant.key
        return f"{self.layout.word}-{self.variant.key}"

    @classmethod
    def from_key(cls, key: str) -> Kind:
        """The kind a ``totals`` key stands for (the inverse of :attr:`key`)."""
        word, _, rest = key.partition("-")
        if word in BY_WORD:  # a rules letter is never a layout's word
            return cls(Variant.from_key(rest), BY_WORD[word])
        return cls(Variant.from_key(key))


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the solver says of a deal from its start: counted with the game (the honest figures)."""

    winnable: bool
    best: int | None
    """The best winning score (standard scoring)."""
    grade: str | None = None
    """The deal's difficulty (explain.Grade's value); None for games counted before grades."""


@dataclass(frozen=True, slots=True)
class Totals:
    """What is kept per player and kind of game (:class:`Kind`), the ``totals`` table's
    columns; stats.figures makes the statistics from it, stats.count folds a game in."""

    played: int = 0
    won: int = 0
    won_score_sum: int = 0
    best_score: int | None = None
    current_streak: int = 0
    best_streak: int = 0
    longest_card_streak: int | None = None
    judged: int = 0
    """Counted games whose deal the solver judged when they were counted (standard games counted
    since revision 0004: older ones and games with options were not)."""
    judged_winnable: int = 0
    """Of those, the deals that could be won."""
    judged_won: int = 0
    won_hinted: int = 0
    """Of the judged wins, those the player asked a hint in."""
    best_share_sum: int = 0
    """Per mille of the deal's best score each judged winnable game reached, summed."""
    won_perfect: int = 0
    """Of the judged hinted wins, those with a perfect hint (one that knows every card)."""
    gentle_played: int = 0
    gentle_won: int = 0
    medium_played: int = 0
    medium_won: int = 0
    hard_played: int = 0
    hard_won: int = 0
    unwinnable_played: int = 0
    unwinnable_won: int = 0
    """Judged games counted with their deal's grade (revision 0005 on), and their wins, by grade."""


@dataclass(frozen=True, slots=True)
class Figures:
    """A ranked daily's row after one of its actions (the ``dailies`` table's figures), as the
    policy reads them off the engine's game."""

    finished: bool
    """It takes no action after this one (won, or stuck with undo refused): on the board."""
    won: bool
    score: int
    moves: int
    streak: int
    peaks: int
    """Peaks cleared, as bits (daily.peaks_mask)."""
    too_fast: bool
    """Finished faster than a person plays: the player's own, on no board and in no count."""


@dataclass(frozen=True, slots=True)
class LevelTag:
    """What makes a game a level game of the journey: the level it was started for, and the
    player's best stars on that level when the game was read (``games.level``, ``journey``)."""

    number: int
    best: int = 0


@dataclass(frozen=True, slots=True)
class LevelResult:
    """A won game of a level as the policy judged it from its actions (journey/stars.py)."""

    stars: int
    goal_met: bool | None
    """None: the level has no goal."""
    score: int


@dataclass(frozen=True, slots=True)
class LevelBest:
    """The ``journey`` table's row: a player's best on one level."""

    level: int
    stars: int
    goal_met: bool
    best_score: int


@dataclass(frozen=True, slots=True)
class Progress:
    """The ``achievements`` table's row: how far a player is toward one achievement."""

    progress: int = 0
    bits: int = 0
    """What an achievement keeps besides its progress (which layouts were won, a run going on)."""
    unlocked_at: float | None = None
    """When it was unlocked (the store's clock), None while it is not."""


@dataclass(frozen=True, slots=True)
class Counted:
    """A game being counted, as the store knows it: what the achievements fold in."""

    game: Game
    """The engine's game: its code, its whole log and what the log made of it."""
    outcome: str
    verdict: Verdict | None
    hint: str | None
    tag: Tag | None
    level: int | None
    judged: LevelResult | None
    """A won level game as judged (Policy.level); None for any other."""
    levels: tuple[LevelBest, ...] | None
    """The player's rows of the journey after this game, when it changed them; else None."""
    finished_days: tuple[date, ...]
    """For a daily game: the days of the week up to its day whose ranked attempt the player
    finished (this game's own day when it is a win)."""
    at: float
    """The store's clock as the game is counted."""


class Progression(Protocol):
    """The journey's part of the policy: a won level game judged, and the achievements' progress
    after a counted game (tripeaks/journey/achievements.py)."""

    def level(self, number: int, game: Game) -> LevelResult | None: ...

    def achieve(self, kept: Mapping[str, Progress], counted: Counted) -> dict[str, Progress]: ...


class Policy(Protocol):
    """What the store writes for an action, decided by the competition's rules (daily.Policy).

    Every method is pure and quick but :meth:`verdict`, which may search: the store calls it
    outside its locks and outside any transaction, and hands the result to the change."""

    @property
    def tie(self) -> float:
        """Seconds closer than this are the same time on a day's board (equal ranks)."""
        ...

    def refusal(self, tag: Tag | None, kind: ActionKind) -> str | None:
        """Why an action of this kind may not be taken on a game with this tag, or None."""
        ...

    def figures(self, tag: Tag | None, game: Game, seconds: float) -> Figures | None:
        """The daily row of a game after an action, ``seconds`` after its first counted one (0 for
        that one); None for a game whose figures are not kept (any but a ranked daily of an open
        day)."""
        ...

    def verdict(self, code: GameCode, tag: Tag | None) -> Verdict | None:
        """The verdict a counted game of this deal and tag keeps (None: none is kept)."""
        ...

    def count(
        self,
        totals: Totals,
        outcome: str,
        score: int,
        streak: int,
        verdict: Verdict | None,
        hint: str | None,
    ) -> Totals:
        """The totals with one more counted game (``outcome`` "won" or "lost")."""
        ...

    def level(self, number: int, game: Game) -> LevelResult | None:
        """A won game of journey level ``number`` judged from its actions alone (its stars, its
        goal, its score); None when the level is not one the policy knows or not this game's deal."""
        ...

    def achieve(self, kept: Mapping[str, Progress], counted: Counted) -> dict[str, Progress]:
        """The achievements that a counted game moved on, by id, from those kept (absent: never
        moved); an unlocked one keeps its time."""
        ...


class Bare:
    """The policy of a store built without one (tests, tools that only read): every action is
    allowed, no daily figures or verdicts are kept, and counting a game is refused, since how
    totals fold is the statistics' to say (stats.count)."""

    tie = 0.0

    def refusal(self, tag: Tag | None, kind: ActionKind) -> str | None:
        return None

    def figures(self, tag: Tag | None, game: Game, seconds: float) -> Figures | None:
        return None

    def verdict(self, code: GameCode, tag: Tag | None) -> Verdict | None:
        return None

    def count(
        self,
        totals: Totals,
        outcome: str,
        score: int,
        streak: int,
        verdict: Verdict | None,
        hint: str | None,
    ) -> Totals:
        raise NotImplementedError("a store built without a policy counts no game (daily.Policy)")

    def level(self, number: int, game: Game) -> LevelResult | None:
        return None

    def achieve(self, kept: Mapping[str, Progress], counted: Counted) -> dict[str, Progress]:
        return {}
