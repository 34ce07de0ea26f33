"""The compiled search (tripeaks/solver/_search.c) against the same search written in Python.

Both walk the same positions in the same order, so on every position they must return the same
line, the same count of cards left and the same count of positions visited: any slip in the port
shows up here, before it could show up as a wrong verdict.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tripeaks import Game, GameCode, Rules
from tripeaks.engine.codes import CODE_SPACE
from tripeaks.engine.game import DRAW, Action
from tripeaks.solver.search import COMPILED, _explore

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


@pytest.mark.parametrize("best_win", [False, True])
@pytest.mark.parametrize("code", SAMPLE)
def test_both_searches_walk_the_same_positions_from_a_deal(code: str, best_win: bool) -> None:
    game = Game.new(GameCode.parse(code))
    compiled = _explore(game, best_win, compiled=True)
    assert _explore(game, best_win, compiled=False) == compiled
    assert compiled[2] > 0


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
def test_both_searches_agree_in_mid_game(number: int, rules: Rules, choices: list[int]) -> None:
    """Late positions of random games, lost or not, with some cards drawn and some removed."""
    game = Game.new(GameCode.from_number(number, rules))
    for choice in choices:
        moves = list(game.legal_moves())
        if not moves:
            break
        plays = [move for move in moves if move != DRAW]
        pick: Action = plays[choice % len(plays)] if plays and choice < 7 else moves[-1]
        game.apply(pick)
    for best_win in (False, True):
        assert _explore(game, best_win, compiled=False) == _explore(game, best_win, compiled=True)


@pytest.mark.parametrize(
    "change",
    [
        {"ranks": bytes(27)},
        {"ranks": bytes([0] * 28)},
        {"stock": bytes([1] * 40)},
        {"stock": bytes([14] * 23)},
        {"fits": bytes(10)},
        {"lying_under": b"\0" * 8},
        {"no_bridge": b"\0" * 8},
        {"present": 1 << 28},
        {"drawn": 24},
        {"top": 14},
    ],
)
def test_the_compiled_search_refuses_what_is_not_a_position(change: dict[str, object]) -> None:
    from tripeaks.solver.search import (
        _LYING_UNDER_BYTES,
        _NO_BRIDGE_BYTES,
        _UNDER_BYTES,
        _fits_table,
        _search,
    )

    game = Game.new(GameCode.parse("TP1-E-QWERTYU"))
    args: dict[str, object] = {
        "ranks": bytes(card.rank for card in game.deal.tableau),
        "stock": bytes(card.rank for card in game.deal.stock),
        "fits": _fits_table(game.rules),
        "lying_under": _LYING_UNDER_BYTES,
        "under": _UNDER_BYTES,
        "no_bridge": _NO_BRIDGE_BYTES,
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
