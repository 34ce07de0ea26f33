"""The solver on the variants of issue 14 (our scoring): open peaks, an empty discard, the joker.

Open peaks changes nothing the search can know, which is proved on the engine (the same cards are
playable at every step of many games) and on the answers (the same verdicts, best wins and hints as
the standard game's). The empty discard and the joker are the search's wildcard; their verdicts are
held to the plain reference search of bench/reference.py, which knows them from the Deal alone. As
for the standard game, the reference's verdicts on a fixed sample are stored
(tests/data/solver_reference_variants.jsonl, written by bench/reference.py --options) and a few are
recomputed here.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripeaks import DRAW, Action, Game, GameCode, Rules
from tripeaks.engine.codes import CODE_SPACE, NotOffered, deal
from tripeaks.engine.layout import TABLEAU_SIZE, THREE_PEAKS
from tripeaks.engine.variant import Variant
from tripeaks.solver import compiled, portable
from tripeaks.solver import search as solver
from tripeaks.solver.search import (
    DECIDE_CAP,
    LOST,
    Answers,
    hint,
    is_winnable,
    random_winnable_code,
    solve,
    survey_numbers,
)
from tripeaks.solver.tables import DRAW_STEP

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
from reference import fixed_codes, reference_search

DATA = Path(__file__).parent / "data" / "solver_reference_variants.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text().splitlines() if line]
OPTIONS = ("D", "J", "DJ", "DJO")
SEEDS = {"D": 14, "J": 24, "DJ": 34, "DJO": 44}
"""The stored sample's SplitMix64 seed per options (bench/reference.py --seed): other deals each."""
STORED = 125
"""Stored reference verdicts at least, per options and rules."""


def rows_of(options: str, rules: Rules) -> list[dict[str, Any]]:
    return [
        row
        for row in ROWS
        if (code := GameCode.parse(row["code"])).rules is rules and code.options == options
    ]


def replay(start: Game, line: tuple[Action, ...]) -> Game:
    """Play ``line`` through the engine (``act``, as the app does) on a copy of ``start``."""
    game = start.copy()
    for action in line:
        game.apply(action)
    return game


def test_the_stored_sample_covers_every_variant_in_the_bench_order() -> None:
    for options in OPTIONS:
        for rules in Rules:
            rows = rows_of(options, rules)
            assert len(rows) >= STORED, (options, rules)
            variant = Variant(rules).with_options(options)
            codes = [str(c) for c in fixed_codes(len(rows), variant, SEEDS[options])]
            assert [row["code"] for row in rows] == codes
    lost = {(o, r) for o in OPTIONS for r in Rules for row in rows_of(o, r) if not row["winnable"]}
    assert {("D", Rules.CLASSIC), ("J", Rules.CLASSIC)} <= lost  # lost deals are in it too


@pytest.mark.parametrize("index", [0, 7])
@pytest.mark.parametrize("options", OPTIONS)
def test_stored_variant_verdicts_are_what_the_reference_says(options: str, index: int) -> None:
    rules = Rules.CLASSIC if index % 2 else Rules.EASY
    row = rows_of(options, rules)[index]
    verdict = reference_search(deal(row["code"]), rules)
    assert (verdict.winnable, verdict.draws, verdict.max_removed) == (
        row["winnable"],
        row["draws"],
        row["max_removed"],
    )


