"""tripeaks/nickname.py on its own: which characters draw nothing, the key names are compared by,
and the shape of generated names."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tripeaks import nickname
from tripeaks.i18n import LANGUAGES, translator


@pytest.mark.parametrize(
    "char",
    [
        "\u115f",  # the Hangul fillers: letters (Lo) that draw nothing
        "\u1160",
        "\u3164",
        "\uffa0",
        "\u2800",  # BRAILLE PATTERN BLANK
        "\u200b",  # ZERO WIDTH SPACE, and more of Default_Ignorable_Code_Point
        "\u00ad",
        "\u034f",
        "\u180e",
        "\ufe0f",
        "\U000e0020",
    ],
)
def test_characters_that_draw_nothing_are_invisible(char: str) -> None:
    assert nickname.INVISIBLE.contains(char)


def test_letters_that_draw_are_not_invisible() -> None:
    for char in "aÄжΩ花ㄱ가7٣ ":
        assert not nickname.INVISIBLE.contains(char), char


def test_every_letter_category_character_that_is_invisible_is_refused() -> None:
    """The check clean() adds to the category rule: each invisible letter (Lo, as U+3164) is
    refused on its own and inside a name."""
    letters = [
        chr(n)
        for n in range(0x110000)
        if unicodedata.category(chr(n))[0] in "LN" and nickname.INVISIBLE.contains(chr(n))
    ]
    assert {"\u115f", "\u1160", "\u3164", "\uffa0"} <= set(letters)
    for char in letters:
        for typed in (char, f"Ann{char}", f"A{char}B"):
            with pytest.raises(nickname.BadName) as refused:
                nickname.clean(typed)
            assert refused.value.reason in ("invisible", "empty"), typed


@pytest.mark.parametrize(
    "looks",
    [
        ("Hans", "HANS", "hans", "\u041dans", "Ｈａｎｓ", "𝐇𝐚𝐧𝐬"),
        ("Aino", "AINO", "aino", "Аino"),  # the last with a Cyrillic А
        ("Otter", "OTTER", "Оtter", "𝐎𝐭𝐭𝐞𝐫", "ｏｔｔｅｒ"),
        ("Straße", "STRASSE", "strasse"),
    ],
)
def test_lookalikes_in_any_case_share_one_key(looks: tuple[str, ...]) -> None:
    assert len({nickname.key(name) for name in looks}) == 1, [nickname.key(n) for n in looks]


@pytest.mark.parametrize(("one", "other"), [("Hans", "Hana"), ("Anna", "АННА"), ("Otter", "Ottar")])
def test_names_that_look_different_have_different_keys(one: str, other: str) -> None:
    assert nickname.key(one) != nickname.key(other)


@given(st.text(alphabet=st.characters(categories=["L", "N", "Zs"]), min_size=1, max_size=20))
def test_the_key_ignores_case(name: str) -> None:
    """Any two casings of a name are one name (those whose case folds agree: Python's upper and
    lower are not always each other's inverse)."""
    forms = [name, name.upper(), name.lower(), name.swapcase(), name.title()]
    folded = unicodedata.normalize("NFKC", name).casefold()
    same = [f for f in forms if unicodedata.normalize("NFKC", f).casefold() == folded]
    assert len({nickname.key(form) for form in same}) == 1, same


def test_every_generated_name_is_shaped_like_one() -> None:
    for lang in LANGUAGES:
        for n in range(nickname.ANIMALS):
            animal = translator(lang)(f"name.animal.{n}")
            for number in (1, 417, nickname.NUMBERS):
                assert nickname.looks_generated(f"{animal} {number}"), (animal, number)
    assert nickname.looks_generated(nickname.generated("some-player-id-0000", "fi"))


@pytest.mark.parametrize(
    "name", ["Otter", "Otter417", "417 Otter", "Otter Saukko", "Otters 4", "Hans 7"]
)
def test_other_names_are_not_shaped_like_a_generated_one(name: str) -> None:
    assert not nickname.looks_generated(name)
