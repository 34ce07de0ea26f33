"""Nicknames no one can forge or hide (issue 34), through the API and the store, on SQLite and
PostgreSQL: lookalike copies of another player's name, names that draw nothing and names shaped
like generated ones are refused; two players asking for one name at once get it once; a name
change makes no player."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from test_api_support import new_game, player_of, store_of
from test_explain_migration import rows

from tripeaks import nickname
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW
from tripeaks.i18n import translator
from tripeaks.store.core import NameTaken, Storage
from tripeaks.store.sqlite import open_store

COOKIE = "tripeaks_player"
CODE = GameCode.parse("TP1-E-AAABUWI")


def as_new_player(client: TestClient) -> str:
    """A new player who has played a game (their cookie is the client's): their id."""
    client.cookies.clear()
    new_game(client)
    return player_of(client)


def put(client: TestClient, name: str, lang: str = "en") -> Any:
    return client.put(f"/api/player/name?lang={lang}", json={"name": name})


# Lookalikes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "copy",
    [
        "Hans",
        "HANS",
        "hans",
        "\u041dans",  # Cyrillic capital en: Нans
        "\u041d\u0430ns",  # and a Cyrillic small a
        "\uff28\uff41\uff4e\uff53",  # full-width: Ｈａｎｓ
        "\U0001d407\U0001d41a\U0001d427\U0001d42c",  # mathematical bold: 𝐇𝐚𝐧𝐬
    ],
)
def test_a_copy_of_another_players_name_is_refused(client: TestClient, copy: str) -> None:
    as_new_player(client)
    assert put(client, "Hans").status_code == 200
    thief = as_new_player(client)
    reply = put(client, copy, "ca")
    assert reply.status_code == 409
    assert reply.json()["error"] == {
        "reason": "name_taken",
        "message": translator("ca")("error.name_taken"),
    }
    assert client.get("/api/player/name").json() == {
        "name": nickname.generated(thief, "en"),
        "chosen": False,
    }


def test_a_player_may_keep_or_re_set_their_own_name_and_give_it_up(client: TestClient) -> None:
    as_new_player(client)
    first = client.cookies.get(COOKIE)
    for name in ("Hans", "Hans", "HANS", "\u041dans", "Hans"):
        reply = put(client, name)
        assert reply.status_code == 200 and reply.json() == {"name": name, "chosen": True}
    assert put(client, "Greta").status_code == 200  # the old name is free again
    as_new_player(client)
    assert put(client, "hans").status_code == 200
    assert put(client, "Greta").status_code == 409
    client.cookies.set(COOKIE, first or "")
    assert client.get("/api/player/name").json() == {"name": "Greta", "chosen": True}


def test_a_refused_name_leaves_the_players_own_name_as_it_was(client: TestClient) -> None:
    as_new_player(client)
    assert put(client, "Hans").status_code == 200
    as_new_player(client)
    assert put(client, "Greta").status_code == 200
    assert put(client, "HANS").status_code == 409
    assert client.get("/api/player/name").json() == {"name": "Greta", "chosen": True}


# Names that draw nothing, and generated shapes ------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        "\u3164",  # HANGUL FILLER: a letter (Lo) that draws nothing
        "\u3164\u3164\u3164",
        "Ann\u3164",
        "\u115f",  # HANGUL CHOSEONG FILLER
        "\u1160",  # HANGUL JUNGSEONG FILLER
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "A\u3164B",
    ],
)
def test_a_name_with_a_letter_that_draws_nothing_is_refused(client: TestClient, typed: str) -> None:
    as_new_player(client)
    reply = put(client, typed, "fi")
    assert reply.status_code == 422
    assert reply.json()["error"] == {
        "reason": "name_invisible",
        "message": translator("fi")("error.name_invisible"),
    }
    assert client.get("/api/player/name").json()["chosen"] is False


@pytest.mark.parametrize(
    "typed",
    ["\u2800", "A\u200bB", "\u200d", "Ann\u00ad", "\u180e"],  # braille blank, format characters
)
def test_other_characters_that_draw_nothing_are_refused(client: TestClient, typed: str) -> None:
    as_new_player(client)
    reply = put(client, typed)
    assert reply.status_code == 422
    assert reply.json()["error"]["reason"] in ("name_characters", "name_invisible")
    assert client.get("/api/player/name").json()["chosen"] is False


@pytest.mark.parametrize(
    "typed",
    [
        "Otter 417",
        "Saukko 12",
        "Llúdriga 9",
        "otter 1",
        "OTTER 4170",
        "\u041etter 4l7",  # Cyrillic О, and an l for the 1
        "\uff2f\uff54\uff54\uff45\uff52 \uff14\uff11\uff17",  # full-width
    ],
)
def test_a_name_shaped_like_a_generated_one_is_refused(client: TestClient, typed: str) -> None:
    as_new_player(client)
    reply = put(client, typed, "ca")
    assert reply.status_code == 422
    assert reply.json()["error"] == {
        "reason": "name_generated",
        "message": translator("ca")("error.name_generated"),
    }


@pytest.mark.parametrize("typed", ["Otter", "Otter417", "417 Otter", "Otter Saukko"])
def test_an_animal_alone_or_not_in_the_generated_shape_is_a_name(
    client: TestClient, typed: str
) -> None:
    as_new_player(client)
    assert put(client, typed).status_code == 200


