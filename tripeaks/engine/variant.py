"""The game description: which rules, which scoring and which variants a game is played with.

A game code carries one of these (docs/deal-format.md "Options"), and the engine decides every
option from it alone (docs/rules.md "Scoring and variants"). Every field's default is the standard
game, so ``Variant()`` is the game the app has always played under Easy rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from tripeaks.engine.rules import Rules


class Scoring(Enum):
    """How points are counted; the value is the option letter in a code ("" for ours, the default)."""

    OURS = ""
    """500 to start, −1 a move, +100 a peak, never below zero (docs/rules.md §3)."""
    TRADITIONAL = "T"
    """0 to start, n for the n-th card of a streak, −5 a draw, 15 + 15 + 30 for the peaks."""


OPTION_NAMES = {"D": "empty_discard", "J": "joker", "O": "open_peaks", "T": "traditional"}
"""Each option letter's name: in the API (GET /api/rules `offered`) and, after ``option.``, its words
in the catalogs."""

OPTION_LETTERS = "DJOT"
"""The option letters in their one written order (alphabetical): D empty discard, J joker,
O open peaks, T traditional scoring."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One game's rules, scoring and variants: everything besides the cards that a code decides."""

    rules: Rules = Rules.EASY
    scoring: Scoring = Scoring.OURS
    open_peaks: bool = False
    """All 28 cards face up from the start; a card still needs both covering cards gone to be played."""
    empty_discard: bool = False
    """The discard starts empty (its card stays on the stock, on top); any free card goes on it."""
    joker: bool = False
    """A joker joins the stock; on the discard it takes any card."""

    @property
    def options(self) -> str:
        """The code's option letters in their written order; "" for the standard game."""
        chosen = {
            "D": self.empty_discard,
            "J": self.joker,
            "O": self.open_peaks,
            "T": self.scoring is Scoring.TRADITIONAL,
        }
        return "".join(letter for letter in OPTION_LETTERS if chosen[letter])

    @property
    def is_standard(self) -> bool:
        """No option: the game of docs/rules.md §1-§4 under Easy or Classic."""
        return not self.options

    @property
    def key(self) -> str:
        """What the statistics keep it under: the rules letter, then the options after a hyphen
        (``E``, ``C``, ``E-T``, ``C-DJ``): a standard game's key is its rules letter, as it always was."""
        return f"{self.rules.value}-{self.options}" if self.options else self.rules.value

    @classmethod
    def from_key(cls, key: str) -> Variant:
        """The variant a statistics key stands for (the inverse of :attr:`key`)."""
        rules, _, options = key.partition("-")
        return cls(Rules(rules)).with_options(options)

    def with_options(self, letters: str) -> Variant:
        """These rules with the options of ``letters`` (already checked: known, each once)."""
        return replace(
            self,
            scoring=Scoring.TRADITIONAL if "T" in letters else Scoring.OURS,
            open_peaks="O" in letters,
            empty_discard="D" in letters,
            joker="J" in letters,
        )


STANDARD = Variant()
