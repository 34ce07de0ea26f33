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

from tripeaks import solver
from tripeaks.cards import Card
from tripeaks.game import Action, Game
from tripeaks.layout import TABLEAU_SIZE

DEALS_KEPT = 128
"""Deals whose answers the worker keeps, the least recently asked about dropped first. The backward
pass's table is 22,932 sets × 16 tops = 367 KB, and an ``Answers`` holds it once: 0.37 MB a deal
measured, so about 47 MB for 128 deals (the worker measured 0.73 MB a deal while ``Answers`` still
kept a second copy). A game whose answers were dropped is prepared again (under a millisecond) at
its next hint."""
MOVES_KEPT = 1024
"""Positions whose first move a deal remembers (a line adds at most 51); then it starts over."""

Position = tuple[int, int, int]
"""(cards on the table as a mask, cards drawn, rank on the discard): all a hint depends on."""


def start(parent: int) -> None:
    """In a new worker: never outlive the server (even SIGKILLed)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class Deal:
    """One deal (code and rules) as the worker knows it: its answers and the moves found so far."""

    __slots__ = ("answers", "moves", "start")

    def __init__(self, code: str) -> None:
        self.start = Game.new(code)
        self.answers = solver.Answers.of(self.start)
        self.moves: dict[Position, str | None] = {}
        """The first move of a best win from positions met on best lines; None where lost."""

    def at(self, present: int, drawn: int, top: Card | None) -> Game:
        """A game standing at the position, without replaying how it got there.

        Which moves are legal and where they lead depend on these three and the deal alone; the
        score, log and undo history of this game are the start's and mean nothing here.
        """
        game = self.start.copy()
        game.present, game.drawn, game.discard = present, drawn, [] if top is None else [top]
        return game

    def first_move(self, game: Game) -> str | None:
        """The first move of a best win (fewest draws) from the game, None if it cannot be won.

        Every position along a best line is remembered with its move (:meth:`solve`), so a
        player who follows the hints is answered without a search.
        """
        position = (game.present, game.drawn, game.top_rank)
        if position in self.moves:
            return self.moves[position]
        if not self.answers.winnable_at(*position):
            self._learn(position, None)
            return None
        line = self.solve(game).line
        return str(line[0]) if line else None

    def solve(self, game: Game) -> solver.Solution:
        """The best win from the game, as the solver proves it; its positions learn their moves.

        The rest of a fewest-draws line is a fewest-draws line from where it has got to (a shorter
        one would shorten the whole), and a win's score is fixed by its draws (rules.md §3), so
        every move on the line is the first move of a best win from where it is played.
        """
        solution = self.answers.solve(game)
        walker = game.copy()
        for action in solution.line:  # the engine checks every step of the line
            self._learn((walker.present, walker.drawn, walker.top_rank), str(action))
            walker.apply(action)
        return solution

    def verdict(self) -> tuple[bool, int | None]:
        """(winnable from the start, the best final score if so).

        A lost deal is the table's answer. A best line from the start that the hints already found
        is followed from memory (each move remembered is the first move of a best win from where
        it stands, so moves followed one after another make a best win); otherwise the start is
        solved.
        """
        walker = self.start.copy()
        if not self.answers.winnable_at(walker.present, walker.drawn, walker.top_rank):
            return False, None
        for _ in range(TABLEAU_SIZE + len(self.start.deal.stock) + 1):
            if walker.is_won:
                return True, walker.score
            move = self.moves.get((walker.present, walker.drawn, walker.top_rank))
            if move is None:
                break
            walker.apply(Action.parse(move))
        solution = self.solve(self.start)
        return solution.winnable, solution.final_score if solution.winnable else None

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
    """(winnable from the deal's start, the best final score if so), from the deal's answers."""
    return deal(code).verdict()


def hint(code: str, present: int, drawn: int, top: Card | None) -> str | None:
    """The first move of a best win from the position, as Action text; None if lost from there."""
    known = deal(code)
    return known.first_move(known.at(present, drawn, top))


def counts() -> tuple[int, int]:
    """(deals kept now, deals prepared since the worker started), for the tests."""
    return len(_deals), _prepared


_prepared = 0
