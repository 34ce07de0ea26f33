"""docs/rules.md §3: 500 to start, −1 a move, +100 for each emptied peak, never below zero."""

import pytest
from winning import find_win

from tripeaks import Game, GameCode, IllegalMove, Reason, Rules
from tripeaks.engine import score as scoring
from tripeaks.engine.game import ActionKind
from tripeaks.engine.layout import PEAK_OF, PEAKS


def won_game(code: str) -> tuple[Game, list[int]]:
    """Play a winning line; return the game and the score change of every step."""
    game = Game.new(code)
    line = find_win(Game.new(code))
    assert line is not None, f"{code} should be winnable"
    changes = []
    for action in line:
        before = game.score
        game.apply(action)
        changes.append(game.score - before)
    return game, changes


def test_a_won_game_scores_500_minus_moves_plus_300() -> None:
    game, _ = won_game("TP1-E-AAAAAAB")
    assert game.is_won
    assert game.score == 500 - game.moves + 300
    assert 749 <= game.score <= 772


def test_the_bonus_comes_with_the_removal_that_empties_each_peak() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    line = find_win(Game.new("TP1-E-AAAAAAB"))
    assert line is not None
    emptied: list[int] = []
    for action in line:
        before = game.score
        game.apply(action)
        if action.kind is ActionKind.PLAY:
            assert action.pos is not None
            peak = PEAKS[PEAK_OF[action.pos]]
            empty_now = all(game.card_at(p) is None for p in peak)
            assert game.score - before == (99 if empty_now else -1)
            if empty_now:
                emptied.append(PEAK_OF[action.pos])
        else:
            assert game.score - before == -1
    assert sorted(emptied) == [0, 1, 2]


def test_undo_of_the_emptying_removal_takes_the_bonus_back() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    line = find_win(Game.new("TP1-E-AAAAAAB"))
    assert line is not None
    for action in line:
        before = game.score
        game.apply(action)
        if game.score - before == 99:
            assert game.undo() == action
            assert game.score == before
            break
    else:
        pytest.fail("no peak was emptied")


def test_nothing_can_be_undone_after_a_win() -> None:
    game, _ = won_game("TP1-E-AAAAAAB")
    assert not game.can_undo
    for attempt in (game.undo, game.draw, lambda: game.play(0)):
        with pytest.raises(IllegalMove) as refused:
            attempt()
        assert refused.value.reason is Reason.GAME_OVER
    assert list(game.legal_moves()) == []


def test_score_never_goes_below_zero() -> None:
    assert scoring.add(0, scoring.MOVE) == 0
    assert scoring.add(1, scoring.MOVE) == 0
    assert scoring.add(0, scoring.PEAK_BONUS) == 100
    assert scoring.add(500, scoring.MOVE) == 499


def test_a_stuck_game_keeps_its_score() -> None:
    game = Game.new(GameCode.parse("TP1-C-AAAAAAB").with_rules(Rules.CLASSIC))
    while game.stock_size:
        game.draw()
    while game.playable_positions():
        game.play(game.playable_positions()[0])
    assert game.is_stuck
    assert game.score == 500 - game.moves + 100 * sum(
        all(game.card_at(p) is None for p in peak) for peak in PEAKS
    )


def test_a_traditional_draw_takes_five_down_to_zero_and_no_lower() -> None:
    """Issue 37: GNOME Aisleriot's Triple Peaks sets the score to max(score - 5, 0) on a draw."""
    assert [scoring.traditional_after_draw(s) for s in (12, 5, 4, 1, 0)] == [7, 0, 0, 0, 0]
    assert scoring.TRADITIONAL_BEST == 466
