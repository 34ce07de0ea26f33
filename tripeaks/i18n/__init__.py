"""Message catalogs: every word the app shows, in en, fi and ca.

The catalogs are standard gettext ``.po`` files with symbolic message ids, read with Babel and
served through :mod:`gettext` so that plural forms come from each catalog's own header. The engine
has no words of its own: its refusals carry reason codes, and :func:`refusal` says them.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from tripeaks.engine.codes import NotOffered
from tripeaks.engine.game import IllegalMove
from tripeaks.engine.variant import OPTION_NAMES

LANGUAGES: tuple[str, ...] = ("en", "fi", "ca")
DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).parent / "locales"
DOMAINS: tuple[str, ...] = ("engine", "server", "web", "help")
"""engine: the rules and the board; server: API replies; web: the page and its windows; help: the help."""


class UnknownLanguage(ValueError):
    """A language the app has no catalog for."""


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}")
    return lang


@cache
def catalog(lang: str) -> Catalog:
    """Every domain's ``.po`` file of a language, merged into one catalog."""
    check_language(lang)
    merged: Catalog | None = None
    for domain in DOMAINS:
        path = LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"
        if not path.exists():
            continue
        with path.open("rb") as fh:
            part = read_po(fh, locale=lang, domain=domain)
        if merged is None:
            merged = part
            continue
        for message in part:
            if message.id:
                merged[message.id] = message
    if merged is None:
        raise UnknownLanguage(f"no catalog for {lang!r}")
    return merged


class Translator:
    """Looks up messages of one language and fills in their ``{placeholders}``."""

    def __init__(self, lang: str) -> None:
        self.lang = check_language(lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog(lang))
        buffer.seek(0)
        self._gnu = gettext.GNUTranslations(buffer)

    def __call__(self, key: str, /, **values: object) -> str:
        text = self._gnu.gettext(key)
        return text.format(**values) if values else text

    def plural(self, key: str, n: int, /, **values: object) -> str:
        """The form of ``key`` for ``n``, chosen by the catalog's plural rule; ``{n}`` is filled."""
        text = self._gnu.ngettext(key, key + ".plural", n)
        return text.format(n=n, **values)


def system_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the system's locale (LC_ALL, LC_MESSAGES, LANG) if we speak it, else the
    default: for what a command prints on the console, where no page says which language."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            lang = value.split(".")[0].split("_")[0].lower()
            return lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


@cache
def translator(lang: str) -> Translator:
    return Translator(lang)


def messages(lang: str) -> dict[str, str | list[str]]:
    """Every message of a language, for the browser: plurals as a list of forms."""
    result: dict[str, str | list[str]] = {}
    for message in catalog(lang):
        if not message.id:
            continue
        if isinstance(message.id, tuple) and isinstance(message.string, tuple):
            result[message.id[0]] = [str(s) for s in message.string]
        else:
            result[str(message.id)] = str(message.string)
    return result


def refusal(error: IllegalMove | NotOffered, lang: str = "en") -> str:
    """The engine's refusal in the player's language: an action the rules refuse (docs/rules.md §2
    words each reason), or options this version does not offer, named, with the same deal without
    them when a code was typed."""
    _ = translator(lang)
    if isinstance(error, IllegalMove):
        return _(f"error.{error.reason.value}")
    if error.layout is not None and error.without is None:
        return _("error.layout_not_offered_new", layout=_(f"layout.{error.layout.id}"))
    if error.layout is not None:
        return _(
            "error.layout_not_offered",
            layout=_(f"layout.{error.layout.id}"),
            code=str(error.without),
        )
    names = ", ".join(_(f"option.{OPTION_NAMES[letter]}") for letter in error.letters)
    if error.without is None:
        return _("error.options_not_offered_new", options=names)
    return _("error.options_not_offered", options=names, code=str(error.without))
