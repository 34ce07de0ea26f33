"""The option suffix of a code and the deal it makes (docs/deal-format.md "Options"), against the
document's own vectors and a generator written out again here."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tripeaks import Card, GameCode, InvalidCode, Rules, deal
from tripeaks.cli.main import format_deal
from tripeaks.engine.cards import JOKER
from tripeaks.engine.codes import CODE_SPACE, joker_place
from tripeaks.engine.layout import ROWS
from tripeaks.engine.variant import STANDARD, Scoring, Variant

DEAL_FORMAT = (Path(__file__).parent.parent / "docs" / "deal-format.md").read_text(encoding="utf-8")
OPTION_VECTOR_RE = re.compile(
    r"^### Option vector: `(?P<code>[^`]+)`\n(?P<intro>.*?)^```text\n(?P<body>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
OPTION_VECTORS = {m["code"]: m["body"] for m in OPTION_VECTOR_RE.finditer(DEAL_FORMAT)}
MASK = (1 << 64) - 1


def written_out_joker_place(number: int, stock_size: int) -> int:
    """docs/deal-format.md steps 2, 3 and 5 and "Options", again: 51 draws, then one more."""
    state = number

    def below(k: int) -> int:
        nonlocal state
        limit = (1 << 64) - (1 << 64) % k
        while True:
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            if z < limit:
                return z % k

    for i in range(51, 0, -1):
        below(i + 1)
    return below(stock_size + 1)


def test_the_document_has_a_vector_for_every_option_and_combinations() -> None:
    suffixes = {code.rsplit("-", 1)[1] for code in OPTION_VECTORS}
    assert {"D", "J", "O", "T"} <= suffixes
    assert any(len(s) > 1 for s in suffixes)


@pytest.mark.parametrize("code", sorted(OPTION_VECTORS))
def test_every_option_vector_is_what_the_code_deals(code: str) -> None:
    body = OPTION_VECTORS[code].rstrip("\n")
    assert format_deal(GameCode.parse(code)) == body
    lines = dict(line.split(": ", 1) for line in body.split("\n"))
    dealt = deal(code)
    for n, positions in enumerate(ROWS, start=1):
        assert [Card.parse(c) for c in lines[f"row {n}"].split()] == [
            dealt.tableau[p] for p in positions
        ]
    variant = GameCode.parse(code).variant
    if variant.empty_discard:
        assert lines["discard"] == "empty" and dealt.discard is None
    else:
        assert Card.parse(lines["discard"]) == dealt.discard
    stock = [Card.parse(c) for c in lines["stock, top first"].split()]
    assert stock == list(dealt.stock)
    assert len(stock) == 23 + variant.empty_discard + variant.joker
    every = [*dealt.tableau, *stock, *([dealt.discard] if dealt.discard else [])]
    assert sorted(c.index for c in every) == list(range(52 + variant.joker))


def test_the_joker_table_is_the_written_out_generator() -> None:
    section = DEAL_FORMAT.split("## Options", 1)[1].split("## A sketch", 1)[0]
    rows = re.findall(r"^\| ([A-Z]{7}) \| (\d+) \| (\d+) \| (\d+) \|$", section, re.MULTILINE)
    assert len(rows) >= 5
    for letters, n, plain, with_d in rows:
        assert GameCode(Rules.EASY, letters).number == int(n)
        assert joker_place(int(n), 23) == written_out_joker_place(int(n), 23) == int(plain)
        assert joker_place(int(n), 24) == written_out_joker_place(int(n), 24) == int(with_d)


@given(st.integers(0, CODE_SPACE - 1), st.sets(st.sampled_from("DJOT")), st.sampled_from("ECN"))
def test_options_never_move_the_52_cards(number: int, options: set[str], letter: str) -> None:
    plain = GameCode.from_number(number)
    suffix = "".join(options)
    code = GameCode.parse(f"TP1-{letter}-{plain.letters}" + (f"-{suffix}" if suffix else ""))
    base, dealt = deal(plain), deal(code)
    assert dealt.tableau == base.tableau
    assert base.discard is not None
    order = [base.discard, *base.stock]
    if "D" not in options:
        assert dealt.discard == base.discard
        order = order[1:]
    else:
        assert dealt.discard is None
    stock = list(dealt.stock)
    if "J" in options:
        place = stock.index(JOKER)
        assert place == written_out_joker_place(number, len(order))
        del stock[place]
    assert JOKER not in stock
    assert stock == order


# The notation --------------------------------------------------------------------------------


def test_a_standard_code_is_written_as_always_and_is_the_standard_game() -> None:
    for text in ("TP1-E-ABCDEFG", "TP1-C-ABCDEFG", "TP1-N-ABCDEFG"):
        code = GameCode.parse(text)
        assert code.variant == Variant(code.rules) and code.variant.is_standard
        assert code.options == ""
        assert str(code) == text.replace("-N-", "-E-")
    assert GameCode.parse("TP1-E-ABCDEFG").variant == STANDARD
    assert GameCode(Rules.CLASSIC, "ABCDEFG") == GameCode.parse("TP1-C-ABCDEFG")


def test_options_read_in_any_order_and_case_and_write_in_one_order() -> None:
    code = GameCode.parse("  tp1-c-abcdefg-tojd ")
    assert str(code) == "TP1-C-ABCDEFG-DJOT"
    assert code.variant == Variant(
        Rules.CLASSIC, Scoring.TRADITIONAL, open_peaks=True, empty_discard=True, joker=True
    )
    assert str(GameCode.parse("TP1-N-ABCDEFG-ot")) == "TP1-E-ABCDEFG-OT"
    assert GameCode.parse("TP1-E-ABCDEFG-T").variant == Variant(scoring=Scoring.TRADITIONAL)
    assert GameCode.parse("TP1-E-ABCDEFG-O").variant == Variant(open_peaks=True)
    assert GameCode.parse("TP1-E-ABCDEFG-D").variant == Variant(empty_discard=True)
    assert GameCode.parse("TP1-E-ABCDEFG-J").variant == Variant(joker=True)


@given(st.integers(0, CODE_SPACE - 1), st.permutations("DJOT"), st.integers(0, 4))
def test_every_code_reads_back_from_its_written_form(number: int, order: list[str], k: int) -> None:
    options = "".join(order[:k])
    variant = Variant(Rules.CLASSIC).with_options(options)
    code = GameCode.from_number(number, variant)
    assert GameCode.parse(str(code)) == code
    assert GameCode.parse(str(code).lower()) == code
    assert code.options == "".join(sorted(options))
    assert code.with_rules(Rules.EASY).variant == Variant(Rules.EASY).with_options(options)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("TP1-E-ABCDEFG-", "a hyphen with none after it"),
        ("TP1-E-ABCDEFG-X", "option letters are D .*not 'X'"),
        ("TP1-E-ABCDEFG-TXY", "not 'XY'"),
        ("TP1-E-ABCDEFG-TT", "'T' is repeated"),
        ("TP1-E-ABCDEFG-jtj", "'J' is repeated"),
        ("TP1-E-ABCDEFG-T-J", "looks like"),
        ("TP1-E-ABCDEFG-T1", "looks like"),
        ("TP1-E-ABCDEF-T", "7 letters"),
        ("TP1-Q-ABCDEFG-T", "rules letter"),
    ],
)
def test_bad_options_are_refused_with_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InvalidCode, match=words):
        GameCode.parse(text)
