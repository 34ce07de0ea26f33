"""Rate limits shared by every worker on PostgreSQL (tripeaks/store/ratelimits.py): a player or an
address meets its limit once, whichever worker it reaches, and a refusal counts nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack

import psycopg
import pytest
from fastapi.testclient import TestClient
from test_api_limits import COOKIE, assert_limited
from test_api_support import BASE_URL, new_game

from tripeaks.store.postgres import PgStore
from tripeaks.store.ratelimits import PgCounts
from tripeaks.web.app import create_app
from tripeaks.web.hosting import Hosting
from tripeaks.web.http.ratelimit import Limiter, MemoryCounts, rates


def workers(url: str, *overrides: str, n: int = 3) -> Iterator[list[TestClient]]:
    with ExitStack() as stack:
        yield [
            stack.enter_context(
                TestClient(
                    create_app(url, hosting=Hosting(rates=rates(overrides))), base_url=BASE_URL
                )
            )
            for _ in range(n)
        ]


def test_a_player_meets_the_limit_once_across_every_worker(postgres: str) -> None:
    for clients in workers(postgres, "games_per_player=4/minute", "games_per_address=none"):
        assert all(c.app.state.backend.limiter.counts.shared for c in clients)  # type: ignore[attr-defined]
        first = clients[0]
        new_game(first)
        for c in clients[1:]:
            c.cookies.set(COOKIE, first.cookies[COOKIE])
        new_game(clients[1])
        new_game(clients[2])
        new_game(clients[0])
        for c in clients:  # each worker has seen at most two of the four: together they are full
            assert_limited(c.post("/api/games", json={}))
        # another player is not this one: a fresh cookie starts at zero on any worker
        assert clients[2].post("/api/games", json={}, cookies={COOKIE: ""}).status_code == 201


def test_an_address_is_counted_across_workers_and_a_refusal_counts_nothing(postgres: str) -> None:
    limits = ("games_per_address=3/minute", "games_per_player=none", "players_per_address=none")
    for clients in workers(postgres, *limits):
        for c in clients:
            assert c.post("/api/games", json={}).status_code == 201
        for c in clients:
            assert_limited(c.post("/api/games", json={}))
        with psycopg.connect(postgres) as db:
            (hits,) = db.execute("SELECT count(*) FROM rate_hits").fetchone() or (0,)
        assert hits == 3  # the refused ones left no hit


def test_the_windows_move_and_old_hits_go(postgres: str) -> None:
    """A 1-second window has room again once its hit is a second old, and that key's old hits are
    dropped by its next request."""
    store = PgStore(postgres)
    try:
        limiter = Limiter(
            rates(["hints_per_player=1/second", "hints_per_address=none"]),
            PgCounts(store.statement),
        )
        assert limiter.refusal(["hints"], "p1", None) is None
        assert limiter.refusal(["hints"], "p1", None) == 1
        assert limiter.refusal(["hints"], "p2", None) is None  # another player, its own window
        time.sleep(1.1)
        assert limiter.refusal(["hints"], "p1", None) is None
        rows = store.statement("SELECT key, count(*) FROM rate_hits GROUP BY key ORDER BY key", ())
        assert rows == [("p1", 1), ("p2", 1)]
    finally:
        store.close()


@pytest.mark.parametrize("shared", [False, True])
def test_memory_and_the_database_count_alike(postgres: str, shared: bool) -> None:
    """The same checks give the same answers in this process's memory and in the database: each
    window of a request is checked, all hit only when all have room."""
    store = PgStore(postgres)
    try:
        counts = PgCounts(store.statement) if shared else MemoryCounts()
        items = rates(["games_per_player=2/minute;3/hour"])
        limiter = Limiter(items, counts)
        answers = [limiter.refusal(["games"], "p", None) for _ in range(4)]
        assert answers[:2] == [None, None]
        assert all(wait is not None and 1 <= wait <= 60 for wait in answers[2:])
        wide = Limiter(rates(["games_per_player=5/minute;3/hour"]), counts)
        assert wide.refusal(["games"], "p", None) is None  # the hour's third
        assert wide.refusal(["games"], "p", None) is not None  # the hour is full
    finally:
        store.close()
