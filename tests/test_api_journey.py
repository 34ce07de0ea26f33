"""The journey through the API (issue 39; docs/api.md "The journey"), on both databases: a level's
stars and goal judged from its stored actions, forged bodies and replayed requests, locked and
unknown levels, and the map. The levels are read from tripeaks.journey.levels, never written out
here: the data file may be made again.
"""

from __future__ import annotations

import functools
from typing import Any

from fastapi.testclient import TestClient
from test_api_support import api, new_game, play_line, player_of, send, store_of
from winning import find_win

from tripeaks.engine.game import DRAW, UNDO, Action, Game
from tripeaks.journey import stars
from tripeaks.journey.levels import Level, levels

LEVELS = levels()
COOKIE = "tripeaks_player"


def start_level(client: TestClient, n: int, body: Any = None) -> dict[str, Any]:
    reply = client.post(f"/api/journey/levels/{n}", json={} if body is None else body)
    assert reply.status_code == 201, reply.text
    state: dict[str, Any] = reply.json()
    return state


def win_level(
    client: TestClient, n: int, line: tuple[Action, ...] | list[Action] | None = None
) -> dict[str, Any]:
    """Level ``n`` played with ``line`` (its best line unless said) through the API: the last reply."""
    state = start_level(client, n)
    return play_line(client, state, line or LEVELS[n - 1].best_line)[-1]


def reach(client: TestClient, n: int) -> None:
    """Every level before ``n`` done (its best line), so that level ``n`` is open."""
    done = {
        lv["number"] for lv in client.get("/api/journey").json()["levels"] if lv["state"] == "done"
    }
    for k in range(1, n):
        if k not in done:
            assert win_level(client, k)["status"] == "won"


def the_map(client: TestClient) -> dict[str, Any]:
    reply = client.get("/api/journey")
    assert reply.status_code == 200
    found: dict[str, Any] = reply.json()
    return found


@functools.cache
def lines_by_stars() -> dict[int, tuple[Level, tuple[Action, ...]]]:
    """A win of one star and a win of two, each with its level: some draws first, then any win
    the tests' small search finds (more draws than the fewest), judged as the server judges."""
    found: dict[int, tuple[Level, tuple[Action, ...]]] = {}
    for level in LEVELS[:30]:
        if level.traditional or level.code.variant.empty_discard:
            continue
        for draws in range(0, 14, 2):
            game = Game.new(level.code)
            for _ in range(draws):
                game.apply(DRAW)
            rest = find_win(game, limit=20_000)
            if rest is None:
                continue
            line = (DRAW,) * draws + tuple(rest)
            found.setdefault(stars.judge(level, line).stars, (level, line))
        if 1 in found and 2 in found:
            return found
    raise AssertionError(f"no wins of one and two stars among the first levels: {sorted(found)}")


def unmet_goal() -> tuple[Level, tuple[Action, ...]]:
    """A level with a goal and a win of it that does not meet it (the goal's witness does)."""
    for level in LEVELS[:30]:
        if level.goal is None or level.code.variant.empty_discard:
            continue
        candidates = [level.best_line, (DRAW, UNDO, *level.best_line)]  # an undo: a no_undo goal
        rest = find_win(Game.new(level.code), limit=20_000)
        if rest is not None:
            candidates.append(tuple(rest))
        for line in candidates:
            if stars.judge(level, line).goal_met is False:
                return level, line
    raise AssertionError("no win that misses a goal among the first levels")


# The map -----------------------------------------------------------------------------------------


def test_a_new_player_sees_the_fresh_map_and_gets_no_cookie(client: TestClient) -> None:
    journey = the_map(client)
    assert COOKIE not in client.cookies
    assert len(journey["levels"]) == len(LEVELS) >= 120
    assert [lv["number"] for lv in journey["levels"]] == list(range(1, len(LEVELS) + 1))
    assert [lv["state"] for lv in journey["levels"][:3]] == ["open", "locked", "locked"]
    assert journey["next"] == 1 and journey["stars"] == 0
    assert journey["max_stars"] == 3 * len(LEVELS)
    first, level = journey["levels"][0], LEVELS[0]
    assert first["layout"] == level.code.layout.id and first["grade"] == level.grade.value
    assert (first["best_score"], first["fewest_draws"]) == (level.best_score, level.fewest_draws)
    assert first["goal"] == (None if level.goal is None else {"n": None, **level.goal.to_data()})
    assert client.get("/api/achievements").json()["achievements"][0] == {
        "id": "first_win",
        "unlocked": False,
        "unlocked_at": None,
        "progress": 0,
        "target": 1,
    }


