"""The commit thread: replies wait for the commit holding their change, whatever is staged is
written even if nobody waits for it, and it survives failures."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from test_api_support import BASE_URL, count_commits

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW
from tripeaks.store.core import Change, Unavailable
from tripeaks.store.sqlite import Store, open_store
from tripeaks.web.app import create_app
from tripeaks.web.backend.committer import Committer

T = TypeVar("T")
CODE = GameCode.parse("TP1-E-AAAAAAB")


def run(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """asyncio.run in a thread of its own: another test in this worker may own a running loop."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(lambda: asyncio.run(main())).result()


def player(i: int) -> str:
    return f"{i:022d}"


def draw(store: Store, game_id: str, version: int, who: str) -> Future[None]:
    return store.stage_apply(game_id, who, DRAW, version).done


def eventually(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Whether ``check`` comes true within a generous deadline (polled; no timing asserted)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def stored_actions(db: str | Path, game_id: str) -> list[str]:
    """The game's log as a fresh store on the database reads it (a restarted server)."""
    store = open_store(db)
    try:
        return [str(a) for a in store.actions(game_id)]
    finally:
        store.close()


def test_every_waiter_returns_after_its_commit_and_commits_are_shared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "games.db")
    committer = Committer(store)
    games = [(store.create(player(i), CODE).id, player(i)) for i in range(30)]
    batches = count_commits(monkeypatch)

    async def everyone() -> None:
        async def one(game_id: str, who: str) -> None:
            for version in range(5):
                await committer.durable(draw(store, game_id, version, who))
                committed = Store(tmp_path / "games.db")  # what a restarted server would read
                assert len(committed.actions(game_id)) == version + 1
                committed.close()

        await asyncio.gather(*(one(g, who) for g, who in games))

    run(everyone)
    assert sum(batches) == 30 * 5
    assert max(batches) > 1, "changes staged during a commit should share the next one"


