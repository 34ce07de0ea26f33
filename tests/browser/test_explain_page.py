"""Issue 16 in the page: the kind of hint, New game's difficulty, the review after a game and the replay
view that shows a winning line without changing the game, the statistics per grade; axe on each."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Request, Route, expect
from tripeaks_page import (
    EXAMPLE_CODE,
    WIN_CODE,
    choose,
    more_options,
    no_violations,
    open_settings,
    winning_line,
)

from tripeaks.engine.game import DRAW, Action, Game, Status
from tripeaks.i18n import messages
from tripeaks.solver import explain, solve

LOST_CODE = "TP1-E-AAAAAAD"
"""A winnable deal; lost_line() leaves it stuck a few moves before the end of a best win."""
EN = messages("en")
SIZES = [(360, 640), (390, 844), (844, 390), (1440, 900)]


def lost_line(code: str) -> list[Action]:
    """A best win followed nearly to its end, then drawing instead of playing on until the game is
    stuck: a game lost late, so that the replay from where it was lost is short (five moves or more)."""
    line = list(solve(code).line)
    for k in range(len(line) - 1, 0, -1):
        game = Game.replay(code, line[:k])
        if line[k] == DRAW or not game.can_draw:
            continue
        played = line[:k]
        while game.status is Status.PLAYING and game.can_draw:
            game.apply(DRAW)
            played.append(DRAW)
        at = explain.lost_at(game) if game.status is Status.STUCK else None
        if at is not None and len(at.win) >= 5:
            return played
    raise AssertionError(f"no lost line for {code}")


def play_by_api(page: Page, line: list[Action]) -> None:
    """Play ``line`` on the page's game through the API (the page is then reloaded by the caller)."""
    game_id = page.evaluate("localStorage.getItem('tripeaks.game')")
    version = 0
    for action in line:
        kind = "draw" if action.pos is None else "play"
        body: dict[str, Any] = {"version": version}
        if action.pos is not None:
            body["pos"] = action.pos
        reply = page.request.post(f"/api/games/{game_id}/{kind}", data=body)
        assert reply.ok, reply.text()
        version = reply.json()["version"]


def reload_with_review(page: Page, words: dict[str, str] = EN) -> dict[str, Any]:
    """Reload the page on its finished game; the review the page asked for, as the server sent it.
    A stuck game that an undo can save is reviewed only when asked (it counts as a perfect hint):
    then "Where was it lost?" is pressed, and its question answered yes."""
    game_id = page.evaluate("localStorage.getItem('tripeaks.game')")
    game = page.request.get(f"/api/games/{game_id}").json()
    if game["status"] == "stuck" and game["can_undo"]:
        page.reload()
        page.wait_for_selector("body[data-ready]")
        return ask_for_review(page, words)
    with page.expect_response(lambda r: "/review" in r.url and r.ok, timeout=30_000) as reply:
        page.reload()
    page.wait_for_selector("body[data-ready]")
    return reply.value.json()


def ask_for_review(page: Page, words: dict[str, str] = EN) -> dict[str, Any]:
    """ "Where was it lost?" on the stuck notice, and yes to the question it asks first."""
    ask = page.locator("#stuck-ask-review")
    expect(ask).to_be_visible()
    ask.click()
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_contain_text(words["web.review.ask_text"])
    with page.expect_response(lambda r: "/review" in r.url and r.ok, timeout=30_000) as reply:
        confirm.get_by_role("button", name=words["web.review.ask_yes"]).click()
    expect(ask).to_be_hidden()
    return reply.value.json()


def writes(page: Page) -> list[str]:
    """Every request the page sends from now on that is not a GET (none may come from a replay)."""
    sent: list[str] = []

    def seen(request: Request) -> None:
        if request.method != "GET":
            sent.append(f"{request.method} {request.url}")

    page.on("request", seen)
    return sent


def counter(page: Page):
    return page.locator("#replay-step")


