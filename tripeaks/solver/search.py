"""Exact search over a deal with every card known: can it be won, the best win, a hint.

A position is three small numbers: the tableau cards still present (a 28-bit mask), how many stock
cards have been drawn and the rank on top of the discard. The search is a depth-first search over
those with a table of positions proved lost, and these sound rules to stop early:

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

The search's best win (fewest draws, which is the highest score) starts from any win and asks again
for a win with one draw fewer than the best so far, reusing the lost positions: a position lost with
more draws allowed is lost with fewer.

The variants of our scoring are answered too: open peaks changes nothing a search can know, and an
empty discard or a joker on top is the top rank WILD (0), on which any card goes; the joker in the
stock is a stock card of rank 0 (docs/solver.md "The variants"). Whether a game can be won is
answered under the traditional scoring too; its best score is tripeaks/solver/streak.py's.

The search runs compiled (tripeaks/solver/_search.c, built with the package) and falls back on the same
search in Python here when no C compiler was at hand; both visit the same positions in the same order.
Compiled, ``is_winnable`` caps the search and hands the rest to the backward pass of ``Answers``, and
``solve`` finds the best win by backward passes (``Answers.solve``); docs/solver.md has the why.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tripeaks.engine import score as scoring
from tripeaks.engine.cards import FULL_DECK, JOKER_RANK
from tripeaks.engine.codes import Deal, GameCode, NotOffered, deal
from tripeaks.engine.game import DRAW, Action, Game
from tripeaks.engine.layout import (
    COVERED_BY,
    COVERED_BY_MASK,
    COVERS,
    PEAK_MASKS,
    PEAK_OF,
    TABLEAU_SIZE,
)
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant

try:
    from tripeaks.solver import _search

    COMPILED = True
except ImportError:  # installed without a C compiler: the same search in Python, ~100x slower
    COMPILED = False

_DRAW = -1
"""A draw on the search's path; a play is its position 0-27."""
_NEVER = 99
"""A stock index past any stock: no such card is left to draw."""
WILD = JOKER_RANK
"""The top of an empty discard or of a joker, and the joker's own rank in the stock: anything goes
on it (docs/solver.md "The wildcard")."""
_ANY_TOP = 15 << 28
"""The lost table's key bits for "these cards with any top" (a top is 0-13)."""


def fits(rules: Rules, rank: int, on: int) -> bool:
    """Can a tableau card of ``rank`` go on a discard of rank ``on``, WILD taking anything? No card
    goes on as the joker (rank 0: it is only ever drawn)."""
    return rank != WILD and (on == WILD or rules.fits(rank, on))


