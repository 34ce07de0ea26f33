"""The solver behind hints, ``result`` and winnable deals, kept off the request path.

A whole deal can take the solver a second or more, so searches run in worker processes (the GIL
would otherwise stall every other player's request): one for hints, which a player waits for, and
one at low priority for verdicts. A deal's verdict never changes, so it is computed once per code,
in the background, from the moment a game nears its end; no reply waits for it, and ``result`` is
null until it is known. ``tripeaks.solver`` is imported lazily: without it the app still works.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from tripeaks.codes import GameCode
from tripeaks.game import Action, Game
from tripeaks.rules import Rules
from tripeaks.web.models import ResultOut

PENDING_MAX = 16
"""Deals waiting for a verdict; beyond this a finished game simply gets its result later."""
HINT_TIMEOUT = 20.0
_RETRY = 30.0
"""Seconds between two looks for a missing solver: a failed import costs tens of milliseconds."""

T = TypeVar("T")

_lock = threading.RLock()
"""Reentrant: a future that is already done runs its callback at once, under the lock."""
_pools: dict[str, ProcessPoolExecutor] = {}
_results: dict[str, ResultOut] = {}
_pending: dict[str, Future[tuple[bool, int | None]]] = {}
_missing_since: float | None = None


def _solver() -> Any:
    global _missing_since
    if _missing_since is not None and time.monotonic() - _missing_since < _RETRY:
        return None
    try:
        module = importlib.import_module("tripeaks.solver")
    except ImportError:
        _missing_since = time.monotonic()
        return None
    _missing_since = None
    return module


def available() -> bool:
    return _solver() is not None


def _start_worker(parent: int, lower: bool) -> None:
    """In a new worker: maybe yield the CPU to the server, and never outlive it (even SIGKILLed)."""
    if lower:
        _idle_priority()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _executor(kind: str) -> ProcessPoolExecutor:
    """One worker per kind ("hint", "verdict") for the whole process, spawned on first use."""
    with _lock:
        pool = _pools.get(kind)
        if pool is None:
            pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), kind == "verdict"),
            )
            if not _pools:
                atexit.register(shutdown)
            _pools[kind] = pool
        return pool


def _submit(kind: str, search: Callable[..., T], *args: Any) -> Future[T] | None:
    """Start a search; None when the worker cannot take it (the reply then goes without).

    A worker that died (killed, out of memory) breaks its pool for good: the pool is dropped so
    that the next search starts a fresh worker, and no request fails because of it.
    """
    pool = _executor(kind)
    try:
        return pool.submit(search, *args)
    except (BrokenProcessPool, RuntimeError):
        with _lock:
            if _pools.get(kind) is pool:
                del _pools[kind]
        pool.shutdown(wait=False, cancel_futures=True)
        return None


def shutdown() -> None:
    """Stop the worker processes; the next search starts new ones."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
        _pending.clear()
    for pool in pools:
        for worker in list(
            pool._processes.values()
        ):  # a search in progress is not worth waiting for
            worker.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def _idle_priority() -> None:
    """Use only CPU time nobody else wants.

    Linux's SCHED_IDLE: a request-serving thread that wakes up takes the CPU back at once. A nice
    value alone does less: beside two CPU-bound nice-10 processes on a two-core machine, a thread
    waking from a 2 ms sleep was late by 0.6-1.4 ms at p99 (4 ms at p99.9); beside two SCHED_IDLE
    ones by 0.16-0.45 ms (2.5 ms). A request wakes the server's threads three or four times.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # not Linux
        os.nice(19)


# In the worker processes --------------------------------------------------------------------


def _solve_deal(code: str) -> tuple[bool, int | None]:
    solution = importlib.import_module("tripeaks.solver").solve(GameCode.parse(code))
    best = int(solution.final_score) if solution.winnable else None
    return bool(solution.winnable), best


def _hint(code: str, actions: tuple[str, ...]) -> str | None:
    action = importlib.import_module("tripeaks.solver").hint(Game.replay(code, actions))
    return None if action is None else str(action)


# In the server ------------------------------------------------------------------------------


def deal_result(code: GameCode) -> ResultOut | None:
    """The deal's verdict from its start under its rules if known; otherwise start working on it.

    Never waits: call it early (near a game's end) so the verdict is there when it is over.
    """
    key = str(code)
    with _lock:
        known = _results.get(key)
        if known is not None:
            return known
        future = _pending.get(key)
        if future is None:
            if len(_pending) >= PENDING_MAX or not available():
                return None
            future = _submit("verdict", _solve_deal, key)
            if future is None:
                return None
            _pending[key] = future
            future.add_done_callback(lambda done: _settle(key, done))
            return None
    return None


def _settle(key: str, future: Future[tuple[bool, int | None]]) -> None:
    with _lock:
        _pending.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        winnable, best = future.result()
        _results[key] = ResultOut(winnable=winnable, best_score=best)


async def hint(game: Game) -> tuple[bool, Action | None] | None:
    """(winnable from here, the first move of a best win), or None without a solver."""
    if not available() or game.code is None:
        return None
    future = _submit("hint", _hint, str(game.code), tuple(map(str, game.actions)))
    if future is None:
        return None
    try:
        text = await asyncio.wait_for(asyncio.wrap_future(future), HINT_TIMEOUT)
    except TimeoutError:
        return None
    except Exception:  # a broken worker: no hint this time, the game itself is unharmed
        return None
    action = None if text is None else Action.parse(text)
    return action is not None, action


def winnable_code(rules: Rules) -> GameCode | None:
    """A random deal proved winnable under ``rules`` (the solver stops at the first win: quick)."""
    solver = _solver()
    if solver is None:
        return None
    code: GameCode = solver.random_winnable_code(rules)
    return code
