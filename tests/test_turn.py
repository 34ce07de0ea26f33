"""The engine's Turn: what every action did, checked against the game before and after it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import (
    DRAW,
    UNDO,
    Action,
    ActionKind,
    Game,
    IllegalMove,
    Place,
    Reason,
    Status,
)
from tripeaks.engine.layout import PEAKS
from tripeaks.engine.rules import Rules

codes = st.builds(
    GameCode,
    st.sampled_from([Rules.EASY, Rules.CLASSIC]),
    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=7, max_size=7),
)


def peaks_left(game: Game) -> list[bool]:
    return [any(game.card_at(p) is not None for p in peak) for peak in PEAKS]


def streak_of(line: list[Action]) -> int:
    """Removals since the last draw, counted from the line of play undo has left."""
    count = 0
    for action in reversed(line):
        if action.kind is ActionKind.DRAW:
            break
        count += 1
    return count


@settings(max_examples=150, deadline=None)
@given(code=codes, picks=st.lists(st.integers(0, 1_000), min_size=1, max_size=80))
def test_every_turn_says_exactly_what_changed(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    line: list[Action] = []  # the actions standing, undo taken into account
    longest = [0]
    for pick in picks:
        moves = list(game.legal_moves())
        choices = moves + ([UNDO] if game.can_undo else [])
        if not choices:
            break
        action = choices[pick % len(choices)]
        free_before = set(game.free_positions())
        score, drawn, peaks = game.score, game.drawn, peaks_left(game)
        turn = game.apply(action)
        free_after = set(game.free_positions())
        assert (turn.action, turn.score_before, turn.score_after) == (action, score, game.score)
        assert turn.status is game.status and turn.streak == game.streak
        if action.kind is ActionKind.PLAY:
            line.append(action)
            longest.append(max(longest[-1], streak_of(line)))
            assert turn.card == game.deal.tableau[action.pos] == game.discard_top
            assert (turn.source, turn.target, turn.pos) == (
                Place.TABLEAU,
                Place.DISCARD,
                action.pos,
            )
            assert set(turn.revealed) == free_after - free_before and not turn.covered
            emptied = [
                i
                for i, (was, now) in enumerate(zip(peaks, peaks_left(game), strict=True))
                if was > now
            ]
            assert turn.peak == (emptied[0] if emptied else None)
        elif action.kind is ActionKind.DRAW:
            line.append(action)
            longest.append(longest[-1])
            assert turn.card == game.deal.stock[drawn] == game.discard_top
            assert (turn.source, turn.target, turn.pos, turn.peak) == (
                Place.STOCK,
                Place.DISCARD,
                None,
                None,
            )
            assert turn.revealed == turn.covered == ()
        else:
            undone = line.pop()
            longest.pop()
            assert turn.undone == undone and turn.source is Place.DISCARD
            if undone.pos is not None:
                assert turn.target is Place.TABLEAU and turn.pos == undone.pos
                assert turn.card == game.deal.tableau[undone.pos]
                assert set(turn.covered) == free_before - free_after - {undone.pos}
                refilled = [
                    i
                    for i, (was, now) in enumerate(zip(peaks, peaks_left(game), strict=True))
                    if was < now
                ]
                assert turn.peak == (refilled[0] if refilled else None)
            else:
                assert (turn.target, turn.pos) == (Place.STOCK, None)
                assert turn.card == game.deal.stock[game.drawn]
            assert turn.revealed == ()
        assert game.streak == streak_of(line)
        assert game.longest_streak == longest[-1]
    assert Game.replay(code, game.actions).streak == game.streak


def test_a_draw_ends_the_streak_and_undo_brings_it_back() -> None:
    game = Game.new("TP1-E-AAABUWI")
    plays: list[int] = []
    while len(plays) < 2:
        playable = game.playable_positions()
        if playable:
            plays.append(playable[0])
            game.play(playable[0])
        else:
            game.draw()
            plays.clear()
    assert game.streak == 2 and game.longest_streak >= 2
    if game.stock_size:
        turn = game.apply(DRAW)
        assert turn.streak == game.streak == 0
        assert game.apply(UNDO).streak == 2


def test_a_left_game_refuses_everything_and_counts_only_if_touched() -> None:
    untouched = Game.new("TP1-E-AAABUWI")
    assert not untouched.leaving_counts_as_loss
    touched = Game.new("TP1-E-AAABUWI")
    touched.draw()
    assert touched.leaving_counts_as_loss
    for game in (untouched, touched):
        game.leave()
        assert game.status is Status.LEFT and game.is_over
        assert not game.leaving_counts_as_loss and not game.can_undo and not game.can_draw
        assert list(game.legal_moves()) == []
        for action in (DRAW, UNDO, Action.play(18)):
            with pytest.raises(IllegalMove) as refused:
                game.apply(action)
            assert refused.value.reason is Reason.GAME_OVER


def test_near_the_end_follows_the_cards_left() -> None:
    game = Game.new("TP1-E-AABPSMK")
    assert not game.near_the_end
    for _ in range(20):
        game.draw()
    assert game.stock_size == 3 and game.near_the_end
