"""PostgreSQL's own faults (issue 35): a new database's first concurrent requests, and a database
that restarts under a running server."""

from __future__ import annotations

import threading

import psycopg
import pytest

from tripeaks.store_pg import PgStore
from tripeaks.web.ratelimit import Limiter, rates
from tripeaks.web.ratelimit_pg import PgCounts


def test_a_new_database_has_the_rate_limits_table_before_any_request(postgres: str) -> None:
    """Regression: the table was made by the first limited request of each worker, all at once on
    a new server, and the CREATE that lost the race was a player's 500 (finding 5)."""
    PgStore(postgres).close()
    with psycopg.connect(postgres) as db:
        (table,) = db.execute("SELECT to_regclass('rate_hits')::text").fetchone() or (None,)
        (unlogged,) = db.execute(
            "SELECT relpersistence FROM pg_class WHERE relname = 'rate_hits'"
        ).fetchone() or (None,)
    assert table == "rate_hits"
    assert unlogged == "u"


@pytest.mark.slow
def test_workers_limiting_at_once_on_a_new_database_all_answer(postgres: str) -> None:
    """Eight workers' first limited requests at the same moment: each is counted, none fails."""
    stores = [PgStore(postgres, pool_size=2) for _ in range(8)]
    try:
        limiters = [
            Limiter(rates(["games_per_player=100/minute"]), PgCounts(store.statement))
            for store in stores
            for _ in range(3)
        ]
        start = threading.Barrier(len(limiters))
        failures: list[BaseException] = []

        def first_request(limiter: Limiter) -> None:
            start.wait()
            try:
                assert limiter.refusal(["games"], "p", "192.0.2.1") is None
            except BaseException as error:  # reported below, with the others
                failures.append(error)

        threads = [threading.Thread(target=first_request, args=(lim,)) for lim in limiters]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        rows = stores[0].statement("SELECT count(*) FROM rate_hits WHERE key = 'p'", ())
        assert rows == [(len(limiters),)]
    finally:
        for store in stores:
            store.close()
