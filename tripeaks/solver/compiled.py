"""The compiled kernel: thin wrappers over the C extensions built with the package, with the same
small interface as tripeaks/solver/portable.py (tripeaks/solver/kernel.py chooses one, once).

- tripeaks/solver/_search.c: the depth-first search (the portable one's, move for move), is_winnable
  as that search capped at ``cap`` positions and then the backward pass over the layout's table
  sets (22,932 on Three Peaks), a deal's answers for every position (``prepare``), the best win
  by one forward pass keeping the fewest draws that reach each won position (docs/solver.md),
  the deal format's shuffle, and a survey of many deals dealt and decided in C;
  on any layout of at most ``MAX_LAYOUT`` (35) cards, handed over as data
  (tables.compiled_layout);
- tripeaks/solver/_streak.c: the traditional best score, memoising only the positions right after
  a draw and walking each run of plays between two draws depth first;
- tripeaks/solver/_strategy.c: the visible-card strategy's plays, with the ties drawn from the
  same Mersenne Twister state as Python's random.

Importing this module fails (ImportError) when any of the three was not built.
"""

from __future__ import annotations

import functools
import random
import struct
from collections.abc import Sequence

from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.score import traditional_bonuses
from tripeaks.solver import _search, _strategy, _streak
from tripeaks.solver.tables import compiled_layout, fits, fits_table

MAX_LAYOUT: int = _search.MAX_TABLEAU
"""The most cards of a layout the compiled search takes (35): a larger one is the portable
kernel's (tripeaks/solver/search.py sends it there)."""

_SHARED: dict[tuple[Rules, Layout], tuple[bytes, bytes, bool]] = {}
"""What every deal of one rules on one layout hands the compiled search: one look per decision
(the cached table and the wraps property were half a microsecond of a median of tens)."""


def _shared(rules: Rules, layout: Layout) -> tuple[bytes, bytes, bool]:
    """The tables every deal of ``rules`` on ``layout`` hands the compiled search, made once and
    kept: which rank fits on which, the layout as data (tables.compiled_layout), whether ranks
    wrap round."""
    shared = fits_table(rules), compiled_layout(layout), rules.wraps
    _SHARED[rules, layout] = shared
    return shared


def deal(number: int) -> bytes:
    """The shuffled deck of deal ``number``, one card index a byte, dealt in C."""
    return _search.deal(number)


def search(
    tableau: bytes,
    stock: bytes,
    rules: Rules,
    present: int,
    drawn: int,
    top: int,
    best_win: bool,
    layout: Layout = THREE_PEAKS,
) -> tuple[bytes | None, int, int]:
    """The depth-first search: (a winning line or None, cards left at best when lost, positions
    visited)."""
    shared = _SHARED.get((rules, layout)) or _shared(rules, layout)
    return _search.solve(tableau, stock, *shared, present, drawn, top, best_win)


def decide(
    tableau: bytes,
    stock: bytes,
    rules: Rules,
    present: int,
    drawn: int,
    top: int,
    cap: int,
    layout: Layout = THREE_PEAKS,
) -> tuple[bool, bool]:
    """(can the position be won, whether the backward pass answered): the capped search first,
    the backward pass when the search passes ``cap`` positions."""
    shared = _SHARED.get((rules, layout)) or _shared(rules, layout)
    return _search.decide(tableau, stock, *shared, present, drawn, top, cap)


def decide_deal(
    number: int, rules: Rules, cap: int, options: int, layout: Layout = THREE_PEAKS
) -> tuple[bool, bool, int]:
    """Deal ``number`` from its start on ``layout``, dealt and decided in C: (winnable, whether
    the backward pass answered, positions the search visited). ``options``: EMPTY_DISCARD and
    JOKER bits."""
    shared = _SHARED.get((rules, layout)) or _shared(rules, layout)
    if options:
        return _search.decide_deal(number, *shared, cap, options)
    return _search.decide_deal(number, *shared, cap)


def survey(
    numbers: Sequence[int],
    rules: Rules,
    cap: int,
    fewest_draws: bool,
    options: int,
    layout: Layout = THREE_PEAKS,
) -> bytes:
    """The whole batch dealt and decided in C, one byte a deal."""
    packed = struct.pack(f"<{len(numbers)}Q", *numbers)
    shared = _SHARED.get((rules, layout)) or _shared(rules, layout)
    return _search.survey(packed, *shared, cap, fewest_draws, options)


