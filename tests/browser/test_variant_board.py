"""The page draws a game with options as its state says: an empty discard as an empty place, the joker
as a card of its own, every card face up with open peaks. The server does not offer these games yet
(codes.OFFERED), so the states are the real view's (tripeaks.web.view.game_state) of engine games,
served to the page in place of its stored game."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, Route, expect
from tripeaks_page import WIN_CODE, no_violations

from tripeaks.game import Game
from tripeaks.web.view import game_state

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
    # open peaks: every card is shown face up (none drawn as a back), each named
    cards = page.locator("#tableau .card")
    expect(page.locator("#tableau .card.back")).to_have_count(0)
    for pos, slot in enumerate(game_state(game, lang, game_id="variant").tableau):
        assert slot.card is not None
        expect(page.locator(f"#tableau [data-pos='{pos}']")).to_have_attribute(
            "aria-label", slot.card.name
        )
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
    # this version offers none yet: the window shows no scoring and no variant
    page.get_by_role("button", name="New game").click()
    expect(dialog).to_be_visible()
    expect(page.locator("#new-scoring")).to_be_hidden()
    expect(page.locator("#new-options")).to_be_hidden()
    page.keyboard.press("Escape")
    # a server that offers them (its /api/rules says so): the window shows them, remembers them, and a
    # new game asks for what was chosen; the refusal of this server is said in the window
    rules = page.request.get("/api/rules").json()
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
    expect(page.locator("#new-scoring")).to_be_visible()
    expect(page.locator("[data-option='joker']")).to_be_visible()
    expect(page.locator("[data-option='empty_discard']")).to_be_hidden()
    no_violations(page, "new game window with options")
    dialog.get_by_label(re.compile("Traditional:")).check()
    dialog.get_by_label(re.compile("Joker:")).check()
    dialog.get_by_role("button", name="Deal").click()
    expect(page.locator("#new-error")).to_have_text(
        "These options are not offered yet: joker, traditional scoring."
    )
    assert asked[-1] == {
        "rules": "easy",
        "winnable_only": False,
        "scoring": "traditional",
        "open_peaks": False,
        "joker": True,
    }
    # remembered: the window opens again on the same choices
    page.keyboard.press("Escape")
    page.get_by_role("button", name="New game").click()
    expect(dialog.get_by_label(re.compile("Joker:"))).to_be_checked()
    expect(dialog.get_by_label(re.compile("Traditional:"))).to_be_checked()
