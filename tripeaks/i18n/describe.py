"""Words for cards and the whole board (docs/rules.md §7), in the player's language."""

from __future__ import annotations

from functools import cache

from tripeaks.engine.cards import ACE, JACK, KING, QUEEN, Card
from tripeaks.engine.game import Game, Slot
from tripeaks.i18n import translator

_NAMED_RANKS = {ACE: "card.ace", JACK: "card.jack", QUEEN: "card.queen", KING: "card.king"}


@cache
def card_name(card: Card, lang: str = "en") -> str:
    """``3 of spades``, ``pata 3``, ``3 de piques``; ``ristikuningas`` and friends.

    Kept once made: 52 cards in 3 languages, asked for up to 29 times at every reply.
    """
    _ = translator(lang)
    if card.is_joker:
        return _("card.joker")
    suit = _(f"suit.{card.suit.name.lower()}")
    key = _NAMED_RANKS.get(card.rank)
    if key is None:
        return _("card.number", rank=card.rank, suit=suit)
    return _(key, suit=suit)


def describe(game: Game, lang: str = "en") -> str:
    """The whole board in one sentence (docs/rules.md §7), for screen readers, on any layout: its rows
    from the top, each left to right; removed cards are left out of their row."""
    _ = translator(lang)
    hidden = _("card.hidden")

    slots = game.slots()
    cards = game.deal.tableau
    free = set(game.free_positions())

    def name(pos: int) -> str:
        if slots[pos] is not Slot.FACE_UP:
            return hidden
        if pos in free:
            return card_name(cards[pos], lang)
        return _("card.covered", card=card_name(cards[pos], lang))  # open peaks

    def row(positions: tuple[int, ...]) -> str:
        names = [name(pos) for pos in positions if slots[pos] is not Slot.REMOVED]
        return ", ".join(names) if names else _("row.empty")

    rows = {f"row{n}": row(positions) for n, positions in enumerate(game.layout.rows, start=1)}
    return _(
        f"board.description.{game.layout.id}",  # each layout names its rows (docs/rules.md §7)
        stock=_.plural("cards.count", game.stock_size),
        discard=_("discard.empty") if game.top is None else card_name(game.top, lang),
        **rows,
    )
