"""Achievements from real games (issue 39; docs/journey.md "Achievements"), on both databases:
each one unlocks from games played through the API or the store, its progress counts, and
``unlocked`` is on the reply of the action that counted the game (and its retry) alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_daily import best_line, deal_of, play, start
from test_api_support import WIN_CODE, new_game, on_day, play_line, send, winning_line

from tripeaks import daily, stats
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, ActionKind, Game
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring
from tripeaks.journey import achievements, stars
from tripeaks.journey.levels import levels
from tripeaks.solver import search
from tripeaks.store.core import Storage
from tripeaks.store.policy import LevelTag
from tripeaks.store.sqlite import open_store

LEVELS = levels()


def no_draw_code() -> tuple[GameCode, list[Action]]:
    """A Classic deal (a TP2 code: the whole deck written out) whose table is one run from the
    discard up to the king, down to the ace and up again: won with no draw, bottom row first."""
    ranks = [*range(2, 14), *range(12, 0, -1), *range(2, 6)]
    order = [*range(18, 28), *range(9, 18), *range(3, 9), *range(3)]
    used: dict[int, int] = {}

    def take(rank: int) -> int:
        used[rank] = used.get(rank, 0) + 1
        return (used[rank] - 1) * 13 + rank - 1

    table = [0] * len(order)
    for pos, rank in zip(order, ranks, strict=True):
        table[pos] = take(rank)
    discard = take(1)
    deck = [*table, discard, *(c for c in range(52) if c not in table and c != discard)]
    return GameCode.from_deck(deck, Rules.CLASSIC), [Action.play(pos) for pos in order]


def progress(client: TestClient) -> dict[str, dict[str, Any]]:
    reply = client.get("/api/achievements")
    assert reply.status_code == 200
    listed = reply.json()["achievements"]
    assert [a["id"] for a in listed] == [a.id for a in achievements.listed()]
    return {a["id"]: a for a in listed}


def ids(state: dict[str, Any]) -> set[str]:
    return {a["id"] for a in state["unlocked"]}


def test_at_least_twenty_achievements_each_with_a_target() -> None:
    listed = achievements.listed()
    assert len(listed) >= 20 and len({a.id for a in listed}) == len(listed)
    assert all(a.target >= 1 for a in listed)
    assert achievements.targets()["levels_all"] == len(LEVELS)
    assert achievements.targets()["every_layout"] == len(LAYOUTS) == 7


def test_a_first_win_unlocks_once_and_only_its_reply_and_retry_say_so(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    *line, last = winning_line()
    state = play_line(client, state, line)[-1] if line else state
    assert state["unlocked"] == []  # no move before the win counted anything
    won = send(client, state, last, request_id="win")
    again = send(client, state, last, request_id="win")  # a retry after a lost reply
    assert won.status_code == again.status_code == 200
    assert "first_win" in ids(won.json()) and won.json()["unlocked"] == again.json()["unlocked"]
    assert client.get(f"/api/games/{won.json()['id']}").json()["unlocked"] == []
    first = progress(client)
    assert first["first_win"]["unlocked"] and first["first_win"]["unlocked_at"]
    assert first["wins_10"] == {**first["wins_10"], "progress": 1, "unlocked": False}
    second = play_line(client, new_game(client, WIN_CODE), winning_line())[-1]
    assert "first_win" not in ids(second)  # once
    later = progress(client)
    assert later["wins_10"]["progress"] == 2 and later["win_streak_5"]["progress"] == 2
    assert later["first_win"]["unlocked_at"] == first["first_win"]["unlocked_at"]


def test_a_win_without_a_draw_in_one_run(client: TestClient) -> None:
    code, line = no_draw_code()
    won = play_line(client, new_game(client, str(code)), line)[-1]
    assert won["status"] == "won"
    unlocked = ids(won)
    assert {"first_win", "half_stock_win", "classic_no_undo", "run_10", "run_20"} <= unlocked
    assert "perfect_score" in unlocked  # no win scores more than one without a draw
    shown = progress(client)
    assert shown["run_20"] == {**shown["run_20"], "progress": 20, "unlocked": True}


def fewest_draws_deal(at_most: bool) -> tuple[GameCode, list[Action]]:
    """The first Easy deal whose best win draws at most half its stock (or more, not ``at_most``),
    with that win."""
    for number in range(1, 400):
        code = GameCode.from_number(number * 7919 + 13, Rules.EASY)
        line = list(search.solve(code).line)
        draws = sum(action.kind is ActionKind.DRAW for action in line)
        stock = len(Game.new(code).deal.stock)
        if line and (2 * draws <= stock) is at_most:
            return code, line
    raise AssertionError("no such deal among the first 400")


@pytest.mark.parametrize("spared", [True, False])
def test_half_the_stock_spared_counts_the_draws_of_the_win(
    client: TestClient, spared: bool
) -> None:
    code, line = fewest_draws_deal(spared)
    won = play_line(client, new_game(client, str(code)), line)[-1]
    assert won["status"] == "won"
    assert ("half_stock_win" in ids(won)) is spared
    assert progress(client)["half_stock_win"]["unlocked"] is spared


def test_a_loss_counts_on_the_reply_of_the_game_that_left_it(client: TestClient) -> None:
    code, line = no_draw_code()
    played = play_line(client, new_game(client, str(code)), line[:12])[-1]
    assert played["longest_streak"] == 12 and played["unlocked"] == []
    after = new_game(client)  # leaves it, with a move: a loss, counted now
    assert ids(after) == {"run_10"}
    shown = progress(client)
    assert shown["run_20"]["progress"] == 12 and not shown["run_20"]["unlocked"]
    assert shown["wins_10"]["progress"] == 0 and shown["win_streak_5"]["progress"] == 0
    assert new_game(client)["unlocked"] == []  # the untouched game it left counts for nothing


def test_the_daily_achievements(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    first = daily.today()
    for offset in range(7):
        day = first + timedelta(days=offset)
        on_day(monkeypatch, day)
        won = play(client, start(client), best_line(deal_of(client, day).code))
        assert won["status"] == "won"
        if offset == 0:
            assert "daily_first" in ids(won)
        if offset == 2:
            assert progress(client)["daily_7"]["progress"] == 3
        if offset == 6:
            assert "daily_7" in ids(won)
    shown = progress(client)
    assert shown["daily_7"]["unlocked"] and shown["daily_first"]["unlocked"]


# Through the store: many games ------------------------------------------------------------------


@contextmanager
def journey_store(database: str | Path) -> Iterator[Storage]:
    """A store with the app's policy, the journey's part included."""
    store = open_store(database, daily.Policy(stats.judge, stats.count, achievements.Keeper()))
    try:
        yield store
    finally:
        store.close()


def played(
    store: Storage, player: str, code: GameCode, line: Sequence[Action], level: int | None = None
) -> Game:
    """One game of ``line``, staged action by action and committed at its end."""
    created = store.create(player, code, None if level is None else LevelTag(level))
    game = created.game
    for version, action in enumerate(line):
        game = store.stage_apply(created.id, player, action, version).game
    store.flush()
    return game


def test_a_win_streak_counts_wins_in_a_row(database: str | Path) -> None:
    code = GameCode.parse(WIN_CODE)
    with journey_store(database) as store:
        for _ in range(4):
            assert played(store, "p", code, winning_line()).is_won
        played(store, "p", code, winning_line()[:1])  # a move, then left: a loss
        for _ in range(4):
            played(store, "p", code, winning_line())
        kept = store.achievements("p")
        assert (kept["win_streak_5"].progress, kept["win_streak_5"].bits) == (4, 4)
        assert kept["win_streak_5"].unlocked_at is None
        assert kept["wins_10"].progress == 8 and kept["wins_10"].unlocked_at is None
        played(store, "p", code, winning_line())
        kept = store.achievements("p")
        assert kept["win_streak_5"].progress == 5 and kept["win_streak_5"].unlocked_at
        played(store, "p", code, winning_line())
        assert store.achievements("p")["wins_10"].unlocked_at is not None
        assert [r.outcome for r in store.results("p")].count("lost") == 1


def test_the_whole_journey_unlocks_the_journeys_achievements(database: str | Path) -> None:
    """Every level won by its best line, and by its witness where that is another line: every
    level done with three stars, every goal met; the rest is what those games' logs make."""
    lines: list[tuple[int, tuple[Action, ...]]] = []
    for level in LEVELS:
        lines.append((level.number, level.best_line))
        if level.witness != level.best_line:
            lines.append((level.number, level.witness))
    with journey_store(database) as store:
        games = [played(store, "p", LEVELS[n - 1].code, line, n) for n, line in lines]
        kept = store.achievements("p")
        rows = store.levels("p")
    assert all(game.is_won for game in games)
    assert [(r.level, r.stars) for r in rows] == [(lv.number, 3) for lv in LEVELS]
    assert all(r.goal_met == (LEVELS[r.level - 1].goal is not None) for r in rows)
    unlocked = {name for name, row in kept.items() if row.unlocked_at is not None}
    always = {
        "first_win",
        "wins_10",
        "wins_100",
        "win_streak_5",
        "perfect_score",
        "hard_no_hints",
        "every_layout",
        "every_option",
        "level_1",
        "levels_25",
        "levels_all",
        "three_stars_20",
        "stars_100",
        "goals_10",
    }
    assert len(games) >= 100 and sum(lv.goal is not None for lv in LEVELS) >= 10
    runs = max(game.longest_streak for game in games)
    traditional = [g.score for g in games if g.variant.scoring is Scoring.TRADITIONAL]
    classic_clean = any(
        g.rules is Rules.CLASSIC and all(a.kind is not ActionKind.UNDO for a in g.actions)
        for g in games
    )
    expected = always | {
        name
        for name, earned in (
            ("run_10", runs >= 10),
            ("run_20", runs >= 20),
            ("traditional_300", max(traditional, default=0) >= 300),
            ("classic_no_undo", classic_clean),
            ("half_stock_win", any(g.stock_size >= g.drawn for g in games)),
        )
        if earned
    }
    assert unlocked == expected
    assert kept["levels_all"].progress == len(LEVELS)
    assert kept["stars_100"].progress == 100  # never past its target
    assert kept["wins_100"].progress == 100
    assert kept["run_20"].progress == min(20, runs)
    assert stars.MAX_STARS * len(LEVELS) >= 100
