"""Easy and Classic: the one rule that differs is whether king and ace are neighbours."""

from __future__ import annotations

from enum import Enum

from tripeaks.engine.cards import ACE, KING


class Rules(Enum):
    """The rules of a game; the value is the letter in its game code."""

    EASY = "E"
    CLASSIC = "C"

    @property
    def wraps(self) -> bool:
        """Easy connects king and ace; Classic stops at both ends."""
        return self is Rules.EASY

    def fits(self, rank: int, on: int) -> bool:
        """Can a card of ``rank`` go on a discard of rank ``on``?"""
        step = abs(rank - on)
        return step == 1 or (self.wraps and step == KING - ACE)

    def neighbours(self, rank: int) -> tuple[int, ...]:
        """The ranks that fit on ``rank``."""
        return tuple(r for r in range(ACE, KING + 1) if self.fits(r, rank))
