"""The backward pass (solver.Answers, tripeaks/solver/_search.c's prepare) against the search and the reference.

It answers every position of a deal at once, from a table over the sets of cards that can be on
the table together; the depth-first search answers one position at a time. They must agree
everywhere: on the stored reference verdicts of every bench deal, and on random mid-game positions
of random deals under both rules. The compiled kernel's answers (the backward pass, its best win
by a forward pass) are held to the portable kernel's (its own backward pass in Python, its best win
by the depth-first search), each kernel named explicitly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripeaks import Game, GameCode, Rules
from tripeaks.engine.codes import CODE_SPACE
from tripeaks.engine.game import DRAW
from tripeaks.engine.layout import COVERS, TABLEAU_SIZE, THREE_PEAKS
from tripeaks.engine.layouts import FOUR_PEAKS
from tripeaks.solver import compiled, portable
from tripeaks.solver.search import (
    DECIDE_CAP,
    Answers,
    Solution,
    _decide,
    _decide_deal,
    _explore,
    free_mask,
    is_winnable,
    solve,
    winnable_positions,
)
from tripeaks.solver.tables import compiled_layout, fits_table, table_sets

DATA = Path(__file__).parent / "data" / "solver_reference.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text().splitlines() if line]


def test_there_are_22932_table_sets_each_closed_under_what_its_cards_lie_on() -> None:
    masks, removals, number = table_sets()
    assert len(masks) == len(number) == 22932
    assert masks[0] == 0 and masks[-1] == (1 << TABLEAU_SIZE) - 1
    for i, mask in enumerate(masks):
        for pos in range(TABLEAU_SIZE):
            if mask >> pos & 1:
                assert all(mask >> q & 1 for q in COVERS[pos])
        assert [pos for pos, _ in removals[i]] == [
            p for p in range(TABLEAU_SIZE) if free_mask(mask) >> p & 1
        ]
        for pos, after in removals[i]:
            assert masks[after] == mask & ~(1 << pos) and after < i


@pytest.mark.parametrize(
    "code", ["TP1-E-AAAAAAB", "TP1-C-AAAAAAB", "TP1-C-NIMWCYH", "TP1-E-KJDKLQK"]
)
def test_the_compiled_backward_pass_makes_the_same_table_as_the_python_one(code: str) -> None:
    """The vector path (where built), the portable C path and Python: one table, byte for byte."""
    from tripeaks.solver import _search

    game = Game.new(GameCode.parse(code))
    built = Answers(game.deal, game.rules, compiled)
    assert built.table == Answers(game.deal, game.rules, portable).table
    assert len(built.table) == 22932 * 16
    deal_args = (
        bytes(card.rank for card in game.deal.tableau),
        bytes(card.rank for card in game.deal.stock),
        fits_table(game.rules),
        compiled_layout(THREE_PEAKS),
    )
    plain_c = _search.prepare(*deal_args, True)
    assert plain_c == _search.prepare(*deal_args, False) == _search.prepare(*deal_args)
    assert plain_c[-len(built.table) :] == built.table


@pytest.mark.parametrize("rules", list(Rules))
def test_the_backward_pass_agrees_with_the_reference_on_every_bench_deal(rules: Rules) -> None:
    rows = [row for row in ROWS if GameCode.parse(row["code"]).rules is rules]
    assert len(rows) == 1000
    for row in rows:
        game = Game.new(GameCode.parse(row["code"]))
        assert Answers.of(game).winnable(game) == row["winnable"], row["code"]


def compiled_decide(game: Game, cap: int) -> tuple[bool, bool]:
    """The compiled kernel's capped search then backward pass, named explicitly."""
    tableau = bytes(card.rank for card in game.deal.tableau)
    stock = bytes(card.rank for card in game.deal.stock)
    return compiled.decide(tableau, stock, game.rules, game.present, 0, game.top_rank, cap)


def test_decide_hands_a_deal_to_the_backward_pass_past_its_cap() -> None:
    """is_winnable's capped search (the compiled kernel's): past the cap the backward pass
    answers, and the same; the portable kernel's uncapped search says the same too."""
    for row in ROWS[::50]:
        game = Game.new(GameCode.parse(row["code"]))
        won, backward = compiled_decide(game, cap=0)
        # Some lost deals are refuted at the root, before the search visits a position.
        assert won == row["winnable"] and (backward or not won)
        won, backward = compiled_decide(game, cap=10**9)
        assert (won, backward) == (row["winnable"], False)
        assert _decide(game)[0] == row["winnable"] == is_winnable(game)


