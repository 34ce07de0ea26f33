"""The portable kernel: the searches in plain Python, for where no C compiler or wheel was at hand
(and, later, a browser). The same small interface as tripeaks/solver/compiled.py; which of the two
runs is chosen once, by tripeaks/solver/kernel.py. Both give the same answers (the verdict, the
fewest draws, the best score, a line that wins with it), each by its own way of searching:

*Whether a position can be won, the best win (our scoring).* A depth-first search over positions
of three small numbers: the tableau cards still present (a 28-bit mask; on another layout, a
mask of its positions), how many stock cards have been drawn and the rank on top of the discard, with a table of positions proved lost, and these
sound rules to stop early:

*Lost with fewer draws is lost with more.* Whatever a position can do with d cards drawn, the same
cards and top with fewer drawn can do too, drawing through the extra stock cards when the other
draws. So the table keeps, for each set of cards and top, the fewest draws at which it was lost.

*A card needs a neighbour.* A tableau card of rank r can only be removed onto a discard of a rank next
to r, and such a discard can only come from the current top, a stock card still to be drawn (within
the draws allowed) or another tableau card of a neighbouring rank that does not lie under it. When none
of those is left the card is playable now or never; two such cards, or one that is not free, lose.
A card loses its last source only when a neighbouring rank is played or drawn, so the rule is checked
for the neighbours of the new top after every move, and once in full at the root.

*Every card needs its own discard card.* Each card played covers the one it goes on, so the cards
left, the stock cards within reach and the top must feed every card left at once, one each.

The best win (fewest draws, which is the highest score) starts from any win and asks again for a
win with one draw fewer than the best so far, reusing the lost positions: a position lost with more
draws allowed is lost with fewer. The compiled search (tripeaks/solver/_search.c) walks the same
depth-first search; it answers is_winnable and the best win by its backward passes instead.

*Any layout.* The search, the best win and the backward pass take a ``Layout`` (Three Peaks
unless said) and ask it only which cards lie over which (tripeaks/solver/tables.py
``layout_tables``): search.py sends every layout but Three Peaks here (docs/solver.md "Layouts").

*Every position at once.* The backward pass over the 22,932 sets of cards that can be on the table
together (:func:`reach_table`), made only when a position's answer is asked (the best win is the
search's).

*The traditional best score.* A depth-first search with a memo over every position and a sound
upper bound to prune with (every card left in the current streak, every group not yet emptied still
paying its bonus): a position searched under a threshold it could not beat is remembered as "at
most this", one that beat it as its exact value (tripeaks/solver/streak.py has the why). On any
layout: its covering masks, its groups and their bonuses.

*The visible-card strategy's plays* (a deal's grade, tripeaks/solver/explain.py), play for play
with the ties drawn from the same Mersenne Twister as the compiled plays, on any layout.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from functools import lru_cache

from tripeaks.engine import score as scoring
from tripeaks.engine.codes import GameCode, SplitMix64, deck
from tripeaks.engine.codes import deal as deal_code
from tripeaks.engine.layout import (
    MAX_SIZE,
    THREE_PEAKS,
    Layout,
)
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver.tables import (
    DRAW_STEP,
    NO_WIN,
    ROW,
    WILD,
    bits,
    bound_on,
    fits,
    layout_tables,
    table_sets,
)

_DRAW = DRAW_STEP
"""A draw on the search's path; a play is its position 0-27."""
_NEVER = 99
"""A stock index past any stock: no such card is left to draw."""

# Whether a position can be won, and the best win --------------------------------------------


