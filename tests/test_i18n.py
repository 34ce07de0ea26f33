"""Every message exists in en, fi and ca, filled in, with the same placeholders."""

import string

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from tripeaks.i18n import (
    DOMAINS,
    LANGUAGES,
    LOCALES,
    UnknownLanguage,
    catalog,
    messages,
    translator,
)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def domain_catalogs(domain: str) -> dict[str, Catalog]:
    found = {}
    for lang in LANGUAGES:
        path = LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            with path.open("rb") as fh:
                found[lang] = read_po(fh, locale=lang)
    return found


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_domain_is_complete_in_every_language(domain: str) -> None:
    catalogs = domain_catalogs(domain)
    if domain == "engine":
        assert set(catalogs) == set(LANGUAGES)
    assert set(catalogs) in (set(), set(LANGUAGES)), f"{domain}: a language is missing"
    ids = {lang: {m.id for m in cat if m.id} for lang, cat in catalogs.items()}
    for lang in LANGUAGES[1:]:
        if catalogs:
            assert ids[lang] == ids["en"], f"{domain}/{lang} differs from en"
    for lang, cat in catalogs.items():
        assert "nplurals=2" in cat.plural_forms
        for message in cat:
            if not message.id:
                continue
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(form.strip() for form in forms), f"{domain}/{lang}: {message.id} is empty"
            assert not message.fuzzy, f"{domain}/{lang}: {message.id} is fuzzy"


def test_placeholders_match_english() -> None:
    english = messages("en")
    for lang in ("fi", "ca"):
        for key, text in messages(lang).items():
            theirs = text if isinstance(text, list) else [text]
            ours = english[key] if isinstance(english[key], list) else [english[key]]
            assert {f for t in theirs for f in fields(t)} == {
                f for t in ours for f in fields(str(t))
            }, f"{lang}: {key}"


def test_plural_forms_come_from_the_catalog() -> None:
    for lang, one, many in (("en", "1 card", "5 cards"), ("fi", "1 kortti", "5 korttia")):
        _ = translator(lang)
        assert _.plural("cards.count", 1) == one
        assert _.plural("cards.count", 5) == many
    assert translator("ca").plural("cards.count", 0) == "0 cartes"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(UnknownLanguage):
        translator("sv")
    with pytest.raises(UnknownLanguage):
        catalog("../en")


def test_spec_words_of_the_interface() -> None:
    expected = {
        "rules.easy": (
            "Easy (king and ace connected)",
            "Helppo (kuningas ja ässä yhdistetty)",
            "Fàcil (rei i as units)",
        ),
        "rules.classic": (
            "Classic (king and ace separate)",
            "Klassinen (kuningas ja ässä erillään)",
            "Clàssic (rei i as separats)",
        ),
        "status.stuck": (
            "No more possible moves",
            "Ei enää mahdollisia siirtoja",
            "Ja no hi ha cap moviment possible",
        ),
    }
    for key, words in expected.items():
        assert tuple(translator(lang)(key) for lang in ("en", "fi", "ca")) == words
