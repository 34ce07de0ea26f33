"""Who a request is for (issue 34), on SQLite and PostgreSQL: player ids the server made and
signed (web/identity.py), old bare-id cookies signed once known, new players limited per address,
and a daily played faster than a person kept off the public board (daily.too_fast)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_api_daily import Clock, best_line, deal_of, greedy_line, new_player, play, start
from test_api_limits import assert_limited
from test_api_support import BASE_URL, WIN_CODE, api, new_game, player_of, send, store_of

from tripeaks import daily
from tripeaks.store.core import Storage, UnknownGame
from tripeaks.web.app import create_app
from tripeaks.web.hosting import Hosting
from tripeaks.web.http.ratelimit import rates

COOKIE = "tripeaks_player"
MADE_UP = "madeUpPlayerId_0123456789abcdef"
"""An id of the right shape that the server never made."""


def cookie_of(reply_headers: object) -> str:
    """The player cookie's value a reply sets."""
    issued = [v for v in reply_headers.get_list("set-cookie") if v.startswith(f"{COOKIE}=")]  # type: ignore[attr-defined]
    assert len(issued) == 1, issued
    return str(issued[0].split(";", 1)[0].split("=", 1)[1])


def wear(client: TestClient, value: str) -> None:
    """The client's only cookie from now on is this one (the server's next one replaces it)."""
    client.cookies.clear()
    client.cookies.set(COOKIE, value, domain="127.0.0.1")


def owner(store: Storage, game_id: str, player: str) -> bool:
    try:
        store.game(game_id, player)
    except UnknownGame:
        return False
    return True


def games_stored(store: Storage) -> int:
    return int(store._read("SELECT count(*) FROM games", ())[0][0])


# Ids the server made ------------------------------------------------------------------------


def test_a_made_up_cookie_is_not_a_player(client: TestClient) -> None:
    """A game asked for with a made-up id belongs to a new player with a new, signed cookie, and
    the made-up id is never stored, nor on the board."""
    wear(client, MADE_UP)
    reply = client.post("/api/games", json={"code": WIN_CODE})
    assert reply.status_code == 201
    issued = cookie_of(reply.headers)
    player = player_of(client)
    assert issued == client.cookies[COOKIE] and player != MADE_UP
    store = store_of(client)
    assert owner(store, reply.json()["id"], player)
    assert not owner(store, reply.json()["id"], MADE_UP)
    wear(client, MADE_UP)
    assert client.get(f"/api/games/{reply.json()['id']}").status_code == 404
    # the daily too: its ranked attempt is a new player's, and the board never names the made-up id
    wear(client, MADE_UP)
    state = start(client, 201)
    assert player_of(client) not in (MADE_UP, player)
    play(client, state, best_line(deal_of(client).code))
    top, players = store.board(daily.today(), 50)
    assert players == 1 and [row.player for row in top] == [player_of(client)]
    assert not store.known_player(MADE_UP) and store.daily_games(MADE_UP, daily.today()) == []


