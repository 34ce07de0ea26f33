"""Players' names on the daily board: a nickname they chose, checked here, or a generated one.

A nickname is 1-20 characters once trimmed (NFC first, so that an accented letter typed as a
letter and a combining mark counts as the one letter it is): letters and digits of any script
(Unicode categories L* and N*) and the plain space, never two spaces in a row, and nothing that
draws no ink (:data:`INVISIBLE`: a Hangul filler is a letter by category, yet a name of them
shows as nothing on the board). Anything else is refused with a sentence saying which rule it
broke.

Two names that look alike are one name: :func:`key` is their UTS #39 confusable skeleton (ICU's,
the reference implementation) folded for case, so "Hans", "HANS", "Нans" with a Cyrillic Н,
"ｈａｎｓ" and "𝐇𝐚𝐧𝐬" share one key, and the players table keeps each key for one player (its
unique index; store.py ``stage_nickname``). Names shaped like a generated one (an animal of any
catalog, a space, a number: "Otter 417") are refused, so that no one can pose as a player who has
chosen no name.

Without one, a player shows as an animal and a number ("Otter 417", "Saukko 417", "Llúdriga
417"): the animal's name comes from the catalogs, so it reads well in each language, and both
come from a hash of the player's id, so the name is the same on every board and every day.
"""

from __future__ import annotations

import hashlib
import threading
import unicodedata
from functools import cache

import icu

from tripeaks.i18n import LANGUAGES, translator

MAX_LENGTH = 20
ANIMALS = 24
"""Messages ``name.animal.0`` to ``name.animal.23`` in server.po."""
NUMBERS = 999
INVISIBLE = icu.UnicodeSet("[[:Default_Ignorable_Code_Point:]\u115f\u1160\u3164\uffa0\u2800]")
"""Characters that draw nothing: Unicode's Default_Ignorable_Code_Point (ICU's own copy of the
Unicode data, so it follows each Unicode version), which holds the Hangul fillers U+115F, U+1160,
U+3164 and U+FFA0 already (named again here, as the attack used them), and U+2800 BRAILLE PATTERN
BLANK, a symbol that prints as a blank cell (refused as no letter besides)."""
_SPOOF = icu.SpoofChecker()
_SKELETON_LOCK = threading.Lock()
"""ICU's SpoofChecker is not documented as safe to share between threads: one at a time."""


class BadName(ValueError):
    """A nickname that breaks a rule; ``reason`` names the rule (``error.name_<reason>``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def message(self, lang: str) -> str:
        return translator(lang)(f"error.name_{self.reason}", limit=MAX_LENGTH)


def clean(text: str) -> str:
    """The nickname as kept and shown, or BadName."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise BadName("empty")
    if len(name) > MAX_LENGTH:
        raise BadName("long")
    if "  " in name:
        raise BadName("spaces")
    if not all(c == " " or unicodedata.category(c)[0] in "LN" for c in name):
        raise BadName("characters")
    if any(INVISIBLE.contains(c) for c in name):
        raise BadName("invisible")
    if looks_generated(name):
        raise BadName("generated")
    return name


def _skeleton(text: str) -> str:
    with _SKELETON_LOCK:
        return str(_SPOOF.getSkeleton(0, text))


def key(name: str) -> str:
    """What the name looks like: equal for names a reader cannot tell apart, whatever the case.

    The UTS #39 skeleton of the NFKC form (full-width and mathematical letters are then plain
    ones), folded for case. The case is settled first (case-folded, then in capitals, one form
    for every casing of the name), and the skeleton is taken in capitals and in small letters in
    turn: Cyrillic "Н" is a lookalike of "H" but its small "н" is of no Latin letter, so capitals
    are needed; Latin "ɑ" is a lookalike of "a" but its capital is of no Latin letter, so small
    letters are needed too.
    """
    capitals = unicodedata.normalize("NFKC", name).casefold().upper()
    small = _skeleton(_skeleton(capitals).casefold())
    return _skeleton(_skeleton(small.upper()).casefold())


@cache
def _animal_keys() -> frozenset[str]:
    """The keys of every generated name's animal, in every language."""
    return frozenset(
        key(translator(lang)(f"name.animal.{n}")) for lang in LANGUAGES for n in range(ANIMALS)
    )


@cache
def _digit_keys() -> frozenset[str]:
    return frozenset(key(str(d)) for d in range(10))


def looks_generated(name: str) -> bool:
    """Whether the name reads as a generated one: an animal of any catalog, a space, a number
    (in any script's digits, or letters that look like digits: "Otter 4l7")."""
    animal, _, number = name.rpartition(" ")
    return (
        bool(animal and number)
        and key(animal) in _animal_keys()
        and all(unicodedata.decimal(c, None) is not None or key(c) in _digit_keys() for c in number)
    )


def generated(player: str, lang: str) -> str:
    """The player's friendly name while they have chosen none: stable, in the reader's language."""
    digest = hashlib.sha256(f"name:{player}".encode()).digest()
    animal = int.from_bytes(digest[:4], "big") % ANIMALS
    number = int.from_bytes(digest[4:8], "big") % NUMBERS + 1
    _ = translator(lang)
    return _("name.generated", animal=_(f"name.animal.{animal}"), number=number)


def shown(player: str, nickname: str | None, lang: str) -> str:
    return nickname if nickname is not None else generated(player, lang)
