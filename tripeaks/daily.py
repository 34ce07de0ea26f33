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

import base64
import hashlib
import hmac
import os
import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

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


GRACE = timedelta(seconds=30)
"""How long after UTC midnight a ranked move still counts for the day that ended: a tap sent at
23:59:59 reaches the server a moment later. Nothing of the day is published before it is over."""
RANKED_PER_ADDRESS = 5
"""Ranked attempts of one day from one client address (an IPv6 /64); ``--ranked-per-address``."""


def clock() -> datetime:
    """The server's time, the one clock every rule of the daily reads (tests pin it)."""
    return datetime.now(UTC)


def today(now: datetime | None = None) -> date:
    """The UTC day it is (the day a daily is for)."""
    return (now or clock()).astimezone(UTC).date()


def closes_at(day: date) -> datetime:
    """When a day's competition is over: the UTC midnight after it, and GRACE."""
    return datetime.combine(day + timedelta(days=1), time.min, UTC) + GRACE


def is_open(day: date, now: datetime | None = None) -> bool:
    """The day's competition is on: its deal, best score and line are still secret."""
    return (now or clock()) < closes_at(day)


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


class Dailies:
    """The days' deals of one server (one secret), each found once and kept."""

    def __init__(self, secret: bytes) -> None:
        if not secret:
            raise ValueError("a daily needs a secret")
        self._secret = secret
        self._deals: dict[date, DailyDeal] = {}
        self._lock = threading.Lock()

    def deal(self, day: date) -> DailyDeal:
        with self._lock:
            known = self._deals.get(day)
            if known is None:
                code = choose(self._secret, day)
                best = solver.solve(code).final_score
                assert best is not None  # choose proved it winnable
                known = DailyDeal(day, code, best)
                self._deals[day] = known
            return known

    def known(self, day: date) -> DailyDeal | None:
        """The day's deal if it was found already (no search: for the event loop)."""
        return self._deals.get(day)

    def address_key(self, network: str) -> str:
        """What the store keeps of a client's network (daily.RANKED_PER_ADDRESS counts by it): a
        keyed hash, so that the database holds no address and none can be found by trying them."""
        mac = hmac.new(self._secret, f"address:{network}".encode(), hashlib.sha256)
        return mac.hexdigest()[:32]

    def secret_letters(self, now: datetime | None = None) -> str:
        """The letters of the deal that is still secret now: today's (other rules or options on
        the same letters would deal the same cards)."""
        return self.deal(today(now)).code.letters


# The policy of a daily game ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tag:
    """What makes a game a daily: the day it was started for, and whether it is the player's one
    ranked attempt of that day. A game keeps its day; it counts for that day's board only while
    the day is open (``counts``)."""

    day: date
    ranked: bool


def attempt_id(player: str, day: date) -> str:
    """The game id of a player's ranked attempt of a day: every start of it, in any worker, names
    the same game, so that starts racing each other make one game and never a second (the store
    inserts it once). One-way: the id, which URLs and logs show, never tells the player's."""
    digest = hashlib.sha256(f"ranked:{day.isoformat()}:{player}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def ended(game: Game) -> bool:
    """A ranked attempt has ended once won, stuck (it cannot be undone) or left."""
    return game.is_over or game.is_stuck


def secret(tag: Tag | None, now: datetime | None = None) -> bool:
    """Is this game a daily of a day still open? Then no reply about it carries its code, a
    verdict on its deal or anything a solver says of it, whoever asks and however it stands: a
    player whose attempt has ended could otherwise pass the deal on to one still to play."""
    return tag is not None and is_open(tag.day, now)


def counts(tag: Tag | None, now: datetime | None = None) -> bool:
    """Does this game still count for its day's board? The ranked attempt, while the day is open;
    a move made after that is never ranked (the attempt stands as it was at the close)."""
    return tag is not None and tag.ranked and is_open(tag.day, now)


def refusal(tag: Tag | None, kind: ActionKind | None) -> str | None:
    """Why a daily refuses this (an undo, or a hint: ``kind`` None), or None.

    Ranked means played straight: an undo would let a player look under a card and take the move
    back. A hint is the solver playing, and tells of cards still hidden: no daily of an open day
    has one. Once the day is over its games are games like any other."""
    if not secret(tag):
        return None
    assert tag is not None
    if kind is None or (kind is ActionKind.UNDO and tag.ranked):
        return RANKED_REFUSED
    return None


def may_undo(tag: Tag | None) -> bool:
    return refusal(tag, ActionKind.UNDO) is None


def shows_code(tag: Tag | None) -> bool:
    """May a reply about this game carry its code? Always, for a game that is no daily; for a
    daily, once its day is over for everyone (not when the player's own attempt ends)."""
    return not secret(tag)


def code_public(day: date, now: datetime | None = None) -> bool:
    """A day's code is everyone's once its competition is over."""
    return not is_open(day, now)


def peaks_cleared(game: Game) -> tuple[bool, bool, bool]:
    """Which of the three peaks (left, middle, right) the game has cleared of every card."""
    left, middle, right = (not game.present & mask for mask in PEAK_MASKS)
    return left, middle, right


def peaks_mask(game: Game) -> int:
    """peaks_cleared as bits (1 left, 2 middle, 4 right), as the dailies table keeps it."""
    return sum(1 << k for k, cleared in enumerate(peaks_cleared(game)) if cleared)


def peaks_of(mask: int) -> list[bool]:
    return [bool(mask >> k & 1) for k in range(len(PEAK_MASKS))]