class _Search:
    """One deal under one rules on one layout, prepared as tables of ints for the search."""

    def __init__(
        self, tableau: bytes, stock: bytes, rules: Rules, layout: Layout = THREE_PEAKS
    ) -> None:
        table = layout_tables(layout)
        if len(tableau) != table.size:
            raise ValueError(f"a tableau of {layout.id} has {table.size} cards, not {len(tableau)}")
        self.free_mask = table.free_mask
        self.no_bridge_mask = table.no_bridge_mask
        self.under_mask = table.under_mask
        self.shift = table.size
        """A position's key in the lost table: the cards present, then the top above them."""
        self.any_top = 15 << table.size
        """The lost table's key bits for "these cards with any top" (a top is 0-13)."""
        self.wraps = rules.wraps
        self.ranks = tuple(tableau)
        self.stock = tuple(stock)
        self.neighbours = tuple(
            tuple(n for n in range(1, 14) if fits(rules, n, r)) for r in range(14)
        )
        """neighbours[r]: the ranks that go on r (every rank on WILD)."""
        self.rank_mask = tuple(
            sum(1 << p for p in range(table.size) if self.ranks[p] == r) for r in range(14)
        )
        self.fit_mask = tuple(
            sum(1 << p for p in range(table.size) if fits(rules, self.ranks[p], r))
            for r in range(14)
        )
        self.stock_fits = tuple(
            tuple(
                sum(1 for i in range(d) if fits(rules, r, self.stock[i]))
                for d in range(len(self.stock) + 1)
            )
            for r in range(14)
        )
        """stock_fits[r][d]: how many of the first d stock cards a card of rank r goes on (a
        joker takes every rank)."""
        self.nodes = 0
        """Positions visited, the machine-independent measure of a search's work."""
        self.stock_ranks = tuple(
            tuple(self.stock[:d].count(r) for d in range(len(self.stock) + 1)) for r in range(14)
        )
        """stock_ranks[r][d]: how many of the first d stock cards have rank r."""
        self.lost: dict[int, int] = {}
        """lost[present | top << shift]: the fewest cards drawn at which that position was lost (top
        15, any_top: with any top). Lost with d drawn means lost with more drawn: whatever the later position
        can do, the earlier one can too, drawing through the extra stock cards when it draws."""

    def needs(self, present: int, drawn: int, top: int, limit: int, ranks: tuple[int, ...]) -> int:
        """Check that the cards of ``ranks`` can still find a discard to go on.

        Every card played goes on a distinct predecessor of a neighbouring rank: the current top
        (only if played now), a stock card drawn within ``limit``, or another tableau card that
        can bridge to it (NO_BRIDGE_MASK). Returns -1 when some rank has too few, else the mask of cards one
        of which must be played now on the top (0 when nothing is forced).
        """
        must = 0
        free = -1
        no_bridge = self.no_bridge_mask
        for r in ranks:
            cards = present & self.rank_mask[r]
            if not cards:
                continue
            from_stock = self.stock_fits[r][limit] - self.stock_fits[r][drawn]
            sources = present & self.fit_mask[r]
            spare = from_stock + sources.bit_count() - cards.bit_count()
            if spare < -1:
                return -1
            lonely = 0
            if not from_stock:
                rest = cards
                while rest:
                    low = rest & -rest
                    rest ^= low
                    if not sources & ~no_bridge[low.bit_length() - 1]:
                        lonely |= low
            if spare >= 0 and not lonely:
                continue
            if lonely & (lonely - 1) or must or r not in self.neighbours[top]:
                return -1
            if free < 0:
                free = self.free_mask(present)
            must = (lonely or cards) & free
            if not must:
                return -1
        return must

    def predecessors_suffice(self, counts: list[int], drawn: int, top: int, limit: int) -> bool:
        """Can every card left go on its own discard card of a neighbouring rank?

        The discard cards to come are the tableau cards, the stock cards drawn within ``limit``
        and the top, each taking one card. Demands and supplies alternate along the ranks, so a
        greedy walk answers it, each demand taking from the rank below first (nobody else can use
        what is left there). Under Easy the ranks close into a ring: the walk along the line is
        tried first (enough, nearly always), then the ring opened at each share of the king-ace link.
        A wildcard (a WILD top, a joker still to be drawn within ``limit``) feeds any one card: the
        walk may leave that many cards unfed (the greedy walk feeds the most cards there are).
        """
        supply = [
            counts[r] + self.stock_ranks[r][limit] - self.stock_ranks[r][drawn] if r else 0
            for r in range(14)
        ]
        wild = self.stock_ranks[WILD][limit] - self.stock_ranks[WILD][drawn]
        if top == WILD:
            wild += 1
        else:
            supply[top] += 1
        supply.append(0)
        if _fed_along(counts, supply, False, 0, wild):
            return True
        if not self.wraps:
            return False
        return any(
            _fed_along(counts, supply, True, link, wild)
            for link in range(min(counts[1], supply[13]) + 1)
        )

    def run(self, present: int, drawn: int, top: int, limit: int) -> list[int] | None:
        """A winning path with at most ``limit`` stock cards drawn in all, or None."""
        must = self.needs(present, drawn, top, limit, tuple(range(1, 14)))
        if must < 0:
            return None
        path: list[int] = []
        if self._dfs(present, drawn, top, limit, must, path):
            return path
        return None

    def _dfs(
        self, present: int, drawn: int, top: int, limit: int, must: int, path: list[int]
    ) -> bool:
        self.nodes += 1
        if not present:
            return True
        key = present | top << self.shift
        if self.lost.get(key, _NEVER) <= drawn:
            return False
        counts = [(present & m).bit_count() for m in self.rank_mask]
        if not self.predecessors_suffice(counts, drawn, top, limit):
            return False
        moves = bits(must or self.free_mask(present) & self.fit_mask[top])
        dead_end = False
        for pos in moves:
            rank = self.ranks[pos]
            after = present & ~(1 << pos)
            if not after & self.fit_mask[rank]:
                dead_end = True
            nxt = self.needs(after, drawn, rank, limit, self.neighbours[rank])
            if nxt < 0:
                continue
            path.append(pos)
            if self._dfs(after, drawn, rank, limit, nxt, path):
                return True
            path.pop()
        if (
            not must
            and not dead_end
            and drawn < limit
            and self.lost.get(present | self.any_top, _NEVER) > drawn
        ):
            rank = self.stock[drawn]
            nxt = self.needs(present, drawn + 1, rank, limit, self.neighbours[rank])
            if nxt >= 0:
                path.append(_DRAW)
                if self._dfs(present, drawn + 1, rank, limit, nxt, path):
                    return True
                path.pop()
        for lost in (key, present | self.any_top):
            if self.lost.get(lost, _NEVER) > drawn:
                self.lost[lost] = drawn
        return False

    def never_removed(self, present: int, drawn: int, top: int) -> int:
        """Cards no line can remove: no neighbour left to go on, and those lying under them."""
        free = self.free_mask(present)
        stuck = 0
        for pos in bits(present):
            rank = self.ranks[pos]
            if self.stock_fits[rank][len(self.stock)] > self.stock_fits[rank][drawn] or (
                free >> pos & 1 and rank in self.neighbours[top]
            ):
                continue
            if not present & self.fit_mask[rank] & ~self.no_bridge_mask[pos]:
                stuck |= 1 << pos | self.under_mask[pos]
        return stuck & present

    def most_removed(self, present: int, drawn: int, top: int) -> int:
        """The fewest tableau cards left at any reachable position, for a position already lost.

        The search stops as soon as it leaves only the cards that can never be removed (at least
        one, the position being lost). Drawing while a dead-end card (one nothing left fits on)
        could be played is skipped: playing it first and then drawing removes one card more.
        """
        seen: dict[int, int] = {}
        floor = max(1, self.never_removed(present, drawn, top).bit_count())
        best = [present.bit_count()]
        stock_size = len(self.stock)
        shift, free_mask = self.shift, self.free_mask

        def visit(present: int, drawn: int, top: int) -> None:
            # As in the search: explored to the end with fewer cards drawn, it reached at least as
            # much. Only a finished position counts: one still being explored may count on this one.
            key = present | top << shift
            if best[0] <= floor or seen.get(key, _NEVER) <= drawn:
                return
            left = present.bit_count()
            if left < best[0]:
                best[0] = left
            dead_end = False
            for pos in bits(free_mask(present) & self.fit_mask[top]):
                after = present & ~(1 << pos)
                rank = self.ranks[pos]
                if not after & self.fit_mask[rank]:
                    dead_end = True
                visit(after, drawn, rank)
            if drawn < stock_size and not dead_end:
                visit(present, drawn + 1, self.stock[drawn])
            if seen.get(key, _NEVER) > drawn:
                seen[key] = drawn

        visit(present, drawn, top)
        return best[0]