def _bits(mask: int) -> list[int]:
    """The positions in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _lying_under(positions: int) -> int:
    """The cards that the cards at ``positions`` (a mask) lie on."""
    return functools.reduce(operator.or_, (1 << q for p in _bits(positions) for q in COVERS[p]), 0)


_LYING_UNDER = tuple(tuple(_lying_under(b << 7 * k) for b in range(128)) for k in range(4))
"""For each 7 positions and each set of them, the cards those lie on: free cards in four looks
(the compiled search gets the same table as bytes)."""
_LYING_UNDER_BYTES = struct.pack("<512I", *(m for chunk in _LYING_UNDER for m in chunk))


def free_mask(present: int) -> int:
    """The cards present with none of their covering cards left (face up), as a mask."""
    lying = _LYING_UNDER
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


@dataclass(frozen=True, slots=True)
class Solution:
    """What the solver proved about a position.

    ``line`` is a best win (fewest draws) from the position, empty when it cannot be won;
    ``final_score`` is the engine's score after replaying it; ``max_removed`` counts every tableau
    card gone at the best reachable point, those removed before the position included.
    """

    winnable: bool
    line: tuple[Action, ...]
    draws: int
    final_score: int | None
    max_removed: int


class _Search:
    """One deal under one rules, prepared as tables of ints for the search."""

    def __init__(self, cards: Deal, rules: Rules) -> None:
        self.wraps = rules.wraps
        self.ranks = tuple(card.rank for card in cards.tableau)
        self.stock = tuple(card.rank for card in cards.stock)
        self.neighbours = tuple(
            tuple(n for n in range(1, 14) if fits(rules, n, r)) for r in range(14)
        )
        """neighbours[r]: the ranks that go on r (every rank on WILD)."""
        self.rank_mask = tuple(
            sum(1 << p for p in range(TABLEAU_SIZE) if self.ranks[p] == r) for r in range(14)
        )
        self.fit_mask = tuple(
            sum(1 << p for p in range(TABLEAU_SIZE) if fits(rules, self.ranks[p], r))
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
        """lost[present | top << 28]: the fewest cards drawn at which that position was lost (top 15,
        _ANY_TOP: with any top). Lost with d drawn means lost with more drawn: whatever the later position
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
                    if not sources & ~NO_BRIDGE_MASK[low.bit_length() - 1]:
                        lonely |= low
            if spare >= 0 and not lonely:
                continue
            if lonely & (lonely - 1) or must or r not in self.neighbours[top]:
                return -1
            if free < 0:
                free = free_mask(present)
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
        key = present | top << 28
        if self.lost.get(key, _NEVER) <= drawn:
            return False
        counts = [(present & m).bit_count() for m in self.rank_mask]
        if not self.predecessors_suffice(counts, drawn, top, limit):
            return False
        moves = _bits(must or free_mask(present) & self.fit_mask[top])
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
            and self.lost.get(present | _ANY_TOP, _NEVER) > drawn
        ):
            rank = self.stock[drawn]
            nxt = self.needs(present, drawn + 1, rank, limit, self.neighbours[rank])
            if nxt >= 0:
                path.append(_DRAW)
                if self._dfs(present, drawn + 1, rank, limit, nxt, path):
                    return True
                path.pop()
        for lost in (key, present | _ANY_TOP):
            if self.lost.get(lost, _NEVER) > drawn:
                self.lost[lost] = drawn
        return False

    def never_removed(self, present: int, drawn: int, top: int) -> int:
        """Cards no line can remove: no neighbour left to go on, and those lying under them."""
        free = free_mask(present)
        stuck = 0
        for pos in _bits(present):
            rank = self.ranks[pos]
            if self.stock_fits[rank][len(self.stock)] > self.stock_fits[rank][drawn] or (
                free >> pos & 1 and rank in self.neighbours[top]
            ):
                continue
            if not present & self.fit_mask[rank] & ~NO_BRIDGE_MASK[pos]:
                stuck |= 1 << pos | UNDER_MASK[pos]
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

        def visit(present: int, drawn: int, top: int) -> None:
            # As in the search: explored to the end with fewer cards drawn, it reached at least as
            # much. Only a finished position counts: one still being explored may count on this one.
            key = present | top << 28
            if best[0] <= floor or seen.get(key, _NEVER) <= drawn:
                return
            left = present.bit_count()
            if left < best[0]:
                best[0] = left
            dead_end = False
            for pos in _bits(free_mask(present) & self.fit_mask[top]):
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


_DRAW_BYTE = 255
"""A draw in a line from the compiled search."""


_UNDER_BYTES = struct.pack(f"<{TABLEAU_SIZE}I", *UNDER_MASK)
_NO_BRIDGE_BYTES = struct.pack(f"<{TABLEAU_SIZE}I", *NO_BRIDGE_MASK)


@functools.cache
def _fits_table(rules: Rules) -> bytes:
    """fits[on * 14 + rank]: the rules' one question, asked once for every pair of ranks."""
    return bytes(fits(rules, rank, on) for on in range(14) for rank in range(14))


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


def _known(variant: Variant, scored: bool) -> bool:
    """Does the search answer this game's question? Whether a position can be won (not
    ``scored``) it answers for every variant and either scoring: open peaks changes nothing it can
    know, an empty discard and the joker are its wildcard, and the scoring decides no move. The best
    win (``scored``) it answers under our scoring alone: the traditional scoring's best score is
    another search (tripeaks/solver/streak.py)."""
    return not scored or variant.scoring is Scoring.OURS


def _standard(game: Game, scored: bool = True) -> Game:
    """The game, if the searches know its question (see _known); NotOffered for the best win
    under the traditional scoring (the searches would answer our scoring's question instead)."""
    if not _known(game.variant, scored):
        raise NotOffered(game.variant, game.code, "T")
    return game


