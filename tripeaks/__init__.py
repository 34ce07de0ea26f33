"""TriPeaks solitaire: the Python API people script against.

Every name is loaded on first use (PEP 562), so that ``import tripeaks.engine`` stays a light,
pure rules library: asking for ``tripeaks.solve`` loads the solver, ``tripeaks.card_name``,
``tripeaks.describe`` or ``tripeaks.refusal`` the catalogs, and nothing else does.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tripeaks.engine.cards import Card, Suit
    from tripeaks.engine.codes import Deal, GameCode, InvalidCode, deal
    from tripeaks.engine.game import (
        DRAW,
        REDO,
        UNDO,
        Action,
        ActionKind,
        Game,
        IllegalMove,
        Reason,
        Slot,
        Status,
    )
    from tripeaks.engine.rules import Rules
    from tripeaks.engine.variant import Scoring, Variant
    from tripeaks.i18n import refusal
    from tripeaks.i18n.describe import card_name, describe
    from tripeaks.solver import Solution, solve

_HOMES = {
    "tripeaks.engine.cards": ("Card", "Suit"),
    "tripeaks.engine.codes": ("Deal", "GameCode", "InvalidCode", "deal"),
    "tripeaks.engine.game": (
        "DRAW",
        "REDO",
        "UNDO",
        "Action",
        "ActionKind",
        "Game",
        "IllegalMove",
        "Reason",
        "Slot",
        "Status",
    ),
    "tripeaks.engine.rules": ("Rules",),
    "tripeaks.engine.variant": ("Scoring", "Variant"),
    "tripeaks.i18n": ("refusal",),
    "tripeaks.i18n.describe": ("card_name", "describe"),
    "tripeaks.solver": ("Solution", "solve"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "DRAW",
    "REDO",
    "UNDO",
    "Action",
    "ActionKind",
    "Card",
    "Deal",
    "Game",
    "GameCode",
    "IllegalMove",
    "InvalidCode",
    "Reason",
    "Rules",
    "Scoring",
    "Slot",
    "Solution",
    "Status",
    "Suit",
    "Variant",
    "card_name",
    "deal",
    "describe",
    "refusal",
    "solve",
]


def __getattr__(name: str) -> Any:
    """Load an exported name from its module the first time it is asked for."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'tripeaks' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
