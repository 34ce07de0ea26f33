"""The solver behind hints, ``result`` and winnable deals, imported lazily.

The rest of the app works without ``tripeaks.solver``; these helpers answer ``None`` until it exists.
Results of whole deals are cached per code: a deal's answer never changes.
"""

from __future__ import annotations

import importlib
import threading
from functools import lru_cache
from typing import Any

from tripeaks.codes import GameCode
from tripeaks.game import Action, Game
from tripeaks.rules import Rules
from tripeaks.web.models import ResultOut

_lock = threading.Lock()


def _solver() -> Any:
    try:
        return importlib.import_module("tripeaks.solver")
    except ImportError:
        return None


@lru_cache(maxsize=4096)
def _deal_result(code: str) -> ResultOut | None:
    solver = _solver()
    if solver is None:
        return None
    solution = solver.solve(GameCode.parse(code))
    best = int(solution.final_score) if solution.winnable else None
    return ResultOut(winnable=bool(solution.winnable), best_score=best)


def deal_result(code: GameCode) -> ResultOut | None:
    """Was the deal winnable from its start under its rules, and with what best score?"""
    with _lock:
        return _deal_result(str(code))


def hint(game: Game) -> tuple[bool, Action | None] | None:
    """(winnable from here, the move to make) or None without a solver."""
    solver = _solver()
    if solver is None:
        return None
    action: Action | None = solver.hint(game)
    return action is not None, action


def winnable_code(rules: Rules) -> GameCode | None:
    solver = _solver()
    if solver is None:
        return None
    code: GameCode = solver.random_winnable_code(rules)
    return code
