"""Codes carry the layout (issue 38, docs/deal-format.md "Layouts"): a layout's word follows the
format, every code written before is Three Peaks and deals the same cards forever, a malformed or
unknown layout is a clear error. Every layout is offered; the guard stays for a layout still being
built: with one left out of codes.OFFERED_LAYOUTS, every door refuses it in the player's language,
changing nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_api_support import WIN_CODE, new_game, refused_by_command, send

from tripeaks.cli.main import main
from tripeaks.engine import codes
from tripeaks.engine.codes import GameCode, InvalidCode, NotOffered, deal, offered
from tripeaks.engine.game import DRAW, Game
from tripeaks.engine.layout import THREE_PEAKS
from tripeaks.engine.layouts import BY_WORD, LAYOUTS, VALLEY
from tripeaks.i18n import refusal

OTHERS = [layout for layout in LAYOUTS if layout is not THREE_PEAKS]


@pytest.mark.parametrize("layout", OTHERS, ids=lambda layout: layout.id)
@pytest.mark.parametrize(
    "text", ["TP1-{w}-E-AAAAAAB", "tp1-{w}-c-qwertyu-tj", "TP2-{w}-E-" + "A" * 48]
)
def test_a_code_names_its_layout_and_reads_back(layout, text) -> None:
    code = GameCode.parse(text.format(w=layout.word.lower() if text.islower() else layout.word))
    assert code.layout is layout
    assert str(code).split("-")[1] == layout.word
    assert GameCode.parse(str(code)) == code
    assert Game.new(code).layout is layout


def test_every_layout_has_its_own_word() -> None:
    assert {layout.word for layout in LAYOUTS} == set(BY_WORD)
    assert len(BY_WORD) == len(LAYOUTS)
    assert all(word.isalpha() and word.isupper() and len(word) >= 2 for word in BY_WORD)
    assert VALLEY.word == "VALLEY" and BY_WORD["UPANDDOWN"].id == "up_and_down"


def test_every_code_written_before_is_three_peaks_with_the_same_cards() -> None:
    for text in ("TP1-E-AAAAAAB", "TP1-C-ZZZZZZZ-DJOT", "TP1-N-ABCDEFG"):
        code = GameCode.parse(text)
        assert code.layout is THREE_PEAKS and str(code) == text.replace("-N-", "-E-")
    # the explicit word is the same code, written the canonical way (without it)
    named = GameCode.parse("TP1-THREEPEAKS-E-AAAAAAB")
    assert named == GameCode.parse("TP1-E-AAAAAAB") and str(named) == "TP1-E-AAAAAAB"
    assert deal(named) == deal("TP1-E-AAAAAAB")


@pytest.mark.parametrize("layout", OTHERS, ids=lambda layout: layout.id)
def test_a_layouts_deal_is_the_same_shuffle_cut_at_its_size(layout) -> None:
    """The first n cards of the shuffle to a table of n, the next to the discard, the rest to the
    stock: the deck is the code's, whatever the layout."""
    plain = GameCode.parse("TP1-E-QWERTYU")
    on = GameCode.parse(f"TP1-{layout.word}-E-QWERTYU")
    assert on.deck() == plain.deck()
    cards = deal(plain, THREE_PEAKS)
    order = [*cards.tableau, cards.discard, *cards.stock]
    dealt = deal(on)
    assert len(dealt.tableau) == layout.size and len(dealt.stock) == 51 - layout.size >= 16
    assert [*dealt.tableau, dealt.discard, *dealt.stock] == order


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("TP1-HILLS-E-AAAAAAB", "the layouts are BRIDGE, DIAMONDS"),
        ("TP1-VALLEY-X-AAAAAAB", "the rules letter must be E"),
        ("TP1-VALLEY-E-AAAAAB", "ends in 7 letters"),
        ("TP1-VAL1EY-E-AAAAAAB", "looks like TP1-E-AAAAAAB"),
        ("TP1-VALLEY--E-AAAAAAB", "looks like TP1-E-AAAAAAB"),
    ],
)
def test_a_malformed_or_unknown_layout_is_a_clear_error(text: str, says: str) -> None:
    with pytest.raises(InvalidCode, match=says):
        GameCode.parse(text)


