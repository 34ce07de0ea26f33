"""A layout as data: where its cards lie, which cover which, its groups; Three Peaks and its tables.

A :class:`Layout` is the table of a game (docs/rules.md "Layouts"): its positions are the flat indexes
0 to size − 1, each with a place on a grid, the positions whose cards lie over it, and the group
(a peak, for Three Peaks) it belongs to for the group bonus. Everything the engine asks of a layout
(masks, what each card covers, rows, the reading order) is derived from that once, when the layout is
made. :data:`THREE_PEAKS` is the layout of docs/rules.md §1, the one the app plays; the module-level
names below (ROWS, COVERED_BY, PEAK_MASKS, ...) are its tables, as they always were.

The grid: ``x`` in half card widths, ``y`` in half row steps, both from 0 at the top left (the API
gives ``x / 2`` and ``y / 2``: card widths and rows). A card is 2 wide and 2 high on it; cards whose
places are less than 2 apart both ways would overlap, and are refused. Two cards of neighbouring rows
(``y`` 2 apart) whose ``x`` differ by at most 1 lie one over the other: one of them covers the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from tripeaks.engine.score import traditional_bonuses

_ID = re.compile(r"[a-z][a-z0-9_]*")
MAX_SIZE = 51
"""The most tableau cards a layout may have: the deck's 52 less the discard's card."""


@dataclass(frozen=True)
class Layout:
    """A table of cards as data; derived tables (the fields after ``groups``) are computed once.

    Which cards start face up is not data of its own: a card is face up exactly when no card covers
    it (so at the start the uncovered ones), the rule of every layout (docs/rules.md "Layouts")."""

    id: str
    """A short name in lower case (``three_peaks``); the words for a layout come later, from the
    catalogs."""
    places: tuple[tuple[int, int], ...]
    """Each position's (x, y) on the grid of the module's docstring."""
    covered_by: tuple[tuple[int, ...], ...]
    """``covered_by[p]``: the positions whose cards lie over the card at p."""
    groups: tuple[tuple[int, ...], ...]
    """The bonus groups (Three Peaks: its three peaks, left to right); they partition the table."""

    size: int = field(init=False, repr=False, compare=False)
    positions: tuple[int, ...] = field(init=False, repr=False, compare=False)
    covers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """``covers[p]``: the positions the card at p lies over (the inverse of covered_by)."""
    covered_by_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    group_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    group_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    all_mask: int = field(init=False, repr=False, compare=False)
    rows: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """The positions with the same y, top to bottom, each row left to right."""
    row_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Each position's row, counted from 1 at the top."""
    index_in_row: tuple[int, ...] = field(init=False, repr=False, compare=False)
    reading_order: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The order a screen reader names the cards in: rows top to bottom, each left to right."""
    face_up_at_start: frozenset[int] = field(init=False, repr=False, compare=False)
    """The positions no card covers: the cards face up when the game starts."""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        size = len(self.places)
        if not _ID.fullmatch(self.id):
            raise ValueError(f"a layout's id is lower-case letters, digits and _, not {self.id!r}")
        if not 1 <= size <= MAX_SIZE:
            raise ValueError(f"a layout has 1 to {MAX_SIZE} cards, not {size}")
        positions = tuple(range(size))
        _check_places(self.places)
        _check_covering(self.covered_by, size)
        _check_groups(self.groups, size)
        covers = tuple(tuple(q for q in positions if p in self.covered_by[q]) for p in positions)
        ys = sorted({y for _, y in self.places})
        rows = tuple(
            tuple(sorted((p for p in positions if self.places[p][1] == y), key=self._x)) for y in ys
        )
        derived: dict[str, object] = {
            "size": size,
            "positions": positions,
            "covers": covers,
            "covered_by_mask": tuple(sum(1 << q for q in cov) for cov in self.covered_by),
            "group_of": tuple(
                next(k for k, group in enumerate(self.groups) if p in group) for p in positions
            ),
            "group_masks": tuple(sum(1 << p for p in group) for group in self.groups),
            "all_mask": (1 << size) - 1,
            "rows": rows,
            "row_of": tuple(ys.index(self.places[p][1]) + 1 for p in positions),
            "index_in_row": tuple(next(r.index(p) for r in rows if p in r) for p in positions),
            "reading_order": tuple(p for row in rows for p in row),
            "face_up_at_start": frozenset(p for p in positions if not self.covered_by[p]),
            "_hash": hash((self.id, self.places, self.covered_by, self.groups)),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def __hash__(self) -> int:
        """Of the data, as equality is, but computed once: a game looks its tables up by it."""
        return self._hash

    def _x(self, pos: int) -> int:
        return self.places[pos][0]

    @property
    def word(self) -> str:
        """The layout's name in a game code: its id in capitals without underscores (``VALLEY``,
        ``UPANDDOWN``); docs/deal-format.md "Layouts"."""
        return self.id.replace("_", "").upper()

    @property
    def centre_x(self) -> tuple[float, ...]:
        """Each card's centre in card widths (the API's x)."""
        return tuple(x / 2 for x, _ in self.places)

    @property
    def centre_y(self) -> tuple[float, ...]:
        """Each card's top in row steps (the API's y)."""
        return tuple(y / 2 for _, y in self.places)

    @classmethod
    def drawn(cls, id: str, picture: str) -> Layout:
        """A layout from its picture: each card a letter (its group: groups ordered a, b, c, ...)
        and a digit (its layer), at its place: the column is its x, the line its row (y = 2 × line).
        Of two overlapping cards (neighbouring lines, columns at most 1 apart) the one of the
        higher layer covers the other; equal layers there are refused. Positions are numbered in
        reading order; blank lines at either end are dropped, and the leftmost card is at x = 0."""
        lines = picture.strip("\n").split("\n")
        cards: list[tuple[int, int, str, int]] = []
        for line_no, line in enumerate(lines):
            col = 0
            while col < len(line):
                if line[col] == " ":
                    col += 1
                    continue
                token = line[col : col + 2]
                if not re.fullmatch(r"[a-z][0-9]", token):
                    raise ValueError(f"line {line_no + 1}, column {col}: not a card: {token!r}")
                cards.append((col, 2 * line_no, token[0], int(token[1])))
                col += 2
        if not cards:
            raise ValueError("a layout's picture shows no card")
        left = min(x for x, _, _, _ in cards)
        places = tuple((x - left, y) for x, y, _, _ in cards)
        covered_by: list[tuple[int, ...]] = []
        for x, y, _, layer in cards:
            over = []
            for q, (qx, qy, _, q_layer) in enumerate(cards):
                if abs(qx - x) <= 1 and abs(qy - y) == 2:
                    if q_layer == layer:
                        raise ValueError(
                            f"the overlapping cards at {(x, y)} and {(qx, qy)} share a layer"
                        )
                    if q_layer > layer:
                        over.append(q)
            covered_by.append(tuple(over))
        letters = sorted({letter for _, _, letter, _ in cards})
        groups = tuple(
            tuple(p for p, card in enumerate(cards) if card[2] == letter) for letter in letters
        )
        return cls(id, places, tuple(covered_by), groups)

    def picture(self) -> str:
        """The layout drawn as :meth:`drawn` reads it, each card's layer its depth: 0 for a card
        nothing lies under, else one more than the deepest card it lies over. A ValueError for a
        layout no picture can show (a row between lines, more than 26 groups or 10 layers)."""
        depth: list[int] = [0] * self.size
        for p in _topological(self.covers, self.size):
            depth[p] = max((depth[q] + 1 for q in self.covers[p]), default=0)
        if any(y % 2 for _, y in self.places) or len(self.groups) > 26 or max(depth) > 9:
            raise ValueError(f"{self.id} cannot be drawn as a picture")
        lines = [""] * (max(y for _, y in self.places) // 2 + 1)
        for p in self.reading_order:
            x, y = self.places[p]
            line, letter = y // 2, "abcdefghijklmnopqrstuvwxyz"[self.group_of[p]]
            lines[line] += " " * (x - len(lines[line])) + letter + str(depth[p])
        return "\n".join(lines)


def _check_places(places: tuple[tuple[int, int], ...]) -> None:
    for p, (x, y) in enumerate(places):
        if x < 0 or y < 0:
            raise ValueError(f"position {p} lies off the grid at {(x, y)}")
        for q in range(p):
            qx, qy = places[q]
            if abs(qx - x) < 2 and abs(qy - y) < 2:
                raise ValueError(f"positions {q} and {p} lie on the same place")


def _check_covering(covered_by: tuple[tuple[int, ...], ...], size: int) -> None:
    if len(covered_by) != size:
        raise ValueError(f"covered_by names {len(covered_by)} positions, not {size}")
    for p, over in enumerate(covered_by):
        if len(set(over)) != len(over) or not all(0 <= q < size and q != p for q in over):
            raise ValueError(f"position {p} is covered by {over}, not other positions each once")
    inverse = tuple(tuple(q for q in range(size) if p in covered_by[q]) for p in range(size))
    if len(_topological(inverse, size)) != size:
        raise ValueError("the covering goes round in a circle: some cards could never be freed")


def _topological(covers: tuple[tuple[int, ...], ...], size: int) -> list[int]:
    """The positions, each after every position it covers; fewer than ``size`` if there is a cycle."""
    waiting = [len(covers[p]) for p in range(size)]
    covered_by: list[list[int]] = [[] for _ in range(size)]
    for p in range(size):
        for q in covers[p]:
            covered_by[q].append(p)
    ready = [p for p in range(size) if not waiting[p]]
    order = []
    while ready:
        q = ready.pop()
        order.append(q)
        for p in covered_by[q]:
            waiting[p] -= 1
            if not waiting[p]:
                ready.append(p)
    return order


def _check_groups(groups: tuple[tuple[int, ...], ...], size: int) -> None:
    every = [p for group in groups for p in group]
    if not groups or any(not group for group in groups) or sorted(every) != list(range(size)):
        raise ValueError("a layout's groups are not empty and hold every position exactly once")


class Slot(Enum):
    """What the player sees at a tableau position."""

    REMOVED = "removed"
    FACE_DOWN = "face_down"
    FACE_UP = "face_up"


class Tables:
    """What the engine asks of a layout, at hand for the hot paths: its tables, its traditional
    bonuses, and the slots and free cards of each set of cards left, kept as they are asked for
    (a reply asks for them more than once)."""

    __slots__ = (
        "all_mask",
        "bonuses",
        "covered_by_mask",
        "covers",
        "free_of",
        "group_masks",
        "group_of",
        "layout",
        "size",
        "slots_of",
    )

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.size = layout.size
        self.all_mask = layout.all_mask
        self.covered_by_mask = layout.covered_by_mask
        self.covers = layout.covers
        self.group_masks = layout.group_masks
        self.group_of = layout.group_of
        self.bonuses = traditional_bonuses(len(layout.groups))
        positions = range(layout.size)
        covered_by_mask = layout.covered_by_mask

        @lru_cache(maxsize=4096)
        def slots_of(present: int, open_peaks: bool = False) -> tuple[Slot, ...]:
            """With open peaks every card left is face up, free or not."""
            return tuple(
                Slot.REMOVED
                if not present >> p & 1
                else Slot.FACE_DOWN
                if present & covered_by_mask[p] and not open_peaks
                else Slot.FACE_UP
                for p in positions
            )

        @lru_cache(maxsize=4096)
        def free_of(present: int) -> tuple[int, ...]:
            return tuple(
                p for p in positions if present >> p & 1 and not present & covered_by_mask[p]
            )

        self.slots_of = slots_of
        self.free_of = free_of

    def groups_empty(self, present: int) -> int:
        return sum(1 for mask in self.group_masks if not present & mask)


@lru_cache(maxsize=64)
def tables(layout: Layout) -> Tables:
    """The engine's tables of ``layout``, made once."""
    return Tables(layout)


