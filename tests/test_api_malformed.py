"""Malformed input of every kind is a 4xx in the Error shape, and an unexpected error is one
traceback per kind and minute in the log, not one per request (issue 35, finding 3)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_api_support import WIN_CODE, new_game, store_of

from tripeaks.web.api import errors

DEEP = 5000
"""Nesting far beyond Python's recursion limit (1000): the JSON decoder recurses per level."""


def nested(field: str) -> str:
    return f'{{"{field}": {"[" * DEEP}{"]" * DEEP}}}'


@pytest.mark.parametrize("action", ["play", "draw", "undo"])
def test_a_deeply_nested_move_body_is_a_422(client: TestClient, action: str) -> None:
    """Regression: the move's body parser let RecursionError out, a 500 with two tracebacks."""
    state = new_game(client, WIN_CODE)
    reply = client.post(
        f"/api/games/{state['id']}/{action}?lang=fi",
        content=nested("version"),
        headers={"Content-Type": "application/json"},
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"]["reason"] == "bad_request"
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 0


def test_a_deeply_nested_body_without_a_cookie_is_a_422(tmp_path: Path) -> None:
    from test_api_support import api

    with api(tmp_path / "games.db") as fresh:
        for path in ("/api/games/x/play", "/api/games"):
            reply = fresh.post(
                path, content=nested("code"), headers={"Content-Type": "application/json"}
            )
            assert reply.status_code == 422, (path, reply.text)
            assert reply.json()["error"]["reason"] == "bad_request"


@pytest.mark.parametrize("month", ["0001-01", "0000-12", "0001-13"])
def test_a_month_before_the_calendar_begins_is_a_422(client: TestClient, month: str) -> None:
    """Regression: 0001-01 was a 500 (the history counts its days down past date.min)."""
    reply = client.get(f"/api/daily/history?month={month}&lang=ca")
    assert reply.status_code == 422, reply.text
    assert reply.json()["error"]["reason"] == "daily_day"


def test_the_first_month_the_calendar_can_show_is_answered(client: TestClient) -> None:
    reply = client.get("/api/daily/history?month=0001-02")
    assert reply.status_code == 200, reply.text
    assert len(reply.json()["days"]) == 28


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_unexpected_error_is_logged_once_per_kind_and_minute(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: every failing request wrote its traceback twice (ours and uvicorn's), 2.4 MB/s
    of log from one client. TestClient raises what escapes the app: nothing must."""
    unexpected = errors.Unexpected()
    clock = Clock()
    unexpected.clock = clock
    monkeypatch.setattr(errors, "UNEXPECTED", unexpected)
    state = new_game(client, WIN_CODE)

    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(store_of(client), "game", broken)
    caplog.set_level(logging.ERROR, logger=errors.log.name)
    for _ in range(5):
        reply = client.get(f"/api/games/{state['id']}?lang=fi")
        assert reply.status_code == 500
        assert reply.json()["error"]["reason"] == "server_error"
        assert reply.headers["x-content-type-options"] == "nosniff"  # inside the guard
    logged = [r for r in caplog.records if r.name == errors.log.name]
    assert len(logged) == 1
    assert logged[0].exc_info is not None
    assert "RuntimeError on GET /api/games/{game_id}" in logged[0].getMessage()

    client.get("/api/layout")  # another route's request changes nothing of this kind
    clock.now += errors.UNEXPECTED_EVERY
    assert client.get(f"/api/games/{state['id']}").status_code == 500
    logged = [r for r in caplog.records if r.name == errors.log.name]
    assert len(logged) == 2
    assert "4 more" in logged[1].getMessage()


def test_each_kind_of_unexpected_error_gets_its_own_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(errors, "UNEXPECTED", errors.Unexpected())
    state = new_game(client, WIN_CODE)
    store = store_of(client)

    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    def other(*args: object) -> None:
        raise KeyError("another")

    caplog.set_level(logging.ERROR, logger=errors.log.name)
    monkeypatch.setattr(store, "game", broken)
    client.get(f"/api/games/{state['id']}")
    monkeypatch.setattr(store, "game", other)
    client.get(f"/api/games/{state['id']}")
    monkeypatch.setattr(store, "totals", broken)
    client.get("/api/stats")
    messages = [r.getMessage() for r in caplog.records if r.name == errors.log.name]
    assert len(messages) == 3, messages


def test_an_error_before_any_route_is_one_kind_whatever_the_path_and_method(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A client varies the path and the method at will: neither may make a kind of its own."""
    monkeypatch.setattr(errors, "UNEXPECTED", errors.Unexpected())

    def broken(*args: object) -> None:
        raise RuntimeError("a bug before routing")

    monkeypatch.setattr(errors, "replayed", broken)  # the body limit's, before any route
    caplog.set_level(logging.ERROR, logger=errors.log.name)
    for n in range(4):
        reply = client.request("GET" if n % 2 else "BREW", f"/no/such/path/{n}")
        assert reply.status_code == 500
    messages = [r.getMessage() for r in caplog.records if r.name == errors.log.name]
    assert len(messages) == 2, messages  # GET and any other method: two kinds, not four paths
