"""Both kernels' searches on every layout, held to the engine itself (issue 38).

Near the end of a game (at most NEAR cards left) the engine can be searched exhaustively: every
legal action through Game.apply, memoised by (cards present, cards drawn, rank on top). The
solver's verdict, its fewest draws and the most cards a lost position lets go must equal that
search's, whichever kernel answers (the compiled one through tripeaks.solver.search, the portable
one named); every line it returns must replay through the engine to a win and to the score it
reports. Positions come from fixed seeds: a deal's own winning line followed to near its end,
then random legal actions (so both won and lost positions are met).
"""

from __future__ import annotations

import random

import pytest

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, Action, Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_WORD, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.solver import compiled, portable, search
from tripeaks.solver.kernel import Kernel
from tripeaks.solver.search import Answers
from tripeaks.solver.tables import free_mask, layout_tables, table_sets

NEAR = 7
"""Positions with at most this many cards on the table are searched exhaustively."""
OTHERS = tuple(layout for layout in LAYOUTS if layout is not THREE_PEAKS)
RULES = (Rules.EASY, Rules.CLASSIC)


def _exhaustive(
    game: Game, memo: dict[tuple[int, int, int], tuple[int | None, int]]
) -> tuple[int | None, int]:
    """(the fewest draws of a win from ``game``, None if none; the fewest cards any line leaves),
    by every legal action through the engine."""
    if game.is_won:
        return 0, 0
    key = (game.present, game.drawn, game.top_rank)
    known = memo.get(key)
    if known is not None:
        return known
    draws: int | None = None
    left = game.present.bit_count()
    for action in list(game.legal_moves()):
        after = game.copy()
        after.apply(action)
        got, got_left = _exhaustive(after, memo)
        if got is not None:
            cost = got + (action == DRAW)
            draws = cost if draws is None else min(draws, cost)
        left = min(left, got_left)
    memo[key] = (draws, left)
    return draws, left


def _replayed(game: Game, line: tuple[Action, ...]) -> Game:
    after = game.copy()
    for action in line:
        after.apply(action)
    return after


def _near_end_positions(layout: Layout, rules: Rules, seed: int, count: int) -> list[Game]:
    """Up to ``count`` positions of random deals on ``layout`` with at most NEAR cards left."""
    rng = random.Random(seed)
    found: list[Game] = []
    for _ in range(count * 4):
        if len(found) >= count:
            break
        code = GameCode(rules, GameCode.from_number(rng.randrange(26**7)).letters, layout)
        game = Game.new(code)
        solution = search.solve(code)
        for action in solution.line:  # the win, to a few cards more than NEAR
            if game.present.bit_count() <= NEAR + rng.randrange(4):
                break
            game.apply(action)
        while not game.is_over and not game.is_stuck and game.present.bit_count() > NEAR - 3:
            moves = list(game.legal_moves())
            plays = [m for m in moves if m != DRAW]
            game.apply(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(moves))
            if game.present.bit_count() <= NEAR and rng.random() < 0.4:
                break
        if game.present.bit_count() <= NEAR:
            found.append(game)
    return found


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.id)
def test_both_kernels_agree_with_the_engine_near_the_end(layout: Layout, rules: Rules) -> None:
    positions = _near_end_positions(
        layout, rules, seed=sum(map(ord, layout.id)) + rules.wraps, count=6
    )
    assert len(positions) >= 4
    for game in positions:
        memo: dict[tuple[int, int, int], tuple[int | None, int]] = {}
        draws, left = _exhaustive(game, memo)
        assert search.is_winnable(game) is (draws is not None)
        for solution in (
            search.solve(game),
            Answers(game.deal, game.rules, compiled, layout).solve(game),
            Answers(game.deal, game.rules, portable, layout).solve(game),
        ):
            assert solution.winnable is (draws is not None)
            if draws is None:
                assert solution.max_removed == layout.size - left
                continue
            assert solution.draws == draws
            end = _replayed(game, solution.line)
            assert end.is_won
            assert end.score == solution.final_score
            assert sum(action == DRAW for action in solution.line) == draws


@pytest.mark.parametrize("layout", OTHERS, ids=lambda layout: layout.id)
def test_every_winning_line_from_a_code_replays_to_its_score(layout: Layout) -> None:
    rng = random.Random(38)
    won = 0
    for rules in RULES:
        for _ in range(3):
            code = GameCode(rules, GameCode.from_number(rng.randrange(26**7)).letters, layout)
            solution = search.solve(code)
            assert solution.winnable is search.is_winnable(code)
            assert search.is_winnable(Game.new(code)) is solution.winnable
            if not solution.winnable:
                assert 0 < solution.max_removed < layout.size
                continue
            won += 1
            end = Game.replay(code, solution.line)
            assert end.is_won
            assert end.score == solution.final_score
            assert solution.draws == sum(action == DRAW for action in solution.line)
    assert won


def test_a_code_names_the_layout_the_search_decides_on() -> None:
    """The same deal is another game on another table: the code's layout is searched, not Three
    Peaks' (a deal winnable on one and lost on the other tells them apart)."""
    rng = random.Random(5)
    for _ in range(200):
        letters = GameCode.from_number(rng.randrange(26**7)).letters
        bridge = GameCode.parse(f"TP1-{BY_WORD['BRIDGE'].word}-C-{letters}")
        three_peaks = GameCode.parse(f"TP1-C-{letters}")
        if search.is_winnable(bridge) != search.is_winnable(three_peaks):
            return
    raise AssertionError("no deal told Bridge from Three Peaks")


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.id)
def test_the_layout_tables_follow_the_layout(layout: Layout) -> None:
    tables = layout_tables(layout)
    rng = random.Random(layout.size)
    masks, removals, number = table_sets(layout)
    assert masks[0] == 0 and masks[-1] == layout.all_mask
    for i in rng.sample(range(len(masks)), 200):
        present = masks[i]
        free = tables.free_mask(present)
        assert free == sum(
            1 << p
            for p in range(layout.size)
            if present >> p & 1 and not present & layout.covered_by_mask[p]
        )
        assert [pos for pos, _ in removals[i]] == [p for p in range(layout.size) if free >> p & 1]
        assert all(number[present & ~(1 << pos)] == after for pos, after in removals[i])
    if layout is THREE_PEAKS:
        assert tables.free_mask is free_mask
        assert len(masks) == 22_932


@pytest.mark.parametrize("kernel", [compiled, portable], ids=["compiled", "portable"])
def test_the_answers_of_another_layout_agree_with_the_engine(kernel: Kernel) -> None:
    """The backward pass (a hint, whether a position can be won) on Four Peaks."""
    layout = BY_WORD["FOURPEAKS"]
    for game in _near_end_positions(layout, Rules.CLASSIC, seed=4, count=3):
        answers = Answers.of(game, kernel)
        winnable = _exhaustive(game, {})[0] is not None
        assert answers.winnable(game) is winnable
        step = answers.hint(game)
        assert (step is not None) is winnable
        if step is not None:
            after = _replayed(game, (step,))
            assert _exhaustive(after, {})[0] is not None
