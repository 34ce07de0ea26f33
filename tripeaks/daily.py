"""The deal of the day: one winnable Easy deal per UTC day, dealt from a secret, and its policy.

The day's deal is a function of HMAC-SHA256(secret, "daily:" + ISO date): nobody without the
server's secret can work out a coming day's deal. The digest keys a stream of words that shuffles
the whole deck (no public code's generator is involved), so the deal can be any of the 52! orders
and the cards a player sees of it leave the rest unknown; the day's code is the long form
(``TP2-E-`` and 48 letters) that writes that deck out, published once the day is over
(docs/decisions.md, "The daily is dealt from the secret"). The first shuffle the solver proves
winnable is the day's. The same secret and day always give the same deal, in every worker and
after a restart.

The policy of a daily game lives here too, in one place: which actions a ranked attempt refuses
(undo and redo; hints, which are no action), when a reply may carry the code, when an attempt has
ended, which figures it keeps and how a day's board breaks ties. The engine stays the rule keeper;
these are rules of the competition around it. :class:`Policy` hands them to the store (its one seam,
tripeaks.store.policy.Policy), with the statistics' judge and count.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import itertools
import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from tripeaks.engine.codes import GameCode, fair_below, fisher_yates
from tripeaks.engine.game import ActionKind, Game
from tripeaks.engine.layout import PEAK_MASKS
from tripeaks.engine.rules import Rules
from tripeaks.solver import search as solver
from tripeaks.store.policy import (
    Counted,
    Figures,
    LevelResult,
    Progress,
    Progression,
    Totals,
    Verdict,
)
from tripeaks.store.policy import Tag as Tag  # a daily's tag: the dailies table's key

SECRET_VARIABLE = "TRIPEAKS_DAILY_SECRET"
"""The operator's secret (``tripeaks serve --daily-secret`` sets it for every worker)."""
SECRET_BYTES = 32
"""A secret the server makes for itself: 32 random bytes, kept in the ``settings`` table."""
MIN_SECRET = 16
"""An operator's secret has at least this many characters (a short one could be guessed)."""
SETTING = "daily_secret"
"""The name of the stored secret in ``settings`` (hex)."""
TRIES = 10_000
"""Deals tried for one day before giving up; about 95% of Easy deals are winnable."""
RANKED_REFUSED = "daily_ranked"
"""The reason of every refusal of the ranked attempt's policy (undo, redo, hints)."""


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


def words(key: bytes, candidate: int) -> Iterator[int]:
    """The 64-bit words that shuffle one candidate deal: HMAC-SHA256 keyed with the day's digest
    over the candidate's number and a block number (4 bytes each, big-endian), each block's 32
    bytes read as four big-endian words. Keyed with the 256-bit digest, the stream is as unknown
    as the secret to anyone without it (a deal draws about 13 blocks)."""
    for block in itertools.count():
        counter = candidate.to_bytes(4, "big") + block.to_bytes(4, "big")
        mac = hmac.new(key, counter, hashlib.sha256).digest()
        for at in range(0, len(mac), 8):
            yield int.from_bytes(mac[at : at + 8], "big")


def shuffled(key: bytes, candidate: int) -> list[int]:
    """A candidate's deck: the deal format's Fisher-Yates shuffle with its fair draws
    (docs/deal-format.md steps 3 and 5), the words coming from :func:`words` instead of a TP1
    code's SplitMix64. Every one of the 52! orders can come out, each as likely."""
    stream = words(key, candidate)
    return fisher_yates(lambda k: fair_below(stream.__next__, k))


def candidates(secret: bytes, day: date) -> Iterator[GameCode]:
    """The day's sequence of Easy deals, each a full shuffle from the secret, as long codes."""
    key = digest(secret, day)
    for candidate in range(TRIES):
        yield GameCode.from_deck(shuffled(key, candidate), Rules.EASY)


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
new daily asks for it) and the few around midnight. A past day's board is
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

    def address_key(self, network: str) -> str:
        """What the store keeps of a client's network (daily.RANKED_PER_ADDRESS counts by it): a
        keyed hash, so that the database holds no address and none can be found by trying them."""
        mac = hmac.new(self._secret, f"address:{network}".encode(), hashlib.sha256)
        return mac.hexdigest()[:32]


