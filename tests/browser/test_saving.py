"""Nothing the player did is lost: a write the server cannot save (503) or that gets no reply is sent
again, the same request, until it is taken; every write the page sends is JSON."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, Request, Route, expect
from tripeaks_page import EXAMPLE_CODE, card, choose, moves, name_at, stock

from tripeaks.i18n import messages

UNAVAILABLE = json.dumps(
    {"error": {"reason": "unavailable", "message": "The game could not be saved."}, "state": None}
)


def server_state(page: Page) -> dict:
    game_id = page.evaluate("localStorage.getItem('tripeaks.game')")
    reply = page.request.get(f"/api/games/{game_id}")
    assert reply.ok, reply.text()
    return reply.json()


def refuse_first(page: Page, pattern: str, answers: list[str]) -> list[dict]:
    """Route ``pattern``: the first requests get ``answers`` in turn ("503", or "abort": no reply at
    all), the later ones go through. Returns every body the page sent there, in order."""
    bodies: list[dict] = []

    def handle(route: Route) -> None:
        bodies.append(json.loads(route.request.post_data or "null"))
        answer = answers[len(bodies) - 1] if len(bodies) <= len(answers) else "through"
        if answer == "503":
            route.fulfill(
                status=503,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body=UNAVAILABLE,
            )
        elif answer == "abort":
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route(pattern, handle)
    return bodies


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_a_play_the_server_cannot_save_is_sent_again_until_it_is_taken(new_page, lang):
    page = new_page(code=EXAMPLE_CODE, settings={"tripeaks.lang": lang})
    bodies = refuse_first(page, "**/api/games/*/play*", ["503", "503"])
    notice = page.locator("#saving")
    expect(notice).to_be_hidden()
    card(page, name_at(EXAMPLE_CODE, [], 21, lang)).click()
    expect(notice).to_be_visible()
    expect(notice).to_have_text(messages(lang)["web.saving_retry"])
    expect(moves(page)).to_have_text("1")
    expect(notice).to_be_hidden()
    # the same request three times (so the same request_id), applied once
    assert len(bodies) == 3, bodies
    assert bodies[0] == bodies[1] == bodies[2]
    assert bodies[0]["pos"] == 21 and bodies[0]["version"] == 0 and bodies[0]["request_id"]
    game = server_state(page)
    assert (game["version"], game["moves"], game["score"]) == (1, 1, 499)
    expect(page.locator("#score")).to_have_text("499")


def test_a_tap_made_while_saving_waits_behind_it(new_page):
    page = new_page(code=EXAMPLE_CODE)
    plays = refuse_first(page, "**/api/games/*/play*", ["503", "abort"])
    draws = refuse_first(page, "**/api/games/*/draw*", [])
    card(page, "king of clubs").click()
    expect(page.locator("#saving")).to_be_visible()
    stock(page).click()  # sent only once the play is taken, with the version its reply brought
    expect(moves(page)).to_have_text("2")
    expect(page.locator("#saving")).to_be_hidden()
    assert len(plays) == 3 and plays[0] == plays[1] == plays[2]
    assert len(draws) == 1 and draws[0]["version"] == 1
    game = server_state(page)
    assert (game["version"], game["moves"], game["stock_size"]) == (2, 2, 22)
    expect(stock(page)).to_have_accessible_name("Stock, 22 cards")


def test_every_write_the_page_sends_is_json(new_page):
    page = new_page(code=EXAMPLE_CODE)
    writes: list[Request] = []
    page.on("request", lambda r: writes.append(r) if r.method not in ("GET", "HEAD") else None)
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    stock(page).click()
    expect(moves(page)).to_have_text("2")
    page.keyboard.press("u")
    expect(stock(page)).to_have_accessible_name("Stock, 23 cards")
    page.keyboard.press("n")
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Start a new game").click()
    expect(page.locator("#code")).not_to_have_text(EXAMPLE_CODE)
    choose(page, "Statistics")
    page.locator("#dlg-stats").get_by_role("button", name="Reset statistics").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Reset").click()
    expect(page.locator("#dlg-stats")).to_contain_text("No finished games yet.")
    sent = {(r.method, r.url.split("?")[0].rsplit("/", 1)[-1]) for r in writes}
    assert {("POST", "play"), ("POST", "draw"), ("POST", "undo"), ("POST", "games")} <= sent
    assert ("DELETE", "stats") in sent
    for r in writes:
        assert r.header_value("content-type") == "application/json", (r.method, r.url)
        assert isinstance(json.loads(r.post_data or ""), dict), (r.method, r.url, r.post_data)