def step_text(n: int, total: int) -> str:
    if n == 0:
        return EN["web.replay.at_start"].format(total=total)
    return EN["web.replay.step"].format(n=n, total=total)


# ---- Hints -------------------------------------------------------------------------------


def test_a_fair_hint_by_default_and_a_perfect_one_remembered(new_page):
    page = new_page(code=EXAMPLE_CODE)
    with page.expect_response(lambda r: "/hint" in r.url) as reply:
        page.keyboard.press("h")
    assert "kind=fair" in reply.value.url
    hint = reply.value.json()
    assert hint["kind"] == "fair" and hint["winnable"] is None
    assert 0 < hint["chance"] < 1 and hint["samples"] == 1000
    # the server's sentence, which says what the chance is as a whole percent, where hints show
    # and is said
    percent = round(hint["chance"] * 100)
    assert f"following the hints from here wins about {percent}% of the time" in hint["message"]
    expect(page.locator("#toast")).to_have_text(hint["message"])
    expect(page.locator("#live")).to_have_text(hint["message"])
    expect(page.locator(".hinted")).to_have_count(1)

    dialog = open_settings(page)
    fair = dialog.get_by_role("radio", name=EN["web.settings.hint_fair"], exact=True)
    perfect = dialog.get_by_role("radio", name=EN["web.settings.hint_perfect"], exact=True)
    expect(fair).to_be_checked()
    expect(fair).to_have_accessible_description(EN["web.settings.hint_fair_help"])
    expect(perfect).to_have_accessible_description(EN["web.settings.hint_perfect_help"])
    perfect.check()
    dialog.get_by_role("button", name="Close").click()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(open_settings(page).get_by_role("radio", name="Perfect", exact=True)).to_be_checked()
    page.keyboard.press("Escape")
    with page.expect_response(lambda r: "/hint" in r.url) as reply:
        page.keyboard.press("h")
    assert "kind=perfect" in reply.value.url
    hint = reply.value.json()
    assert hint["kind"] == "perfect" and hint["chance"] is None and hint["winnable"] is True
    expect(page.locator("#toast")).to_have_text(hint["message"])
    expect(page.locator("#live")).to_have_text(hint["message"])


# ---- A lost game and its replay ------------------------------------------------------------


