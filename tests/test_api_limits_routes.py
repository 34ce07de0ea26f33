"""Limits that see everything (issue 35, finding 8): every route that costs work is rate-limited, a
hosted server limits loopback clients like any other, and /metrics opens only to a token."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from served import BOUND, serving
from test_api_limits import assert_limited
from test_api_support import BASE_URL, WIN_CODE

from tripeaks.i18n import translator
from tripeaks.web.app import create_app
from tripeaks.web.hosting import Hosting
from tripeaks.web.http.ratelimit import DEFAULT_RATES, rates

LOOPBACK = ("127.0.0.1", 50000)
TOKEN = "scrape-me-0123456789"


@contextmanager
def app_on(
    db: Path, *overrides: str, client: tuple[str, int] | None = None, **hosting: Any
) -> Iterator[TestClient]:
    app = create_app(db, hosting=Hosting(rates=rates(overrides), **hosting))
    with TestClient(app, base_url=BASE_URL, **({"client": client} if client else {})) as c:
        yield c


ROUTES = [
    ("names_per_address", "PUT", "/api/player/name", {"name": "Otter"}),
    ("boards_per_address", "GET", "/api/daily/board", None),
    ("previews_per_address", "GET", f"/api/preview?code={WIN_CODE}&actions=draw", None),
    ("ready_per_address", "GET", "/readyz", None),
]


@pytest.mark.parametrize(("limit", "method", "path", "body"), ROUTES, ids=[r[0] for r in ROUTES])
def test_every_route_that_costs_work_is_limited_per_address(
    tmp_path: Path, limit: str, method: str, path: str, body: dict[str, str] | None
) -> None:
    """Regression: a nickname, a daily board, a preview and a readiness check were unlimited."""
    with app_on(tmp_path / "games.db", f"{limit}=2/minute") as client:
        for k in range(3):
            client.cookies.clear()  # a new player each time: the address is what counts
            sent = body
            if path == "/api/player/name":  # a player who has played, and a name of their own
                assert client.post("/api/games", json={}).status_code == 201
                sent = {"name": f"Otter{'ABC'[k]}"}
            reply = client.request(method, path, json=sent)
            if k < 2:
                assert reply.status_code == 200
        assert_limited(reply)


def test_a_refused_nickname_is_not_stored(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with app_on(db, "names_per_player=1/minute", "names_per_address=none") as client:
        assert client.post("/api/games", json={}).status_code == 201  # a player who has played
        assert client.put("/api/player/name", json={"name": "Badger"}).status_code == 200
        assert_limited(client.put("/api/player/name?lang=fi", json={"name": "Heron"}), "fi")
        assert client.get("/api/player/name").json()["name"] == "Badger"
    with sqlite3.connect(db) as stored:
        assert stored.execute("SELECT name FROM players").fetchall() == [("Badger",)]


def test_each_new_kind_has_a_default_rate() -> None:
    for kind in ("names", "boards", "previews", "ready"):
        assert f"{kind}_per_address" in DEFAULT_RATES
    assert "names_per_player" in DEFAULT_RATES  # a nickname is a player's own write


def test_a_hosted_server_limits_loopback_clients_like_any_other(tmp_path: Path) -> None:
    """Regression: a process on the server's machine, or a proxy not declared with
    --behind-proxy, passed every limit by address."""
    with app_on(
        tmp_path / "games.db", "games_per_address=2/minute", client=LOOPBACK, hosted=True
    ) as c:
        for _ in range(2):
            assert c.post("/api/games", json={}).status_code == 201
            c.cookies.clear()
        assert_limited(c.post("/api/games", json={}))


def test_the_local_app_never_limits_its_player_by_address(tmp_path: Path) -> None:
    with app_on(tmp_path / "games.db", "games_per_address=2/minute", client=LOOPBACK) as c:
        for _ in range(4):
            assert c.post("/api/games", json={}).status_code == 201
            c.cookies.clear()


def test_serve_behind_a_proxy_limits_a_local_client(tmp_path: Path) -> None:
    """The same through ``tripeaks serve``: a request from the machine itself that no proxy
    forwarded (no X-Forwarded-For) is limited by its loopback address."""
    with (
        serving(
            tmp_path / "games.db", "--behind-proxy", "--limit", "games_per_address=1/minute"
        ) as served,
        httpx.Client(base_url=served.url, timeout=BOUND) as client,
    ):
        json = {"Content-Type": "application/json"}
        assert client.post("/api/games", content="{}", headers=json).status_code == 201
        client.cookies.clear()
        assert_limited(client.post("/api/games", content="{}", headers=json))


def metrics_app(tmp_path: Path, client: tuple[str, int], token: str | None) -> TestClient:
    app = create_app(tmp_path / "games.db", hosting=Hosting(metrics=True, metrics_token=token))
    return TestClient(app, base_url=BASE_URL, client=client)


BRIDGE = ("172.17.0.1", 40000)
"""Every client of a container published through Docker's bridge seems to come from here."""


def test_metrics_need_the_operators_token_even_from_a_private_network(tmp_path: Path) -> None:
    """Regression: behind a Docker bridge every client's address is private, and /metrics
    answered them all."""
    with metrics_app(tmp_path, BRIDGE, TOKEN) as client:
        for headers in (
            {},
            {"Authorization": "Bearer not-the-token-at-all"},
            {"Authorization": TOKEN},
        ):
            refused = client.get("/metrics?lang=ca", headers=headers)
            assert refused.status_code == 401
            assert refused.headers["www-authenticate"].startswith("Bearer")
            assert refused.json()["error"] == {
                "reason": "metrics_token",
                "message": translator("ca")("error.metrics_token"),
            }
        scraped = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert scraped.status_code == 200
        assert "http_requests_total" in scraped.text


def test_without_a_token_metrics_are_closed_to_everyone(tmp_path: Path) -> None:
    with metrics_app(tmp_path, ("127.0.0.1", 9090), None) as client:
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 401


def test_the_token_does_not_open_metrics_outside_the_allowed_networks(tmp_path: Path) -> None:
    with metrics_app(tmp_path, ("203.0.113.5", 5000), TOKEN) as client:
        reply = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert reply.status_code == 403
        assert reply.json()["error"]["reason"] == "metrics_forbidden"
