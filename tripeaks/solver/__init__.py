"""The exact solver: the public search API people script against.

``is_winnable``, ``solve`` and the rest are the search's (tripeaks.solver.search); the traditional
best score is tripeaks.solver.streak, explanations and grades tripeaks.solver.explain.
"""

from tripeaks.solver.search import (
    COMPILED,
    DECIDE_CAP,
    LOST,
    UNDER_MASK,
    Answers,
    Solution,
    free_mask,
    hint,
    is_winnable,
    random_winnable_code,
    solve,
    survey_numbers,
)

__all__ = [
    "COMPILED",
    "DECIDE_CAP",
    "LOST",
    "UNDER_MASK",
    "Answers",
    "Solution",
    "free_mask",
    "hint",
    "is_winnable",
    "random_winnable_code",
    "solve",
    "survey_numbers",
]
