"""The journey's page (issue 39): the map one tap from the table, a level's start with its goal, level games
won by touch on a phone and by keyboard on a large screen with the server's stars at their end, a locked
level that cannot be started, the achievements window, an unlocking said once, and carrying progress to
another browser with a transfer code. Levels are read from tripeaks.journey.levels (never a code written
here): another tool makes levels.json again."""

from __future__ import annotations

import itertools
import random
import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from tripeaks_page import focused_pos, moves, no_violations, stock, walk_to

from tripeaks.engine.game import Action, ActionKind, Game
from tripeaks.i18n import messages
from tripeaks.journey.levels import Level, levels
from tripeaks.journey.stars import judge

EN = messages("en")
SIZES = [(360, 640), (390, 844), (844, 390), (1440, 900)]


def level(n: int) -> Level:
    return levels()[n - 1]


def form(key: str, n: int, words: dict[str, Any] = EN, **values: Any) -> str:
    """A plural message of the catalog for ``n``, filled as the page fills it (en, fi, ca: n != 1)."""
    forms = words[key]
    text = forms[0 if n == 1 else 1] if isinstance(forms, list) else forms
    return text.format(n=n, **values)


def stars_text(n: int, words: dict[str, Any] = EN) -> str:
    return form("web.level.stars_of", n, words)


def label(lv: Level, stars: int) -> str:
    """A level's accessible name on the map: "Level 3, Valley, Classic · joker, 2 of 3 stars"."""
    variant = lv.code.variant
    options = [
        variant.empty_discard and "option.empty_discard",
        variant.joker and "option.joker",
        variant.open_peaks and "option.open_peaks",
        lv.traditional and "option.traditional",
    ]
    rules = EN[f"web.rules.{'easy' if variant.rules.value == 'E' else 'classic'}_short"]
    words = ", ".join(EN[key] for key in options if key)
    return EN["web.journey.level"].format(
        n=lv.number,
        layout=EN[f"layout.{lv.code.layout.id}"],
        rules=f"{rules} · {words}" if words else rules,
        stars=stars_text(stars),
    )


def win_by_api(
    page: Page, n: int, line: tuple[Action, ...] | None = None, last: bool = True
) -> dict:
    """Start level ``n`` for the page's player (its cookie) and play ``line`` (the level's witness) through
    the API; without ``last``, all of it but its last action. Returns the last GameState."""
    reply = page.request.post(f"/api/journey/levels/{n}", data={})
    assert reply.status == 201, reply.text()
    game = reply.json()
    assert game["level"]["number"] == n
    actions = list(line if line is not None else level(n).witness)
    for action in actions if last else actions[:-1]:
        kind = "draw" if action.kind is ActionKind.DRAW else "play"
        body: dict[str, Any] = {"version": game["version"], "request_id": uuid.uuid4().hex}
        if action.pos is not None:
            body["pos"] = action.pos
        reply = page.request.post(f"/api/games/{game['id']}/{kind}", data=body)
        assert reply.status == 200, reply.text()
        game = reply.json()
    return game


def open_on(page: Page, game: dict) -> None:
    """Reload the page on ``game`` (the stored game)."""
    page.evaluate("(id) => localStorage.setItem('tripeaks.game', id)", game["id"])
    page.reload()
    page.wait_for_selector("body[data-ready]")


def open_map(page: Page, tap: bool = False) -> Locator:
    button = page.locator("#journey-btn")
    button.tap() if tap else button.click()
    dialog = page.locator("#dlg-journey")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".lv")).to_have_count(len(levels()))
    return dialog


def level_button(page: Page, n: int) -> Locator:
    return page.locator(f"#journey-path .lv[data-n='{n}']")


def play_by_touch(page: Page, line: tuple[Action, ...]) -> None:
    for i, action in enumerate(line, start=1):
        if action.kind is ActionKind.DRAW:
            stock(page).tap()
        else:
            page.locator(f"#tableau [data-pos='{action.pos}']").tap()
        expect(moves(page)).to_have_text(str(i))


