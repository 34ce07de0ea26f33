"""Play, draw, flips, undo, won and stuck: docs/rules.md §2 and §4 on concrete deals."""

import pytest
from example import A_SPADES, K_CLUBS, TWO_DIAMONDS, example_game

from tripeaks import DRAW, UNDO, Action, Card, Game, IllegalMove, Reason, Rules, Slot, Status
from tripeaks.engine.game import ACTION_LIMIT, UNDO_LIMIT
from tripeaks.engine.layout import ROWS, position
from tripeaks.i18n import refusal


def labels(game: Game, positions: list[int]) -> list[str]:
    return [str(game.card_at(p)) for p in positions]


def test_example_easy_offers_three_cards_classic_one() -> None:
    assert labels(example_game(Rules.EASY), example_game().playable_positions()) == [
        "K♣",
        "2♦",
        "K♦",
    ]
    classic = example_game(Rules.CLASSIC)
    assert labels(classic, classic.playable_positions()) == ["2♦"]


def test_only_the_bottom_row_starts_face_up() -> None:
    game = example_game()
    assert [p for p in range(28) if game.is_face_up(p)] == list(ROWS[3])
    assert game.free_positions() == list(ROWS[3])
    assert game.stock_size == 23
    assert str(game.discard_top) == "A♣"


def test_removing_the_two_covering_cards_turns_the_card_face_up_at_once() -> None:
    game = example_game()
    seven = position(3, 4)
    assert game.play(K_CLUBS) == Card.parse("K♣")
    assert game.play(A_SPADES) == Card.parse("A♠")
    assert not game.is_face_up(seven)
    assert game.slot(seven) is Slot.FACE_DOWN
    game.play(TWO_DIAMONDS)
    assert game.is_face_up(seven)
    assert str(game.card_at(seven)) == "7♠"
    assert seven in game.free_positions()
    assert str(game.discard_top) == "2♦"
    assert game.slot(K_CLUBS) is Slot.REMOVED
    assert game.card_at(K_CLUBS) is None


def test_classic_refuses_an_ace_on_a_king() -> None:
    game = example_game(Rules.CLASSIC)
    with pytest.raises(IllegalMove) as refused:
        game.play(K_CLUBS)
    assert refused.value.reason is Reason.NOT_ADJACENT


def test_easy_chain_runs_queen_king_ace_two() -> None:
    assert Rules.EASY.neighbours(13) == (1, 12)
    assert Rules.EASY.neighbours(1) == (2, 13)
    assert Rules.CLASSIC.neighbours(13) == (12,)
    assert Rules.CLASSIC.neighbours(1) == (2,)
    assert Rules.CLASSIC.neighbours(8) == Rules.EASY.neighbours(8) == (7, 9)


def test_error_hints_in_three_languages() -> None:
    game = example_game()
    with pytest.raises(IllegalMove) as wrong_rank:
        game.play(position(4, 0))  # 3♠ on A♣
    assert wrong_rank.value.reason is Reason.NOT_ADJACENT
    assert refusal(wrong_rank.value, "en") == "Value must be one higher or lower"
    assert refusal(wrong_rank.value, "fi") == "Arvon on oltava yhtä suurempi tai pienempi"
    assert (
        refusal(wrong_rank.value, "ca") == "Ha de tenir un valor immediatament superior o inferior"
    )
    with pytest.raises(IllegalMove) as locked:
        game.play(position(3, 4))
    assert locked.value.reason is Reason.LOCKED
    assert refusal(locked.value, "en") == "This card is locked"
    assert refusal(locked.value, "fi") == "Tämä kortti on lukittu"
    assert refusal(locked.value, "ca") == "Aquesta carta està bloquejada"


def test_a_covered_face_up_card_is_still_locked() -> None:
    game = example_game()
    game.play(K_CLUBS)
    # Row 3 index 2 is covered by bottom 2 (gone) and bottom 3 (still there): face down, locked.
    with pytest.raises(IllegalMove) as refused:
        game.play(position(3, 2))
    assert refused.value.reason is Reason.LOCKED


