"""The compiled search (tripeaks/solver/_search.c) on every layout, held to the portable one.

The compiled kernel takes a layout as data (tripeaks/solver/tables.py ``compiled_layout``) and knows
none of its own; the portable kernel is the plain Python of the same searches. On every layout,
under Easy and Classic and with each option that changes the cards or the view (an empty discard,
a joker, open peaks), both must give the same answers over a fixed sample of deals: whether a deal
can be won, its fewest draws and best score, the most cards a lost deal lets go; every line either
returns replays through the engine to a win and to the score the solver reports. Visit counts are
not compared: the compiled decide and best win search another way (docs/solver.md).

The sample: one deal number per rules and option on each layout, from a seeded generator, kept to
deals the portable search answers in a fraction of a second (both verdicts on every layout).
"""

from __future__ import annotations

import random

import pytest

from tripeaks.engine.codes import GameCode, deal
from tripeaks.engine.game import DRAW, Action, Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_ID, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver import compiled, portable, search
from tripeaks.solver.kernel import KERNEL
from tripeaks.solver.search import DECIDE_CAP, LOST, Answers
from tripeaks.solver.tables import DRAW_STEP, compiled_layout, fits_table, table_sets

SAMPLE: dict[str, dict[str, int]] = {
    "three_peaks": {
        "E": 5702082029,
        "ED": 173417990,
        "EJ": 7316434456,
        "EO": 3611326522,
        "C": 4621250291,
        "CD": 1647331410,
        "CJ": 6515799040,
        "CO": 7085819149,
    },
    "four_peaks": {
        "E": 3360551961,
        "ED": 5553533887,
        "EJ": 3681370915,
        "EO": 3277705457,
        "C": 7419276498,
        "CD": 4167567194,
        "CJ": 5726567341,
        "CO": 4243697355,
    },
    "diamonds": {
        "E": 588006658,
        "ED": 1526693622,
        "EJ": 4059746889,
        "EO": 7608354671,
        "C": 3621291187,
        "CD": 6392533188,
        "CJ": 6839012335,
        "CO": 5979426341,
    },
    "valley": {
        "E": 2403146939,
        "ED": 3984410363,
        "EJ": 3521117740,
        "EO": 3370520025,
        "C": 617174826,
        "CD": 3674482097,
        "CJ": 2347555856,
        "CO": 314048094,
    },
    "up_and_down": {
        "E": 4340830063,
        "ED": 1242732796,
        "EJ": 5840512212,
        "EO": 4742722011,
        "C": 3951878528,
        "CD": 3356960175,
        "CJ": 6332278023,
        "CO": 2537020895,
    },
    "theatre": {
        "E": 7143551053,
        "ED": 6780437210,
        "EJ": 4572936642,
        "EO": 7826529989,
        "C": 5388673553,
        "CD": 189113194,
        "CJ": 75821717,
        "CO": 1262291573,
    },
    "bridge": {
        "E": 6148589084,
        "ED": 4791432693,
        "EJ": 1739725211,
        "EO": 2080201032,
        "C": 3900211190,
        "CD": 3145573542,
        "CJ": 1997511958,
        "CO": 3795508125,
    },
}
"""Deal numbers by layout, then rules letter and option letter (none, D, J or O)."""

_OPTION_BITS = {"": 0, "D": search.EMPTY_DISCARD, "J": search.JOKER, "O": 0}


def _code(layout: Layout, key: str) -> GameCode:
    rules = Rules.EASY if key[0] == "E" else Rules.CLASSIC
    letters = GameCode.from_number(SAMPLE[layout.id][key]).letters
    return GameCode(Variant(rules).with_options(key[1:]), letters, layout)


def _start(code: GameCode) -> tuple[bytes, bytes, int]:
    cards = deal(code)
    tableau = bytes(card.rank for card in cards.tableau)
    stock = bytes(card.rank for card in cards.stock)
    return tableau, stock, 0 if cards.discard is None else cards.discard.rank


def _replayed(code: GameCode, steps: bytes) -> Game:
    """The game after the kernel's line from the start, played through the engine."""
    return Game.replay(code, [DRAW if step == DRAW_STEP else Action.play(step) for step in steps])


