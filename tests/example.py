"""The original help's example deal (docs/rules.md §6), rebuilt with ``Game.from_deal``."""

from tripeaks import Card, Game, Rules
from tripeaks.engine.cards import FULL_DECK
from tripeaks.engine.layout import position

BOTTOM_ROW = [Card.parse(c) for c in ["3♠", "5♠", "K♣", "4♠", "2♦", "A♠", "K♦", "8♥", "7♣", "9♠"]]
DISCARD = Card.parse("A♣")
ROW3_INDEX4 = Card.parse("7♠")
K_CLUBS, A_SPADES, TWO_DIAMONDS = position(4, 2), position(4, 5), position(4, 4)


def example_game(rules: Rules = Rules.EASY) -> Game:
    """The rest of the cards are not given by the help; they fill the face-down places in deck order."""
    known = {*BOTTOM_ROW, DISCARD, ROW3_INDEX4}
    rest = iter(c for c in FULL_DECK if c not in known)
    tableau: list[Card] = [next(rest) for _ in range(17)]
    tableau.insert(position(3, 4), ROW3_INDEX4)
    tableau += BOTTOM_ROW
    return Game.from_deal(tableau=tableau, discard=DISCARD, stock=list(rest), rules=rules)
