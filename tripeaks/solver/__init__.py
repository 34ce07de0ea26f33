"""The exact solver: the public search API people script against.

``is_winnable``, ``solve`` and the rest are the search's (tripeaks.solver.search); the traditional
best score is tripeaks.solver.streak, explanations and grades tripeaks.solver.explain. All three
search through one kernel, chosen once at import by tripeaks.solver.kernel: compiled when the C
extensions were built (``COMPILED``), else the portable Python.
"""

from tripeaks.solver.kernel import COMPILED
from tripeaks.solver.search import (
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