@pytest.mark.parametrize("rules", list(Rules))
@pytest.mark.parametrize("options", OPTIONS)
def test_compiled_verdicts_fewest_draws_and_most_removed_agree_with_the_reference(
    options: str, rules: Rules
) -> None:
    """From a code (dealt in C, or from its Deal), from a Game, from the survey's batch: the
    reference's verdict, fewest draws and most cards removed; every best line replays in the
    engine to a win with its draws and score."""
    rows = rows_of(options, rules)
    assert [is_winnable(row["code"]) for row in rows] == [row["winnable"] for row in rows]
    games = [Game.new(row["code"]) for row in rows]
    assert [is_winnable(game) for game in games] == [row["winnable"] for row in rows]
    variant = Variant(rules).with_options(options)
    numbers = [GameCode.parse(row["code"]).number for row in rows]
    assert list(survey_numbers(numbers, variant, fewest_draws=True)) == [
        row["draws"] if row["winnable"] else LOST for row in rows
    ]
    for row, game in zip(rows, games, strict=True):
        for solution in (solve(row["code"]), Answers.of(game).solve(game)):
            assert solution.winnable == row["winnable"]
            assert solution.max_removed == row["max_removed"]
            if not solution.winnable:
                assert solution.line == () and solution.final_score is None
                continue
            assert solution.draws == row["draws"] == solution.line.count(DRAW)
            won = replay(game, solution.line)
            assert won.is_won and won.drawn == solution.draws
            assert won.score == solution.final_score == 500 - TABLEAU_SIZE - solution.draws + 300


@pytest.mark.parametrize("rules", list(Rules))
@pytest.mark.parametrize("options", OPTIONS)
def test_the_portable_kernel_agrees_with_the_reference(options: str, rules: Rules) -> None:
    """The portable kernel (no compiler): its search's best win on the first two stored deals of
    each."""
    for row in rows_of(options, rules)[:2]:
        game = Game.new(row["code"])
        solution = Answers.of(game, portable).solve(game)
        assert (solution.winnable, solution.max_removed) == (row["winnable"], row["max_removed"])
        if solution.winnable:
            assert solution.draws == row["draws"]
            assert replay(game, solution.line).score == solution.final_score


@pytest.mark.parametrize("options", ["D", "J", "DJ"])
def test_the_python_backward_pass_is_the_compiled_one_byte_for_byte(options: str) -> None:
    from tripeaks.solver import _search
    from tripeaks.solver.tables import compiled_layout, fits_table

    for rules in Rules:
        for code in fixed_codes(2, Variant(rules).with_options(options), 99):
            cards = deal(code)
            ranks = bytes(card.rank for card in cards.tableau)
            stock = bytes(card.rank for card in cards.stock)
            python = portable.reach_table(ranks, stock, rules)
            assert Answers(cards, rules, compiled).table == python
            assert Answers(cards, rules, portable).table == python
            layout = compiled_layout(THREE_PEAKS)
            plain_c = _search.prepare(ranks, stock, fits_table(rules), layout, True)
            assert plain_c[compiled.Prepared.HEADER :] == python


def play_randomly(game: Game, rng: random.Random, moves: int) -> Game:
    """Up to ``moves`` legal moves chosen by ``rng``, plays three times as often as draws."""
    for _ in range(moves):
        legal = list(game.legal_moves())
        if not legal:
            break
        plays = [move for move in legal if move != DRAW]
        game.apply(rng.choice(plays) if plays and rng.random() < 0.75 else legal[-1])
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(min_value=0, max_value=CODE_SPACE - 1),
    rules=st.sampled_from(list(Rules)),
    options=st.sampled_from(["D", "J", "DJ", "DJO"]),
    seed=st.integers(0, 2**32),
    moves=st.integers(12, 40),
)
def test_both_kernels_answer_the_same_on_variants_in_mid_game(
    number: int, rules: Rules, options: str, seed: int, moves: int
) -> None:
    """The compiled and the portable kernel give the same verdict, fewest draws, most cards
    removed and best score, from the start (an empty discard) and wherever a game has got to (a
    joker on top or to come), each best line replaying in the engine to its score; the prepared
    answers' verdict and hint agree with them."""
    game = Game.new(GameCode.from_number(number, Variant(rules).with_options(options)))
    game = play_randomly(game, random.Random(seed), moves)
    tableau = bytes(card.rank for card in game.deal.tableau)
    stock = bytes(card.rank for card in game.deal.stock)
    position = (game.present, game.drawn, game.top_rank)
    verdicts = {
        kernel.decide(tableau, stock, rules, *position, DECIDE_CAP)[0] if game.present else True
        for kernel in (compiled, portable)
    }
    assert len(verdicts) == 1
    won = verdicts.pop()
    if game.present:
        solutions = [Answers.of(game, kernel).solve(game) for kernel in (compiled, portable)]
        assert {(s.winnable, s.draws, s.final_score, s.max_removed) for s in solutions} == {
            (
                solutions[0].winnable,
                solutions[0].draws,
                solutions[0].final_score,
                solutions[0].max_removed,
            )
        }
        assert solutions[0].winnable == won
        for solution in solutions:
            if solution.winnable:
                finished = replay(game, solution.line)
                assert finished.is_won and finished.score == solution.final_score
                assert finished.drawn - game.drawn == solution.draws
    answers = Answers.of(game)
    assert answers.winnable(game) == won
    action = answers.hint(game)
    if not won or game.is_won:
        assert action is None
    else:
        assert action is not None
        game.apply(action)
        assert answers.winnable(game) and is_winnable(game)


