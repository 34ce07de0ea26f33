"""The deal of the day in the browser: the window, the ranked game (no code, no hint, no undo), a win
played by clicking, the board with the player's rank and share text, the calendar, a nickname; in
the three languages at phone and desktop sizes, axe 0 on the window.

The server here has a secret of the test's own (TRIPEAKS_DAILY_SECRET), so the test can work out the
day's deal the way the server does (tripeaks.daily.choose) and win it."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from conftest import served
from playwright.sync_api import Page, Route, expect
from tripeaks_page import choose, click_line, no_violations, winning_line

from tripeaks import daily

SECRET = "a secret for the browser tests"
LOCALES = {"en": "en-US", "fi": "fi-FI", "ca": "ca-ES"}


@pytest.fixture
def base_url(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A server of each test's own (a board of its own), with a known daily secret. The tests
    click a whole game in a few seconds, faster than a person, so the pace rule (its own tests are
    test_api_identity's) is set aside: the server runs in this process."""
    from tripeaks.web.app import create_app

    monkeypatch.setattr(daily, "HUMAN_PACE", 0.0)

    before = os.environ.get(daily.SECRET_VARIABLE)
    os.environ[daily.SECRET_VARIABLE] = SECRET
    try:
        app = create_app(tmp_path_factory.mktemp("daily") / "tripeaks.db")
    finally:
        if before is None:
            del os.environ[daily.SECRET_VARIABLE]
        else:
            os.environ[daily.SECRET_VARIABLE] = before
    with served(app) as port:
        yield f"http://127.0.0.1:{port}"


def words(page: Page, lang: str) -> dict[str, str]:
    messages: dict[str, str] = json.loads(page.request.get(f"/api/i18n/{lang}").text())["messages"]
    return messages


def win_by_clicking(page: Page, code: str, lang: str = "en") -> None:
    """The solver's best win, clicked card by card (names in the page's language) and draw by draw."""
    click_line(page, code, winning_line(code), lang=lang)


def todays_code() -> str:
    return str(daily.choose(SECRET.encode(), daily.today()))


@pytest.mark.parametrize(
    ("lang", "width", "height"), [("en", 390, 844), ("fi", 1440, 900), ("ca", 844, 390)]
)
def test_the_deal_of_the_day_is_played_ranked_and_put_on_the_board(
    new_page, artifacts, lang: str, width: int, height: int
) -> None:
    page = new_page(width=width, height=height, locale=LOCALES[lang])
    w = words(page, lang)
    choose(page, action="daily")
    dialog = page.locator("#dlg-daily")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(w["web.daily.rules_text"])
    no_violations(page, f"daily window before playing ({lang})")
    page.screenshot(path=artifacts / f"daily-window-{lang}-{width}x{height}.png")
    dialog.get_by_role("button", name=w["web.daily.play"]).click()
    # the ranked game: its code is not shown, hints and undo are off
    expect(page.locator("#code-rules")).to_have_text(w["web.daily.rules_ranked"])
    expect(page.locator("#code")).to_have_text(w["web.daily.code_hidden_short"])
    expect(page.locator("#tools [data-action='hint']")).to_be_disabled()
    expect(page.locator("#tools [data-action='undo']")).to_be_disabled()
    code = todays_code()
    win_by_clicking(page, code, lang)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible(timeout=20_000)
    # over, and still secret until the day is: no code, no "same deal again"
    expect(page.locator("#code")).to_have_text(w["web.daily.code_hidden_short"])
    expect(win.locator("[data-again='same']")).to_be_hidden()
    for button in win.locator(".row button:visible").all():  # four of them now: all on screen
        box = button.bounding_box()
        assert (
            box is not None
            and box["y"] + box["height"] <= height
            and box["x"] + box["width"] <= width
        )
    page.screenshot(path=artifacts / f"daily-win-{lang}-{width}x{height}.png")
    win.get_by_role("button", name=w["web.daily.board"]).click()
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(w["web.daily.you_won"])
    share = dialog.locator("#daily-share")
    expect(share).to_contain_text("▲▲▲")
    assert code not in share.inner_text()  # spoiler-free
    expect(dialog.locator("table.daily-board tbody tr")).to_have_count(1)
    expect(dialog.locator(".daily-month .d-won")).to_have_count(1)
    days = dialog.locator(".daily-days li")
    expect(days).to_have_count(1)
    expect(days.first).to_contain_text(w["web.daily.day_won"])
    drawn = dialog.locator("#daily-share").element_handle()
    days.first.get_by_role("button").click()  # today's board again, drawn anew
    drawn.wait_for_element_state("hidden")  # gone: typing before the new one comes would be lost
    expect(dialog.locator("#daily-share")).to_contain_text("▲▲▲")
    # a nickname, refused when it is not one, then kept and shown on the board
    name = dialog.locator("#daily-name")
    name.fill("<script>")
    dialog.get_by_role("button", name=w["web.daily.name_save"]).click()
    expect(dialog.locator("#daily-name-error")).not_to_be_empty()
    name.fill("  Aino 7 ")
    dialog.get_by_role("button", name=w["web.daily.name_save"]).click()
    expect(dialog.locator("table.daily-board tbody tr").first).to_contain_text("Aino 7")
    no_violations(page, f"daily window after a win ({lang})")
    page.screenshot(path=artifacts / f"daily-board-{lang}-{width}x{height}.png", full_page=True)
    # another player may still play, and sees no row before finishing their own game
    other = new_page(width=width, height=height, locale=LOCALES[lang])
    choose(other, action="daily")
    board = other.locator("#dlg-daily")
    expect(board.get_by_role("button", name=w["web.daily.play"])).to_be_visible()
    expect(board).to_contain_text(w["web.daily.board_hidden"])
    expect(board.locator("table.daily-board")).to_have_count(0)
    assert "Aino 7" not in board.inner_text()