def _code(game_or_code: GameCode | str, scored: bool = True) -> GameCode:
    """The code of a game the searches know; NotOffered otherwise (see _standard)."""
    code = GameCode.parse(game_or_code) if isinstance(game_or_code, str) else game_or_code
    if not _known(code.variant, scored):
        raise NotOffered(code.variant, code, "T")
    return code


def _start(game_or_code: Game | GameCode | str, rules: Rules | None, scored: bool = True) -> Game:
    if isinstance(game_or_code, Game):
        return _standard(game_or_code, scored)
    code = _code(game_or_code, scored)
    if rules is not None:
        code = code.with_rules(rules)
    return Game.new(code)


_PLAYS: tuple[Action, ...] = tuple(Action.play(pos) for pos in range(TABLEAU_SIZE))
"""The 28 plays, made once (an Action is frozen): a line shares them instead of making an object a
step, which the garbage collector would then walk for as long as the line is kept."""


def _actions(path: list[int]) -> tuple[Action, ...]:
    return tuple(DRAW if step == _DRAW else _PLAYS[step] for step in path)


def _compiled_line(steps: bytes) -> tuple[Action, ...]:
    """A line from the compiled answers (a position a play, 255 a draw) as the engine's actions."""
    return tuple(DRAW if step == _DRAW_BYTE else _PLAYS[step] for step in steps)


def _replayed_score(game: Game, line: tuple[Action, ...]) -> int:
    """The score the engine reports after playing ``line`` on a copy of ``game``."""
    copy = game.copy()
    for action in line:
        copy.apply(action)
    return copy.score


def _line_score(game: Game, steps: bytes) -> int:
    """The score the engine reports after the compiled line ``steps``, by the engine's own scoring
    of a draw and a play (tripeaks/engine/score.py) without replaying the game: a replay through the
    engine costs a millisecond; the tests replay every line and compare."""
    return _score_after(game.score, game.present, steps)


def _score_after(score: int, present: int, steps: bytes) -> int:
    """_line_score from a score and the cards on the table."""
    for step in steps:
        if step == _DRAW_BYTE:
            score = scoring.after_draw(score)
        else:
            present &= ~(1 << step)
            score = scoring.after_removal(score, not present & PEAK_MASKS[PEAK_OF[step]])
    return score


def _explore(
    game: Game, best_win: bool, compiled: bool | None = None
) -> tuple[list[int] | None, int, int]:
    """Search from ``game``: (a winning path or None, cards left at best when lost, nodes visited).

    With ``best_win`` the path has the fewest draws and a lost position's best is counted; without
    it the first win found is returned. ``compiled`` picks the C search (the default when it was
    built) or this module's; both walk the same positions in the same order.
    """
    present, drawn, top = game.present, game.drawn, game.top_rank
    if compiled is None:
        compiled = COMPILED
    if compiled:
        line, left, nodes = _search.solve(*_position(game), best_win)
        path = None if line is None else [_DRAW if step == _DRAW_BYTE else step for step in line]
        return path, left, nodes
    search = _Search(game.deal, game.rules)
    best = search.run(present, drawn, top, len(search.stock))
    if best is None:
        left = search.most_removed(present, drawn, top) if best_win else 0
        return None, left, search.nodes
    while best_win:
        draws = best.count(_DRAW)
        if not draws:
            break
        better = search.run(present, drawn, top, drawn + draws - 1)
        if better is None:
            break
        best = better
    return best, 0, search.nodes


DECIDE_CAP = 600
"""Positions the compiled depth-first search may visit in is_winnable before it hands the deal to
the backward pass: about a quarter of the backward pass's own time. Half the deals are decided in
fewer (tens of microseconds), and none costs much more than one backward pass. A lost deal that
the search cannot refute (nearly every lost Classic deal: a median of 24,000 positions) pays the
cap and then the pass: 600 positions are about 50 µs of a lost deal's 0.22 ms, 1,500 were 0.12 ms
(docs/solver.md)."""