REFUSAL = {
    "en": "This code is for the Valley table, which is not offered yet."
    " The same deal on Three Peaks is TP1-C-AAAAAAB-J.",
    "fi": "Tämä koodi on pöydälle Laakso, jota ei vielä tarjota."
    " Sama jako Kolmella huipulla on TP1-C-AAAAAAB-J.",
    "ca": "Aquest codi és per a la taula Vall, que encara no s’ofereix."
    " El mateix repartiment a Tres pics és TP1-C-AAAAAAB-J.",
}
CODE = "tp1-valley-c-aaaaaab-j"


@pytest.fixture
def no_valley(monkeypatch: pytest.MonkeyPatch) -> None:
    """This version as if Valley were still being built."""
    monkeypatch.setattr(codes, "OFFERED_LAYOUTS", tuple(x for x in LAYOUTS if x is not VALLEY))


def test_every_layout_is_offered() -> None:
    assert codes.OFFERED_LAYOUTS == LAYOUTS
    for layout in LAYOUTS:
        code = GameCode.from_number(1, layout=layout)
        assert offered(code) is code


@pytest.mark.usefixtures("no_valley")
@pytest.mark.parametrize("lang", sorted(REFUSAL))
def test_a_layout_not_offered_yet_is_refused_in_the_players_language(lang: str) -> None:
    with pytest.raises(NotOffered) as refused:
        offered(GameCode.parse(CODE))
    assert refusal(refused.value, lang) == REFUSAL[lang]
    assert offered(GameCode.parse("TP1-C-AAAAAAB-J")).layout is THREE_PEAKS


NEW_REFUSAL = {
    "en": "The Valley table is not offered yet.",
    "fi": "Pöytää Laakso ei vielä tarjota.",
    "ca": "La taula Vall encara no s’ofereix.",
}


@pytest.mark.usefixtures("no_valley")
@pytest.mark.parametrize("lang", sorted(REFUSAL))
def test_a_new_game_on_a_layout_not_offered_changes_nothing(client: TestClient, lang: str) -> None:
    state = new_game(client, WIN_CODE, lang)
    state = send(client, state, DRAW).json()
    reply = client.post(f"/api/games?lang={lang}", json={"code": CODE})
    assert reply.status_code == 422
    assert reply.json()["error"] == {"reason": "options_not_offered", "message": REFUSAL[lang]}
    game = client.get(f"/api/games/{state['id']}").json()
    assert game["version"] == 1 and game["status"] == "playing"
    for path in (f"/api/code?code={CODE}", f"/api/preview?code={CODE}&actions=draw"):
        refused = client.get(path + f"&lang={lang}")
        assert refused.status_code == 422, path
        assert refused.json()["error"]["message"] == REFUSAL[lang]
    chosen = client.post(f"/api/games?lang={lang}", json={"layout": "valley"})
    assert chosen.status_code == 422
    assert chosen.json()["error"] == {"reason": "options_not_offered", "message": NEW_REFUSAL[lang]}
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 1


