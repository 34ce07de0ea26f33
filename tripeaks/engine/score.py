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


# The traditional scoring (docs/rules.md "Scoring and variants"): Robert Hogue's of 1989.

TRADITIONAL_START = 0
TRADITIONAL_DRAW = -5
"""Each card drawn from the stock costs five points, down to zero and no lower."""
TRADITIONAL_PEAK_BONUSES: tuple[int, ...] = (15, 15, 30)
"""The first and the second peak emptied (in the order they are emptied) earn 15, the third 30."""
TRADITIONAL_BEST = sum(range(1, 29)) + sum(TRADITIONAL_PEAK_BONUSES)
"""One streak of all 28 cards and every peak: 1 + 2 + … + 28 + 60 = 466."""


def traditional_after_draw(score: int) -> int:
    """The score after a draw: five points less, but never below zero (as GNOME Aisleriot's
    Triple Peaks; Microsoft's original counted money across hands, docs/rules.md)."""
    return max(0, score + TRADITIONAL_DRAW)


def traditional_after_removal(score: int, streak: int, peaks_empty: int, peak_emptied: bool) -> int:
    """The score after the ``streak``-th card of a streak (1 for the first) is played.

    ``peaks_empty`` is how many peaks are empty after it; if it emptied one, that is the peak's
    place in the order of emptying, and the bonus for that place is added."""
    score += streak
    return score + TRADITIONAL_PEAK_BONUSES[peaks_empty - 1] if peak_emptied else score


def peak_bonus(traditional: bool, peaks_empty: int) -> int:
    """What emptying a peak earns when ``peaks_empty`` peaks are empty after it (its place in the
    order of emptying): ours +100 each, the traditional 15, 15 and 30."""
    return TRADITIONAL_PEAK_BONUSES[peaks_empty - 1] if traditional else PEAK_BONUS