@functools.cache
def _table_sets() -> tuple[
    tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...], dict[int, int]
]:
    """Every set of cards that can be on the table together, numbered by card count, then mask.

    A card leaves only when both cards over it are gone, so only 22,932 sets ever occur. For each:
    its mask, its free cards (lowest first) each with the number of the set its removal leaves,
    and the number of each mask. The compiled extension numbers them the same way.
    """
    full = (1 << TABLEAU_SIZE) - 1
    seen = {full}
    frontier = [full]
    while frontier:
        reached = []
        for present in frontier:
            for pos in _bits(free_mask(present)):
                after = present & ~(1 << pos)
                if after not in seen:
                    seen.add(after)
                    reached.append(after)
        frontier = reached
    masks = tuple(sorted(seen, key=lambda mask: (mask.bit_count(), mask)))
    number = {mask: i for i, mask in enumerate(masks)}
    removals = tuple(
        tuple((pos, number[mask & ~(1 << pos)]) for pos in _bits(free_mask(mask))) for mask in masks
    )
    return masks, removals, number


_ROW = 16
"""Bytes of the answer table per set: one per top rank 1-13 and one for WILD (0; 14 and 15
unused)."""
_PREPARED_HEADER = 272
"""What the compiled answers keep before their table: the deal's ranks and its fits."""


def _reach_table(cards: Deal, rules: Rules) -> bytes:
    """The backward pass, in Python: reach[set * 16 + top], 1 + the most cards drawn from which
    (set, drawn, top) can be won, 0 if from none (drawing fewer never hurts: drawn < reach wins).

    Sets are worked from the fewest cards up, as a removal leaves a set numbered lower. Playing p
    on top t wins while drawn < reach of what it leaves; drawing on to stock card e and winning
    there by a play wins from every drawn <= e, whatever the top.
    """
    masks, removals, _number = _table_sets()
    ranks = [card.rank for card in cards.tableau]
    stock = [card.rank for card in cards.stock]
    size = len(stock)
    tops_of = [[t for t in range(14) if fits(rules, r, t)] for r in range(14)]
    drawn_to = [
        [max((e + 1 for e in range(v - 1) if stock[e] == t), default=0) for v in range(size + 2)]
        for t in range(14)
    ]
    reach = bytearray(len(masks) * _ROW)
    reach[0:14] = bytes([size + 1] * 14)
    for i in range(1, len(masks)):
        row = [0] * 14
        for pos, after in removals[i]:
            rank = ranks[pos]
            won = reach[after * _ROW + rank]
            for t in tops_of[rank]:
                if row[t] < won:
                    row[t] = won
        by_drawing = max(drawn_to[t][row[t]] for t in range(14))
        reach[i * _ROW : i * _ROW + 14] = bytes(max(row[t], by_drawing) for t in range(14))
    return bytes(reach)


