"""Every layout on the page (issue 38): its table built from GET /api/layouts and fitted to the screen, whole
games won on two layouts other than Three Peaks by touch and by keyboard, the New game window's choice of
layout (remembered, a radio group with a picture of each), and the screenshots of every layout at each size
(written to /tmp/shots-layouts/ to be looked at)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from tripeaks_page import (
    card,
    choose,
    focused_pos,
    moves,
    name_at,
    no_violations,
    stock,
    walk_to,
    winning_line,
)

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, ActionKind, Game
from tripeaks.engine.layouts import BY_ID, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.i18n import messages

EN = messages("en")
SHOTS = Path("/tmp/shots-layouts")
SIZES = [(360, 640), (390, 844), (844, 390), (1440, 900)]
WON = ["diamonds", "bridge"]
"""The two layouts won whole: covered from above and below (Diamonds), and our own, the largest (Bridge)."""


def code_of(layout: str, letters: str = "AAAAAAB") -> str:
    """A deal's code on a layout (``TP1-DIAMONDS-E-AAAAAAB``): the same shuffle as ``TP1-E-AAAAAAB``; every
    one of these is winnable (the solver's line wins it)."""
    return str(GameCode(Rules.EASY, letters, BY_ID[layout]))


def places(page: Page, layout: str) -> dict[int, dict[str, Any]]:
    """The layout's places as the page was told (GET /api/layouts), by position."""
    layouts = page.request.get("/api/layouts").json()["layouts"]
    return {p["pos"]: p for p in next(x for x in layouts if x["id"] == layout)["places"]}


FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"

GEOMETRY = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const cards = [...document.querySelectorAll('#tableau .card')].filter((el) => !el.hidden);
  const table = document.getElementById('table').getBoundingClientRect();
  return {
    view: [innerWidth, innerHeight],
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    table: [table.width, table.height],
    cards: cards.map((el) => [Number(el.dataset.pos), ...box(el)]),
    others: ['#stock', '#discard', '.top', '#tools'].map((sel) => [sel, ...box(document.querySelector(sel))]),
    captions: [...document.querySelectorAll('.pile-caption')].map((el) => ['caption', ...box(el)]),
  };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    """Do two rectangles [left, top, right, bottom] share more than half a pixel each way?"""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def check_fit(page: Page, layout: str, size: tuple[int, int]) -> None:
    """Every card on the screen, no two cards overlapping unless one lies on the other by the layout, the
    piles, their captions and the bars clear of the table's cards and on the screen."""
    width, height = size
    g = page.evaluate(GEOMETRY)
    where = f"{layout} at {width}x{height}"
    assert g["scroll"] == g["view"] == [width, height], f"{where}: the page scrolls"
    cover = {pos: set(p["covered_by"]) for pos, p in places(page, layout).items()}
    cards = g["cards"]
    assert len(cards) == len(cover), where
    for pos, *box in cards:
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= width + 0.5 and box[3] <= height + 0.5, (
            where,
            pos,
            box,
        )
    for i, (a, *ra) in enumerate(cards):
        for b, *rb in cards[i + 1 :]:
            if overlap(ra, rb):
                assert a in cover[b] or b in cover[a], f"{where}: cards {a} and {b} overlap"
    for name, *other in g["others"] + g["captions"]:
        for pos, *box in cards:
            assert not overlap(box, other), f"{where}: card {pos} and {name} overlap"
        assert other[0] >= 0 and other[2] <= width + 0.5 and other[3] <= height + 0.5, (where, name)


def check_large(page: Page, layout: str, size: tuple[int, int]) -> None:
    """The cards are as large as the space allows, unless they have their largest size (110 px upright):
    upright, the cards fill the table's width; otherwise they fill its width or the board (the cards, the
    notices' place and the piles) fills its height."""
    g = page.evaluate(GEOMETRY)
    boxes = [box for _, *box in g["cards"]]
    card_w = boxes[0][2] - boxes[0][0]
    board = page.locator("#board").bounding_box()
    assert board is not None
    table_w, table_h = g["table"]
    wide = (max(b[2] for b in boxes) - min(b[0] for b in boxes)) / table_w
    high = board["height"] / table_h
    upright = size[0] < size[1]
    full = wide >= 0.9 if upright else wide >= 0.88 or high >= 0.88
    assert full or card_w >= 109.5, (layout, size, round(wide, 2), round(high, 2), card_w)


@pytest.mark.parametrize("layout", [layout.id for layout in LAYOUTS])
def test_the_table_fits_every_layout_at_every_size(new_page, layout):
    """Each layout's table at 360x640, 390x844, 844x390 and 1440x900 (the same page turned and resized, as a
    phone turned): on the screen, nothing overlapping but the cards that lie on each other, the cards as
    large as the space allows. The screenshots go to /tmp/shots-layouts/."""
    SHOTS.mkdir(exist_ok=True)
    width, height = SIZES[0]
    page = new_page(code=code_of(layout), width=width, height=height)
    expect(page.locator("#tableau .card")).to_have_count(BY_ID[layout].size)
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.evaluate(FRAMES)
        check_fit(page, layout, size)
        check_large(page, layout, size)
        page.screenshot(path=SHOTS / f"{layout}-{size[0]}x{size[1]}.png")


def burst_over(page: Page, layout: str, group: int) -> None:
    """The burst of an emptied group rises from the middle of the group's topmost cards."""
    spots = places(page, layout)
    members = [p for p in spots.values() if p["group"] == group]
    high = min(p["y"] for p in members)
    left = min(p["x"] for p in members if p["y"] == high)
    right = max(p["x"] for p in members if p["y"] == high) + 1
    tableau = page.locator("#tableau").bounding_box()
    assert tableau is not None
    unit = tableau["width"] / (max(p["x"] for p in spots.values()) + 1)
    x = page.locator(".motion-layer .burst").last.evaluate("(el) => parseFloat(el.style.left)")
    middle = tableau["x"] + (left + right) / 2 * unit
    assert abs(x - middle) < unit / 2, (x, middle)


SETTLED = (
    "!document.querySelector('#tableau.dealing')"
    " && document.getAnimations().every((a) => a.playState !== 'running')"
)


def settle(page: Page) -> None:
    deadline = time.monotonic() + 10
    while not page.evaluate(SETTLED):
        assert time.monotonic() < deadline, "animations still running after 10 s"
        page.wait_for_timeout(50)


RECORD = """() => {
  window.recorded = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.recorded.push(JSON.stringify(frames));
    return animate.call(this, frames, options);
  };
}"""


@pytest.mark.parametrize("layout", WON)
def test_a_whole_game_won_by_touch_on_a_phone(new_page, layout):
    """At 390x844, by taps alone, with full motion: every card flies, turns over, the streak counts, each
    group emptied bursts over its top, the win's cascade plays and the result window comes; Play again deals
    on the same layout, from the stock."""
    code = code_of(layout)
    page = new_page(code=code, motion="no-preference", width=390, height=844, touch=True)
    page.evaluate(RECORD)
    game = Game.new(code)
    line = winning_line(code)
    done: list[Action] = []
    streak = page.locator("#streak")
    bursts = 0
    for i, action in enumerate(line):
        target = (
            stock(page)
            if action.kind is ActionKind.DRAW
            else card(page, name_at(code, done, action.pos))
        )  # type: ignore[arg-type]
        turn = game.apply(action)
        target.tap()
        done.append(action)
        expect(moves(page)).to_have_text(str(len(done)))
        if i == len(line) - 1:
            break
        if turn.streak >= 2:
            expect(streak).to_have_text(f"Card streak ×{turn.streak}")
        if turn.peak is not None:
            bursts += 1
            expect(page.locator(".burst-points").last).to_have_text(f"+{turn.peak_points}")
            burst_over(page, layout, turn.peak)
    assert bursts >= 1
    expect(page.locator("body[data-celebrating]")).to_have_count(1)
    page.touchscreen.tap(20, 120)  # skips the cascade
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    expect(page.locator("#win-score")).to_have_text(f"Score: {game.score}")
    flights = page.evaluate("window.recorded.splice(0)")
    assert any("rotateY" in frames for frames in flights)  # the cards turned over
    settle(page)
    page.evaluate("window.recorded.splice(0)")
    win.get_by_role("button", name="Play again").tap()
    expect(win).to_be_hidden()
    expect(moves(page)).to_have_text("0")
    expect(page.locator("#code")).not_to_have_text(code)
    expect(page.locator("#code")).to_contain_text(f"-{BY_ID[layout].word}-")
    expect(page.locator("#tableau .card")).to_have_count(BY_ID[layout].size)
    settle(page)
    dealt = page.evaluate("window.recorded.splice(0)")
    assert sum(1 for frames in dealt if "translate(" in frames) >= BY_ID[layout].size


@pytest.mark.parametrize("layout", WON)
def test_a_whole_game_won_by_keyboard_on_a_large_screen(new_page, layout):
    """At 1440x900, keys alone: Tab to the board, arrows between the cards by where they lie, Enter or Space
    to play, D to draw; the focus stays on the board after every move, and the win's window takes it."""
    code = code_of(layout)
    page = new_page(code=code, width=1440, height=900)
    for _ in range(3):  # the score, the Journey button, then the board
        page.keyboard.press("Tab")
    assert focused_pos(page) is not None
    line = winning_line(code)
    for n, action in enumerate(line, start=1):
        if action.kind is ActionKind.DRAW:
            page.keyboard.press("d")
        else:
            walk_to(page, str(action.pos))
            page.keyboard.press("Enter" if n % 2 else " ")
        expect(moves(page)).to_have_text(str(n))
        if n < len(line):
            assert focused_pos(page) is not None, "focus was lost after a move"
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    expect(win.get_by_role("button", name="Play again")).to_be_focused()


def test_arrow_keys_follow_the_rows_of_diamonds(new_page):
    """On Diamonds, whose middle row lies over the rows above and below it: Up from the middle row goes to the
    row above it, Down to the row below, and sideways keys stay in the row."""
    page = new_page(code=code_of("diamonds"), width=1440, height=900)
    spots = places(page, "diamonds")
    middle = sorted((p for p in spots.values() if not p["covered_by"]), key=lambda p: p["x"])
    page.locator(f"#tableau [data-pos='{middle[1]['pos']}']").focus()
    page.keyboard.press("ArrowRight")
    assert focused_pos(page) == str(middle[2]["pos"])
    page.keyboard.press("ArrowUp")
    up = spots[int(focused_pos(page) or -1)]
    assert up["y"] == middle[2]["y"] - 1, up
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    down = spots[int(focused_pos(page) or -1)]
    assert down["y"] == middle[2]["y"] + 1, down


def layout_radio(page: Page, layout: str) -> Locator:
    return page.locator("#dlg-new").get_by_role("radio", name=EN[f"layout.{layout}"], exact=True)


def test_the_layout_picker_deals_the_choice_and_remembers_it(new_page):
    """The New game window's layouts are a radio group named Layout, right after Rules, one chip per layout
    with its picture; arrows move the choice; Deal deals on it and the choice is kept for the next window
    and the next visit."""
    page = new_page(width=390, height=844)
    page.locator("#tools [data-action='new']").click()
    dialog = page.locator("#dlg-new")
    group = dialog.get_by_role("group", name=EN["web.new.layout"])
    expect(group.get_by_role("radio")).to_have_count(len(LAYOUTS))
    expect(group.locator("svg.layout-pic")).to_have_count(len(LAYOUTS))
    expect(layout_radio(page, "three_peaks")).to_be_checked()
    # Tab order: difficulty, rules, the layout, then "Winnable deals only"
    page.keyboard.press("Tab")
    expect(dialog.get_by_role("radio", name=EN["rules.easy"])).to_be_focused()
    page.keyboard.press("Tab")
    expect(layout_radio(page, "three_peaks")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(layout_radio(page, LAYOUTS[1].id)).to_be_checked()
    page.keyboard.press("Tab")
    expect(dialog.get_by_role("checkbox", name=EN["web.new.winnable"])).to_be_focused()
    for chip in group.locator(".chip").all():
        box = chip.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
    dialog.locator(".chip", has_text=EN["layout.diamonds"]).click()
    expect(layout_radio(page, "diamonds")).to_be_checked()
    dialog.get_by_role("button", name=EN["web.new.start"]).click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#tableau .card")).to_have_count(BY_ID["diamonds"].size)
    expect(page.locator("#code")).to_contain_text("-DIAMONDS-")
    expect(page.locator("#code-rules")).to_have_text(
        f"{EN['layout.diamonds']} · {EN['web.rules.easy_short']}"
    )
    assert page.evaluate("localStorage.getItem('tripeaks.layout')") == "diamonds"
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#tableau .card")).to_have_count(
        BY_ID["diamonds"].size
    )  # the game resumed on it
    page.locator("#tools [data-action='new']").click()
    expect(layout_radio(page, "diamonds")).to_be_checked()
    chip = dialog.locator(".chip", has_text=EN["layout.diamonds"])
    # in view in its strip, however far along it is
    strip = dialog.locator("#new-layouts").bounding_box()
    box = chip.bounding_box()
    assert strip is not None and box is not None
    assert (
        box["x"] >= strip["x"] - 0.5
        and box["x"] + box["width"] <= strip["x"] + strip["width"] + 0.5
    )


def test_the_table_is_built_again_for_each_game_that_comes(new_page):
    """A typed code of another layout, then a new game back on Three Peaks, then the deal of the day (always
    Three Peaks): the table is built for each, and its cards are the game's."""
    page = new_page(code=code_of("bridge"), width=1440, height=900)
    expect(page.locator("#tableau .card")).to_have_count(BY_ID["bridge"].size)
    page.locator("#tools [data-action='new']").click()
    dialog = page.locator("#dlg-new")
    dialog.locator("#new-more > summary").click()
    dialog.get_by_role("textbox", name=EN["web.new.code"]).fill(code_of("up_and_down"))
    dialog.get_by_role("button", name=EN["web.new.start"]).click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#tableau .card")).to_have_count(BY_ID["up_and_down"].size)
    expect(page.locator("#code")).to_have_text(code_of("up_and_down"))
    page.locator("#tools [data-action='new']").click()
    dialog.locator(".chip", has_text=EN["layout.three_peaks"]).click()
    dialog.get_by_role("button", name=EN["web.new.start"]).click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#tableau .card")).to_have_count(28)
    expect(page.locator("#code-rules")).to_have_text(EN["web.rules.easy_short"])
    # the cards shown are the game's: each face-up card's name as the server sends it
    game = page.request.get(
        f"/api/games/{page.evaluate('localStorage.getItem(`tripeaks.game`)')}"
    ).json()
    assert game["layout"] == "three_peaks"
    for slot in game["tableau"]:
        if slot["slot"] == "face_up":
            shown = page.locator(f"#tableau [data-pos='{slot['pos']}']")
            expect(shown).to_have_attribute("aria-label", slot["card"]["name"])
    # on Theatre again, then the deal of the day, which is always dealt on Three Peaks
    page.locator("#tools [data-action='new']").click()
    dialog.locator(".chip", has_text=EN["layout.theatre"]).click()
    dialog.get_by_role("button", name=EN["web.new.start"]).click()
    expect(page.locator("#tableau .card")).to_have_count(BY_ID["theatre"].size)
    choose(page, action="daily")
    page.locator("#dlg-daily").get_by_role("button", name=EN["web.daily.play"]).click()
    expect(page.locator("#code-rules")).to_have_text(EN["web.daily.rules_ranked"])
    expect(page.locator("#tableau .card")).to_have_count(28)


@pytest.mark.parametrize(("width", "height"), [(360, 640), (1440, 900)])
def test_axe_finds_nothing_with_the_layout_picker_open(new_page, width, height):
    page = new_page(width=width, height=height, settings={"tripeaks.layout": "bridge"})
    page.locator("#tools [data-action='new']").click()
    expect(layout_radio(page, "bridge")).to_be_checked()
    no_violations(page, f"New game window with the layouts at {width}x{height}")
    for name in (EN["web.new.start"], EN["web.cancel"]):
        button = page.locator("#dlg-new").get_by_role("button", name=name)
        box = button.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, name


def test_statistics_name_the_layout_of_each_kind(new_page):
    """A Diamonds game left after a draw counts, apart from Three Peaks' Easy games, in a table headed with
    its layout and rules."""
    page = new_page(code=code_of("diamonds"), width=390, height=844)
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("1")
    page.locator("#tools [data-action='new']").click()
    dialog = page.locator("#dlg-new")
    dialog.locator(".chip", has_text=EN["layout.three_peaks"]).click()
    dialog.get_by_role("button", name=EN["web.new.start"]).click()
    page.locator("#dlg-confirm").get_by_role("button", name=EN["web.confirm.abandon.yes"]).click()
    expect(page.locator("#tableau .card")).to_have_count(28)
    choose(page, action="stats")
    stats = page.locator("#dlg-stats")
    tables = stats.locator("table.stats-grid")
    expect(tables).to_have_count(2)
    standard, kind = tables.nth(0), tables.nth(1)
    expect(standard.get_by_role("row", name=EN["web.stats.played"])).to_contain_text("0")
    heading = f"{EN['layout.diamonds']} · {EN['web.rules.easy_short']}"
    expect(kind.get_by_role("columnheader")).to_have_text(heading)
    expect(kind.get_by_role("row", name=EN["web.stats.played"])).to_contain_text("1")
    no_violations(page, "statistics with a layout's kind")
