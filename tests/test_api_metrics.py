"""``/metrics`` (tripeaks/web/http/metrics.py): what Prometheus reads counts what really happened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from test_api_support import BASE_URL, WIN_CODE, new_game, play_line, send, winning_line

from tripeaks.i18n import translator
from tripeaks.web.app import create_app
from tripeaks.web.hosting import Hosting
from tripeaks.web.http.ratelimit import rates

OPERATOR = ("10.0.0.7", 9090)
"""Prometheus on the private network."""
TOKEN = "scrape-me-0123456789"
SCRAPE = {"Authorization": f"Bearer {TOKEN}"}
"""Prometheus's header: the operator's token."""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[object]:
    yield create_app(
        tmp_path / "games.db",
        hosting=Hosting(
            metrics=True, metrics_token=TOKEN, rates=rates(["hints_per_player=1/minute"])
        ),
    )


def scrape(app: object) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics by name and labels."""
    prometheus = TestClient(app, base_url=BASE_URL, client=OPERATOR)  # type: ignore[arg-type]
    reply = prometheus.get("/metrics", headers=SCRAPE)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(reply.text)
        for sample in family.samples
    }


def test_actions_games_and_requests_are_counted(app: object) -> None:
    with TestClient(app, base_url=BASE_URL) as client:  # type: ignore[arg-type]
        touched = send(client, new_game(client), "draw").json()
        undone = send(client, touched, "undo")
        assert undone.status_code == 200
        assert send(client, undone.json(), "redo").status_code == 200
        assert send(client, touched, "draw").status_code == 409  # stale: not acknowledged
        line = winning_line()
        won = play_line(client, new_game(client, WIN_CODE), line)[-1]  # the touched one is lost
        assert won["status"] == "won"
        assert client.post("/api/games", json={"rules": "classic"}).status_code == 201
        hint = f"/api/games/{won['id']}/hint"
        assert client.get(hint).status_code == 200
        assert client.get(hint).status_code == 429
    samples = scrape(app)
    plays = sum(1 for action in line if action.pos is not None)
    assert samples[("tripeaks_actions_total", (("kind", "play"),))] == plays
    assert samples[("tripeaks_actions_total", (("kind", "draw"),))] == 1 + len(line) - plays
    assert samples[("tripeaks_actions_total", (("kind", "undo"),))] == 1
    assert samples[("tripeaks_actions_total", (("kind", "redo"),))] == 1
    assert samples[("tripeaks_games_started_total", (("rules", "easy"),))] == 2
    assert samples[("tripeaks_games_started_total", (("rules", "classic"),))] == 1
    assert samples[("tripeaks_games_counted_total", (("outcome", "won"),))] == 1
    assert samples[("tripeaks_games_counted_total", (("outcome", "lost"),))] == 1
    assert samples[("tripeaks_rate_limited_total", (("kind", "hints"),))] == 1
    assert samples[("tripeaks_hints_waiting", ())] == 0
    assert ("tripeaks_verdicts_pending", ()) in samples
    assert samples[("tripeaks_solver_queued", ())] >= 0
    play = (("handler", "/api/games/{game_id}/play"), ("method", "POST"), ("status", "200"))
    assert samples[("http_requests_total", play)] == plays
    stale = (("handler", "/api/games/{game_id}/draw"), ("method", "POST"), ("status", "409"))
    assert samples[("http_requests_total", stale)] == 1
    assert samples[("http_request_duration_seconds_count", play)] == plays
    assert (
        samples[("http_request_duration_seconds_bucket", tuple(sorted((*play, ("le", "+Inf")))))]
        == plays
    )


def test_a_retried_action_is_counted_once(app: object) -> None:
    """A retry after a lost reply (the same request id) is answered again, not taken again: the
    counters count the action and the win it made once."""
    with TestClient(app, base_url=BASE_URL) as client:  # type: ignore[arg-type]
        line = winning_line()
        before_last = play_line(client, new_game(client, WIN_CODE), line[:-1])[-1]
        for _ in range(2):
            won = send(client, before_last, line[-1], request_id="last-card")
            assert won.status_code == 200 and won.json()["status"] == "won"
    samples = scrape(app)
    plays = sum(1 for action in line if action.pos is not None)
    assert samples[("tripeaks_actions_total", (("kind", "play"),))] == plays
    assert samples[("tripeaks_games_counted_total", (("outcome", "won"),))] == 1


def test_metrics_are_for_the_operators_network_only(app: object) -> None:
    with TestClient(app, base_url=BASE_URL, client=("203.0.113.5", 5000)) as stranger:  # type: ignore[arg-type]
        reply = stranger.get("/metrics?lang=fi", headers=SCRAPE)
    assert reply.status_code == 403
    assert reply.json()["error"] == {
        "reason": "metrics_forbidden",
        "message": translator("fi")("error.metrics_forbidden"),
    }
    scrape(app)  # from the private network it answers


def test_two_apps_count_apart(tmp_path: Path) -> None:
    """Each app has its own registry: the tests (and nothing else) make several in one process."""
    first = create_app(tmp_path / "a.db", hosting=Hosting(metrics=True, metrics_token=TOKEN))
    second = create_app(tmp_path / "b.db", hosting=Hosting(metrics=True, metrics_token=TOKEN))
    with TestClient(first, base_url=BASE_URL) as client:
        new_game(client)
    assert scrape(first)[("tripeaks_games_started_total", (("rules", "easy"),))] == 1
    assert scrape(second)[("tripeaks_games_started_total", (("rules", "easy"),))] == 0
