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