def test_a_failed_commit_fails_exactly_its_waiters_and_the_next_commit_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a later, unrelated commit answered changes lost with a failed one as saved."""
    store = Store(tmp_path / "games.db")
    committer = Committer(store)
    lost, kept = store.create(player(1), CODE).id, store.create(player(2), CODE).id
    flush = Store.flush
    failing = [True]

    def commit_fails_once(self: Store) -> list[Change]:
        if failing:
            failing.clear()
            real = self._writer

            class FullDisk:
                def execute(self, sql: str, *args: Any) -> Any:
                    if sql == "COMMIT":
                        raise sqlite3.OperationalError("database or disk is full")
                    return real.execute(sql, *args)

                in_transaction = property(lambda _self: real.in_transaction)

            self._writer = FullDisk()  # type: ignore[assignment]
            try:
                return flush(self)
            finally:
                self._writer = real
        return flush(self)

    monkeypatch.setattr(Store, "flush", commit_fails_once)

    async def two_tries() -> None:
        with pytest.raises(Unavailable, match="disk is full"):
            await committer.durable(draw(store, lost, 0, player(1)))
        await committer.durable(draw(store, kept, 0, player(2)))
        await committer.durable(draw(store, lost, 0, player(1)))  # the page's retry

    run(two_tries)
    again = Store(tmp_path / "games.db")
    assert [str(a) for a in again.actions(lost)] == ["draw"]
    assert [str(a) for a in again.actions(kept)] == ["draw"]


def test_a_closed_event_loop_does_not_stop_the_commit_thread(tmp_path: Path) -> None:
    """A waiter whose event loop is gone (an ended test client) is skipped, not fatal."""
    store = Store(tmp_path / "games.db")
    committer = Committer(store)
    game = store.create(player(0), CODE).id
    entered, release = threading.Event(), threading.Event()
    flush = store.flush

    def slow_flush() -> list[Change]:
        entered.set()
        release.wait(10)
        return flush()

    store.flush = slow_flush  # type: ignore[method-assign]

    async def abandon() -> None:
        task = asyncio.create_task(committer.durable(draw(store, game, 0, player(0))))
        await asyncio.to_thread(entered.wait, 10)
        task.cancel()

    run(abandon)  # its loop is closed now, while the commit is still being made
    release.set()

    async def later() -> None:
        await asyncio.wait_for(committer.durable(draw(store, game, 1, player(0))), 10)

    run(later)
    assert [str(a) for a in Store(tmp_path / "games.db").actions(game)] == ["draw", "draw"]


def test_a_change_nobody_waits_for_is_flushed_and_the_thread_restarts_for_the_next(
    tmp_path: Path,
) -> None:
    """Regression: a staged change was written only when some request awaited ``durable``."""
    db = tmp_path / "games.db"
    store = Store(db)
    committer = Committer(store)
    game = store.create(player(0), CODE).id
    first = draw(store, game, 0, player(0))  # staged; nobody ever calls committer.durable
    assert eventually(lambda: stored_actions(db, game) == ["draw"]), stored_actions(db, game)
    assert eventually(first.done) and first.exception() is None  # settled just after the COMMIT
    # the commit thread ends after a second with nothing staged, and the next change starts it
    assert eventually(lambda: committer._thread is None), "the commit thread should end when idle"
    second = draw(store, game, 1, player(0))
    assert eventually(lambda: stored_actions(db, game) == ["draw", "draw"])
    assert eventually(second.done) and second.exception() is None  # settled just after the COMMIT


def test_a_request_cancelled_while_its_action_is_staged_still_stores_it(
    database: str | Path,
) -> None:
    """The client goes away while the action is being staged: nobody waits for it, it is stored.

    On PostgreSQL a game that is not cached is staged in a worker thread (Backend.stored) and
    the request is cancelled while it is, so the route never reaches ``durable``. A cached game
    is staged inline on the event loop (``stage_apply_cached``; on SQLite always), so the request
    is cancelled from there, right after staging: the cancellation lands at the wait for the
    commit."""
    app = create_app(database)
    store = app.state.backend.store
    staged, go_on = threading.Event(), threading.Event()
    staging = "stage_apply" if store.shared else "stage_apply_cached"
    stage = getattr(store, staging)

    def stage_then_hold(*args: Any, **kwargs: Any) -> Any:
        applied = stage(*args, **kwargs)
        staged.set()
        if store.shared:  # in a worker thread: the request is cancelled meanwhile
            go_on.wait(10)
        else:  # inline, in the request's task: it ends at its next wait, before any reply
            task = asyncio.current_task()
            assert task is not None
            task.cancel()
        return applied

    setattr(store, staging, stage_then_hold)

    async def go_away() -> str:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as client:
                reply = await client.post("/api/games", json={})
                assert reply.status_code == 201, reply.text
                game_id: str = reply.json()["id"]
                if store.shared:
                    store._cache.clear()  # not cached: staged in a worker thread, after a read
                request = asyncio.create_task(
                    client.post(f"/api/games/{game_id}/draw", json={"version": 0})
                )
                assert await asyncio.to_thread(staged.wait, 10)
                request.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await request
                go_on.set()
                # the app is still up (its store open) while the change is flushed
                assert await asyncio.to_thread(
                    eventually, lambda: stored_actions(database, game_id) == ["draw"]
                ), stored_actions(database, game_id)
                return game_id

    try:
        game_id = run(go_away)
    finally:
        go_on.set()
    assert stored_actions(database, game_id) == ["draw"]


def test_changes_staged_during_a_flush_all_go_into_the_next_single_flush(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telling the committer of every change costs no flush of its own: N changes staged while
    a commit is being written share the next one, and nothing else is flushed."""
    store = Store(tmp_path / "games.db")
    committer = Committer(store)
    games = [(store.create(player(i), CODE).id, player(i)) for i in range(11)]
    batches = count_commits(monkeypatch)
    entered, release = threading.Event(), threading.Event()
    write = store._write

    def slow_write(batch: list[Change]) -> list[Change]:
        entered.set()  # this flush has taken its batch: whatever is staged now waits
        release.wait(10)
        return write(batch)

    store._write = slow_write  # type: ignore[method-assign]
    game_id, who = games[0]
    first = draw(store, game_id, 0, who)
    assert entered.wait(10)
    rest = [draw(store, game_id, 0, who) for game_id, who in games[1:]]
    release.set()
    done, _pending = wait([first, *rest], timeout=10)
    assert len(done) == len(games)
    assert all(change.exception() is None for change in done)
    assert eventually(lambda: committer._thread is None)  # idle: no flush is left to come
    assert batches == [1, len(rest)]
