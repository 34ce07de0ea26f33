"""The long code form TP2 (docs/deal-format.md "The long form TP2"): the rank of the dealt deck's order
in 48 letters, read against the document's vectors and a rank written out again here; every door that
takes a code (dealing, the solver, the grade, the CLI, the API) reads it; TP1 codes deal what they did."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.cli.main import format_deal, main
from tripeaks.engine.cards import JOKER
from tripeaks.engine.codes import CODE_SPACE, LONG_LETTERS, ORDERS, GameCode, InvalidCode, deal
from tripeaks.engine.game import Game
from tripeaks.engine.layout import TABLEAU_SIZE
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import explain, portable, streak
from tripeaks.solver import search as solver

ROOT = Path(__file__).resolve().parent.parent
DEAL_FORMAT = (ROOT / "docs" / "deal-format.md").read_text(encoding="utf-8")
LONG_SECTION = DEAL_FORMAT[DEAL_FORMAT.index("## The long form TP2") :]
LONG_VECTOR_RE = re.compile(
    r"^### Long vector: `(?P<code>[^`]+)`\n(?P<intro>.*?)^```text\n(?P<body>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
LONG_VECTORS = {m["code"]: (m["intro"], m["body"]) for m in LONG_VECTOR_RE.finditer(DEAL_FORMAT)}
IDENTITY = "TP2-E-" + "A" * LONG_LETTERS
FIRST_TP1 = "TP1-E-AAAAAAB"
REFERENCE = [
    json.loads(line)
    for line in (ROOT / "tests" / "data" / "solver_reference.jsonl").read_text().splitlines()
]


def written_out_rank(order: list[int]) -> int:
    """docs/deal-format.md L2 again, by its definition: di counts the cards after deck[i] (those not
    dealt yet) numbered below it, and R = sum of di * (51 - i)!."""
    return sum(
        sum(1 for later in order[i + 1 :] if later < card) * math.factorial(51 - i)
        for i, card in enumerate(order)
    )


def twin(code: GameCode | str) -> GameCode:
    """The TP2 code of a TP1 code's deck, with its rules and options."""
    code = GameCode.parse(code) if isinstance(code, str) else code
    return GameCode.from_deck(code.deck(), code.variant)


# The document's vectors ---------------------------------------------------------------------------


def test_the_document_has_the_identity_the_reversed_deck_and_the_first_tp1_deck() -> None:
    assert IDENTITY in LONG_VECTORS
    assert str(GameCode.from_deck(range(51, -1, -1), Rules.CLASSIC)) in LONG_VECTORS
    assert str(twin(FIRST_TP1)) in LONG_VECTORS
    assert any(code.endswith("-DJ") for code in LONG_VECTORS)


@pytest.mark.parametrize("text", sorted(LONG_VECTORS))
def test_every_long_vector_is_what_the_code_deals(text: str) -> None:
    intro, body = LONG_VECTORS[text]
    code = GameCode.parse(text)
    assert code.long and str(code) == text
    assert format_deal(code) == body.rstrip("\n")
    stated = re.search(r"^R = (\d+)[,:]", intro, re.MULTILINE)
    if stated:
        assert code.rank == int(stated[1])
    for tp1 in re.findall(r"`(TP1-[A-Z]-[A-Z]{7})`", intro):  # the TP1 code it writes out
        if "-J" not in text:
            assert deal(tp1) == deal(code)
        assert GameCode.from_deck(GameCode.parse(tp1).deck()).letters == code.letters
    digits = re.search(r"digits d0 … d51 are\n\n```\n(.*?)\n```", intro, re.DOTALL)
    if digits:
        order, left = list(code.deck()), list(range(52))
        places = []
        for card in order:
            places.append(left.index(card))
            left.remove(card)
        assert [int(d) for d in digits[1].split()] == places


def test_the_documents_52_factorial_and_largest_code() -> None:
    written = re.search(r"^    52! = (\d+)$", LONG_SECTION, re.MULTILINE)
    assert written and int(written[1]) == math.factorial(52) == ORDERS
    largest = re.search(r"the largest TP2 code\nis the reversed deck's, `([A-Z]+)`", LONG_SECTION)
    assert largest
    assert GameCode.from_deck(range(51, -1, -1)).letters == largest[1]
    assert GameCode.parse(f"TP2-E-{largest[1]}").rank == ORDERS - 1
    assert 26 ** (LONG_LETTERS - 1) < ORDERS <= 26**LONG_LETTERS  # the fewest letters that do