def expect_stars(page: Page, stars: int) -> None:
    """The result window shows ``stars`` lit, at once (reduced motion), and says them."""
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    expect(win.locator("#win-stars .star")).to_have_count(3)
    expect(win.locator("#win-stars .star.on")).to_have_count(stars)
    expect(win.locator("#win-stars .star.waiting")).to_have_count(0)
    expect(win.locator("#win-stars-text")).to_contain_text(stars_text(stars))


def test_a_new_player_wins_level_1_by_touch_on_a_phone(new_page):
    """390x844, taps alone: the Journey button, the map with level 1 ready and level 2 locked, level 1's
    start with its goal, its game won by its witness, and the stars the server judged."""
    first = level(1)
    page = new_page(width=390, height=844, touch=True)
    journey = open_map(page, tap=True)
    ready = level_button(page, 1)
    expect(ready).to_be_focused()
    expect(ready).to_have_attribute("aria-label", label(first, 0) + ", next to play")
    expect(level_button(page, 2)).to_have_attribute("aria-disabled", "true")
    assert "locked" in (level_button(page, 2).get_attribute("aria-label") or "")
    expect(journey.locator("#journey-total-text")).to_have_text(
        EN["web.journey.total"].format(stars=0, max=3 * len(levels()))
    )
    ready.tap()
    start = page.locator("#dlg-level")
    expect(start).to_be_visible()
    expect(journey).to_be_hidden()
    expect(start.get_by_role("heading", level=2)).to_have_text("Level 1")
    expect(start.locator("#level-layout")).to_have_text(EN[f"layout.{first.code.layout.id}"])
    if first.goal is None:
        expect(start.locator("#level-goal-text")).to_have_text(EN["web.goal.none"])
    expect(start.locator("#level-stars-text")).to_have_text(EN["web.level.no_stars"])
    expect(start.locator("#level-needs li")).to_have_count(3)
    start.get_by_role("button", name=EN["web.level.play"]).tap()
    expect(start).to_be_hidden()
    expect(page.locator("#level-line")).to_contain_text("Level 1")
    expect(moves(page)).to_have_text("0")
    play_by_touch(page, first.witness)
    judged = judge(first, first.witness)
    assert judged.won
    expect_stars(page, judged.stars)
    win = page.locator("#dlg-win")
    expect(win.locator("#win-title")).to_have_text("Level 1 won!")
    expect(win.locator("#win-level-score")).to_have_text(
        EN["web.level.score"].format(score=judged.score, best=judged.best_score)
    )
    next_button = win.get_by_role("button", name=EN["web.level.next"])
    expect(next_button).to_be_focused()
    expect(win.get_by_role("button", name=EN["web.play_again"])).to_be_hidden()
    next_button.tap()
    expect(page.locator("#dlg-level")).to_be_visible()
    expect(page.locator("#level-title")).to_have_text("Level 2")
    # the map now has level 1 done with its stars and level 2 ready
    page.locator("#level-map").tap()
    expect(level_button(page, 2)).to_be_focused()
    expect(level_button(page, 1)).to_have_attribute("aria-label", label(first, judged.stars))
    if level(2).goal is not None:  # a level's goal is its button's description
        expect(level_button(page, 2)).to_have_accessible_description(re.compile(r"^Goal: \S"))
    expect(page.locator("#journey-total-text")).to_have_text(
        EN["web.journey.total"].format(stars=judged.stars, max=3 * len(levels()))
    )