def test_a_level_won_by_its_best_line_earns_three_stars_and_opens_the_next(
    client: TestClient,
) -> None:
    level = LEVELS[0]
    state = start_level(client, 1)
    assert state["code"] == str(level.code) and state["level"]["number"] == 1
    assert state["level"]["stars_before"] == 0 and state["level_result"] is None
    won = play_line(client, state, level.best_line)[-1]
    assert won["status"] == "won" and won["score"] == level.best_score
    result = won["level_result"]
    assert result["stars"] == 3 and result["best_stars"] == 3 and result["next"] is None
    assert result["best_score"] == level.best_score and result["next_level"] == 2
    assert result["goal_met"] == (
        None if level.goal is None else stars.judge(level, level.best_line).goal_met
    )
    assert {"id": "first_win"} in won["unlocked"] and {"id": "level_1"} in won["unlocked"]
    again = client.get(f"/api/games/{won['id']}").json()
    assert again["level_result"] == result and again["unlocked"] == []
    journey = the_map(client)
    assert [lv["state"] for lv in journey["levels"][:3]] == ["done", "open", "locked"]
    assert journey["levels"][0]["stars"] == 3 and journey["stars"] == 3 and journey["next"] == 2
    assert start_level(client, 1)["level"]["stars_before"] == 3  # a level is played again


def test_fewer_stars_for_wins_with_more_draws_and_the_best_is_kept(client: TestClient) -> None:
    for count in (1, 2):
        level, line = lines_by_stars()[count]
        reach(client, level.number)
        before = {lv["number"]: lv["stars"] for lv in the_map(client)["levels"]}[level.number]
        result = win_level(client, level.number, line)["level_result"]
        assert result["stars"] == count == stars.judge(level, line).stars
        assert result["best_stars"] == max(before, count)
        following = stars.next_star(level, count)
        assert result["next"] == following and following is not None
        assert following["kind"] == "draws_at_most"
        best = win_level(client, level.number)["level_result"]
        assert (best["stars"], best["best_stars"]) == (3, 3)
        worse = win_level(client, level.number, line)["level_result"]
        assert (worse["stars"], worse["best_stars"]) == (count, 3)  # the best stays
        assert {lv["number"]: lv["stars"] for lv in the_map(client)["levels"]}[level.number] == 3


def test_a_goal_is_met_by_its_witness_and_not_by_a_line_that_misses_it(client: TestClient) -> None:
    level, missing = unmet_goal()
    reach(client, level.number)
    state = start_level(client, level.number)
    assert state["level"]["goal"] == {"n": None, **level.goal.to_data()}  # type: ignore[union-attr]
    assert play_line(client, state, missing)[-1]["level_result"]["goal_met"] is False
    row = {lv["number"]: lv for lv in the_map(client)["levels"]}[level.number]
    assert row["goal_met"] is False and row["state"] == "done"
    witnessed = win_level(client, level.number, level.witness)["level_result"]
    assert witnessed["goal_met"] is True  # the witness meets the goal, judged from its log
    assert witnessed["stars"] == stars.judge(level, level.witness).stars >= 1
    assert win_level(client, level.number, missing)["level_result"]["goal_met"] is False
    row = {lv["number"]: lv for lv in the_map(client)["levels"]}[level.number]
    assert row["goal_met"] is True  # once met, kept


# Nothing a request says is believed ------------------------------------------------------------


