"""PostgreSQL's own faults (issue 35): a new database's first concurrent requests, and a database
that restarts under a running server."""

from __future__ import annotations

import subprocess
import tempfile
import threading
from collections.abc import Iterator

import psycopg
import pytest
from fastapi.testclient import TestClient
from test_api_support import BASE_URL, CLUSTER, WIN_CODE, new_game

from tripeaks.store.postgres import PgStore
from tripeaks.store.ratelimits import PgCounts
from tripeaks.web.app import create_app
from tripeaks.web.http.ratelimit import Limiter, rates


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


@pytest.fixture
def cluster() -> Iterator[tuple[str, str]]:
    """A PostgreSQL cluster of this test's own (the shared one must not stop): folder and URL."""
    folder = tempfile.mkdtemp(prefix="tripeaks-pg-restart-")  # the postgres user must reach it
    started = subprocess.run(
        ["sh", str(CLUSTER), "start", folder], capture_output=True, text=True, timeout=120
    )
    assert started.returncode == 0, started.stderr
    try:
        yield folder, started.stdout.strip()
    finally:
        subprocess.run(["sh", str(CLUSTER), "stop", folder], capture_output=True, timeout=120)


def pg_ctl(command: str, folder: str) -> None:
    subprocess.run(["sh", str(CLUSTER), command, folder], check=True, timeout=120)


def draw(client: TestClient, game_id: str) -> int:
    version = client.get(f"/api/games/{game_id}").json()["version"]
    reply = client.post(f"/api/games/{game_id}/draw", json={"version": version})
    return reply.status_code


@pytest.mark.slow
def test_the_first_requests_after_a_database_restart_are_answered(
    cluster: tuple[str, str],
) -> None:
    """Regression: after PostgreSQL restarted, the pool handed out its dead connections one
    request at a time, each a 503 (finding 6)."""
    folder, url = cluster
    with TestClient(create_app(url), base_url=BASE_URL) as client:
        game_id = new_game(client, WIN_CODE)["id"]
        assert draw(client, game_id) == 200
        pg_ctl("halt", folder)
        pg_ctl("resume", folder)  # back at once: every pooled connection is dead
        assert client.get(f"/api/games/{game_id}").status_code == 200
        assert client.get("/readyz").status_code == 200
        assert client.get("/api/stats").status_code == 200
        assert draw(client, game_id) == 200


@pytest.mark.slow
def test_a_database_away_for_a_while_is_503_and_answered_once_back(
    cluster: tuple[str, str],
) -> None:
    """Regression: while the database was away, psycopg_pool's reconnection backoff grew (1, 2,
    4, 8 s), and for as long after it was back the pool opened nothing: 503s for 8-10 s."""
    folder, url = cluster
    with TestClient(create_app(url), base_url=BASE_URL) as client:
        game_id = new_game(client, WIN_CODE)["id"]
        pg_ctl("halt", folder)
        for _ in range(3):  # each waits for a connection the pool cannot open, then is refused
            away = client.get(f"/api/games/{game_id}")
            assert away.status_code == 503
            assert away.json()["error"]["reason"] == "unavailable"
            assert client.get("/readyz").status_code == 503
        pg_ctl("resume", folder)
        assert client.get(f"/api/games/{game_id}").status_code == 200
        assert draw(client, game_id) == 200
