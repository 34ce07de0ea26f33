"""``tripeaks serve`` for many players: settings from the environment, behind a TLS proxy, its log."""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import httpx
import pytest
from served import BOUND, serving

from tripeaks.cli import main as cli
from tripeaks.cli import serve
from tripeaks.web.hosting import PRIVATE_NETWORKS, Hosting
from tripeaks.web.http.ratelimit import DEFAULT_RATES

COOKIE = "tripeaks_player"
TOKEN = "scrape-me-0123456789"
"""The operator's metrics token in these tests."""


def parsed(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> argparse.Namespace:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(serve, "run", lambda args: seen.append(args) or 0)
    assert cli.main(argv) == 0
    return seen[0]


def test_every_option_can_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    environment = {
        "TRIPEAKS_HOST": "0.0.0.0",
        "TRIPEAKS_PORT": "8123",
        "TRIPEAKS_DB": str(tmp_path / "games.db"),
        "TRIPEAKS_WORKERS": "3",
        "TRIPEAKS_ALLOWED_HOSTS": "games.example.org, *.example.net",
        "TRIPEAKS_NO_BROWSER": "1",
        "TRIPEAKS_BEHIND_PROXY": "yes",
        "TRIPEAKS_FORWARDED_ALLOW_IPS": "10.0.0.2",
        "TRIPEAKS_MAX_CONNECTIONS": "50",
        "TRIPEAKS_READ_TIMEOUT": "3.5",
        "TRIPEAKS_LIMITS": "hints_per_player=5/minute games_per_address=none",
        "TRIPEAKS_ACCESS_LOG": "off",
        "TRIPEAKS_METRICS": "on",
        "TRIPEAKS_METRICS_ALLOW": "10.9.0.0/16",
        "TRIPEAKS_RANKED_PER_ADDRESS": "12",
        "TRIPEAKS_METRICS_TOKEN": "scrape-me-0123456789",
    }
    assert set(environment) == set(serve.ENVIRONMENT.values())  # every variable is tested
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    args = parsed(monkeypatch, ["serve"])
    assert (args.host, args.port, args.db) == ("0.0.0.0", 8123, tmp_path / "games.db")
    assert args.workers == 3
    assert args.allowed_host == ["games.example.org", "*.example.net"]
    assert args.no_browser and args.behind_proxy
    assert (args.forwarded_allow_ips, args.max_connections, args.read_timeout) == (
        "10.0.0.2",
        50,
        3.5,
    )
    settings = serve.hosting(args)
    assert settings.metrics and not settings.access_log
    assert settings.metrics_allow == ("10.9.0.0/16",)
    assert settings.metrics_token == "scrape-me-0123456789"
    assert settings.rates["hints_per_player"] == "5/minute"
    assert settings.rates["games_per_address"] == "none"
    assert settings.ranked_per_address == 12
    assert Hosting.from_json(settings.to_json()) == settings  # what each worker is handed
    # an option on the command line wins over its variable
    args = parsed(monkeypatch, ["serve", "--port", "9000", "--host", "127.0.0.1"])
    assert (args.port, args.host) == (9000, "127.0.0.1")


@pytest.mark.parametrize(
    ("argv", "hosted"),
    [
        ([], False),
        (["--host", "::1"], False),
        (["--host", "localhost"], False),
        (["--host", "0.0.0.0"], True),
        (["--host", "192.168.1.20"], True),
        (["--behind-proxy"], True),
    ],
)
def test_hosted_servers_get_metrics_logs_and_limits(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], hosted: bool
) -> None:
    for name in serve.ENVIRONMENT.values():
        monkeypatch.delenv(name, raising=False)
    settings = serve.hosting(parsed(monkeypatch, ["serve", *argv]))
    assert (settings.metrics, settings.access_log, settings.hosted) == (hosted, hosted, hosted)
    assert settings.metrics_token is None  # /metrics closed until the operator gives one
    assert settings.rates == (dict(DEFAULT_RATES) if hosted else {})
    assert settings.metrics_allow == PRIVATE_NETWORKS
    # each can be set either way
    settings = serve.hosting(
        parsed(monkeypatch, ["serve", *argv, "--metrics", "off", "--access-log", "json"])
    )
    assert (settings.metrics, settings.access_log) == (False, True)
    local = serve.hosting(parsed(monkeypatch, ["serve", "--limit", "hints_per_player=9/minute"]))
    assert local.rates["hints_per_player"] == "9/minute"  # asked for: limits even locally


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--limit", "hints=3/minute"], "not NAME=RATE"),
        (["--limit", "hints_per_player=lots"], "not a rate such as 30/minute: 'lots'"),
        (["--metrics-allow", "10.0.0.0/33"], "10.0.0.0/33"),
        (["--metrics-token", "short"], "a metrics token is 16 or more ASCII characters"),
        (["--metrics-token", "sixteen chars with spaces"], "no spaces"),
    ],
)
def test_a_bad_setting_stops_the_server_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    argv: list[str],
    problem: str,
) -> None:
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    db = tmp_path / "games.db"
    assert cli.main(["serve", "--no-browser", "--db", str(db), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tripeaks: ") and problem in err and err.count("\n") == 1
    assert not db.exists()  # stopped before anything was made


def test_behind_a_proxy_its_forwarded_address_and_https_count(tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    with (
        log.open("w") as stderr,
        serving(
            tmp_path / "games.db",
            "--behind-proxy",
            "--limit",
            "games_per_address=2/minute",
            "--metrics-token",
            TOKEN,
            stderr=stderr,
        ) as served,
        httpx.Client(base_url=served.url, timeout=BOUND) as proxy,
    ):
        via = {"x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https"}
        first = proxy.post("/api/games", json={}, headers=via)
        assert first.status_code == 201
        cookie = first.headers["set-cookie"]
        assert "; secure" in cookie.lower()  # the player came over HTTPS
        player = cookie.split(";")[0].split("=", 1)[1]
        proxy.cookies.clear()
        assert proxy.post("/api/games", json={}, headers=via).status_code == 201
        refused = proxy.post("/api/games", json={}, headers=via)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        # another player behind the same proxy is another address
        other = {"x-forwarded-for": "203.0.113.8", "x-forwarded-proto": "http"}
        plain = proxy.post("/api/games", json={}, headers=other)
        assert plain.status_code == 201 and "secure" not in plain.headers["set-cookie"].lower()
        # the player with a cookie is followed in the log by a hash, never by the cookie
        proxy.cookies.clear()
        game = first.json()["id"]
        assert proxy.get(f"/api/games/{game}", cookies={COOKIE: player}).status_code == 200
        # /metrics: Prometheus on the proxy's machine, yes; a player through the proxy, no
        scrape = {"authorization": f"Bearer {TOKEN}"}
        assert proxy.get("/metrics", headers=scrape).status_code == 200
        assert proxy.get("/metrics", headers={**via, **scrape}).status_code == 403
        assert proxy.get("/metrics").status_code == 401  # the network alone opens nothing
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert {tuple(line) for line in lines} == {
        ("time", "method", "path", "status", "duration_ms", "player")
    }
    seen = [(line["method"], line["path"], line["status"]) for line in lines]
    assert seen[0] == ("GET", "/healthz", 200)  # the test's own wait for the server
    assert seen[1:5] == [
        ("POST", "/api/games", 201),
        ("POST", "/api/games", 201),
        ("POST", "/api/games", 429),
        ("POST", "/api/games", 201),
    ]
    assert ("GET", "/api/games/{game_id}", 200) in seen
    hashed = hashlib.sha256(player.encode()).hexdigest()[:16]
    assert [line["player"] for line in lines if line["path"] == "/api/games/{game_id}"] == [hashed]
    assert player not in log.read_text() and game not in log.read_text()


def test_without_behind_proxy_forwarded_headers_are_not_believed(tmp_path: Path) -> None:
    log = tmp_path / "stderr.log"
    with (
        log.open("w") as stderr,
        serving(
            tmp_path / "games.db", "--limit", "games_per_address=1/minute", stderr=stderr
        ) as served,
        httpx.Client(base_url=served.url, timeout=BOUND) as client,
    ):
        spoofed = {"x-forwarded-for": "203.0.113.7", "x-forwarded-proto": "https"}
        for _ in range(3):  # the real address is loopback: never limited by address
            made = client.post("/api/games", json={}, headers=spoofed)
            assert made.status_code == 201
            assert "secure" not in made.headers["set-cookie"].lower()
            client.cookies.clear()
    assert not [line for line in log.read_text().splitlines() if line.startswith("{")]  # local


def test_the_access_log_line_for_any_request(tmp_path: Path) -> None:
    """Whatever comes in, the line is JSON with the route's template or null, never the path."""
    from fastapi.testclient import TestClient

    from tripeaks.web.app import create_app
    from tripeaks.web.http.accesslog import AccessLog

    lines: list[str] = []
    app = create_app(tmp_path / "games.db")
    app.add_middleware(AccessLog, write=lines.append)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.get("/no/such/secret-path?token=abc")
        client.request("BREW", "/api/layout")
        made = client.post("/api/games", json={})
        client.get(f"/api/games/{made.json()['id']}")
    records = [json.loads(line) for line in lines]
    assert all(line.endswith("\n") and line.count("\n") == 1 for line in lines)
    assert [(r["method"], r["path"], r["status"]) for r in records] == [
        ("GET", None, 404),
        ("BREW", "/api/layout", 405),
        ("POST", "/api/games", 201),
        ("GET", "/api/games/{game_id}", 200),
    ]
    player = made.cookies[COOKIE]
    assert [r["player"] for r in records] == [None, None, None, serve_hash(player)]
    assert all(r["time"].endswith("Z") and r["duration_ms"] >= 0 for r in records)
    assert "secret" not in "".join(lines) and made.json()["id"] not in "".join(lines)


def serve_hash(player: str) -> str:
    return hashlib.sha256(player.encode()).hexdigest()[:16]


def test_hosted_settings_go_to_worker_processes_unchanged() -> None:
    from tripeaks.web.hosting import Hosting
    from tripeaks.web.http.ratelimit import rates

    settings = Hosting(
        hosted=True,
        metrics=True,
        metrics_token="scrape-me-0123456789",
        metrics_allow=("10.0.0.0/8",),
        access_log=True,
        rates=rates(["hints_per_player=5/minute"]),
    )
    assert Hosting.from_json(settings.to_json()) == settings
    assert Hosting.from_json(Hosting().to_json()) == Hosting()