# The form itself ----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.permutations(list(range(52))), st.sampled_from(["", "D", "J", "OT", "DJOT"]))
def test_any_order_makes_a_code_that_deals_it_back(order: list[int], options: str) -> None:
    variant = Variant(Rules.CLASSIC).with_options(options)
    code = GameCode.from_deck(order, variant)
    assert code.long and len(code.letters) == LONG_LETTERS
    assert code.deck() == bytes(order)
    assert code.rank == written_out_rank(order)
    assert GameCode.parse(str(code)) == code == GameCode.parse(f"  {str(code).lower()} ")
    assert GameCode(code.variant, code.letters) == code
    assert code.with_rules(Rules.EASY).deck() == code.deck()


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=CODE_SPACE - 1))
def test_every_tp1_code_deals_what_it_did_and_its_twin_deals_the_same(number: int) -> None:
    code = GameCode.from_number(number, Variant(Rules.EASY).with_options("DOT"))
    long = twin(code)
    assert not code.long and code.number == number and code.format == "TP1"
    assert long.long and long.format == "TP2" and str(long).startswith("TP2-E-")
    assert deal(long) == deal(code)  # the empty discard too; a joker's place differs
    assert long.rank == code.rank == written_out_rank(list(code.deck()))


def test_a_long_code_has_no_deal_number() -> None:
    """Its letters are a rank: passed on as a TP1 number they would deal nonsense."""
    with pytest.raises(ValueError, match="no deal number"):
        _ = GameCode.parse(IDENTITY).number


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("TP2-E-" + "A" * 47, "a TP2 code ends in 48 letters A-Z, not 47"),
        ("TP2-E-" + "A" * 49, "a TP2 code ends in 48 letters A-Z, not 49"),
        ("TP2-E-ABCDEFG", "a TP2 code ends in 48 letters A-Z, not 7"),
        ("TP1-E-" + "A" * 48, "a TP1 code ends in 7 letters A-Z, not 48"),
        ("TP2-E-" + "Z" * 48, "a number below 52!"),
        ("TP2-E-" + "A" * 47 + "1", "looks like"),
        ("TP2-E-" + "A" * 47 + "Ä", "looks like"),
        ("TP2-X-" + "A" * 48, "rules letter"),
        ("TP2-E-" + "A" * 48 + "-TT", "'T' is repeated"),
        ("TP2-E-" + "A" * 48 + "-X", "option letters are D"),
        ("TP2-E-" + "A" * 48 + "-", "a hyphen with none after it"),
        ("TP3-E-" + "A" * 48, "starts with TP1- or TP2-"),
    ],
)
def test_bad_long_codes_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InvalidCode, match=re.escape(words)):
        GameCode.parse(text)


def test_the_first_rank_past_the_last_order_is_refused() -> None:
    largest = GameCode.from_deck(range(51, -1, -1)).letters
    number = ORDERS  # 52!: one past the reversed deck
    letters = ""
    for _ in range(LONG_LETTERS):
        number, digit = divmod(number, 26)
        letters = chr(ord("A") + digit) + letters
    assert letters > largest
    with pytest.raises(InvalidCode, match="below 52!"):
        GameCode.parse(f"TP2-C-{letters}")
    with pytest.raises(InvalidCode, match="below 52!"):
        GameCode(Rules.EASY, letters)


@pytest.mark.parametrize(
    "deck",
    [list(range(51)), [*range(51), 50], [*range(51), 52], [*range(52), 0]],
    ids=["51 cards", "a card twice", "a card 52", "53 cards"],
)
def test_only_a_whole_deck_makes_a_code(deck: list[int]) -> None:
    with pytest.raises(InvalidCode, match="52 cards 0-51, each once"):
        GameCode.from_deck(deck)


def test_the_legacy_n_and_the_options_read_as_for_tp1() -> None:
    code = GameCode.parse(f" tp2-n-{'b' * 47}a-tojd ")
    assert str(code) == f"TP2-E-{'B' * 47}A-DJOT"
    assert code.rules is Rules.EASY and code.options == "DJOT" and len(str(code)) == 59


@pytest.mark.parametrize("options", ["J", "DJ"])
@pytest.mark.parametrize("text", [IDENTITY, str(twin(FIRST_TP1)), str(twin("TP1-C-ZZZZZZZ"))])
def test_the_joker_goes_at_the_rank_modulo_the_places(text: str, options: str) -> None:
    plain = GameCode.parse(text)
    code = GameCode.parse(f"{text}-{options}")
    cards, without = deal(code), deal(plain)
    stock = list(without.stock)
    if "D" in options:
        assert cards.discard is None
        stock.insert(0, without.discard)  # deck[28] stays on the stock, on top
    else:
        assert cards.discard == without.discard
    place = plain.rank % (len(stock) + 1)
    assert cards.stock.index(JOKER) == place == code.joker_place(len(stock))
    assert [c for c in cards.stock if c != JOKER] == stock and cards.tableau == without.tableau


def test_an_empty_discard_leaves_its_card_on_top_of_the_stock() -> None:
    code = GameCode.parse(f"{IDENTITY}-D")
    cards = deal(code)
    order = list(code.deck())
    assert cards.discard is None and cards.stock[0].index == order[TABLEAU_SIZE]
    assert [c.index for c in cards.stock] == order[TABLEAU_SIZE:]


# Everything that reads a code ---------------------------------------------------------------------


