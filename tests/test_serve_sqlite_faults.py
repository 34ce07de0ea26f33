"""A SQLite database whose files change under the running server (issue 35, finding 7): the server
answers 503 and says why in one line of its log, and keeps running, where a SIGBUS killed it."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from served import BOUND, serving
from test_api_support import WIN_CODE, new_game, store_of

from tripeaks.store.sqlite import Store

JSON = {"Content-Type": "application/json"}


def test_a_cut_short_wal_index_is_503_and_the_server_runs_on(tmp_path: Path) -> None:
    """Regression: the server's next transaction read the mapped ``-shm`` past its new end: SIGBUS,
    the process gone without a reply or a log line."""
    db = tmp_path / "games.db"
    log = tmp_path / "stderr.log"
    with (
        log.open("w") as stderr,
        serving(db, stderr=stderr) as served,
        httpx.Client(base_url=served.url, timeout=BOUND) as client,
    ):
        game = client.post("/api/games", json={"code": WIN_CODE}, headers=JSON).json()
        shm = db.with_name("games.db-shm")
        assert shm.stat().st_size > 0
        os.truncate(shm, 0)  # as a program opening the database without its locks does
        for _ in range(3):
            reply = client.post(
                f"/api/games/{game['id']}/draw?lang=fi", json={"version": 0}, headers=JSON
            )
            assert reply.status_code == 503, reply.text
            assert reply.json()["error"]["reason"] == "unavailable"
            assert client.get(f"/api/games/{game['id']}").status_code == 503
        assert client.get("/healthz").status_code == 200  # alive
        assert client.get("/readyz").status_code == 503  # and out of the load balancer's rota
        os.kill(served.pid, 0)
    said = [line for line in log.read_text().splitlines() if "cut short" in line]
    assert said and all("storage unavailable" in line for line in said)


def test_a_read_only_file_system_is_503_and_changes_nothing(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file system remounted read-only under the server: a write to the mapped index would be a
    SIGBUS, so the store looks before each transaction."""
    client = sqlite_client
    state = new_game(client, WIN_CODE)
    store = store_of(client)
    assert isinstance(store, Store)
    statvfs = os.statvfs

    class ReadOnly:
        def __init__(self, real: os.statvfs_result) -> None:
            self.f_flag = real.f_flag | os.ST_RDONLY

    monkeypatch.setattr(os, "statvfs", lambda path: ReadOnly(statvfs(path)))
    reply = client.post(f"/api/games/{state['id']}/draw?lang=ca", json={"version": 0})
    assert reply.status_code == 503
    assert reply.json()["error"]["reason"] == "unavailable"
    assert reply.headers["retry-after"]
    monkeypatch.setattr(os, "statvfs", statvfs)
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT count(*) FROM actions").fetchone() == (0,)
    again = client.post(f"/api/games/{state['id']}/draw", json={"version": 0})
    assert again.status_code == 200  # the file system writable again: the same request applies
