"""The layout and the rules as both search kernels take them: masks of positions, which rank fits
on which, the sets of cards that can be on the table together, and the most points the traditional
scoring can still give. Facts of the engine's layout and rules, worked out once; no search here (the kernels are tripeaks/solver/portable.py and
tripeaks/solver/compiled.py, chosen by tripeaks/solver/kernel.py).
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable

from tripeaks.engine import score as scoring
from tripeaks.engine.cards import JOKER_RANK
from tripeaks.engine.layout import (
    COVERED_BY,
    COVERED_BY_MASK,
    COVERS,
    PEAK_MASKS,
    TABLEAU_SIZE,
    THREE_PEAKS,
    Layout,
)
from tripeaks.engine.rules import Rules

WILD = JOKER_RANK
"""The top of an empty discard or of a joker, and the joker's own rank in the stock: anything goes
on it (docs/solver.md "The wildcard")."""
DRAW_STEP = 255
"""A draw in a line as the kernels give it (a play is its position 0-27)."""


def fits(rules: Rules, rank: int, on: int) -> bool:
    """Can a tableau card of ``rank`` go on a discard of rank ``on``, WILD taking anything? No card
    goes on as the joker (rank 0: it is only ever drawn)."""
    return rank != WILD and (on == WILD or rules.fits(rank, on))


def bits(mask: int) -> list[int]:
    """The positions in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _lying_under(positions: int) -> int:
    """The cards that the cards at ``positions`` (a mask) lie on."""
    return functools.reduce(operator.or_, (1 << q for p in bits(positions) for q in COVERS[p]), 0)


LYING_UNDER = tuple(tuple(_lying_under(b << 7 * k) for b in range(128)) for k in range(4))
"""For each 7 positions and each set of them, the cards those lie on: free cards in four looks
(the compiled search gets the same table for any layout from :func:`compiled_layout`)."""


def free_mask(present: int) -> int:
    """The cards present with none of their covering cards left (face up), as a mask."""
    lying = LYING_UNDER
    return present & ~(
        lying[0][present & 127]
        | lying[1][present >> 7 & 127]
        | lying[2][present >> 14 & 127]
        | lying[3][present >> 21]
    )


def _reach(pos: int, step: tuple[tuple[int, ...], ...]) -> int:
    """Every position reached from ``pos`` by one or more steps of ``step`` (COVERS: the cards
    under it, directly or through others; COVERED_BY: the cards over it)."""
    mask = 0
    for q in step[pos]:
        mask |= 1 << q | _reach(q, step)
    return mask


UNDER_MASK: tuple[int, ...] = tuple(_reach(p, COVERS) for p in range(TABLEAU_SIZE))
"""UNDER_MASK[p]: cards that stay covered until the card at p is gone."""
NO_BRIDGE_MASK: tuple[int, ...] = tuple(
    UNDER_MASK[p] | (_reach(p, COVERED_BY) & ~COVERED_BY_MASK[p]) for p in range(TABLEAU_SIZE)
)
"""NO_BRIDGE_MASK[p]: cards that can never be the discard card the card at p goes on. Those under
it are played after it; those over it but not right over it are gone while it is still covered."""


@functools.cache
def fits_table(rules: Rules) -> bytes:
    """fits[on * 14 + rank]: the rules' one question, asked once for every pair of ranks."""
    return bytes(fits(rules, rank, on) for on in range(14) for rank in range(14))


TableSets = tuple[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...], dict[int, int]]
"""(masks, removals, number): see :func:`table_sets`."""


@functools.cache
def table_sets(layout: Layout = THREE_PEAKS) -> TableSets:
    """Every set of cards that can be on the table together, numbered by card count, then mask.

    A card leaves only when every card over it is gone, so only 22,932 sets ever occur on Three
    Peaks (35,476 to 109,325 on the other layouts). For each: its mask, its free cards (lowest
    first) each with the number of the set its removal leaves, and the number of each mask. The
    compiled extension numbers every layout's the same way.
    """
    if layout is not THREE_PEAKS:
        return _table_sets(layout_tables(layout).free_mask, layout.all_mask)
    return _table_sets(free_mask, (1 << TABLEAU_SIZE) - 1)


def _table_sets(free_mask: Callable[[int], int], full: int) -> TableSets:
    seen = {full}
    frontier = [full]
    while frontier:
        reached = []
        for present in frontier:
            for pos in bits(free_mask(present)):
                after = present & ~(1 << pos)
                if after not in seen:
                    seen.add(after)
                    reached.append(after)
        frontier = reached
    masks = tuple(sorted(seen, key=lambda mask: (mask.bit_count(), mask)))
    number = {mask: i for i, mask in enumerate(masks)}
    removals = tuple(
        tuple((pos, number[mask & ~(1 << pos)]) for pos in bits(free_mask(mask))) for mask in masks
    )
    return masks, removals, number


