"""The solver behind hints, ``result`` and winnable deals, kept off the request path.

A whole deal can take the solver a second or more, so searches run in worker processes (the GIL
would otherwise stall every other player's request): one for hints, which a player waits for, and
one at low priority for verdicts. A deal's verdict never changes, so it is computed once per code,
in the background, from the moment a game nears its end; no reply waits for it, and ``result`` is
null until it is known.

All of it belongs to one :class:`Solvers`, which the app makes with itself and closes when it
stops: two apps in one process (the tests make many) have their own workers and verdicts.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal, TypeVar

from tripeaks import solver
from tripeaks.codes import GameCode
from tripeaks.game import Action, Game
from tripeaks.rules import Rules
from tripeaks.web import solver_worker
from tripeaks.web.models import ResultOut

PENDING_MAX = 16
"""Deals waiting for a verdict; beyond this a finished game simply gets its result later."""
HINT_TIMEOUT = 20.0

T = TypeVar("T")
Kind = Literal["hint", "verdict"]
Verdict = tuple[bool, int | None]


class Solvers:
    """The worker processes of one app and the verdicts they found.

    Nothing starts with the object: each worker is spawned by the first search of its kind. A
    worker that dies (killed, out of memory) is replaced by the next search; one that outlives the
    server, even a SIGKILLed one, ends itself within half a second.

    :meth:`close` ends the workers and waits until they are gone. It is the object's end: any later
    use raises ``RuntimeError`` rather than quietly spawning workers nobody would close.
    """

    def __init__(self, *, idle_verdicts: bool = True) -> None:
        self.idle_verdicts = idle_verdicts
        """Verdicts at idle CPU priority (see solver_worker.idle_priority). False where every core
        is kept busy on purpose, as in a test run: "idle" there can mean minutes (50 ms of CPU took
        16 s beside four busy loops on two cores)."""
        self._lock = threading.RLock()
        """Reentrant: a future that is already done runs its callback at once, under the lock."""
        self._pools: dict[Kind, ProcessPoolExecutor] = {}
        self._results: dict[str, ResultOut] = {}
        self._pending: dict[str, Future[Verdict]] = {}
        self._closed = False

    def deal_result(self, code: GameCode) -> ResultOut | None:
        """The deal's verdict from its start under its rules if known; otherwise start working on it.

        Never waits: call it early (near a game's end) so the verdict is there when it is over.
        """
        key = str(code)
        with self._lock:
            self._check_open()
            known = self._results.get(key)
            if known is not None or key in self._pending or len(self._pending) >= PENDING_MAX:
                return known
            future = self._submit("verdict", solver_worker.solve_deal, key)
            if future is not None:
                self._pending[key] = future
                future.add_done_callback(lambda done: self._settle(key, done))
            return None

    async def hint(self, game: Game) -> tuple[bool, Action | None] | None:
        """(winnable from here, the first move of a best win).

        None when there is no answer this time: not within HINT_TIMEOUT, or the worker died (the
        next hint gets a new one). The game itself is never touched: the worker replays its code
        and actions.
        """
        if game.code is None:
            return None
        with self._lock:
            self._check_open()
            future = self._submit(
                "hint", solver_worker.hint, str(game.code), tuple(map(str, game.actions))
            )
        if future is None:
            return None
        try:
            text = await asyncio.wait_for(asyncio.wrap_future(future), HINT_TIMEOUT)
        except TimeoutError:
            return None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the request itself is cancelled
            return None  # close() cancelled the search before it started
        except Exception:  # a broken worker: no hint this time, the game itself is unharmed
            return None
        action = None if text is None else Action.parse(text)
        return action is not None, action

    def winnable_code(self, rules: Rules) -> GameCode | None:
        """A random deal proved winnable under ``rules``, None if none turned up (never seen).

        The search stops at the first win, which is quick, so it runs in the calling thread (the
        app calls this in its thread pool) and not in a worker.
        """
        with self._lock:
            self._check_open()
        try:
            return solver.random_winnable_code(rules)
        except RuntimeError:
            return None

    def close(self) -> None:
        """Terminate the workers and wait until they have exited; again, it does nothing.

        A search in progress is not worth waiting for: its future fails, and a hint awaiting it
        gets None.
        """
        with self._lock:
            self._closed = True
            pools = list(self._pools.values())
            self._pools.clear()
            self._pending.clear()
        for pool in pools:  # outside the lock: failing futures call back into _settle
            workers = list((pool._processes or {}).values())
            for worker in workers:
                worker.terminate()
            pool.shutdown(wait=True, cancel_futures=True)
            for worker in workers:
                worker.join()

    def verdicts_pending(self) -> int:
        """Deals waiting for their verdict now (read by the metrics)."""
        return len(self._pending)

    # Inside the server ---------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("these Solvers are closed: their app has stopped")

    def _executor(self, kind: Kind) -> ProcessPoolExecutor:
        """The one worker of a kind, spawned on first use (called under the lock)."""
        pool = self._pools.get(kind)
        if pool is None:
            pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=solver_worker.start,
                initargs=(os.getpid(), kind == "verdict" and self.idle_verdicts),
            )
            self._pools[kind] = pool
        return pool

    def _submit(self, kind: Kind, search: Callable[..., T], *args: Any) -> Future[T] | None:
        """Start a search (under the lock); None when the worker cannot take it.

        A worker that died breaks its pool for good: the pool is dropped so that the next search
        starts a fresh worker, and no request fails because of it.
        """
        pool = self._executor(kind)
        try:
            return pool.submit(search, *args)
        except (BrokenProcessPool, RuntimeError):
            del self._pools[kind]
            pool.shutdown(wait=False, cancel_futures=True)
            return None

    def _settle(self, key: str, future: Future[Verdict]) -> None:
        with self._lock:
            self._pending.pop(key, None)
            if future.cancelled() or future.exception() is not None:
                return
            winnable, best = future.result()
            self._results[key] = ResultOut(winnable=winnable, best_score=best)
