"""The two kernels' depth-first searches (tripeaks/solver/_search.c through tripeaks.solver.compiled,
and tripeaks.solver.portable) held to the same answers.

Each kernel is chosen explicitly here. On every position they must give the same verdict, the same
fewest draws of a win and the same most cards removed when lost, and every line either gives must
replay through the engine to a win with the draws and score it claims: answers, not the order
positions are visited in, so either search may be optimised on its own.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripeaks import Game, GameCode, Rules
from tripeaks.engine.codes import CODE_SPACE
from tripeaks.engine.game import DRAW, Action
from tripeaks.engine.layout import TABLEAU_SIZE, THREE_PEAKS
from tripeaks.engine.layouts import FOUR_PEAKS
from tripeaks.solver import COMPILED, compiled, portable
from tripeaks.solver.kernel import Kernel
from tripeaks.solver.search import _explore
from tripeaks.solver.tables import DRAW_STEP, compiled_layout

KERNELS = (compiled, portable)

SAMPLE = [
    "TP1-E-QWERTYU",
    "TP1-E-FGKNXUD",
    "TP1-C-FGKNXUD",
    "TP1-C-NIMWCYH",
    "TP1-C-JSCWBPD",
    "TP1-C-XWDMOPZ",
    "TP1-C-ZJQKEGQ",
    "TP1-E-KJDKLQK",
    "TP1-E-GBKYRUW",
]
"""Winnable and lost deals under both rules that the Python search answers in about a second."""


def test_the_compiled_search_was_built() -> None:
    """``make test`` builds it; a silent fall-back to Python would make every figure 100x worse."""
    assert COMPILED


def searched(kernel: Kernel, game: Game, best_win: bool) -> tuple[bytes | None, int, int]:
    tableau = bytes(card.rank for card in game.deal.tableau)
    stock = bytes(card.rank for card in game.deal.stock)
    return kernel.search(
        tableau, stock, game.rules, game.present, game.drawn, game.top_rank, best_win
    )


def replayed(game: Game, line: bytes) -> Game:
    """The game after the kernel's line, played through the engine (an illegal step raises)."""
    after = game.copy()
    for step in line:
        after.apply(DRAW if step == DRAW_STEP else Action.play(step))
    return after


def same_answers(game: Game) -> bool:
    """Both kernels' searches from ``game``, first win and best win: the same verdict, the same
    fewest draws, the same most cards removed; every line wins in the engine with the draws it
    has and the best win's score is the highest (our scoring: fewest draws). The verdict."""
    answers: dict[Kernel, tuple[bool, int | None, int]] = {}
    for kernel in KERNELS:
        first, _left, _nodes = searched(kernel, game, False)
        best, best_left, _nodes = searched(kernel, game, True)
        assert (first is None) == (best is None)
        if best is None:
            answers[kernel] = (False, None, best_left)
            continue
        assert first is not None and replayed(game, first).is_won
        won = replayed(game, best)
        assert won.is_won and won.drawn - game.drawn == best.count(DRAW_STEP)
        assert best.count(DRAW_STEP) <= first.count(DRAW_STEP)
        answers[kernel] = (True, best.count(DRAW_STEP), won.score)
    assert answers[compiled] == answers[portable], game
    won, _draws, rest = answers[compiled]
    assert won or 1 <= rest <= game.present.bit_count() <= TABLEAU_SIZE
    return bool(won)


@pytest.mark.parametrize("code", SAMPLE)
def test_both_kernels_answer_the_same_from_a_deal(code: str) -> None:
    same_answers(Game.new(GameCode.parse(code)))


def test_the_sample_holds_won_and_lost_deals_of_both_rules() -> None:
    verdicts = {
        (code.split("-")[1], _explore(Game.new(GameCode.parse(code)), False)[0] is not None)
        for code in SAMPLE
    }
    assert verdicts == {("E", True), ("E", False), ("C", True), ("C", False)}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(min_value=0, max_value=CODE_SPACE - 1),
    rules=st.sampled_from(list(Rules)),
    choices=st.lists(st.integers(min_value=0, max_value=9), min_size=20, max_size=45),
)
def test_both_kernels_answer_the_same_in_mid_game(
    number: int, rules: Rules, choices: list[int]
) -> None:
    """Late positions of random games, lost or not, with some cards drawn and some removed."""
    game = Game.new(GameCode.from_number(number, rules))
    for choice in choices:
        moves = list(game.legal_moves())
        if not moves:
            break
        plays = [move for move in moves if move != DRAW]
        pick: Action = plays[choice % len(plays)] if plays and choice < 7 else moves[-1]
        game.apply(pick)
    same_answers(game)


@pytest.mark.parametrize(
    "change",
    [
        {"ranks": bytes(27)},
        {"ranks": bytes([0] * 28)},
        {"stock": bytes([1] * 53)},  # longer than any deal's
        {"stock": bytes([14] * 23)},
        {"fits": bytes(10)},
        {"layout": b"\0" * 8},
        {"layout": compiled_layout(FOUR_PEAKS)},  # 28 ranks for a table of 31
        {"present": 1 << 28},
        {"drawn": 24},
        {"top": 14},
    ],
)
def test_the_compiled_search_refuses_what_is_not_a_position(change: dict[str, object]) -> None:
    from tripeaks.solver import _search
    from tripeaks.solver.tables import fits_table

    game = Game.new(GameCode.parse("TP1-E-QWERTYU"))
    args: dict[str, object] = {
        "ranks": bytes(card.rank for card in game.deal.tableau),
        "stock": bytes(card.rank for card in game.deal.stock),
        "fits": fits_table(game.rules),
        "layout": compiled_layout(THREE_PEAKS),
        "wraps": True,
        "present": game.present,
        "drawn": 0,
        "top": game.discard_top.rank,
        "best_win": True,
    }
    _search.solve(*args.values())
    args.update(change)
    with pytest.raises(ValueError):
        _search.solve(*args.values())
