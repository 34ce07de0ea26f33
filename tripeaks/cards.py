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

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_ORDER: tuple[Suit, ...] = tuple(Suit)
_RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# Letters accepted on input besides the symbols, so a card can be typed on any keyboard.
_SUIT_LETTERS = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card: rank 1 (ace) to 13 (king) and a suit."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not ACE <= self.rank <= KING:
            raise ValueError(f"rank must be 1-13, not {self.rank}")

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Card number 0-51 of the unshuffled deck: suit index // 13, rank index % 13 + 1."""
        if not 0 <= index < 52:
            raise ValueError(f"card index must be 0-51, not {index}")
        return cls(index % 13 + 1, _SUIT_ORDER[index // 13])

    @property
    def index(self) -> int:
        return self.suit.index * 13 + self.rank - 1

    @property
    def rank_label(self) -> str:
        return _RANK_LABELS[self.rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a short label back: ``10♥``, ``Q♦``, also ``10h`` or ``qd``."""
        label = text.strip().upper()
        if len(label) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_part, suit_part = label[:-1], label[-1]
        suit = _SUIT_LETTERS.get(suit_part)
        if suit is None:
            try:
                suit = Suit(suit_part)
            except ValueError:
                raise ValueError(f"not a card: {text!r} (unknown suit)") from None
        if rank_part == "1":
            rank_part = "A"
        if rank_part not in _RANK_LABELS:
            raise ValueError(f"not a card: {text!r} (unknown rank)")
        return cls(_RANK_LABELS.index(rank_part) + 1, suit)

    def __str__(self) -> str:
        return f"{self.rank_label}{self.suit.value}"


FULL_DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
