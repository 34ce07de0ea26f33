"""The seam: the one place that chooses how the solver searches, once, at import.

Compiled (tripeaks/solver/compiled.py, over the C extensions built with the package) when all
three extensions were built, else the portable Python (tripeaks/solver/portable.py): what runs
where no C compiler or wheel exists. Both offer :class:`Kernel`, the small interface
tripeaks/solver/search.py, streak.py and explain.py call through ``KERNEL``; both give the same
answers (verdict, fewest draws, best score, a line the engine replays to it), so either may be
optimised on its own. ``COMPILED`` says which was chosen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.rules import Rules


class Prepared(Protocol):
    """One deal's answers for every position (the backward pass), from ``Kernel.prepare``.
    Positions are (cards present as a mask, cards drawn, rank on top: 0 the wildcard)."""

    @property
    def table(self) -> bytes:
        """reach[set * 16 + top]: 1 + the most cards drawn from which the position can be won."""
        ...

    def winnable_at(self, present: int, drawn: int, top: int) -> bool:
        """Can the position still be won?"""
        ...

    def first_win(self, present: int, drawn: int, top: int) -> int:
        """The lowest play (a position) that keeps the position won, else 255 (the draw); -1
        when it cannot be won."""
        ...

    def best_win(self, present: int, drawn: int, top: int) -> tuple[bytes | None, int]:
        """A win with the fewest draws (positions, 255 a draw), or None and the fewest cards any
        line leaves on the table."""
        ...


class Kernel(Protocol):
    """What a kernel offers (a module: tripeaks.solver.compiled or tripeaks.solver.portable).

    A deal is handed over as its ranks: ``tableau`` (one byte a position of the layout: 28 on
    Three Peaks) and ``stock`` (top first; 0 the joker); ``top`` is the rank on the discard, 0 the
    wildcard (an empty discard or a joker). Lines are bytes: a position a play, 255 a draw. The
    searches take any ``layout`` (Three Peaks unless said) of at most ``MAX_LAYOUT`` cards."""

    @property
    def MAX_LAYOUT(self) -> int:
        """The most cards of a layout the kernel's searches take."""
        ...

    def deal(self, number: int) -> bytes:
        """The shuffled deck of deal ``number``: 52 card indices in dealing order."""
        ...

    def search(
        self,
        tableau: bytes,
        stock: bytes,
        rules: Rules,
        present: int,
        drawn: int,
        top: int,
        best_win: bool,
        layout: Layout = THREE_PEAKS,
    ) -> tuple[bytes | None, int, int]:
        """The depth-first search: (a win, the fewest draws with ``best_win``, or None; the
        fewest cards left when lost and ``best_win``; positions visited, a figure)."""
        ...

    def decide(
        self,
        tableau: bytes,
        stock: bytes,
        rules: Rules,
        present: int,
        drawn: int,
        top: int,
        cap: int,
        layout: Layout = THREE_PEAKS,
    ) -> tuple[bool, bool]:
        """(can the position be won, whether the backward pass answered after ``cap``)."""
        ...

    def decide_deal(
        self, number: int, rules: Rules, cap: int, options: int, layout: Layout = THREE_PEAKS
    ) -> tuple[bool, bool, int]:
        """decide from the start of deal ``number`` with the option bits (1 an empty discard, 2
        a joker), and the positions visited."""
        ...

    def prepare(
        self, tableau: bytes, stock: bytes, rules: Rules, layout: Layout = THREE_PEAKS
    ) -> Prepared:
        """The deal's answers for every position."""
        ...

    def winnable_positions(
        self,
        tableau: bytes,
        stock: bytes,
        rules: Rules,
        positions: Sequence[tuple[int, int, int]],
        cap: int,
        layout: Layout = THREE_PEAKS,
    ) -> list[bool]:
        """Can each of a few positions of one deal still be won?"""
        ...

    def survey(
        self,
        numbers: Sequence[int],
        rules: Rules,
        cap: int,
        fewest_draws: bool,
        options: int,
        layout: Layout = THREE_PEAKS,
    ) -> bytes:
        """Many deals from their start: 1 winnable, 0 not; with ``fewest_draws`` the fewest
        draws of a win, 255 for none."""
        ...

    def best_streak(
        self,
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
        """The traditional scoring's best final score from the current ``score`` (never below 0)
        over every ending, its line, the same over the wins alone (None, None: no win), and the
        positions memoised (a figure); on ``layout`` (Three Peaks unless said), whose size
        ``tableau`` is."""
        ...

    def plays_won(
        self,
        tableau: bytes,
        stock: bytes,
        top: int,
        rules: Rules,
        plays: int,
        rng: random.Random,
        layout: Layout = THREE_PEAKS,
    ) -> int:
        """How many of ``plays`` plays the visible-card strategy wins, ties drawn from ``rng``;
        on ``layout`` (Three Peaks unless said)."""
        ...

    def rollouts(
        self,
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
        """A fair hint's rollouts: for each of ``firsts`` (a position to play, 255 the draw)
        made from (``present``, ``drawn``, ``top``) of each sampled deal (``tableaux`` and
        ``stocks``: the samples' ranks one after another, all of one size), how many of ``plays``
        plays of the visible-card strategy after it win in all. The ties are drawn from a
        SplitMix64 started afresh for each (sample, play) from ``seed``, the same for every first
        move."""
        ...


KERNEL: Kernel
COMPILED: bool
"""Whether the compiled kernel was chosen (the extensions were built)."""
try:
    from tripeaks.solver import compiled

    KERNEL, COMPILED = compiled, True
except ImportError:  # installed without a C compiler: the portable Python, 30-150x slower
    from tripeaks.solver import portable

    KERNEL, COMPILED = portable, False

__all__ = ["COMPILED", "KERNEL", "Kernel", "Prepared"]