class Answers:
    """Every position of one deal under one rules, answered at once.

    Made once per game by the backward pass (a millisecond compiled); after that whether any
    position of the game can still be won, and a hint, are a look in its table.
    """

    __slots__ = ("_prepared", "_ranks", "_reach", "_rules")

    def __init__(self, cards: Deal, rules: Rules, compiled: bool | None = None) -> None:
        self._ranks = tuple(card.rank for card in cards.tableau)
        self._rules = rules
        self._prepared: bytes | None = None
        if COMPILED if compiled is None else compiled:
            self._prepared = _search.prepare(
                bytes(self._ranks),
                bytes(card.rank for card in cards.stock),
                _fits_table(rules),
                _LYING_UNDER_BYTES,
            )
            self._reach = b""  # the table is in _prepared: kept once, not twice (367 KB a deal)
        else:
            self._reach = _reach_table(cards, rules)

    @classmethod
    def of(cls, game: Game) -> Answers:
        """The answers for the game's deal and rules (whether a position can be won, under either
        scoring; :meth:`solve`'s best win is our scoring's)."""
        return cls(_standard(game, scored=False).deal, game.rules)

    @property
    def table(self) -> bytes:
        """reach[set * 16 + top]: 1 + the most cards drawn from which the position can be won
        (compiled, a copy made on each call: the answers keep only their prepared buffer)."""
        if self._prepared is not None:
            return self._prepared[_PREPARED_HEADER:]
        return self._reach

    def winnable_at(self, present: int, drawn: int, top: int) -> bool:
        """Can the position (cards on the table, cards drawn, rank on the discard) still be won?"""
        if self._prepared is not None:
            return _search.winnable_from(self._prepared, present, drawn, top)
        return drawn < self._reach[_table_sets()[2][present] * _ROW + top]

    def winnable(self, game: Game) -> bool:
        """Can the game still be won from where it stands?"""
        return self.winnable_at(game.present, game.drawn, game.top_rank)

    def hint(self, game: Game) -> Action | None:
        """A first move of a win: the lowest card whose play keeps the game won, else the draw;
        None once the game is won or can no longer be won. Not always the first move of the
        fewest-draws win that ``hint`` gives: it prefers a play to a draw."""
        if game.is_won or game.is_stuck:
            return None
        present, drawn, top = game.present, game.drawn, game.top_rank
        if self._prepared is not None:
            step = _search.hint_from(self._prepared, present, drawn, top)
        else:
            step = self._first_win(present, drawn, top)
        if step < 0:
            return None
        return DRAW if step == _DRAW_BYTE else _PLAYS[step]

    def solve(self, game: Game) -> Solution:
        """The best win from the game (fewest draws, the highest score): compiled, by backward
        passes over the stock cut after L cards, L found by a binary search (docs/solver.md); the
        Python fallback is the search. A lost game reports the most cards any line removes."""
        _standard(game)
        if not game.present:
            return Solution(True, (), 0, game.score, TABLEAU_SIZE)
        if self._prepared is None:
            return _searched(game)
        steps, left = _search.best_from(self._prepared, game.present, game.drawn, game.top_rank)
        if steps is None:
            return Solution(False, (), 0, None, TABLEAU_SIZE - left)
        line = _compiled_line(steps)
        return Solution(True, line, steps.count(_DRAW_BYTE), _line_score(game, steps), TABLEAU_SIZE)

    def _first_win(self, present: int, drawn: int, top: int) -> int:
        _masks, removals, number = _table_sets()
        i = number[present]
        if drawn >= self._reach[i * _ROW + top]:
            return -1
        for pos, after in removals[i]:
            rank = self._ranks[pos]
            if fits(self._rules, rank, top) and drawn < self._reach[after * _ROW + rank]:
                return pos
        return _DRAW_BYTE


def winnable_positions(
    cards: Deal, rules: Rules, positions: Sequence[tuple[int, int, int]]
) -> list[bool]:
    """Can each position (cards on the table, cards drawn, rank on the discard) of one deal still
    be won? A few positions of a deal that is asked about once (a fair hint's samples): compiled,
    each is the capped search, which mostly finds a win in microseconds, with the backward pass
    only for those it cannot settle; five times faster for a fair hint than preparing every
    position of the deal (:class:`Answers`), which pays when a deal is asked about again and again."""
    if not COMPILED:
        answers = Answers(cards, rules)
        return [answers.winnable_at(*position) for position in positions]
    ranks = bytes(card.rank for card in cards.tableau)
    stock = bytes(card.rank for card in cards.stock)
    fits_table, wraps = _fits_table(rules), rules.wraps
    return [
        not present
        or _search.decide(
            ranks,
            stock,
            fits_table,
            _LYING_UNDER_BYTES,
            _UNDER_BYTES,
            _NO_BRIDGE_BYTES,
            wraps,
            present,
            drawn,
            top,
            DECIDE_CAP,
        )[0]
        for present, drawn, top in positions
    ]


def _decide(game: Game, cap: int = DECIDE_CAP) -> tuple[bool, bool]:
    """(can the game be won, whether the backward pass answered), compiled: the capped search
    first, the backward pass when the search passes ``cap`` positions."""
    return _search.decide(*_position(game), cap)


def _position(game: Game) -> tuple[bytes, bytes, bytes, bytes, bytes, bytes, bool, int, int, int]:
    """The deal, its rules' tables and the position, as the compiled searches take them."""
    return (
        bytes(card.rank for card in game.deal.tableau),
        bytes(card.rank for card in game.deal.stock),
        _fits_table(game.rules),
        _LYING_UNDER_BYTES,
        _UNDER_BYTES,
        _NO_BRIDGE_BYTES,
        game.rules.wraps,
        game.present,
        game.drawn,
        game.top_rank,
    )