_RING = (1, 3, 5, 7, 9, 11, 13, 2, 4, 6, 8, 10, 12)
"""Demands and supplies alternate in this order of ranks: 1 is fed by 0 (none) and 2, 3 by 2 and 4..."""


def _fed_along(
    counts: list[int], supply: list[int], ring_closed: bool, link: int, wild: int = 0
) -> bool:
    """The greedy walk of predecessors_suffice; with ``ring_closed`` the king gives ``link`` to the
    ace. Up to ``wild`` cards may go unfed (the wildcards feed them)."""
    left = supply.copy()
    if not ring_closed:
        link = 0
    left[13] -= link
    unfed = 0
    for r in _RING:
        need = counts[r] - (link if r == 1 else 0)
        below = r - 1
        above = (1 if ring_closed else 0) if r == 13 else r + 1
        take = min(left[below], need)
        left[below] -= take
        need -= take
        if need > left[above]:
            unfed += need - left[above]
            if unfed > wild:
                return False
            need = left[above]
        left[above] -= need
    return True


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
    """The depth-first search from a position: (a winning line or None, cards left at best when
    lost, positions visited). With ``best_win`` the line has the fewest draws and a lost
    position's best is counted; without it the first win found is returned. On ``layout``: a
    play in a line is its position there, ``present`` a mask of its positions."""
    found = _Search(tableau, stock, rules, layout)
    best = found.run(present, drawn, top, len(found.stock))
    if best is None:
        left = found.most_removed(present, drawn, top) if best_win else 0
        return None, left, found.nodes
    while best_win:
        draws = best.count(_DRAW)
        if not draws:
            break
        better = found.run(present, drawn, top, drawn + draws - 1)
        if better is None:
            break
        best = better
    return bytes(best), 0, found.nodes


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
    """Can the position be won, and whether the backward pass answered: here always the search,
    which has no cap (``cap`` is the compiled kernel's)."""
    line = search(tableau, stock, rules, present, drawn, top, False, layout)[0]
    return line is not None, False


