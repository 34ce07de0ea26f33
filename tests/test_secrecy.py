"""No reply ever names a face-down card or a card still in the stock."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_support import STUCK_CODE, WIN_CODE, new_game, send, winning_line

from tripeaks.engine.cards import Card
from tripeaks.engine.game import DRAW, UNDO, Action, ActionKind, Game, IllegalMove
from tripeaks.engine.layout import TABLEAU_SIZE
from tripeaks.i18n.describe import card_name


def hidden(game: Game) -> set[Card]:
    """What the player cannot see: face-down tableau cards and the stock not yet drawn."""
    down = {
        game.deal.tableau[p]
        for p in range(TABLEAU_SIZE)
        if game.card_at(p) is not None and not game.is_face_up(p)
    }
    return down | set(game.deal.stock[game.drawn :])


def cards_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if {"rank", "suit", "label"} <= value.keys():
            yield value
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def assert_nothing_hidden(body: Any, game: Game, lang: str) -> None:
    secret = hidden(game)
    for card in cards_in(body):
        assert card["label"] not in {str(c) for c in secret}, card
    text = json.dumps(body, ensure_ascii=False)
    for card in secret:
        assert f'"{card}"' not in text, card
        assert card_name(card, lang) not in text, (card, text)


class Watched:
    """Plays through the API while a replica game checks every reply for secrets."""

    def __init__(self, client: TestClient, code: str, lang: str) -> None:
        self.client, self.lang = client, lang
        self.state = new_game(client, code, lang)
        self.game = Game.new(code)
        self.replies = 1
        assert_nothing_hidden(self.state, self.game, lang)

    def act(self, action: Action) -> None:
        drawn_top = self.game.discard_top
        undoing_draw = action.kind is ActionKind.UNDO and self._last_done_was_draw()
        try:
            self.game.apply(action)
            accepted = True
        except IllegalMove:
            accepted = False
        reply = send(self.client, self.state, action, self.lang)
        body = reply.json()
        assert (reply.status_code == 200) == accepted, body
        self.state = body if accepted else body["state"]
        if undoing_draw and accepted:
            # The player just saw this card on the discard; the reply may say it went back.
            assert body["last"]["card"]["label"] == str(drawn_top)
            body = {**body, "last": None}
        assert_nothing_hidden(body, self.game, self.lang)
        self.replies += 1

    def look(self) -> None:
        for path in (f"/api/games/{self.state['id']}", f"/api/games/{self.state['id']}/hint"):
            body = self.client.get(f"{path}?lang={self.lang}").json()
            assert_nothing_hidden(body, self.game, self.lang)
            self.replies += 1

    def _last_done_was_draw(self) -> bool:
        depth = 0
        for done in reversed(self.game.actions):
            if done.kind is ActionKind.UNDO:
                depth += 1
            elif depth:
                depth -= 1
            else:
                return done.kind is ActionKind.DRAW
        return False


def test_a_won_game_never_shows_a_hidden_card(client: TestClient) -> None:
    watched = Watched(client, WIN_CODE, "en")
    for action in winning_line():
        watched.act(action)
    watched.look()
    assert watched.game.is_won and watched.replies > 40


def test_a_stuck_game_with_undos_never_shows_a_hidden_card(client: TestClient) -> None:
    watched = Watched(client, STUCK_CODE, "fi")
    for n in range(23):
        watched.act(DRAW)
        if n % 5 == 4:
            watched.act(UNDO)
            watched.act(DRAW)
    watched.act(DRAW)
    watched.look()
    assert watched.game.is_stuck


@pytest.mark.parametrize("seed", [1, 2])
def test_random_taps_never_show_a_hidden_card(client: TestClient, seed: int) -> None:
    rng = random.Random(seed)
    watched = Watched(client, f"TP1-{'EC'[seed % 2]}-AAAAAA{'BCD'[seed]}", "ca")
    for _ in range(120):
        roll = rng.random()
        if roll < 0.5:
            action = Action.play(rng.randrange(TABLEAU_SIZE))
        elif roll < 0.8:
            action = DRAW
        else:
            action = UNDO
        watched.act(action)
        if watched.game.is_won:
            break
    watched.look()
