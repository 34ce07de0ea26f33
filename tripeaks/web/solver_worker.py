"""What runs inside the solver's worker processes (solving.py starts and feeds them).

A spawned worker imports only this module and what it needs: the engine and the solver. Not the
web app's pydantic models, which would nearly treble the CPU a new worker spends before its first
search (0.35 s against 0.13 s here), and a hint waits for that.
"""

from __future__ import annotations

import os
import threading
import time

from tripeaks import solver
from tripeaks.codes import GameCode
from tripeaks.game import Game


def start(parent: int, lower: bool) -> None:
    """In a new worker: maybe yield the CPU to the server, and never outlive it (even SIGKILLed)."""
    if lower:
        idle_priority()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def idle_priority() -> None:
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


def solve_deal(code: str) -> tuple[bool, int | None]:
    """(winnable from the deal's start, the best final score if so)."""
    solution = solver.solve(GameCode.parse(code))
    return solution.winnable, solution.final_score if solution.winnable else None


def hint(code: str, actions: tuple[str, ...]) -> str | None:
    """The first move of a best win after ``actions``, as Action text; None if lost from there."""
    action = solver.hint(Game.replay(code, actions))
    return None if action is None else str(action)