# A name change makes no player ----------------------------------------------------------------


def test_a_name_change_without_a_player_makes_no_player(
    client: TestClient, database: str | Path
) -> None:
    reply = put(client, "Mallory", "fi")
    assert reply.status_code == 403
    assert reply.json()["error"] == {
        "reason": "name_no_player",
        "message": translator("fi")("error.name_no_player"),
    }
    assert COOKIE not in reply.cookies and client.cookies.get(COOKIE) is None
    client.cookies.set(COOKIE, "x" * 32)  # a well-formed id that never played
    assert put(client, "Mallory").status_code == 403
    assert rows(database, "SELECT count(*) FROM players") == [(0,)]
    assert rows(database, "SELECT count(*) FROM games") == [(0,)]


# Two players, one name, at once -----------------------------------------------------------------


def played(store: Storage, player: str) -> None:
    store.create(player, CODE)


def claim(store: Storage, player: str, name: str) -> str:
    """Stage and commit the name: "kept" or "taken"."""
    done = store.stage_nickname(player, name, nickname.key(name))
    while not done.done():
        store.flush()
    try:
        done.result()
    except NameTaken:
        return "taken"
    return "kept"


def racer(n: int) -> str:
    return f"racer-{n}-" + "x" * 16


def test_two_players_asking_for_one_name_on_two_stores_at_once_get_it_once(
    database: str | Path,
) -> None:
    stores = [open_store(database), open_store(database)]
    try:
        for n, store in enumerate(stores):
            played(store, racer(n))
        for attempt in range(5):
            names = [f"Racer {chr(65 + attempt)}", f"RACER {chr(65 + attempt)}"]
            before = [stores[0].nickname(racer(n)) for n in range(2)]
            results: list[str] = ["", ""]
            gate = threading.Barrier(2)

            def race(
                n: int,
                names: list[str] = names,
                results: list[str] = results,
                gate: threading.Barrier = gate,
            ) -> None:
                gate.wait()
                results[n] = claim(stores[n], racer(n), names[n])

            threads = [threading.Thread(target=race, args=(n,)) for n in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            assert sorted(results) == ["kept", "taken"]
            winner = results.index("kept")
            for store in stores:  # each worker reads the winner's new name, the loser's old one
                assert store.nickname(racer(winner)) == names[winner]
                assert store.nickname(racer(1 - winner)) == before[1 - winner]
    finally:
        for store in stores:
            store.close()


def test_a_name_taken_in_a_batch_fails_alone(database: str | Path) -> None:
    """The claim never fails the commit it is in: another player's action of the same batch is
    stored, and a name set in it too."""
    store = open_store(database)
    try:
        played(store, "alice-" + "x" * 16)
        game = store.create("bob-" + "x" * 16, CODE)
        played(store, "carol-" + "x" * 16)
        assert claim(store, "alice-" + "x" * 16, "Hans") == "kept"
        taken = store.stage_nickname("bob-" + "x" * 16, "HANS", nickname.key("HANS"))
        turn = store.stage_apply(game.id, "bob-" + "x" * 16, DRAW, 0)
        kept = store.stage_nickname("carol-" + "x" * 16, "Greta", nickname.key("Greta"))
        store.flush()
        with pytest.raises(NameTaken):
            taken.result(timeout=10)
        kept.result(timeout=10)
        turn.done.result(timeout=10)
        assert store.actions(game.id) == [DRAW]
        assert store.nickname("bob-" + "x" * 16) is None
        assert store.nickname("carol-" + "x" * 16) == "Greta"
    finally:
        store.close()


def test_a_claim_waits_for_another_workers_open_claim_and_is_refused_once_it_commits(
    postgres: str,
) -> None:
    """The race on PostgreSQL, made certain: another worker's transaction holds the name's key
    uncommitted while this store commits the same name; this store's commit waits for it and,
    once it commits, refuses the name rather than failing (a 500) or storing both."""
    store = open_store(postgres)
    try:
        played(store, "bob-" + "x" * 16)
        with psycopg.connect(postgres) as other:
            other.execute(
                "INSERT INTO players (player, name, skeleton) VALUES (%s, %s, %s)",
                ("alice-" + "x" * 16, "Hans", nickname.key("Hans")),
            )
            outcome: list[str] = []
            thread = threading.Thread(
                target=lambda: outcome.append(claim(store, "bob-" + "x" * 16, "hans"))
            )
            thread.start()
            thread.join(timeout=1.0)
            assert not outcome  # no answer while the other transaction holds the key
        thread.join(timeout=60)  # the other committed as its block ended
        assert outcome == ["taken"]
        assert store.nickname("bob-" + "x" * 16) is None
        assert store.nickname("alice-" + "x" * 16) == "Hans"
    finally:
        store.close()


def test_the_api_answers_409_to_the_player_who_lost_the_race(client: TestClient) -> None:
    """The store's refusal reaches the reply: a name another worker stored between nothing and
    the commit (its key already in the table) is answered 409, never 500."""
    as_new_player(client)
    store = store_of(client)
    played(store, "alice-" + "x" * 16)
    assert claim(store, "alice-" + "x" * 16, "Hans") == "kept"
    assert put(client, "\u041dANS").status_code == 409
    assert client.get("/api/player/name").json()["chosen"] is False
