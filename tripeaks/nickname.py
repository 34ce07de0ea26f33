"""Players' names on the daily board: a nickname they chose, checked here, or a generated one.

A nickname is 1-20 characters once trimmed (NFC first, so that an accented letter typed as a
letter and a combining mark counts as the one letter it is): letters and digits of any script
(Unicode categories L* and N*) and the plain space, never two spaces in a row. Anything else is
refused with a sentence saying which rule it broke.

Without one, a player shows as an animal and a number ("Otter 417", "Saukko 417", "Llúdriga
417"): the animal's name comes from the catalogs, so it reads well in each language, and both
come from a hash of the player's id, so the name is the same on every board and every day.
"""

from __future__ import annotations

import hashlib
import unicodedata

from tripeaks.i18n import translator

MAX_LENGTH = 20
ANIMALS = 24
"""Messages ``name.animal.0`` to ``name.animal.23`` in server.po."""
NUMBERS = 999


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
    return name


def generated(player: str, lang: str) -> str:
    """The player's friendly name while they have chosen none: stable, in the reader's language."""
    digest = hashlib.sha256(f"name:{player}".encode()).digest()
    animal = int.from_bytes(digest[:4], "big") % ANIMALS
    number = int.from_bytes(digest[4:8], "big") % NUMBERS + 1
    _ = translator(lang)
    return _("name.generated", animal=_(f"name.animal.{animal}"), number=number)


def shown(player: str, nickname: str | None, lang: str) -> str:
    return nickname if nickname is not None else generated(player, lang)
