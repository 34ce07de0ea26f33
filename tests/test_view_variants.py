"""The player's view of a game with options: an empty discard, the joker, a score below zero and
what a peak earned are drawn as the engine says (the page is offered them once the solver is)."""

from winning import find_win

from tripeaks.engine.game import DRAW, Game
from tripeaks.web.api.view import game_state


def test_an_empty_discard_is_sent_as_none_and_the_state_names_the_variant() -> None:
    game = Game.new("TP1-E-AAAAAAB-DO")
    state = game_state(game, "en", game_id="g")
    assert state.discard is None
    assert state.variant.model_dump() == {
        "scoring": "ours",
        "open_peaks": True,
        "empty_discard": True,
        "joker": False,
    }
    assert state.code == "TP1-E-AAAAAAB-DO"
    # open peaks: every card is sent face up, but only the free ones are playable
    assert all(slot.slot == "face_up" and slot.card for slot in state.tableau)
    assert state.playable == game.playable_positions() == game.free_positions()
    # any free card goes on the empty discard, and is then its top
    first = game.free_positions()[-1]
    card = game.play(first)
    after = game_state(game, "en", game_id="g")
    assert after.discard is not None and after.discard.label == str(card)
    assert after.tableau[first].slot == "removed"


def test_the_joker_is_a_card_of_its_own_in_every_language() -> None:
    game = Game.new("TP1-E-AAAAAAB-J")
    while game.top is None or not game.top.is_joker:
        game.draw()
    for lang in ("en", "fi", "ca"):
        joker = game_state(game, lang, game_id="g").discard
        assert joker is not None and joker.suit == "joker" and joker.rank == 0
        assert joker.name and joker.label
    assert game_state(game, "en", game_id="g").playable == game.free_positions()


def test_a_traditional_score_stays_at_zero_and_a_peak_says_what_it_earned() -> None:
    game = Game.new("TP1-E-AAAAAAB-T")
    turn = game.apply(DRAW)
    state = game_state(game, "en", game_id="g", turn=turn)
    assert state.score == 0 and state.variant.scoring == "traditional"
    game = Game.new("TP1-E-AAAAAAB-T")
    line = find_win(game.copy())
    assert line is not None
    earned = []
    for action in line:
        turn = game.apply(action)
        last = game_state(game, "en", game_id="g", turn=turn).last
        assert last is not None and last.peak_points == turn.peak_points
        if turn.peak is not None:
            earned.append(last.peak_points)
    assert earned == [15, 15, 30]
    assert game.is_won