MAX_LAYOUT = MAX_SIZE
"""The portable searches take every layout the engine does."""


def deal(number: int) -> bytes:
    """The shuffled deck of deal ``number``, one card index a byte (the engine's own dealing)."""
    return deck(number)


EMPTY_DISCARD = 1
JOKER = 2
"""The option bits: the variants that change the cards."""


def _dealt(
    number: int, rules: Rules, options: int, layout: Layout = THREE_PEAKS
) -> tuple[bytes, bytes, int]:
    """The ranks of deal ``number``'s tableau and stock on ``layout`` with ``options``, and its
    top's."""
    variant = Variant(
        rules, empty_discard=bool(options & EMPTY_DISCARD), joker=bool(options & JOKER)
    )
    cards = deal_code(GameCode.from_number(number, variant), layout)
    tableau = bytes(card.rank for card in cards.tableau)
    stock = bytes(card.rank for card in cards.stock)
    return tableau, stock, WILD if cards.discard is None else cards.discard.rank


def decide_deal(
    number: int, rules: Rules, cap: int, options: int, layout: Layout = THREE_PEAKS
) -> tuple[bool, bool, int]:
    """Deal ``number`` from its start on ``layout``: (winnable, whether the backward pass
    answered, positions the search visited)."""
    tableau, stock, top = _dealt(number, rules, options, layout)
    line, _left, nodes = search(tableau, stock, rules, layout.all_mask, 0, top, False, layout)
    return line is not None, False, nodes


def survey(
    numbers: Sequence[int],
    rules: Rules,
    cap: int,
    fewest_draws: bool,
    options: int,
    layout: Layout = THREE_PEAKS,
) -> bytes:
    """One byte a deal from its start on ``layout``: 1 winnable, 0 not; with ``fewest_draws`` a
    win's fewest draws or 255 (lost)."""
    out = bytearray()
    for number in numbers:
        tableau, stock, top = _dealt(number, rules, options, layout)
        line = search(tableau, stock, rules, layout.all_mask, 0, top, fewest_draws, layout)[0]
        if not fewest_draws:
            out.append(line is not None)
        else:
            out.append(255 if line is None else line.count(_DRAW))
    return bytes(out)


# Every position at once ---------------------------------------------------------------------


