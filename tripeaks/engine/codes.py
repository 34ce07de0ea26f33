"""Game codes (``TP1-E-AAAAAAB``, ``TP2-E-`` and 48 letters) and the deal they stand for, exactly
as docs/deal-format.md says.

A TP1 code's seven letters seed a generator that shuffles the deck: 26^7 deals, the ones a player
makes up or is dealt at random. A TP2 code (the long form) writes out the whole deck instead: its
48 letters are the rank of the deck's order among all 52! orders, so every deal there is has one.
The deal of the day is dealt from the server's secret and published in this form after its day.

The generator is written out here rather than borrowed from a library so that a code written
down today deals the same cards in every later version. The compiled solver (tripeaks/solver/_search.c)
deals the same way about a hundred times faster; ``deal`` uses it when it was built, and the tests
pin it card for card against ``python_deck`` here, the reference.
"""

from __future__ import annotations

import functools
import math
import re
import secrets
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tripeaks.engine.cards import FULL_DECK, JOKER, Card
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_WORD, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import OPTION_LETTERS, Variant

FORMAT = "TP1"
LETTERS = 7
CODE_SPACE = 26**LETTERS
LONG_FORMAT = "TP2"
LONG_LETTERS = 48
"""The long form's letters: the fewest with 26^n >= 52! (26^47 is about 3.2e66, 52! about 8.1e67)."""
CARDS = 52
ORDERS = math.factorial(CARDS)
"""The orders of a deck: a TP2 code's letters read as a number below this."""
_MASK64 = (1 << 64) - 1
_CODE_RE = re.compile(r"(TP[12])-(?:([A-Z]{2,})-)?([A-Z])-([A-Z]*)(?:-([A-Z]*))?")
_LETTERS_OF = {FORMAT: LETTERS, LONG_FORMAT: LONG_LETTERS}
_RULES_LETTERS = {"E": Rules.EASY, "C": Rules.CLASSIC, "N": Rules.EASY}  # N is the legacy Easy


class InvalidCode(ValueError):
    """A text that is not a game code; the message says what is wrong with it."""


