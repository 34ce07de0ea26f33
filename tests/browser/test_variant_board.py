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
