"""Invariants over random deals and random action sequences (hypothesis)."""

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks import UNDO, Action, Game, GameCode, IllegalMove, Rules
from tripeaks.engine.codes import CODE_SPACE
from tripeaks.engine.game import Slot
from tripeaks.engine.layout import COVERED_BY, PEAKS

codes = st.builds(
    GameCode.from_number, st.integers(0, CODE_SPACE - 1), st.sampled_from(list(Rules))
)
choices = st.lists(st.integers(0, 1000), max_size=120)


def state(game: Game) -> tuple[object, ...]:
    return (
        tuple(game.card_at(p) for p in range(28)),
        tuple(game.is_face_up(p) for p in range(28)),
        tuple(game.discard),
        game.stock_size,
        game.score,
        game.status,
        game.can_undo,
    )


def fits(rules: Rules, a: int, b: int) -> bool:
    """Written out again on purpose: the test must not trust the rule it checks."""
    return abs(a - b) == 1 or (rules is Rules.EASY and {a, b} == {1, 13})


def play_randomly(game: Game, picks: list[int]) -> list[tuple[Game, int]]:
    """Apply legal moves or undo as the picks say; yields nothing, returns net applied counts."""
    applied = 0
    seen = []
    for pick in picks:
        moves = list(game.legal_moves())
        if game.can_undo and (pick % 5 == 0 or not moves):
            game.undo()
            applied -= 1
        elif moves:
            game.apply(moves[pick % len(moves)])
            applied += 1
        else:
            break
        seen.append((game, applied))
        check_invariants(game, applied)
    return seen


def check_invariants(game: Game, applied: int) -> None:
    on_table = [game.card_at(p) for p in range(28) if game.card_at(p) is not None]
    stock_left = list(game.deal.stock[game.drawn :])
    everything = [*on_table, *game.discard, *stock_left]
    assert len(everything) == 52 and len(set(everything)) == 52

    emptied = sum(all(game.card_at(p) is None for p in peak) for peak in PEAKS)
    assert game.score == 500 - applied + 100 * emptied

    for p in range(28):
        present = game.card_at(p) is not None
        uncovered = all(game.card_at(q) is None for q in COVERED_BY[p])
        assert game.is_face_up(p) == (present and uncovered)
        expected = Slot.REMOVED if not present else Slot.FACE_UP if uncovered else Slot.FACE_DOWN
        assert game.slot(p) is expected and game.slots()[p] is expected

    assert game.is_won == (not on_table)
    top = game.discard_top.rank
    fitting = [
        p
        for p in range(28)
        if game.is_face_up(p) and fits(game.rules, game.deal.tableau[p].rank, top)
    ]
    assert sorted(game.playable_positions()) == fitting
    assert game.is_stuck == (not game.is_won and game.stock_size == 0 and not fitting)


@settings(max_examples=150, deadline=None)
@given(codes, choices)
def test_invariants_hold_through_random_play(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    check_invariants(game, 0)
    play_randomly(game, picks)


@settings(max_examples=150, deadline=None)
@given(codes, choices, st.integers(0, 1000))
def test_play_then_undo_restores_everything_but_the_move_counter(
    code: GameCode, picks: list[int], last: int
) -> None:
    game = Game.new(code)
    play_randomly(game, picks)
    moves = list(game.legal_moves())
    if not moves:
        return
    before, counter = state(game), game.moves
    game.apply(moves[last % len(moves)])
    if game.is_won:
        return
    game.apply(UNDO)
    assert state(game) == before
    assert game.moves == counter + 1


@settings(max_examples=150, deadline=None)
@given(codes, choices, st.lists(st.integers(-3, 30), max_size=10))
def test_rebuilding_from_code_and_actions_gives_the_same_state(
    code: GameCode, picks: list[int], wild: list[int]
) -> None:
    game = Game.new(code)
    play_randomly(game, picks)
    for pos in wild:  # illegal attempts must leave no trace in the log
        with contextlib.suppress(IllegalMove):
            game.play(pos)
    again = Game.replay(code, [str(a) for a in game.actions])
    assert state(again) == state(game)
    assert again.moves == game.moves
    assert again.actions == game.actions
    assert all(isinstance(a, Action) for a in again.actions)
