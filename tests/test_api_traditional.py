"""The solver behind a game under the traditional scoring and the variants, through the API: the
verdict's best score is of any ending, a stuck game can reach it, hints lead to the most points even
where no win is left, and "winnable deals only" keeps the options asked for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_api_solver import result_of
from test_api_support import api, new_game, play_line, send

from tripeaks.engine.game import Action, Game
from tripeaks.solver import explain, streak
from tripeaks.solver import search as solver

STUCK_BEST = "TP1-E-OHYPLZE-T"
"""A deal whose best score (169) ends stuck, above its best win (140)."""
LOST = "TP1-C-EYVQHJU-T"
"""A deal no line wins."""


@pytest.fixture
def client(database: str | Path) -> Iterator[TestClient]:
    with api(database) as c:
        yield c


def test_a_stuck_game_can_reach_the_best_score_of_its_deal(client: TestClient) -> None:
    best = streak.best_score(STUCK_BEST)
    final = play_line(client, new_game(client, STUCK_BEST), best.line)[-1]
    assert (final["status"], final["score"]) == ("stuck", 169)
    assert result_of(client, final["id"]) == {
        "winnable": True,
        "best_score": 169,
        "best_reached": True,
        "grade": explain.grade(STUCK_BEST).value,
    }


def test_a_won_game_under_the_traditional_scoring_can_fall_short_of_the_best(
    client: TestClient,
) -> None:
    best = streak.best_score(STUCK_BEST)
    final = play_line(client, new_game(client, STUCK_BEST), best.win_line)[-1]
    assert (final["status"], final["score"]) == ("won", 140)
    assert result_of(client, final["id"]) == {
        "winnable": True,
        "best_score": 169,
        "best_reached": False,
        "grade": explain.grade(STUCK_BEST).value,
    }


WHERE_NO_WIN = {
    "en": "Perfect hint (it knows every card): no win is left from here; for the most points, ",
    "fi": "Täydellinen vihje (se tuntee jokaisen kortin): täältä ei voi enää voittaa; ",
    "ca": "Pista perfecta (coneix totes les cartes): des d’aquí ja no es pot guanyar; per fer més"
    " punts, ",
}


@pytest.mark.parametrize("lang", sorted(WHERE_NO_WIN))
def test_a_hint_where_no_win_is_left_still_gives_the_most_points(
    client: TestClient, lang: str
) -> None:
    state = new_game(client, LOST, lang)
    hint = client.get(f"/api/games/{state['id']}/hint?kind=perfect&lang={lang}").json()
    assert hint["winnable"] is False and hint["action"] is not None
    assert hint["message"].startswith(WHERE_NO_WIN[lang])
    action = (
        Action.play(hint["action"]["pos"])
        if hint["action"]["kind"] == "play"
        else Action.parse("draw")
    )
    game = Game.new(LOST)
    after = game.copy()
    after.apply(action)
    assert streak.best_score(after).score == streak.best_score(game).score
    assert send(client, state, action).status_code == 200


def test_hints_followed_to_the_end_make_the_best_score(client: TestClient) -> None:
    code = "TP1-C-OHYPLZE-DJT"
    state = new_game(client, code)
    assert state["discard"] is None and state["score"] == 0
    while state["status"] == "playing":
        hint = client.get(f"/api/games/{state['id']}/hint?kind=perfect").json()
        kind = hint["action"]["kind"]
        action = Action.play(hint["action"]["pos"]) if kind == "play" else Action.parse("draw")
        reply = send(client, state, action)
        assert reply.status_code == 200
        state = reply.json()
    assert state["score"] == streak.best_score(code).score
    assert result_of(client, state["id"])["best_reached"] is True


@pytest.mark.parametrize(
    "options",
    [
        {"scoring": "traditional"},
        {"empty_discard": True, "joker": True},
        {"rules": "classic", "scoring": "traditional", "open_peaks": True, "joker": True},
    ],
)
def test_winnable_only_keeps_the_options_asked_for(
    client: TestClient, options: dict[str, object]
) -> None:
    reply = client.post("/api/games", json={**options, "winnable_only": True})
    assert reply.status_code == 201
    state = reply.json()
    for name in ("scoring", "open_peaks", "empty_discard", "joker"):
        if name in options:
            assert state["variant"][name] == options[name]
    assert state["rules"] == options.get("rules", "easy")
    assert solver.is_winnable(state["code"])
