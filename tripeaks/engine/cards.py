"""Cards as small immutable values, with the short labels players write (A♣, 10♥)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Suit(Enum):
    """The four suits in deck order (docs/deal-format.md step 4); suit never matters for play."""

    CLUBS = "♣"
    DIAMONDS = "♦"
    HEARTS = "♥"
    SPADES = "♠"
    JOKER = "🃏"
    """The joker's own mark (it has no suit); not one of the four suits of the deck."""

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_ORDER: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# Letters accepted on input besides the symbols, so a card can be typed on any keyboard.
_SUIT_LETTERS = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
JOKER_RANK = 0
"""The joker's rank: below every card's, so no rank arithmetic can make it fit by accident."""
JOKER_INDEX = 52
"""The joker's card number, after the 52 of the deck (docs/deal-format.md "Options")."""
_JOKER_WORDS = ("🃏", "JOKER", "JK")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card: rank 1 (ace) to 13 (king) and a suit, or the joker (:data:`JOKER`)."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if (self.suit is Suit.JOKER) != (self.rank == JOKER_RANK):
            raise ValueError("the joker is rank 0 with the joker's mark, and no other card is")
        if self.suit is not Suit.JOKER and not ACE <= self.rank <= KING:
            raise ValueError(f"rank must be 1-13, not {self.rank}")

    @property
    def is_joker(self) -> bool:
        return self.suit is Suit.JOKER

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Card number 0-51 of the unshuffled deck: suit index // 13, rank index % 13 + 1."""
        if not 0 <= index < 52:
            raise ValueError(f"card index must be 0-51, not {index}")
        return cls(index % 13 + 1, _SUIT_ORDER[index // 13])

    @property
    def index(self) -> int:
        if self.is_joker:
            return JOKER_INDEX
        return self.suit.index * 13 + self.rank - 1

    @property
    def rank_label(self) -> str:
        return "" if self.is_joker else _RANK_LABELS[self.rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a short label back: ``10♥``, ``Q♦``, also ``10h`` or ``qd``; ``🃏`` (or ``joker``)."""
        label = text.strip().upper()
        if label in _JOKER_WORDS:
            return JOKER
        if len(label) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_part, suit_part = label[:-1], label[-1]
        suit = _SUIT_LETTERS.get(suit_part)
        if suit is None:
            try:
                suit = Suit(suit_part)
            except ValueError:
                raise ValueError(f"not a card: {text!r} (unknown suit)") from None
            if suit is Suit.JOKER:
                raise ValueError(f"not a card: {text!r} (the joker is written 🃏 alone)")
        if rank_part == "1":
            rank_part = "A"
        if rank_part not in _RANK_LABELS:
            raise ValueError(f"not a card: {text!r} (unknown rank)")
        return cls(_RANK_LABELS.index(rank_part) + 1, suit)

    def __str__(self) -> str:
        return f"{self.rank_label}{self.suit.value}"


JOKER = Card(JOKER_RANK, Suit.JOKER)
"""The one joker of a joker game (docs/rules.md "Scoring and variants"); written 🃏."""

FULL_DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
