"""The generator must never drift: docs/deal-format.md's first vector and our own pinned deals."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks import Card, GameCode, InvalidCode, Rules, deal
from tripeaks.cli.main import format_deal
from tripeaks.engine.codes import CODE_SPACE, SplitMix64, deck, python_deck

DEAL_MD_VECTOR = """\
row 1: 7♦ 9♣ 4♦
row 2: 8♥ 8♦ 5♠ J♦ 6♦ 9♠
row 3: J♣ 5♦ K♦ 3♣ 2♦ J♥ 5♥ 7♥ 4♥
row 4: 2♣ A♦ 6♠ K♣ K♥ 10♥ 10♠ J♠ 10♦ 8♠
discard: Q♣
stock, top first: 4♠ 6♣ 7♣ A♠ 5♣ A♥ K♠ 6♥ Q♠ Q♥ Q♦ 9♦ 3♦ 3♠ A♣ 4♣ 2♥ 8♣ 10♣ 3♥ 2♠ 9♥ 7♠"""

PINNED = {
    "TP1-E-AAAAAAA": "row 1: 8♠ J♥ 9♣|row 2: 2♠ 2♦ Q♦ 6♠ 10♣ 3♦|row 3: A♣ J♣ 7♣ 9♥ 8♣ Q♠ K♥ 5♥ 2♣"
    "|row 4: 3♥ 5♣ A♥ 6♣ 4♠ 10♦ 5♦ 8♥ 8♦ A♦|discard: Q♥|stock, top first: 10♠ Q♣ J♦ 3♠ 4♦ 2♥ 9♦"
    " 3♣ K♦ A♠ 7♠ 9♠ 7♦ J♠ 6♥ K♠ 4♣ 7♥ 5♠ 6♦ 4♥ K♣ 10♥",
    "TP1-C-ZZZZZZZ": "row 1: 6♠ 5♠ J♥|row 2: 4♦ 4♠ 2♠ A♣ 7♦ 9♣|row 3: 10♣ A♥ K♠ 3♣ 6♥ 8♥ 10♥ J♠ 6♦"
    "|row 4: 2♥ Q♣ 2♦ 8♠ 8♦ 8♣ 9♦ 6♣ J♣ 9♠|discard: K♥|stock, top first: 4♣ 5♥ 9♥ 3♠ K♦ 2♣ K♣"
    " Q♥ 7♠ 5♣ 4♥ J♦ 3♦ A♠ Q♠ A♦ 7♣ 10♠ 10♦ 7♥ 5♦ Q♦ 3♥",
    "TP1-N-TRIPEAK": "row 1: K♠ 10♣ K♦|row 2: 3♥ Q♦ K♥ Q♥ A♦ 5♣|row 3: 10♦ 9♣ 9♠ A♣ 7♣ 7♥ 2♦ 6♠ 8♥"
    "|row 4: 9♥ J♦ 5♠ 6♦ 8♦ Q♣ 6♣ 7♠ 8♠ 3♠|discard: 2♥|stock, top first: 3♦ 4♥ 2♣ A♥ A♠ K♣ 4♦"
    " 5♥ 2♠ J♥ 9♦ 7♦ 5♦ J♠ 3♣ 4♣ 10♠ 4♠ Q♠ 10♥ J♣ 6♥ 8♣",
    "TP1-C-MOOMINS": "row 1: Q♥ 3♣ 3♠|row 2: 6♦ 2♠ 2♦ 4♥ K♣ 7♣|row 3: A♦ 4♠ A♥ 7♥ 5♣ 4♦ 10♣ K♥ Q♣"
    "|row 4: 9♥ 3♥ 8♠ 9♣ 8♦ 10♠ 5♥ 9♦ 2♣ 9♠|discard: 4♣|stock, top first: 10♦ 7♠ J♦ Q♠ Q♦ A♠ 5♦"
    " 3♦ 6♥ 8♥ A♣ 10♥ 6♣ K♦ J♣ K♠ 2♥ 7♦ J♠ 8♣ J♥ 5♠ 6♠",
}


@pytest.mark.parametrize(
    "text", ["TP1-E-AAAAAAB", "TP1-C-AAAAAAB", "tp1-n-aaaaaab", "  TP1-e-AaAaAaB "]
)
def test_deal_md_vector_for_every_rules_letter(text: str) -> None:
    assert format_deal(GameCode.parse(text)) == DEAL_MD_VECTOR


@pytest.mark.parametrize(("code", "expected"), PINNED.items())
def test_pinned_deals_never_drift(code: str, expected: str) -> None:
    assert format_deal(GameCode.parse(code)).replace("\n", "|") == expected


@settings(max_examples=1000, deadline=None)
@given(st.integers(min_value=0, max_value=CODE_SPACE - 1))
def test_the_compiled_shuffle_deals_what_the_python_generator_deals(number: int) -> None:
    from tripeaks.solver import compiled, portable

    assert compiled.deal(number) == bytes(python_deck(number)) == deck(number)
    assert portable.deal(number) == compiled.deal(number)


def test_the_compiled_shuffle_at_the_ends_of_the_codes_and_past_them() -> None:
    from tripeaks.solver import _search, compiled

    for number in (0, 1, 2, 25, 26, 4015905088, 6075305298, CODE_SPACE - 2, CODE_SPACE - 1):
        assert _search.deal(number) == compiled.deal(number) == bytes(python_deck(number))
    for number in (-1, CODE_SPACE):
        with pytest.raises(InvalidCode):
            deck(number)


def test_rules_letter_does_not_change_the_cards() -> None:
    for letters in ("AAAAAAA", "QWERTYU", "ZZZZZZZ"):
        assert deal(f"TP1-E-{letters}") == deal(f"TP1-C-{letters}") == deal(f"TP1-N-{letters}")


def test_every_deal_uses_the_whole_deck_once() -> None:
    for n in (0, 1, 2, 12345, 26**7 - 1):
        cards = deal(GameCode.from_number(n))
        everything = [*cards.tableau, cards.discard, *cards.stock]
        assert len(cards.tableau) == 28 and len(cards.stock) == 23
        assert sorted(c.index for c in everything) == list(range(52))


def test_splitmix64_known_outputs() -> None:
    # The reference SplitMix64 sequence for seed 0 (Vigna's splitmix64.c).
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_letters_are_a_base_26_number() -> None:
    assert GameCode.parse("TP1-E-AAAAAAA").number == 0
    assert GameCode.parse("TP1-E-AAAAAAB").number == 1
    assert GameCode.parse("TP1-E-AAAAABA").number == 26
    assert GameCode.parse("TP1-E-ZZZZZZZ").number == 26**7 - 1
    assert str(GameCode.from_number(26, Rules.CLASSIC)) == "TP1-C-AAAAABA"


def test_code_parsing_is_forgiving_about_case_and_spaces() -> None:
    code = GameCode.parse("  tp1-c-abcdefg\n")
    assert str(code) == "TP1-C-ABCDEFG"
    assert code.rules is Rules.CLASSIC
    assert GameCode.parse("TP1-N-ABCDEFG").rules is Rules.EASY
    assert str(GameCode.parse("TP1-N-ABCDEFG")) == "TP1-E-ABCDEFG"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("TP3-E-AAAAAAB", "starts with TP1- or TP2-"),
        ("TP2-E-AAAAAAB", "a TP2 code ends in 48 letters"),
        ("TP1-X-AAAAAAB", "rules letter"),
        ("TP1-E-AAAAAB", "a TP1 code ends in 7 letters"),
        ("TP1-E-AAAAAABB", "7 letters"),
        ("TP1-E-AAAA1AB", "looks like"),
        ("TP1EAAAAAAB", "starts with TP1"),
        ("TP1-E-ÄAAAAAB", "looks like"),
    ],
)
def test_malformed_codes_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InvalidCode, match=words):
        GameCode.parse(text)
    assert issubclass(InvalidCode, ValueError)


def test_random_codes_are_valid_and_vary() -> None:
    codes = {GameCode.random(Rules.CLASSIC) for _ in range(50)}
    assert len(codes) > 45
    assert all(c.rules is Rules.CLASSIC and GameCode.parse(str(c)) == c for c in codes)


def test_card_labels_round_trip() -> None:
    for index in range(52):
        card = Card.from_index(index)
        assert Card.parse(str(card)) == card
    assert str(Card.parse("10h")) == "10♥"
    assert str(Card.parse("qd")) == "Q♦"
    with pytest.raises(ValueError):
        Card.parse("11♥")
    with pytest.raises(ValueError):
        Card.parse("Qx")
