"""docs/deal-format.md and docs/rules.md read against the code, so that neither can drift from it.

Everything checked here is parsed out of the documents themselves: the deal vectors card by card, the
generator's constants and sample outputs, and the tables of the rules (layout, peaks, scoring, refusals,
words). A number changed on either side, or a row dropped from a table, fails a test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from example import A_SPADES, K_CLUBS, TWO_DIAMONDS, example_game
from test_deal import DEAL_MD_VECTOR
from winning import find_win

from tripeaks import Card, Game, GameCode, IllegalMove, Reason, Rules, deal, describe, refusal
from tripeaks.engine import score as scoring
from tripeaks.engine.cards import FULL_DECK
from tripeaks.engine.codes import LETTERS, SplitMix64
from tripeaks.engine.game import UNDO_LIMIT, Slot
from tripeaks.engine.layout import (
    COVERED_BY,
    COVERS,
    INDEX_IN_ROW,
    PEAK_OF,
    PEAKS,
    ROW_OF,
    ROW_SIZES,
    ROWS,
    TABLEAU_SIZE,
    position,
)
from tripeaks.i18n import LANGUAGES, translator

ROOT = Path(__file__).resolve().parent.parent
DEAL_FORMAT = (ROOT / "docs" / "deal-format.md").read_text(encoding="utf-8")
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
MASK64 = (1 << 64) - 1
PEAK_NAMES = ("left", "middle", "right")


# Reading the documents ----------------------------------------------------------------------------


def between(text: str, start: str, end: str | None) -> str:
    """The text from the line matching ``start`` up to the line matching ``end`` (or the end)."""
    found = re.search(start, text, re.MULTILINE)
    assert found, f"no heading {start!r}"
    rest = text[found.end() :]
    if end is None:
        return rest
    stop = re.search(end, rest, re.MULTILINE)
    return rest[: stop.start()] if stop else rest


def rules_section(n: int) -> str:
    return between(RULES, rf"^## {n}\. ", r"^## \d+\. ")


def step(n: int) -> str:
    return between(DEAL_FORMAT, rf"^## Step {n}\. ", r"^## ")


def tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table in ``text``: its rows (header first, separator dropped) as cells."""
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found


