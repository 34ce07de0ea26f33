"""docs/rules.md "Scoring and variants": the traditional scoring, open peaks, an empty discard and a
joker, each decided by the engine from the code's options."""

import pytest
from winning import find_win

from tripeaks import DRAW, UNDO, Game, GameCode, IllegalMove, Reason, Rules, deal
from tripeaks.engine import score as scoring
from tripeaks.engine.cards import JOKER, Card, Suit
from tripeaks.engine.game import ActionKind, Slot
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.i18n.describe import card_name, describe

# Traditional scoring ------------------------------------------------------------------------


def test_the_best_traditional_score_is_466() -> None:
    assert scoring.TRADITIONAL_BEST == 466 == sum(range(1, 29)) + 15 + 15 + 30


def test_traditional_starts_at_zero_and_the_nth_card_of_a_streak_scores_n() -> None:
    game = Game.new("TP1-E-AAAAAAB-T")
    assert game.variant.scoring is Scoring.TRADITIONAL and game.score == 0
    # On the Q♣: K♣ (21), then A♦ (19) on it, then K♥ (22) on the ace (docs/rules.md §6).
    turns = [game.apply(f"play {p}") for p in (21, 19, 22)]
    assert [t.score_after - t.score_before for t in turns] == [1, 2, 3]
    assert [t.streak for t in turns] == [1, 2, 3] and game.score == 6
    draw = game.apply(DRAW)
    assert draw.score_after == 1 and draw.streak == 0
    playable = game.playable_positions()
    if playable:
        assert game.apply(f"play {playable[0]}").score_after == 2  # a new streak starts at 1


def test_traditional_never_goes_below_zero() -> None:
    """A draw takes 5 down to 0 and no lower (GNOME Aisleriot's Triple Peaks, docs/rules.md
    "Scoring and variants"), and undo puts back the score before it exactly (issue 37)."""
    game = Game.new("TP1-C-AAAAAAB-T")
    for _ in range(23):
        game.draw()
        assert game.score == 0
    assert game.stock_size == 0
    game = Game.new("TP1-E-AAAAAAB-T")
    for p in (21, 19, 22):
        game.play(p)
    assert [game.apply(DRAW).score_after for _ in range(3)] == [1, 0, 0]
    assert [game.apply(UNDO).score_after for _ in range(3)] == [0, 1, 6]


def test_ours_is_unchanged_beside_it() -> None:
    ours, theirs = Game.new("TP1-E-AAAAAAB"), Game.new("TP1-E-AAAAAAB-T")
    for game in (ours, theirs):
        for p in (21, 19, 22):
            game.play(p)
        game.draw()
    assert ours.score == 500 - 4 and theirs.score == 1 + 2 + 3 - 5


def test_undo_puts_the_traditional_score_and_streak_back_exactly() -> None:
    game = Game.new("TP1-E-AAAAAAB-T")
    for p in (21, 19, 22):
        game.play(p)
    game.draw()
    undo = game.apply(UNDO)
    assert undo.score_after == 6 and undo.streak == 3 and game.streak == 3
    game.undo()
    assert game.score == 3 and game.streak == 2
    assert game.moves == 4


def test_a_traditional_win_scores_its_streaks_plus_60_minus_5_a_draw() -> None:
    """Each draw takes 5, or what there is below 5 (the score never goes below 0)."""
    code = "TP1-E-AAAAAAB-T"
    line = find_win(Game.new(code))
    assert line is not None
    game = Game.new(code)
    streak, expected, bonuses, taken = 0, 0, [], 0
    for action in line:
        taken += min(5, game.score) if action.kind is ActionKind.DRAW else 0
        turn = game.apply(action)
        if action.kind is ActionKind.DRAW:
            streak, expected = 0, max(0, expected - 5)
        else:
            streak += 1
            expected += streak
            if turn.peak is not None:
                bonuses.append(turn.score_after - turn.score_before - streak)
                expected += bonuses[-1]
        assert game.score == expected
    assert game.is_won and bonuses == [15, 15, 30]
    assert game.score <= 466 - taken


