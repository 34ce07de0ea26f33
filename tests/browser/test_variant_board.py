"""The page draws a game with options as its state says: an empty discard as an empty place, the joker
as a card of its own, every card face up with open peaks (those still covered dimmed, and named so).
The first tests serve the real view's states (tripeaks.web.api.view.game_state) of engine games in place of
the stored game, to show a chosen moment; the last ones choose the options in the New game window and
play whole games through the server as a player would."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect
from tripeaks_page import WIN_CODE, choose, click_line, more_options, moves, no_violations

from tripeaks.engine.game import Action, Game
from tripeaks.i18n.describe import card_name
from tripeaks.solver import streak
from tripeaks.web.api.view import game_state

LOCALES = {"en": "en-US", "fi": "fi-FI", "ca": "ca-ES"}


def show(page: Page, game: Game, lang: str = "en") -> None:
    """Load the page on this game's state (GET /api/games/variant answered with it)."""
    body = game_state(game, lang, game_id="variant").model_dump_json(by_alias=True)

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=body)

    page.route(re.compile(r"/api/games/variant(\?.*)?$"), answer)
    page.evaluate("localStorage.setItem('tripeaks.game', 'variant')")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#code")).to_have_text(str(game.code))


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1440, 900)])
@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_an_empty_discard_and_open_peaks(new_page, artifacts, width, height, lang) -> None:
    page = new_page(code=WIN_CODE, width=width, height=height, locale=LOCALES[lang])
    game = Game.new("TP1-E-AAAAAAB-DO")
    show(page, game, lang)
    discard = page.locator("#discard")
    expect(discard).to_have_class(re.compile(r"\bvacant\b"))
    expected = json.loads(page.request.get(f"/api/i18n/{lang}").text())["messages"][
        "web.discard_empty"
    ]
    expect(discard).to_have_attribute("aria-label", expected)
    # open peaks: every card is shown face up (none drawn as a back), each named, a covered one so
    cards = page.locator("#tableau .card")
    expect(page.locator("#tableau .card.back")).to_have_count(0)
    words = json.loads(page.request.get(f"/api/i18n/{lang}").text())["messages"]
    state = game_state(game, lang, game_id="variant")
    for pos, slot in enumerate(state.tableau):
        assert slot.card is not None
        name = slot.card.name
        if pos in state.blocked:
            name = words["card.covered"].replace("{card}", name)
        expect(page.locator(f"#tableau [data-pos='{pos}']")).to_have_attribute("aria-label", name)
    assert cards.count() == 28
    page.screenshot(path=artifacts / f"variant-DO-{width}x{height}-{lang}.png")
    no_violations(page, f"empty discard, open peaks ({lang})")


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1440, 900)])
def test_the_joker_on_the_discard(new_page, artifacts, width, height) -> None:
    page = new_page(code=WIN_CODE, width=width, height=height)
    game = Game.new("TP1-E-AAAAAAB-J")
    while game.top is None or not game.top.is_joker:
        game.draw()
    show(page, game)
    discard = page.locator("#discard")
    expect(discard).to_have_class(re.compile(r"\bs-j\b"))
    expect(discard.locator(".idx .r").first).to_have_text("★")
    expect(discard).to_have_attribute("aria-label", "Discard: joker")
    if width >= 1000:  # a large card shows the word
        expect(discard.locator(".joker-word")).to_be_visible()
        expect(discard.locator(".joker-word")).to_have_text("JOKER")
    page.screenshot(path=artifacts / f"variant-J-{width}x{height}.png")
    no_violations(page, "joker")


def test_the_new_game_window_shows_only_the_options_offered_and_sends_those_chosen(
    new_page,
) -> None:
    page = new_page(code=WIN_CODE, width=390, height=844)
    dialog = page.locator("#dlg-new")
    # this version offers every option: the window shows the scoring and every variant
    page.get_by_role("button", name="New game").click()
    expect(dialog).to_be_visible()
    more_options(page)  # they are under More options
    expect(page.locator("#new-scoring")).to_be_visible()
    for option in ("open_peaks", "empty_discard", "joker"):
        expect(page.locator(f"[data-option='{option}']")).to_be_visible()
    page.keyboard.press("Escape")
    # a server that offers only some (its /api/rules says so): the window shows those alone
    rules = page.request.get("/api/rules").json()
    assert rules["offered"] == ["empty_discard", "joker", "open_peaks", "traditional"]
    rules["offered"] = ["traditional", "joker", "open_peaks"]

    def offer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(rules))

    asked: list[dict] = []
    page.route(re.compile(r"/api/rules(\?.*)?$"), offer)
    page.on(
        "request",
        lambda r: (
            asked.append(r.post_data_json)
            if r.method == "POST" and r.url.split("?")[0].endswith("/api/games")
            else None
        ),
    )
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.get_by_role("button", name="New game").click()
    more_options(page)
    expect(page.locator("#new-scoring")).to_be_visible()
    expect(page.locator("[data-option='joker']")).to_be_visible()
    expect(page.locator("[data-option='empty_discard']")).to_be_hidden()
    no_violations(page, "new game window with options")
    dialog.get_by_label(re.compile("Traditional:")).check()
    dialog.get_by_label(re.compile("Joker:")).check()
    dialog.get_by_role("button", name="Deal").click()
    expect(dialog).to_be_hidden()
    assert asked[-1] == {
        "rules": "easy",
        "winnable_only": False,
        "difficulty": "any",
        "scoring": "traditional",
        "open_peaks": False,
        "joker": True,
        "layout": "three_peaks",
    }
    expect(page.locator("#code")).to_have_text(re.compile(r"^TP1-E-[A-Z]{7}-JT$"))
    expect(page.locator("#score")).to_have_text("0")
    # remembered: the window opens again on the same choices, More options open to show them
    page.get_by_role("button", name="New game").click()
    expect(dialog.locator("#new-more")).to_have_attribute("open", "")
    expect(dialog.get_by_label(re.compile("Joker:"))).to_be_checked()
    expect(dialog.get_by_label(re.compile("Traditional:"))).to_be_checked()