def reach_table(tableau: bytes, stock: bytes, rules: Rules, layout: Layout = THREE_PEAKS) -> bytes:
    """The backward pass, in Python: reach[set * 16 + top], 1 + the most cards drawn from which
    (set, drawn, top) can be won, 0 if from none (drawing fewer never hurts: drawn < reach wins).

    Sets are worked from the fewest cards up, as a removal leaves a set numbered lower. Playing p
    on top t wins while drawn < reach of what it leaves; drawing on to stock card e and winning
    there by a play wins from every drawn <= e, whatever the top.
    """
    masks, removals, _number = table_sets(layout)
    ranks = list(tableau)
    size = len(stock)
    tops_of = [[t for t in range(14) if fits(rules, r, t)] for r in range(14)]
    drawn_to = [
        [max((e + 1 for e in range(v - 1) if stock[e] == t), default=0) for v in range(size + 2)]
        for t in range(14)
    ]
    reach = bytearray(len(masks) * ROW)
    reach[0:14] = bytes([size + 1] * 14)
    for i in range(1, len(masks)):
        row = [0] * 14
        for pos, after in removals[i]:
            rank = ranks[pos]
            won = reach[after * ROW + rank]
            for t in tops_of[rank]:
                if row[t] < won:
                    row[t] = won
        by_drawing = max(drawn_to[t][row[t]] for t in range(14))
        reach[i * ROW : i * ROW + 14] = bytes(max(row[t], by_drawing) for t in range(14))
    return bytes(reach)


class Prepared:
    """One deal's answers on its layout: the backward pass's table, made when first asked (a best
    win is the search's and needs none)."""

    __slots__ = ("_layout", "_reach", "_rules", "_stock", "_tableau")

    def __init__(
        self, tableau: bytes, stock: bytes, rules: Rules, layout: Layout = THREE_PEAKS
    ) -> None:
        self._tableau, self._stock, self._rules = tableau, stock, rules
        self._layout = layout
        self._reach: bytes | None = None

    @property
    def table(self) -> bytes:
        """reach[set * 16 + top]: 1 + the most cards drawn from which the position can be won."""
        if self._reach is None:
            self._reach = reach_table(self._tableau, self._stock, self._rules, self._layout)
        return self._reach

    def winnable_at(self, present: int, drawn: int, top: int) -> bool:
        return drawn < self.table[table_sets(self._layout)[2][present] * ROW + top]

    def first_win(self, present: int, drawn: int, top: int) -> int:
        """The lowest play that keeps the position won, else DRAW_STEP; -1 when it is lost."""
        reach = self.table
        _masks, removals, number = table_sets(self._layout)
        i = number[present]
        if drawn >= reach[i * ROW + top]:
            return -1
        for pos, after in removals[i]:
            rank = self._tableau[pos]
            if fits(self._rules, rank, top) and drawn < reach[after * ROW + rank]:
                return pos
        return DRAW_STEP

    def best_win(self, present: int, drawn: int, top: int) -> tuple[bytes | None, int]:
        """A win with the fewest draws, or None and the fewest cards any line leaves."""
        line, left, _nodes = search(
            self._tableau, self._stock, self._rules, present, drawn, top, True, self._layout
        )
        return line, left


def prepare(tableau: bytes, stock: bytes, rules: Rules, layout: Layout = THREE_PEAKS) -> Prepared:
    return Prepared(tableau, stock, rules, layout)


def winnable_positions(
    tableau: bytes,
    stock: bytes,
    rules: Rules,
    positions: Sequence[tuple[int, int, int]],
    cap: int,
    layout: Layout = THREE_PEAKS,
) -> list[bool]:
    """Can each position of one deal still be won? One backward pass answers them all (``cap``
    is the compiled kernel's)."""
    prepared = Prepared(tableau, stock, rules, layout)
    return [prepared.winnable_at(*position) for position in positions]


# The traditional best score -----------------------------------------------------------------


