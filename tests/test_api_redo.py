"""POST /api/games/{id}/redo on SQLite and PostgreSQL: the newest undone action again, answered
and stored as the play or draw it is; refused in the ranked daily; and the score's parts."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_daily import best_line, deal_of, play, start
from test_api_support import WIN_CODE, api, new_game, on_day, send, store_of, winning_line

from tripeaks import daily
from tripeaks.engine.game import DRAW, REDO, UNDO, Action, Game
from tripeaks.i18n import translator
from tripeaks.i18n.describe import card_name


def steps(client: TestClient, state: dict[str, Any], actions: Any, lang: str = "en") -> Any:
    for action in actions:
        reply = send(client, state, action, lang)
        assert reply.status_code == 200, reply.text
        state = reply.json()
    return state


def without_last(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "last"}


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_redo_answers_the_play_or_draw_it_applies_again(client: TestClient, lang: str) -> None:
    line = winning_line()[:4]
    state = steps(client, new_game(client, WIN_CODE, lang), line, lang)
    straight = state
    state = steps(client, state, [UNDO, UNDO], lang)
    assert state["can_redo"] is True and state["last"]["redo"] is False
    _ = translator(lang)
    for n, action in enumerate(line[2:], 1):
        reply = send(client, state, REDO, lang)
        assert reply.status_code == 200, reply.text
        state = reply.json()
        last = state["last"]
        assert last["redo"] is True
        assert last["kind"] == ("draw" if action == DRAW else "play")
        assert last["pos"] == action.pos
        name = card_name(Game.replay(WIN_CODE, line[: 2 + n]).discard[-1], lang)
        sentence = _(f"announce.{last['kind']}", card=name)
        assert last["announcement"].startswith(_("announce.redo", move=sentence))
        assert state["version"] == 6 + n and state["moves"] == 4 + n
    assert state["can_redo"] is False
    for key in ("score", "streak", "longest_streak", "tableau", "discard", "score_parts"):
        assert state[key] == straight[key], key
    refused = send(client, state, REDO, lang)
    assert refused.status_code == 422
    assert refused.json()["error"] == {
        "reason": "nothing_to_redo",
        "message": _("error.nothing_to_redo"),
    }
    assert without_last(refused.json()["state"]) == without_last(state)


def test_a_new_action_clears_redo_and_the_log_replays_to_the_same_state(
    database: str | Path,
) -> None:
    line = winning_line()[:6]
    with api(database) as client:
        state = steps(client, new_game(client, WIN_CODE), line)
        state = steps(client, state, [UNDO, UNDO, UNDO, REDO])
        assert state["can_redo"] is True
        game_id, cookie = state["id"], client.cookies.get("tripeaks_player")
        logged = store_of(client).actions(game_id)
        assert logged == [*line, UNDO, UNDO, UNDO, line[3]], "a redo is logged as what it did"
    with api(database) as client:  # a restart: the game is replayed from its log
        client.cookies.set("tripeaks_player", cookie)
        again = client.get(f"/api/games/{game_id}").json()
        assert without_last(again) == without_last(state)
        assert again["can_redo"] is True
        game = Game.replay(WIN_CODE, logged)
        other = next(a for a in game.legal_moves() if a != line[4])
        cleared = steps(client, again, [other])
        assert cleared["can_redo"] is False and cleared["last"]["redo"] is False
        assert send(client, cleared, REDO).json()["error"]["reason"] == "nothing_to_redo"


def test_a_redo_retried_with_its_request_id_is_stored_once(client: TestClient) -> None:
    line = winning_line()[:3]
    state = steps(client, new_game(client, WIN_CODE), [*line, UNDO])
    first = send(client, state, REDO, request_id="r-redo")
    again = send(client, state, REDO, request_id="r-redo")
    assert first.status_code == again.status_code == 200
    assert first.json()["last"] == again.json()["last"] and again.json()["last"]["redo"] is True
    assert store_of(client).actions(state["id"]) == [*line, UNDO, line[-1]]
    other = send(client, state, UNDO, request_id="r-redo")
    assert other.status_code == 409 and other.json()["error"]["reason"] == "request_id_reused"


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_the_ranked_attempt_refuses_redo(client: TestClient, lang: str) -> None:
    deal = deal_of(client)
    state = play(client, start(client), best_line(deal.code)[:2])
    assert state["can_redo"] is False and state["can_undo"] is False
    redo = send(client, state, REDO, lang=lang)
    assert redo.status_code == 403
    message = translator(lang)("error.daily_ranked")
    assert redo.json()["error"] == {"reason": "daily_ranked", "message": message}
    assert redo.json()["state"]["version"] == 2 and redo.json()["state"]["code"] is None
    assert without_last(client.get(f"/api/games/{state['id']}?lang={lang}").json()) == without_last(
        redo.json()["state"]
    )


def test_a_daily_whose_day_is_over_redoes_like_any_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal = deal_of(client)
    line = best_line(deal.code)[:2]
    state = play(client, start(client), line)
    on_day(monkeypatch, daily.today() + timedelta(days=1), hour=1)
    state = client.get(f"/api/games/{state['id']}").json()
    assert state["ranked"] is False
    state = steps(client, state, [UNDO])
    assert state["can_redo"] is True
    redone = send(client, state, REDO)
    assert redone.status_code == 200 and redone.json()["last"]["redo"] is True
    assert redone.json()["moves"] == 3


def test_the_score_parts_add_up_and_follow_undo(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    assert state["score_parts"] == [
        {"part": "start", "count": 1, "points": 500},
        {"part": "plays", "count": 0, "points": 0},
        {"part": "draws", "count": 0, "points": 0},
        {"part": "peaks", "count": 0, "points": 0},
    ]
    line = winning_line()
    for n, action in enumerate(line, 1):
        state = steps(client, state, [action])
        assert sum(p["points"] for p in state["score_parts"]) == state["score"]
        if n == 10:
            back = steps(client, state, [UNDO])
            assert sum(p["points"] for p in back["score_parts"]) == back["score"]
            state = steps(client, back, [REDO])
    draws = sum(a == DRAW for a in line)
    assert state["status"] == "won"
    assert state["score_parts"][1:] == [
        {"part": "plays", "count": 28, "points": -28},
        {"part": "draws", "count": draws, "points": -draws},
        {"part": "peaks", "count": 3, "points": 300},
    ]


def test_traditional_score_parts(client: TestClient) -> None:
    state = new_game(client, f"{WIN_CODE}-T")
    assert [p["part"] for p in state["score_parts"]] == ["start", "runs", "draws", "peaks"]
    state = steps(client, state, winning_line()[:8])
    parts = {p["part"]: p for p in state["score_parts"]}
    assert parts["draws"]["points"] == -5 * parts["draws"]["count"]
    assert sum(p["points"] for p in state["score_parts"]) == state["score"]


def test_a_preview_takes_redo_too(client: TestClient) -> None:
    line = winning_line()[:2]
    words = ",".join([*(str(a) for a in line), "undo", "redo"])
    reply = client.get("/api/preview", params={"code": WIN_CODE, "actions": words})
    assert reply.status_code == 200, reply.text
    assert reply.json()["last"]["redo"] is True and reply.json()["moves"] == 3
    assert Action.parse("redo") == REDO