@pytest.mark.usefixtures("no_valley")
@pytest.mark.parametrize("command", ["play", "solve"])
def test_the_commands_that_need_the_solver_refuse_a_layout_not_offered(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    err = refused_by_command([command, CODE], "ca_ES.UTF-8", capsys, monkeypatch)
    assert REFUSAL["ca"] in err


LAYOUT_VECTOR = re.compile(
    r"^### Layout vector: `(?P<code>[^`]+)`\n(?P<intro>.*?)^```text\n(?P<body>.*?)^```",
    re.MULTILINE | re.DOTALL,
)
DOC = (Path(__file__).resolve().parents[1] / "docs" / "deal-format.md").read_text(encoding="utf-8")
VECTORS = {m["code"]: m["body"] for m in LAYOUT_VECTOR.finditer(DOC)}


def test_the_document_has_a_vector_for_most_layouts() -> None:
    named = {GameCode.parse(code).layout for code in VECTORS}
    assert len(VECTORS) >= 6 and len(named) >= 6 and THREE_PEAKS not in named


@pytest.mark.parametrize("code", sorted(VECTORS))
def test_every_card_of_every_layout_vector_is_what_the_code_deals(code: str) -> None:
    lines = VECTORS[code].rstrip("\n").split("\n")
    parsed = GameCode.parse(code)
    rows = parsed.layout.rows
    labels = [line.split(":", 1)[0] for line in lines]
    assert labels == [f"row {i}" for i in range(1, len(rows) + 1)] + ["discard", "stock, top first"]
    listed = [line.split(":", 1)[1].split() for line in lines]
    dealt = deal(parsed)
    for i, positions in enumerate(rows):
        assert listed[i] == [str(dealt.tableau[p]) for p in positions], f"{code} row {i + 1}"
    discard = listed[len(rows)]
    assert discard == (["empty"] if dealt.discard is None else [str(dealt.discard)])
    assert listed[-1] == [str(c) for c in dealt.stock]


def test_the_deal_command_deals_any_layout_as_its_vector_writes_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`tripeaks deal` needs the engine alone: it prints a layout's deal, row by row of the layout,
    exactly as the document's vector (and still refuses an unknown layout)."""
    for code in sorted(VECTORS):
        assert main(["deal", code]) == 0
        assert capsys.readouterr().out == VECTORS[code]
    assert main(["deal", "TP1-HILLS-E-AAAAAAB"]) == 1
    assert "the layouts are" in capsys.readouterr().err


ROWS_TABLE = re.compile(r"^\| `(?P<id>[a-z_]+)` \| `(?P<rows>[^`]+)` \|$", re.MULTILINE)
RULES = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda layout: layout.id)
@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_every_layout_is_said_row_by_row_in_every_language(layout, lang: str) -> None:
    """The screen-reader sentence names every card of any layout, its rows from the top, each left
    to right (docs/rules.md §7), with a pattern of the layout's own in each language."""
    from tripeaks.i18n import translator
    from tripeaks.i18n.describe import card_name, describe

    pattern = translator(lang)(f"board.description.{layout.id}")
    wanted = {"stock", "discard", *(f"row{n}" for n in range(1, len(layout.rows) + 1))}
    assert set(re.findall(r"{(\w+)}", pattern)) == wanted, pattern
    game = Game.new(GameCode.parse("TP1-E-QWERTYU"), layout)
    said = describe(game, lang)
    shown = [game.deal.tableau[p] for p in layout.reading_order if game.is_face_up(p)]
    at = 0
    for card in shown:  # every face-up card, in reading order
        at = said.index(card_name(card, lang), at) + 1
    if lang == "en" and layout is not THREE_PEAKS:
        written = {m["id"]: m["rows"] for m in ROWS_TABLE.finditer(RULES)}
        assert pattern == "Stock: {stock}; discard: {discard}. " + written[layout.id]


def test_the_describe_command_says_any_layout(capsys: pytest.CaptureFixture[str]) -> None:
    from tripeaks.i18n.describe import describe

    assert main(["describe", "TP1-VALLEY-E-AAAAAAB", "--lang", "ca"]) == 0
    assert capsys.readouterr().out.strip() == describe(Game.new("TP1-VALLEY-E-AAAAAAB"), "ca")


def test_the_api_lists_every_layout_with_its_geometry(client: TestClient) -> None:
    """GET /api/layouts: every layout the engine knows, Three Peaks first, its word, name, size and
    places; every one offered. Three Peaks' places are GET /api/layout's positions."""
    reply = client.get("/api/layouts?lang=fi")
    assert reply.status_code == 200
    listed = reply.json()["layouts"]
    assert [entry["id"] for entry in listed] == [layout.id for layout in LAYOUTS]
    assert all(entry["offered"] for entry in listed)
    valley = listed[[layout.id for layout in LAYOUTS].index("valley")]
    assert (valley["word"], valley["name"], valley["cards"], valley["stock"]) == (
        "VALLEY",
        "Laakso",
        33,
        18,
    )
    for entry, layout in zip(listed, LAYOUTS, strict=True):
        assert len(entry["places"]) == layout.size and entry["groups"] == len(layout.groups)
        for place in entry["places"]:
            assert place["covered_by"] == list(layout.covered_by[place["pos"]])
            assert place["group"] == layout.group_of[place["pos"]]
    old = client.get("/api/layout").json()["positions"]
    three = listed[0]["places"]
    for before, now in zip(old, three, strict=True):
        assert {k: before[k] for k in ("pos", "row", "index", "covered_by", "x", "y")} == {
            k: now[k] for k in ("pos", "row", "index", "covered_by", "x", "y")
        }
        assert before["peak"] == now["group"]
