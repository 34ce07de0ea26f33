"""Carrying a player to another browser with a one-time code (issue 39; docs/api.md "The
journey"), on both databases: it works once, it expires, a wrong, malformed, spent or expired code
and an attempt over the rate limit change nothing (the same cookie, no row spent or made).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import BASE_URL, play_line, player_of, store_of

from tripeaks.journey import transfer
from tripeaks.journey.levels import levels
from tripeaks.web.app import create_app
from tripeaks.web.hosting import Hosting
from tripeaks.web.http.ratelimit import rates

COOKIE = "tripeaks_player"
SHAPE = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}")


class Clock:
    """The store's clock: seconds that move only when told to."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def player_with_a_level(client: TestClient) -> str:
    """A player who won level 1; their id."""
    state = client.post("/api/journey/levels/1", json={}).json()
    play_line(client, state, levels()[0].best_line)
    return player_of(client)


def make_code(client: TestClient) -> str:
    reply = client.post("/api/player/transfer", json={})
    assert reply.status_code == 201, reply.text
    code: str = reply.json()["code"]
    return code


def redeem(client: TestClient, code: str) -> Any:
    return client.post("/api/player/transfer/redeem", json={"code": code})


def standing(client: TestClient, code: str) -> str:
    """What the store holds of a code, read by its hash: "redeemed" while it may still be."""
    backend = client.app.state.backend  # type: ignore[attr-defined]
    read = transfer.read(code)
    assert read is not None
    found, _ = store_of(client).transfer_found(
        transfer.digest(backend.transfer_key, read), backend.store.clock()
    )
    return found


@contextmanager
def other_browser(client: TestClient) -> Iterator[TestClient]:
    """Another browser on the same server: its own cookies (not entered: the app's lifespan,
    which closes the store at its end, is the first client's)."""
    other = TestClient(client.app, base_url=BASE_URL)
    try:
        yield other
    finally:
        other.close()


def test_a_code_carries_the_player_to_another_browser_once(client: TestClient) -> None:
    clock = Clock()
    store_of(client).clock = clock
    player = player_with_a_level(client)
    reply = client.post("/api/player/transfer", json={})
    assert reply.status_code == 201
    made = reply.json()
    assert SHAPE.fullmatch(made["code"]) and made["seconds"] == 600
    assert made["expires_at"] == "2027-01-15T08:10:00+00:00"  # the store's clock, 600 s on
    with other_browser(client) as other:
        new_game = other.post("/api/games", json={}).json()  # this browser's own player
        own = player_of(other)
        typed = made["code"].lower().replace("-", " ").replace("1", "l").replace("0", "o")
        carried = redeem(other, f"  {typed} ")
        assert carried.status_code == 200, carried.text
        assert carried.json() == {"name": carried.json()["name"], "chosen": False}
        assert player_of(other) == player != own
        journey = other.get("/api/journey").json()
        assert journey["levels"][0]["state"] == "done" and journey["stars"] == 3
        again = redeem(other, made["code"])
        assert again.status_code == 410 and again.json()["error"]["reason"] == "transfer_spent"
        assert player_of(other) == player  # the refusal left the cookie as it was
    with other_browser(client) as third:
        spent = redeem(third, made["code"])
        assert spent.status_code == 410 and COOKIE not in third.cookies
    assert store_of(client).game(new_game["id"], own).status.value == "playing"  # still theirs


def test_a_code_expires_after_its_ten_minutes(client: TestClient) -> None:
    clock = Clock()
    store_of(client).clock = clock
    player_with_a_level(client)
    first = make_code(client)
    clock.now += transfer.SECONDS - 1
    with other_browser(client) as other:
        assert redeem(other, first).status_code == 200  # with a second to spare
    second = make_code(client)
    clock.now += transfer.SECONDS
    with other_browser(client) as other:
        late = redeem(other, second)
        assert late.status_code == 410 and late.json()["error"]["reason"] == "transfer_expired"
        assert COOKIE not in other.cookies
        assert "10" in late.json()["error"]["message"]


