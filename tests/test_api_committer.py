"""The commit thread: replies wait for the commit holding their change, and it survives failures."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from test_api_support import count_commits

from tripeaks.codes import GameCode
from tripeaks.game import DRAW
from tripeaks.store import Change, Store, Unavailable
from tripeaks.web.committer import Committer

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
