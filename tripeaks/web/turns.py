"""One action applied to a game, with what the player needs to hear about it afterwards."""

from __future__ import annotations

from dataclasses import dataclass

from tripeaks.cards import Card
from tripeaks.game import Action, ActionKind, Game


@dataclass(frozen=True, slots=True)
class Turn:
    """An applied action: the card it moved, where from or to, and the cards it turned face up."""

    action: Action
    card: Card
    pos: int | None
    revealed: tuple[int, ...]


def perform(game: Game, action: Action) -> Turn:
    """Apply ``action`` through the engine (which may refuse it) and say what happened."""
    before = set(game.free_positions())
    done = game.apply(action)
    pos: int | None = None
    if isinstance(done, Card):
        card = done
        pos = action.pos
    elif done.kind is ActionKind.PLAY:
        assert done.pos is not None
        pos = done.pos
        taken_back = game.card_at(pos)
        assert taken_back is not None
        card = taken_back
    else:
        card = game.deal.stock[game.drawn]
    revealed = tuple(p for p in game.free_positions() if p not in before and p != pos)
    return Turn(action, card, pos, revealed)