def test_a_new_code_spends_the_players_earlier_ones(client: TestClient) -> None:
    player_with_a_level(client)
    first, second = make_code(client), make_code(client)
    assert first != second
    assert standing(client, first) == "spent" and standing(client, second) == "redeemed"
    with other_browser(client) as other:
        assert redeem(other, first).json()["error"]["reason"] == "transfer_spent"
        assert redeem(other, second).status_code == 200


@pytest.mark.parametrize(
    ("code", "status", "reason"),
    [
        ("0000-0000-0000", 404, "transfer_unknown"),
        ("ZZZZ ZZZZ ZZZZ", 404, "transfer_unknown"),
        ("hello", 422, "transfer_malformed"),
        ("", 422, "transfer_malformed"),
        ("0000-0000-000", 422, "transfer_malformed"),
        ("0000-0000-0000-0", 422, "transfer_malformed"),
        ("UUUU-UUUU-UUUU", 422, "transfer_malformed"),
        ("0000-0000-00é0", 422, "transfer_malformed"),
    ],
)
def test_a_wrong_or_malformed_code_is_refused_and_changes_nothing(
    client: TestClient, code: str, status: int, reason: str
) -> None:
    player_with_a_level(client)
    real = make_code(client)
    with other_browser(client) as other:
        other.post("/api/games", json={})
        before = other.cookies[COOKIE]
        reply = redeem(other, code)
        assert reply.status_code == status and reply.json()["error"]["reason"] == reason
        assert reply.json()["error"]["message"] and "set-cookie" not in reply.headers
        assert other.cookies[COOKIE] == before
    assert standing(client, real) == "redeemed"  # the real code is untouched


def test_no_player_no_code(client: TestClient) -> None:
    reply = client.post("/api/player/transfer", json={})
    assert reply.status_code == 403 and reply.json()["error"]["reason"] == "transfer_no_player"
    assert COOKIE not in client.cookies


@contextmanager
def limited(db: Path, *overrides: str) -> Iterator[TestClient]:
    app = create_app(db, hosting=Hosting(rates=rates(overrides)))
    with TestClient(app, base_url=BASE_URL) as client:
        yield client


def test_redeeming_is_rate_limited_and_a_refused_attempt_changes_nothing(tmp_path: Path) -> None:
    with limited(tmp_path / "games.db", "redeems_per_address=3/minute") as client:
        player_with_a_level(client)
        code = make_code(client)
        with other_browser(client) as other:
            for _ in range(3):  # wrong guesses count too
                assert redeem(other, "0000-0000-0000").status_code == 404
            over = redeem(other, code)
            assert over.status_code == 429 and over.json()["error"]["reason"] == "rate_limited"
            assert int(over.headers["retry-after"]) >= 1
            assert COOKIE not in other.cookies
        assert standing(client, code) == "redeemed"  # still unspent


def test_making_codes_is_rate_limited(tmp_path: Path) -> None:
    with limited(tmp_path / "games.db", "transfers_per_player=1/minute") as client:
        player_with_a_level(client)
        first = make_code(client)
        over = client.post("/api/player/transfer", json={})
        assert over.status_code == 429 and over.json()["error"]["reason"] == "rate_limited"
        assert standing(client, first) == "redeemed"  # the refused one spent nothing


def test_the_store_keeps_only_a_hash_of_a_code(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "games.db"
    with limited(db) as client:
        player_with_a_level(client)
        code = make_code(client)
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT * FROM transfers").fetchall()
    bare = code.replace("-", "")
    assert len(rows) == 1 and not any(bare in str(value) for value in rows[0])


def test_two_redeems_of_one_code_at_once_spend_it_once(client: TestClient) -> None:
    """Both pass the first read; the commit decides, and only one has the code."""
    player = player_with_a_level(client)
    code = transfer.read(make_code(client))
    assert code is not None
    store = store_of(client)
    digest = transfer.digest(client.app.state.backend.transfer_key, code)  # type: ignore[attr-defined]
    first, second = store.stage_redeem(digest), store.stage_redeem(digest)
    store.flush()  # one batch, one transaction: the second write sees the first's
    assert sorted([first.result(), second.result()]) == [("redeemed", player), ("spent", player)]