def solve(game_or_code: Game | GameCode | str, rules: Rules | None = None) -> Solution:
    """Prove whether the position can be won and find its best win (fewest draws, highest score).

    Compiled, from the backward pass (Answers.solve); otherwise by the search. From a code,
    compiled, no Game is built: the deal's ranks go from its deck to the passes."""
    if COMPILED and not isinstance(game_or_code, Game):
        code = _code(game_or_code)
        if rules is not None:
            code = code.with_rules(rules)
        return _solved_deal(code)
    game = _start(game_or_code, rules)
    if not game.present:
        return Solution(True, (), 0, game.score, TABLEAU_SIZE)
    if COMPILED:
        return Answers.of(game).solve(game)
    return _searched(game)


_RANK_OF_CARD = bytes(
    FULL_DECK[index].rank if index < len(FULL_DECK) else 0 for index in range(256)
)
"""A card index's rank, as a table for bytes.translate: a deal's 52 ranks in one call."""


EMPTY_DISCARD = 1
JOKER = 2
"""The compiled dealing's option bits: the variants that change the cards (docs/solver.md)."""


def _options(variant: Variant) -> int:
    """The option bits of a variant for the compiled dealing (open peaks deals the same cards)."""
    return (EMPTY_DISCARD if variant.empty_discard else 0) | (JOKER if variant.joker else 0)


def _start_ranks(code: GameCode) -> tuple[bytes, bytes, int]:
    """The ranks of a code's tableau and stock and the top's rank at its start, either form, with
    no card, deal or game object made for a standard deal: a handful of Python objects (the
    garbage collector walks every tracked object the process holds whenever enough new ones pile
    up; a Game and its cards were hundreds). With an empty discard or a joker they come from the
    code's Deal."""
    if _options(code.variant):
        cards = deal(code)
        tableau = bytes(card.rank for card in cards.tableau)
        stock = bytes(card.rank for card in cards.stock)
        return tableau, stock, WILD if cards.discard is None else cards.discard.rank
    deck = code.deck() if code.long else _search.deal(code.number)
    ranks = deck.translate(_RANK_OF_CARD)
    return ranks[:TABLEAU_SIZE], ranks[TABLEAU_SIZE + 1 :], ranks[TABLEAU_SIZE]


def _solved_deal(code: GameCode) -> Solution:
    """solve from the start of the code's deal under its rules, compiled (TP1 and TP2 alike: the
    ranks come from the code's deck)."""
    rules = code.rules
    tableau, stock, top = _start_ranks(code)
    prepared = _search.prepare(tableau, stock, _fits_table(rules), _LYING_UNDER_BYTES)
    full = (1 << TABLEAU_SIZE) - 1
    steps, left = _search.best_from(prepared, full, 0, top)
    if steps is None:
        return Solution(False, (), 0, None, TABLEAU_SIZE - left)
    score = _score_after(scoring.START, full, steps)
    return Solution(True, _compiled_line(steps), steps.count(_DRAW_BYTE), score, TABLEAU_SIZE)


def _searched(game: Game, compiled: bool | None = None) -> Solution:
    """The best win by the search (fewest draws asked again and again), the Python fallback's
    solve; the tests hold the backward pass's answers against it, compiled and not."""
    if not game.present:
        return Solution(True, (), 0, game.score, TABLEAU_SIZE)
    best, left, _nodes = _explore(game, best_win=True, compiled=compiled)
    if best is None:
        return Solution(False, (), 0, None, TABLEAU_SIZE - left)
    line = _actions(best)
    return Solution(True, line, best.count(_DRAW), _replayed_score(game, line), TABLEAU_SIZE)


def is_winnable(game_or_code: Game | GameCode | str, rules: Rules | None = None) -> bool:
    """Can the position be won at all? Stops at the first win found.

    From a TP1 code, compiled, the deal is dealt and decided in C from its number: no cards or
    game are built in Python; a TP2 code's ranks go from its deck to the same search."""
    if COMPILED and not isinstance(game_or_code, Game):
        code = _code(game_or_code, scored=False)
        rules = code.rules if rules is None else rules
        if code.long:
            return _decide_start(code.with_rules(rules))
        return _decide_deal(code.number, rules, options=_options(code.variant))[0]
    game = _start(game_or_code, rules, scored=False)
    if not game.present:
        return True
    if COMPILED:
        return _decide(game)[0]
    return _explore(game, best_win=False)[0] is not None


