"""What a clumsy client or a failing disk gets from the API: a clear refusal that changes nothing."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import WIN_CODE, new_game, reopen, send, store_of, winning_line

from tripeaks.engine.game import DRAW, UNDO, Action
from tripeaks.store.sqlite import Store


def sqlite_of(client: TestClient) -> Store:
    store = store_of(client)
    assert isinstance(store, Store)
    return store


def committed(client: TestClient, game_id: str) -> list[str]:
    return [str(a) for a in reopen(store_of(client)).actions(game_id)]


@pytest.mark.parametrize(
    ("endpoint", "body"),
    [("undo", {}), ("play", {"pos": 21}), ("draw", {"version": 5})],
    ids=["other endpoint", "other position", "other version"],
)
def test_a_request_id_reused_for_another_action_is_409(
    client: TestClient, endpoint: str, body: dict[str, Any]
) -> None:
    """Regression: the reused id got the first action's reply, as if the second were applied."""
    state = new_game(client, WIN_CODE)
    first = client.post(f"/api/games/{state['id']}/draw", json={"version": 0, "request_id": "same"})
    assert first.status_code == 200
    reply = client.post(
        f"/api/games/{state['id']}/{endpoint}?lang=fi",
        json={"version": 0, **body, "request_id": "same"},
    )
    assert reply.status_code == 409
    error = reply.json()["error"]
    assert error["reason"] == "request_id_reused" and "tunniste" in error["message"]
    assert reply.json()["state"]["version"] == 1
    assert committed(client, state["id"]) == ["draw"]


def test_the_same_request_sent_again_answers_as_the_first_time(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    line = winning_line()
    first_play = next(i for i, a in enumerate(line) if a.pos is not None)
    for action in line[:first_play]:
        state = send(client, state, action).json()
    body = {"version": state["version"], "pos": line[first_play].pos, "request_id": "tap"}
    first = client.post(f"/api/games/{state['id']}/play", json=body)
    again = client.post(f"/api/games/{state['id']}/play", json=body)
    assert first.status_code == again.status_code == 200
    assert again.json()["last"] == first.json()["last"]
    assert committed(client, state["id"]) == [str(a) for a in line[: first_play + 1]]


def test_a_full_disk_answers_503_and_the_retry_applies_once(sqlite_client: TestClient) -> None:
    """Regression: a failed commit answered 500 (and could acknowledge changes it had lost)."""
    client = sqlite_client
    state = new_game(client, WIN_CODE)
    writer = sqlite_of(client)._writer
    pages = writer.execute("PRAGMA page_count").fetchone()[0]
    writer.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL, for real
    replies = []
    for version in range(2000):  # draw and undo, with long request ids, until a page is wanted
        body = {"version": version, "request_id": f"{version:0128d}"}
        path = f"/api/games/{state['id']}/{'undo' if version % 2 else 'draw'}?lang=ca"
        replies.append(client.post(path, json=body))
        if replies[-1].status_code != 200:
            break
    full = replies[-1]
    assert full.status_code == 503, [r.status_code for r in replies]
    assert full.json()["error"]["reason"] == "unavailable"
    assert "desar" in full.json()["error"]["message"]
    assert int(full.headers["Retry-After"]) >= 1
    saved = committed(client, state["id"])
    assert len(saved) == len(replies) - 1, "every 200 is in the database, the 503 is not"
    shown = client.get(f"/api/games/{state['id']}").json()
    assert shown["version"] == len(saved), "the live game is the database's"
    writer.execute("PRAGMA max_page_count = 1073741823")
    again = client.post(path, json=body)  # what the page does: the same request, later
    assert again.status_code == 200 and again.json()["version"] == len(saved) + 1
    assert client.post(path, json=body).json()["version"] == len(saved) + 1
    assert committed(client, state["id"]) == [
        ("undo" if v % 2 else "draw") for v in range(len(saved) + 1)
    ]


def test_a_read_only_database_answers_503_and_changes_nothing(sqlite_client: TestClient) -> None:
    client = sqlite_client
    state = new_game(client, WIN_CODE)
    writer = sqlite_of(client)._writer
    writer.execute("PRAGMA query_only = 1")  # SQLite refuses every write: SQLITE_READONLY
    for path, body in (
        (f"/api/games/{state['id']}/draw", {"version": 0}),
        ("/api/games", {}),
    ):
        reply = client.post(path, json=body)
        assert reply.status_code == 503 and reply.json()["error"]["reason"] == "unavailable"
        assert reply.headers["Retry-After"]
    assert (
        client.delete("/api/stats", headers={"content-type": "application/json"}).status_code == 503
    )
    shown = client.get(f"/api/games/{state['id']}").json()
    assert shown["version"] == 0 and shown["status"] == "playing", "the new game was not made"
    writer.execute("PRAGMA query_only = 0")
    assert send(client, shown, DRAW).status_code == 200


def test_a_game_over_refuses_every_action_with_409_and_its_state(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    state = send(client, state, DRAW).json()
    new_game(client)
    for action in (DRAW, UNDO, Action.play(18)):
        reply = send(client, state, action)
        assert reply.status_code == 409, reply.text
        assert reply.json()["error"]["reason"] == "game_over"
        assert reply.json()["state"]["status"] == "left"
        assert reply.json()["state"]["playable"] == [] and not reply.json()["state"]["can_undo"]
    stats = client.get("/api/stats").json()["easy"]
    assert (stats["played"], stats["won"]) == (1, 0)


def test_a_storage_error_while_reading_is_503_too(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = sqlite_client
    state = new_game(client, WIN_CODE)
    store = sqlite_of(client)
    store._cache.clear()  # the game must be read from the database
    real = store._reader

    class Broken:
        def execute(self, *args: Any) -> Any:
            raise sqlite3.OperationalError("disk I/O error")

    store._reader = Broken()  # type: ignore[assignment]
    reply = client.get(f"/api/games/{state['id']}")
    assert reply.status_code == 503 and reply.json()["error"]["reason"] == "unavailable"
    store._reader = real
    assert client.get(f"/api/games/{state['id']}").status_code == 200


def test_a_typed_code_is_checked_and_changes_nothing(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    reply = client.get("/api/code", params={"code": " tp1-c-aaaaaab "})
    assert reply.json() == {
        "code": "TP1-C-AAAAAAB",
        "rules": "classic",
        "variant": {"scoring": "ours", "open_peaks": False, "empty_discard": False, "joker": False},
    }
    wrong = client.get("/api/code", params={"code": "TP1-E-AAAA", "lang": "fi"})
    assert wrong.status_code == 422 and wrong.json()["error"]["reason"] == "invalid_code"
    assert client.get(f"/api/games/{state['id']}").json()["status"] == "playing"