def test_deciding_from_a_deal_number_hands_over_past_its_cap_as_from_a_game() -> None:
    for row in ROWS[::40]:
        code = GameCode.parse(row["code"])
        won, backward, nodes = compiled.decide_deal(code.number, code.rules, 0, 0)
        assert won == row["winnable"] and (backward or not won) and nodes <= 3  # one a try
        won, backward, _nodes = compiled.decide_deal(code.number, code.rules, 10**9, 0)
        assert (won, backward) == (row["winnable"], False)
        assert _decide_deal(code.number, code.rules)[0] == row["winnable"]
        assert _decide(Game.new(code))[0] == row["winnable"]
    for row in ROWS[::200]:  # the portable kernel deals in Python: the same deal, the same verdict
        code = GameCode.parse(row["code"])
        won, backward, _nodes = portable.decide_deal(code.number, code.rules, DECIDE_CAP, 0)
        assert (won, backward) == (row["winnable"], False)


def play_on(game: Game, choices: list[int]) -> Game:
    """Random legal moves, plays more often than draws, stopping when nothing is legal."""
    for choice in choices:
        moves = list(game.legal_moves())
        if not moves:
            break
        plays = [move for move in moves if move != DRAW]
        game.apply(plays[choice % len(plays)] if plays and choice < 7 else moves[-1])
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(min_value=0, max_value=CODE_SPACE - 1),
    rules=st.sampled_from(list(Rules)),
    games=st.lists(
        st.lists(st.integers(min_value=0, max_value=9), min_size=0, max_size=45),
        min_size=1,
        max_size=4,
    ),
)
def test_still_winnable_from_the_answers_is_what_a_fresh_search_says(
    number: int, rules: Rules, games: list[list[int]]
) -> None:
    """One preparation per deal, several mid-game positions of it, each against today's search."""
    start = Game.new(GameCode.from_number(number, rules))
    answers = Answers.of(start)
    slow = Answers(start.deal, start.rules, portable) if len(games) == 1 else None
    for choices in games:
        game = play_on(start.copy(), choices)
        searched = game.is_won or _explore(game, best_win=False)[0] is not None
        assert answers.winnable(game) == searched == is_winnable(game)
        if slow is not None:
            assert slow.winnable(game) == searched and slow.hint(game) == answers.hint(game)
        hint = answers.hint(game)
        if game.is_won or not searched:
            assert hint is None
            continue
        assert hint is not None and hint in set(game.legal_moves())
        game.apply(hint)
        assert answers.winnable(game)


@pytest.mark.parametrize("code", ["TP1-E-AAAAAAB", "TP1-C-AAAAAAB", "TP1-C-NIMWCYH"])
def test_following_the_answers_hints_wins_the_game(code: str) -> None:
    game = Game.new(GameCode.parse(code))
    answers = Answers.of(game)
    while not game.is_won:
        hint = answers.hint(game)
        assert hint is not None
        game.apply(hint)
    assert answers.hint(game) is None and answers.winnable(game)


def test_the_answers_refuse_what_is_not_a_position_of_the_deal() -> None:
    from tripeaks.solver import _search

    game = Game.new(GameCode.parse("TP1-E-QWERTYU"))
    layout = compiled_layout(THREE_PEAKS)
    prepared = _search.prepare(
        bytes(card.rank for card in game.deal.tableau),
        bytes(card.rank for card in game.deal.stock),
        fits_table(game.rules),
        layout,
    )
    top = game.discard_top.rank
    assert _search.winnable_from(prepared, layout, game.present, 0, top) == is_winnable(game)
    # A peak card left on a table without the cards it lies on is no set that can occur.
    for present, drawn, rank in ((1 << 18, 0, top), (1 << 28, 0, top), (game.present, 24, top)):
        with pytest.raises(ValueError):
            _search.winnable_from(prepared, layout, present, drawn, rank)
    for rank in (-1, 14, 15):  # 0 is the wildcard top: an empty discard or a joker
        with pytest.raises(ValueError):
            _search.hint_from(prepared, layout, game.present, 0, rank)
    with pytest.raises(ValueError):
        _search.winnable_from(prepared[:-1], layout, game.present, 0, top)
    with pytest.raises(ValueError):  # a prepared deal of Three Peaks asked about another layout
        _search.winnable_from(prepared, compiled_layout(FOUR_PEAKS), game.present, 0, top)
    with pytest.raises(ValueError):
        _search.prepare(bytes(27), bytes(23), fits_table(game.rules), layout)
    with pytest.raises(ValueError):
        _search.prepare(bytes(28), bytes(23), fits_table(game.rules), layout)