class LayoutTables:
    """The tables above for any layout, made once per layout by :func:`layout_tables`: what the
    portable search asks of the table it plays on (Three Peaks' are the module's own)."""

    __slots__ = ("all_mask", "free_mask", "layout", "no_bridge_mask", "size", "under_mask")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.size = layout.size
        self.all_mask = layout.all_mask
        self.free_mask: Callable[[int], int]
        """The cards present with none of their covering cards left, as a mask."""
        if layout is THREE_PEAKS:
            self.free_mask = free_mask
        else:
            self.free_mask = _free_mask_of(layout)
        under = tuple(_reach(p, layout.covers) for p in range(layout.size))
        self.under_mask: tuple[int, ...] = under
        """under_mask[p]: cards that stay covered until the card at p is gone."""
        self.no_bridge_mask: tuple[int, ...] = tuple(
            under[p] | (_reach(p, layout.covered_by) & ~layout.covered_by_mask[p])
            for p in range(layout.size)
        )
        """no_bridge_mask[p]: cards that can never be the discard card the card at p goes on."""


def _free_mask_of(layout: Layout) -> Callable[[int], int]:
    """free_mask for ``layout``: the cards lying under the present ones looked up 8 positions at
    a time, as Three Peaks' are 7 at a time."""
    covers = layout.covers

    def lying_under(positions: int) -> int:
        return functools.reduce(
            operator.or_, (1 << q for p in bits(positions) for q in covers[p]), 0
        )

    chunks = tuple(
        (8 * k, tuple(lying_under(b << 8 * k & layout.all_mask) for b in range(256)))
        for k in range((layout.size + 7) // 8)
    )

    def free(present: int) -> int:
        lying = 0
        for shift, table in chunks:
            lying |= table[present >> shift & 255]
        return present & ~lying

    return free


@functools.cache
def layout_tables(layout: Layout) -> LayoutTables:
    """The search's tables of ``layout``, made once."""
    return LayoutTables(layout)


COMPILED_CHUNKS = 5
"""The compiled search looks at the cards 7 positions at a time, in five looks: layouts of up to
35 cards (tripeaks/solver/_search.c MAX_TABLEAU)."""


@functools.cache
def compiled_layout(layout: Layout) -> bytes:
    """``layout`` as the compiled search takes it (tripeaks/solver/_search.c "a layout, as Python
    hands it over"): b"TPL1", its size and three zero bytes, then little-endian 64-bit masks: for
    each 7 positions (five chunks) and each set of them the cards those lie on, then what lies
    under each card, then the cards that can never be the discard card it goes on. Made once per
    layout: the extension keeps what it read by this very bytes object. A layout of more than 35
    cards makes bytes the extension refuses (ValueError)."""
    table = layout_tables(layout)
    covers = layout.covers
    chunks = max(COMPILED_CHUNKS, (layout.size + 6) // 7)

    def lying_under(positions: int) -> int:
        return functools.reduce(
            operator.or_, (1 << q for p in bits(positions) for q in covers[p]), 0
        )

    lying = [lying_under(b << 7 * k & layout.all_mask) for k in range(chunks) for b in range(128)]
    masks = [*lying, *table.under_mask, *table.no_bridge_mask]
    header = b"TPL1" + bytes([min(layout.size, 255), 0, 0, 0])
    return header + struct.pack(f"<{len(masks)}Q", *masks)


ROW = 16
"""Bytes of the answer table per set: one per top rank 1-13 and one for WILD (0; 14 and 15
unused)."""

# The traditional scoring ---------------------------------------------------------------------

NO_WIN = -(10**6)
"""The value of a position that cannot be won, when only wins count: below any real score."""
_EARNED: tuple[int, ...] = tuple(
    sum(scoring.TRADITIONAL_PEAK_BONUSES[:k]) for k in range(len(PEAK_MASKS) + 1)
)
"""The bonus points earned once k peaks are empty (0, 15, 30, 60)."""
_ALL_BONUSES = _EARNED[-1]


def peaks_empty(present: int) -> int:
    return sum(1 for mask in PEAK_MASKS if not present & mask)


def bound(present: int, streak: int) -> int:
    """At most this many points are still to come: every card left in the current streak, and
    every bonus not earned yet. No draw is charged. Sound, so the search may prune with it."""
    left = present.bit_count()
    return left * streak + left * (left + 1) // 2 + _ALL_BONUSES - _EARNED[peaks_empty(present)]


@functools.cache
def bound_on(layout: Layout) -> Callable[[int, int], int]:
    """:func:`bound` on ``layout``: every card left in the current streak, and the bonus of every
    group not emptied yet (15 each and 30 for the last, whatever the number of groups)."""
    masks = layout.group_masks
    bonuses = scoring.traditional_bonuses(len(masks))
    earned = tuple(sum(bonuses[:k]) for k in range(len(masks) + 1))
    total = earned[-1]

    def bound(present: int, streak: int) -> int:
        left = present.bit_count()
        empty = sum(1 for mask in masks if not present & mask)
        return left * streak + left * (left + 1) // 2 + total - earned[empty]

    return bound