def test_a_joker_on_top_and_an_empty_discard_are_the_wildcard() -> None:
    """The searches see WILD on top exactly when the engine lets any free card go on the
    discard: an empty discard, a joker on top."""
    rng = random.Random(5)
    for number in range(30):
        variant = Variant(Rules.CLASSIC, empty_discard=True, joker=True)
        game = Game.new(GameCode.from_number(number * 7919, variant))
        assert game.top is None and game.top_rank == solver.WILD
        seen_joker = False
        while list(game.legal_moves()):
            wild = game.top_rank == solver.WILD
            assert wild == (game.top is None or game.top.is_joker)
            seen_joker |= game.top is not None and game.top.is_joker
            if wild:
                assert game.playable_positions() == game.free_positions()
            play_randomly(game, rng, 1)
        assert seen_joker or game.drawn < len(game.deal.stock) or game.is_won


@pytest.mark.parametrize("rules", list(Rules))
def test_hints_follow_a_best_win_to_the_end_with_a_joker_and_an_empty_discard(
    rules: Rules,
) -> None:
    variant = Variant(rules, empty_discard=True, joker=True)
    code = random_winnable_code(variant)
    assert code.variant == variant and is_winnable(code)
    game = Game.new(code)
    best = solve(game)
    answers = Answers.of(game)
    while not game.is_won:
        action, quick = hint(game), answers.hint(game)
        assert action is not None and quick is not None
        game.apply(action)
    assert game.score == best.final_score and game.drawn == best.draws


OPEN_DEALS = 150
"""Deals per rules on which open peaks is held to the standard game."""


