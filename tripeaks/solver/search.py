"""Exact search over a deal with every card known: can it be won, the best win, a hint.

A position is three small numbers: the tableau cards still present (a 28-bit mask), how many stock
cards have been drawn and the rank on top of the discard. Under our scoring every win removes the
same 28 cards, so the best win is the one with the fewest draws (the highest score).

The variants of our scoring are answered too: open peaks changes nothing a search can know, and an
empty discard or a joker on top is the top rank WILD (0), on which any card goes; the joker in the
stock is a stock card of rank 0 (docs/solver.md "The variants"). Whether a game can be won is
answered under the traditional scoring too; its best score is tripeaks/solver/streak.py's.

The searching itself is the kernel's, chosen once by tripeaks/solver/kernel.py: compiled
(tripeaks/solver/compiled.py over _search.c: ``is_winnable`` caps a depth-first search and hands the
rest to the backward pass, ``solve`` finds the best win by a forward pass; docs/solver.md has the
why), else the portable Python (tripeaks/solver/portable.py: the same depth-first search with its
sound rules to stop early). This module turns games and codes into what a kernel takes and its
answers into the engine's actions, the same whichever kernel runs, on any layout: the kernels take
the layout as data (docs/solver.md "Layouts"); a layout larger than the compiled search takes (35
cards) goes to the portable one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tripeaks.engine import score as scoring
from tripeaks.engine.cards import FULL_DECK
from tripeaks.engine.codes import Deal, GameCode, NotOffered, deal
from tripeaks.engine.game import DRAW, Action, Game
from tripeaks.engine.layout import MAX_SIZE, THREE_PEAKS, Layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import kernel as seam
from tripeaks.solver import portable
from tripeaks.solver.kernel import Kernel, Prepared
from tripeaks.solver.tables import DRAW_STEP, UNDER_MASK, WILD, free_mask

__all__ = [
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

DECIDE_CAP = 600
"""Positions the compiled depth-first search may visit in is_winnable before it hands the deal to
the backward pass: about a quarter of the backward pass's own time. Half the deals are decided in
fewer (tens of microseconds), and none costs much more than one backward pass. A lost deal that
the search cannot refute (nearly every lost Classic deal: a median of 24,000 positions) pays the
cap and then the pass: 600 positions are about 50 µs of a lost deal's 0.22 ms, 1,500 were 0.12 ms
(docs/solver.md)."""


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


def _kernel(layout: Layout) -> Kernel:
    """The kernel the seam chose, or the portable one for a layout larger than the chosen one
    takes (the compiled search takes up to 35 cards; the engine's layouts up to 51)."""
    return seam.KERNEL if layout.size <= seam.KERNEL.MAX_LAYOUT else portable


def _ranks(cards: Deal) -> tuple[bytes, bytes]:
    """A deal as the kernels take it: its tableau's ranks and its stock's (0 the joker)."""
    return bytes(card.rank for card in cards.tableau), bytes(card.rank for card in cards.stock)


class Answers:
    """Every position of one deal under one rules, answered at once.

    Made once per game by the backward pass (a millisecond compiled); after that whether any
    position of the game can still be won, and a hint, are a look in its table. ``kernel``: the
    one the seam chose unless another is named (the tests hold the two to each other).
    """

    __slots__ = ("_prepared",)

    def __init__(
        self, cards: Deal, rules: Rules, kernel: Kernel | None = None, layout: Layout = THREE_PEAKS
    ) -> None:
        self._prepared: Prepared = (kernel or _kernel(layout)).prepare(
            *_ranks(cards), rules, layout
        )

    @classmethod
    def of(cls, game: Game, kernel: Kernel | None = None) -> Answers:
        """The answers for the game's deal and rules on its layout (whether a position can be won,
        under either scoring; :meth:`solve`'s best win is our scoring's)."""
        return cls(_standard(game, scored=False).deal, game.rules, kernel, game.layout)

    @property
    def table(self) -> bytes:
        """reach[set * 16 + top]: 1 + the most cards drawn from which the position can be won
        (compiled, a copy made on each call: the answers keep only their prepared buffer)."""
        return self._prepared.table

    def winnable_at(self, present: int, drawn: int, top: int) -> bool:
        """Can the position (cards on the table, cards drawn, rank on the discard) still be won?"""
        return self._prepared.winnable_at(present, drawn, top)

    def winnable(self, game: Game) -> bool:
        """Can the game still be won from where it stands?"""
        return self._prepared.winnable_at(game.present, game.drawn, game.top_rank)

    def hint(self, game: Game) -> Action | None:
        """A first move of a win: the lowest card whose play keeps the game won, else the draw;
        None once the game is won or can no longer be won. Not always the first move of the
        fewest-draws win that ``hint`` gives: it prefers a play to a draw."""
        if game.is_won or game.is_stuck:
            return None
        step = self._prepared.first_win(game.present, game.drawn, game.top_rank)
        if step < 0:
            return None
        return DRAW if step == DRAW_STEP else _PLAYS[step]

    def solve(self, game: Game) -> Solution:
        """The best win from the game (fewest draws, the highest score): compiled, by one forward
        pass over the positions its table says are won, keeping the fewest draws that reach each
        (docs/solver.md); the portable kernel's is the search. A lost game reports the most cards
        any line removes."""
        _standard(game)
        size = game.layout.size
        if not game.present:
            return Solution(True, (), 0, game.score, size)
        steps, left = self._prepared.best_win(game.present, game.drawn, game.top_rank)
        if steps is None:
            return Solution(False, (), 0, None, size - left)
        line = _line(steps)
        return Solution(True, line, steps.count(DRAW_STEP), _line_score(game, steps), size)


def winnable_positions(
    cards: Deal,
    rules: Rules,
    positions: Sequence[tuple[int, int, int]],
    layout: Layout = THREE_PEAKS,
) -> list[bool]:
    """Can each position (cards on the table, cards drawn, rank on the discard) of one deal still
    be won? A few positions of a deal that is asked about once (a fair hint's samples): compiled,
    each is the capped search, which mostly finds a win in microseconds, with the backward pass
    only for those it cannot settle; five times faster for a fair hint than preparing every
    position of the deal (:class:`Answers`), which pays when a deal is asked about again and again."""
    return _kernel(layout).winnable_positions(*_ranks(cards), rules, positions, DECIDE_CAP, layout)


def _explore(game: Game, best_win: bool) -> tuple[bytes | None, int, int]:
    """The depth-first search from ``game``: (a winning line or None, cards left at best when
    lost, nodes visited); with ``best_win`` the line has the fewest draws."""
    tableau, stock = _ranks(game.deal)
    return _kernel(game.layout).search(
        tableau, stock, game.rules, game.present, game.drawn, game.top_rank, best_win, game.layout
    )


def _decide(game: Game, cap: int = DECIDE_CAP) -> tuple[bool, bool]:
    """(can the game be won, whether the backward pass answered): compiled, the capped search
    first, the backward pass when the search passes ``cap`` positions."""
    cards = game.deal
    return _kernel(game.layout).decide(
        bytes(card.rank for card in cards.tableau),
        bytes(card.rank for card in cards.stock),
        game.rules,
        game.present,
        game.drawn,
        game.top_rank,
        cap,
        game.layout,
    )


def solve(game_or_code: Game | GameCode | str, rules: Rules | None = None) -> Solution:
    """Prove whether the position can be won and find its best win (fewest draws, highest score).

    From the deal's answers (Answers.solve). From a code no Game is built: the deal's ranks go
    from its deck to the kernel."""
    if not isinstance(game_or_code, Game):
        code = _code(game_or_code)
        if rules is not None:
            code = code.with_rules(rules)
        return _solved_deal(code)
    game = _start(game_or_code, rules)
    if not game.present:
        return Solution(True, (), 0, game.score, game.layout.size)
    return Answers.of(game).solve(game)


_RANK_OF_CARD = bytes(
    FULL_DECK[index].rank if index < len(FULL_DECK) else 0 for index in range(256)
)
"""A card index's rank, as a table for bytes.translate: a deal's 52 ranks in one call."""


EMPTY_DISCARD = 1
JOKER = 2
"""The kernels' option bits for dealing: the variants that change the cards (docs/solver.md)."""


def _options(variant: Variant) -> int:
    """The option bits of a variant for the kernels' dealing (open peaks deals the same cards)."""
    return (EMPTY_DISCARD if variant.empty_discard else 0) | (JOKER if variant.joker else 0)


def _start_ranks(code: GameCode) -> tuple[bytes, bytes, int]:
    """The ranks of a code's tableau and stock and the top's rank at its start, either form, on
    its layout, with no card, deal or game object made for a standard deal: a handful of Python
    objects (the garbage collector walks every tracked object the process holds whenever enough
    new ones pile up; a Game and its cards were hundreds). With an empty discard or a joker they
    come from the code's Deal."""
    if _options(code.variant):
        cards = deal(code)
        tableau, stock = _ranks(cards)
        return tableau, stock, WILD if cards.discard is None else cards.discard.rank
    deck = code.deck() if code.long else seam.KERNEL.deal(code.number)
    ranks = deck.translate(_RANK_OF_CARD)
    size = code.layout.size
    return ranks[:size], ranks[size + 1 :], ranks[size]


def _solved_deal(code: GameCode) -> Solution:
    """solve from the start of the code's deal under its rules (TP1 and TP2 alike: the ranks come
    from the code's deck)."""
    tableau, stock, top = _start_ranks(code)
    layout = code.layout
    full = layout.all_mask
    prepared = _kernel(layout).prepare(tableau, stock, code.rules, layout)
    steps, left = prepared.best_win(full, 0, top)
    if steps is None:
        return Solution(False, (), 0, None, layout.size - left)
    score = _score_after(scoring.START, full, steps, layout)
    return Solution(True, _line(steps), steps.count(DRAW_STEP), score, layout.size)


def is_winnable(game_or_code: Game | GameCode | str, rules: Rules | None = None) -> bool:
    """Can the position be won at all? Stops at the first win found.

    From a TP1 code the deal is dealt and decided by the kernel from its number (compiled, in C:
    no cards or game are built in Python), on any layout; a TP2 code's ranks go from its deck to
    the same search."""
    if not isinstance(game_or_code, Game):
        code = _code(game_or_code, scored=False)
        rules = code.rules if rules is None else rules
        if code.long:
            return _decide_start(code.with_rules(rules))
        options = _options(code.variant)
        return _decide_deal(code.number, rules, options=options, layout=code.layout)[0]
    game = _start(game_or_code, rules, scored=False)
    if not game.present:
        return True
    return _decide(game)[0]


def _decide_deal(
    number: int,
    rules: Rules,
    cap: int = DECIDE_CAP,
    options: int = 0,
    layout: Layout = THREE_PEAKS,
) -> tuple[bool, bool, int]:
    """Deal ``number`` from its start on ``layout``: (winnable, whether the backward pass
    answered, positions the search visited). ``options``: EMPTY_DISCARD and JOKER bits, dealt by
    the kernel too."""
    return _kernel(layout).decide_deal(number, rules, cap, options, layout)


def _decide_start(code: GameCode, cap: int = DECIDE_CAP) -> bool:
    """Can the code's deal be won from its start under its rules? From its deck's ranks: the long
    form's way (its deck is no deal number the kernel could deal)."""
    tableau, stock, top = _start_ranks(code)
    layout = code.layout
    full = layout.all_mask
    return _kernel(layout).decide(tableau, stock, code.rules, full, 0, top, cap, layout)[0]


LOST = 255
"""In survey_numbers' answer with fewest draws: the deal cannot be won."""


def survey_numbers(
    numbers: Sequence[int],
    rules: Rules | Variant,
    fewest_draws: bool = False,
    layout: Layout = THREE_PEAKS,
) -> bytes:
    """Many deals by number, each from its start on ``layout``: one byte a deal, 1 winnable and 0
    not; with ``fewest_draws``, a win's fewest draws or LOST. Compiled, the whole batch is dealt
    and decided in C. A Variant's options are dealt too; its scoring changes neither a verdict nor
    the fewest draws of a win, so it is set aside."""
    variant = rules if isinstance(rules, Variant) else Variant(rules)
    variant = replace(variant, scoring=Scoring.OURS)
    options = _options(variant)
    return _kernel(layout).survey(numbers, variant.rules, DECIDE_CAP, fewest_draws, options, layout)


def hint(game: Game) -> Action | None:
    """The first move of a best win from here; None once the game is over or can no longer be won."""
    if game.is_won or game.is_stuck:
        return None
    solution = solve(game)
    return solution.line[0] if solution.winnable else None


def random_winnable_code(
    rules: Rules | Variant, rng_tries: int = 1000, layout: Layout = THREE_PEAKS
) -> GameCode:
    """Random codes on ``layout`` until one is proved winnable under ``rules`` or a variant (nearly
    always the first few)."""
    for _ in range(rng_tries):
        code = GameCode.random(rules, layout)
        if is_winnable(code):
            return code
    name = rules.name if isinstance(rules, Rules) else f"{rules.rules.name} -{rules.options}"
    raise RuntimeError(f"no winnable deal in {rng_tries} random codes under {name} rules")


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


_PLAYS: tuple[Action, ...] = tuple(Action.play(pos) for pos in range(MAX_SIZE))
"""The plays of every position a layout may have, made once (an Action is frozen): a line shares them instead of making an object a
step, which the garbage collector would then walk for as long as the line is kept."""


def _line(steps: bytes) -> tuple[Action, ...]:
    """A kernel's line (a position a play, 255 a draw) as the engine's actions."""
    return tuple(DRAW if step == DRAW_STEP else _PLAYS[step] for step in steps)


def _line_score(game: Game, steps: bytes) -> int:
    """The score the engine reports after the kernel's line ``steps``, by the engine's own scoring
    of a draw and a play (tripeaks/engine/score.py) without replaying the game: a replay through the
    engine costs a millisecond; the tests replay every line and compare."""
    return _score_after(game.score, game.present, steps, game.layout)


def _score_after(score: int, present: int, steps: bytes, layout: Layout = THREE_PEAKS) -> int:
    """_line_score from a score and the cards on the table; the bonus for each of the layout's
    groups emptied."""
    group_masks, group_of = layout.group_masks, layout.group_of
    for step in steps:
        if step == DRAW_STEP:
            score = scoring.after_draw(score)
        else:
            present &= ~(1 << step)
            score = scoring.after_removal(score, not present & group_masks[group_of[step]])
    return score