class _StreakSearch:
    """One deal under one rules on one layout, as small ints; ``value`` is the memoised search.

    The score never goes below 0 (a draw makes it max(score - 5, 0)), so a position's value is a
    pair: ``points``, the most points still to come with every draw charged its 5, and ``zero``,
    the best final score from a current score of 0. Any future turns a score x into max(x + a, b)
    (a play is x + gain, a draw max(x - 5, 0), and the two compose into the same shape), so from a
    score x >= 0 the best final score is max(x + points, zero). A play earning g to a position
    worth (p, z) is worth (g + p, max(g + p, z)); a draw, (p - 5, z); an ending, (0, 0)."""

    def __init__(
        self,
        tableau: bytes,
        stock: bytes,
        rules: Rules,
        wins_only: bool,
        layout: Layout = THREE_PEAKS,
    ) -> None:
        if len(tableau) != layout.size:
            raise ValueError(
                f"a tableau of {layout.id} has {layout.size} cards, not {len(tableau)}"
            )
        self.ranks = tuple(tableau)
        self.stock = tuple(stock)
        self.fits = tuple(tuple(fits(rules, r, t) for t in range(14)) for r in range(14))
        self.stuck = NO_WIN if wins_only else 0
        self.memo: dict[int, tuple[int, bool, int, bool]] = {}
        """(points, exact, zero, exact) by position key; not exact means "at most this"."""
        self.positions = range(layout.size)
        self.covered_by_mask = layout.covered_by_mask
        self.group_masks = layout.group_masks
        self.group_of = layout.group_of
        self.bonuses = scoring.traditional_bonuses(len(layout.groups))
        self.bound = bound_on(layout)
        self.shifts = (layout.size, layout.size + 6, layout.size + 10)
        """A position's key: present, then drawn (a stock has at most 52 cards), top and streak."""

    def plays(self, present: int, top: int) -> list[int]:
        """The free cards that fit ``top``, lowest position first."""
        fits, ranks, covered_by_mask = self.fits, self.ranks, self.covered_by_mask
        return [
            p
            for p in self.positions
            if present >> p & 1 and not present & covered_by_mask[p] and fits[ranks[p]][top]
        ]

    def bonus(self, after: int, pos: int) -> int:
        """The bonus for playing ``pos`` when ``after`` is left: its group's place in the order
        of emptying, or 0 if its group still has cards."""
        if after & self.group_masks[self.group_of[pos]]:
            return 0
        return self.bonuses[sum(1 for mask in self.group_masks if not after & mask) - 1]

    def value(
        self, present: int, drawn: int, top: int, streak: int, alpha: int, beta: int
    ) -> tuple[int, int]:
        """The position's (points, zero). ``zero`` is exact when above ``beta``; at or below it,
        a number at or below ``beta`` that is at least the true value. ``points`` the same with
        min(alpha, beta) for its threshold (a play's points count towards ``zero`` too)."""
        if not present:
            return 0, 0
        alpha = min(alpha, beta)
        at_drawn, at_top, at_streak = self.shifts
        key = present | drawn << at_drawn | top << at_top | streak << at_streak
        known = self.memo.get(key)
        if known is not None and (known[1] or known[0] <= alpha) and (known[3] or known[2] <= beta):
            return known[0], known[2]
        best_possible = self.bound(
            present, streak
        )  # at least both: zero counts no more than points
        if best_possible <= alpha:
            return best_possible, best_possible
        points = zero = NO_WIN - 1
        moved = False
        for p in self.plays(present, top):
            moved = True
            after = present & ~(1 << p)
            gain = streak + 1 + self.bonus(after, p)
            high = max(beta, zero)
            got, got_zero = self.value(
                after, drawn, self.ranks[p], streak + 1, min(max(alpha, points), high) - gain, high
            )
            points = max(points, gain + got)
            zero = max(zero, gain + got, got_zero)
            if min(points, zero) >= best_possible:
                break
        if drawn < len(self.stock) and min(points, zero) < best_possible:
            moved = True
            got, got_zero = self.value(
                present,
                drawn + 1,
                self.stock[drawn],
                0,
                max(alpha, points) - scoring.TRADITIONAL_DRAW,
                max(beta, zero),
            )
            points = max(points, got + scoring.TRADITIONAL_DRAW)
            zero = max(zero, got_zero)
        if not moved:
            points = zero = self.stuck
        self.memo[key] = (points, points > alpha, zero, zero > beta)
        return points, zero

    def reaches(
        self, present: int, drawn: int, top: int, streak: int, score: int, target: int
    ) -> bool:
        """Can the position, its current score ``score``, still end with ``target`` or more?"""
        points, zero = self.value(present, drawn, top, streak, target - score - 1, target - 1)
        return score + points >= target or zero >= target

    def line(
        self, present: int, drawn: int, top: int, streak: int, score: int, target: int
    ) -> bytes:
        """A line from the position, its current score ``score``, to the final score ``target``
        (its best, found again step by step), the score counted with the floor on the way."""
        steps = bytearray()
        while present:
            for p in self.plays(present, top):
                after = present & ~(1 << p)
                gained = score + streak + 1 + self.bonus(after, p)
                if self.reaches(after, drawn, self.ranks[p], streak + 1, gained, target):
                    steps.append(p)
                    present, top, streak, score = after, self.ranks[p], streak + 1, gained
                    break
            else:
                if drawn == len(self.stock):
                    break
                steps.append(_DRAW)  # no play keeps the target in reach, so the draw does
                score = scoring.traditional_after_draw(score)
                top, drawn, streak = self.stock[drawn], drawn + 1, 0
        return bytes(steps)


