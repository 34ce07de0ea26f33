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
TRADITIONAL_GROUP_BONUS = 15
"""What each group (peak) emptied earns under the traditional scoring, but the last one emptied."""
TRADITIONAL_LAST_GROUP_BONUS = 30
"""What the last group emptied, the one that clears the table, earns under the traditional scoring."""


def traditional_bonuses(groups: int) -> tuple[int, ...]:
    """The traditional bonuses of a layout of ``groups`` groups, in the order they are emptied:
    15 for every group but the last emptied, 30 for the last (docs/rules.md "Layouts"); Three
    Peaks' 15, 15 and 30."""
    if groups < 1:
        raise ValueError(f"a layout has at least one group, not {groups}")
    return (TRADITIONAL_GROUP_BONUS,) * (groups - 1) + (TRADITIONAL_LAST_GROUP_BONUS,)


def traditional_best(size: int, groups: int) -> int:
    """The most the traditional scoring can give on a layout of ``size`` cards in ``groups`` groups:
    one streak of every card and every group's bonus."""
    return sum(range(1, size + 1)) + sum(traditional_bonuses(groups))


TRADITIONAL_PEAK_BONUSES: tuple[int, ...] = traditional_bonuses(3)
"""Three Peaks': the first and the second peak emptied (in the order they are emptied) earn 15,
the third 30."""
TRADITIONAL_BEST = traditional_best(28, 3)
"""One streak of all 28 cards and every peak: 1 + 2 + … + 28 + 60 = 466."""


def traditional_after_draw(score: int) -> int:
    """The score after a draw: five points less, but never below zero (as GNOME Aisleriot's
    Triple Peaks; Microsoft's original counted money across hands, docs/rules.md)."""
    return max(0, score + TRADITIONAL_DRAW)


def traditional_after_removal(
    score: int,
    streak: int,
    peaks_empty: int,
    peak_emptied: bool,
    bonuses: tuple[int, ...] = TRADITIONAL_PEAK_BONUSES,
) -> int:
    """The score after the ``streak``-th card of a streak (1 for the first) is played.

    ``peaks_empty`` is how many groups are empty after it; if it emptied one, that is the group's
    place in the order of emptying, and the bonus for that place (of the layout's ``bonuses``,
    :func:`traditional_bonuses`; Three Peaks' by default) is added."""
    score += streak
    return score + bonuses[peaks_empty - 1] if peak_emptied else score


def peak_bonus(
    traditional: bool, peaks_empty: int, bonuses: tuple[int, ...] = TRADITIONAL_PEAK_BONUSES
) -> int:
    """What emptying a group earns when ``peaks_empty`` groups are empty after it (its place in the
    order of emptying): ours +100 each, the traditional the layout's ``bonuses`` (Three Peaks' 15,
    15 and 30 by default)."""
    return bonuses[peaks_empty - 1] if traditional else PEAK_BONUS