def test_the_peak_bonus_follows_the_order_the_peaks_are_emptied_after_undo() -> None:
    code = "TP1-E-AAAAAAB-T"
    line = find_win(Game.new(code))
    assert line is not None
    game = Game.new(code)
    for action in line:
        turn = game.apply(action)
        if turn.peak is not None:
            break
    # The first peak emptied earned 15; undone, it is not emptied any more, and emptying it
    # again earns 15 again.
    assert turn.score_after - turn.score_before == turn.streak + 15
    back = game.apply(UNDO)
    assert back.peak == turn.peak and game.score == turn.score_before
    again = game.apply(turn.action)
    assert again.score_after - again.score_before == turn.streak + 15


@pytest.mark.parametrize(
    ("code", "earned"), [("TP1-E-AAAAAAB-T", [15, 15, 30]), ("TP1-E-AAAAAAB", [100] * 3)]
)
def test_a_turn_says_what_its_peak_earned_and_its_undo_what_it_takes_back(
    code: str, earned: list[int]
) -> None:
    line = find_win(Game.new(code))
    assert line is not None
    game = Game.new(code)
    seen = []
    for action in line:
        turn = game.apply(action)
        if turn.peak is None:
            assert turn.peak_points == 0
            continue
        seen.append(turn.peak_points)
        if game.is_over:  # the last peak won the game: nothing to take back
            break
        back = game.apply(UNDO)  # taken back: exactly what it earned, then earned again
        assert (back.peak, back.peak_points) == (turn.peak, turn.peak_points)
        assert game.apply(action).peak_points == turn.peak_points
    assert seen == earned
    assert game.is_won


# Open peaks ---------------------------------------------------------------------------------


def test_open_peaks_shows_every_card_but_plays_only_free_ones() -> None:
    game = Game.new("TP1-E-AAAAAAB-O")
    assert deal("TP1-E-AAAAAAB-O") == deal("TP1-E-AAAAAAB")
    assert game.slots() == [Slot.FACE_UP] * 28
    assert all(game.is_face_up(p) for p in range(28))
    assert game.free_positions() == list(range(18, 28))
    # K♦ (11) fits the Q♣ and lies face up, but 6♠ (20) and K♣ (21) still cover it.
    assert game.deal.tableau[11] == Card(13, Suit.DIAMONDS)
    with pytest.raises(IllegalMove) as refused:
        game.play(11)
    assert refused.value.reason is Reason.LOCKED
    turn = game.apply("play 21")
    assert turn.revealed == () and game.slots() == [
        Slot.REMOVED if p == 21 else Slot.FACE_UP for p in range(28)
    ]
    assert game.apply(UNDO).covered == ()


def test_open_peaks_describes_every_card_face_up() -> None:
    sentence = describe(Game.new("TP1-E-AAAAAAB-O"), "en")
    assert "hidden card" not in sentence
    covered = "(under another card)"
    assert (
        f"Peaks: 7 of diamonds {covered}, 9 of clubs {covered}, 4 of diamonds {covered};"
        in sentence
    )


# Empty discard ------------------------------------------------------------------------------


def test_an_empty_discard_takes_any_free_card_and_keeps_its_card_on_the_stock() -> None:
    plain, game = deal("TP1-E-AAAAAAB"), Game.new("TP1-E-AAAAAAB-D")
    assert game.discard == [] and game.top is None and game.stock_size == 24
    assert game.deal.stock[0] == plain.discard
    assert game.playable_positions() == list(range(18, 28))
    with pytest.raises(ValueError, match="empty"):
        _ = game.discard_top
    turn = game.apply("play 18")  # 2♣ onto the empty discard
    assert game.top == Card(2, Suit.CLUBS) and turn.target.value == "discard"
    assert game.playable_positions() == [19]  # A♦: only a neighbour of 2 now (3♣ is covered)
    game.undo()
    assert game.discard == [] and game.playable_positions() == list(range(18, 28))
    assert game.draw() == plain.discard and game.discard == [plain.discard]