BEST_WIN = "TP1-C-OHYPLZE-DJT"
"""Classic, an empty discard, a joker, the traditional scoring: its best score (119) is a win."""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390), (1440, 900)])
def test_a_traditional_game_with_a_joker_and_an_empty_discard_is_won_by_clicking(
    new_page, artifacts, width, height
) -> None:
    """Chosen in the New game window by its code, played card by card and draw by draw: the score
    counts each streak up, the joker is drawn and played on, and the win says it was the best."""
    page = new_page(code=WIN_CODE, width=width, height=height)
    page.get_by_role("button", name="New game").click()
    dialog = more_options(page)
    dialog.locator("#new-code").fill(BEST_WIN.lower())
    dialog.get_by_role("button", name="Deal").click()
    expect(page.locator("#code")).to_have_text(BEST_WIN)
    expect(page.locator("#discard")).to_have_class(re.compile(r"\bvacant\b"))
    expect(page.locator("#score")).to_have_text("0")
    game = Game.new(BEST_WIN)

    def landed(action: Action) -> None:
        game.apply(action)
        expect(page.locator("#score")).to_have_text(str(game.score))
        if game.top is not None and game.top.is_joker:
            expect(page.locator("#discard")).to_have_class(re.compile(r"\bs-j\b"))
            page.screenshot(path=artifacts / f"variant-DJT-joker-{width}x{height}.png")

    click_line(page, BEST_WIN, list(streak.best_score(BEST_WIN).line), each=landed)
    assert game.is_won and game.score == 119
    expect(page.locator("#dlg-win")).to_be_visible()
    expect(page.locator("#win-result")).to_have_text(
        "That is the best score this deal allows.", timeout=30_000
    )
    page.screenshot(path=artifacts / f"variant-DJT-win-{width}x{height}.png")
    no_violations(page, "a traditional win")


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_open_peaks_shows_the_covered_cards_dimmed_and_says_so(new_page, artifacts, lang) -> None:
    code = "TP1-E-AAAAAAB-O"
    page = new_page(code=code, width=390, height=844, locale=LOCALES[lang])
    words = json.loads(page.request.get(f"/api/i18n/{lang}").text())["messages"]
    game = Game.new(code)
    blocked = page.locator("#tableau .card.blocked")
    expect(blocked).to_have_count(18)  # all but the bottom row's ten
    expect(page.locator("#tableau .card.free")).to_have_count(10)
    covered = game.deal.tableau[0]
    expect(page.locator("#tableau [data-pos='0']")).to_have_attribute(
        "aria-label", words["card.covered"].replace("{card}", card_name(covered, lang))
    )
    # a covered card refuses a tap and stays; the board says nothing was played
    page.locator("#tableau [data-pos='0']").click()
    expect(moves(page)).to_have_text("0")
    page.screenshot(path=artifacts / f"variant-O-{lang}-390x844.png")
    no_violations(page, f"open peaks ({lang})")


def test_a_hint_under_the_traditional_scoring_where_no_win_is_left(new_page) -> None:
    # the perfect hint's answer (a fair hint names a chance: test_explain_page.py)
    page = new_page(
        code="TP1-C-EYVQHJU-T", width=1280, height=800, settings={"tripeaks.hint_kind": "perfect"}
    )
    page.keyboard.press("h")
    expect(page.locator("#toast")).to_contain_text("no win is left from here; for the most points")
    expect(page.locator("#tableau .card.hinted, #stock.hinted")).to_have_count(1)


def test_statistics_keep_a_kind_of_game_with_options_apart(new_page, artifacts) -> None:
    """A Classic game under the traditional scoring, stuck after drawing the whole stock (23 draws,
    the score held at 0: it never goes below) and left: counted in a table of its own, not in
    Classic's."""
    code = "TP1-C-AAAAAAH-T"
    page = new_page(code=code, width=390, height=844)
    for n in range(1, 24):
        page.keyboard.press("d")
        expect(moves(page)).to_have_text(str(n))
        expect(page.locator("#score")).to_have_text("0")
    expect(page.locator("#stuck")).to_be_visible()
    page.locator("#stuck").get_by_role("button", name="New game").click()
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Start a new game").click()
    expect(page.locator("#code")).not_to_have_text(code)
    choose(page, "Statistics")
    stats = page.locator("#dlg-stats")
    tables = stats.locator("table.stats-grid")
    expect(tables).to_have_count(2)
    standard, kind = tables.nth(0), tables.nth(1)
    expect(standard.get_by_role("row", name="Games played")).to_have_text("Games played00")
    expect(kind.get_by_role("columnheader")).to_have_text("Classic · traditional scoring")
    expect(kind.get_by_role("row", name="Games played")).to_contain_text("1")
    expect(kind.get_by_role("row", name="Best score")).to_have_text(re.compile(r"^Best score\s*0$"))
    page.screenshot(path=artifacts / "variant-stats-390x844.png")
    no_violations(page, "statistics with a kind of game apart")
