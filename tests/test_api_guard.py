"""Only the player's own page changes state: cross-site and non-JSON writes, foreign hosts refused.

tests/browser/test_cross_site.py makes the same attacks from a real hostile page in Chromium.
"""

from __future__ import annotations

import asyncio
import gzip
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest
import uvicorn
from fastapi.testclient import TestClient
from test_api_support import WIN_CODE, api, new_game, play_line, send, winning_line

from tripeaks.cli import main as cli
from tripeaks.i18n import translator
from tripeaks.web.api import errors
from tripeaks.web.app import create_app
from tripeaks.web.http import guard, refusal

COOKIE = "tripeaks_player"
"""The player cookie of docs/api.md."""
JSON = {"content-type": "application/json"}


def snapshot(client: TestClient, game_id: str) -> tuple[Any, ...]:
    """What a refused request must leave alone: the game, the statistics, the cookie."""
    game = client.get(f"/api/games/{game_id}").json()
    return game["version"], game["status"], client.get("/api/stats").json(), client.cookies[COOKIE]


def player_with_history(client: TestClient) -> dict[str, Any]:
    """A won game in the statistics and a current game one move in."""
    play_line(client, new_game(client, WIN_CODE), winning_line())
    state = new_game(client, WIN_CODE)
    reply = send(client, state, "draw")
    assert reply.status_code == 200
    stats = client.get("/api/stats").json()["easy"]
    assert (stats["played"], stats["won"]) == (1, 1)
    current: dict[str, Any] = reply.json()
    return current


def refused(reply: Any, status: int, reason: str, lang: str = "en") -> None:
    assert reply.status_code == status, reply.text
    assert reply.json() == {
        "error": {"reason": reason, "message": translator(lang)(f"error.{reason}")},
        "state": None,
    }
    assert "set-cookie" not in reply.headers


def test_form_and_text_posts_are_415_and_change_nothing(client: TestClient) -> None:
    state = player_with_history(client)
    before = snapshot(client, state["id"])
    draw = f"/api/games/{state['id']}/draw"
    attempts = [
        client.post("/api/games", data={"code": WIN_CODE}),  # what an HTML form sends
        client.post("/api/games", content=b"{}", headers={"content-type": "text/plain"}),
        client.post("/api/games", content=b"{}"),  # no Content-Type at all
        client.post(draw, data={"version": str(state["version"])}),
        client.post(
            draw,
            content=f'{{"version": {state["version"]}}}'.encode(),
            headers={"content-type": "text/plain;charset=UTF-8"},
        ),
        client.post(
            draw, content=b'{"version": 1}', headers={"content-type": "multipart/form-data"}
        ),
        client.delete("/api/stats"),
    ]
    for reply in attempts:
        refused(reply, 415, "unsupported_media_type")
    # a method no route takes at that path is routing's 405 (with Allow), JSON or not
    for reply in (
        client.put("/api/games", content=b"{}"),
        client.patch(draw, content=b"{}", headers={"content-type": "application/jsonp"}),
    ):
        refused(reply, 405, "method_not_allowed")
    assert snapshot(client, state["id"]) == before


def test_a_refusal_speaks_the_language_of_the_query(client: TestClient) -> None:
    reply = client.post("/api/games?lang=fi", data={"code": WIN_CODE})
    refused(reply, 415, "unsupported_media_type", "fi")
    assert "JSON-muodossa" in reply.json()["error"]["message"]
    reply = client.post("/api/games?lang=ca", json={}, headers={"sec-fetch-site": "cross-site"})
    refused(reply, 403, "cross_site", "ca")


