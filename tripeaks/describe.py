"""Words for cards and the whole board (SPEC §7), in the player's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tripeaks.cards import ACE, JACK, KING, QUEEN, Card
from tripeaks.i18n import translator
from tripeaks.layout import ROWS

if TYPE_CHECKING:
    from tripeaks.game import Game

_NAMED_RANKS = {ACE: "card.ace", JACK: "card.jack", QUEEN: "card.queen", KING: "card.king"}


def card_name(card: Card, lang: str = "en") -> str:
    """``3 of spades``, ``pata 3``, ``3 de piques``; ``ristikuningas`` and friends."""
    _ = translator(lang)
    suit = _(f"suit.{card.suit.name.lower()}")
    key = _NAMED_RANKS.get(card.rank)
    if key is None:
        return _("card.number", rank=card.rank, suit=suit)
    return _(key, suit=suit)


def describe(game: Game, lang: str = "en") -> str:
    """One sentence for the whole board; removed cards are left out of their row."""
    _ = translator(lang)
    hidden = _("card.hidden")

    def row(positions: tuple[int, ...]) -> str:
        names = []
        for pos in positions:
            card = game.card_at(pos)
            if card is not None:
                names.append(card_name(card, lang) if game.is_face_up(pos) else hidden)
        return ", ".join(names) if names else _("row.empty")

    return _(
        "board.description",
        stock=_.plural("cards.count", game.stock_size),
        discard=card_name(game.discard_top, lang),
        row1=row(ROWS[0]),
        row2=row(ROWS[1]),
        row3=row(ROWS[2]),
        row4=row(ROWS[3]),
    )
