"""Hints, winnable deals and the deal's verdict once a game is over, through the API."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import STUCK_CODE, WIN_CODE, api, new_game, play_line, send, winning_line

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, Action, Game
from tripeaks.engine.rules import Rules
from tripeaks.solver import explain
from tripeaks.solver import search as solver
from tripeaks.web.backend import solver_worker
from tripeaks.web.backend.solving import Solvers

HANG = 300.0
"""Seconds after which a search that never ends fails the test instead of hanging the run."""


@pytest.fixture
def client(database: str | Path) -> Iterator[TestClient]:
    with api(database) as c:
        yield c


def result_of(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game's ``result``: read the game, and while it has none wait for the search under way.

    Reading a finished game asks for its verdict, so a read without one leaves a search pending,
    unless that read found the worker dead; the next read then starts a new one. Each turn of the
    loop waits for one such event, never for a length of time.
    """
    solvers = solvers_of(client)
    for _ in range(10):
        state = client.get(f"/api/games/{game_id}").json()
        if state["result"] is not None:
            found: dict[str, Any] = state["result"]
            return found
        with solvers._lock:
            search = solvers._pending.get(state["code"])
        if search is not None:
            settled = threading.Event()  # set after the app's own callback has kept the verdict
            search.add_done_callback(lambda _, settled=settled: settled.set())
            assert settled.wait(HANG), "a verdict search that never ends"
    raise AssertionError("the verdict search kept failing")