@pytest.mark.parametrize(
    ("setup", "attempt", "reason"),
    [
        ([K_CLUBS], lambda g: g.play(K_CLUBS), Reason.REMOVED),
        ([], lambda g: g.play(28), Reason.NO_SUCH_POSITION),
        ([], lambda g: g.play(-1), Reason.NO_SUCH_POSITION),
        ([], lambda g: g.undo(), Reason.NOTHING_TO_UNDO),
        (["draw"] * 23, lambda g: g.draw(), Reason.STOCK_EMPTY),
    ],
)
def test_refused_actions_change_nothing(
    setup: list[object], attempt: object, reason: Reason
) -> None:
    game = example_game()
    for step in setup:
        game.apply(step if isinstance(step, str) else Action.play(step))  # type: ignore[arg-type]
    before = (game.present, game.drawn, list(game.discard), game.score, game.moves, game.actions)
    with pytest.raises(IllegalMove) as refused:
        attempt(game)  # type: ignore[operator]
    assert refused.value.reason is reason
    assert before == (
        game.present,
        game.drawn,
        list(game.discard),
        game.score,
        game.moves,
        game.actions,
    )


def test_drawing_is_allowed_even_when_a_card_fits() -> None:
    game = example_game()
    assert game.playable_positions()
    top = game.deal.stock[0]
    assert game.draw() == top
    assert game.discard_top == top
    assert game.stock_size == 22
    assert (game.score, game.moves) == (499, 1)


def test_the_stock_is_never_recycled() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    drawn = [game.draw() for _ in range(23)]
    assert drawn == list(game.deal.stock)
    assert game.stock_size == 0
    assert DRAW not in list(game.legal_moves())


def test_undo_puts_a_drawn_card_back_on_top_of_the_stock() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    first = game.draw()
    assert game.undo() == DRAW
    assert game.stock_size == 23 and game.discard_top == game.deal.discard
    assert game.draw() == first
    assert game.moves == 2  # the counter never goes down


def test_undo_turns_a_revealed_card_face_down_again() -> None:
    game = example_game()
    for pos in (K_CLUBS, A_SPADES, TWO_DIAMONDS):
        game.play(pos)
    assert game.undo() == Action.play(TWO_DIAMONDS)
    assert not game.is_face_up(position(3, 4))
    assert game.card_at(TWO_DIAMONDS) == Card.parse("2♦")
    assert str(game.discard_top) == "A♠"
    assert (game.score, game.moves) == (498, 3)


def test_undo_keeps_only_the_last_hundred_actions() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    for _ in range(60):
        game.draw()
        game.undo()
    game.draw()
    for _ in range(UNDO_LIMIT):
        game.undo() if game.can_undo else None
    assert not game.can_undo
    with pytest.raises(IllegalMove):
        game.undo()


def test_undo_history_forgets_actions_older_than_a_hundred() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    for _ in range(23):
        game.draw()
    for _ in range(40):
        game.undo()
        game.draw()
    # 103 actions were done after the last undo chain; only 100 can be taken back.
    taken_back = 0
    while game.can_undo:
        game.undo()
        taken_back += 1
    assert taken_back == 23  # each undo+draw pair leaves one draw; the stack holds the newest 100
    assert game.stock_size == 23


def test_stuck_when_the_stock_is_empty_and_nothing_fits() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    while game.stock_size:
        game.draw()
    assert game.discard_top == Card.parse("7♠")
    # The free bottom row holds 2♣ A♦ 6♠ K♣ K♥ 10♥ 10♠ J♠ 10♦ 8♠: 6♠ and 8♠ fit a 7.
    assert game.status is Status.PLAYING
    game.play(position(4, 2))  # 6♠
    assert game.status is Status.STUCK and game.is_stuck
    score = game.score
    assert game.undo() == Action.play(position(4, 2))
    assert not game.is_stuck
    assert game.score == score + 1