def _streak_searched(
    tableau: bytes,
    stock: bytes,
    rules: Rules,
    position: tuple[int, int, int, int],
    score: int,
    wins_only: bool,
    layout: Layout = THREE_PEAKS,
) -> tuple[int | None, bytes | None, int]:
    """The best final score from ``score``, a line (None, None when only wins count and the
    position cannot be won) and how many positions were memoised."""
    found = _StreakSearch(tableau, stock, rules, wins_only, layout)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 1000))
    try:
        points, zero = found.value(*position, NO_WIN - 1, NO_WIN - 1)
        if points <= NO_WIN // 2:
            return None, None, len(found.memo)
        final = max(score + points, zero)
        return final, found.line(*position, score, final), len(found.memo)
    finally:
        sys.setrecursionlimit(limit)


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
    """The best final score from the current ``score`` (never below 0) under the traditional
    scoring over every ending and over the wins alone, each with a line that reaches it (None,
    None when it cannot be won), and how many positions the search memoised; on ``layout``."""
    if score < 0:
        raise ValueError("the traditional score is never below 0")
    position = (present, drawn, top, streak)
    best, steps, memoised = _streak_searched(tableau, stock, rules, position, score, False, layout)
    assert best is not None and steps is not None  # every position ends somehow
    win, win_steps, _ = _streak_searched(tableau, stock, rules, position, score, True, layout)
    return best, steps, win, win_steps, memoised


# The visible-card strategy's plays ----------------------------------------------------------


@lru_cache(maxsize=2)
def _fits_rows(rules: Rules) -> tuple[tuple[bool, ...], ...]:
    """_fits_rows(rules)[top][rank]: can a card of ``rank`` go on ``top`` (0 takes anything)."""
    return tuple(tuple(fits(rules, rank, top) for rank in range(14)) for top in range(14))


class _Visible:
    """What the strategy asks of a layout about the cards it sees, kept as they are asked for
    (the same sets of cards come back in every play and every deal): made once per layout."""

    def __init__(self, layout: Layout) -> None:
        positions = range(layout.size)
        covered_by_mask, covers = layout.covered_by_mask, layout.covers
        self.all_mask = layout.all_mask
        self.shifts = (layout.size, layout.size + 6)
        """A position's key in a play's memo: present, then drawn (at most 52), then the top."""

        @lru_cache(maxsize=8192)
        def free(present: int) -> tuple[int, ...]:
            return tuple(
                p for p in positions if present >> p & 1 and not present & covered_by_mask[p]
            )

        @lru_cache(maxsize=32768)
        def uncovers(present: int, pos: int) -> bool:
            """Does removing ``pos`` turn a card face up (known from the layout alone)?"""
            after = present & ~(1 << pos)
            return any(after >> q & 1 and not after & covered_by_mask[q] for q in covers[pos])

        self.free = free
        self.uncovers = uncovers


@lru_cache(maxsize=16)
def _visible(layout: Layout) -> _Visible:
    return _Visible(layout)