THREE_PEAKS = Layout.drawn(
    "three_peaks",
    """
   a0    b0    c0
  a1a1  b1b1  c1c1
 a2a2a2b2b2b2c2c2c2
a3a3a3b3b3b3c3c3c3c3
""",
)
"""docs/rules.md §1: rows of 3, 6, 9 and 10 cards, each card covered by the two below it, in three
peaks of 9, 9 and 10 cards (the bottom row's last four are the right peak's)."""


# Three Peaks' tables, by the names the app has always imported them by -------------------------

TABLEAU_SIZE = THREE_PEAKS.size
ROWS: tuple[tuple[int, ...], ...] = THREE_PEAKS.rows
ROW_SIZES: tuple[int, ...] = tuple(len(row) for row in ROWS)
ROW_STARTS: tuple[int, ...] = tuple(row[0] for row in ROWS)
BOTTOM_ROW = len(ROWS)
POSITIONS: tuple[int, ...] = THREE_PEAKS.positions
ROW_OF: tuple[int, ...] = THREE_PEAKS.row_of
INDEX_IN_ROW: tuple[int, ...] = THREE_PEAKS.index_in_row
COVERED_BY: tuple[tuple[int, ...], ...] = THREE_PEAKS.covered_by
"""COVERED_BY[p]: the positions whose cards lie over the card at p."""
COVERS: tuple[tuple[int, ...], ...] = THREE_PEAKS.covers
"""COVERS[p]: the positions the card at p lies over (the inverse of COVERED_BY)."""
PEAKS: tuple[frozenset[int], ...] = tuple(frozenset(group) for group in THREE_PEAKS.groups)
"""The bonus groups of docs/rules.md §1: left, middle, right (9, 9 and 10 cards)."""
PEAK_OF: tuple[int, ...] = THREE_PEAKS.group_of
CENTRE_X: tuple[float, ...] = THREE_PEAKS.centre_x
"""Where each card is drawn, in card widths: bottom card i at i, every other card centred over the
two that cover it. The page takes its geometry from here, through the API."""
COVERED_BY_MASK: tuple[int, ...] = THREE_PEAKS.covered_by_mask
PEAK_MASKS: tuple[int, ...] = THREE_PEAKS.group_masks
ALL_MASK = THREE_PEAKS.all_mask


def position(row: int, i: int) -> int:
    """The flat index of Three Peaks' (row, i), row 1-4 and i from 0."""
    if not 1 <= row <= len(ROWS) or not 0 <= i < ROW_SIZES[row - 1]:
        raise ValueError(f"no position ({row}, {i})")
    return ROWS[row - 1][i]
