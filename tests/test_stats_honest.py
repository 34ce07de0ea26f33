"""Honest statistics through /api/stats, on SQLite and PostgreSQL: wins out of the deals that
could be won (the solver's verdict, counted with each game), the share of the best score
reached, and wins with hints counted apart from wins without."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import WIN_CODE, new_game, play_line, send, winning_line

from tripeaks import stats as stats_module
from tripeaks.engine.codes import GameCode
from tripeaks.engine.rules import Rules
from tripeaks.solver import explain
from tripeaks.solver import search as solver


def lost_deal() -> str:
    """An Easy deal the solver proves cannot be won."""
    for number in range(1000, 100_000):
        code = GameCode.from_number(number, Rules.EASY)
        if not solver.is_winnable(code):
            return str(code)
    raise AssertionError("no lost deal found")


def easy(client: TestClient) -> dict[str, Any]:
    stats: dict[str, Any] = client.get("/api/stats").json()["easy"]
    return stats


def test_wins_out_of_winnable_deals_best_share_and_hints_apart(client: TestClient) -> None:
    best = solver.solve(WIN_CODE).final_score
    assert best is not None
    plain = play_line(client, new_game(client, WIN_CODE), winning_line())[-1]
    hinted = new_game(client, WIN_CODE)
    assert client.get(f"/api/games/{hinted['id']}/hint").status_code == 200
    assert client.get(f"/api/games/{hinted['id']}/hint").status_code == 200  # still one game
    hinted_won = play_line(client, hinted, winning_line())[-1]
    hopeless = new_game(client, lost_deal())
    assert send(client, hopeless, "draw").status_code == 200
    new_game(client)  # leaves the hopeless one: counted lost, but it could never be won
    stats = easy(client)
    assert (stats["played"], stats["won"]) == (3, 2)
    assert (stats["winnable_played"], stats["winnable_won"]) == (2, 2)
    assert (stats["won_with_hints"], stats["won_without_hints"]) == (1, 1)
    shares = [min(1000, round(1000 * s / best)) for s in (plain["score"], hinted_won["score"])]
    assert stats["best_share"] == round(sum(shares) / 2 / 1000, 4)


def test_a_player_without_games_has_no_share(client: TestClient) -> None:
    stats = easy(client)
    assert stats["winnable_played"] == 0 and stats["best_share"] is None


def test_a_win_keeps_the_solver_workers_verdict_and_judges_nothing_under_the_lock(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The verdict was asked of the worker near the game's end: the store keeps that one rather
    than searching and grading the deal again while it holds its lock."""
    backend = client.app.state.backend  # type: ignore[attr-defined]
    line = winning_line()
    game = play_line(client, new_game(client, WIN_CODE), line[:-1])[-1]
    deadline = time.monotonic() + 20
    while backend.solvers.known_verdict(GameCode.parse(WIN_CODE)) is None:
        assert time.monotonic() < deadline, "the worker never gave its verdict"
        client.get(f"/api/games/{game['id']}")  # asks for it again if the queue was full
        time.sleep(0.05)

    def in_process(code: GameCode) -> None:
        raise AssertionError(f"{code} searched or graded in the web process")

    stats_module.judge.cache_clear()
    monkeypatch.setattr("tripeaks.solver.search.solve", in_process)
    monkeypatch.setattr("tripeaks.solver.explain.grade", in_process)
    won = play_line(client, game, line[-1:])[-1]
    assert won["status"] == "won"
    stats = easy(client)
    assert (stats["winnable_played"], stats["winnable_won"]) == (1, 1)
    monkeypatch.undo()
    grade = explain.grade(WIN_CODE).value
    assert stats["by_grade"][grade] == {"played": 1, "won": 1}