def reference_rows(rules: Rules, count: int) -> list[dict[str, object]]:
    rows = [r for r in REFERENCE if GameCode.parse(str(r["code"])).rules is rules]
    lost = [r for r in rows if not r["winnable"]][: count // 2]
    return lost + [r for r in rows if r["winnable"]][: count - len(lost)]


@pytest.mark.parametrize("rules", list(Rules))
def test_the_solver_answers_a_tp2_twin_as_its_tp1_code(rules: Rules) -> None:
    rows = reference_rows(rules, 12)
    assert any(not r["winnable"] for r in rows) and any(r["winnable"] for r in rows)
    for row in rows:
        code = GameCode.parse(str(row["code"]))
        long = twin(code)
        assert solver.is_winnable(long) is solver.is_winnable(code) is row["winnable"]
        ours, theirs = solver.solve(long), solver.solve(code)
        assert (ours.winnable, ours.draws, ours.final_score, ours.max_removed) == (
            theirs.winnable,
            theirs.draws,
            theirs.final_score,
            theirs.max_removed,
        )
        assert ours.max_removed == row["max_removed"]
        if ours.winnable:
            assert ours.draws == row["draws"] and Game.replay(long, ours.line).is_won


@pytest.mark.parametrize("options", ["D", "J", "DJ"])
def test_the_solver_reads_a_long_codes_options_from_its_deal(options: str) -> None:
    """From the code (compiled, its deck's ranks) and from a Game of its cards (the engine's deal):
    one answer. With D it is also the TP1 twin's; a joker's place is the long form's own."""
    for row in reference_rows(Rules.CLASSIC, 6):
        code = GameCode.parse(f"{row['code']}-{options}")
        long = twin(code)
        by_code, by_game = solver.solve(long), solver.solve(Game.new(long))
        assert (by_code.winnable, by_code.draws) == (by_game.winnable, by_game.draws)
        assert solver.is_winnable(long) is by_code.winnable is solver.is_winnable(Game.new(long))
        if "J" not in options:
            assert solver.solve(code).draws == by_code.draws


def test_the_solver_without_its_compiled_search_reads_a_long_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    long = twin(str(reference_rows(Rules.EASY, 2)[1]["code"]))
    compiled = solver.solve(long)
    monkeypatch.setattr("tripeaks.solver.kernel.KERNEL", portable)
    assert solver.solve(long).draws == compiled.draws
    assert solver.is_winnable(long) is compiled.winnable


def test_grades_and_the_traditional_best_score_read_a_long_code() -> None:
    lost = next(r for r in REFERENCE if not r["winnable"])
    assert explain.grade(twin(str(lost["code"]))) is explain.Grade.UNWINNABLE
    tp1 = GameCode.parse(str(reference_rows(Rules.EASY, 2)[1]["code"]))
    won = twin(tp1)
    assert explain.grade(won) is not explain.Grade.UNWINNABLE
    assert 0 < explain.win_share(won, plays=50) <= 1
    traditional = GameCode(Variant(Rules.EASY, Scoring.TRADITIONAL), tp1.letters)
    assert streak.best_score(twin(traditional)).score == streak.best_score(traditional).score


def test_the_command_line_reads_a_long_code(capsys: pytest.CaptureFixture[str]) -> None:
    long = str(twin(FIRST_TP1))
    assert main(["deal", long.lower()]) == 0
    dealt = capsys.readouterr().out
    assert main(["deal", FIRST_TP1]) == 0
    assert capsys.readouterr().out == dealt
    assert main(["solve", long, "--json", "--both-rules"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert [r["code"] for r in solved] == [long, long.replace("TP2-E-", "TP2-C-")]
    assert (
        solved[0]["winnable"] is True
        and solved[0]["final_score"] == solver.solve(FIRST_TP1).final_score
    )
    assert main(["describe", f"{long}-D"]) == 0
    assert "Stock: 24 cards" in capsys.readouterr().out
    assert main(["deal", long[:-1]]) == 1
    assert "a TP2 code ends in 48 letters A-Z, not 47" in capsys.readouterr().err


def test_the_api_reads_a_long_code_with_every_option(client: TestClient) -> None:
    text = f"{twin(FIRST_TP1)}-DJOT"
    assert len(text) == 59
    checked = client.get("/api/code", params={"code": text.lower()})
    assert checked.status_code == 200 and checked.json()["code"] == text
    preview = client.get("/api/preview", params={"code": text, "actions": "draw"})
    assert preview.status_code == 200 and preview.json()["moves"] == 1
    started = client.post("/api/games", json={"code": text})
    assert started.status_code == 201 and started.json()["code"] == text
    assert started.json()["variant"]["joker"] is True
    plain = client.post("/api/games", json={"code": str(twin(FIRST_TP1))}).json()
    hint = client.get(f"/api/games/{plain['id']}/hint?kind=perfect")  # the solver's worker
    assert hint.status_code == 200 and hint.json()["winnable"] is True
    refused = client.get("/api/code", params={"code": "TP2-E-" + "Z" * 48, "lang": "fi"})
    assert refused.status_code == 422 and refused.json()["error"]["reason"] == "invalid_code"