def test_a_forged_body_and_a_replayed_request_change_nothing(client: TestClient) -> None:
    level = LEVELS[0]
    forged = {"stars": 3, "score": 999, "goal_met": True, "level": 5}
    state = start_level(client, 1, forged)
    assert state["level"]["number"] == 1 and state["score"] != 999
    *line, last = level.best_line
    for action in line:  # every move with the forged figures beside its own
        body: dict[str, Any] = {"version": state["version"], **forged}
        if action.pos is not None:
            body["pos"] = action.pos
        reply = client.post(f"/api/games/{state['id']}/{action.kind.value}", json=body)
        assert reply.status_code == 200, reply.text
        state = reply.json()
        assert state["level_result"] is None and state["score"] != 999
    assert the_map(client)["stars"] == 0  # not won: nothing earned, whatever was said
    body = {"version": state["version"], "request_id": "the-win", **forged}
    if last.pos is not None:
        body["pos"] = last.pos
    won = client.post(f"/api/games/{state['id']}/{last.kind.value}", json=body)
    again = client.post(f"/api/games/{state['id']}/{last.kind.value}", json=body)
    assert won.status_code == again.status_code == 200
    assert won.json()["level_result"] == again.json()["level_result"]
    assert won.json()["unlocked"] == again.json()["unlocked"] != []
    assert won.json()["level_result"]["stars"] == 3
    store = store_of(client)
    player = player_of(client)
    assert [r.outcome for r in store.results(player)] == ["won"]  # counted once
    wins = {a["id"]: a for a in client.get("/api/achievements").json()["achievements"]}
    assert wins["wins_10"]["progress"] == 1 and wins["stars_100"]["progress"] == 3
    assert [(row.level, row.stars) for row in store.levels(player)] == [(1, 3)]
    assert client.post("/api/journey/levels/3", json=forged).status_code == 403


def test_locked_and_unknown_levels_are_refused_and_change_nothing(client: TestClient) -> None:
    locked = client.post("/api/journey/levels/2", json={})
    assert locked.status_code == 403 and locked.json()["error"]["reason"] == "level_locked"
    assert COOKIE not in client.cookies  # no player was made
    for n in (0, -1, len(LEVELS) + 1, 10_000):
        unknown = client.post(f"/api/journey/levels/{n}", json={})
        assert unknown.status_code == 404 and unknown.json()["error"]["reason"] == "unknown_level"
        assert unknown.json()["error"]["message"]
    assert COOKIE not in client.cookies
    assert client.post("/api/journey/levels/two", json={}).status_code == 422
    playing = new_game(client, str(LEVELS[0].code))
    moved = send(client, playing, LEVELS[0].best_line[0]).json()
    for n in (2, 3, len(LEVELS), len(LEVELS) + 1):
        assert client.post(f"/api/journey/levels/{n}", json={}).status_code in (403, 404)
    still = client.get(f"/api/games/{playing['id']}").json()
    assert still["status"] == "playing" and still["version"] == moved["version"]  # not left
    assert store_of(client).results(player_of(client)) == []
    assert the_map(client)["stars"] == 0


def test_a_level_game_says_its_level_in_every_state_and_other_games_say_none(
    client: TestClient,
) -> None:
    plain = new_game(client)
    assert plain["level"] is None and plain["level_result"] is None and plain["unlocked"] == []
    state = start_level(client, 1)
    moved = send(client, state, LEVELS[0].best_line[0]).json()
    assert moved["level"] == state["level"]
    stale = send(client, state, LEVELS[0].best_line[0])  # the version before: refused
    assert stale.status_code == 409 and stale.json()["state"]["level"] == state["level"]
    assert client.get(f"/api/games/{state['id']}").json()["level"] == state["level"]
    left = client.get(f"/api/games/{plain['id']}").json()
    assert left["status"] == "left" and left["level"] is None


def test_the_map_is_the_players_own_on_every_worker(database: Any) -> None:
    with api(database) as first:
        win_level(first, 1)
        cookie = first.cookies[COOKIE]
    with api(database) as second:  # a restarted server, or another worker
        second.cookies.set(COOKIE, cookie)
        journey = the_map(second)
        assert journey["levels"][0]["state"] == "done" and journey["next"] == 2
        assert start_level(second, 2)["level"]["number"] == 2
