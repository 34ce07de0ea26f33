"""Shared helpers of the API tests: a client on a fresh database and known deals."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from winning import find_win

from tripeaks import daily
from tripeaks.engine.game import Action, Game
from tripeaks.store.core import Change, Storage
from tripeaks.store.sqlite import Store, open_store
from tripeaks.web.app import create_app

WIN_CODE = "TP1-E-AAABUWI"
"""An Easy deal the tests' small search wins at once."""
STUCK_CODE = "TP1-E-AABPSMK"
"""Drawing all 23 stock cards leaves this deal stuck."""
CLUSTER = Path(__file__).parent / "pg_cluster.sh"
"""Starts and stops a throwaway PostgreSQL cluster (make test, conftest.py, test_pg.py)."""
PG_VARIABLE = "TRIPEAKS_TEST_PG"
"""Names the throwaway PostgreSQL cluster's database: ``make test`` starts one and sets it, and a
bare ``pytest`` starts its own (conftest.py); no PostgreSQL test is ever skipped."""


def pg_url() -> str:
    """The test cluster's URL (set before any test runs)."""
    return os.environ[PG_VARIABLE]


BASE_URL = "http://127.0.0.1"
"""TestClient's own host name (testserver) is not one the app answers to."""


@contextmanager
def api(db: Path | str) -> Iterator[TestClient]:
    with TestClient(create_app(db), base_url=BASE_URL) as client:
        yield client


@cache
def winning_line(code: str = WIN_CODE) -> tuple[Action, ...]:
    line = find_win(Game.new(code), limit=50_000)
    assert line is not None, f"no win found for {code}"
    return tuple(line)


def new_game(client: TestClient, code: str | None = None, lang: str = "en") -> dict[str, Any]:
    body: dict[str, Any] = {} if code is None else {"code": code}
    reply = client.post(f"/api/games?lang={lang}", json=body)
    assert reply.status_code == 201, reply.text
    state: dict[str, Any] = reply.json()
    return state


def send(
    client: TestClient,
    state: dict[str, Any],
    action: Action | str,
    lang: str = "en",
    request_id: str | None = None,
) -> Any:
    """POST one action against the version of ``state``; returns the raw reply."""
    action = Action.parse(action) if isinstance(action, str) else action
    body: dict[str, Any] = {"version": state["version"]}
    if action.pos is not None:
        body["pos"] = action.pos
    if request_id is not None:
        body["request_id"] = request_id
    return client.post(f"/api/games/{state['id']}/{action.kind.value}?lang={lang}", json=body)


def play_line(
    client: TestClient, state: dict[str, Any], line: tuple[Action, ...] | list[Action]
) -> list[dict[str, Any]]:
    """Every reply of a whole line of actions, each of which must be accepted."""
    replies = []
    for action in line:
        reply = send(client, state, action)
        assert reply.status_code == 200, reply.text
        state = reply.json()
        replies.append(state)
    return replies


def player_of(client: TestClient) -> str:
    """The player id in the client's cookie (``<id>.<signature>``, web/identity.py)."""
    cookie = client.cookies.get("tripeaks_player")
    assert cookie is not None and "." in cookie, cookie
    return cookie.partition(".")[0]


def store_of(client: TestClient) -> Storage:
    store: Storage = client.app.state.backend.store  # type: ignore[attr-defined]
    return store


def reopen(store: Storage) -> Storage:
    """Another store on the same database: what a restarted server (or another worker) reads."""
    return open_store(store.path if isinstance(store, Store) else store.url)  # type: ignore[attr-defined]


def count_commits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, every commit of any store appends how many changes it holds to the list."""
    batches: list[int] = []
    flush = Storage.flush

    def counted(store: Storage) -> list[Change]:
        batch = flush(store)  # not len(store._staged) first: a change staged meanwhile joins it
        batches.append(len(batch))
        return batch

    monkeypatch.setattr(Storage, "flush", counted)
    return batches


def at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    """The daily's clock (daily.clock) stands at ``moment`` (UTC) for the rest of the test."""
    monkeypatch.setattr(daily, "clock", lambda: moment.astimezone(UTC))


def on_day(monkeypatch: pytest.MonkeyPatch, day: date, hour: int = 12) -> None:
    """The daily's clock stands at ``hour`` o'clock UTC of ``day``."""
    at(monkeypatch, datetime.combine(day, time(hour), UTC))


def refused_by_command(
    args: list[str],
    locale: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """Run ``tripeaks ARGS`` in the system language ``locale`` (``fi_FI.UTF-8``): it must refuse
    its input (exit 1, README.md "The command line") in one line on stderr and print nothing on
    stdout; returns that line."""
    from tripeaks.cli.main import main

    monkeypatch.setenv("LANG", locale)
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.splitlines()
    assert line.startswith("tripeaks: ")
    return err
