"""The page draws what the server says and decides none of it: the scoring table, whether leaving counts
as a loss, whether a win reached the best score, where the focus goes, and a game left for another one."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Page, Route, expect
from tripeaks_page import EXAMPLE_CODE, card, moves, no_violations, stock, toast

from tripeaks.i18n import messages


def rewrite_game(page: Page, change: Callable[[dict], None]) -> None:
    """GET /api/games/{id} replies pass through ``change`` before the page sees them."""

    def handle(route: Route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        reply = route.fetch()
        body = reply.json()
        change(body)
        route.fulfill(response=reply, body=json.dumps(body))

    page.route(re.compile(r"/api/games/[^/?]+\?"), handle)


def test_the_scoring_table_is_the_one_the_server_sends(new_page):
    page = new_page(settings={"tripeaks.lang": "fi"})
    rules = page.request.get("/api/rules").json()
    assert [row["points"] for row in rules["scoring"]] == [-1, -1, 100]
    rules["scoring"][2]["points"] = 250
    page.route("**/api/rules", lambda route: route.fulfill(json=rules))
    page.keyboard.press("?")
    rows = page.locator("#help-scoring-ours tbody tr")
    expect(rows).to_have_count(3)
    words = messages("fi")
    expect(rows.nth(0)).to_have_text(f"{words['help.scoring.remove']}\u22121")
    expect(rows.nth(2)).to_have_text(f"{words['help.scoring.peak']}+250")


def test_the_traditional_table_and_its_sentences_are_the_servers_numbers(new_page):
    page = new_page(settings={"tripeaks.lang": "ca"})
    rules = page.request.get("/api/rules").json()
    rules["traditional"] = {"start": 10, "draw": -7, "peaks": [20, 25, 40], "best": 526}
    page.route("**/api/rules", lambda route: route.fulfill(json=rules))
    page.keyboard.press("?")
    page.locator("#help-scoring-title").click()
    rows = page.locator("#help-scoring-traditional tbody tr")
    words = messages("ca")
    expect(rows).to_have_count(6)
    expect(rows.nth(0)).to_have_text(f"{words['help.scoring.t_start']}10")
    expect(rows.nth(2)).to_have_text(f"{words['help.scoring.t_draw']}\u22127")
    expect(rows.nth(3)).to_have_text(f"{words['help.scoring.t_peak1']}+20")
    expect(rows.nth(4)).to_have_text(f"{words['help.scoring.t_peak2']}+25")
    expect(rows.nth(5)).to_have_text(f"{words['help.scoring.t_peak3']}+40")
    body = page.locator("#help-scoring-body")
    expect(body).to_contain_text(words["help.scoring.traditional"].format(start=10))
    best = words["help.scoring.traditional_after"].split("\n\n")[0]
    expect(body).to_contain_text(best.format(cards=28, bonus=85, best=526))


def test_the_confirmation_asks_when_the_server_says_leaving_counts_as_a_loss(new_page):
    page = new_page(code=EXAMPLE_CODE)
    rewrite_game(page, lambda game: game.update(leaving_counts_as_loss=True))
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(moves(page)).to_have_text("0")  # no move, yet the server says it would count
    page.keyboard.press("n")
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    expect(page.locator("#dlg-confirm")).to_be_visible()
    page.locator("#dlg-confirm").get_by_role("button", name="Keep playing").click()
    expect(page.locator("#code")).to_have_text(EXAMPLE_CODE)


def test_a_win_is_the_best_score_only_when_the_server_says_so(new_page):
    page = new_page(code=EXAMPLE_CODE)

    def won(game: dict) -> None:
        game.update(status="won", playable=[], can_draw=False, leaving_counts_as_loss=False)
        game["result"] = {"winnable": True, "best_score": game["score"], "best_reached": False}

    rewrite_game(page, won)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#dlg-win")).to_be_visible()
    # the score equals best_score, but best_reached is false: the page does not compare them itself
    expect(page.locator("#win-result")).to_have_text(
        messages("en")["web.result.best"].replace("{best}", "500")
    )


def test_after_a_removal_the_focus_goes_where_the_server_says_a_move_is(new_page):
    page = new_page(code=EXAMPLE_CODE)
    card(page, "king of clubs").focus()
    page.keyboard.press("Enter")
    expect(moves(page)).to_have_text("1")
    expect(card(page, "ace of diamonds")).to_be_focused()  # the one card that can be played now
    page.keyboard.press("Enter")
    expect(moves(page)).to_have_text("2")
    expect(card(page, "2 of clubs")).to_be_focused()  # the nearer of the two that can be played
    card(page, "king of hearts").click()
    expect(moves(page)).to_have_text("3")
    expect(stock(page)).to_be_focused()  # nothing can be played: the stock can be drawn from


def test_a_game_continued_in_another_tab_is_loaded_here(new_page):
    page = new_page(code=EXAMPLE_CODE)
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    other = page.context.new_page()
    other.goto("/")
    other.wait_for_selector("body[data-ready]")
    expect(other.locator("#code")).to_have_text(EXAMPLE_CODE)
    other.keyboard.press("n")
    other.locator("#dlg-new").get_by_role("button", name="Deal").click()
    other.locator("#dlg-confirm").get_by_role("button", name="Start a new game").click()
    expect(other.locator("#code")).not_to_have_text(EXAMPLE_CODE)
    newer = other.locator("#code").inner_text()
    # the first tab still shows the game it was playing; its next move is refused, and it follows
    stock(page).click()
    expect(page.locator("#code")).to_have_text(newer)
    expect(toast(page)).to_have_text(messages("en")["web.continued_elsewhere"])
    expect(page.locator("#live")).to_have_text(messages("en")["web.continued_elsewhere"])
    expect(moves(page)).to_have_text("0")  # the draw was meant for the other game: not applied here
    expect(page.locator("#left")).to_be_hidden()
    expect(stock(page)).to_have_accessible_name("Stock, 23 cards")


def test_a_game_left_for_another_shows_a_notice_instead_of_a_board(new_page, artifacts):
    page = new_page(code=EXAMPLE_CODE, width=390, height=844)
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    # a new game started where this page never heard of it (its reply lost): this one is left
    assert page.request.post("/api/games", data={}).status == 201
    page.reload()
    page.wait_for_selector("body[data-ready]")
    notice = page.locator("#left")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(messages("en")["web.left.text"])
    expect(notice.get_by_role("button", name="New game")).to_be_focused()
    expect(page.locator("#tableau [aria-disabled='true']:not([hidden])")).to_have_count(27)
    expect(stock(page)).to_have_attribute("aria-disabled", "true")
    page.screenshot(path=artifacts / "left-390x844.png")
    no_violations(page, "left notice")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    card(page, "ace of diamonds").click(
        force=True
    )  # force: Playwright itself will not click a disabled one
    stock(page).click(force=True)
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("1")
    assert sent == []  # a board only shown sends no move
    notice.get_by_role("button", name="New game").click()
    page.locator("#dlg-new").get_by_role(
        "button", name="Deal"
    ).click()  # no question: nothing to lose
    expect(page.locator("#code")).not_to_have_text(EXAMPLE_CODE)
    expect(notice).to_be_hidden()
    expect(page.locator("#tableau [aria-disabled]")).to_have_count(0)
    expect(moves(page)).to_have_text("0")
