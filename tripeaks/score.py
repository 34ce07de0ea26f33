"""The scoring table of docs/rules.md §3, in one place."""

from __future__ import annotations

START = 500
MOVE = -1
"""Every removal and every draw costs a point."""
PEAK_BONUS = 100
"""A removal that empties a whole peak earns this on top of its move cost."""


def add(score: int, points: int) -> int:
    """The score after ``points``; it never goes below zero."""
    return max(0, score + points)


def after_draw(score: int) -> int:
    """The score after a draw."""
    return add(score, MOVE)


def after_removal(score: int, peak_emptied: bool) -> int:
    """The score after a card is played: its move cost, then the bonus if it emptied its peak.

    The engine scores every play with this, and the solver counts a line's score with it."""
    score = add(score, MOVE)
    return add(score, PEAK_BONUS) if peak_emptied else score
