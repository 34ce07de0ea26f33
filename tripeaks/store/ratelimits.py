"""The rate limits' moving windows in PostgreSQL, shared by every worker of every machine.

A hosted server on PostgreSQL answers one player through whichever worker the load balancer picks;
counted in each process's memory, a limit would be N times as loose with N workers, and reset by every
restart of one. So each hit is a row (the limit's name, the player or address, the database's clock)
in one table that all of them see, and a request's every window is checked, and hit if all have room,
in one statement: one round trip per limited request (ratelimit.DEFAULT_RATES's kinds; never an
action). The database's clock is the one clock, whatever the machines' say.

The table (UNLOGGED: its rows are worth nothing after a crash) is made by migration 0009,
with the rest of the schema, before any worker answers: made at first use, every worker of a new
server made it at once and all but one failed a player's request on the race.

Two workers may pass the same last hit of a window at the same moment (the check and the hit are one
statement, not one lock): a window can overshoot by a request or two under a burst, never by more.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import psycopg

from tripeaks.store.common import Unavailable


class Check(Protocol):
    """One window a request counts in (web/http/ratelimit.py's Check): at most ``limit`` hits of
    ``name`` by ``key`` within the last ``seconds``. Named here by its shape, so that the store
    imports nothing of the web."""

    @property
    def name(self) -> str: ...

    @property
    def key(self) -> str: ...

    @property
    def limit(self) -> int: ...

    @property
    def seconds(self) -> int: ...


Run = Callable[[str, Sequence[Any]], list[Any]]
"""One statement on a pooled connection of the store, committed by itself (PgStore.statement)."""

_TAKE = """
WITH want AS (
    SELECT * FROM unnest(%s::text[], %s::text[], %s::int[], %s::int[]) AS w(name, key, lim, secs)
), clock AS (
    SELECT extract(epoch FROM clock_timestamp())::double precision AS now
), seen AS (
    SELECT w.lim, w.secs, count(h.at) AS n, min(h.at) AS oldest
    FROM want w CROSS JOIN clock c
    LEFT JOIN rate_hits h ON h.name = w.name AND h.key = w.key AND h.at > c.now - w.secs
    GROUP BY w.name, w.key, w.lim, w.secs
), full_ AS (
    SELECT s.oldest + s.secs - c.now AS wait FROM seen s CROSS JOIN clock c WHERE s.n >= s.lim
), hit AS (
    INSERT INTO rate_hits (name, key, at)
    SELECT DISTINCT w.name, w.key, c.now FROM want w CROSS JOIN clock c
    WHERE NOT EXISTS (SELECT 1 FROM full_)
    RETURNING 1
), gone AS (
    DELETE FROM rate_hits h
    USING (SELECT name, key, max(secs) AS secs FROM want GROUP BY name, key) w, clock c
    WHERE h.name = w.name AND h.key = w.key AND h.at <= c.now - w.secs
    RETURNING 1
)
SELECT (SELECT max(wait) FROM full_), (SELECT count(*) FROM hit), (SELECT count(*) FROM gone)
"""
"""Every window of the request counted at once; if all have room, one hit in each (a name and key
once, however many windows it has) and that key's hits older than its longest window dropped."""

_PURGE = "DELETE FROM rate_hits WHERE at < extract(epoch FROM clock_timestamp()) - %s"
PURGE_EVERY = 1000
"""Requests between two sweeps of the hits of keys that were not seen again (a player who left)."""


class PgCounts:
    """The moving windows of ratelimit.Limiter, counted in the database every worker shares."""

    shared = True

    def __init__(self, run: Run) -> None:
        self._run = run
        self._longest = 0
        self._since_purge = 0

    def take(self, checks: Sequence[Check]) -> int | None:
        try:
            rows = self._run(
                _TAKE,
                (
                    [c.name for c in checks],
                    [c.key for c in checks],
                    [c.limit for c in checks],
                    [c.seconds for c in checks],
                ),
            )
            self._longest = max(self._longest, *(c.seconds for c in checks))
            self._since_purge += 1
            if self._since_purge >= PURGE_EVERY:
                self._since_purge = 0
                self._run(_PURGE, (self._longest,))
        except (psycopg.OperationalError, psycopg.InterfaceError, OSError) as error:
            raise Unavailable(str(error).strip().splitlines()[0] if str(error) else "") from error
        wait: float | None = rows[0][0]
        if wait is None:
            return None
        return max(1, math.ceil(wait))
