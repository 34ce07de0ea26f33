"""The deal of the day: one winnable Easy deal per UTC day, chosen from a secret, and its policy.

The day's code is a function of HMAC-SHA256(secret, "daily:" + ISO date): nobody without the
server's secret can work out a coming day's deal (no public sequence of codes is involved). The
digest seeds a sequence of seven-letter Easy codes, and the first the solver proves winnable is the
day's. The same secret and day always give the same code, in every worker and after a restart.

The policy of a daily game lives here too, in one place: which actions a ranked attempt refuses
(undo; hints, which are no action), when a reply may carry the code, and when an attempt has ended.
The engine stays the rule keeper; these are rules of the competition around it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime

from tripeaks import solver
from tripeaks.codes import CODE_SPACE, GameCode
from tripeaks.game import ActionKind, Game
from tripeaks.layout import PEAK_MASKS
from tripeaks.rules import Rules

SECRET_VARIABLE = "TRIPEAKS_DAILY_SECRET"
"""The operator's secret (``tripeaks serve --daily-secret`` sets it for every worker)."""
SECRET_BYTES = 32
"""A secret the server makes for itself: 32 random bytes, kept in the ``settings`` table."""
MIN_SECRET = 16
"""An operator's secret has at least this many characters (a short one could be guessed)."""
SETTING = "daily_secret"
"""The name of the stored secret in ``settings`` (hex)."""
TRIES = 10_000
"""Codes tried for one day before giving up; about 95% of Easy deals are winnable."""
RANKED_REFUSED = "daily_ranked"
"""The reason of every refusal of the ranked attempt's policy (undo, hints)."""


class WeakSecret(ValueError):
    """An operator's secret shorter than MIN_SECRET characters."""


def operator_secret(text: str | None = None) -> bytes | None:
    """The operator's secret (the argument, else $TRIPEAKS_DAILY_SECRET) as bytes, or None."""
    text = os.environ.get(SECRET_VARIABLE) if text is None else text
    if text is None or not text:
        return None
    if len(text) < MIN_SECRET:
        raise WeakSecret(f"the daily secret needs at least {MIN_SECRET} characters")
    return text.encode()


def new_secret() -> str:
    """A secret for the settings table: SECRET_BYTES random bytes, in hex."""
    return secrets.token_hex(SECRET_BYTES)


def today(now: datetime | None = None) -> date:
    """The UTC day it is (the day a daily is for)."""
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def digest(secret: bytes, day: date) -> bytes:
    """HMAC-SHA256(secret, "daily:" + ISO date): everything about the day comes from this."""
    if not secret:
        raise ValueError("a daily needs a secret")
    return hmac.new(secret, f"daily:{day.isoformat()}".encode(), hashlib.sha256).digest()


def candidates(secret: bytes, day: date) -> Iterator[GameCode]:
    """The day's sequence of Easy codes: SHA-256 of the digest and a counter, 64 bits of it taken
    modulo the 26^7 codes (a bias below 1e-9)."""
    seed = digest(secret, day)
    for counter in range(TRIES):
        block = hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        yield GameCode.from_number(int.from_bytes(block[:8], "big") % CODE_SPACE, Rules.EASY)


def choose(secret: bytes, day: date) -> GameCode:
    """The day's code: the first of its sequence that the solver proves winnable."""
    for code in candidates(secret, day):
        if solver.is_winnable(code):
            return code
    raise RuntimeError(f"no winnable deal in {TRIES} codes for {day}")


@dataclass(frozen=True, slots=True)
class DailyDeal:
    day: date
    code: GameCode
    best_score: int
    """The solver's best win under the standard scoring."""


DAYS_KEPT = 8
"""Days whose deal a process keeps, the least recently asked for dropped first: today's (every
new daily and every code typed in ask for it) and the few around midnight. A past day's board is
dealt from what was played (the store's), not from here, so no request makes this search for an
arbitrary day; a dropped day would be found again, a few milliseconds."""


class Dailies:
    """The days' deals of one server (one secret), each found once and the latest DAYS_KEPT kept."""

    def __init__(self, secret: bytes) -> None:
        if not secret:
            raise ValueError("a daily needs a secret")
        self._secret = secret
        self._deals: OrderedDict[date, DailyDeal] = OrderedDict()
        self._lock = threading.Lock()

    def deal(self, day: date) -> DailyDeal:
        known = self.known(day)
        if known is not None:  # found already: no wait behind another day's search
            return known
        with self._lock:
            known = self._deals.get(day)
            if known is None:
                code = choose(self._secret, day)
                best = solver.solve(code).final_score
                assert best is not None  # choose proved it winnable
                known = DailyDeal(day, code, best)
                self._deals[day] = known
                while len(self._deals) > DAYS_KEPT:
                    self._deals.popitem(last=False)
            return known

    def known(self, day: date) -> DailyDeal | None:
        """The day's deal if it was found already (no search: for the event loop)."""
        known = self._deals.get(day)
        if known is not None:
            with contextlib.suppress(KeyError):  # dropped by another thread meanwhile
                self._deals.move_to_end(day)
        return known

    def secret_letters(self, now: datetime | None = None) -> str:
        """The letters of the deal that is still secret now: today's (other rules or options on
        the same letters would deal the same cards)."""
        return self.deal(today(now)).code.letters


# The policy of a daily game ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tag:
    """What makes a game a daily: the day it was started for, and whether it is the ranked attempt.

    A game keeps its day: one started before midnight stays ranked for the day it started."""

    day: date
    ranked: bool


def ended(game: Game) -> bool:
    """A ranked attempt has ended once won, stuck (it cannot be undone) or left."""
    return game.is_over or game.is_stuck


def refusal(tag: Tag | None, kind: ActionKind | None) -> str | None:
    """Why the ranked attempt refuses this (an undo, or a hint: ``kind`` None), or None.

    Ranked means played straight: an undo would let a player look under a card and take the move
    back, a hint is the solver playing."""
    if tag is None or not tag.ranked:
        return None
    if kind is None or kind is ActionKind.UNDO:
        return RANKED_REFUSED
    return None


def may_undo(tag: Tag | None) -> bool:
    return refusal(tag, ActionKind.UNDO) is None


def shows_code(tag: Tag | None, game: Game, now: datetime | None = None) -> bool:
    """May a reply about this game carry its code? Always, for a game that is no daily; for a
    daily, once the player's ranked attempt has ended (a replay is made only then) or once its
    day is over for everyone."""
    if tag is None or not tag.ranked:
        return True
    return ended(game) or tag.day < today(now)


def code_public(day: date, now: datetime | None = None) -> bool:
    """A day's code is everyone's once the UTC day is over."""
    return day < today(now)


def peaks_cleared(game: Game) -> tuple[bool, bool, bool]:
    """Which of the three peaks (left, middle, right) the game has cleared of every card."""
    left, middle, right = (not game.present & mask for mask in PEAK_MASKS)
    return left, middle, right


def peaks_mask(game: Game) -> int:
    """peaks_cleared as bits (1 left, 2 middle, 4 right), as the dailies table keeps it."""
    return sum(1 << k for k, cleared in enumerate(peaks_cleared(game)) if cleared)


def peaks_of(mask: int) -> list[bool]:
    return [bool(mask >> k & 1) for k in range(len(PEAK_MASKS))]
