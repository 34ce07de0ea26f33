"""The exact best score of a game under the traditional scoring, and a line that reaches it.

Under our scoring every win costs the same removals (a card of the layout each), so the best win
is the fewest draws (tripeaks/solver/search.py). Under the traditional scoring (docs/rules.md
"Scoring and variants") it is not: the n-th card of a streak scores n and a draw costs 5, so a draw
that lets a longer streak follow can be worth it. The search here therefore keeps the streak in its
state: a position is the cards present (a mask of the layout's positions: 28 bits on Three Peaks),
the cards drawn, the rank on top and the streak. The groups emptied so far (Three Peaks' peaks)
follow from the cards present, and so does every bonus still to come (15 for each group but the
last emptied, 30 for the last: docs/rules.md "Layouts").

The score never goes below 0 (a draw makes it max(score - 5, 0)), so what the rest of the game earns
depends on the score it starts from. It does so simply: any fixed future turns a score x into
max(x + a, b), so a position's value is two numbers, the most points still to come (the draws
charged in full) and the best final score from a score of 0, and the best final score from x >= 0
is the larger of x + the first and the second (docs/solver.md "Traditional scoring: the best
score").

After a draw the streak is 0 and the top is the card drawn, so the best future of a post-draw
position depends on (present, drawn) alone. The compiled kernel (tripeaks/solver/_streak.c) memoises
exactly those and walks each run of plays between two draws depth first; it finds the best over
every ending and the best win in one pass. The portable kernel (tripeaks/solver/portable.py) is a
depth-first search with a memo over every position and a sound upper bound to prune with (every
card left in the current streak, every group not yet emptied still paying its bonus): a position
searched under a threshold it could not beat is remembered as "at most this", one that beat it as
its exact value. Two different searches, so the tests hold each to the other and both to an
exhaustive search through the engine (docs/solver.md "Traditional scoring: the best score").
Which one runs is tripeaks/solver/kernel.py's choice; this module asks it and shapes the answer.
Both take any layout as data (its covering masks and its groups): the game's, or the code's.
"""

from __future__ import annotations

from dataclasses import dataclass

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, Action, Game
from tripeaks.engine.layout import MAX_SIZE
from tripeaks.engine.variant import Scoring
from tripeaks.solver import kernel as seam
from tripeaks.solver.kernel import Kernel
from tripeaks.solver.tables import DRAW_STEP, NO_WIN, bound, bound_on

_PLAYS: tuple[Action, ...] = tuple(Action.play(pos) for pos in range(MAX_SIZE))


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


def _traditional(game_or_code: Game | GameCode | str) -> Game:
    """The game to solve: a traditional-scoring game with any options. Open peaks the search needs
    not know (every card is known to it anyway); an empty discard and a joker are a top of rank 0,
    the wildcard (tripeaks.solver.tables.fits)."""
    game = game_or_code if isinstance(game_or_code, Game) else Game.new(game_or_code)
    if game.variant.scoring is not Scoring.TRADITIONAL:
        raise ValueError(
            "best_score answers the traditional scoring (a code ending in -T); "
            "tripeaks.solver.search.solve answers ours"
        )
    if game.left:
        raise ValueError("the game was left: it has no more score to make")
    return game


def _actions(steps: bytes) -> tuple[Action, ...]:
    return tuple(DRAW if step == DRAW_STEP else _PLAYS[step] for step in steps)


def best_score(game_or_code: Game | GameCode | str, kernel: Kernel | None = None) -> StreakSolution:
    """The best score a traditional-scoring game can still end with, and a line to it (the start
    of a deal from a code, or a game at any point: its score, streak and groups so far count), on
    the game's layout. ``kernel``: the one the seam chose unless another is named (the tests hold
    the two to each other)."""
    game = _traditional(game_or_code)
    if game.is_won or game.is_stuck:
        done = game.score
        won = game.is_won
        return StreakSolution(done, (), won, won, done if won else None, ())
    cards = game.deal
    score, steps, win, win_steps, memoised = (kernel or seam.KERNEL).best_streak(
        bytes(card.rank for card in cards.tableau),
        bytes(card.rank for card in cards.stock),
        game.rules,
        game.present,
        game.drawn,
        game.top_rank,
        game.streak,
        game.score,
        game.layout,
    )
    won = game.present.bit_count() == sum(1 for s in steps if s != DRAW_STEP)
    return StreakSolution(
        score=score,
        line=_actions(steps),
        won=won,
        winnable=win is not None,
        win_score=win,
        win_line=() if win_steps is None else _actions(win_steps),
        memoised=memoised,
    )


__all__ = ["NO_WIN", "StreakSolution", "best_score", "bound", "bound_on"]
