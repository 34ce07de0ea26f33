"""What runs inside the solver's worker process (solving.py starts and feeds it).

A spawned worker imports only this module and what it needs: the engine and the solver. Not the
web app's pydantic models, which would nearly treble the CPU a new worker spends before its first
search (0.35 s against 0.13 s here), and a hint waits for that.

The worker keeps the prepared answers of the deals it was last asked about (:class:`Deal`), so the
hints of a game and its verdict share one backward pass, and a hint on a line already found is a
dictionary look-up.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from tripeaks.engine.cards import Card
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, Game
from tripeaks.engine.layout import TABLEAU_SIZE, THREE_PEAKS
from tripeaks.engine.layouts import BY_ID
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import explain, streak
from tripeaks.solver import search as solver

DEALS_KEPT = 128
"""Deals whose answers the worker keeps, the least recently asked about dropped first. The backward
pass's table is 22,932 sets × 16 tops = 367 KB, and an ``Answers`` holds it once: 0.37 MB a deal
measured, so about 47 MB for 128 deals (the worker measured 0.73 MB a deal while ``Answers`` still
kept a second copy). A game whose answers were dropped is prepared again (under a millisecond) at
its next hint."""
MOVES_KEPT = 1024
"""Positions whose first move a deal remembers (a line adds at most 51); then it starts over."""

Position = tuple[int, int, int, int, int]
"""(cards on the table as a mask, cards drawn, rank on the discard, streak, score): all a hint
depends on. The streak and the score are 0 under our scoring, where the streak scores nothing and a
best win is the fewest draws whatever the score; under the traditional one a draw never takes the
score below 0, so the best line from a position depends on the score it starts from."""
Hint = tuple[bool, str | None]
"""(winnable from the position, the hint's move as Action text or None)."""


def start(parent: int) -> None:
    """In a new worker: never outlive the server (even SIGKILLed)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class Deal:
    """One deal (code and rules) as the worker knows it: its answers and the moves found so far.

    Under our scoring a hint is the first move of a best win (fewest draws): a win is the goal and
    its score follows from its draws. Under the traditional scoring it is the first move of a line
    to the best score still possible, won or not, since points are that game's goal: a position
    that can no longer be won still has a best move (tripeaks/solver/streak.py).
    """

    __slots__ = ("answers", "moves", "start", "traditional")

    def __init__(self, code: str) -> None:
        self.start = Game.new(code)
        self.traditional = self.start.variant.scoring is Scoring.TRADITIONAL
        self.answers = solver.Answers.of(self.start)
        self.moves: dict[Position, str | None] = {}
        """The hint's move from positions met on best lines; None where there is none."""

    def at(
        self, present: int, drawn: int, top: Card | None, streak: int = 0, score: int = 0
    ) -> Game:
        """A game standing at the position, without replaying how it got there.

        Which moves are legal and where they lead depend on these and the deal alone; the log and
        undo history of this game are the start's and mean nothing here. The score is the
        player's under the traditional scoring, where the points still to come depend on it (a
        draw takes 5 but never below 0); under ours it is the start's (a best win is the fewest
        draws whatever the score).
        """
        game = self.start.copy()
        game.present, game.drawn, game.discard = present, drawn, [] if top is None else [top]
        game.streak = streak
        if self.traditional:
            game.score = score
        return game

    def position(self, game: Game) -> Position:
        if self.traditional:
            return (game.present, game.drawn, game.top_rank, game.streak, game.score)
        return (game.present, game.drawn, game.top_rank, 0, 0)

    def hint(self, game: Game) -> Hint:
        """(winnable from the game, the hint's move; see the class). Every position along a best
        line is remembered with its move (:meth:`solve`), so a player who follows the hints is
        answered without a search."""
        position = self.position(game)
        winnable = self.answers.winnable_at(*position[:3])
        if position in self.moves:
            return winnable, self.moves[position]
        if not winnable and not self.traditional:
            self._learn(position, None)
            return False, None
        line = self.solve(game)
        return winnable, str(line[0]) if line else None

    def solve(self, game: Game) -> tuple[Action, ...]:
        """The best line from the game (a best win, or the traditional best score's line) as the
        solvers prove it; its positions learn their moves.

        The rest of a best line is a best line from where it has got to (a better one would better
        the whole: the points still to come depend on the position alone, and under our scoring a
        win's score is fixed by its draws, rules.md §3), so every move on the line is the hint's
        move from where it is played.
        """
        line = streak.best_score(game).line if self.traditional else self.answers.solve(game).line
        walker = game.copy()
        for action in line:  # the engine checks every step of the line
            self._learn(self.position(walker), str(action))
            walker.apply(action)
        return line

    def verdict(self) -> tuple[bool, int | None]:
        """(winnable from the start, the best final score: of a win under our scoring, None when
        there is none; of any ending under the traditional scoring, where a stuck game can score
        more than every win).

        A lost deal under our scoring is the table's answer. A best line from the start that the
        hints already found is followed from memory (each move remembered is the hint's move from
        where it stands, so moves followed one after another make a best line); otherwise the start
        is solved.
        """
        walker = self.start.copy()
        winnable = self.answers.winnable_at(walker.present, walker.drawn, walker.top_rank)
        if not winnable and not self.traditional:
            return False, None
        for _ in range(TABLEAU_SIZE + len(self.start.deal.stock) + 1):
            if walker.is_over or walker.is_stuck:
                return winnable, walker.score
            move = self.moves.get(self.position(walker))
            if move is None:
                break
            walker.apply(Action.parse(move))
        walker = self.start.copy()
        for action in self.solve(self.start):
            walker.apply(action)
        return winnable, walker.score

    def _learn(self, position: Position, move: str | None) -> None:
        if len(self.moves) >= MOVES_KEPT:
            self.moves.clear()
        self.moves[position] = move


_deals: OrderedDict[str, Deal] = OrderedDict()


def deal(code: str) -> Deal:
    """The deal's answers, prepared now if not kept (the least recently used one then goes)."""
    known = _deals.get(code)
    if known is not None:
        _deals.move_to_end(code)
        return known
    global _prepared
    made = _deals[code] = Deal(code)
    _prepared += 1
    while len(_deals) > DEALS_KEPT:
        _deals.popitem(last=False)
    return made


def solve_deal(code: str) -> tuple[bool, int | None]:
    """(winnable from the deal's start, its best final score; see Deal.verdict)."""
    return deal(code).verdict()


def hint(
    code: str, present: int, drawn: int, top: Card | None, streak: int = 0, score: int = 0
) -> Hint:
    """(winnable from the position, the hint's move as Action text; see Deal). ``streak`` and
    ``score`` count under the traditional scoring only."""
    known = deal(code)
    return known.hint(known.at(present, drawn, top, streak, score))


def counts() -> tuple[int, int]:
    """(deals kept now, deals prepared since the worker started), for the tests."""
    return len(_deals), _prepared


_prepared = 0


# The solver explains (issue 16; tripeaks/solver/explain.py) ----------------------------------------

Graded = tuple[bool, int | None, str]
"""A deal's verdict (solve_deal) and its grade (explain.Grade's value)."""
Fair = tuple[str | None, float, int, float]
"""A fair hint: its move as Action text (None: no move left), the chance it states, the samples
played on and the share of them won after the move (0 and 1 have sentences of their own)."""


def graded_verdict(code: str) -> Graded:
    """The deal's verdict with its grade, which never changes either."""
    return (*solve_deal(code), explain.grade(code).value)


def fair_hint(code: str, log: list[str], samples: int, seed: int) -> Fair:
    """The fair hint of the game the log leads to (explain.played_hint): only what the player sees
    of it is weighed, the log only puts the cards seen where they are."""
    found = explain.played_hint(Game.replay(code, log), samples, seed)
    return (None if found.move is None else str(found.move), found.chance, samples, found.share)


GRADE_SECONDS = 12.0
"""CPU seconds a search for a deal of a grade may take before it gives up (a grade asks the first
fair hint: 10 to 500 ms a deal by layout, so a rare grade of a variant could otherwise hold a worker
for a minute). Under HINT_TIMEOUT's 20 s of wall time; a rare grade of a variant needs it: Hard
with an empty discard on Up-and-down is 11 % of deals at 262 ms a grade, so 5 s gave up on about
one search in nine."""


def graded_code(
    variant: str,
    wanted: str,
    tries: int,
    layout: str = THREE_PEAKS.id,
    seconds: float = GRADE_SECONDS,
) -> str | None:
    """A random deal of the variant (its key) on the layout (its id) whose grade is ``wanted``;
    None after ``tries`` or ``seconds`` of this thread's CPU, whichever comes first."""
    kind, table = Variant.from_key(variant), BY_ID[layout]
    started = time.thread_time()
    for _ in range(tries):
        code = GameCode.random(kind, table)
        if explain.grade(code).value == wanted:
            return str(code)
        if time.thread_time() - started > seconds:
            break
    return None


@dataclass(frozen=True, slots=True)
class Review:
    """What the result window says of a finished game (docs/api.md "Explaining"), as plain data:
    the web process makes the reply and the replay's states with the engine."""

    grade: str
    winnable: bool
    lost_at: tuple[int, str | None, int] | None
    """(index, the move made there as Action text or None, moves of the line)."""
    draws: tuple[int, int] | None
    most_removed: int | None
    start: list[str] | None
    """The line's moves up to the replay's first position (None: no replay)."""
    steps: list[str]
    """The replay's moves from there: a winning line."""


def review(code: str, log: list[str], left: bool) -> Review:
    """The review of the game the log leads to (``left``: it was left for another game)."""
    game = Game.replay(code, log)
    if left:
        game.leave()
    grade = explain.grade(code).value
    if game.is_won:
        best = explain.best_win(game)
        used = explain.draws_used(game, best)
        line = [str(a) for a in best.line]
        return Review(grade, True, None, (used.used, used.fewest), None, [], line)
    lost = explain.lost_at(game)
    if lost is None:  # never winnable from its start
        return Review(grade, False, None, None, explain.most_removed(game), None, [])
    move = None if lost.move is None else str(lost.move)
    return Review(
        grade,
        True,
        (lost.index, move, len(lost.line)),
        None,
        None,
        [str(a) for a in lost.line[: lost.index]],
        [str(a) for a in lost.win],
    )
