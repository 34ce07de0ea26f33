"""The moves' short way (web/moves.py): taken for every well-formed move, and it answers exactly as
FastAPI's routing of the same route would, refusals included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_api_support import BASE_URL, WIN_CODE, api, new_game, play_line, winning_line

from tripeaks.web.api.games import MOVES
from tripeaks.web.api.moves import Moves
from tripeaks.web.app import create_app


def test_every_move_of_a_game_takes_the_short_way(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    routed: list[str] = []
    handle = APIRoute.handle

    async def counted(self: APIRoute, scope: Any, receive: Any, send: Any) -> None:
        routed.append(self.path)
        await handle(self, scope, receive, send)

    monkeypatch.setattr(APIRoute, "handle", counted)
    state = new_game(client, WIN_CODE)
    final = play_line(client, state, winning_line())[-1]
    assert final["status"] == "won"
    assert client.get(f"/api/games/{state['id']}").json()["status"] == "won"
    # the new game and the read went through FastAPI's routing; not one of the moves did
    assert routed == ["/api/games", "/api/games/{game_id}"]


@pytest.fixture
def twins(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """The app as served, and the same app with the short way taken out (FastAPI alone)."""
    plain = create_app(tmp_path / "plain.db")
    plain.user_middleware = [m for m in plain.user_middleware if m.cls is not Moves]
    with api(tmp_path / "short.db") as short, TestClient(plain, base_url=BASE_URL) as routed:
        yield short, routed


def _both(
    twins: tuple[TestClient, TestClient],
    ids: tuple[str, str],
    path: str,
    *,
    content: bytes,
    headers: dict[str, str] | None = None,
    method: str = "POST",
) -> tuple[int, Any]:
    """One request sent to both apps (each its own game id); both replies must be the same."""
    replies = []
    for client, game_id in zip(twins, ids, strict=True):
        reply = client.request(
            method,
            path.format(id=game_id),
            content=content,
            headers={"content-type": "application/json", **(headers or {})},
        )
        text = reply.text.replace(game_id, "<id>")
        kept = {k: reply.headers.get(k) for k in ("content-type", "retry-after", "allow")}
        replies.append((reply.status_code, text, kept))
    assert replies[0] == replies[1]
    status, text, _ = replies[0]
    return status, json.loads(text) if text else None


def _start(twins: tuple[TestClient, TestClient]) -> tuple[str, str]:
    first, second = (new_game(client, WIN_CODE)["id"] for client in twins)
    return first, second


REQUESTS: list[tuple[str, bytes, dict[str, str]]] = [
    ("/api/games/{id}/draw", b'{"version": 0}', {}),
    ("/api/games/{id}/undo?lang=fi", b'{"version": 1}', {}),
    ("/api/games/{id}/draw?lang=fi&lang=ca", b'{"version": 2, "request_id": "r-1"}', {}),
    ("/api/games/{id}/draw?lang=ca", b'{"version": 2, "request_id": "r-1"}', {}),  # a retry
    ("/api/games/{id}/draw", b'{"version": 0}', {}),  # stale
    ("/api/games/{id}/play", b'{"pos": 0, "version": 3}', {}),  # locked
    ("/api/games/{id}/play?lang=xx", b'{"pos": 20, "version": 3}', {}),
    ("/api/games/{id}/play?lang=", b'{"pos": 20, "version": 3}', {}),
    ("/api/games/{id}/play", b"", {}),
    ("/api/games/{id}/play", b"{not json", {}),
    ("/api/games/{id}/play", b"[1, 2]", {}),
    ("/api/games/{id}/play", b'{"pos": "20", "version": 3}', {}),
    ("/api/games/{id}/play", b'{"pos": true, "version": 3}', {}),
    ("/api/games/{id}/play", b'{"pos": 20}', {}),
    ("/api/games/{id}/play", b'{"pos": 99, "version": 3}', {}),
    ("/api/games/{id}/draw", b'{"version": 3, "request_id": ""}', {}),
    ("/api/games/{id}/draw", b'{"version": 3, "extra": 1}', {}),
    ("/api/games/{id}/draw", b'{"version": 4}', {"content-type": "text/plain"}),
    (
        "/api/games/{id}/draw",
        b'{"version": 4}',
        {"content-type": "application/json; charset=utf-8"},
    ),
    ("/api/games/{id}/draw", b'{"version": 5}', {"origin": "https://elsewhere.example"}),
    ("/api/games/{id}/draw/", b'{"version": 5}', {}),
    ("/api/games/nosuchgame/draw", b'{"version": 5}', {}),
    ("/api/games/{id}/jump", b'{"version": 5}', {}),
    ("/api/games/{id}/redo", b'{"version": 99}', {}),  # stale
    ("/api/games/{id}/redo?lang=fi", b"{}", {}),
]


def test_the_short_way_answers_every_request_as_fastapi_does(
    twins: tuple[TestClient, TestClient],
) -> None:
    ids = _start(twins)
    seen = set()
    for path, content, headers in REQUESTS:
        status, _ = _both(twins, ids, path, content=content, headers=headers)
        seen.add(status)
    status, _ = _both(twins, ids, "/api/games/{id}/draw", content=b"", method="GET")
    assert status == 405
    # the list reaches every kind of answer: moves, refusals by the rules and by the checks
    assert {200, 403, 404, 409, 415, 422} <= seen


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    move=st.sampled_from([route.__name__ for route in MOVES]),
    body=st.fixed_dictionaries(
        {},
        optional={
            "pos": st.integers(17, 27) | JSON,
            "version": st.just(0) | JSON,
            "request_id": st.text(max_size=3) | JSON,
            "x": JSON,
        },
    ),
    lang=st.sampled_from(["", "?lang=fi", "?lang=q", "?lang=ca&lang=en"]),
)
def test_any_body_is_read_as_fastapi_reads_it(
    twins: tuple[TestClient, TestClient], move: str, body: dict[str, Any], lang: str
) -> None:
    ids = _start(twins)  # a new game each time, so that version 0 is a move that applies
    _both(twins, ids, f"/api/games/{{id}}/{move}{lang}", content=json.dumps(body).encode())
