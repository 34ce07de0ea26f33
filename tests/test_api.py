"""The JSON API through FastAPI's test client: whole games, refusals, versions, retries, restarts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_api_support import STUCK_CODE, WIN_CODE, api, new_game, play_line, send, winning_line

from tripeaks.engine.game import DRAW, UNDO, Action, Game
from tripeaks.engine.layout import COVERED_BY, TABLEAU_SIZE
from tripeaks.i18n import translator
from tripeaks.i18n.describe import describe


def test_new_game_shows_only_the_bottom_row_face_up(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    game = Game.new(WIN_CODE)
    assert state["version"] == 0 and state["status"] == "playing" and state["score"] == 500
    assert state["stock_size"] == 23 and state["stock_label"] == "Stock, 23 cards"
    assert state["discard"]["label"] == str(game.discard_top)
    assert len(state["tableau"]) == TABLEAU_SIZE
    for slot in state["tableau"]:
        if slot["pos"] >= 18:
            assert slot["slot"] == "face_up"
            assert slot["card"]["label"] == str(game.deal.tableau[slot["pos"]])
        else:
            assert slot == {"pos": slot["pos"], "slot": "face_down", "card": None}
    assert state["description"] == describe(game, "en")
    assert len(state["id"]) >= 22
    assert client.cookies.get("tripeaks_player")


def test_a_whole_game_to_a_win(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    line = winning_line()
    replies = play_line(client, state, line)
    final = replies[-1]
    expected = Game.replay(WIN_CODE, line)
    assert final["status"] == "won" and final["score"] == expected.score
    assert final["version"] == len(line) and final["moves"] == expected.moves
    assert not final["can_undo"]
    assert all(s["slot"] == "removed" for s in final["tableau"])
    assert "You won with" in final["last"]["announcement"]
    assert client.get(f"/api/games/{state['id']}").json()["status"] == "won"
    refused = send(client, final, UNDO)
    assert refused.status_code == 409
    assert refused.json()["error"]["reason"] == "game_over"
    assert refused.json()["state"]["status"] == "won"


def test_play_announces_the_card_and_what_turned_up(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    line = winning_line()
    game = Game.new(WIN_CODE)
    for action in line:
        reply = send(client, state, action, lang="fi").json()
        before = set(game.free_positions())
        card = game.apply(action).card
        if action.pos is not None:
            assert reply["last"]["kind"] == "play" and reply["last"]["pos"] == action.pos
            assert reply["last"]["announcement"].startswith(
                f"Poistit kortin {reply['last']['card']['name']}"
            )
            assert reply["last"]["card"]["label"] == str(card)
            if set(game.free_positions()) - before:
                assert "Esiin" in reply["last"]["announcement"]
        else:
            assert reply["last"]["announcement"].startswith("Nostit kortin")
        state = reply


@pytest.mark.parametrize(
    ("lang", "locked", "not_adjacent"),
    [
        ("en", "This card is locked", "Value must be one higher or lower"),
        ("fi", "Tämä kortti on lukittu", "Arvon on oltava yhtä suurempi tai pienempi"),
        (
            "ca",
            "Aquesta carta està bloquejada",
            "Ha de tenir un valor immediatament superior o inferior",
        ),
    ],
)
def test_refused_plays_say_why_in_the_language_and_change_nothing(
    client: TestClient, lang: str, locked: str, not_adjacent: str
) -> None:
    state = new_game(client, WIN_CODE, lang)
    game = Game.new(WIN_CODE)
    reply = send(client, state, Action.play(0), lang)
    assert reply.status_code == 422
    assert reply.json()["error"] == {"reason": "locked", "message": locked}
    assert reply.json()["state"] == state
    misfit = next(p for p in game.free_positions() if p not in game.playable_positions())
    reply = send(client, state, Action.play(misfit), lang)
    assert reply.json()["error"] == {"reason": "not_adjacent", "message": not_adjacent}
    assert client.get(f"/api/games/{state['id']}?lang={lang}").json() == state


@pytest.mark.parametrize(("pos", "reason"), [(28, "no_such_position"), (-1, "no_such_position")])
def test_positions_off_the_table_are_refused(client: TestClient, pos: int, reason: str) -> None:
    state = new_game(client, WIN_CODE)
    reply = send(client, state, Action(Action.play(0).kind, pos))
    assert reply.status_code == 422 and reply.json()["error"]["reason"] == reason
    assert reply.json()["state"]["version"] == 0


def test_removed_card_and_empty_undo_are_refused(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    assert send(client, state, UNDO).json()["error"]["reason"] == "nothing_to_undo"
    first = winning_line()[0]
    state = send(client, state, first).json()
    if first.pos is not None:
        assert send(client, state, first).json()["error"]["reason"] == "removed"


def test_stuck_game_says_so_and_can_be_undone(client: TestClient) -> None:
    state = new_game(client, STUCK_CODE, "ca")
    for _ in range(23):
        state = send(client, state, DRAW, "ca").json()
    assert state["status"] == "stuck"
    assert state["stock_label"] == "Pila per robar, 0 cartes"
    assert "Ja no hi ha cap moviment possible" in state["last"]["announcement"]
    assert send(client, state, DRAW, "ca").json()["error"]["reason"] == "stock_empty"
    back = send(client, state, UNDO, "ca").json()
    assert back["status"] == "playing" and back["stock_size"] == 1
    assert back["stock_label"] == "Pila per robar, 1 carta"
    assert back["last"]["kind"] == "undo" and back["last"]["pos"] is None


def test_undo_puts_the_card_back_and_keeps_the_move_count(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    play = next(a for a in winning_line() if a.pos is not None)
    line = winning_line()[: winning_line().index(play) + 1]
    after = play_line(client, state, line)[-1]
    back = send(client, after, UNDO).json()
    expected = Game.replay(WIN_CODE, [*line, UNDO])
    assert back["last"] == {
        "kind": "undo",
        "undone": "play",
        "card": after["last"]["card"],
        "from": "discard",
        "to": "tableau",
        "pos": play.pos,
        "revealed": [],
        "covered": after["last"]["revealed"],
        "peak": None,
        "score_before": after["score"],
        "score_after": expected.score,
        "streak": expected.streak,
        "status": "playing",
        "announcement": f"Took back {after['last']['card']['name']}.",
        "peak_points": 0,
        "redo": False,
    }
    assert back["score"] == expected.score and back["moves"] == expected.moves == len(line)
    assert back["tableau"][play.pos]["slot"] == "face_up"


def test_old_version_is_stale_with_the_current_state(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    now = send(client, state, DRAW).json()
    reply = send(client, state, DRAW, "fi")
    assert reply.status_code == 409
    body = reply.json()
    assert body["error"]["reason"] == "stale" and "toisessa ikkunassa" in body["error"]["message"]
    assert body["state"]["version"] == 1 and body["state"]["stock_size"] == now["stock_size"]


def test_a_retried_request_is_applied_once(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    first = send(client, state, DRAW, request_id="tap-1")
    again = send(client, state, DRAW, request_id="tap-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 1
    later = send(client, first.json(), DRAW, request_id="tap-2").json()
    assert later["version"] == 2
    assert send(client, state, DRAW, request_id="tap-1").json() == first.json()


def test_a_refused_request_id_can_be_used_again(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    assert send(client, state, Action.play(0), request_id="r").status_code == 422
    assert send(client, state, DRAW, request_id="r").status_code == 200


def test_resume_after_restarting_on_the_same_database(database: str | Path) -> None:
    db = database
    line = winning_line()[:10]
    with api(db) as client:
        state = new_game(client, WIN_CODE)
        last = play_line(client, state, line)[-1]
        cookie = client.cookies.get("tripeaks_player")
    with api(db) as client:
        client.cookies.set("tripeaks_player", cookie)
        again = client.get(f"/api/games/{state['id']}").json()
        assert again["version"] == 10
        assert {k: v for k, v in again.items() if k != "last"} == {
            k: v for k, v in last.items() if k != "last"
        }
        rest = play_line(client, again, winning_line()[10:])
        assert rest[-1]["status"] == "won"


def test_another_players_game_is_unknown(database: str | Path) -> None:
    with api(database) as alice:
        state = new_game(alice, WIN_CODE)
        with api(database) as bob:
            new_game(bob)
            for reply in (
                bob.get(f"/api/games/{state['id']}"),
                send(bob, state, DRAW),
                bob.get(f"/api/games/{state['id']}/hint"),
            ):
                assert reply.status_code == 404
                assert reply.json()["error"]["reason"] == "unknown_game"
            bob.cookies.clear()
            assert bob.get(f"/api/games/{state['id']}").status_code == 404
        assert alice.get(f"/api/games/{state['id']}").json()["version"] == 0


def test_unknown_game_and_forged_cookie(client: TestClient) -> None:
    assert client.get("/api/games/nope").json()["error"]["reason"] == "unknown_game"
    client.cookies.clear()
    forged = "tripeaks_player=" + "x" * 500
    reply = client.post("/api/games", json={}, headers={"cookie": forged})
    assert reply.status_code == 201
    issued = reply.headers["set-cookie"]
    assert issued.startswith("tripeaks_player=") and "x" * 100 not in issued
    assert "httponly" in issued.lower() and "samesite=strict" in issued.lower()


def test_code_wins_over_rules_and_is_read_loosely(client: TestClient) -> None:
    reply = client.post("/api/games", json={"rules": "easy", "code": "  tp1-c-aaabuwi "})
    assert reply.status_code == 201
    assert reply.json()["code"] == "TP1-C-AAABUWI" and reply.json()["rules"] == "classic"
    random = client.post("/api/games", json={"rules": "classic"}).json()
    assert random["code"].startswith("TP1-C-")


@pytest.mark.parametrize("code", ["TP1-E-AAA", "hello", "TP1-X-AAAAAAA", "TP1-E-AAAAAA1"])
def test_a_malformed_code_is_refused_and_the_current_game_stays(
    client: TestClient, code: str
) -> None:
    state = new_game(client, WIN_CODE, "fi")
    state = send(client, state, DRAW).json()
    reply = client.post("/api/games?lang=fi", json={"code": code})
    assert reply.status_code == 422
    assert reply.json()["error"] == {
        "reason": "invalid_code",
        "message": "Tämä ei ole pelikoodi. Koodi on muotoa TP1-E-ABCDEFG.",
    }
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 1
    assert client.get("/api/stats").json()["easy"]["played"] == 0


def test_unknown_language_is_422(client: TestClient) -> None:
    for reply in (
        client.post("/api/games?lang=de", json={}),
        client.get("/api/i18n/sv"),
        client.get("/api/stats?lang=xx"),
    ):
        assert reply.status_code == 422
        assert reply.json()["error"]["reason"] == "unknown_language"


def test_bad_bodies_get_the_error_shape(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    url = f"/api/games/{state['id']}/play"
    for body in (b"{not json", b"[]", b'{"pos": "3", "version": 0}', b'{"pos": 3}'):
        reply = client.post(url, content=body, headers={"content-type": "application/json"})
        assert reply.status_code == 422, body
        assert reply.json()["error"]["reason"] == "bad_request"
        assert reply.json()["error"]["message"]
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 0


def test_bodies_over_16_kb_are_413(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    big = b'{"version": 0, "request_id": "' + b"x" * 17_000 + b'"}'
    json_type = {"content-type": "application/json"}
    reply = client.post(f"/api/games/{state['id']}/draw?lang=ca", content=big, headers=json_type)
    assert reply.status_code == 413
    assert reply.json()["error"] == {
        "reason": "body_too_large",
        "message": "La petició és massa gran; el límit és de 16 kB.",
    }

    def chunks() -> Iterator[bytes]:
        for _ in range(20):
            yield b"x" * 1024

    reply = client.post(f"/api/games/{state['id']}/draw", content=chunks(), headers=json_type)
    assert reply.status_code == 413
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 0


def test_layout_positions_follow_the_covers(client: TestClient) -> None:
    positions = client.get("/api/layout").json()["positions"]
    assert len(positions) == TABLEAU_SIZE
    for p in positions:
        assert p["covered_by"] == list(COVERED_BY[p["pos"]])
        assert p["y"] == p["row"] - 1
        if p["covered_by"]:
            xs = [positions[q]["x"] for q in p["covered_by"]]
            assert p["x"] == sum(xs) / 2
    assert [p["x"] for p in positions[18:]] == list(range(10))
    assert [p["x"] for p in positions[:3]] == [1.5, 4.5, 7.5]


def test_catalog_endpoint(client: TestClient) -> None:
    body = client.get("/api/i18n/fi").json()
    assert body["lang"] == "fi" and body["plural"] == "n != 1"
    assert body["messages"]["stock.label"] == ["Nostopakka, {n} kortti", "Nostopakka, {n} korttia"]
    assert body["messages"]["error.locked"] == "Tämä kortti on lukittu"


def test_preview_stores_nothing(client: TestClient) -> None:
    line = winning_line()[:3]
    actions = ",".join(map(str, line))
    state = client.get(f"/api/preview?code={WIN_CODE}&actions={actions}").json()
    expected = Game.replay(WIN_CODE, line)
    assert state["id"] is None and state["version"] == 3 and state["score"] == expected.score
    assert state["last"]["kind"] == line[-1].kind.value
    bad = client.get(f"/api/preview?code={WIN_CODE}&actions=play 0")
    assert bad.status_code == 422 and bad.json()["error"]["reason"] == "locked"
    assert client.get(f"/api/preview?code={WIN_CODE}&actions=jump").status_code == 422
    assert client.get("/api/preview?code=nope").json()["error"]["reason"] == "invalid_code"
    assert client.get("/api/stats").json()["recent"] == []


def test_index_and_missing_routes(client: TestClient) -> None:
    reply = client.get("/api/nothing-here")
    assert reply.status_code == 404 and reply.json()["error"]["reason"] == "not_found"
    json_type = {"content-type": "application/json"}  # else the guard refuses it first (415)
    reply = client.delete("/api/layout", headers=json_type)
    assert reply.json()["error"]["reason"] == "method_not_allowed"
    page = client.get("/")
    assert page.status_code in (200, 404)
    if page.status_code == 404:
        assert page.json()["error"]["reason"] == "no_page"


def test_game_ids_are_long_and_random(client: TestClient) -> None:
    ids = {new_game(client)["id"] for _ in range(20)}
    assert len(ids) == 20
    assert all(len(i) >= 22 for i in ids)  # >= 128 bits in base64url


def test_a_game_whose_log_is_full_refuses_with_too_long(
    database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked with a short limit (the rule itself is tested in test_game.py): 422, nothing kept."""
    monkeypatch.setattr("tripeaks.engine.game.ACTION_LIMIT", 6)
    with api(database) as client:
        state = new_game(client, WIN_CODE)
        for action in [DRAW, UNDO] * 3:
            state = send(client, state, action).json()
        reply = send(client, state, DRAW, "fi")
        assert reply.status_code == 422
        assert reply.json()["error"] == {
            "reason": "too_long",
            "message": translator("fi")("error.too_long"),
        }
        assert reply.json()["state"]["version"] == 6
        assert client.get(f"/api/games/{state['id']}").json()["version"] == 6
