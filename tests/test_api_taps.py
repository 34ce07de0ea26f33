"""play/draw/undo take a lean path past FastAPI when plainly valid: the replies are the very same.

Adding a query parameter the API ignores (``via=fastapi``) sends the same request through FastAPI,
so each case is asked both ways and the two replies compared byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import STUCK_CODE, WIN_CODE, api, new_game, play_line, winning_line

from tripeaks.game import DRAW
from tripeaks.web import app as app_module

Reply = tuple[int, str | None, bytes]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with api(tmp_path / "games.db") as c:
        yield c


@pytest.fixture
def lean(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the requests the lean path answered."""
    taken: list[str] = []
    fields = app_module._tap_fields

    def spy(kind: str, body: bytes) -> Any:
        found = fields(kind, body)
        if found is not None:
            taken.append(kind)
        return found

    monkeypatch.setattr(app_module, "_tap_fields", spy)
    return taken


def ask(client: TestClient, path: str, body: Any, lang: str, via_fastapi: bool) -> Reply:
    query = f"?lang={lang}" + ("&via=fastapi" if via_fastapi else "")
    reply = client.post(path + query, json=body)
    return reply.status_code, reply.headers.get("content-type"), reply.content


def both_ways(client: TestClient, path: str, body: Any, lang: str = "en") -> Reply:
    lean_reply = ask(client, path, body, lang, False)
    assert lean_reply == ask(client, path, body, lang, True)
    return lean_reply


def test_accepted_taps_reply_alike(client: TestClient, lean: list[str]) -> None:
    """A retried request id replays the first reply, whichever way each of the two went."""
    for lang in ("en", "fi", "ca"):
        state = new_game(client, WIN_CODE, lang)
        line = winning_line()[:6]
        for n, action in enumerate(line):
            body: dict[str, Any] = {"version": state["version"], "request_id": f"r{n}"}
            if action.pos is not None:
                body["pos"] = action.pos
            path = f"/api/games/{state['id']}/{action.kind.value}"
            first = ask(client, path, body, lang, via_fastapi=n % 2 == 0)
            again = ask(client, path, body, lang, via_fastapi=n % 2 == 1)
            assert first[0] == 200 and first == again
            state = client.get(f"/api/games/{state['id']}?lang={lang}").json()
        undo = {"version": state["version"], "request_id": "u"}
        first = ask(client, f"/api/games/{state['id']}/undo", undo, lang, via_fastapi=False)
        assert first[0] == 200
        assert first == ask(client, f"/api/games/{state['id']}/undo", undo, lang, True)
    assert {"play", "draw", "undo"} <= set(lean)


def test_refusals_reply_alike(client: TestClient, lean: list[str]) -> None:
    state = new_game(client, STUCK_CODE, "fi")
    game = f"/api/games/{state['id']}"
    locked = next(s["pos"] for s in state["tableau"] if s["slot"] == "face_down")
    assert both_ways(client, game + "/play", {"pos": locked, "version": 0}, "fi")[0] == 422
    assert both_ways(client, game + "/play", {"pos": 99, "version": 0})[0] == 422
    assert both_ways(client, game + "/undo", {"version": 0}, "ca")[0] == 422
    assert both_ways(client, game + "/draw", {"version": 5})[0] == 409
    assert both_ways(client, "/api/games/nope/draw", {"version": 0})[0] == 404
    stuck = play_line(client, state, [DRAW] * 23)[-1]
    assert both_ways(client, game + "/draw", {"version": stuck["version"]})[0] == 422
    client.cookies.clear()  # someone else's game looks like no game at all
    assert both_ways(client, game + "/draw", {"version": stuck["version"]})[0] == 404
    assert len(lean) == 7 + 23  # each both_ways once lean, and the 23 draws


@pytest.mark.parametrize(
    "body",
    [
        {"version": True},
        {"version": "0"},
        {"version": 0, "pos": "3"},
        {"version": 0, "pos": 3.0},
        {"version": 0, "pos": None},
        {"pos": 3},
        {"version": 0, "pos": 3, "request_id": ""},
        {"version": 0, "pos": 3, "request_id": 7},
        {"version": 0, "pos": 3, "request_id": "x" * 129},
        [0, 3],
        "play",
    ],
)
def test_anything_unusual_is_left_to_fastapi(
    client: TestClient, lean: list[str], body: Any
) -> None:
    state = new_game(client)
    reply = client.post(f"/api/games/{state['id']}/play", json=body)
    assert reply.status_code == 422 and reply.json()["error"]["reason"] == "bad_request"
    assert lean == []


def test_other_queries_and_bodies_are_left_to_fastapi(client: TestClient, lean: list[str]) -> None:
    state = new_game(client)
    game = f"/api/games/{state['id']}"
    reply = client.post(game + "/draw?lang=sv", json={"version": 0})
    assert reply.status_code == 422 and reply.json()["error"]["reason"] == "unknown_language"
    reply = client.post(game + "/draw", content=b"{", headers={"content-type": "application/json"})
    assert reply.status_code == 422 and reply.json()["error"]["reason"] == "bad_request"
    reply = client.post(game + "/draw", content=b"x" * 20_000)
    assert reply.status_code == 413
    assert client.get(game).json()["version"] == 0
    reply = client.post(game + "/draw?lang=fi&lang=ca", json={"version": 0})
    assert reply.status_code == 200 and lean == []
    assert reply.json()["stock_label"] == client.get(game + "?lang=ca").json()["stock_label"]
