"""The compiled and the portable kernel give the same answers on a few hundred deals.

The seam (tripeaks/solver/kernel.py) picks one kernel at import; here both are imported and named
explicitly. On 300 fixed deals, 30 for each rules and set of options, each at a position some way
into a seeded random game (late enough that the Python search takes milliseconds), they must give
the same verdict, the same fewest draws, the same best score and the same most cards removed, and
every best line either gives must replay through the engine (tripeaks.engine.game.Game) to a win
with exactly that score. Under the traditional scoring the best score over every ending and over
the wins must agree and replay too; the visible-card strategy must win the same plays; the
backward pass's hint must be the same move. Answers only: how each kernel searches is its own.
"""

from __future__ import annotations

import random

import pytest

from tripeaks.engine.codes import CODE_SPACE, GameCode
from tripeaks.engine.game import DRAW, Game
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import compiled, explain, portable, streak
from tripeaks.solver.search import DECIDE_CAP, Answers, Solution
from tripeaks.solver.tables import DRAW_STEP

KERNELS = (compiled, portable)
OPTIONS = ("", "D", "J", "DJ", "DJO")
DEALS = 30
"""Deals per rules and options: 300 in all."""
LEFT = 17
"""Cards left on the table at the position the kernels are asked about."""


def played_into(code: GameCode, rng: random.Random, left: int) -> Game:
    """The game after seeded random moves (plays four times in five) until at most ``left``
    cards are on the table or nothing is legal."""
    game = Game.new(code)
    while game.present.bit_count() > left:
        legal = list(game.legal_moves())
        if not legal:
            break
        plays = [move for move in legal if move != DRAW]
        game.apply(rng.choice(plays) if plays and rng.random() < 0.8 else legal[-1])
    return game


def positions(rules: Rules, options: str) -> list[Game]:
    rng = random.Random(f"kernels {rules.value} {options}")
    variant = Variant(rules).with_options(options)
    return [
        played_into(GameCode.from_number(rng.randrange(CODE_SPACE), variant), rng, LEFT)
        for _ in range(DEALS)
    ]


def answered(solution: Solution) -> tuple[bool, int, int | None, int]:
    return solution.winnable, solution.draws, solution.final_score, solution.max_removed


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("rules", list(Rules))
def test_both_kernels_give_the_same_verdict_fewest_draws_and_best_score(
    rules: Rules, options: str
) -> None:
    games = positions(rules, options)
    verdicts = set()
    for index, game in enumerate(games):
        tableau = bytes(card.rank for card in game.deal.tableau)
        stock = bytes(card.rank for card in game.deal.stock)
        where = (game.present, game.drawn, game.top_rank)
        won = {kernel.decide(tableau, stock, rules, *where, DECIDE_CAP)[0] for kernel in KERNELS}
        assert len(won) == 1, game
        solutions = [Answers.of(game, kernel).solve(game) for kernel in KERNELS]
        assert answered(solutions[0]) == answered(solutions[1]), game
        assert solutions[0].winnable == won.pop()
        verdicts.add(solutions[0].winnable)
        for solution in solutions:
            if not solution.winnable:
                assert solution.line == () and solution.final_score is None
                continue
            finished = game.copy()
            for action in solution.line:
                finished.apply(action)
            assert finished.is_won and finished.score == solution.final_score
            assert finished.drawn - game.drawn == solution.draws == solution.line.count(DRAW)
        if index % 6 == 0:  # the backward pass (a quarter second in Python): every position
            tables = [Answers.of(game, kernel) for kernel in KERNELS]
            assert tables[0].table == tables[1].table
            assert tables[0].hint(game) == tables[1].hint(game)
    assert verdicts == {True, False} or rules is Rules.EASY  # Classic has lost positions too


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("rules", list(Rules))
def test_both_kernels_give_the_same_traditional_best_score(rules: Rules, options: str) -> None:
    rng = random.Random(f"streak {rules.value} {options}")
    variant = Variant(rules, Scoring.TRADITIONAL).with_options(options + "T")
    for _ in range(DEALS):
        game = played_into(GameCode.from_number(rng.randrange(CODE_SPACE), variant), rng, 14)
        if game.is_won or game.is_stuck:
            continue
        best = [streak.best_score(game, kernel) for kernel in KERNELS]
        assert (best[0].score, best[0].win_score, best[0].winnable) == (
            best[1].score,
            best[1].win_score,
            best[1].winnable,
        ), game
        for solution in best:
            end = game.copy()
            for action in solution.line:
                end.apply(action)
            assert end.score == solution.score and end.is_won == solution.won
            if solution.win_score is not None:
                won = game.copy()
                for action in solution.win_line:
                    won.apply(action)
                assert won.is_won and won.score == solution.win_score


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("rules", list(Rules))
def test_both_kernels_play_the_visible_card_strategy_alike(rules: Rules, options: str) -> None:
    rng = random.Random(f"plays {rules.value} {options}")
    variant = Variant(rules).with_options(options)
    for _ in range(DEALS):
        code = GameCode.from_number(rng.randrange(CODE_SPACE), variant)
        shares = {explain.win_share(code, plays=40, kernel=kernel) for kernel in KERNELS}
        assert len(shares) == 1, code


def test_a_line_of_the_kernels_is_bytes_with_255_for_a_draw() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    tableau = bytes(card.rank for card in game.deal.tableau)
    stock = bytes(card.rank for card in game.deal.stock)
    for kernel in KERNELS:
        line, _left = kernel.prepare(tableau, stock, game.rules).best_win(
            game.present, 0, game.top_rank
        )
        assert line is not None and line.count(DRAW_STEP) == 13
        assert sorted(step for step in line if step != DRAW_STEP) == list(range(28))
