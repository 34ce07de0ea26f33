"""A hostile page in the player's own Chromium cannot touch their games, cookie or statistics.

The page is served by a second small server on another port of 127.0.0.1 (the same *site* as the
game, so SameSite cookies go along) and under evil.example, which Chromium resolves to 127.0.0.1
(another site; also the DNS-rebinding case when it points at the game's own port). It submits
HTML forms (url-encoded and text/plain, the only kinds a form can send) and ``no-cors`` fetches,
the requests a web page can make to another origin without being allowed to.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, served
from playwright.sync_api import APIRequestContext, Browser, BrowserContext, Page
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from test_api_support import WIN_CODE, winning_line

from tripeaks.web.app import create_app

EVIL = "evil.example"
COOKIE = "tripeaks_player"

HOSTILE_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>Free cards!</title>
<script>
// What any web page may do to another origin: submit a form, or fetch without reading the reply.
function submitForm(action, enctype, fields) {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = action;
  form.enctype = enctype;
  for (const [name, value] of fields) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
async function blindFetches(app, game, version) {
  const sent = [];
  const post = (path, body) => fetch(app + path, {
    mode: "no-cors", method: "POST", credentials: "include", body,
  }).then(() => sent.push(path), () => sent.push("failed " + path));
  await post("/api/games");
  await post("/api/games", "{}");
  await post(`/api/games/${game}/draw`, JSON.stringify({version}));
  await post(`/api/games/${game}/draw`, new URLSearchParams({version: String(version)}));
  await Promise.all(Array.from({length: 10}, () => post("/api/games", "{}")));  // a player factory
  return sent;
}
</script>
<body><h1>Free cards!</h1></body>
"""


class Hostile(BaseHTTPRequestHandler):
    """The attacker's web server: one page, whatever the path."""

    def do_GET(self) -> None:
        body = HOSTILE_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class Watch:
    """Wraps the game's app: every reply that made a game or issued a cookie is counted."""

    app: ASGIApp
    harmful: list[str] = field(default_factory=list)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                if message["status"] == 201 or b"set-cookie" in names:
                    self.harmful.append(f"{scope['method']} {scope['path']} {message['status']}")
            await send(message)

        await self.app(scope, receive, watched)


@dataclass
class Servers:
    app: str
    app_port: int
    hostile_port: int
    watch: Watch


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """The game on a fresh database, watched, and the attacker's server on another port."""
    watch = Watch(create_app(tmp_path_factory.mktemp("cross") / "tripeaks.db"))
    with served(watch) as port:
        hostile = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
        hostile_thread = threading.Thread(target=hostile.serve_forever, daemon=True)
        hostile_thread.start()
        yield Servers(f"http://127.0.0.1:{port}", port, hostile.server_address[1], watch)
        hostile.shutdown()
        hostile.server_close()


@pytest.fixture(scope="module")
def mapped_browser(browser: Browser) -> Iterator[Browser]:
    """Chromium as in conftest, but resolving evil.example to 127.0.0.1."""
    assert browser.browser_type.name == "chromium"
    rules = f"--host-resolver-rules=MAP {EVIL} 127.0.0.1"
    chromium = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, rules])
    yield chromium
    chromium.close()


@dataclass
class Player:
    context: BrowserContext
    game_id: str
    """Their current game."""


@pytest.fixture
def player(mapped_browser: Browser, servers: Servers) -> Iterator[Player]:
    """A player's browser with a won game in the statistics and a current game one draw in."""
    context = mapped_browser.new_context(base_url=servers.app)
    context.set_default_timeout(10_000)
    api = context.request
    state = created(api, {"code": WIN_CODE})
    for action in winning_line():
        body: dict[str, Any] = {"version": state["version"]}
        if action.pos is not None:
            body["pos"] = action.pos
        state = ok(api.post(f"/api/games/{state['id']}/{action.kind.value}", data=body))
    state = created(api, {"code": WIN_CODE})
    ok(api.post(f"/api/games/{state['id']}/draw", data={"version": 0}))
    yield Player(context, state["id"])
    context.close()


def ok(reply: Any) -> dict[str, Any]:
    assert reply.status == 200, reply.text()
    body: dict[str, Any] = reply.json()
    return body