@pytest.mark.parametrize("rules", list(Rules))
def test_open_peaks_plays_exactly_the_standard_games_moves(rules: Rules) -> None:
    """The engine's legal moves with open peaks are the standard game's at every step of random
    games, alone and with the other options: so no search can tell them apart."""
    rng = random.Random(14)
    for number in range(0, CODE_SPACE, CODE_SPACE // OPEN_DEALS)[:OPEN_DEALS]:
        for options in ("", "D", "J", "DJ"):
            base = Variant(rules).with_options(options)
            games = [
                Game.new(GameCode.from_number(number, variant))
                for variant in (base, base.with_options(options + "O"))
            ]
            assert games[1].variant.open_peaks and not games[0].variant.open_peaks
            while True:
                legal = [list(game.legal_moves()) for game in games]
                assert legal[0] == legal[1]
                assert [game.top_rank for game in games] == [games[0].top_rank] * 2
                if not legal[0]:
                    break
                action = rng.choice(legal[0])
                for game in games:
                    game.apply(action)
            assert games[0].score == games[1].score and games[0].status == games[1].status


@pytest.mark.parametrize("rules", list(Rules))
def test_open_peaks_has_the_standard_games_verdicts_best_wins_and_hints(rules: Rules) -> None:
    for number in range(0, CODE_SPACE, CODE_SPACE // OPEN_DEALS)[:OPEN_DEALS]:
        for options in ("", "DJ"):
            plain = GameCode.from_number(number, Variant(rules).with_options(options))
            opened = GameCode.from_number(number, Variant(rules).with_options(options + "O"))
            assert is_winnable(opened) == is_winnable(plain)
            best, standard = solve(opened), solve(plain)
            assert best == standard
            if number % 10 == 0:
                game, twin = Game.new(opened), Game.new(plain)
                assert hint(game) == hint(twin)
                assert Answers.of(game).hint(game) == Answers.of(twin).hint(twin)
                if best.winnable:
                    won = replay(game, best.line)
                    assert won.is_won and won.score == best.final_score


def test_the_traditional_scoring_is_decided_and_its_best_win_refused() -> None:
    """The scoring decides no move: a -T code is won or lost as the same deal under ours, in the
    survey too; its best win is the streak search's (tripeaks/solver/streak.py), so solve refuses it."""
    for options in ("T", "DT", "JOT", "DJOT"):
        code = GameCode.parse(f"TP1-C-AAAAAAB-{options}")
        ours = GameCode.parse(
            f"TP1-C-AAAAAAB-{options[:-1]}" if options != "T" else "TP1-C-AAAAAAB"
        )
        with pytest.raises(NotOffered):
            solve(code)
        with pytest.raises(NotOffered):
            Answers.of(Game.new(code)).solve(Game.new(code))
        assert is_winnable(code) == is_winnable(Game.new(code)) == solve(ours).winnable
        assert Answers.of(Game.new(code)).winnable(Game.new(code)) == solve(ours).winnable
        numbers = [GameCode.parse(row["code"]).number for row in rows_of("DJ", Rules.CLASSIC)[:6]]
        assert survey_numbers(numbers, code.variant, True) == survey_numbers(
            numbers, ours.variant, True
        )
    for options in ("D", "J", "O", "DJ", "DO", "JO", "DJO"):
        code = GameCode.parse(f"TP1-C-AAAAAAB-{options}")
        assert solve(code).winnable == is_winnable(code) == is_winnable(Game.new(code))


def test_the_survey_batch_answers_variants_the_same_in_either_kernel() -> None:
    rows = rows_of("DJ", Rules.CLASSIC)[:6]
    numbers = [GameCode.parse(row["code"]).number for row in rows]
    variant = Variant(Rules.CLASSIC, empty_discard=True, joker=True)
    fewest = survey_numbers(numbers, variant, fewest_draws=True)
    assert list(fewest) == [row["draws"] if row["winnable"] else LOST for row in rows]
    options = 3  # an empty discard and a joker
    for kernel in (compiled, portable):
        assert kernel.survey(numbers, Rules.CLASSIC, DECIDE_CAP, True, options) == fewest
        assert kernel.survey(numbers, Rules.CLASSIC, DECIDE_CAP, False, options) == bytes(
            d != LOST for d in fewest
        )


BOUND_DEALS = 300
"""Deals per options and rules on which the pruned searches are held to the unpruned pass."""


@pytest.mark.parametrize("rules", list(Rules))
@pytest.mark.parametrize("options", OPTIONS)
def test_the_pruned_searches_agree_with_the_backward_pass_on_many_deals(
    options: str, rules: Rules
) -> None:
    """The depth-first search holds every pruning rule (a card needs a bridge, every card needs
    its own discard card, the dead end, the lost table); the backward pass holds none, and is held
    to the reference above. Uncapped, the search's verdict, fewest draws and most cards removed
    must be the pass's on many more deals than the reference can do."""
    variant = Variant(rules).with_options(options)
    for code in fixed_codes(BOUND_DEALS, variant, 1000 + SEEDS[options]):
        game = Game.new(code)
        tableau = bytes(card.rank for card in game.deal.tableau)
        stock = bytes(card.rank for card in game.deal.stock)
        position = (game.present, game.drawn, game.top_rank)
        won, by_pass = compiled.decide(tableau, stock, rules, *position, 10**12)
        assert not by_pass
        answers = Answers.of(game, compiled)
        assert won == answers.winnable(game)
        if code.number % 6 == 0:  # the best win by the search's passes, a sixth of the deals
            line, left, _nodes = compiled.search(tableau, stock, rules, *position, True)
            best = answers.solve(game)
            assert (line is not None) == best.winnable
            if line is None:
                assert TABLEAU_SIZE - left == best.max_removed
            else:
                assert line.count(DRAW_STEP) == best.draws