def table(text: str, *header: str) -> list[list[str]]:
    """The rows (header dropped) of the one table in ``text`` whose header starts with ``header``."""
    matches = [t for t in tables(text) if tuple(t[0][: len(header)]) == header]
    assert len(matches) == 1, f"expected one table headed {header}, found {len(matches)}"
    rows = matches[0][1:]
    assert rows, f"the table headed {header} is empty"
    return rows


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```[a-z]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def points(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


# docs/deal-format.md ------------------------------------------------------------------------------

VECTOR_RE = re.compile(
    r"^### Vector: `(?P<code>[^`]+)`\n(?P<intro>.*?)^```text\n(?P<body>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
VECTORS = {m["code"]: (m["intro"], m["body"]) for m in VECTOR_RE.finditer(DEAL_FORMAT)}


def cards(text: str) -> list[Card]:
    return [Card.parse(label) for label in text.split()]


def test_the_document_holds_the_pinned_vector_and_three_of_our_own() -> None:
    assert len(VECTORS) == len(VECTOR_RE.findall(DEAL_FORMAT)) >= 4
    assert "TP1-E-AAAAAAB" in VECTORS
    # The first vector is the one the project has carried from the start (tests/test_deal.py).
    assert VECTORS["TP1-E-AAAAAAB"][1].rstrip("\n") == DEAL_MD_VECTOR


@pytest.mark.parametrize("code", sorted(VECTORS))
def test_every_card_of_every_vector_is_what_the_code_deals(code: str) -> None:
    intro, body = VECTORS[code]
    lines = body.rstrip("\n").split("\n")
    labels = [line.split(":", 1)[0] for line in lines]
    assert labels == ["row 1", "row 2", "row 3", "row 4", "discard", "stock, top first"]
    listed = [cards(line.split(":", 1)[1]) for line in lines]
    dealt = deal(code)
    for row, positions in enumerate(ROWS):
        assert listed[row] == [dealt.tableau[p] for p in positions], f"{code} row {row + 1}"
    assert listed[4] == [dealt.discard]
    assert listed[5] == list(dealt.stock)
    # A vector is a whole deck, each card once.
    assert sorted(c.index for line in listed for c in line) == list(range(52))
    # Its number, and the codes said to deal the same cards.
    stated = re.search(r"^n = (\d+)", intro, re.MULTILINE)
    assert stated, f"{code}: the vector does not give its number n"
    assert GameCode.parse(code).number == int(stated[1])
    also = re.findall(r"`(TP1-[A-Z]-[A-Z]{7})`", intro)
    assert also, f"{code}: no other rules letter given"
    for other in also:
        assert GameCode.parse(other).letters == GameCode.parse(code).letters
        assert deal(other) == dealt


def test_letters_to_number_table() -> None:
    rows = table(step(1), "letters", "n")
    assert len(rows) >= 5
    for letters, n in rows:
        assert GameCode(Rules.EASY, letters).number == int(n), letters
    assert {int(n) for _, n in rows} >= {0, 1, 26**LETTERS - 1}


def doc_generator_constants() -> tuple[list[int], list[int]]:
    """The increment, the two multipliers and the three shifts, as step 2's code block writes them."""
    (block,) = code_blocks(step(2))
    constants = [int(c, 16) for c in re.findall(r"0x[0-9A-F]+", block)]
    shifts = [int(s) for s in re.findall(r">> (\d+)", block)]
    return constants, shifts


def test_the_generator_written_in_the_document_is_the_code_generator() -> None:
    constants, shifts = doc_generator_constants()
    assert len(constants) == 3 and len(shifts) == 3
    step_by, first, second = constants

    class Written:
        def __init__(self, seed: int) -> None:
            self.state = seed

        def next(self) -> int:
            self.state = (self.state + step_by) & MASK64
            z = self.state
            z = ((z ^ (z >> shifts[0])) * first) & MASK64
            z = ((z ^ (z >> shifts[1])) * second) & MASK64
            return z ^ (z >> shifts[2])

    for seed in (0, 1, 26, 2**40 + 7, 26**LETTERS - 1):
        ours, written = SplitMix64(seed), Written(seed)
        assert [ours.next() for _ in range(8)] == [written.next() for _ in range(8)], seed
    # The sketch further down uses the same constants.
    sketch = between(DEAL_FORMAT, r"^## A sketch", r"^## ")
    assert [int(c, 16) for c in re.findall(r"0x[0-9A-F]+", sketch)] == constants


def test_sample_outputs_of_the_generator() -> None:
    rows = table(step(2), "seed")
    assert len(rows) >= 2
    for seed, *outputs in rows:
        rng = SplitMix64(int(seed))
        assert [rng.next() for _ in outputs] == [int(x, 16) for x in outputs], seed


def test_deck_order_examples() -> None:
    examples = re.findall(r"(\d+) is (\S+?)[,. ]", " ".join(step(4).split()))
    assert len(examples) >= 6
    for index, label in examples:
        assert Card.from_index(int(index)) == Card.parse(label)


def test_the_shuffle_trace_deals_the_first_vector() -> None:
    (block,) = code_blocks(step(5))
    trace = numbers(block.split(":", 1)[1])
    rng = SplitMix64(GameCode.parse("TP1-E-AAAAAAB").number)
    assert trace == [rng.below(i + 1) for i in range(51, 0, -1)]
    # Steps 4 to 6 as the document words them, driven by the trace alone.
    deck = list(range(52))
    for i, j in zip(range(51, 0, -1), trace, strict=True):
        deck[i], deck[j] = deck[j], deck[i]
    dealt = deal("TP1-E-AAAAAAB")
    assert [Card.from_index(c) for c in deck] == [*dealt.tableau, dealt.discard, *dealt.stock]


# docs/rules.md ------------------------------------------------------------------------------------


def test_numbers_at_a_glance() -> None:
    fresh = Game.new("TP1-E-AAAAAAB")
    expected = {
        "cards in the deck": [len(FULL_DECK)],
        "tableau positions": [TABLEAU_SIZE],
        "cards per row, top to bottom": list(ROW_SIZES),
        "cards face up at the start": [fresh.slots().count(Slot.FACE_UP)],
        "cards in the stock at the start": [fresh.stock_size],
        "score at the start": [scoring.START],
        "actions that undo can take back": [UNDO_LIMIT],
        "letters in a game code": [LETTERS],
    }
    glance = between(RULES, r"^### At a glance", r"^## ")
    rows = table(glance, "quantity", "value")
    assert {name: numbers(value) for name, value in rows} == expected


def test_every_position_row_and_cover() -> None:
    rows = table(rules_section(1), "index", "row", "i", "covered by", "lies over", "peak")
    assert [int(r[0]) for r in rows] == list(range(TABLEAU_SIZE))
    for index, row, i, covered_by, lies_over, peak in rows:
        p = int(index)
        assert (ROW_OF[p], INDEX_IN_ROW[p]) == (int(row), int(i)), p
        assert tuple(numbers(covered_by)) == COVERED_BY[p], p
        assert tuple(numbers(lies_over)) == COVERS[p], p
        assert PEAK_NAMES[PEAK_OF[p]] == peak, p


def test_the_three_peaks() -> None:
    rows = table(rules_section(1), "peak", "places (row, i)", "flat indexes", "cards")
    assert [r[0] for r in rows] == list(PEAK_NAMES)
    for (_, places, indexes, size), peak in zip(rows, PEAKS, strict=True):
        pairs = re.findall(r"\((\d),(\d)\)", places)
        assert {position(int(r), int(i)) for r, i in pairs} == peak
        assert numbers(indexes) == sorted(peak)
        assert int(size) == len(peak) == len(pairs)


def test_scoring_table_and_its_arithmetic() -> None:
    section = rules_section(3)
    rows = {event: points(value) for event, value in table(section, "event", "points")}
    section = " ".join(section.split())  # the prose below may be wrapped anywhere
    assert f"starts with {scoring.START} points" in section
    assert len(rows) == 3
    (removal,) = [v for e, v in rows.items() if "card from the tableau" in e]
    (draw,) = [v for e, v in rows.items() if "card from the stock" in e]
    (bonus,) = [v for e, v in rows.items() if "last card of a peak" in e]
    assert (removal, draw, bonus) == (scoring.MOVE, scoring.MOVE, scoring.PEAK_BONUS)
    # 772 best, 749 with the whole stock drawn, 750 for the example won on move 50.
    best = scoring.START + TABLEAU_SIZE * scoring.MOVE + len(PEAKS) * scoring.PEAK_BONUS
    stock = 52 - TABLEAU_SIZE - 1
    ended_on = re.search(r"ended on move (\d+)", section)
    assert ended_on
    example = scoring.START + int(ended_on[1]) * scoring.MOVE + len(PEAKS) * scoring.PEAK_BONUS
    assert {int(n) for n in re.findall(r"\*\*(\d+)\*\*", section)} == {
        best,
        best + stock * scoring.MOVE,
        example,
    }
    assert f"**{best} − d**" in section


def test_a_won_game_scores_772_minus_the_draws_even_with_undo() -> None:
    """rules.md §3: only the actions that stand count, so undo and replay cost nothing in the end."""
    game = Game.new("TP1-E-AAAAAAB")
    line = find_win(Game.new("TP1-E-AAAAAAB"))
    assert line is not None
    for n, action in enumerate(line):
        game.apply(action)
        if n % 4 == 0 and not game.is_won:
            game.undo()
            game.apply(action)
    assert game.is_won and game.moves > TABLEAU_SIZE + game.drawn
    best = scoring.START + TABLEAU_SIZE * scoring.MOVE + len(PEAKS) * scoring.PEAK_BONUS
    assert game.score == best - game.drawn


def test_refusal_reasons_and_their_words() -> None:
    rows = table(rules_section(2), "reason", "when", *LANGUAGES)
    assert {r[0] for r in rows} == set(Reason.__members__)
    for name, _when, *words in rows:
        reason = Reason[name]
        assert reason.value == name.lower()  # the reason code the API sends
        for lang, text in zip(LANGUAGES, words, strict=True):
            assert translator(lang)(f"error.{reason.value}") == text, (name, lang)
            assert refusal(IllegalMove(reason), lang) == text, (name, lang)


def test_words_of_the_interface() -> None:
    rows = table(rules_section(8), "", "id", *LANGUAGES)
    assert len(rows) == 5
    for _what, message_id, *words in rows:
        for lang, text in zip(LANGUAGES, words, strict=True):
            assert translator(lang)(message_id) == text, (message_id, lang)


def test_board_description_patterns_and_words() -> None:
    section = rules_section(7)
    patterns = dict(table(section, "lang", "pattern"))
    assert set(patterns) == set(LANGUAGES)
    for lang, pattern in patterns.items():
        assert translator(lang)("board.description.three_peaks") == pattern, lang
    for lang, one, many, hidden, empty in table(section, "lang", "one card", "N cards"):
        _ = translator(lang)
        assert _.plural("cards.count", 1) == one, lang
        for n in (0, 2, 23):
            assert _.plural("cards.count", n) == many.replace("N", str(n)), (lang, n)
        assert (_("card.hidden"), _("row.empty")) == (hidden, empty), lang
    for lang, *suits in table(section, "lang", "♣", "♦", "♥", "♠"):
        names = ("clubs", "diamonds", "hearts", "spades")
        assert [translator(lang)(f"suit.{s}") for s in names] == suits, lang
    ranks = ("number", "ace", "jack", "queen", "king")
    for lang, *forms in table(section, "lang", "number card", *ranks[1:]):
        assert [translator(lang)(f"card.{r}") for r in ranks] == forms, lang


def test_the_example_sentences_are_what_the_app_says() -> None:
    quotes = re.findall(r"((?:^> .*\n)+)", rules_section(7), re.MULTILINE)
    said = [" ".join(line[2:] for line in q.splitlines()) for q in quotes]
    assert len(said) == 2
    game = example_game()
    assert describe(game, "en") == said[0]
    for pos in (K_CLUBS, A_SPADES, TWO_DIAMONDS):
        game.play(pos)
    assert describe(game, "en") == said[1]


CITATION_FILES = [
    path
    for folder in ("tripeaks", "tests", "docs", "bench")
    for path in sorted((ROOT / folder).rglob("*"))
    if path.suffix in {".py", ".md", ".js", ".html"}
] + [ROOT / "README.md"]


def test_every_section_cited_exists() -> None:
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", RULES, re.MULTILINE)}
    assert sections == set(range(1, 12))
    steps = {int(n) for n in re.findall(r"^## Step (\d+)\. ", DEAL_FORMAT, re.MULTILINE)}
    assert steps == set(range(1, 7))
    cited_sections = {int(n) for n in re.findall(r"§(\d+)", RULES)}
    cited_steps: set[int] = set()
    for path in CITATION_FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        cited_sections |= {int(n) for n in re.findall(r"rules\.md §(\d+)", text)}
        cited_steps |= {int(n) for n in re.findall(r"deal-format\.md step (\d+)", text)}
    assert cited_sections <= sections
    assert cited_steps <= steps