def test_level_2_won_by_keyboard_on_a_large_screen(new_page):
    """1440x900, keys alone: Tab to the Journey button, Enter opens the map on level 2 (level 1 won before),
    Enter shows its start with the focus on Play, Enter deals it; arrows and Enter or D play its witness,
    and the result window takes the focus on Next level."""
    page = new_page(width=1440, height=900)
    win_by_api(page, 1)
    second = level(2)
    for _ in range(2):  # the score, then the Journey button
        page.keyboard.press("Tab")
    expect(page.locator("#journey-btn")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#dlg-journey")).to_be_visible()
    expect(level_button(page, 2)).to_be_focused()
    page.keyboard.press("Enter")
    start = page.locator("#dlg-level")
    expect(start).to_be_visible()
    expect(start.locator("#level-play")).to_be_focused()
    page.keyboard.press("Enter")
    expect(start).to_be_hidden()
    expect(page.locator("#level-line")).to_contain_text("Level 2")
    expect(moves(page)).to_have_text("0")
    page.wait_for_function("document.activeElement && !!document.activeElement.closest('#board')")
    assert focused_pos(page) is not None
    for n, action in enumerate(second.witness, start=1):
        if action.kind is ActionKind.DRAW:
            page.keyboard.press("d")
        else:
            walk_to(page, str(action.pos))
            page.keyboard.press("Enter" if n % 2 else " ")
        expect(moves(page)).to_have_text(str(n))
    judged = judge(second, second.witness)
    expect_stars(page, judged.stars)
    win = page.locator("#dlg-win")
    if second.goal is not None:
        assert judged.goal_met
        expect(win.locator("#win-level-goal")).to_contain_text(
            EN["web.level.goal_met"].split("{")[0]
        )
    expect(win.get_by_role("button", name=EN["web.level.next"])).to_be_focused()


def test_the_j_key_opens_the_map_and_the_button_names_it(new_page):
    """J opens the journey's map from the table, like N opens New game; the button says its key."""
    page = new_page(width=1440, height=900)
    expect(page.locator("#journey-btn")).to_have_attribute("aria-keyshortcuts", "J")
    page.keyboard.press("j")
    expect(page.locator("#dlg-journey")).to_be_visible()
    expect(level_button(page, 1)).to_be_focused()


def test_a_locked_level_cannot_be_started(new_page):
    page = new_page()
    open_map(page)
    locked = level_button(page, 3)
    expect(locked).to_have_attribute("aria-disabled", "true")
    assert (locked.get_attribute("aria-label") or "").endswith(", locked")
    expect(locked.locator(".lv-lock")).to_have_count(1)
    locked.click(force=True)  # aria-disabled: still a target a player may tap
    expect(page.locator("#dlg-level")).to_be_hidden()
    expect(page.locator("#journey-note")).to_have_text(
        EN["web.level.locked"].format(n=3, previous=2)
    )
    # by keyboard too: the arrows reach it, Enter starts nothing
    page.keyboard.press("Home")
    expect(level_button(page, 1)).to_be_focused()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(locked).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#dlg-level")).to_be_hidden()
    expect(page.locator("#dlg-journey")).to_be_visible()
    expect(moves(page)).to_have_text("0")
    assert page.request.post("/api/journey/levels/3", data={}).status == 403


def losing_line(lv: Level) -> tuple[Action, ...]:
    """A line that ends ``lv``'s deal stuck: mostly drawing, else the first card that can be played."""
    for seed in range(100):
        game, rnd = Game.new(lv.code), random.Random(seed)
        while game.status.value == "playing":
            free = list(game.playable_positions())
            if game.can_draw and (not free or rnd.random() < 0.8):
                game.draw()
            else:
                game.play(free[0])
        if game.status.value == "stuck":
            return tuple(game.actions)
    raise AssertionError("no losing line found")


def test_the_stars_count_up_with_full_motion(new_page):
    """With full motion the stars of a level's end are lit one after another, each popping in; their words
    are there from the start."""
    first = level(1)
    page = new_page(motion="no-preference")
    open_on(page, win_by_api(page, 1, first.best_line, last=False))
    last = first.best_line[-1]
    target = (
        stock(page)
        if last.kind is ActionKind.DRAW
        else page.locator(f"#tableau [data-pos='{last.pos}']")
    )
    target.click()
    win = page.locator("#dlg-win")
    expect(win).to_be_visible(timeout=20_000)
    expect(win.locator("#win-stars-text")).to_contain_text(stars_text(3))
    expect(win.locator("#win-stars .star.on.pop")).to_have_count(3)


def test_a_lost_level_offers_its_replay(new_page):
    page = new_page(width=390, height=844)
    open_on(page, win_by_api(page, 1, losing_line(level(1))))
    stuck = page.locator("#stuck")
    expect(stuck).to_be_visible()
    expect(stuck.get_by_role("button", name=EN["web.same_deal"])).to_be_hidden()
    expect(stuck.get_by_role("button", name=EN["web.level.map"])).to_be_visible()
    stuck.get_by_role("button", name=EN["web.level.replay"]).click()
    # a stuck game an undo could still save: leaving it counts as a loss, so it is asked first
    expect(page.locator("#dlg-confirm")).to_be_visible()
    page.locator("#confirm-yes").click()
    expect(stuck).to_be_hidden()
    expect(moves(page)).to_have_text("0")
    expect(page.locator("#level-line")).to_contain_text("Level 1")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_on_the_journeys_windows(new_page, theme, artifacts):
    """The map, a level's start, a level's end and the achievements window, in both themes."""
    page = new_page(scheme=theme, settings={"tripeaks.theme": theme})
    open_on(page, win_by_api(page, 1, level(1).best_line))
    expect_stars(page, 3)
    page.screenshot(path=artifacts / f"journey-end-{theme}.png")
    no_violations(page, "a level's end")
    page.keyboard.press("Escape")
    open_map(page)
    page.screenshot(path=artifacts / f"journey-map-{theme}.png")
    no_violations(page, "the map")
    page.keyboard.press("Enter")
    expect(page.locator("#dlg-level")).to_be_visible()
    no_violations(page, "a level's start")
    page.keyboard.press("Escape")
    open_map(page)
    page.locator("#journey-achievements").click()
    achievements = page.locator("#dlg-achievements")
    expect(achievements).to_be_visible()
    no_violations(page, "the achievements")
    page.keyboard.press("Escape")
    expect(achievements).to_be_hidden()
    expect(page.locator("#journey-achievements")).to_be_focused()  # back in the map
    page.locator("#journey-transfer").click()
    expect(page.locator("#dlg-transfer")).to_be_visible()
    page.locator("#transfer-make").click()
    expect(page.locator("#transfer-code code")).to_be_visible()
    no_violations(page, "the transfer code")


def test_an_achievement_unlocked_is_shown_and_said_once(new_page):
    page = new_page()
    first = level(1)
    open_on(page, win_by_api(page, 1, last=False))
    last = first.witness[-1]
    with page.expect_response(lambda r: "/play" in r.url or "/draw" in r.url) as replied:
        if last.kind is ActionKind.DRAW:
            stock(page).click()
        else:
            page.locator(f"#tableau [data-pos='{last.pos}']").click()
    unlocked = replied.value.json()["unlocked"]
    assert {"first_win", "level_1"} <= {a["id"] for a in unlocked}
    names = ", ".join(EN[f"achievement.{a['id']}.name"] for a in unlocked)
    sentence = form("web.achievements.new", len(unlocked), names=names)
    expect(page.locator("#live")).to_contain_text(sentence)
    line = page.locator("#win-unlocked")
    expect(line).to_have_text(sentence)
    expect(line).to_be_visible()
    # The window shows the first win as unlocked, with its progress full.
    page.keyboard.press("Escape")
    page.locator("#menu-btn").click()
    page.get_by_role("menuitem", name=EN["web.achievements"]).click()
    window = page.locator("#dlg-achievements")
    expect(window).to_be_visible()
    listed = page.request.get("/api/achievements").json()["achievements"]
    assert len(listed) >= 20
    expect(window.locator("li.ach")).to_have_count(len(listed))
    expect(window.get_by_role("progressbar")).to_have_count(len(listed))
    expect(window.locator("li.ach.unlocked")).to_have_count(sum(1 for a in listed if a["unlocked"]))
    first_win = window.locator(
        "li.ach", has=page.get_by_role("heading", name=EN["achievement.first_win.name"])
    )
    expect(first_win).to_have_class("ach unlocked")
    expect(first_win.get_by_role("progressbar")).to_have_attribute("value", "1")
    page.keyboard.press("Escape")
    # Once: the same game read again says nothing of it.
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#dlg-win")).to_be_visible()
    expect(page.locator("#win-unlocked")).to_be_hidden()
    expect(page.locator("#live")).not_to_contain_text(sentence)


def test_progress_goes_to_another_browser_with_a_transfer_code(new_page):
    """A code made on one browser, entered on another: that one plays as the first, its journey with it;
    a wrong code is refused with the server's own message, and a spent one too."""
    home = new_page()
    won = win_by_api(home, 1)
    stars = won["level_result"]["stars"]
    open_map(home)
    home.locator("#journey-transfer").click()
    home.locator("#transfer-make").click()
    code = home.locator("#transfer-code code")
    expect(code).to_be_visible()
    text = code.inner_text()
    expect(home.locator("#transfer-expires")).to_contain_text("works once")

    away = new_page(width=390, height=844)
    open_map(away)
    away.locator("#journey-transfer").click()
    field = away.locator("#transfer-input")
    field.fill("ZZZZ-ZZZZ-ZZZZ")
    with away.expect_response(lambda r: "/transfer/redeem" in r.url) as replied:
        away.locator("#transfer-redeem").click()
    expect(away.locator("#transfer-error")).to_have_text(replied.value.json()["error"]["message"])
    expect(field).to_have_attribute("aria-invalid", "true")
    field.fill(text.lower())
    away.locator("#transfer-redeem").click()
    expect(away.locator("#transfer-done")).to_contain_text("Done")
    expect(away.locator("#transfer-error")).to_have_text("")
    away.keyboard.press("Escape")
    away.keyboard.press("Escape")
    open_map(away)
    assert stars_text(stars) in (level_button(away, 1).get_attribute("aria-label") or "")
    expect(level_button(away, 2)).to_be_focused()
    # the code worked once
    away.keyboard.press("Escape")
    open_map(away)
    away.locator("#journey-transfer").click()
    away.locator("#transfer-input").fill(text)
    with away.expect_response(lambda r: "/transfer/redeem" in r.url) as again:
        away.locator("#transfer-redeem").click()
    assert again.value.status == 410
    expect(away.locator("#transfer-error")).to_have_text(again.value.json()["error"]["message"])


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_journeys_windows_fit_every_size(new_page, width, height):
    """The Journey button and every level a 44 px target at least; the map, a level's start and their
    buttons on the screen; no level's words over another's."""
    page = new_page(width=width, height=height)
    journey_button = page.locator("#journey-btn").bounding_box()
    assert journey_button is not None
    assert journey_button["width"] >= 44 and journey_button["height"] >= 44
    assert journey_button["x"] + journey_button["width"] <= width
    open_map(page)
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#journey-path .lv')].slice(0, 12).map((el) => {
             const b = el.getBoundingClientRect(), t = el.querySelector('.lv-text').getBoundingClientRect();
             return [b.top, b.bottom, b.height, b.right, t.right, el.scrollWidth, el.clientWidth]; })"""
    )
    for _top, _bottom, tall, right, text_right, scroll, client in boxes:
        assert tall >= 44
        assert text_right <= right + 0.5 and scroll <= client + 1, (
            text_right,
            right,
            scroll,
            client,
        )
    for (_, bottom, *_), (top, *_) in itertools.pairwise(boxes):
        assert top >= bottom - 0.5
    for button in page.locator("#dlg-journey > .row button").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
        assert (
            box["x"] >= 0
            and box["x"] + box["width"] <= width
            and box["y"] + box["height"] <= height
        )
    page.keyboard.press("Enter")
    start = page.locator("#dlg-level")
    expect(start).to_be_visible()
    for button in start.locator(".row button").all():
        box = button.bounding_box()
        assert (
            box is not None
            and box["y"] + box["height"] <= height
            and box["x"] + box["width"] <= width
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