def test_after_the_ranked_game_the_deal_waits_for_the_day_to_end(new_page) -> None:
    page = new_page()
    w = words(page, "en")
    choose(page, action="daily")
    page.locator("#dlg-daily").get_by_role("button", name=w["web.daily.play"]).click()
    expect(page.locator("#tools [data-action='hint']")).to_be_disabled()
    page.keyboard.press("h")  # the key says why rather than nothing
    expect(page.locator("#toast")).to_have_text(w["web.daily.no_hints"])
    # leaving the ranked game, even before a move, is asked first: its place on the board goes
    page.get_by_role("button", name="New game").click()
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_contain_text(w["web.daily.abandon"])
    confirm.get_by_role("button", name=w["web.confirm.keep"]).click()
    expect(confirm).to_be_hidden()
    page.keyboard.press("Escape")  # the New game window, still open
    expect(page.locator("#dlg-new")).to_be_hidden()
    expect(page.locator("#code-rules")).to_have_text(w["web.daily.rules_ranked"])
    reviews: list[str] = []
    page.on("request", lambda r: reviews.append(r.url) if "/review" in r.url else None)
    win_by_clicking(page, todays_code())
    expect(page.locator("#dlg-win")).to_be_visible(timeout=20_000)
    page.keyboard.press("Escape")
    expect(page.locator("#tools [data-action='hint']")).to_be_disabled()
    choose(page, action="daily")
    dialog = page.locator("#dlg-daily")
    expect(dialog).to_contain_text(w["web.daily.tomorrow"])
    expect(dialog.locator("#daily-play")).to_have_count(0)  # nothing of it is played again today
    expect(dialog).not_to_contain_text(w["web.daily.best"])
    assert reviews == []  # the page does not ask what the server would refuse


def test_a_daily_game_of_an_earlier_day_is_left_only_when_the_player_says_so(new_page) -> None:
    """Once the UTC day turns, the window's "Play" is the new day's deal: a daily game of the day
    before, still under way on the table, is another game, and leaving it is asked first. The day
    cannot be turned in a test, so the two daily replies the window reads say it is tomorrow."""
    page = new_page(width=390, height=844)
    w = words(page, "en")
    choose(page, action="daily")
    page.locator("#dlg-daily").get_by_role("button", name=w["web.daily.play"]).click()
    expect(page.locator("#code-rules")).to_have_text(w["web.daily.rules_ranked"])
    before = page.locator("#score").inner_text()
    tomorrow = (daily.today() + timedelta(days=1)).isoformat()

    def as_tomorrow(route: Route) -> None:
        reply = route.fetch()
        data = reply.json()
        if "today" in data:  # the history
            data["today"] = tomorrow
        else:  # the board: a day this player has not played yet
            data.update(day=tomorrow, me=None, top=[], players=0)
        route.fulfill(response=reply, json=data)

    page.route(re.compile(r"/api/daily/(board|history)"), as_tomorrow)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    choose(page, action="daily")
    dialog = page.locator("#dlg-daily")
    dialog.get_by_role("button", name=w["web.daily.play"]).click()
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_contain_text(w["web.daily.abandon"])
    confirm.get_by_role("button", name=w["web.confirm.keep"]).click()
    expect(confirm).to_be_hidden()
    assert posted == []  # nothing was asked of the server: the game is where it was
    expect(page.locator("#code-rules")).to_have_text(w["web.daily.rules_ranked"])
    expect(page.locator("#score")).to_have_text(before)