def test_the_description_says_the_discard_is_empty() -> None:
    game = Game.new("TP1-E-AAAAAAB-D")
    assert describe(game, "en").startswith("Stock: 24 cards; discard: empty. Peaks: hidden card")
    assert describe(game, "fi").startswith("Nostopakka: 24 korttia; poistopino: tyhjä. ")
    assert describe(game, "ca").startswith("Pila per robar: 24 cartes; pila de descart: buida. ")


# Joker --------------------------------------------------------------------------------------


def test_any_card_goes_on_the_joker_and_the_next_follows_the_rule() -> None:
    game = Game.new("TP1-C-AAAAAAB-J")
    assert game.stock_size == 24 and game.deal.stock[5] is JOKER
    for _ in range(5):
        game.draw()
    assert game.top == Card(5, Suit.CLUBS)
    turn = game.apply(DRAW)
    assert turn.card == JOKER and game.top == JOKER
    assert game.playable_positions() == list(range(18, 28))
    game.play(27)  # 8♠ on the joker
    assert game.top == Card(8, Suit.SPADES)
    assert game.playable_positions() == []  # no 7 or 9 among the free cards: the rule is back
    game.undo()
    assert game.top == JOKER
    back = game.apply(UNDO)
    assert back.card == JOKER and back.target.value == "stock" and game.stock_size == 19


def test_the_joker_has_a_name_and_a_label_in_every_language() -> None:
    assert [card_name(JOKER, lang) for lang in ("en", "fi", "ca")] == ["joker", "jokeri", "comodí"]
    from tripeaks.i18n import translator

    assert [translator(lang)("card.joker.label") for lang in ("en", "fi", "ca")] == [
        "JOKER",
        "JOKERI",
        "COMODÍ",
    ]
    assert str(JOKER) == "🃏" and Card.parse("🃏") == Card.parse("joker") == JOKER
    assert JOKER.index == 52 and JOKER.is_joker and not Card(1, Suit.CLUBS).is_joker
    with pytest.raises(ValueError):
        Card(0, Suit.CLUBS)
    with pytest.raises(ValueError):
        Card(5, Suit.JOKER)
    with pytest.raises(ValueError):
        Card.parse("5🃏")


def test_a_drawn_joker_is_named_in_the_description() -> None:
    game = Game.new("TP1-E-AAAAAAB-J")
    for _ in range(6):
        game.draw()
    assert "discard: joker." in describe(game, "en")
    assert "poistopino: jokeri." in describe(game, "fi")


# The description and the deal agree ------------------------------------------------------------


def test_a_game_refuses_a_deal_that_does_not_match_its_description() -> None:
    cards = deal("TP1-E-AAAAAAB")
    with pytest.raises(ValueError, match="empty"):
        Game(cards, Variant(empty_discard=True))
    with pytest.raises(ValueError, match="joker"):
        Game(cards, Variant(joker=True))
    with pytest.raises(ValueError, match="joker"):
        Game.from_deal(
            tableau=(JOKER, *cards.tableau[1:]), discard=cards.discard, stock=cards.stock
        )


def test_every_combination_is_one_game_of_its_code() -> None:
    for options in ("", "D", "J", "O", "T", "DJ", "OT", "DJOT"):
        text = "TP1-C-MOOMINS" + (f"-{options}" if options else "")
        code = GameCode.parse(text)
        game = Game.new(code)
        assert game.variant == code.variant and game.rules is Rules.CLASSIC
        assert game.code == code and repr(game).startswith(f"<Game {text} ")
        assert game.stock_size == 23 + ("D" in options) + ("J" in options)
        assert len(game.copy().discard) == len(game.discard)
        assert game.copy().variant == game.variant


def test_the_top_rank_is_the_joker_s_when_anything_goes_on_the_discard() -> None:
    empty = Game.new("TP1-E-AAAAAAB-D")
    assert empty.top is None and empty.top_rank == 0
    joker = Game.new("TP1-E-AAAAAAB-J")
    while joker.top is None or not joker.top.is_joker:
        joker.draw()
    assert joker.top_rank == 0
    plain = Game.new("TP1-E-AAAAAAB")
    assert plain.top_rank == plain.discard_top.rank > 0