def test_replay_rebuilds_the_same_game() -> None:
    game = Game.new("TP1-E-AAAAAAB")
    for action in ("play 21", "draw", "draw", "undo", "draw"):
        game.apply(action)
    again = Game.replay("TP1-E-AAAAAAB", [str(a) for a in game.actions])
    assert again.actions == game.actions
    assert (again.present, again.drawn, again.discard, again.score, again.moves) == (
        game.present,
        game.drawn,
        game.discard,
        game.score,
        game.moves,
    )


def test_actions_read_and_write_as_text() -> None:
    assert Action.parse("play 12") == Action.play(12)
    assert Action.parse("draw") is DRAW and Action.parse("undo") is UNDO
    assert str(Action.play(7)) == "play 7"
    for bad in ("play", "play x", "jump 3", "", "play -1"):
        with pytest.raises(ValueError):
            Action.parse(bad)


def test_from_deal_refuses_a_deal_with_a_card_twice() -> None:
    card = Card.parse("A♣")
    with pytest.raises(ValueError):
        Game.from_deal(tableau=[card] * 28, discard=card, stock=[])


def test_a_copy_plays_on_without_touching_the_original() -> None:
    game = example_game()
    game.play(K_CLUBS)
    twin = game.copy()
    twin.play(A_SPADES)
    assert twin.undo() == Action.play(A_SPADES)
    assert twin.undo() == Action.play(K_CLUBS)
    assert game.card_at(A_SPADES) is not None and game.card_at(K_CLUBS) is None
    assert (game.score, game.moves, game.actions) == (499, 1, (Action.play(K_CLUBS),))
    assert game.can_undo


def test_a_game_takes_no_action_once_its_log_is_full() -> None:
    """An endless draw/undo loop stops at ACTION_LIMIT; the refusal changes nothing at all."""
    game = example_game()
    while len(game.actions) < ACTION_LIMIT:
        game.apply("draw" if len(game.actions) % 2 == 0 else "undo")
    before = (game.present, game.drawn, list(game.discard), game.score, game.moves, game.actions)
    for attempt in (lambda: game.draw(), lambda: game.undo(), lambda: game.play(K_CLUBS)):
        with pytest.raises(IllegalMove) as refused:
            attempt()
        assert refused.value.reason is Reason.TOO_LONG
    assert before == (game.present, game.drawn, game.discard, game.score, game.moves, game.actions)
    assert game.copy().action_limit == ACTION_LIMIT


def test_a_longer_log_stored_by_an_older_version_still_replays() -> None:
    log = ["draw", "undo"] * (ACTION_LIMIT // 2 + 5)
    game = Game.replay("TP1-E-AAAAAAB", log)
    assert len(game.actions) == len(log)
    with pytest.raises(IllegalMove) as refused:
        game.draw()
    assert refused.value.reason is Reason.TOO_LONG


def test_apply_is_the_one_way_to_act_and_the_shorthands_answer_from_its_turn() -> None:
    """play, draw and undo are apply's Turn read one way; a refusal is a ValueError with a code."""
    assert not hasattr(Game, "act") and not hasattr(Game, "describe")
    by_turn, by_shorthand = example_game(), example_game()
    turn = by_turn.apply(Action.play(K_CLUBS))
    assert turn.action == Action.play(K_CLUBS) and turn.undone is None
    assert by_shorthand.play(K_CLUBS) == turn.card
    drawn = by_turn.apply("draw")
    assert by_shorthand.draw() == drawn.card and drawn.action == DRAW
    back = by_turn.apply(UNDO)
    assert back.undone == DRAW and by_shorthand.undo() == back.undone
    assert by_turn.actions == by_shorthand.actions
    assert (by_turn.present, by_turn.score) == (by_shorthand.present, by_shorthand.score)
    with pytest.raises(ValueError) as refused:
        by_turn.play(K_CLUBS)
    assert isinstance(refused.value, IllegalMove) and refused.value.reason is Reason.REMOVED
    assert str(refused.value) == Reason.REMOVED.value == "removed"  # words are i18n's (refusal)
    assert refusal(refused.value, "en") == "That card has already been removed"