def test_a_middleware_refusal_is_the_routes_error_byte_for_byte() -> None:
    """http/refusal.py writes the Error without the API's models: the same bytes as theirs."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "query_string": b"lang=fi", "headers": []}
    refused = refusal.refuse(scope, receive, send, 413, "body_too_large", connection="close")
    with ThreadPoolExecutor(
        1
    ) as thread:  # a loop of its own: the browser tests' may run in this one
        thread.submit(asyncio.run, refused).result()
    start, body = sent
    route = errors.error_response(413, "body_too_large", translator("fi")("error.body_too_large"))
    assert body["body"] == route.body and start["status"] == 413
    assert start["headers"] == [*route.raw_headers, (b"connection", b"close")]


def test_json_with_parameters_and_any_case_is_accepted(client: TestClient) -> None:
    for media_type in ("application/json; charset=utf-8", "Application/JSON", "application/json"):
        reply = client.post("/api/games", content=b"{}", headers={"content-type": media_type})
        assert reply.status_code == 201, (media_type, reply.text)


def test_a_new_player_gets_no_cookie_from_a_refused_request(tmp_path: Path) -> None:
    with api(tmp_path / "games.db") as stranger:
        for reply in (
            stranger.post("/api/games", data={"rules": "easy"}),
            stranger.post("/api/games", json={}, headers={"sec-fetch-site": "cross-site"}),
            stranger.post("/api/games", json={}, headers={"origin": "http://evil.example"}),
        ):
            assert reply.status_code in (403, 415)
            assert "set-cookie" not in reply.headers
        assert COOKIE not in stranger.cookies
        assert stranger.get("/api/stats").json()["easy"]["played"] == 0


@pytest.mark.parametrize("site", ["cross-site", "same-site", "Cross-Site"])
def test_a_write_another_page_made_is_403(client: TestClient, site: str) -> None:
    state = player_with_history(client)
    before = snapshot(client, state["id"])
    fetch_site = {**JSON, "sec-fetch-site": site}
    body = {"version": state["version"]}
    for reply in (
        client.post("/api/games", json={"code": WIN_CODE}, headers=fetch_site),
        client.post(f"/api/games/{state['id']}/draw", json=body, headers=fetch_site),
        client.post(f"/api/games/{state['id']}/undo", json=body, headers=fetch_site),
        client.delete("/api/stats", headers=fetch_site),
    ):
        refused(reply, 403, "cross_site")
    assert snapshot(client, state["id"]) == before


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "http://127.0.0.1:8001",  # another port of the same machine: the same site, not us
        "https://127.0.0.1",
        "http://localhost",  # the same server under another name is another origin
        "null",  # sandboxed frames, file: pages, some redirects
        "http://127.0.0.1/path",
        "garbage",
    ],
)
def test_a_foreign_origin_is_403(client: TestClient, origin: str) -> None:
    state = player_with_history(client)
    before = snapshot(client, state["id"])
    headers = {**JSON, "origin": origin}
    body = {"version": state["version"]}
    refused(client.post("/api/games", json={}, headers=headers), 403, "cross_site")
    reply = client.post(f"/api/games/{state['id']}/draw", json=body, headers=headers)
    refused(reply, 403, "cross_site")
    refused(client.delete("/api/stats", headers=headers), 403, "cross_site")
    assert snapshot(client, state["id"]) == before


def test_the_own_origin_and_same_origin_fetches_pass(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    for n, headers in enumerate(
        [
            {"origin": "http://127.0.0.1"},
            {"origin": "http://127.0.0.1:80"},
            {"origin": "HTTP://127.0.0.1", "sec-fetch-site": "same-origin"},
            {"sec-fetch-site": "same-origin"},
            {"sec-fetch-site": "none"},  # typed by the user, bookmarks
        ]
    ):
        reply = client.post(f"/api/games/{state['id']}/draw", json={"version": n}, headers=headers)
        assert reply.status_code == 200, (headers, reply.text)
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 5
    own = {**JSON, "origin": "http://127.0.0.1", "sec-fetch-site": "same-origin"}
    assert client.delete("/api/stats", headers=own).status_code == 204


def test_reads_are_not_refused(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    foreign = {"sec-fetch-site": "cross-site", "origin": "http://evil.example"}
    assert client.get(f"/api/games/{state['id']}", headers=foreign).status_code == 200
    assert client.get("/api/stats", headers=foreign).status_code == 200
    assert client.get("/api/layout", headers=foreign).status_code == 200
    assert client.head("/api/layout", headers=foreign).status_code not in (403, 415)


def test_an_unknown_host_is_400_before_anything_runs(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.db")
    with TestClient(app, base_url="http://127.0.0.1") as ours:  # runs the app's lifespan
        rebound = TestClient(app, base_url="http://evil.example:8000")
        for reply in (
            rebound.get("/api/layout"),
            rebound.post("/api/games", json={}),
            rebound.post("/api/games", data={"x": "1"}),  # the host is checked before the body
            rebound.post("/api/games", content=b"x" * 20_000, headers=JSON),  # and its size
            rebound.get("/static", follow_redirects=False),  # was a redirect to evil.example
        ):
            refused(reply, 400, "bad_host")
            assert "location" not in reply.headers
        refused(rebound.get("/api/layout?lang=ca"), 400, "bad_host", "ca")
        plain = TestClient(app)  # TestClient's own Host: testserver
        refused(plain.get("/api/layout"), 400, "bad_host")
        assert ours.get("/api/stats").json()["easy"]["played"] == 0


@pytest.mark.parametrize(
    "base",
    ["http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000", "http://LOCALHOST"],
)
def test_loopback_names_are_accepted(tmp_path: Path, base: str) -> None:
    with TestClient(create_app(tmp_path / "games.db"), base_url=base) as client:
        state = new_game(client, WIN_CODE)
        origin = {"origin": base.lower(), "sec-fetch-site": "same-origin"}
        reply = client.post(f"/api/games/{state['id']}/draw", json={"version": 0}, headers=origin)
        assert reply.status_code == 200, reply.text


class NotServing:
    """Stands in for uvicorn.Server: keeps the app ``tripeaks serve`` built, serves nothing."""

    apps: ClassVar[list[Any]] = []

    def __init__(self, config: uvicorn.Config) -> None:
        NotServing.apps.append(config.app)
        self.started = False

    def run(self) -> None:
        pass


def served_app(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> Any:
    NotServing.apps = []
    monkeypatch.setattr(uvicorn, "Server", NotServing)
    monkeypatch.setattr("tripeaks.web.hosting.settle_the_heap", lambda: None)
    assert cli.main(["serve", "--no-browser", "--port", "8123", *argv]) == 0
    (app,) = NotServing.apps
    return app


def test_allowed_host_names_and_the_listening_host_are_accepted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    argv = ["--db", str(tmp_path / "games.db"), "--host", "0.0.0.0"]
    argv += ["--allowed-host", "tripeaks.lan", "--allowed-host", "Box.Example"]
    argv += ["--allowed-host", "fd00::7"]
    app = served_app(monkeypatch, argv)
    with TestClient(app, base_url="http://tripeaks.lan:8123") as lan:  # runs the lifespan
        assert new_game(lan, WIN_CODE)["code"] == WIN_CODE
        for base in (
            "http://box.example:8123",
            "http://[fd00::7]:8123",
            "http://0.0.0.0:8123",
            "http://127.0.0.1:8123",
            "http://localhost:8123",
            "http://[::1]:8123",
        ):
            assert new_game(TestClient(app, base_url=base), WIN_CODE)["code"] == WIN_CODE, base
        refused(
            TestClient(app, base_url="http://other.lan:8123").get("/api/layout"), 400, "bad_host"
        )


def test_without_allowed_hosts_only_loopback_is_accepted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    app = served_app(monkeypatch, ["--db", str(tmp_path / "games.db")])
    with TestClient(app, base_url="http://[::1]:8123") as client:
        assert client.get("/api/stats").status_code == 200
        refused(
            TestClient(app, base_url="http://tripeaks.lan:8123").get("/api/layout"), 400, "bad_host"
        )


def test_a_host_name_that_can_never_match_is_refused_at_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for bad in ("tripeaks.lan:8000", "a*b.example", "", "http://x"):
        with pytest.raises(SystemExit) as stop:
            cli.main(["serve", "--no-browser", "--allowed-host", bad])
        assert stop.value.code == 2
        assert "--allowed-host" in capsys.readouterr().err
    assert guard.host_pattern("[::1]") == guard.host_pattern("::1") == "[::1]"
    assert guard.host_pattern("*.Example.com") == "*.example.com"


def test_every_reply_carries_the_security_headers(client: TestClient) -> None:
    """The page, the API, static files and refusals (even of a foreign host) alike."""
    state = new_game(client)
    replies = {
        "page": client.get("/"),
        "static": client.get("/static/app.css"),
        "state": client.get(f"/api/games/{state['id']}"),
        "not found": client.get("/api/nowhere"),
        "cross-site": client.post("/api/games", json={}, headers={"sec-fetch-site": "cross-site"}),
        "foreign host": client.get("/", headers={"host": "evil.example"}),
    }
    assert [r.status_code for r in replies.values()] == [200, 200, 200, 404, 403, 400]
    for name, reply in replies.items():
        policy = reply.headers.get("content-security-policy", "")
        assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, name
        assert "script-src 'self'" in policy and "'unsafe-eval'" not in policy, name
        assert reply.headers["x-content-type-options"] == "nosniff", name
        assert reply.headers["referrer-policy"] == "no-referrer", name
        assert reply.headers["x-frame-options"] == "DENY", name


def test_no_page_loads_anything_from_another_host(client: TestClient) -> None:
    """Swagger UI and ReDoc would fetch their scripts from a CDN: they are off; the schema stays."""
    assert client.get("/docs").status_code == 404
    assert client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "TriPeaks"
    page = client.get("/").text
    assert "http://" not in page and "https://" not in page


def test_the_page_and_its_files_go_out_gzipped_and_the_api_does_not(client: TestClient) -> None:

    from tripeaks.web.api.reference import STATIC

    for path, file in (
        ("/", "index.html"),
        ("/static/app.css", "app.css"),
        ("/static/js/board.js", "js/board.js"),
    ):
        reply = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert reply.status_code == 200
        assert (
            reply.headers["content-encoding"] == "gzip"
            and "accept-encoding" in reply.headers["vary"].lower()
        )
        # httpx undoes the gzip: what arrives is the file itself, and it went out smaller (the bytes
        # on the wire, counted raw: a file over one 64 KB chunk goes out chunked, without a length)
        assert reply.content == (STATIC / file).read_bytes()
        with client.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as raw:
            wire = b"".join(raw.iter_raw())
        assert gzip.decompress(wire) == reply.content and len(wire) < len(reply.content) / 2
        # the security headers are there as on any reply
        assert reply.headers["x-content-type-options"] == "nosniff"
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == reply.content
    words = client.get("/api/i18n/fi", headers={"Accept-Encoding": "gzip"})
    assert words.headers["content-encoding"] == "gzip" and words.json()["lang"] == "fi"
    # a game's replies are not compressed: they lie on every action's path
    state = new_game(client, WIN_CODE)
    reply = client.get(f"/api/games/{state['id']}", headers={"Accept-Encoding": "gzip"})
    assert reply.status_code == 200 and "content-encoding" not in reply.headers
