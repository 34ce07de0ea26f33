"""The commit thread: replies wait for the commit holding their change, and it survives failures."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from test_api_support import count_commits

from tripeaks.codes import GameCode
from tripeaks.game import DRAW
from tripeaks.store import Store
from tripeaks.web.committer import Committer

T = TypeVar("T")
CODE = GameCode.parse("TP1-E-AAAAAAB")


def run(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """asyncio.run in a thread of its own: another test in this worker may own a running loop."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(lambda: asyncio.run(main())).result()


def draw(store: Store, game_id: str, version: int) -> int:
    _reply, ticket = store.stage_apply(game_id, "p", DRAW, version, lambda g, a: g.apply(a))
    return ticket


def test_every_waiter_returns_after_its_commit_and_commits_are_shared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "games.db")
    committer = Committer(store)
    games = [store.create("p", CODE).id for _ in range(30)]
    batches = count_commits(monkeypatch)

    async def everyone() -> None:
        async def one(game_id: str) -> None:
            for version in range(5):
                ticket = draw(store, game_id, version)
                await committer.durable_after(ticket)
                assert committer.durable >= ticket
                committed = Store(tmp_path / "games.db")  # what a restarted server would read
                assert len(committed.actions(game_id)) == version + 1
                committed.close()

        await asyncio.gather(*(one(g) for g in games))

    run(everyone)
    assert sum(batches) == 30 * 5
    assert max(batches) > 1, "changes staged during a commit should share the next one"


def test_a_failed_commit_fails_its_waiters_and_the_next_commit_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(tmp_path / "games.db")
    committer = Committer(store)
    game = store.create("p", CODE).id
    flush = Store.flush
    failures = [OSError("disk full")]

    def failing_once(self: Store) -> int:
        if failures:
            with self._lock:  # what the store does on a failed commit: nothing staged survives
                self._staged.clear()
            raise failures.pop()
        return flush(self)

    monkeypatch.setattr(Store, "flush", failing_once)

    async def two_tries() -> None:
        with pytest.raises(OSError, match="disk full"):
            await committer.durable_after(draw(store, game, 0))
        store._drop(store._cache[game])  # the store forgets a game whose change was lost
        await committer.durable_after(draw(store, game, 0))

    run(two_tries)
    assert [str(a) for a in Store(tmp_path / "games.db").actions(game)] == ["draw"]


def test_a_closed_event_loop_does_not_stop_the_commit_thread(tmp_path: Path) -> None:
    """A waiter whose event loop is gone (an ended test client) is skipped, not fatal."""
    store = Store(tmp_path / "games.db")
    committer = Committer(store)
    game = store.create("p", CODE).id
    entered, release = threading.Event(), threading.Event()
    flush = store.flush

    def slow_flush() -> int:
        entered.set()
        release.wait(10)
        return flush()

    store.flush = slow_flush  # type: ignore[method-assign]

    async def abandon() -> None:
        task = asyncio.create_task(committer.durable_after(draw(store, game, 0)))
        await asyncio.to_thread(entered.wait, 10)
        task.cancel()

    run(abandon)  # its loop is closed now, while the commit is still being made
    release.set()

    async def later() -> None:
        await asyncio.wait_for(committer.durable_after(draw(store, game, 1)), 10)

    run(later)
    assert [str(a) for a in Store(tmp_path / "games.db").actions(game)] == ["draw", "draw"]