_SHARED: dict[Rules, tuple[bytes, bytes, bytes, bytes, bool]] = {}
"""What every deal of one rules hands the compiled search, by rules: one look per decision (the
cached table and the wraps property were half a microsecond of a median of tens)."""


def _decide_deal(
    number: int, rules: Rules, cap: int = DECIDE_CAP, options: int = 0
) -> tuple[bool, bool, int]:
    """Deal ``number`` from its start, compiled: (winnable, whether the backward pass answered,
    positions the search visited). ``options``: EMPTY_DISCARD and JOKER bits, dealt in C too."""
    shared = _SHARED.get(rules) or _shared(rules)
    if options:
        return _search.decide_deal(number, *shared, cap, options)
    return _search.decide_deal(number, *shared, cap)


def _decide_start(code: GameCode, cap: int = DECIDE_CAP) -> bool:
    """Can the code's deal be won from its start under its rules? Compiled, from its deck's ranks:
    the long form's way (its deck is no deal number the C dealing could take)."""
    tableau, stock, top = _start_ranks(code)
    full = (1 << TABLEAU_SIZE) - 1
    shared = _SHARED.get(code.rules) or _shared(code.rules)
    fits_table, lying_under, under, no_bridge, wraps = shared
    return _search.decide(
        tableau, stock, fits_table, lying_under, under, no_bridge, wraps, full, 0, top, cap
    )[0]


def _shared(rules: Rules) -> tuple[bytes, bytes, bytes, bytes, bool]:
    """The tables every deal of ``rules`` hands the compiled search, made once and kept."""
    shared = _fits_table(rules), _LYING_UNDER_BYTES, _UNDER_BYTES, _NO_BRIDGE_BYTES, rules.wraps
    _SHARED[rules] = shared
    return shared


LOST = 255
"""In survey_numbers' answer with fewest draws: the deal cannot be won."""


def survey_numbers(
    numbers: Sequence[int], rules: Rules | Variant, fewest_draws: bool = False
) -> bytes:
    """Many deals by number, each from its start: one byte a deal, 1 winnable and 0 not; with
    ``fewest_draws``, a win's fewest draws (0-25) or LOST. Compiled, the whole batch is dealt and
    decided in C; otherwise deal by deal here. A Variant's options are dealt too; its scoring
    changes neither a verdict nor the fewest draws of a win, so it is set aside."""
    variant = rules if isinstance(rules, Variant) else Variant(rules)
    variant = replace(variant, scoring=Scoring.OURS)
    rules = variant.rules
    if COMPILED:
        packed = struct.pack(f"<{len(numbers)}Q", *numbers)
        return _search.survey(
            packed,
            _fits_table(rules),
            _LYING_UNDER_BYTES,
            _UNDER_BYTES,
            _NO_BRIDGE_BYTES,
            rules.wraps,
            DECIDE_CAP,
            fewest_draws,
            _options(variant),
        )
    out = bytearray()
    for number in numbers:
        code = GameCode.from_number(number, variant)
        if not fewest_draws:
            out.append(is_winnable(code))
            continue
        solution = solve(code)
        out.append(solution.draws if solution.winnable else LOST)
    return bytes(out)


def hint(game: Game) -> Action | None:
    """The first move of a best win from here; None once the game is over or can no longer be won."""
    if game.is_won or game.is_stuck:
        return None
    solution = solve(game)
    return solution.line[0] if solution.winnable else None


def random_winnable_code(rules: Rules | Variant, rng_tries: int = 1000) -> GameCode:
    """Random codes until one is proved winnable under ``rules`` or a variant (nearly always the
    first few)."""
    for _ in range(rng_tries):
        code = GameCode.random(rules)
        if is_winnable(code):
            return code
    name = rules.name if isinstance(rules, Rules) else f"{rules.rules.name} -{rules.options}"
    raise RuntimeError(f"no winnable deal in {rng_tries} random codes under {name} rules")


__all__ = [
    "COMPILED",
    "DECIDE_CAP",
    "LOST",
    "UNDER_MASK",
    "Answers",
    "Solution",
    "free_mask",
    "hint",
    "is_winnable",
    "random_winnable_code",
    "solve",
    "survey_numbers",
]