def created(api: APIRequestContext, body: dict[str, Any]) -> dict[str, Any]:
    reply = api.post("/api/games", data=body)  # a dict goes as JSON, like the page's own requests
    assert reply.status == 201, reply.text()
    state: dict[str, Any] = reply.json()
    return state


def what_the_player_has(player: Player) -> dict[str, Any]:
    """Their cookie, current game and statistics, as their own browser sees them."""
    (cookie,) = [c["value"] for c in player.context.cookies() if c["name"] == COOKIE]
    api = player.context.request
    return {
        "cookie": cookie,
        "game": ok(api.get(f"/api/games/{player.game_id}")),
        "stats": ok(api.get("/api/stats")),
    }


def attack(page: Page, servers: Servers, site: str, game: dict[str, Any]) -> list[str]:
    """Every form and blind fetch of the hostile page at ``site``; what each form's tab showed."""
    hostile = f"http://{site}:{servers.hostile_port}/free-cards"
    app, game_id, version = servers.app, game["id"], game["version"]
    draw = f"{app}/api/games/{game_id}/draw"
    forms: list[tuple[str, str, list[tuple[str, str]]]] = [
        (f"{app}/api/games", "application/x-www-form-urlencoded", []),
        (f"{app}/api/games", "text/plain", []),
        (f"{app}/api/games", "application/x-www-form-urlencoded", [("code", WIN_CODE)]),
        (draw, "application/x-www-form-urlencoded", [("version", str(version))]),
        # text/plain sends name=value as is: this one arrives as {"version": N, "pad": "="}
        (draw, "text/plain", [(f'{{"version": {version}, "pad": "', '"}')]),
    ]
    statuses = []
    for action, enctype, fields in forms:
        page.goto(hostile)
        with page.expect_navigation(url=lambda url: url.startswith(app)) as navigation:
            page.evaluate(
                "([a, e, f]) => submitForm(a, e, f)", [action, enctype, [list(f) for f in fields]]
            )
        response = navigation.value
        assert response is not None
        shown = json.loads(page.locator("body").inner_text())
        statuses.append(f"{response.status} {shown['error']['reason'] if 'error' in shown else ''}")
    page.goto(hostile)
    sent = page.evaluate("([a, g, v]) => blindFetches(a, g, v)", [app, game_id, version])
    assert len(sent) == 14 and not any(s.startswith("failed") for s in sent), sent
    return statuses


@pytest.mark.parametrize("site", ["127.0.0.1", EVIL], ids=["another-port", "another-site"])
def test_a_hostile_page_changes_nothing(player: Player, servers: Servers, site: str) -> None:
    before = what_the_player_has(player)
    assert before["game"]["version"] == 1 and before["game"]["status"] == "playing"
    assert (before["stats"]["easy"]["played"], before["stats"]["easy"]["won"]) == (1, 1)
    servers.watch.harmful.clear()

    page = player.context.new_page()
    statuses = attack(page, servers, site, before["game"])

    after = what_the_player_has(player)
    assert after["cookie"] == before["cookie"]
    assert after["game"] == before["game"]
    assert after["stats"] == before["stats"]
    assert servers.watch.harmful == [], "a game was made or a cookie issued"
    assert statuses == ["403 cross_site"] * 5


def test_a_rebound_host_name_is_refused(mapped_browser: Browser, servers: Servers) -> None:
    """evil.example pointed at the game's own port: same origin to the attacker, refused by us."""
    context = mapped_browser.new_context()
    page = context.new_page()
    for path in ("/api/layout", "/api/stats", "/static"):
        response = page.goto(f"http://{EVIL}:{servers.app_port}{path}")
        assert response is not None and response.status == 400, path
        assert page.url == f"http://{EVIL}:{servers.app_port}{path}"  # no redirect anywhere
        assert json.loads(page.locator("body").inner_text())["error"]["reason"] == "bad_host"
    reply = page.evaluate(
        """async () => {
            const r = await fetch("/api/games", {method: "POST", body: "{}",
                                  headers: {"Content-Type": "application/json"}});
            return [r.status, await r.json()];
        }"""
    )
    assert reply[0] == 400 and reply[1]["error"]["reason"] == "bad_host"
    assert not [c for c in context.cookies() if c["name"] == COOKIE]
    context.close()
