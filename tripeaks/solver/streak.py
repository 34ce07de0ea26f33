"""The exact best score of a game under the traditional scoring, and a line that reaches it.

Under our scoring every win costs the same 28 removals, so the best win is the fewest draws
(tripeaks/solver/search.py). Under the traditional scoring (docs/rules.md "Scoring and variants") it is
not: the n-th card of a streak scores n and a draw costs 5, so a draw that lets a longer streak
follow can be worth it. The search here therefore keeps the streak in its state: a position is the
cards present (a 28-bit mask), the cards drawn, the rank on top and the streak, and its value is the
most points the rest of the game can still earn. The peaks emptied so far follow from the cards
present, and so does every bonus still to come.

After a draw the streak is 0 and the top is the card drawn, so the best future of a post-draw
position depends on (present, drawn) alone. The compiled search (tripeaks/solver/_streak.c) memoises
exactly those and walks each run of plays between two draws depth first; it finds the best over
every ending and the best win in one pass. Without the extension, the Python search here is a
depth-first search with a memo over every position and a sound upper bound to prune with (every
card left in the current streak, every peak not yet emptied still paying its bonus): a position
searched under a threshold it could not beat is remembered as "at most this", one that beat it as
its exact value. Two different searches, so the tests hold each to the other and both to an
exhaustive search through the engine (docs/solver.md "Traditional scoring: the best score").
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass

from tripeaks.engine import score as scoring
from tripeaks.engine.codes import Deal, GameCode
from tripeaks.engine.game import DRAW, Action, Game
from tripeaks.engine.layout import COVERED_BY_MASK, PEAK_MASKS, PEAK_OF, TABLEAU_SIZE
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring

try:
    from tripeaks.solver import _streak

    COMPILED = True
except ImportError:  # installed without a C compiler: the Python search below
    COMPILED = False

NO_WIN = -(10**6)
"""The value of a position that cannot be won, when only wins count: below any real score."""
_DRAW = 255
"""A draw in a line of positions (a play is its position 0-27)."""
_EARNED: tuple[int, ...] = tuple(
    sum(scoring.TRADITIONAL_PEAK_BONUSES[:k]) for k in range(len(PEAK_MASKS) + 1)
)
"""The bonus points earned once k peaks are empty (0, 15, 30, 60)."""
_ALL_BONUSES = _EARNED[-1]
_PLAYS: tuple[Action, ...] = tuple(Action.play(pos) for pos in range(TABLEAU_SIZE))


@dataclass(frozen=True, slots=True)
class StreakSolution:
    """The best a position allows under the traditional scoring, counted as the game's score.

    ``score`` is the best final score over every way the game can end (won, or stuck with the stock
    used up) and ``line`` one way to reach it from the position (``won`` says whether that line
    wins). ``win_score`` and ``win_line`` are the same over the winning lines alone (None and an
    empty line when the position cannot be won). A game already over has its own score and no line.
    """

    score: int
    line: tuple[Action, ...]
    won: bool
    winnable: bool
    win_score: int | None
    win_line: tuple[Action, ...]
    memoised: int = 0
    """How many positions the search remembered (a figure for the bench; the compiled search
    remembers only the positions right after a draw, the Python one every position it finished)."""


def _peaks_empty(present: int) -> int:
    return sum(1 for mask in PEAK_MASKS if not present & mask)


def _bonus(after: int, pos: int) -> int:
    """The bonus for playing ``pos`` when ``after`` is left: its peak's place in the order of
    emptying, or 0 if its peak still has cards."""
    if after & PEAK_MASKS[PEAK_OF[pos]]:
        return 0
    return scoring.TRADITIONAL_PEAK_BONUSES[_peaks_empty(after) - 1]


def bound(present: int, streak: int) -> int:
    """At most this many points are still to come: every card left in the current streak, and
    every bonus not earned yet. No draw is charged. Sound, so the search may prune with it."""
    left = present.bit_count()
    return left * streak + left * (left + 1) // 2 + _ALL_BONUSES - _EARNED[_peaks_empty(present)]


class _Search:
    """One deal under one rules, as small ints; ``value`` is the memoised search."""

    def __init__(self, cards: Deal, rules: Rules, wins_only: bool) -> None:
        self.ranks = tuple(card.rank for card in cards.tableau)
        self.stock = tuple(card.rank for card in cards.stock)
        self.fits = tuple(tuple(_fits(rules, r, t) for t in range(14)) for r in range(14))
        self.stuck = NO_WIN if wins_only else 0
        self.memo: dict[int, tuple[int, bool]] = {}
        """(value, exact) by position key; not exact means "at most value"."""

    def plays(self, present: int, top: int) -> list[int]:
        """The free cards that fit ``top``, lowest position first."""
        fits, ranks = self.fits, self.ranks
        return [
            p
            for p in range(TABLEAU_SIZE)
            if present >> p & 1 and not present & COVERED_BY_MASK[p] and fits[ranks[p]][top]
        ]

    def value(self, present: int, drawn: int, top: int, streak: int, alpha: int) -> int:
        """The most points still to come from the position, exact when above ``alpha``; at or
        below it, a number at or below ``alpha`` that is at least the true value."""
        if not present:
            return 0
        key = present | drawn << 28 | top << 33 | streak << 37
        known = self.memo.get(key)
        if known is not None and (known[1] or known[0] <= alpha):
            return known[0]
        best_possible = bound(present, streak)
        if best_possible <= alpha:
            return best_possible
        best = NO_WIN - 1
        moved = False
        for p in self.plays(present, top):
            moved = True
            after = present & ~(1 << p)
            gain = streak + 1 + _bonus(after, p)
            got = gain + self.value(
                after, drawn, self.ranks[p], streak + 1, max(alpha, best) - gain
            )
            if got > best:
                best = got
                if best >= best_possible:
                    break
        if drawn < len(self.stock) and best < best_possible:
            moved = True
            gain = scoring.TRADITIONAL_DRAW
            got = gain + self.value(
                present, drawn + 1, self.stock[drawn], 0, max(alpha, best) - gain
            )
            best = max(best, got)
        if not moved:
            best = self.stuck
        self.memo[key] = (best, best > alpha)
        return best

    def line(self, present: int, drawn: int, top: int, streak: int, target: int) -> bytes:
        """A line whose points are ``target``, the position's value (found again step by step)."""
        steps = bytearray()
        while present:
            for p in self.plays(present, top):
                after = present & ~(1 << p)
                gain = streak + 1 + _bonus(after, p)
                need = target - gain
                if self.value(after, drawn, self.ranks[p], streak + 1, need - 1) >= need:
                    steps.append(p)
                    present, top, streak, target = after, self.ranks[p], streak + 1, need
                    break
            else:
                if drawn == len(self.stock):
                    break
                steps.append(_DRAW)
                target -= scoring.TRADITIONAL_DRAW
                top, drawn, streak = self.stock[drawn], drawn + 1, 0
        return bytes(steps)