@pytest.mark.parametrize("rules", list(Rules))
def test_the_best_win_finds_the_reference_best_on_every_bench_deal(rules: Rules) -> None:
    """Fewest draws and most cards removed as the reference has them; every line replays to its score."""
    rows = [row for row in ROWS if GameCode.parse(row["code"]).rules is rules]
    for row in rows:
        game = Game.new(GameCode.parse(row["code"]))
        solution = Answers.of(game).solve(game)
        assert (solution.winnable, solution.max_removed) == (row["winnable"], row["max_removed"])
        if not solution.winnable:
            assert solution.line == () and solution.final_score is None
            continue
        assert solution.draws == row["draws"] == solution.line.count(DRAW)
        for action in solution.line:
            game.apply(action)
        assert game.is_won and game.score == solution.final_score == 772 - solution.draws


def searched_best(game: Game) -> Solution:
    """The best win by the portable kernel (its depth-first search for the fewest draws), to hold
    the compiled kernel's passes to."""
    return Answers.of(game, portable).solve(game)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(min_value=0, max_value=CODE_SPACE - 1),
    rules=st.sampled_from(list(Rules)),
    choices=st.lists(st.integers(min_value=0, max_value=9), min_size=0, max_size=45),
)
def test_the_best_win_from_the_answers_agrees_with_the_search_in_mid_game(
    number: int, rules: Rules, choices: list[int]
) -> None:
    game = play_on(Game.new(GameCode.from_number(number, rules)), choices)
    swept, searched = Answers.of(game, compiled).solve(game), searched_best(game)
    assert solve(game) == swept
    assert (swept.winnable, swept.draws, swept.final_score, swept.max_removed) == (
        searched.winnable,
        searched.draws,
        searched.final_score,
        searched.max_removed,
    )
    for action in swept.line:
        game.apply(action)
    assert game.is_won == swept.winnable


def keep_winnable(game: Game, answers: Answers, choices: list[int]) -> Game:
    """Random moves among those that keep the game winnable, the draw first whenever the choice
    is even and it keeps the game won: mid-game positions that are still won, with cards drawn."""
    for choice in choices:
        keeping = []
        for move in game.legal_moves():
            after = game.copy()
            after.apply(move)
            if answers.winnable(after):
                keeping.append(move)
        if not keeping or game.is_won:
            break
        move = DRAW if DRAW in keeping and choice % 2 == 0 else keeping[choice % len(keeping)]
        game.apply(move)
    return game


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(min_value=0, max_value=CODE_SPACE - 1),
    rules=st.sampled_from(list(Rules)),
    choices=st.lists(st.integers(min_value=0, max_value=9), min_size=1, max_size=40),
)
def test_the_best_win_from_a_won_position_with_cards_drawn_is_the_searchs(
    number: int, rules: Rules, choices: list[int]
) -> None:
    start = Game.new(GameCode.from_number(number, rules))
    answers = Answers.of(start, compiled)
    game = keep_winnable(start.copy(), answers, choices)
    best, searched = answers.solve(game), searched_best(game)
    assert best.winnable == answers.winnable(game) == searched.winnable
    assert (best.draws, best.final_score, best.max_removed) == (
        searched.draws,
        searched.final_score,
        searched.max_removed,
    )
    for action in best.line:
        game.apply(action)
    assert game.is_won == best.winnable and (not best.winnable or game.score == best.final_score)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(min_value=0, max_value=CODE_SPACE - 1),
    rules=st.sampled_from(list(Rules)),
    options=st.sampled_from(["", "D", "J", "DJ"]),
    games=st.lists(
        st.lists(st.integers(min_value=0, max_value=9), min_size=0, max_size=45),
        min_size=1,
        max_size=4,
    ),
)
def test_a_few_positions_decided_one_by_one_are_what_the_answers_say(
    number: int, rules: Rules, options: str, games: list[list[int]]
) -> None:
    """solver.winnable_positions (the fair hint's: each position searched on its own) against the
    backward pass over every position, on mid-game positions of one deal, with an empty discard and
    a joker too (the wildcard on top), and through either kernel."""
    code = GameCode.parse(
        f"{GameCode.from_number(number, rules)}{'-' + options if options else ''}"
    )
    start = Game.new(code)
    answers = Answers.of(start)
    positions = []
    for choices in games:
        game = play_on(start.copy(), choices)
        positions.append((game.present, game.drawn, game.top_rank))
    expected = [answers.winnable_at(*position) for position in positions]
    assert winnable_positions(start.deal, rules, positions) == expected
    tableau = bytes(card.rank for card in start.deal.tableau)
    stock = bytes(card.rank for card in start.deal.stock)
    for kernel in (compiled, portable):
        decided = kernel.winnable_positions(tableau, stock, rules, positions[:1], DECIDE_CAP)
        assert decided == expected[:1]
