"""Rate limits (tripeaks/web/http/ratelimit.py): 429 with Retry-After and the Error shape, nothing changed.

The tests make the app with tiny limits; docs/deploy.md has the real numbers. TestClient's client
address is ``testclient``, which counts as one address.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import BASE_URL, WIN_CODE, new_game, play_line, send, winning_line

from tripeaks.i18n import translator
from tripeaks.web.app import create_app
from tripeaks.web.hosting import Hosting
from tripeaks.web.http.ratelimit import DEFAULT_RATES, Limiter, network, rates

COOKIE = "tripeaks_player"


@contextmanager
def limited(db: Path, *overrides: str) -> Iterator[TestClient]:
    """The app with the default limits changed by ``overrides``, and one player on it."""
    app = create_app(db, hosting=Hosting(rates=rates(overrides)))
    with TestClient(app, base_url=BASE_URL) as client:
        yield client


def assert_limited(reply: Any, lang: str = "en") -> int:
    """A 429 in the Error shape with a whole number of seconds to wait; returns them."""
    assert reply.status_code == 429, reply.text
    wait = int(reply.headers["retry-after"])
    assert 1 <= wait <= 60
    body = reply.json()
    assert body["error"]["reason"] == "rate_limited"
    assert body["error"]["message"] == translator(lang)("error.rate_limited", seconds=wait)
    assert body["state"] is None
    return wait


def test_new_games_over_the_player_limit_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with limited(tmp_path / "games.db", "games_per_player=3/minute") as client:
        new_game(client)
        new_game(client)
        current = send(client, new_game(client), "draw").json()  # leaving it would count lost
        cookie = client.cookies[COOKIE]
        assert_limited(client.post("/api/games?lang=fi", json={}), "fi")
        assert_limited(client.post("/api/games", json={"code": WIN_CODE}))
        again = client.get(f"/api/games/{current['id']}").json()
        assert (again["version"], again["status"]) == (current["version"], "playing")
        assert client.get("/api/stats").json()["easy"]["played"] == 0
        assert client.cookies[COOKIE] == cookie
        # the player's own game goes on: actions are not limited
        assert send(client, again, "draw").status_code == 200


def test_the_address_limit_counts_every_player_there(tmp_path: Path) -> None:
    app = create_app(
        tmp_path / "games.db", hosting=Hosting(rates=rates(["games_per_address=2/minute"]))
    )
    with TestClient(app, base_url=BASE_URL) as first:  # only one runs the app's lifespan
        second, third = TestClient(app, base_url=BASE_URL), TestClient(app, base_url=BASE_URL)
        new_game(first)
        new_game(second)
        refused = third.post("/api/games", json={})
        assert_limited(refused)
        assert "set-cookie" not in refused.headers  # no player was made
        # another address is not held back by this one
        new_game(TestClient(app, base_url=BASE_URL, client=("203.0.113.9", 4000)))


def test_winnable_deals_have_their_own_stricter_limit(tmp_path: Path) -> None:
    with limited(tmp_path / "games.db", "winnable_per_player=1/minute") as client:
        first = client.post("/api/games", json={"winnable_only": True})
        assert first.status_code == 201, first.text
        refused = client.post("/api/games", json={"winnable_only": True})
        assert_limited(refused)
        assert client.get(f"/api/games/{first.json()['id']}").json()["status"] == "playing"
        # a plain new game is still allowed, and a typed code never asks the solver
        new_game(client)
        assert (
            client.post("/api/games", json={"code": WIN_CODE, "winnable_only": True}).status_code
            == 201
        )


def test_a_refused_request_does_not_use_up_the_other_limit(tmp_path: Path) -> None:
    """A winnable game refused for its own limit is not counted as a new game either."""
    with limited(
        tmp_path / "games.db", "winnable_per_player=1/minute", "games_per_player=3/minute"
    ) as client:
        assert client.post("/api/games", json={"winnable_only": True}).status_code == 201
        for _ in range(3):
            assert_limited(client.post("/api/games", json={"winnable_only": True}))
        new_game(client)
        new_game(client)  # three games in all: the refused ones did not count
        assert_limited(client.post("/api/games", json={}))


def test_hints_over_the_limit_are_refused(tmp_path: Path) -> None:
    with limited(tmp_path / "games.db", "hints_per_player=2/minute") as client:
        won = play_line(client, new_game(client, WIN_CODE), winning_line())[-1]
        assert won["status"] == "won"
        hint = f"/api/games/{won['id']}/hint"
        for _ in range(2):
            assert client.get(hint).json()["message"] == translator("en")("hint.won")
        assert_limited(client.get(hint + "?lang=ca"), "ca")
        assert client.get(f"/api/games/{won['id']}").json()["version"] == won["version"]


def test_none_lifts_a_limit(tmp_path: Path) -> None:
    with limited(tmp_path / "games.db", "games_per_player=none", "games_per_address=off") as client:
        for _ in range(40):  # over the default 30 a minute
            new_game(client)


def test_the_local_app_has_no_limits(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.db"), base_url=BASE_URL) as client:
        for _ in range(35):
            new_game(client)


def test_rates_are_checked_when_given() -> None:
    assert rates([]) == dict(DEFAULT_RATES)
    assert rates(["hints_per_player=5/second"])["hints_per_player"] == "5/second"
    for bad in ("hints=5/minute", "hints_per_player"):
        with pytest.raises(ValueError, match="NAME=RATE"):
            rates([bad])
    with pytest.raises(ValueError, match="often"):
        rates(["hints_per_player=often"])


def test_a_client_is_its_ipv4_address_or_its_ipv6_64() -> None:
    assert network("203.0.113.7") == "203.0.113.7"
    assert network("2001:db8:1:2:aaaa::1") == network("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert network("::ffff:203.0.113.7") == "203.0.113.7"
    # loopback is the machine's own player, or an undeclared proxy: never limited by address
    assert network("127.0.0.1") is network("::1") is network("::ffff:127.0.0.1") is None
    limiter = Limiter(rates(["hints_per_address=1/minute", "hints_per_player=none"]))
    assert limiter.refusal(["hints"], None, "127.0.0.1") is None
    assert limiter.refusal(["hints"], None, "127.0.0.1") is None
    assert limiter.refusal(["hints"], None, "2001:db8::1") is None
    wait = limiter.refusal(["hints"], None, "2001:db8::2")  # the same /64
    assert wait is not None and 1 <= wait <= 60


def test_a_bad_code_is_refused_before_it_counts(tmp_path: Path) -> None:
    with limited(tmp_path / "games.db", "games_per_player=2/minute") as client:
        new_game(client)
        for _ in range(3):
            reply = client.post("/api/games", json={"code": "TP1-E-NOPE"})
            assert reply.status_code == 422 and reply.json()["error"]["reason"] == "invalid_code"
        new_game(client)
        assert_limited(client.post("/api/games", json={"code": WIN_CODE}))