# The policy of a daily game ------------------------------------------------------------------


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
    """Why a daily refuses this (an undo or a redo, or a hint: ``kind`` None), or None.

    Ranked means played straight: an undo would let a player look under a card and take the move
    back, and a redo is refused with it (a ranked attempt never has anything to redo). A hint is
    the solver playing, and tells of cards still hidden: no daily of an open day has one. Once the
    day is over its games are games like any other."""
    if not secret(tag):
        return None
    assert tag is not None
    if kind is None or (kind in (ActionKind.UNDO, ActionKind.REDO) and tag.ranked):
        return RANKED_REFUSED
    return None


def may_undo(tag: Tag | None) -> bool:
    return refusal(tag, ActionKind.UNDO) is None


def may_redo(tag: Tag | None) -> bool:
    return refusal(tag, ActionKind.REDO) is None


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


HUMAN_PACE = 0.2
"""Seconds per action that no person's whole ranked attempt averages less than. A quick player
taps about four cards a second at best, for a moment; a whole game also means finding each card
and waiting for the deck, and takes tens of seconds. Five actions a second from the first to the
last, sustained, is a script; the margin below four covers a network that delays the first request
and not the last."""


def too_fast(seconds: float, actions: int) -> bool:
    """An attempt of ``actions`` actions whose first and last came ``seconds`` apart (the server's
    clock) was played faster than a person can: kept as the player's own, off the public board."""
    return actions > 1 and seconds < HUMAN_PACE * (actions - 1)


TIE = 0.0005
"""Seconds closer than this are the same time (the board shows milliseconds): the difference of two
clock readings is not exact, and two attempts timed alike must share their rank."""


def figures(tag: Tag | None, game: Game, seconds: float) -> Figures | None:
    """A ranked daily's figures after an action, ``seconds`` after its first (the server's clock),
    as the engine has them; None for any other game, and for a ranked attempt played on after its
    day closed (it stands on the board as it was then)."""
    if not counts(tag):
        return None
    finished = ended(game)
    return Figures(
        finished,
        game.is_won,
        game.score,
        game.moves,
        game.longest_streak,
        peaks_mask(game),
        finished and too_fast(seconds, len(game.actions)),
    )


Count = Callable[[Totals, str, int, int, "Verdict | None", "str | None"], Totals]
"""stats.count: the totals with one more counted game."""


class Policy:
    """What the store writes for an action (tripeaks.store.policy.Policy, handed to the store when
    it is built): the daily's rules are decided here; a counted game's verdict and totals are the
    statistics' (``judge``: stats.judge, or the app's solver worker's first; ``count``:
    stats.count), handed in, and so is the journey's part (``journey``: the levels' judging and
    the achievements, journey/achievements.py; none: no level is judged and no achievement kept).
    No verdict is kept for a daily of a day still open, whose deal's best score and grade the
    player's statistics would otherwise tell."""

    tie = TIE

    def __init__(
        self,
        judge: Callable[[GameCode], Verdict | None],
        count: Count,
        journey: Progression | None = None,
    ) -> None:
        self._judge = judge
        self._count = count
        self._journey = journey

    def refusal(self, tag: Tag | None, kind: ActionKind) -> str | None:
        return refusal(tag, kind)

    def figures(self, tag: Tag | None, game: Game, seconds: float) -> Figures | None:
        return figures(tag, game, seconds)

    def verdict(self, code: GameCode, tag: Tag | None) -> Verdict | None:
        return None if secret(tag) else self._judge(code)

    def count(
        self,
        totals: Totals,
        outcome: str,
        score: int,
        streak: int,
        verdict: Verdict | None,
        hint: str | None,
    ) -> Totals:
        return self._count(totals, outcome, score, streak, verdict, hint)

    def level(self, number: int, game: Game) -> LevelResult | None:
        return None if self._journey is None else self._journey.level(number, game)

    def achieve(self, kept: Mapping[str, Progress], counted: Counted) -> dict[str, Progress]:
        return {} if self._journey is None else self._journey.achieve(kept, counted)
