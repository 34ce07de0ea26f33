"""Invariants of every option and their combinations over random deals and random play (hypothesis).

The rules are written out again here on purpose, from docs/rules.md "Scoring and variants": the
test must not trust the engine it checks."""

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks import UNDO, Action, Game, GameCode, IllegalMove, Rules
from tripeaks.engine.cards import Card
from tripeaks.engine.codes import CODE_SPACE
from tripeaks.engine.game import ActionKind, Slot
from tripeaks.engine.layout import COVERED_BY, PEAKS
from tripeaks.engine.variant import Scoring, Variant


def variant_codes(options: st.SearchStrategy[str]) -> st.SearchStrategy[GameCode]:
    return st.builds(
        lambda n, rules, opts: GameCode.from_number(n, Variant(rules).with_options(opts)),
        st.integers(0, CODE_SPACE - 1),
        st.sampled_from(list(Rules)),
        options,
    )


EACH = st.sampled_from(["T", "O", "D", "J"])
SOME = st.sets(st.sampled_from("DJOT"), min_size=2).map("".join)
ANY = st.one_of(EACH, SOME)
choices = st.lists(st.integers(0, 1000), max_size=120)


def fits(game: Game, card: Card) -> bool:
    top = game.discard[-1] if game.discard else None
    if top is None or top.is_joker:
        return True
    step = abs(card.rank - top.rank)
    return step == 1 or (game.rules is Rules.EASY and step == 12)


def standing(actions: tuple[Action, ...]) -> list[Action]:
    """The actions still standing once every undo has taken back the one before it."""
    stack: list[Action] = []
    for action in actions:
        if action.kind is ActionKind.UNDO:
            stack.pop()
        else:
            stack.append(action)
    return stack


def expected_score(game: Game) -> int:
    """The score recomputed from the log alone, by the table of the game's scoring."""
    traditional = game.variant.scoring is Scoring.TRADITIONAL
    score, streak = (0 if traditional else 500), 0
    left = set(range(28))
    for action in standing(game.actions):
        if action.kind is ActionKind.DRAW:
            score, streak = max(0, score + (-5 if traditional else -1)), 0
            continue
        assert action.pos is not None
        left.discard(action.pos)
        streak += 1
        empty = sum(not (peak & left) for peak in PEAKS)
        emptied = not (PEAKS[[action.pos in p for p in PEAKS].index(True)] & left)
        if traditional:
            score += streak + ((15, 15, 30)[empty - 1] if emptied else 0)
        else:
            score = max(0, score - 1) + (100 if emptied else 0)
    return score


def check(game: Game) -> None:
    variant = game.variant
    on_table = [game.card_at(p) for p in range(28) if game.card_at(p) is not None]
    stock_left = list(game.deal.stock[game.drawn :])
    everything = [*on_table, *game.discard, *stock_left]
    total = 52 + variant.joker
    assert len(everything) == total and len(set(everything)) == total
    assert sum(c.is_joker for c in everything) == variant.joker
    assert not any(c is not None and c.is_joker for c in on_table)

    assert game.score == expected_score(game)

    for p in range(28):
        present = game.card_at(p) is not None
        free = present and all(game.card_at(q) is None for q in COVERED_BY[p])
        assert game.is_free(p) == free
        face_up = present and (variant.open_peaks or free)
        assert game.is_face_up(p) == face_up
        expected = Slot.REMOVED if not present else Slot.FACE_UP if face_up else Slot.FACE_DOWN
        assert game.slots()[p] is expected

    playable = [p for p in range(28) if game.is_free(p) and fits(game, game.deal.tableau[p])]
    assert game.playable_positions() == playable
    assert game.is_stuck == (not game.is_won and game.stock_size == 0 and not playable)
    if not variant.empty_discard:
        assert game.discard  # only an empty-discard game ever shows an empty discard


def play_randomly(game: Game, picks: list[int]) -> None:
    for pick in picks:
        moves = list(game.legal_moves())
        if game.can_undo and (pick % 7 == 0 or not moves):
            turn = game.apply(UNDO)
        elif moves:
            turn = game.apply(moves[pick % len(moves)])
        else:
            break
        if game.variant.open_peaks:
            assert turn.revealed == () and turn.covered == ()
        check(game)


def state(game: Game) -> tuple[object, ...]:
    return (
        game.present,
        tuple(game.slots()),
        tuple(game.discard),
        game.stock_size,
        game.score,
        game.streak,
        game.longest_streak,
        game.status,
        game.can_undo,
        tuple(game.playable_positions()),
    )


@settings(max_examples=60, deadline=None)
@given(variant_codes(ANY), choices)
def test_invariants_hold_through_random_play(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    check(game)
    play_randomly(game, picks)


@settings(max_examples=60, deadline=None)
@given(variant_codes(ANY), choices, st.integers(0, 1000))
def test_any_action_then_undo_restores_everything_but_the_move_counter(
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


@settings(max_examples=60, deadline=None)
@given(variant_codes(ANY), choices, st.lists(st.integers(-3, 30), max_size=10))
def test_replaying_the_log_gives_the_same_game(
    code: GameCode, picks: list[int], wild: list[int]
) -> None:
    game = Game.new(code)
    play_randomly(game, picks)
    for pos in wild:  # illegal attempts leave no trace
        with contextlib.suppress(IllegalMove):
            game.play(pos)
    again = Game.replay(str(code), [str(a) for a in game.actions])
    assert state(again) == state(game)
    assert again.moves == game.moves and again.actions == game.actions
    assert again.variant == game.variant == code.variant


@settings(max_examples=40, deadline=None)
@given(
    variant_codes(st.sampled_from(["T", "DT", "JT", "DJOT"])),
    st.lists(st.integers(0, 9), max_size=80),
)
def test_a_greedy_traditional_line_scores_its_formula_and_never_above_466(
    code: GameCode, picks: list[int]
) -> None:
    """Playing whenever a card fits (the way to long streaks), drawing only when none does."""
    game = Game.new(code)
    for pick in picks:
        playable = game.playable_positions()
        if playable:
            game.play(playable[pick % len(playable)])
        elif game.can_draw:
            game.draw()
        else:
            break
        draws = game.drawn
        assert game.score == expected_score(game) <= 466 - 5 * draws
