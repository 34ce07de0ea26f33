"""Game codes (``TP1-E-AAAAAAB``) and the deal they stand for, exactly as docs/deal-format.md says.

The generator is written out here rather than borrowed from a library so that a code written
down today deals the same cards in every later version. The compiled solver (tripeaks/_search.c)
deals the same way about a hundred times faster; ``deal`` uses it when it was built, and the tests
pin it card for card against ``python_deck`` here, the reference.
"""

from __future__ import annotations

import re
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass

from tripeaks.cards import FULL_DECK, Card
from tripeaks.layout import TABLEAU_SIZE
from tripeaks.rules import Rules

_compiled_deck: Callable[[int], bytes] | None
try:
    from tripeaks._search import deal as _compiled_deck
except ImportError:  # installed without a C compiler: the Python generator deals alone
    _compiled_deck = None

FORMAT = "TP1"
LETTERS = 7
CODE_SPACE = 26**LETTERS
_MASK64 = (1 << 64) - 1
_CODE_RE = re.compile(r"TP1-([A-Z])-([A-Z]*)")
_RULES_LETTERS = {"E": Rules.EASY, "C": Rules.CLASSIC, "N": Rules.EASY}  # N is the legacy Easy


class InvalidCode(ValueError):
    """A text that is not a game code; the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class GameCode:
    """A deal (seven letters A-Z) and the rules it is played under."""

    rules: Rules
    letters: str

    def __post_init__(self) -> None:
        if len(self.letters) != LETTERS or not all(
            c in string.ascii_uppercase for c in self.letters
        ):
            raise InvalidCode(f"a game code has {LETTERS} letters A-Z, not {self.letters!r}")

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read a code case-insensitively, ignoring surrounding spaces; legacy ``N`` is Easy."""
        cleaned = text.strip().upper()
        if not cleaned:
            raise InvalidCode("the game code is empty")
        match = _CODE_RE.fullmatch(cleaned)
        if match is None:
            if not cleaned.startswith(f"{FORMAT}-"):
                raise InvalidCode(f"a game code starts with {FORMAT}-, as in TP1-E-AAAAAAB")
            raise InvalidCode(f"a game code looks like TP1-E-AAAAAAB, not {text.strip()!r}")
        letter, letters = match.groups()
        rules = _RULES_LETTERS.get(letter)
        if rules is None:
            raise InvalidCode(f"the rules letter must be E (Easy) or C (Classic), not {letter!r}")
        if len(letters) != LETTERS:
            raise InvalidCode(f"a game code ends in {LETTERS} letters A-Z, not {len(letters)}")
        return cls(rules, letters)

    @classmethod
    def from_number(cls, number: int, rules: Rules = Rules.EASY) -> GameCode:
        if not 0 <= number < CODE_SPACE:
            raise InvalidCode(f"a deal number is 0 to {CODE_SPACE - 1}, not {number}")
        letters = []
        for _ in range(LETTERS):
            number, digit = divmod(number, 26)
            letters.append(string.ascii_uppercase[digit])
        return cls(rules, "".join(reversed(letters)))

    @classmethod
    def random(cls, rules: Rules = Rules.EASY) -> GameCode:
        """Seven letters chosen uniformly from a cryptographic source."""
        return cls.from_number(secrets.randbelow(CODE_SPACE), rules)

    @property
    def number(self) -> int:
        """The letters as a base-26 number, most significant first (docs/deal-format.md step 1)."""
        n = 0
        for c in self.letters:
            n = n * 26 + (ord(c) - ord("A"))
        return n

    def with_rules(self, rules: Rules) -> GameCode:
        return GameCode(rules, self.letters)

    def __str__(self) -> str:
        return f"{FORMAT}-{self.rules.value}-{self.letters}"


class SplitMix64:
    """The deal's random source: SplitMix64 over unsigned 64-bit integers."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, k: int) -> int:
        """An unbiased integer in [0, k) by rejection (docs/deal-format.md step 3)."""
        limit = (1 << 64) - ((1 << 64) % k)
        while True:
            x = self.next()
            if x < limit:
                return x % k


@dataclass(frozen=True, slots=True)
class Deal:
    """Where every card starts: tableau in position order, the discard, the stock top first."""

    tableau: tuple[Card, ...]
    discard: Card
    stock: tuple[Card, ...]


def python_deck(number: int) -> list[int]:
    """The shuffled deck of deal ``number`` as card indices 0-51 (docs/deal-format.md steps 2-5),
    in Python: the reference the compiled dealing is tested against."""
    rng = SplitMix64(number)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck(number: int) -> bytes:
    """The shuffled deck of deal ``number``, one card index a byte: compiled when built."""
    if not 0 <= number < CODE_SPACE:
        raise InvalidCode(f"a deal number is 0 to {CODE_SPACE - 1}, not {number}")
    if _compiled_deck is not None:
        return _compiled_deck(number)
    return bytes(python_deck(number))


def deal(code: GameCode | str) -> Deal:
    """The cards of a code; the rules letter plays no part."""
    if isinstance(code, str):
        code = GameCode.parse(code)
    cards = [FULL_DECK[c] for c in deck(code.number)]
    return Deal(
        tableau=tuple(cards[:TABLEAU_SIZE]),
        discard=cards[TABLEAU_SIZE],
        stock=tuple(cards[TABLEAU_SIZE + 1 :]),
    )
