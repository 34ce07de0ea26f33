"""TriPeaks solitaire: the rules engine every other part of the app calls."""

from tripeaks.cards import Card, Suit
from tripeaks.codes import Deal, GameCode, InvalidCode, deal
from tripeaks.describe import card_name
from tripeaks.game import DRAW, UNDO, Action, ActionKind, Game, IllegalMove, Reason, Slot, Status
from tripeaks.rules import Rules
from tripeaks.solver import Solution, solve
from tripeaks.variant import Scoring, Variant

__all__ = [
    "DRAW",
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
    "solve",
]
