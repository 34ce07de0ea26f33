"""How often one player, and one client address, may do what costs the server work.

Each new game makes a stored game (and, without a cookie, a new player); a "winnable deals only"
game and a hint each cost the solver real CPU; a nickname is a durable write; a daily board, a
preview and a readiness check each cost reads or the engine's work. A new player (a request without
the server's signed cookie that makes something: web/identity.py) is counted per address too, so that
one client cannot make the crowd of players it would take to fill a public board. Only moves are
never limited: they are the game. Nobody playing meets these limits: they are there for scripts.
The counting is a moving window: the ``limits`` library's, in this process's memory, for
a server on SQLite (one process: a second one is refused); for one on PostgreSQL, whose workers and
machines all answer the same players, a table in the database that they share (ratelimit_pg.py).
The local app (one player, on loopback) has none unless asked for (serve.hosting).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from tripeaks.web.clients import network

DEFAULT_RATES: Mapping[str, str] = {
    "games_per_player": "30/minute;300/hour",
    "games_per_address": "120/minute;1500/hour",
    "winnable_per_player": "10/minute;100/hour",
    "winnable_per_address": "40/minute;500/hour",
    "hints_per_player": "40/minute;600/hour",
    "hints_per_address": "200/minute;3000/hour",
    "players_per_address": "20/minute;200/hour",
    "names_per_player": "10/minute;60/hour",
    "names_per_address": "60/minute;600/hour",
    "boards_per_address": "120/minute;2000/hour",
    "previews_per_address": "120/minute;2000/hour",
    "ready_per_address": "300/minute",
    "transfers_per_player": "5/10minute;20/day",
    "transfers_per_address": "60/hour",
    "redeems_per_player": "10/10minute",
    "redeems_per_address": "10/10minute;50/day",
}
"""A rate per kind of request and whom it counts, in the ``limits`` notation (``N/unit`` with
``;`` between several). A quick player starts a game every minute or two and asks a few hints a
game; a home or a school behind one address is tens of players; a load balancer checks readiness
every few seconds. docs/deploy.md has the reasons; ``--limit NAME=RATE`` (or ``none``) changes one."""
OFF = frozenset({"none", "off", ""})
KINDS = (
    "games",
    "winnable",
    "hints",
    "players",
    "names",
    "boards",
    "previews",
    "ready",
    "transfers",
    "redeems",
)


def rates(overrides: Iterable[str] = ()) -> dict[str, str]:
    """DEFAULT_RATES with ``NAME=RATE`` overrides; ValueError names a bad one."""
    chosen = dict(DEFAULT_RATES)
    for text in overrides:
        name, sep, rate = text.partition("=")
        name, rate = name.strip(), rate.strip()
        if not sep or name not in DEFAULT_RATES:
            raise ValueError(f"not NAME=RATE with NAME one of {', '.join(DEFAULT_RATES)}: {text!r}")
        if rate.lower() not in OFF:
            try:
                parse_many(rate)
            except ValueError:
                raise ValueError(f"not a rate such as 30/minute: {rate!r}") from None
        chosen[name] = rate
    return chosen


@dataclass(frozen=True, slots=True)
class Check:
    """One window a request counts in: at most ``limit`` hits of ``name`` by ``key`` (a player or
    an address) within the last ``seconds``."""

    name: str
    key: str
    limit: int
    seconds: int
    item: RateLimitItem


class Counts(Protocol):
    """Where the hits are counted."""

    shared: bool
    """Every worker of every machine counts in the same place."""

    def take(self, checks: Sequence[Check]) -> int | None:
        """One hit in each window if every window has room, None; otherwise nothing, and the
        seconds until there is room in all of them."""
        ...


class MemoryCounts:
    """The ``limits`` library's moving windows in this process's memory."""

    shared = False

    def __init__(self) -> None:
        self._windows = MovingWindowRateLimiter(MemoryStorage())

    def take(self, checks: Sequence[Check]) -> int | None:
        full = [c for c in checks if not self._windows.test(c.item, c.name, c.key)]
        if full:
            now = time.time()
            resets = (
                self._windows.get_window_stats(c.item, c.name, c.key).reset_time for c in full
            )
            return max(1, math.ceil(max(resets) - now))
        for c in checks:
            self._windows.hit(c.item, c.name, c.key)
        return None


class Limiter:
    """The app's counters: one moving window per rate, kind of request and player or address."""

    def __init__(
        self,
        chosen: Mapping[str, str] = DEFAULT_RATES,
        counts: Counts | None = None,
        *,
        loopback: bool = False,
    ) -> None:
        self.counts: Counts = counts or MemoryCounts()
        self.loopback = loopback
        """Loopback clients are limited by address too (a hosted server: see clients.network)."""
        self._items: dict[str, list[RateLimitItem]] = {
            name: parse_many(rate) for name, rate in chosen.items() if rate.lower() not in OFF
        }

    @property
    def active(self) -> bool:
        """Some rate is limited at all."""
        return bool(self._items)

    def refusal(self, kinds: Iterable[str], player: str | None, address: str | None) -> int | None:
        """Count one request of each kind; None if all are within their limits, else the seconds
        to wait (and then nothing was counted, so a refused request costs the player nothing).
        Shared counts are a database round trip: call it off the event loop then."""
        if not self._items:
            return None
        checks: list[Check] = []
        for kind in kinds:
            for whom, key in (("player", player), ("address", network(address, self.loopback))):
                if key is not None:
                    name = f"{kind}_per_{whom}"
                    checks.extend(
                        Check(name, key, item.amount, item.get_expiry(), item)
                        for item in self._items.get(name, ())
                    )
        return self.counts.take(checks) if checks else None