class Prepared:
    """One deal's answers for every position: the compiled backward pass's buffer (the deal's
    ranks and fits, then the table) and the layout it was made on."""

    __slots__ = ("_buffer", "_layout")

    HEADER: int = _search.HEADER
    """What the buffer keeps before its table: the deal's ranks and its fits."""

    def __init__(self, buffer: bytes, layout: bytes) -> None:
        self._buffer = buffer
        self._layout = layout

    @property
    def table(self) -> bytes:
        """reach[set * 16 + top] (a copy made on each call: only the buffer is kept)."""
        return self._buffer[self.HEADER :]

    def winnable_at(self, present: int, drawn: int, top: int) -> bool:
        return _search.winnable_from(self._buffer, self._layout, present, drawn, top)

    def first_win(self, present: int, drawn: int, top: int) -> int:
        return _search.hint_from(self._buffer, self._layout, present, drawn, top)

    def best_win(self, present: int, drawn: int, top: int) -> tuple[bytes | None, int]:
        return _search.best_from(self._buffer, self._layout, present, drawn, top)


def prepare(tableau: bytes, stock: bytes, rules: Rules, layout: Layout = THREE_PEAKS) -> Prepared:
    """The backward pass over every position of the deal (about a millisecond on Three Peaks)."""
    data = compiled_layout(layout)
    return Prepared(_search.prepare(tableau, stock, fits_table(rules), data), data)


def winnable_positions(
    tableau: bytes,
    stock: bytes,
    rules: Rules,
    positions: Sequence[tuple[int, int, int]],
    cap: int,
    layout: Layout = THREE_PEAKS,
) -> list[bool]:
    """A few positions of a deal asked about once (a fair hint's samples): each is the capped
    search, which mostly finds a win in microseconds, with the backward pass only for those it
    cannot settle; five times faster for a fair hint than preparing every position of the deal,
    which pays when a deal is asked about again and again."""
    shared = _SHARED.get((rules, layout)) or _shared(rules, layout)
    return [
        not present or _search.decide(tableau, stock, *shared, present, drawn, top, cap)[0]
        for present, drawn, top in positions
    ]


@functools.cache
def streak_fits(rules: Rules) -> bytes:
    """fits[rank * 14 + top] for the compiled best score (0 on top takes anything)."""
    return bytes(fits(rules, r, t) for r in range(14) for t in range(14))


@functools.cache
def streak_layout(layout: Layout) -> bytes:
    """What the compiled best score knows of a layout, as little-endian 64-bit words: each
    position's covering cards, each group's positions, and the traditional bonus for the k-th
    group emptied (tripeaks.engine.score.traditional_bonuses)."""
    bonuses = traditional_bonuses(len(layout.groups))
    words = (*layout.covered_by_mask, *layout.group_masks, *bonuses)
    return struct.pack(f"<{len(words)}Q", *words)


def best_streak(
    tableau: bytes,
    stock: bytes,
    rules: Rules,
    present: int,
    drawn: int,
    top: int,
    streak: int,
    score: int,
    layout: Layout = THREE_PEAKS,
) -> tuple[int, bytes, int | None, bytes | None, int]:
    """The traditional scoring's best final score from the current ``score`` over every ending
    and over the wins alone, each with its line, and the positions memoised; on ``layout``, whose
    size the tableau's ranks are."""
    answer = _streak.best(
        tableau,
        stock,
        streak_fits(rules),
        streak_layout(layout),
        present,
        drawn,
        top,
        streak,
        score,
    )
    return answer[:5]


@functools.cache
def strategy_tables(rules: Rules, layout: Layout = THREE_PEAKS) -> tuple[bytes, bytes, bytes]:
    """What tripeaks/solver/_strategy.c is handed besides the deal: which rank fits on which top
    as 14x14 bytes, and each position's covering mask and the mask of the cards it covers as
    little-endian 64-bit words."""
    covers = tuple(sum(1 << q for q in under) for under in layout.covers)
    size = layout.size
    return (
        fits_table(rules),
        struct.pack(f"<{size}Q", *layout.covered_by_mask),
        struct.pack(f"<{size}Q", *covers),
    )


def plays_won(
    tableau: bytes,
    stock: bytes,
    top: int,
    rules: Rules,
    plays: int,
    rng: random.Random,
    layout: Layout = THREE_PEAKS,
) -> int:
    """How many of ``plays`` plays the visible-card strategy wins, ties from ``rng``'s state."""
    state = rng.getstate()[1]
    return _strategy.plays_won(tableau, stock, top, *strategy_tables(rules, layout), plays, state)


def rollouts(
    tableaux: bytes,
    stocks: bytes,
    rules: Rules,
    present: int,
    drawn: int,
    top: int,
    firsts: bytes,
    plays: int,
    seed: int,
    layout: Layout = THREE_PEAKS,
) -> list[int]:
    """For each first move, the plays the visible-card strategy wins after it on the samples."""
    fits_, covered_by, covers = strategy_tables(rules, layout)
    return _strategy.rollouts(
        tableaux, stocks, fits_, covered_by, covers, present, drawn, top, plays, seed, firsts
    )