def test_the_sample_covers_every_layout_with_won_and_lost_deals() -> None:
    assert set(SAMPLE) == {layout.id for layout in LAYOUTS}
    for layout in LAYOUTS:
        verdicts = {search.is_winnable(_code(layout, key)) for key in SAMPLE[layout.id]}
        assert verdicts == {True, False}, layout.id


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.id)
def test_both_kernels_answer_the_same_on_every_layout(layout: Layout) -> None:
    """Each rules and option: the verdict, the fewest draws, the best score and the most cards
    removed, by the depth-first search of either kernel, the compiled decide (from the ranks and
    from the deal number, dealt in C), the compiled best win by its forward pass and the survey;
    every line replays to its score."""
    full = layout.all_mask
    for key in SAMPLE[layout.id]:
        code = _code(layout, key)
        rules, options = code.rules, _OPTION_BITS[key[1:]]
        tableau, stock, top = _start(code)
        line, left, _nodes = portable.search(tableau, stock, rules, full, 0, top, True, layout)
        winnable = line is not None
        by_c = compiled.search(tableau, stock, rules, full, 0, top, True, layout)
        assert (by_c[0] is not None, by_c[1]) == (winnable, left), code
        assert (
            compiled.decide(tableau, stock, rules, full, 0, top, DECIDE_CAP, layout)[0] is winnable
        )
        for cap in (0, DECIDE_CAP, 10**9):  # the backward pass alone, the usual mix, the search
            assert compiled.decide_deal(code.number, rules, cap, options, layout)[0] is winnable
        best, best_left = compiled.prepare(tableau, stock, rules, layout).best_win(full, 0, top)
        assert best_left == left, code
        solution = search.solve(code)
        assert search.is_winnable(code) is solution.winnable is winnable
        assert search.is_winnable(Game.new(code)) is winnable
        survey = search.survey_numbers([code.number], code.variant, True, layout)
        if not winnable:
            assert best is None and by_c[0] is None, code
            assert solution.max_removed == layout.size - left
            assert survey == bytes([LOST])
            continue
        assert line is not None and by_c[0] is not None and best is not None
        draws = line.count(DRAW_STEP)
        assert by_c[0].count(DRAW_STEP) == best.count(DRAW_STEP) == solution.draws == draws, code
        assert survey == bytes([draws])
        for steps in (line, by_c[0], best):
            end = _replayed(code, steps)
            assert end.is_won and end.score == solution.final_score, code
        assert Game.replay(code, solution.line).score == solution.final_score


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.id)
def test_the_compiled_backward_pass_is_the_portable_one_on_every_layout(layout: Layout) -> None:
    """One deal with an empty discard and a joker: the compiled table (vector and plain C paths)
    and the Python one byte for byte, and the same hint at positions along a random game."""
    from tripeaks.solver import _search

    code = GameCode(Variant(Rules.CLASSIC).with_options("DJ"), "QWERTYU", layout)
    tableau, stock, _top = _start(code)
    fits = fits_table(Rules.CLASSIC)
    data = compiled_layout(layout)
    slow = Answers(deal(code), Rules.CLASSIC, portable, layout)
    python = slow.table  # tripeaks.solver.portable.reach_table, made once
    assert len(python) == 16 * len(table_sets(layout)[0])
    built = Answers(deal(code), Rules.CLASSIC, compiled, layout)
    assert built.table == python
    assert _search.prepare(tableau, stock, fits, data, True)[compiled.Prepared.HEADER :] == python
    rng = random.Random(layout.size)
    game = Game.new(code)
    while not game.is_over and not game.is_stuck:
        assert built.winnable(game) is slow.winnable(game)
        assert built.hint(game) == slow.hint(game)
        moves = list(game.legal_moves())
        plays = [move for move in moves if move != DRAW]
        game.apply(rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(moves))


def test_interleaved_layouts_keep_their_own_tables() -> None:
    """The extension keeps a few layouts at once, each with its own table sets: deciding the same
    deals on every layout in turn, twice, answers the same both times, and as each layout alone."""
    numbers = [1, 2, 3]
    alone = {
        layout.id: [compiled.decide_deal(n, Rules.CLASSIC, 0, 0, layout)[0] for n in numbers]
        for layout in LAYOUTS
    }
    for _ in range(2):
        for n_index, number in enumerate(numbers):
            for layout in LAYOUTS:
                verdict = compiled.decide_deal(number, Rules.CLASSIC, 0, 0, layout)[0]
                assert verdict is alone[layout.id][n_index]


def _column(size: int) -> Layout:
    """A layout of ``size`` cards in one column, each lying on the one above it."""
    places = tuple((0, 2 * p) for p in range(size))
    covered_by = tuple((p + 1,) if p + 1 < size else () for p in range(size))
    return Layout(f"column_{size}", places, covered_by, (tuple(range(size)),))


def test_more_layouts_than_the_extension_keeps_are_read_again() -> None:
    """Past the 16 layouts kept at once, the least recently used one is dropped and read again
    when it comes back: the answers stay the portable search's."""
    tinies = [_column(size) for size in range(1, 21)]
    for _ in range(2):
        for layout in tinies:
            tableau, stock, top = _start(GameCode(Rules.CLASSIC, "ABCDEFG", layout))
            full = layout.all_mask
            expected = portable.search(tableau, stock, Rules.CLASSIC, full, 0, top, True, layout)
            got = compiled.prepare(tableau, stock, Rules.CLASSIC, layout).best_win(full, 0, top)
            assert (got[0] is None, got[1]) == (expected[0] is None, expected[1]), layout.id
            if got[0] is not None and expected[0] is not None:
                assert got[0].count(DRAW_STEP) == expected[0].count(DRAW_STEP)


def test_a_layout_larger_than_the_compiled_search_takes_goes_to_the_portable_one() -> None:
    """The compiled search takes at most 35 cards (MAX_LAYOUT); a larger layout is refused there
    with a ValueError, and search.py sends it to the portable kernel."""
    assert compiled.MAX_LAYOUT == 35
    big = Layout.drawn("big", "\n".join(("a1" * 18, " " + "a0" * 18)))
    assert big.size == 36
    tableau, stock, top = _start(GameCode(Rules.EASY, "ABCDEFG", big))
    with pytest.raises(ValueError, match="1 to 35 cards"):
        compiled.decide(tableau, stock, Rules.EASY, big.all_mask, 0, top, 0, big)
    assert search._kernel(big) is portable
    assert search._kernel(BY_ID["bridge"]) is KERNEL
    assert search._kernel(THREE_PEAKS) is KERNEL


def test_the_compiled_search_refuses_a_layout_that_is_not_one() -> None:
    from tripeaks.solver import _search

    code = GameCode(Rules.EASY, "ABCDEFG")
    tableau, stock, _top = _start(code)
    fits = fits_table(Rules.EASY)
    good = compiled_layout(THREE_PEAKS)
    stray = bytearray(good)
    stray[-1] = 0x80  # a mask naming position 63, past the 28 cards
    for data in (b"TPL1", good[:-8], bytes(stray), b"XXXX" + good[4:]):
        with pytest.raises(ValueError):
            _search.prepare(tableau, stock, fits, bytes(data))
    with pytest.raises(TypeError):
        _search.prepare(tableau, stock, fits, "not bytes")  # type: ignore[arg-type]
