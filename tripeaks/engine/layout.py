"""The 28 tableau positions, what covers what, and the three peaks: tables computed once.

Positions are the flat indexes 0-27 of docs/rules.md §1: row 1 left to right, then rows 2, 3 and 4.
"""

from __future__ import annotations

ROW_SIZES: tuple[int, ...] = (3, 6, 9, 10)
ROW_STARTS: tuple[int, ...] = (0, 3, 9, 18)
TABLEAU_SIZE = 28
BOTTOM_ROW = 4


def position(row: int, i: int) -> int:
    """The flat index of (row, i), row 1-4 and i from 0."""
    if not 1 <= row <= 4 or not 0 <= i < ROW_SIZES[row - 1]:
        raise ValueError(f"no position ({row}, {i})")
    return ROW_STARTS[row - 1] + i


def _row_and_index(pos: int) -> tuple[int, int]:
    for row in (4, 3, 2, 1):
        if pos >= ROW_STARTS[row - 1]:
            return row, pos - ROW_STARTS[row - 1]
    raise ValueError(f"no position {pos}")


def _covering(pos: int) -> tuple[int, ...]:
    row, i = _row_and_index(pos)
    if row == 1:
        return (position(2, 2 * i), position(2, 2 * i + 1))
    if row == 2:
        peak, k = divmod(i, 2)
        return (position(3, 3 * peak + k), position(3, 3 * peak + k + 1))
    if row == 3:
        return (position(4, i), position(4, i + 1))
    return ()


POSITIONS: tuple[int, ...] = tuple(range(TABLEAU_SIZE))
ROW_OF: tuple[int, ...] = tuple(_row_and_index(p)[0] for p in POSITIONS)
INDEX_IN_ROW: tuple[int, ...] = tuple(_row_and_index(p)[1] for p in POSITIONS)
ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(start, start + size)) for start, size in zip(ROW_STARTS, ROW_SIZES, strict=True)
)

COVERED_BY: tuple[tuple[int, ...], ...] = tuple(_covering(p) for p in POSITIONS)
"""COVERED_BY[p]: the positions whose cards lie over the card at p."""

COVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in POSITIONS if p in COVERED_BY[q]) for p in POSITIONS
)
"""COVERS[p]: the positions the card at p lies over (the inverse of COVERED_BY)."""

_PEAK_MEMBERS: tuple[tuple[tuple[int, int], ...], ...] = (
    ((1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2)),
    ((1, 1), (2, 2), (2, 3), (3, 3), (3, 4), (3, 5), (4, 3), (4, 4), (4, 5)),
    ((1, 2), (2, 4), (2, 5), (3, 6), (3, 7), (3, 8), (4, 6), (4, 7), (4, 8), (4, 9)),
)
PEAKS: tuple[frozenset[int], ...] = tuple(
    frozenset(position(r, i) for r, i in members) for members in _PEAK_MEMBERS
)
"""The bonus groups of docs/rules.md §1: left, middle, right (9, 9 and 10 cards)."""

PEAK_OF: tuple[int, ...] = tuple(
    next(k for k, peak in enumerate(PEAKS) if p in peak) for p in POSITIONS
)


def _centre_x() -> tuple[float, ...]:
    x: dict[int, float] = {}
    for pos in reversed(POSITIONS):
        cover = COVERED_BY[pos]
        x[pos] = sum(x[q] for q in cover) / len(cover) if cover else float(INDEX_IN_ROW[pos])
    return tuple(x[p] for p in POSITIONS)


CENTRE_X: tuple[float, ...] = _centre_x()
"""Where each card is drawn, in card widths: bottom card i at i, every other card centred over the
two that cover it. The page takes its geometry from here, through the API."""

COVERED_BY_MASK: tuple[int, ...] = tuple(sum(1 << q for q in cov) for cov in COVERED_BY)
PEAK_MASKS: tuple[int, ...] = tuple(sum(1 << p for p in peak) for peak in PEAKS)
ALL_MASK = (1 << TABLEAU_SIZE) - 1