def _plays_won(
    ranks: bytes,
    stock: bytes,
    top: int,
    rules: Rules,
    plays: int,
    rng: random.Random,
    layout: Layout = THREE_PEAKS,
) -> int:
    """How many of ``plays`` plays the strategy wins, on raw integers (a Game is too slow for
    hundreds of plays). The strategy plays a fitting face-up card when there is one, preferring one
    whose removal turns a card face up, then one after which another face-up card fits (a run
    goes on); ties by the rng; else it draws. It never looks at a face-down card or the stock."""
    if len(ranks) != layout.size:
        raise ValueError(f"a tableau of {layout.id} has {layout.size} cards, not {len(ranks)}")
    fits = _fits_rows(rules)
    seen = _visible(layout)
    at_drawn, at_top = seen.shifts
    size = len(stock)
    start = top
    won = 0
    known: dict[int, tuple[int, ...]] = {}  # the best-valued plays of a position seen before
    for _ in range(plays):
        present, drawn, top = seen.all_mask, 0, start
        while present:
            key = present | drawn << at_drawn | top << at_top
            chosen = known.get(key)
            if chosen is None:
                chosen = known[key] = _best_plays(present, ranks, fits, fits[top], seen)
            if not chosen:
                if drawn == size:
                    break
                top = stock[drawn]
                drawn += 1
                continue
            pos = chosen[0] if len(chosen) == 1 else chosen[rng.randrange(len(chosen))]
            present &= ~(1 << pos)
            top = ranks[pos]
        else:
            won += 1
    return won


def _best_plays(
    present: int,
    ranks: bytes,
    fits: tuple[tuple[bool, ...], ...],
    row: tuple[bool, ...],
    seen: _Visible,
) -> tuple[int, ...]:
    """The fitting face-up cards the strategy likes best (see _plays_won); () when none fits."""
    free = seen.free(present)
    fitting = [p for p in free if row[ranks[p]]]
    if len(fitting) < 2:
        return tuple(fitting)
    best = -1
    chosen: list[int] = []
    for p in fitting:
        after = fits[ranks[p]]
        value = 2 * seen.uncovers(present, p) + any(q != p and after[ranks[q]] for q in free)
        if value > best:
            best, chosen = value, [p]
        elif value == best:
            chosen.append(p)
    return tuple(chosen)


def plays_won(
    tableau: bytes,
    stock: bytes,
    top: int,
    rules: Rules,
    plays: int,
    rng: random.Random,
    layout: Layout = THREE_PEAKS,
) -> int:
    """How many of ``plays`` plays of the deal the visible-card strategy wins, ties by ``rng``;
    on ``layout``, whose size the tableau's ranks are."""
    return _plays_won(tableau, stock, top, rules, plays, rng, layout)


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
    """For each first move (a position, 255 the draw), the plays the visible-card strategy wins
    after it on the sampled deals; the ties from a SplitMix64 started afresh for each (sample,
    play), the same for every first move (as tripeaks/solver/_strategy.c's rollouts)."""
    size = layout.size
    samples = len(tableaux) // size if size else 0
    if samples < 1 or len(tableaux) != samples * size or len(stocks) % samples:
        raise ValueError("rollouts: malformed tables")
    length = len(stocks) // samples
    fits = _fits_rows(rules)
    seen = _visible(layout)
    free = seen.free(present)
    for first in firsts:
        if (first == 255 and drawn == length) or (first != 255 and first not in free):
            raise ValueError("rollouts: a first move that cannot be made")
    counts = [0] * len(firsts)
    for k in range(samples):
        ranks = tableaux[k * size : (k + 1) * size]
        deck = stocks[k * length : (k + 1) * length]
        for j in range(plays):
            start = (seed + _ROLLOUT_STEP * (k * plays + j + 1)) & _MASK64
            for m, first in enumerate(firsts):
                ties = SplitMix64(start)
                if first == 255:
                    counts[m] += _play_on(
                        ranks, deck, present, drawn + 1, deck[drawn], fits, seen, ties
                    )
                else:
                    after = present & ~(1 << first)
                    counts[m] += _play_on(ranks, deck, after, drawn, ranks[first], fits, seen, ties)
    return counts


_ROLLOUT_STEP = 0x632BE59BD9B4E019
_MASK64 = (1 << 64) - 1


def _play_on(
    ranks: bytes,
    deck: bytes,
    present: int,
    drawn: int,
    top: int,
    fits: tuple[tuple[bool, ...], ...],
    seen: _Visible,
    ties: SplitMix64,
) -> int:
    """One play of the strategy on from a position; 1 when it wins."""
    while present:
        chosen = _best_plays(present, ranks, fits, fits[top], seen)
        if not chosen:
            if drawn == len(deck):
                return 0
            top = deck[drawn]
            drawn += 1
            continue
        pos = chosen[0] if len(chosen) == 1 else chosen[ties.below(len(chosen))]
        present &= ~(1 << pos)
        top = ranks[pos]
    return 1