def _traditional(game_or_code: Game | GameCode | str) -> Game:
    """The game to solve: a traditional-scoring game with any options. Open peaks the search needs
    not know (every card is known to it anyway); an empty discard and a joker are a top of rank 0,
    the wildcard (:func:`_fits`)."""
    game = game_or_code if isinstance(game_or_code, Game) else Game.new(game_or_code)
    if game.variant.scoring is not Scoring.TRADITIONAL:
        raise ValueError(
            "best_score answers the traditional scoring (a code ending in -T); "
            "tripeaks.solver.search.solve answers ours"
        )
    if game.left:
        raise ValueError("the game was left: it has no more score to make")
    return game


def _fits(rules: Rules, rank: int, top: int) -> bool:
    """Does a table card of ``rank`` go on ``top``? Top 0 is the wildcard (the empty discard, or
    a joker on it: Game.top_rank), which takes any card; a table card is never rank 0."""
    if not rank:
        return False
    return top == 0 or rules.fits(rank, top)


_FITS_CACHE: dict[Rules, bytes] = {}


def _fits_bytes(rules: Rules) -> bytes:
    if rules not in _FITS_CACHE:
        _FITS_CACHE[rules] = bytes(_fits(rules, r, t) for r in range(14) for t in range(14))
    return _FITS_CACHE[rules]


_LAYOUT = struct.pack("<28I", *COVERED_BY_MASK) + struct.pack("<3I", *PEAK_MASKS)


def _searched(
    cards: Deal, rules: Rules, position: tuple[int, int, int, int], wins_only: bool
) -> tuple[int | None, bytes | None, int]:
    """The Python search: the best points still to come, a line (None, None when only wins count
    and the position cannot be won) and how many positions it memoised."""
    search = _Search(cards, rules, wins_only)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 1000))
    try:
        value = search.value(*position, NO_WIN - 1)
        if value <= NO_WIN // 2:
            return None, None, len(search.memo)
        return value, search.line(*position, value), len(search.memo)
    finally:
        sys.setrecursionlimit(limit)


def _best(game: Game, compiled: bool) -> tuple[int, bytes, int | None, bytes | None, int]:
    """The best points still to come from the game's position over every ending and over the
    wins alone, each with a line that earns them (None, None when it cannot be won), and how
    many positions the search memoised."""
    cards = game.deal
    position = (game.present, game.drawn, game.top_rank, game.streak)
    if compiled:
        ranks = bytes(card.rank for card in cards.tableau)
        stock = bytes(card.rank for card in cards.stock)
        answer = _streak.best(ranks, stock, _fits_bytes(game.rules), _LAYOUT, *position)
        return answer[:5]
    best, steps, memoised = _searched(cards, game.rules, position, False)
    assert best is not None and steps is not None  # every position ends somehow
    win, win_steps, _ = _searched(cards, game.rules, position, True)
    return best, steps, win, win_steps, memoised


def _actions(steps: bytes) -> tuple[Action, ...]:
    return tuple(DRAW if step == _DRAW else _PLAYS[step] for step in steps)


def best_score(game_or_code: Game | GameCode | str, compiled: bool | None = None) -> StreakSolution:
    """The best score a traditional-scoring game can still end with, and a line to it (the start
    of a deal from a code, or a game at any point: its score, streak and peaks so far count)."""
    game = _traditional(game_or_code)
    use_c = COMPILED if compiled is None else compiled
    if game.is_won or game.is_stuck:
        done = game.score
        won = game.is_won
        return StreakSolution(done, (), won, won, done if won else None, ())
    points, steps, win, win_steps, memoised = _best(game, use_c)
    won = game.present.bit_count() == sum(1 for s in steps if s != _DRAW)
    return StreakSolution(
        score=game.score + points,
        line=_actions(steps),
        won=won,
        winnable=win is not None,
        win_score=None if win is None else game.score + win,
        win_line=() if win_steps is None else _actions(win_steps),
        memoised=memoised,
    )


__all__ = ["COMPILED", "NO_WIN", "StreakSolution", "best_score", "bound"]