def test_a_won_game_gets_the_deals_best_score(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    final = play_line(client, state, winning_line())[-1]
    result = result_of(client, state["id"])
    best = solver.solve(WIN_CODE)
    reached = final["score"] >= best.final_score
    grade = explain.grade(WIN_CODE).value  # the deal's grade, which never changes
    assert result == {
        "winnable": True,
        "best_score": best.final_score,
        "best_reached": reached,
        "grade": grade,
    }
    assert result["best_score"] >= final["score"]


def test_a_playing_game_has_no_result(client: TestClient) -> None:
    state = new_game(client, WIN_CODE)
    assert client.get(f"/api/games/{state['id']}").json()["result"] is None


def test_the_first_hint_starts_a_win(client: TestClient) -> None:
    state = new_game(client, WIN_CODE, "fi")
    hint = client.get(f"/api/games/{state['id']}/hint?kind=perfect&lang=fi").json()
    assert hint["winnable"] is True
    action = Action.play(hint["action"]["pos"]) if hint["action"]["kind"] == "play" else DRAW
    game = Game.new(WIN_CODE)
    game.apply(action)
    assert solver.is_winnable(game)
    assert hint["message"].startswith("Täydellinen vihje (se tuntee jokaisen kortin): ")
    assert send(client, state, action).status_code == 200


def test_hints_in_a_stuck_and_a_won_game(client: TestClient) -> None:
    stuck = play_line(client, new_game(client, STUCK_CODE, "ca"), [DRAW] * 23)[-1]
    hint = client.get(f"/api/games/{stuck['id']}/hint?kind=perfect&lang=ca").json()
    assert hint["winnable"] is False and hint["action"] is None
    assert hint["message"].startswith("Des d'aquí cap moviment")
    won = play_line(client, new_game(client, WIN_CODE), winning_line())[-1]
    hint = client.get(f"/api/games/{won['id']}/hint?kind=perfect").json()
    assert hint == {
        "winnable": True,
        "action": None,
        "message": "The game is already won.",
        "kind": "perfect",
        "chance": None,
        "samples": None,
    }


@pytest.mark.parametrize("rules", ["easy", "classic"])
def test_winnable_only_deals_can_be_won(client: TestClient, rules: str) -> None:
    reply = client.post("/api/games", json={"rules": rules, "winnable_only": True})
    assert reply.status_code == 201
    code = reply.json()["code"]
    assert reply.json()["rules"] == rules
    assert solver.is_winnable(code, Rules[rules.upper()])


def test_a_dead_worker_fails_no_reply_and_is_replaced(client: TestClient) -> None:
    """A killed worker breaks its pool; replies still succeed and a new worker answers."""
    solvers = solvers_of(client)
    pool = started(solvers)
    for pid in worker_pids(solvers):
        os.kill(pid, signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):  # at once, or as soon as the pool sees the death
        pool.submit(time.sleep, 0).result(timeout=HANG)
    state = new_game(client, WIN_CODE)
    assert hint_of(client, state)["winnable"] is True  # the hint goes to a new worker at once
    assert solvers._pool is not pool
    final = play_line(client, state, winning_line())[-1]  # every reply 200, near the end too
    assert final["status"] == "won"
    assert result_of(client, state["id"])["winnable"] is True


def test_hints_and_the_verdict_of_a_deal_share_one_preparation(client: TestClient) -> None:
    """The worker prepared the deal's answers once: for its first hint, not again for the rest."""
    state = new_game(client, WIN_CODE)
    states = play_line(client, state, winning_line()[:-1])
    for step in (state, *states[::5]):
        assert hint_of(client, step)["winnable"] is True
    assert result_of(client, play_line(client, states[-1], winning_line()[-1:])[-1]["id"])
    assert started(solvers_of(client)).submit(solver_worker.counts).result(timeout=HANG) == (1, 1)


def test_closing_the_app_ends_its_workers(tmp_path: Path) -> None:
    """Leaving the client runs the app's lifespan: the workers have exited, not just been told to."""
    with api(tmp_path / "games.db") as client:
        solvers = solvers_of(client)
        state = new_game(client, WIN_CODE)
        assert client.get(f"/api/games/{state['id']}/hint?kind=perfect").json()["winnable"] is True
        play_line(client, state, winning_line())  # near the end: a verdict is asked for too
        pids = worker_pids(solvers)
        assert len(pids) == 1
        for pid in pids:
            os.kill(pid, 0)  # alive
    for pid in pids:  # exited and reaped: no such process any more
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(RuntimeError, match="closed"):
        solvers.deal_result(GameCode.parse(WIN_CODE))
    solvers.close()  # a second close is harmless


BUSY = "import socket, time; socket.create_connection(('127.0.0.1', {port})); time.sleep({seconds})"
"""Run in a worker: say it has started, then keep the worker busy."""


def test_close_does_not_wait_for_a_search_and_the_hint_waiting_gets_none() -> None:
    solvers = Solvers()
    pool = started(solvers)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(HANG)
        port = listener.getsockname()[1]
        # a search that would hold close() past the guard; it calls us once it is under way
        busy = pool.submit(exec, BUSY.format(port=port, seconds=HANG))
        listener.accept()[0].close()
    (pid,) = worker_pids(solvers)

    async def ask_then_close() -> tuple[bool, Action | None] | None:
        asking = asyncio.ensure_future(solvers.hint(Game.new(WIN_CODE)))
        await asyncio.sleep(0)  # the hint is queued behind the busy worker now
        assert len(pool._pending_work_items) == 2
        await asyncio.to_thread(solvers.close)
        return await asking

    with ThreadPoolExecutor(1) as thread:  # a browser test in this worker may own a running loop
        assert thread.submit(lambda: asyncio.run(ask_then_close())).result() is None
    assert isinstance(busy.exception(timeout=0), BrokenProcessPool)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_two_apps_have_their_own_workers(tmp_path: Path) -> None:
    with api(tmp_path / "one.db") as one:
        with api(tmp_path / "two.db") as two:
            hints = [hint_of(c, new_game(c, WIN_CODE)) for c in (one, two)]
            assert hints[0] == hints[1]
            (mine,) = worker_pids(solvers_of(one))
            (theirs,) = worker_pids(solvers_of(two))
            assert mine != theirs
        with pytest.raises(ProcessLookupError):
            os.kill(theirs, 0)  # the second app's worker is gone with it...
        assert hint_of(one, new_game(one, WIN_CODE)) == hints[0]  # ...the first's still answers
        assert worker_pids(solvers_of(one)) == [mine]


# Helpers --------------------------------------------------------------------------------------


def solvers_of(client: TestClient) -> Solvers:
    solvers: Solvers = client.app.state.backend.solvers  # type: ignore[attr-defined]
    return solvers


def started(solvers: Solvers) -> ProcessPoolExecutor:
    """The app's worker, spawned now if need be and ready for work."""
    with solvers._lock:
        pool = solvers._executor()
    pool.submit(time.sleep, 0).result(timeout=HANG)
    return pool


def worker_pids(solvers: Solvers) -> list[int]:
    pool = solvers._pool
    processes = {} if pool is None else pool._processes or {}
    return [worker.pid for worker in processes.values() if worker.pid is not None]


def hint_of(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    reply = client.get(f"/api/games/{state['id']}/hint?kind=perfect")
    assert reply.status_code == 200, reply.text
    found: dict[str, Any] = reply.json()
    return found