def test_a_tampered_signature_is_not_a_player(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    signed = client.cookies[COOKIE]
    player, _, signature = signed.partition(".")
    assert len(signature) >= 22  # 128 bits of HMAC-SHA256, base64url
    flipped = signature[:-1] + ("A" if signature[-1] != "A" else "B")
    for forged in (f"{player}.{flipped}", f"{player}.", f"{MADE_UP}.{signature}"):
        wear(client, forged)
        assert client.get(f"/api/games/{state['id']}").status_code == 404
        assert send(client, state, "draw").status_code == 404
        wear(client, forged)
        made = client.post("/api/games", json={})
        assert made.status_code == 201 and player_of(client) not in (player, MADE_UP)
        assert not owner(store_of(client), made.json()["id"], player)
    wear(client, signed)  # the real cookie still is its player, game untouched
    again = client.get(f"/api/games/{state['id']}").json()
    assert again["version"] == 0 and again["status"] == "playing"


def test_an_old_cookie_of_a_known_player_still_reads_its_games_and_is_signed(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bare id (the cookie before signatures) is that player when the store knows them: the
    reply signs it, and from then on no request of theirs asks the store who they are."""
    with api(database) as client:
        state = new_game(client, WIN_CODE)
        moved = send(client, state, "draw").json()
        bare = player_of(client)
    with api(database) as client:  # a server restarted since: nothing of the player in memory
        asked: list[str] = []
        store = store_of(client)
        known = store.known_player
        monkeypatch.setattr(store, "known_player", lambda p: asked.append(p) or known(p))
        wear(client, bare)
        reply = client.get(f"/api/games/{state['id']}")
        assert reply.status_code == 200 and reply.json()["version"] == moved["version"]
        signed = cookie_of(reply.headers)
        assert signed.startswith(f"{bare}.") and client.cookies[COOKIE] == signed
        assert asked == [bare]
        # a move on the short way (moves.py), with the old cookie once more: the same player
        wear(client, bare)
        assert send(client, moved, "draw").status_code == 200
        assert client.cookies[COOKIE] == signed and asked == [bare]  # remembered, not asked
        for _ in range(3):  # the signed cookie: no read of who the player is
            assert client.get(f"/api/games/{state['id']}").status_code == 200
            assert "set-cookie" not in client.get("/api/stats").headers
        assert asked == [bare]
        # a bare id the store does not know is no player: a new one, and the store asked once
        wear(client, MADE_UP)
        assert client.get(f"/api/games/{state['id']}").status_code == 404
        wear(client, MADE_UP)
        made = client.post("/api/games", json={})
        assert made.status_code == 201 and player_of(client) != MADE_UP
        assert asked == [bare, MADE_UP]


def test_an_old_cookie_while_the_database_cannot_answer_is_503_not_a_new_player(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Who an old cookie is cannot be known then: answered 503 (retry), never as a new player,
    whose cookie would replace the old one and lose the player their games."""
    from tripeaks.store.core import Unavailable

    new_game(client, WIN_CODE)
    bare = player_of(client)
    store = store_of(client)
    before = games_stored(store)

    def away(player: str) -> bool:
        raise Unavailable("disk I/O error")

    monkeypatch.setattr(store, "known_player", away)
    wear(client, bare)
    reply = client.post("/api/games", json={})
    assert reply.status_code == 503 and reply.json()["error"]["reason"] == "unavailable"
    assert "set-cookie" not in reply.headers and games_stored(store) == before
    monkeypatch.undo()
    again = client.post("/api/games", json={})  # the database is back: the same player
    assert again.status_code == 201 and player_of(client) == bare


# New players per address --------------------------------------------------------------------


@contextmanager
def hosted(database: str | Path) -> Iterator[TestClient]:
    """The app with a hosted server's default limits (20 new players a minute per address)."""
    app = create_app(database, hosting=Hosting(rates=rates([])))
    with TestClient(app, base_url=BASE_URL) as client:
        yield client


def test_new_players_over_the_address_limit_are_refused_and_nothing_is_made(
    database: str | Path,
) -> None:
    with hosted(database) as client:
        cookies = []
        for _ in range(20):
            client.cookies.clear()
            new_game(client)
            cookies.append(client.cookies[COOKIE])
        store = store_of(client)
        before = games_stored(store)
        client.cookies.clear()
        for refused in (
            client.post("/api/games", json={}),
            client.post("/api/daily", json={}),
        ):
            assert_limited(refused)
            assert "set-cookie" not in refused.headers
        named = client.put("/api/player/name", json={"name": "Flood"})  # a name makes no player
        assert named.status_code == 403 and "set-cookie" not in named.headers
        wear(client, MADE_UP)  # a made-up cookie is no way round it
        assert_limited(client.post("/api/games", json={}))
        assert games_stored(store) == before and client.cookies[COOKIE] == MADE_UP
        assert store._read("SELECT count(*) FROM players", ())[0][0] == 0
        # a player with the server's cookie, at the same address, plays on
        wear(client, cookies[3])
        assert client.post("/api/games", json={}).status_code == 201
        assert client.post("/api/daily", json={}).status_code == 201
        assert client.put("/api/player/name", json={"name": "Player"}).status_code == 200
        assert client.cookies[COOKIE] == cookies[3]
        # and another address is not held back by this one
        elsewhere = TestClient(client.app, base_url=BASE_URL, client=("203.0.113.9", 4000))
        assert elsewhere.post("/api/games", json={}).status_code == 201


# Faster than a person -----------------------------------------------------------------------


def test_a_daily_played_at_machine_speed_is_kept_but_off_the_board(client: TestClient) -> None:
    deal = deal_of(client)
    best = best_line(deal.code)
    clock = Clock()
    store_of(client).clock = clock
    bot = play(client, start(client, 201), best, clock, step=0.01)  # a hundred actions a second
    assert bot["status"] == "won"
    bot_cookie = client.cookies[COOKIE]
    mine = client.get("/api/daily/board").json()["me"]
    assert mine["too_fast"] is True and mine["rank"] is None
    assert (mine["finished"], mine["won"], mine["score"], mine["moves"]) == (
        True,
        True,
        bot["score"],
        len(best),
    )
    assert mine["seconds"] == pytest.approx(0.01 * (len(best) - 1))
    history = client.get("/api/daily/history").json()["days"][0]
    assert history["finished"] and history["score"] == bot["score"] and history["rank"] is None
    board = client.get("/api/daily/board").json()
    assert board["top"] == [] and board["players"] == 0
    # a person with a worse game is first: the bot is in nobody's rank
    new_player(client)
    greedy = greedy_line(deal.code)
    person = play(client, start(client, 201), greedy, clock, step=0.8)
    board = client.get("/api/daily/board").json()
    assert board["players"] == 1 and [row["score"] for row in board["top"]] == [person["score"]]
    assert board["me"]["too_fast"] is False and board["me"]["rank"] == 1
    assert board["top"][0]["rank"] == 1
    # the bot's attempt is stored, and is still its player's own
    wear(client, bot_cookie)
    assert client.get(f"/api/games/{bot['id']}").json()["score"] == bot["score"]
    assert client.get("/api/daily/board").json()["me"]["too_fast"] is True


def test_a_daily_at_a_persons_pace_is_on_the_board(client: TestClient) -> None:
    deal = deal_of(client)
    best = best_line(deal.code)
    clock = Clock()
    store_of(client).clock = clock
    won = play(client, start(client, 201), best, clock, step=0.25)  # a quick person's
    board = client.get("/api/daily/board").json()
    assert board["players"] == 1 and board["top"][0]["score"] == won["score"]
    assert board["me"]["too_fast"] is False and board["me"]["rank"] == 1


def test_the_pace_rule() -> None:
    assert daily.too_fast(0.0, 40) and daily.too_fast(0.19 * 39, 40)
    assert not daily.too_fast(0.2 * 39, 40) and not daily.too_fast(30.0, 40)
    assert not daily.too_fast(0.0, 1)  # one action has no pace


UNDO_0008 = [
    "DROP TABLE journey",  # revision 0010 undone first (the journey)
    "DROP TABLE achievements",
    "DROP TABLE transfers",
    "ALTER TABLE games DROP COLUMN level",
    "DROP INDEX dailies_board",
    "ALTER TABLE dailies DROP COLUMN too_fast",
    "CREATE INDEX dailies_board ON dailies"
    " (day, ranked, finished, score DESC, moves, seconds, game)",
    "UPDATE alembic_version SET version_num = '0007'",
]
"""What 0007 left: no flag, and (set apart) every finished ranked attempt in the day's counts."""


def test_the_upgrade_takes_attempts_too_fast_off_the_boards_already_played(
    database: str | Path,
) -> None:
    import psycopg

    with api(database) as client:
        deal = deal_of(client)
        clock = Clock()
        store_of(client).clock = clock
        fast = play(client, start(client, 201), best_line(deal.code), clock, step=0.0)
        bot = player_of(client)
        new_player(client)
        person = play(client, start(client, 201), greedy_line(deal.code), clock, step=1.0)
        human = player_of(client)
    day = daily.today().isoformat()
    counted = (  # as revision 0007's store counted every finished attempt
        f"INSERT INTO daily_scores (day, score, players) VALUES ('{day}', {fast['score']}, 1)"
        " ON CONFLICT (day, score) DO UPDATE SET players = daily_scores.players + 1"
    )
    back = [*UNDO_0008, counted]
    if isinstance(database, Path):
        import sqlite3

        with sqlite3.connect(database) as db:
            for sql in back:
                db.execute(sql)
    else:
        with psycopg.connect(database) as pg:
            for sql in back:
                pg.execute(sql)  # type: ignore[arg-type]
    from tripeaks.store.sqlite import open_store

    store = open_store(database)  # upgraded to HEAD as it opens
    try:
        top, players = store.board(daily.today(), 50)
        assert players == 1 and [row.player for row in top] == [human]
        (mine,) = store.daily_games(bot, daily.today())
        assert mine.too_fast and mine.finished and store.rank(mine) is None
        (theirs,) = store.daily_games(human, daily.today())
        assert not theirs.too_fast and store.rank(theirs) == 1
        assert theirs.score == person["score"]
    finally:
        store.close()


def test_the_pace_counts_from_the_first_action_stored_before_a_restart(
    database: str | Path,
) -> None:
    """The first action's time is the stored one: a game resumed on a restarted server (or
    another worker) is timed from it, as its board row is."""
    with api(database) as client:
        line = best_line(deal_of(client).code)
        clock = Clock()
        store_of(client).clock = clock
        state = play(client, start(client, 201), line[:1], clock)
        cookie = client.cookies[COOKIE]
    with api(database) as client:
        clock.now += 600.0  # back ten minutes later, then quick
        store_of(client).clock = clock
        wear(client, cookie)
        play(client, start(client, 200), line[1:], clock, step=0.01)
        mine = client.get("/api/daily/board").json()["me"]
        assert mine["finished"] and mine["too_fast"] is False and mine["rank"] == 1
        assert mine["seconds"] == pytest.approx(600.0 + 0.01 * (len(line) - 1))
    assert state["version"] == 1