@dataclass(frozen=True, slots=True, init=False)
class GameCode:
    """A deal (seven letters A-Z, or 48 for the long form) and the game it is played as: rules,
    scoring and variants.

    ``GameCode(Rules.CLASSIC, "ABCDEFG")`` is a standard game, as it has always been written;
    ``GameCode(Variant(...), "ABCDEFG")`` one with options (written ``TP1-C-ABCDEFG-JOT``). With
    48 letters it is a long code (``TP2-C-`` and the letters): the rank of its deck's order. On a
    layout other than Three Peaks, the layout's word follows the format (``TP1-VALLEY-C-ABCDEFG``;
    docs/deal-format.md "Layouts"); a code without one is Three Peaks, as every code before was."""

    variant: Variant
    letters: str
    layout: Layout

    def __init__(self, game: Rules | Variant, letters: str, layout: Layout = THREE_PEAKS) -> None:
        variant = Variant(game) if isinstance(game, Rules) else game
        if len(letters) not in (LETTERS, LONG_LETTERS) or not all(
            c in string.ascii_uppercase for c in letters
        ):
            raise InvalidCode(
                f"a game code has {LETTERS} letters A-Z (or {LONG_LETTERS} in a {LONG_FORMAT} code),"
                f" not {letters!r}"
            )
        if len(letters) == LONG_LETTERS and _base26(letters) >= ORDERS:
            raise InvalidCode(
                f"the {LONG_LETTERS} letters of a {LONG_FORMAT} code are the rank of a deck's order,"
                f" a number below 52! (at most {_LARGEST_LONG}), not {letters!r}"
            )
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "letters", letters)
        object.__setattr__(self, "layout", layout)

    @property
    def rules(self) -> Rules:
        return self.variant.rules

    @property
    def options(self) -> str:
        """The option letters written after the seven ("" for the standard game)."""
        return self.variant.options

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Read a code case-insensitively, ignoring surrounding spaces; legacy ``N`` is Easy.

        Options may follow in any order after one more hyphen; each is known and given once."""
        cleaned = text.strip().encode(errors="replace").upper().decode()  # ASCII only: ß is no SS
        if not cleaned:
            raise InvalidCode("the game code is empty")
        match = _CODE_RE.fullmatch(cleaned)
        if match is None:
            if not cleaned.startswith((f"{FORMAT}-", f"{LONG_FORMAT}-")):
                raise InvalidCode(
                    f"a game code starts with {FORMAT}- or {LONG_FORMAT}-, as in TP1-E-AAAAAAB"
                )
            raise InvalidCode(
                "a game code looks like TP1-E-AAAAAAB, or TP1-E-AAAAAAB-JT with options,"
                f" not {text.strip()!r}"
            )
        form, word, letter, letters, options = match.groups()
        layout = THREE_PEAKS if word is None else BY_WORD.get(word)
        if layout is None:
            raise InvalidCode(
                f"the layouts are {', '.join(sorted(BY_WORD))}, not {word!r}"
                " (a code without one is Three Peaks, as in TP1-E-AAAAAAB)"
            )
        rules = _RULES_LETTERS.get(letter)
        if rules is None:
            raise InvalidCode(f"the rules letter must be E (Easy) or C (Classic), not {letter!r}")
        if len(letters) != _LETTERS_OF[form]:
            raise InvalidCode(
                f"a {form} code ends in {_LETTERS_OF[form]} letters A-Z, not {len(letters)}"
            )
        if options is None:
            return cls(rules, letters, layout)
        if not options:
            raise InvalidCode(
                "a game code's options follow its last hyphen, as in TP1-E-AAAAAAB-JT;"
                " a hyphen with none after it is not allowed"
            )
        unknown = sorted(set(options) - set(OPTION_LETTERS))
        if unknown:
            raise InvalidCode(
                f"the option letters are D (empty discard), J (joker), O (open peaks)"
                f" and T (traditional scoring), not {''.join(unknown)!r}"
            )
        repeated = sorted({c for c in options if options.count(c) > 1})
        if repeated:
            raise InvalidCode(
                f"each option letter is given once, but {''.join(repeated)!r} is repeated"
            )
        return cls(Variant(rules).with_options(options), letters, layout)

    @classmethod
    def from_number(
        cls, number: int, rules: Rules | Variant = Rules.EASY, layout: Layout = THREE_PEAKS
    ) -> GameCode:
        if not 0 <= number < CODE_SPACE:
            raise InvalidCode(f"a deal number is 0 to {CODE_SPACE - 1}, not {number}")
        return cls(rules, _letters_of(number, LETTERS), layout)

    @classmethod
    def from_deck(cls, deck: Sequence[int], game: Rules | Variant = Rules.EASY) -> GameCode:
        """The long code of a dealt deck: ``deck`` lists the 52 card indices 0-51 (each once) in
        dealing order, tableau, discard, then the stock top first (docs/deal-format.md, "The long
        form"). Any order has one; the same deck under options deals as they say."""
        return cls(game, _letters_of(_rank(deck), LONG_LETTERS))

    @classmethod
    def random(cls, rules: Rules | Variant = Rules.EASY, layout: Layout = THREE_PEAKS) -> GameCode:
        """Seven letters chosen uniformly from a cryptographic source, on ``layout``."""
        return cls.from_number(secrets.randbelow(CODE_SPACE), rules, layout)

    @property
    def long(self) -> bool:
        """A TP2 code: its letters write out the deck's order rather than seed a shuffle."""
        return len(self.letters) == LONG_LETTERS

    @property
    def format(self) -> str:
        """The code's prefix, TP1 or TP2."""
        return LONG_FORMAT if self.long else FORMAT

    @property
    def number(self) -> int:
        """A TP1 code's deal number: the letters in base 26, most significant first
        (docs/deal-format.md step 1). A long code has none (its letters are a deck's rank, see
        :attr:`rank`), and asking is a ValueError: every dealing path that took the number must
        take :meth:`deck` for it, and a TP2 rank passed on as a deal number would deal nonsense."""
        if self.long:
            raise ValueError(f"{self} is a {LONG_FORMAT} code: it has no deal number, only a deck")
        return _base26(self.letters)

    @property
    def rank(self) -> int:
        """The rank of the deal's deck order among all 52! (its Lehmer code read as one number):
        a long code's letters in base 26; a TP1 code's, from its shuffled deck."""
        if self.long:
            return _base26(self.letters)
        return _rank(self.deck())

    def deck(self) -> bytes:
        """The dealt deck, 52 card indices in dealing order (tableau, discard, stock top first),
        before any option moves a card; for either form."""
        if self.long:
            return _unranked(self.letters)
        return deck(self.number)

    def joker_place(self, stock_size: int) -> int:
        """Where the joker goes into a stock of ``stock_size`` cards, 0 (on top) to ``stock_size``
        (at the bottom): a TP1 code's 52nd draw of its generator, a TP2 code's rank modulo
        ``stock_size + 1`` (a long code has no generator; its rank is as unknown as its cards)."""
        if self.long:
            return self.rank % (stock_size + 1)
        return joker_place(self.number, stock_size)

    def with_rules(self, rules: Rules) -> GameCode:
        """The same deal, layout and options under other rules."""
        return GameCode(replace(self.variant, rules=rules), self.letters, self.layout)

    def __str__(self) -> str:
        """The canonical form: capitals, the layout's word (none for Three Peaks), E or C, the
        options (if any) in the order DJOT."""
        word = "" if self.layout is THREE_PEAKS else f"{self.layout.word}-"
        plain = f"{self.format}-{word}{self.rules.value}-{self.letters}"
        return f"{plain}-{self.options}" if self.options else plain


def _base26(letters: str) -> int:
    """Letters A-Z as a number in base 26, the first the most significant."""
    n = 0
    for c in letters:
        n = n * 26 + (ord(c) - ord("A"))
    return n


def _letters_of(number: int, count: int) -> str:
    """``number`` as ``count`` letters in base 26, the first the most significant."""
    letters = []
    for _ in range(count):
        number, digit = divmod(number, 26)
        letters.append(string.ascii_uppercase[digit])
    return "".join(reversed(letters))


def _rank(order: Sequence[int]) -> int:
    """The rank of an order of the cards 0-51 among all 52! (the factorial number system): the
    first card's place among the 52 counts 51! each, the second's among the 51 left 50!, and so
    on; the identity order is 0 and the reversed one 52! - 1. Anything but a permutation of 0-51
    is an InvalidCode."""
    cards = list(order)
    if sorted(cards) != list(range(CARDS)):
        raise InvalidCode(f"a deck is the {CARDS} cards 0-{CARDS - 1}, each once")
    left = list(range(CARDS))
    rank = 0
    for i, card in enumerate(cards):
        place = left.index(card)
        rank = rank * (CARDS - i) + place
        del left[place]
    return rank


@functools.lru_cache(maxsize=256)
def _unranked(letters: str) -> bytes:
    """The deck order of a long code's letters (the inverse of :func:`_rank`); kept, as a game
    and its solver ask for the same deck many times."""
    rank = _base26(letters)
    places = []  # the last card's place first: counted in base 1, the first card's in base 52
    for base in range(1, CARDS + 1):
        rank, place = divmod(rank, base)
        places.append(place)
    left = list(range(CARDS))
    return bytes(left.pop(place) for place in reversed(places))


_LARGEST_LONG = _letters_of(ORDERS - 1, LONG_LETTERS)
"""The letters of the reversed deck, the last order: every long code's letters are at most these."""


class NotOffered(ValueError):
    """Options that this version cannot play, or that a question about a game cannot answer (the
    fewest-draws solver under the traditional scoring). Every door that takes a code or options from
    outside refuses options it does not offer with this, rather than playing the standard game
    instead; ``letters`` are the refused ones, the others of the code are fine."""

    def __init__(
        self,
        variant: Variant,
        code: GameCode | None = None,
        letters: str = "",
        layout: Layout | None = None,
    ) -> None:
        self.variant = variant
        self.code = code
        """The typed code the options came in (the refusal then names the same deal without the
        refused ones); None for the choices of a new random deal."""
        self.layout = layout
        """A layout this version does not offer yet (the code's), or None: then options are."""
        self.letters = "" if layout is not None else letters or variant.options
        what = (
            f"the layout {layout.id} is"
            if layout is not None
            else f"the options {self.letters} are"
        )
        super().__init__(f"{what} not offered ({code or variant.key})")

    @property
    def without(self) -> GameCode | None:
        """The same deal without the refused options, which the refusal offers instead; None for
        the choices of a new random deal. The words are :func:`tripeaks.i18n.refusal`'s."""
        if self.code is None:
            return None
        if self.layout is not None:  # the same deal on Three Peaks
            return GameCode(self.code.variant, self.code.letters)
        kept = "".join(letter for letter in self.code.options if letter not in self.letters)
        return GameCode(self.code.variant.with_options(kept), self.code.letters)


OFFERED = OPTION_LETTERS
"""The option letters this version plays from end to end (engine, solver, page): all of them. An
option being built is left out of it until it is (issue 14 did so for all four)."""


def offer(variant: Variant, code: GameCode | None = None) -> Variant:
    """``variant`` itself when the app offers every option it has, or NotOffered naming the others."""
    missing = "".join(letter for letter in variant.options if letter not in OFFERED)
    if missing:
        raise NotOffered(variant, code, missing)
    return variant


OFFERED_LAYOUTS: tuple[Layout, ...] = LAYOUTS
"""The layouts this version plays from end to end (engine, solver, store, page): all of them. The
guard stays for a layout still being built: one left out of here is refused at every door with
NotOffered, as an option left out of :data:`OFFERED` is."""


def offered(code: GameCode) -> GameCode:
    """``code`` itself when the app offers its layout and every option it has, or NotOffered (see
    :func:`offer`)."""
    offer_layout(code.variant, code.layout, code)
    offer(code.variant, code)
    return code


def offer_layout(variant: Variant, layout: Layout, code: GameCode | None = None) -> Layout:
    """``layout`` when this version offers it, else NotOffered (naming the same deal on Three Peaks
    when the layout came in a typed ``code``)."""
    if layout not in OFFERED_LAYOUTS:
        raise NotOffered(variant, code, layout=layout)
    return layout


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
        return fair_below(self.next, k)


def fair_below(word: Callable[[], int], k: int) -> int:
    """An unbiased integer in [0, k) from a source of 64-bit words: the words at or above the
    largest multiple of k below 2^64 are thrown away, and the next one tried (docs/deal-format.md
    step 3); taking every word modulo k would favour the small values."""
    limit = (1 << 64) - ((1 << 64) % k)
    while True:
        x = word()
        if x < limit:
            return x % k


def fisher_yates(below: Callable[[int], int]) -> list[int]:
    """The deck 0-51 shuffled from the end (docs/deal-format.md step 5): for i from 51 down to 1,
    deck[i] is exchanged with deck[below(i + 1)]. Every order is equally likely when ``below`` is
    fair."""
    deck = list(range(CARDS))
    for i in range(CARDS - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True, slots=True)
class Deal:
    """Where every card starts: tableau in position order, the discard, the stock top first.

    The discard is None when the game's discard starts empty; a joker game's stock holds the joker."""

    tableau: tuple[Card, ...]
    discard: Card | None
    stock: tuple[Card, ...]


def _shuffled(number: int) -> tuple[list[int], SplitMix64]:
    rng = SplitMix64(number)
    return fisher_yates(rng.below), rng


def python_deck(number: int) -> list[int]:
    """The shuffled deck of deal ``number`` as card indices 0-51 (docs/deal-format.md steps 2-5),
    in Python: the reference the compiled dealing is tested against."""
    return _shuffled(number)[0]


def joker_place(number: int, stock_size: int) -> int:
    """Where the joker goes into a stock of ``stock_size`` cards, 0 (on top) to ``stock_size`` (at
    the bottom): the 52nd draw of the deal's generator, after the shuffle's 51 (docs/deal-format.md
    "Options")."""
    if not 0 <= number < CODE_SPACE:
        raise InvalidCode(f"a deal number is 0 to {CODE_SPACE - 1}, not {number}")
    return _shuffled(number)[1].below(stock_size + 1)


@functools.lru_cache(maxsize=1024)
def deck(number: int) -> bytes:
    """The shuffled deck of deal ``number``, one card index a byte. The engine deals in Python
    alone (about 30 µs a deck, kept for the deals in play); the solver's compiled search deals
    for itself when it surveys millions."""
    if not 0 <= number < CODE_SPACE:
        raise InvalidCode(f"a deal number is 0 to {CODE_SPACE - 1}, not {number}")
    return bytes(python_deck(number))


def deal(code: GameCode | str, layout: Layout | None = None) -> Deal:
    """The cards of a code, TP1 or TP2, on ``layout`` (the code's unless said): the same shuffle
    on every layout, its first n cards to a table of n, the next to the discard, the rest to the
    stock. The rules letter, the scoring and open peaks play no part, an empty discard leaves its
    card on the stock and a joker joins the stock without moving any card."""
    if isinstance(code, str):
        code = GameCode.parse(code)
    cards = [FULL_DECK[c] for c in code.deck()]
    size = (layout or code.layout).size
    rest = cards[size:]
    discard = None if code.variant.empty_discard else rest.pop(0)
    if code.variant.joker:
        rest.insert(code.joker_place(len(rest)), JOKER)
    return Deal(tableau=tuple(cards[:size]), discard=discard, stock=tuple(rest))
