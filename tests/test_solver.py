"""The solver against the plain reference search of bench/reference.py, and against the engine.

Running the reference on hundreds of deals takes minutes, so its verdicts on the bench's fixed codes
are stored in tests/data/solver_reference.jsonl (written by ``bench/reference.py``); a few of them are
recomputed here so the file cannot drift from the reference.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripeaks import DRAW, Action, Game, GameCode, Rules, solve
from tripeaks.engine.codes import deal
from tripeaks.engine.layout import TABLEAU_SIZE
from tripeaks.solver import compiled, portable
from tripeaks.solver.search import (
    DECIDE_CAP,
    LOST,
    free_mask,
    hint,
    is_winnable,
    random_winnable_code,
    survey_numbers,
)

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
from reference import fixed_codes, reference_search

DATA = Path(__file__).parent / "data" / "solver_reference.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text().splitlines() if line]
CHUNKS = 10
VERDICTS = 300
"""Deals per rules whose verdicts are compared with the reference in every run (the bench does 1,000)."""


def rows_of(rules: Rules) -> list[dict[str, Any]]:
    return [row for row in ROWS if GameCode.parse(row["code"]).rules is rules]


def replay(start: Game, line: tuple[Action, ...]) -> Game:
    """Play ``line`` through the engine on a fresh game with the same log as ``start``."""
    game = Game.replay(start.code, start.actions) if start.code else start
    for action in line:
        game.apply(action)
    return game


def test_the_stored_verdicts_cover_300_deals_per_rules_in_the_bench_order() -> None:
    for rules in Rules:
        rows = rows_of(rules)
        assert len(rows) >= VERDICTS
        assert [row["code"] for row in rows] == [str(c) for c in fixed_codes(len(rows), rules)]


@pytest.mark.parametrize("index", [0, 1, 301])
@pytest.mark.parametrize("rules", list(Rules))
def test_stored_verdicts_are_what_the_reference_says(rules: Rules, index: int) -> None:
    row = rows_of(rules)[index]
    verdict = reference_search(deal(row["code"]), rules)
    assert (verdict.winnable, verdict.draws, verdict.max_removed) == (
        row["winnable"],
        row["draws"],
        row["max_removed"],
    )


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("rules", list(Rules))
def test_winnable_verdicts_agree_with_the_reference(rules: Rules, chunk: int) -> None:
    """From a code (dealt and decided in C from its number) on every stored deal, and from a
    Game on the first 300."""
    rows = rows_of(rules)[chunk::CHUNKS]
    assert len(rows) == 1000 // CHUNKS
    assert [is_winnable(row["code"]) for row in rows] == [row["winnable"] for row in rows]
    games = [Game.new(row["code"]) for row in rows_of(rules)[:VERDICTS][chunk::CHUNKS]]
    assert [is_winnable(game) for game in games] == [row["winnable"] for row in rows[: len(games)]]


@pytest.mark.parametrize("rules", list(Rules))
def test_the_survey_batch_has_the_reference_verdicts_and_fewest_draws_of_every_deal(
    rules: Rules,
) -> None:
    rows = rows_of(rules)
    numbers = [GameCode.parse(row["code"]).number for row in rows]
    assert list(survey_numbers(numbers, rules)) == [int(row["winnable"]) for row in rows]
    assert list(survey_numbers(numbers, rules, fewest_draws=True)) == [
        row["draws"] if row["winnable"] else LOST for row in rows
    ]


def test_the_survey_batch_answers_the_same_in_either_kernel() -> None:
    rows = rows_of(Rules.CLASSIC)[:6]
    numbers = [GameCode.parse(row["code"]).number for row in rows]
    fewest = survey_numbers(numbers, Rules.CLASSIC, fewest_draws=True)
    assert list(fewest) == [row["draws"] if row["winnable"] else LOST for row in rows]
    for kernel in (compiled, portable):
        assert kernel.survey(numbers, Rules.CLASSIC, DECIDE_CAP, True, 0) == fewest
        assert kernel.survey(numbers, Rules.CLASSIC, DECIDE_CAP, False, 0) == bytes(
            d != LOST for d in fewest
        )


def best_win_sample(rules: Rules, count: int) -> list[dict[str, Any]]:
    return [row for row in rows_of(rules) if row["winnable"]][:count]


@pytest.mark.parametrize("rules", list(Rules))
def test_best_win_has_the_fewest_draws_and_replays_to_its_score(rules: Rules) -> None:
    for row in best_win_sample(rules, 5):
        solution = solve(row["code"])
        assert solution.winnable and solution.max_removed == TABLEAU_SIZE
        assert solution.draws == row["draws"] == solution.line.count(DRAW)
        game = replay(Game.new(row["code"]), solution.line)
        assert game.is_won
        assert solution.final_score == game.score == 500 - TABLEAU_SIZE - solution.draws + 300


@pytest.mark.parametrize("rules", list(Rules))
def test_every_lost_deal_reports_the_most_cards_the_reference_removes(rules: Rules) -> None:
    lost = [row for row in rows_of(rules) if not row["winnable"]]
    assert len(lost) >= 8
    for row in lost:
        solution = solve(row["code"])
        assert not solution.winnable
        assert solution.line == () and solution.final_score is None
        assert solution.max_removed == row["max_removed"]


@pytest.mark.parametrize("rules", list(Rules))
def test_solving_a_code_answers_as_solving_its_game(rules: Rules) -> None:
    """From a code the compiled solve builds no Game: the same best win (line, draws, score) or
    the same most cards removed as from the game of that code, won and lost deals alike."""
    rows = rows_of(rules)
    sample = [row for row in rows if row["winnable"]][:6] + [r for r in rows if not r["winnable"]][
        :4
    ]
    for row in sample:
        code = GameCode.parse(row["code"])
        assert solve(code) == solve(row["code"]) == solve(Game.new(code))


def test_a_solved_code_keeps_a_handful_of_objects_for_the_garbage_collector() -> None:
    """A kept best win holds the solution and its line, nothing made per step or per card: the
    collector's passes over a large heap (tens of milliseconds) were landing in solve, whose
    plays were each a new Action and whose Game held hundreds of objects."""
    codes = [row["code"] for row in best_win_sample(Rules.EASY, 20)]
    solve(codes[0])
    kept = []
    gc.disable()
    try:
        gc.collect()
        before = gc.get_count()[0]
        kept.extend(solve(code) for code in codes)
        made = gc.get_count()[0] - before
    finally:
        gc.enable()
    assert all(solution.winnable and len(solution.line) > TABLEAU_SIZE for solution in kept)
    assert made <= 3 * len(codes)


def test_the_rules_argument_overrides_the_codes_rules() -> None:
    lost = next(row for row in rows_of(Rules.CLASSIC) if not row["winnable"])
    easy = next(r for r in rows_of(Rules.EASY) if r["code"][-7:] == lost["code"][-7:])
    assert solve(lost["code"], Rules.EASY).winnable == easy["winnable"]
    assert is_winnable(GameCode.parse(easy["code"]), Rules.CLASSIC) is False


def test_the_example_code_solves_to_its_reference_best() -> None:
    easy, classic = solve("TP1-E-AAAAAAB"), solve("TP1-E-AAAAAAB", Rules.CLASSIC)
    assert (easy.draws, easy.final_score) == (13, 759)
    assert (classic.draws, classic.final_score) == (22, 750)


def mid_game(code: str, moves: list[int]) -> Game:
    """A game after some legal moves, each chosen by index among the legal ones."""
    game = Game.new(code)
    for choice in moves:
        legal = list(game.legal_moves())
        if not legal:
            break
        game.apply(legal[choice % len(legal)])
    return game


def test_a_game_in_mid_play_is_solved_from_where_it_stands() -> None:
    for code, moves in (("TP1-E-AAAAAAB", [0, 2, 1, 0, 0, 3]), ("TP1-C-AAAAAAB", [1] * 12)):
        game = mid_game(code, moves)
        solution = solve(game)
        removed = ~game.present & ((1 << TABLEAU_SIZE) - 1)
        verdict = reference_search(
            game.deal, game.rules, removed=removed, drawn=game.drawn, top=game.discard_top.rank
        )
        assert solution.winnable == verdict.winnable
        if solution.winnable:
            assert solution.draws == verdict.draws
            finished = replay(game, solution.line)
            assert finished.is_won and finished.score == solution.final_score
        else:
            assert solution.max_removed == verdict.max_removed


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    code=st.sampled_from(["TP1-E-AAAAAAB", "TP1-C-AAAAAAB", "TP1-E-HAEYXLI", "TP1-C-HAEYXLI"]),
    moves=st.lists(st.integers(0, 6), min_size=8, max_size=30),
)
def test_a_hint_in_mid_game_keeps_a_winnable_game_winnable(code: str, moves: list[int]) -> None:
    game = mid_game(code, moves)
    action = hint(game)
    if not is_winnable(game) or game.is_won:
        assert action is None
        return
    assert action is not None
    game.apply(action)
    assert is_winnable(game)


def test_hints_follow_a_best_win_to_the_end() -> None:
    game = Game.new("TP1-C-AAAAAAB")
    best = solve(game)
    while not game.is_won:
        action = hint(game)
        assert action is not None
        game.apply(action)
    assert game.score == best.final_score
    assert hint(game) is None


def test_no_hint_when_the_position_is_lost_or_stuck() -> None:
    lost = next(row for row in rows_of(Rules.CLASSIC) if not row["winnable"])
    assert hint(Game.new(lost["code"])) is None
    game = Game.new(lost["code"])
    while not game.is_stuck:
        game.apply(next(iter(game.legal_moves())))
    assert hint(game) is None and not is_winnable(game)


def test_a_won_game_is_winnable_with_nothing_left_to_do() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    for action in solve(game).line:
        game.apply(action)
    solution = solve(game)
    assert solution == type(solution)(True, (), 0, game.score, TABLEAU_SIZE)


def test_random_winnable_codes_are_winnable_under_their_rules() -> None:
    for rules in Rules:
        code = random_winnable_code(rules)
        assert code.rules is rules and is_winnable(code)


def test_free_mask_agrees_with_the_engine() -> None:
    game = mid_game("TP1-E-QWERTYU", [0, 1, 0, 2, 0, 0, 1, 0, 3, 0, 0, 0, 0, 1, 0])
    assert free_mask(game.present) == sum(1 << p for p in game.free_positions())