def test_a_lost_game_says_where_and_shows_the_win_from_there(new_page, artifacts):
    line = lost_line(LOST_CODE)
    lost = Game.replay(LOST_CODE, line)
    at = explain.lost_at(lost)
    assert at is not None
    page = new_page(code=LOST_CODE)
    play_by_api(page, line)
    review = reload_with_review(page)
    # the server's review of this very game: where it was lost, and the line from there
    assert review["status"] == "stuck" and review["winnable"] is True
    assert review["grade"] == explain.grade(LOST_CODE).value
    assert review["lost_at"]["index"] == at.index and review["lost_at"]["moves"] == len(line)
    steps = review["replay"]["steps"]
    assert len(steps) == len(at.win) + 1
    total = len(steps) - 1

    stuck = page.locator("#stuck")
    expect(stuck).to_be_visible()
    grade = EN[f"web.review.grade.{review['grade']}"]
    expect(page.locator("#stuck-review")).to_have_text(f"{grade}. {review['message']}")
    score, moves = page.locator("#score").inner_text(), page.locator("#moves").inner_text()
    show = stuck.get_by_role("button", name=EN["web.review.show_me"], exact=True)
    sent = writes(page)
    show.click()

    banner = page.locator("#replay-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(EN["web.replay.banner"])
    expect(stuck).to_be_hidden()
    expect(counter(page)).to_have_text(step_text(0, total))
    expect(page.locator("#live")).to_contain_text(EN["web.replay.opened"].format(total=total))
    play = page.get_by_role("button", name=EN["web.replay.play"], exact=True)
    expect(play).to_be_focused()
    # the board draws the replay's first step: the position at the last winnable point
    expect(page.locator("#moves")).to_have_text(str(steps[0]["moves"]))
    expect(page.locator("#score")).to_have_text(str(steps[0]["score"]))

    # the keyboard and the buttons step; each step's sentence and the counter are said
    def at_step(n: int) -> None:
        expect(counter(page)).to_have_text(step_text(n, total))
        expect(page.locator("#live")).to_have_text(
            f"{step_text(n, total)}. {steps[n]['last']['announcement']}"
        )
        expect(page.locator("#moves")).to_have_text(str(steps[n]["moves"]))

    page.keyboard.press("ArrowRight")
    at_step(1)
    page.keyboard.press("ArrowRight")
    at_step(2)
    page.keyboard.press("ArrowLeft")
    at_step(1)
    page.get_by_role("button", name=EN["web.replay.forward"], exact=True).click()
    at_step(2)
    page.get_by_role("button", name=EN["web.replay.back"], exact=True).click()
    at_step(1)
    # a card tapped and the board's letter keys do nothing here
    box = page.locator("#tableau .card:not([hidden])").first.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for key in ("d", "u", "h", "n"):
        page.keyboard.press(key)
    expect(page.locator("#dlg-new")).to_be_hidden()
    at_step(1)
    # Tab stays in the controls
    for _ in range(7):
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('#replay-tools') !== null")
    page.screenshot(path=artifacts / "replay-lost-1280x800.png")

    # Play runs to the win, fast
    page.locator("#replay-speed").select_option("fast")
    page.get_by_role("button", name=EN["web.replay.play"], exact=True).focus()
    page.keyboard.press(" ")
    expect(page.get_by_role("button", name=EN["web.replay.pause"], exact=True)).to_be_visible()
    at_step(total)
    assert steps[total]["status"] == "won"
    expect(page.get_by_role("button", name=EN["web.replay.play"], exact=True)).to_be_visible()
    expect(page.locator("#tableau .card:not([hidden])")).to_have_count(0)

    # Close: the game exactly as it was, nothing sent, nothing stored changed
    page.keyboard.press("Escape")
    expect(banner).to_have_count(0)
    expect(stuck).to_be_visible()
    expect(show).to_be_focused()
    expect(page.locator("#live")).to_have_text(EN["web.replay.closed"])
    expect(page.locator("#score")).to_have_text(score)
    expect(page.locator("#moves")).to_have_text(moves)
    expect(page.locator("#tools [data-action='undo']")).to_be_visible()
    game_id = page.evaluate("localStorage.getItem('tripeaks.game')")
    stored = page.request.get(f"/api/games/{game_id}").json()
    assert stored["version"] == len(line) and stored["status"] == "stuck"
    assert str(stored["score"]) == score and str(stored["moves"]) == moves
    shown = page.locator("#tableau .card:not([hidden])").count()
    assert shown == sum(1 for slot in stored["tableau"] if slot["slot"] != "removed")
    assert sent == [], sent


def test_an_ended_game_opened_before_its_verdict_does_not_say_the_verdict_late(new_page):
    """A game opened already over is old news, said by nothing, even when the solver's verdict comes
    only after the page opened (a busy server): then the verdict shows in the notice but is not said
    over whatever the player does next, such as a replay's steps."""
    page = new_page(code=LOST_CODE)
    play_by_api(page, lost_line(LOST_CODE))
    game_id = page.evaluate("localStorage.getItem('tripeaks.game')")
    first = []

    def before_the_verdict(route: Route) -> None:
        reply = route.fetch()
        game = reply.json()
        if not first:  # the read of the reload: the solver has not answered yet (or as if not)
            first.append(game["result"])
            game["result"] = None
        route.fulfill(response=reply, json=game)

    page.route(lambda url: urlsplit(url).path == f"/api/games/{game_id}", before_the_verdict)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert first
    notice = page.locator("#stuck-result")
    expect(notice).to_have_text("")
    # the page asks again after 2.5 s, gets the verdict and shows it
    expect(notice).not_to_have_text("", timeout=15_000)
    assert notice.inner_text() not in page.locator("#live").inner_text()
    page.wait_for_timeout(300)
    assert notice.inner_text() not in page.locator("#live").inner_text()


def test_a_won_game_offers_a_best_win(new_page):
    line = winning_line(WIN_CODE)
    page = new_page(code=WIN_CODE)
    play_by_api(page, line)
    review = reload_with_review(page)
    assert review["status"] == "won" and review["lost_at"] is None
    assert review["draws"]["used"] >= review["draws"]["fewest"]
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    grade = EN[f"web.review.grade.{review['grade']}"]
    expect(page.locator("#win-review")).to_have_text(f"{grade}. {review['message']}")
    best = win.get_by_role("button", name=EN["web.review.show_win"], exact=True)
    best.click()
    expect(win).to_be_hidden()
    total = len(review["replay"]["steps"]) - 1
    expect(counter(page)).to_have_text(step_text(0, total))
    expect(page.locator("#moves")).to_have_text("0")
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_have_text(step_text(1, total))
    page.get_by_role("button", name=EN["web.replay.close"], exact=True).click()
    # back to the result window, as it was
    expect(win).to_be_visible()
    expect(best).to_be_focused()
    expect(page.locator("#replay-banner")).to_have_count(0)


# ---- New game's difficulty -----------------------------------------------------------------


def test_a_new_game_of_a_difficulty_sends_it_and_the_result_names_the_grade(new_page):
    page = new_page()
    page.locator("#tools [data-action='new']").click()
    dialog = page.locator("#dlg-new")
    winnable = dialog.get_by_role("checkbox", name=EN["web.new.winnable"])
    expect(dialog.get_by_role("radio", name=EN["web.new.difficulty_any"])).to_be_checked()
    expect(winnable).to_be_enabled()
    expect(winnable).not_to_be_checked()
    dialog.get_by_role("radio", name=EN["web.new.difficulty_medium"]).check()
    # a grade means a winnable deal: the box says so and cannot be unticked
    expect(winnable).to_be_checked()
    expect(winnable).to_be_disabled()
    expect(winnable).to_have_accessible_description(EN["web.new.difficulty_help"])
    with page.expect_request(
        lambda r: r.method == "POST" and r.url.endswith("/api/games?lang=en")
    ) as sent:
        dialog.get_by_role("button", name="Deal").click()
    body = json.loads(sent.value.post_data or "{}")
    assert body["difficulty"] == "medium" and body["winnable_only"] is True
    expect(dialog).to_be_hidden()
    code = page.locator("#code").inner_text()
    assert explain.grade(code) is explain.Grade.MEDIUM
    # the deal won: the result window names its grade
    line = winning_line(code)
    play_by_api(page, line)
    review = reload_with_review(page)
    assert review["grade"] == "medium"
    expect(page.locator("#win-review")).to_contain_text(EN["web.review.grade.medium"])
    # Play again keeps the difficulty; so does the window
    with page.expect_request(
        lambda r: r.method == "POST" and r.url.endswith("/api/games?lang=en")
    ) as sent:
        page.locator("#dlg-win").get_by_role("button", name="Play again").click()
    assert json.loads(sent.value.post_data or "{}")["difficulty"] == "medium"
    expect(page.locator("#dlg-win")).to_be_hidden()
    page.locator("#tools [data-action='new']").click()
    expect(dialog.get_by_role("radio", name=EN["web.new.difficulty_medium"])).to_be_checked()
    dialog.get_by_role("radio", name=EN["web.new.difficulty_any"]).check()
    expect(winnable).to_be_enabled()
    expect(winnable).not_to_be_checked()
    # a typed code ignores the difficulty
    dialog.get_by_role("radio", name=EN["web.new.difficulty_hard"]).check()
    more_options(page).get_by_role("textbox", name="Game code (optional)").fill(EXAMPLE_CODE)
    with page.expect_request(
        lambda r: r.method == "POST" and r.url.endswith("/api/games?lang=en")
    ) as sent:
        dialog.get_by_role("button", name="Deal").click()
    assert "difficulty" not in json.loads(sent.value.post_data or "{}")


# ---- Statistics ---------------------------------------------------------------------------


def test_the_statistics_show_each_grade_and_the_kinds_of_hint(new_page):
    line = winning_line(LOST_CODE)
    page = new_page(code=LOST_CODE, settings={"tripeaks.hint_kind": "perfect"})
    with page.expect_response(lambda r: "/hint" in r.url):
        page.keyboard.press("h")
    play_by_api(page, line)
    reload_with_review(page)
    page.keyboard.press("Escape")
    choose(page, action="stats")
    stats = page.locator("#dlg-stats")
    grade = explain.grade(LOST_CODE).value
    assert grade in ("gentle", "medium", "hard")
    expect(stats.get_by_role("row", name=EN[f"web.stats.grade_{grade}"])).to_contain_text(
        "100% (1 of 1)"
    )
    other = "hard" if grade == "gentle" else "gentle"
    expect(stats.get_by_role("row", name=EN[f"web.stats.grade_{other}"])).to_contain_text("–")
    expect(stats.get_by_role("row", name=EN["web.stats.grade_unwinnable"])).to_contain_text("0")
    expect(stats.get_by_role("row", name=EN["web.stats.won_with_perfect_hints"])).to_contain_text(
        "1"
    )
    expect(stats.get_by_role("row", name=EN["web.stats.won_with_fair_hints"])).to_contain_text("0")
    no_violations(page, "statistics with grades")


# ---- axe and the three sizes --------------------------------------------------------------

BOXES = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getClientRects().length)
  .map((el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
CARDS = "#tableau .card:not([hidden]), #stock, #discard"


def covers_no_card(page: Page, selector: str) -> None:
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    shown = page.evaluate(BOXES, selector)
    assert shown, selector
    for a in shown:
        assert a[0] >= -0.5 and a[1] >= -0.5 and a[2] <= width + 0.5 and a[3] <= height + 0.5, a
        for b in page.evaluate(BOXES, CARDS):
            apart = (
                a[0] >= b[2] - 0.5 or b[0] >= a[2] - 0.5 or a[1] >= b[3] - 0.5 or b[1] >= a[3] - 0.5
            )
            assert apart, f"{selector} {a} covers a card {b}"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_axe_and_the_sizes_on_the_replay_the_review_and_the_settings(
    new_page, theme, width, height, artifacts
):
    line = lost_line(LOST_CODE)
    page = new_page(
        code=LOST_CODE,
        width=width,
        height=height,
        scheme=theme,
        settings={"tripeaks.theme": theme},
    )
    play_by_api(page, line)
    reload_with_review(page)
    expect(page.locator("#stuck-review")).to_be_visible()
    page.screenshot(path=artifacts / f"review-stuck-{width}x{height}-{theme}.png")
    covers_no_card(page, "#stuck")
    no_violations(page, "stuck notice with the review")
    page.locator("#stuck").get_by_role("button", name=EN["web.review.show_me"]).click()
    expect(page.locator("#replay-banner")).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_contain_text(EN["web.replay.step"].split("{")[0].strip())
    page.screenshot(path=artifacts / f"replay-{width}x{height}-{theme}.png")
    covers_no_card(page, "#replay-banner")
    covers_no_card(page, "#replay-tools")
    for control in page.locator("#replay-tools button, #replay-tools select").all():
        box = control.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    no_violations(page, "replay view")
    page.keyboard.press("Escape")
    expect(page.locator("#replay-banner")).to_have_count(0)
    dialog = open_settings(page)
    expect(dialog.get_by_role("radio", name="Fair", exact=True)).to_be_checked()
    no_violations(page, "settings")
    page.keyboard.press("Escape")
    page.locator("#tools [data-action='new']").click()
    page.locator("#dlg-new").get_by_role("radio", name=EN["web.new.difficulty_hard"]).check()
    no_violations(page, "new game with a difficulty")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_on_the_result_window_with_its_review(new_page, theme, artifacts):
    line = winning_line(WIN_CODE)
    page = new_page(code=WIN_CODE, scheme=theme, settings={"tripeaks.theme": theme})
    play_by_api(page, line)
    reload_with_review(page)
    expect(page.locator("#win-review")).to_be_visible()
    page.screenshot(path=artifacts / f"review-win-{theme}.png")
    no_violations(page, "result window with the review")


@pytest.mark.parametrize("motion", ["no-preference", "off"])
def test_the_replay_moves_as_a_game_does_and_not_at_all_with_animation_off(new_page, motion):
    line = lost_line(LOST_CODE)
    off = {"tripeaks.motion": "off"} if motion == "off" else None
    page = new_page(code=LOST_CODE, motion="no-preference", settings=off)
    play_by_api(page, line)
    review = reload_with_review(page)
    steps = review["replay"]["steps"]
    page.locator("#stuck").get_by_role("button", name=EN["web.review.show_me"]).click()
    expect(page.locator("#replay-banner")).to_be_visible()
    page.evaluate("document.getAnimations().forEach((a) => a.finish())")
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_have_text(step_text(1, len(steps) - 1))
    # the step's Turn is played out by motion.js as a game's move is (its ghosts in the motion layer)
    moving = page.evaluate("document.getAnimations().length")
    assert (moving > 0) is (motion == "no-preference"), moving
    expect(page.locator("#moves")).to_have_text(str(steps[1]["moves"]))


@pytest.mark.parametrize("lang", ["fi", "ca"])
def test_the_replay_in_every_language_fits_a_phone(new_page, lang, artifacts):
    words = messages(lang)
    line = lost_line(LOST_CODE)
    page = new_page(code=LOST_CODE, width=360, height=640, settings={"tripeaks.lang": lang})
    play_by_api(page, line)
    review = reload_with_review(page, words)
    total = len(review["replay"]["steps"]) - 1
    grade = words[f"web.review.grade.{review['grade']}"]
    expect(page.locator("#stuck-review")).to_contain_text(grade)
    page.locator("#stuck").get_by_role("button", name=words["web.review.show_me"]).click()
    expect(page.locator("#replay-banner")).to_contain_text(words["web.replay.banner"])
    page.keyboard.press("ArrowRight")
    step = words["web.replay.step"].format(n=1, total=total)
    expect(counter(page)).to_have_text(step)
    for name in ("web.replay.back", "web.replay.play", "web.replay.forward", "web.replay.close"):
        expect(page.get_by_role("button", name=words[name], exact=True)).to_be_visible()
    covers_no_card(page, "#replay-banner")
    covers_no_card(page, "#replay-tools")
    page.screenshot(path=artifacts / f"replay-360x640-{lang}.png")
    page.keyboard.press("Escape")
    expect(page.locator("#live")).to_have_text(words["web.replay.closed"])


def test_no_deal_of_the_difficulty_is_said_and_not_sent_again(new_page):
    """The solver's 503 (none of the deals it graded had the grade) is an answer: said under the window's
    field, with no "trying again" and no second request. The server cannot be made to fail this way on
    purpose, so this one reply is the server's own error shape, served in its place."""
    page = new_page()
    message = EN["error.no_graded_deal"]
    sent: list[str] = []

    def refuse(route):
        if route.request.method != "POST":
            route.fallback()
            return
        sent.append(route.request.post_data or "")
        error = {"error": {"reason": "no_graded_deal", "message": message}, "state": None}
        route.fulfill(
            status=503,
            headers={"Retry-After": "1"},
            content_type="application/json",
            body=json.dumps(error),
        )

    page.route("**/api/games?*", refuse)
    page.locator("#tools [data-action='new']").click()
    dialog = page.locator("#dlg-new")
    dialog.get_by_role("radio", name=EN["web.new.difficulty_hard"]).check()
    dialog.get_by_role("button", name="Deal").click()
    # said by the buttons, in view, not under the folded code field
    expect(page.locator("#new-refusal")).to_have_text(message)
    expect(page.locator("#new-refusal")).to_be_in_viewport()
    expect(dialog).to_be_visible()
    page.wait_for_timeout(1500)  # longer than Retry-After: nothing is sent again
    assert len(sent) == 1, sent
    expect(page.locator("#saving")).to_be_hidden()


def test_a_game_left_while_winnable_shows_the_win_from_where_it_was_left(new_page):
    line = winning_line(LOST_CODE)[:10]
    page = new_page(code=LOST_CODE)
    play_by_api(page, line)
    # another game started (another tab, say): this one is left, and its page shows the left notice
    assert page.request.post("/api/games", data={"rules": "easy"}).status == 201
    review = reload_with_review(page)
    assert review["status"] == "left" and review["lost_at"]["move"] is None
    assert review["replay"]["start"] == len(line)
    left = page.locator("#left")
    expect(left).to_be_visible()
    expect(page.locator("#left-review")).to_contain_text(review["message"])
    left.get_by_role("button", name=EN["web.review.show_me"]).click()
    steps = review["replay"]["steps"]
    expect(counter(page)).to_have_text(step_text(0, len(steps) - 1))
    expect(page.locator("#moves")).to_have_text(str(len(line)))
    # the left game's board is only shown; the replay's is not dimmed
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bclosed\b"))
    page.keyboard.press("Escape")
    expect(left).to_be_visible()
    expect(page.locator("#board")).to_have_class(re.compile(r"\bclosed\b"))


def test_a_stuck_game_an_undo_can_save_is_reviewed_only_when_asked(new_page):
    """Seeing where a game that can still be saved was lost is a hint: the page asks nothing of the
    server until the player presses "Where was it lost?" and says yes, and the win that follows is
    counted with a perfect hint."""
    line = lost_line(LOST_CODE)
    page = new_page(code=LOST_CODE)
    play_by_api(page, line)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/review" in r.url else None)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#stuck")).to_be_visible()
    ask = page.locator("#stuck-ask-review")
    expect(ask).to_be_visible()
    expect(page.locator("#stuck-review")).to_be_hidden()
    ask.click()  # the question first; "Keep playing" asks nothing
    page.locator("#dlg-confirm").get_by_role("button", name=EN["web.confirm.keep"]).click()
    expect(ask).to_be_visible()
    assert asked == []
    review = ask_for_review(page)
    assert len(asked) == 1
    expect(page.locator("#stuck-review")).to_contain_text(review["message"])
    expect(
        page.locator("#stuck").get_by_role("button", name=EN["web.review.show_me"])
    ).to_be_focused()
    # undone back to where it was lost and won along the replay: a win with a perfect hint
    index = review["lost_at"]["index"]
    game_id = page.evaluate("localStorage.getItem('tripeaks.game')")
    version = len(line)
    for _ in range(len(line) - index):
        reply = page.request.post(f"/api/games/{game_id}/undo", data={"version": version})
        assert reply.ok, reply.text()
        version = reply.json()["version"]
    for step in review["replay"]["steps"][1:]:
        last = step["last"]
        body: dict[str, Any] = {"version": version}
        if last["kind"] == "play":
            body["pos"] = last["pos"]
        reply = page.request.post(f"/api/games/{game_id}/{last['kind']}", data=body)
        assert reply.ok, reply.text()
        version = reply.json()["version"]
    assert reply.json()["status"] == "won"
    stats = page.request.get("/api/stats").json()["easy"]
    assert (stats["won"], stats["won_with_perfect_hints"]) == (1, 1)
