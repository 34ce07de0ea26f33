"""The table of issue 11: the board fills a phone, messages have their own place, every window's main
button stays on screen, the menu, the hint against the focus ring, and the looks remembered."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect
from tripeaks_page import (
    EXAMPLE_CODE,
    STUCK_CODE,
    WIN_CODE,
    card,
    choose,
    moves,
    no_violations,
    open_settings,
    stock,
    toast,
    winning_line,
)

SIZES = [(360, 640), (390, 844), (844, 390), (1440, 900)]
PORTRAIT = [(320, 568), (360, 640), (390, 844), (430, 932)]

BOXES = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getClientRects().length)
  .map((el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
CARDS = "#tableau .card:not([hidden]), #stock, #discard"


def boxes(page: Page, selector: str) -> list[list[float]]:
    return page.evaluate(BOXES, selector)


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def assert_covers_no_card(page: Page, selector: str, what: str) -> None:
    shown = boxes(page, selector)
    assert shown, f"{what}: not shown"
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    for box in shown:
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height, (what, box)
        for other in boxes(page, CARDS):
            assert not overlap(box, other), f"{what} {box} covers a card {other}"


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_message_covers_a_card(new_page, width, height, artifacts):
    page = new_page(code=EXAMPLE_CODE, width=width, height=height)
    # A refusal (a hidden card tapped).
    page.locator("#tableau").get_by_role("button", name="hidden card").first.click()
    expect(toast(page)).to_be_visible()
    assert_covers_no_card(page, "#toast", "refusal")
    # A hint: its sentence and its highlight.
    page.keyboard.press("h")
    expect(page.locator(".hinted")).to_have_count(1)
    expect(toast(page)).to_be_visible()
    assert_covers_no_card(page, "#toast", "hint message")
    # The saving notice: every play answered 503 for the rest of the test.
    unavailable = json.dumps({"error": {"reason": "unavailable", "message": "x"}, "state": None})
    page.route(
        "**/api/games/*/play*",
        lambda route: route.fulfill(
            status=503,
            headers={"Retry-After": "30"},
            content_type="application/json",
            body=unavailable,
        ),
    )
    card(page, "king of clubs").click()
    expect(page.locator("#saving")).to_be_visible()
    assert_covers_no_card(page, "#saving", "saving notice")
    page.screenshot(path=artifacts / f"table-saving-{width}x{height}.png")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_stuck_notice_covers_no_card(new_page, width, height, artifacts):
    page = new_page(code=STUCK_CODE, width=width, height=height)
    for n in range(1, 24):
        stock(page).click()
        expect(moves(page)).to_have_text(str(n))
    expect(page.locator("#stuck")).to_be_visible()
    assert_covers_no_card(page, "#stuck", "stuck notice")
    # ... and pushes nothing off the table: the piles and their captions stay inside it
    table = boxes(page, "#table")[0]
    for box in boxes(page, "#stock, #discard, .pile-caption"):
        assert table[1] <= box[1] and box[3] <= table[3] + 0.5, (box, table)
    # The moment calls for Undo: it is the loud one, New game is not.
    expect(page.locator("#tools [data-action='undo']")).to_have_class(
        __import__("re").compile(r"\bloud\b")
    )
    expect(page.locator("#tools [data-action='new']")).not_to_have_class(
        __import__("re").compile(r"\bloud\b")
    )
    page.screenshot(path=artifacts / f"table-stuck-{width}x{height}.png")


def win_by_api(page: Page, code: str) -> None:
    """Play the winning line through the API, then reload: the page opens on the won game."""
    game_id = page.evaluate("localStorage.getItem('tripeaks.game')")
    version = 0
    for action in winning_line(code):
        kind = "draw" if action.pos is None else "play"
        body = (
            {"version": version} if action.pos is None else {"version": version, "pos": action.pos}
        )
        reply = page.request.post(f"/api/games/{game_id}/{kind}", data=body)
        assert reply.ok, reply.text()
        version = reply.json()["version"]
    page.reload()
    page.wait_for_selector("body[data-ready]")


def inside(page: Page, locator) -> None:
    box = locator.bounding_box()
    assert box is not None
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, (
        box,
        width,
        height,
    )


@pytest.mark.parametrize(("width", "height"), [*SIZES, (640, 360)])
def test_every_window_keeps_its_main_button_on_screen(new_page, width, height):
    page = new_page(code=EXAMPLE_CODE, width=width, height=height)
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    for action, dialog, main in (
        ("new", "#dlg-new", "button[type='submit']"),
        ("settings", "#dlg-settings", "[data-close]"),
        ("stats", "#dlg-stats", ".row [data-close]"),
        ("help", "#dlg-help", "[data-close]"),
    ):
        if action == "new":
            page.locator("#tools [data-action='new']").click()
        else:
            choose(page, action=action)
        expect(page.locator(dialog)).to_be_visible()
        button = page.locator(f"{dialog} {main}").first
        expect(button).to_be_visible()
        inside(page, button)
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
    # The confirmation before leaving a game with a move.
    page.locator("#tools [data-action='new']").click()
    page.locator("#dlg-new button[type='submit']").click()
    expect(page.locator("#dlg-confirm")).to_be_visible()
    inside(page, page.locator("#confirm-yes"))
    inside(page, page.locator("#confirm-no"))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_win_window_keeps_its_buttons_on_screen(new_page, width, height):
    page = new_page(code=WIN_CODE, width=width, height=height)
    win_by_api(page, WIN_CODE)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    for button in win.locator(".row button:visible").all():  # a daily's board button is hidden here
        inside(page, button)


GLYPHS = """() => [...document.querySelectorAll('#tableau .card.free .idx:not(.br) .r')].map((r) => {
  const cs = getComputedStyle(r);
  const c = document.createElement('canvas').getContext('2d');
  c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const m = c.measureText(r.textContent);
  return [r.textContent, m.actualBoundingBoxAscent + m.actualBoundingBoxDescent];
})"""


def test_the_rank_on_a_390_px_phone_is_at_least_14_px_tall(new_page):
    page = new_page(code=EXAMPLE_CODE, width=390, height=844)
    glyphs = page.evaluate(GLYPHS)
    assert len(glyphs) == 10
    print("rank glyphs at 390 px:", glyphs)
    for rank, tall in glyphs:
        assert tall >= 14, (rank, tall)


FELT = """() => {
  const t = document.querySelector('#table').getBoundingClientRect();
  const rect = (el) => el.getBoundingClientRect();
  const peaks = [...document.querySelectorAll('#tableau .card:not([hidden])')].map(rect);
  const piles = [...document.querySelectorAll('#stock, #discard')].map(rect);
  const cards = [...peaks, ...piles];
  const top = Math.min(...cards.map((r) => r.top));
  const bottom = Math.max(...cards.map((r) => r.bottom));
  const left = Math.min(...cards.map((r) => r.left));
  const right = Math.max(...cards.map((r) => r.right));
  const gap = Math.min(...piles.map((r) => r.top)) - Math.max(...peaks.map((r) => r.bottom));
  return { above: (top - t.top) / t.height, below: (t.bottom - bottom) / t.height,
           gap: gap / t.height, gap_px: gap,
           width: (right - left) / t.width, peak: peaks[0].width, pile: piles[0].width };
}"""


# Every number card painted by the page itself (cards.js's paintFace) on the discard and on a peak card;
# the boxes of each corner index's rank and suit against the boxes of the pips drawn between them.
PIP_CLASHES = """async () => {
  const { paintFace } = await import("/static/js/cards.js");
  const suits = [["hearts", "\u2665"], ["spades", "\u2660"], ["diamonds", "\u2666"], ["clubs", "\u2663"]];
  const peak = [...document.querySelectorAll("#tableau .card")].find((el) => !el.hidden);
  const box = (el) => el.getBoundingClientRect();
  const out = { drawn: 0, clashes: [] };
  for (const el of [document.querySelector("#discard"), peak]) {
    for (let rank = 2; rank <= 10; rank += 1) {
      for (const [suit, symbol] of suits) {
        paintFace(el, { label: `${rank}${symbol}`, suit, rank, name: "" });
        const pips = [...el.querySelectorAll(".pips .p")].filter((p) => p.getClientRects().length);
        if (pips.length) out.drawn += 1;
        for (const part of el.querySelectorAll(".idx > span")) {
          const a = box(part);
          if (!a.width) continue;
          for (const pip of pips) {
            const b = box(pip);
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
              out.clashes.push(`${el.id || "peak"} ${rank}${symbol}`);
          }
        }
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize(("width", "height"), [(600, 900), (768, 1024), (1024, 768), (1440, 900)])
def test_no_corner_index_touches_a_pip(new_page, width, height, artifacts):
    page = new_page(width=width, height=height)
    found = page.evaluate(PIP_CLASHES)
    assert found["drawn"] >= 36, found  # the pips are drawn (a large discard at least) on each size
    assert found["clashes"] == [], found["clashes"]
    page.screenshot(path=artifacts / f"pips-{width}x{height}.png")


@pytest.mark.parametrize(("width", "height"), PORTRAIT)
def test_a_portrait_phone_board_fills_the_table(new_page, width, height):
    page = new_page(code=EXAMPLE_CODE, width=width, height=height)
    felt = page.evaluate(FELT)
    print(f"{width}x{height}:", felt)
    assert felt["above"] < 0.15, felt  # little bare felt above the peaks
    assert felt["below"] < 0.15, felt  # and the board is not pushed up: it spans the table
    assert felt["width"] > 0.95, felt  # the peaks use the whole width
    assert 1.3 <= felt["pile"] / felt["peak"] <= 2.2, felt  # piles in proportion to the table cards
    # The piles close under the peaks: between them only the notices' place (128 px), widened by no more
    # than the felt left once the rows are spread and the felt above and below has its share.
    assert felt["gap_px"] >= 128, felt
    assert felt["gap"] < 0.32, felt


def test_the_hint_looks_nothing_like_the_focus_ring(new_page):
    page = new_page(code=EXAMPLE_CODE, width=390, height=844, motion="no-preference")
    page.keyboard.press("h")
    hinted = page.locator(".hinted")
    expect(hinted).to_have_count(1)
    looks = hinted.evaluate(
        """(el) => { const b = getComputedStyle(el, '::before'); el.focus();
           const f = getComputedStyle(el);
           return { style: b.borderStyle, colour: b.borderColor, shadow: b.boxShadow, moving: b.animationName,
                    ring: f.outlineStyle, ringColour: f.outlineColor, z: getComputedStyle(el).zIndex }; }"""
    )
    assert looks["style"] == "dashed" and looks["ring"] != "dashed", looks
    assert looks["colour"] != looks["ringColour"], looks
    assert looks["moving"] != "none", looks  # the hint breathes; the focus ring never moves
    assert int(looks["z"]) > 0, looks  # above its neighbours: no card clips its halo


def test_the_menu_works_by_keyboard(new_page):
    page = new_page(code=EXAMPLE_CODE)
    button = page.locator("#menu-btn")
    expect(button).to_have_attribute("aria-expanded", "false")
    button.focus()
    page.keyboard.press("ArrowDown")
    menu = page.get_by_role("menu", name="Menu")
    expect(menu).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    items = menu.get_by_role("menuitem")
    expect(items.first).to_be_focused()
    page.keyboard.press("ArrowUp")  # wraps to the last item
    expect(menu.locator("[role^='menuitem']").last).to_be_focused()
    page.keyboard.press("Home")
    expect(items.first).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(button).to_be_focused()
    # Enter opens it, arrows reach Read board, Enter says the board, the focus comes back.
    page.keyboard.press("Enter")
    read = menu.get_by_role("menuitem", name="Read board")
    for _ in range(8):
        if read.evaluate("(el) => el === document.activeElement"):
            break
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(menu).to_be_hidden()
    expect(page.locator("#live")).to_contain_text("Stock: 23 cards")
    expect(button).to_be_focused()
    # Help opened from the menu gives the focus back to the Menu button when it closes.
    page.keyboard.press("Enter")
    menu.get_by_role("menuitem", name="Help").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#dlg-help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(button).to_be_focused()
    # Letter keys inside the menu are not the board's: "d" draws nothing.
    page.keyboard.press("Enter")
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("0")
    page.keyboard.press("Tab")
    expect(menu).to_be_hidden()


def test_the_menu_works_by_touch(new_page):
    page = new_page(code=EXAMPLE_CODE, width=390, height=844, touch=True)
    page.locator("#menu-btn").tap()
    menu = page.get_by_role("menu")
    expect(menu).to_be_visible()
    # The game code and its copy are in the menu.
    expect(page.locator("#code")).to_have_text(EXAMPLE_CODE)
    inside(page, menu)
    menu.get_by_role("menuitem", name="Statistics").tap()
    expect(menu).to_be_hidden()
    expect(page.locator("#dlg-stats")).to_be_visible()
    page.keyboard.press("Escape")
    page.locator("#menu-btn").tap()
    expect(menu).to_be_visible()
    page.locator("#tableau").tap(position={"x": 2, "y": 2})  # a tap outside closes it
    expect(menu).to_be_hidden()


def test_tapping_the_score_shows_the_scoring_table(new_page):
    page = new_page(code=EXAMPLE_CODE, width=390, height=844, touch=True)
    page.locator("#score-btn").tap()
    table = page.locator("#scoring")
    expect(table).to_be_visible()
    rules = page.request.get("/api/rules").json()
    expect(table.locator("tr")).to_have_count(len(rules["scoring"]))
    expect(page.locator("#score-btn")).to_have_attribute("aria-expanded", "true")
    page.locator("#score-btn").tap()
    expect(table).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_traditional_game_shows_the_traditional_scoring_table(new_page, lang):
    """The score's table is the scoring in play: a traditional game's start, runs, draw and peaks,
    not our 500, -1 a card and +100 a peak (issue 37, defect 3)."""
    locale = {"en": "en-US", "fi": "fi-FI"}[lang]
    page = new_page(code=f"{EXAMPLE_CODE}-T", width=390, height=844, touch=True, locale=locale)
    page.locator("#score-btn").tap()
    table = page.locator("#scoring")
    expect(table).to_be_visible()
    rules = page.request.get("/api/rules").json()
    words = page.request.get(f"/api/i18n/{lang}").json()["messages"]
    rows = table.locator("tr")
    expect(rows).to_have_count(3 + len(rules["traditional"]["peaks"]))
    expect(rows.nth(1)).to_contain_text(words["help.scoring.t_remove"])
    expect(rows.nth(2)).to_contain_text(words["help.scoring.t_draw"])
    expect(rows.nth(2)).to_contain_text("\u22125")
    expect(table).not_to_contain_text(words["web.scoring.remove"])
    page.locator("#score-btn").tap()
    expect(table).to_be_hidden()


def test_the_looks_are_remembered_across_a_reload(new_page, artifacts):
    page = new_page(code=EXAMPLE_CODE, width=390, height=844)
    html = page.locator("html")
    expect(html).to_have_attribute("data-deck", "two")
    dialog = open_settings(page)
    dialog.get_by_role("radio", name="Four colours, each suit its own").check()
    dialog.get_by_role("radio", name="Red dots").check()
    dialog.get_by_role("radio", name="Blue", exact=True).check()
    page.keyboard.press("Escape")
    clubs = page.locator("#tableau .card.s-c").first
    assert clubs.evaluate("(el) => getComputedStyle(el).color") != "rgb(27, 28, 30)"
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(html).to_have_attribute("data-deck", "four")
    expect(html).to_have_attribute("data-back", "red")
    expect(html).to_have_attribute("data-felt", "blue")
    page.screenshot(path=artifacts / "looks-four-red-blue-390x844.png")
    dialog = open_settings(page)
    expect(dialog.get_by_role("radio", name="Four colours, each suit its own")).to_be_checked()
    expect(dialog.get_by_role("radio", name="Red dots")).to_be_checked()
    expect(dialog.get_by_role("radio", name="Blue", exact=True)).to_be_checked()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_on_the_menu_and_the_settings(new_page, theme):
    page = new_page(
        code=EXAMPLE_CODE, scheme=theme, settings={"tripeaks.theme": theme, "tripeaks.deck": "four"}
    )
    page.locator("#menu-btn").click()
    expect(page.get_by_role("menu")).to_be_visible()
    no_violations(page, f"menu, {theme}")
    page.keyboard.press("Escape")
    page.locator("#score-btn").click()
    expect(page.locator("#scoring")).to_be_visible()
    no_violations(page, f"scoring table, {theme}")
    open_settings(page)
    no_violations(page, f"settings, {theme}")


# Redo's word is only its accessible name on a phone (its arrow alone shows): not a label to fit.
TOOL_LABELS = """() => [...document.querySelectorAll('#tools .tool span')]
  .filter((el) => el.getBoundingClientRect().width > 1).map((el) => {
  const line = parseFloat(getComputedStyle(el).lineHeight);
  const box = el.getBoundingClientRect();
  const tool = el.closest('.tool').getBoundingClientRect();
  return { label: el.textContent, height: box.height, line, inside: box.left >= tool.left && box.right <= tool.right };
})"""


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
@pytest.mark.parametrize(("width", "height"), [(320, 568), (360, 640), (430, 932)])
def test_every_toolbar_label_stands_on_one_line(new_page, lang, width, height):
    page = new_page(code=EXAMPLE_CODE, width=width, height=height, settings={"tripeaks.lang": lang})
    labels = page.evaluate(TOOL_LABELS)
    print(f"{lang} {width}x{height}:", [(x["label"], x["height"]) for x in labels])
    assert len(labels) == (5 if width >= 640 else 4) and all(x["label"] for x in labels), labels
    for x in labels:
        assert x["height"] < 1.5 * x["line"], x  # one line, not two
        assert x["inside"], x  # and within its button
    right = page.evaluate("document.querySelector('#tools').getBoundingClientRect().right")
    assert right <= width, right


GEOMETRY = """() => [...document.querySelectorAll('#board, #tableau .card, #stock, #discard, .notices')]
  .map((el) => { const r = el.getBoundingClientRect();
    return [el.id || el.dataset.pos, ...[r.left, r.top, r.width, r.height].map((v) => Math.round(v * 10) / 10)]; })"""


def test_a_turned_phone_lays_the_board_out_as_a_phone_opened_that_way(new_page):
    """The table's size and shape come from cards.js (not a CSS size container, which had every card's
    style resolved inside the table's layout): turning the phone must give the very layout of a page
    opened at the new size, both ways, with the piles beside the peaks only on the wide table."""
    page = new_page(code=EXAMPLE_CODE, width=390, height=844, touch=True)
    upright = page.evaluate(GEOMETRY)
    table = page.locator("#table")
    expect(table).to_have_class(re.compile(r"\bupright\b"))
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#table')).containerType")
        == "normal"
    )
    page.set_viewport_size({"width": 844, "height": 390})
    expect(table).to_have_class(re.compile(r"\bside\b"))
    expect(table).not_to_have_class(re.compile(r"\bupright\b"))
    turned = page.evaluate(GEOMETRY)
    opened = new_page(code=EXAMPLE_CODE, width=844, height=390, touch=True).evaluate(GEOMETRY)
    assert turned == opened
    piles, peaks = boxes(page, "#stock")[0], boxes(page, "#tableau")[0]
    assert piles[0] >= peaks[2], "on a phone on its side the stock stands beside the peaks"
    width, height = page.evaluate(
        "[getComputedStyle(document.querySelector('#table')).getPropertyValue('--tw'),"
        " getComputedStyle(document.querySelector('#table')).getPropertyValue('--th')]"
    )
    box = page.evaluate(
        "(() => { const t = document.querySelector('#table');"
        " return [t.clientWidth, t.clientHeight]; })()"
    )
    assert (
        abs(float(width.removesuffix("px")) - box[0]) < 1
        and abs(float(height.removesuffix("px")) - box[1]) < 1
    )
    page.set_viewport_size({"width": 390, "height": 844})
    expect(table).to_have_class(re.compile(r"\bupright\b"))
    assert page.evaluate(GEOMETRY) == upright
    piles, peaks = boxes(page, "#stock")[0], boxes(page, "#tableau")[0]
    assert piles[1] >= peaks[3], "upright, the stock is under the peaks"


# A probe styled from the palette's variables (app.css :root) next to the cards, whose rules write the same
# colours out rather than through var() (docs/ui.md, "A card's style").
PALETTE = """(names) => {
  const probe = document.createElement('div');
  document.body.append(probe);
  const out = {};
  for (const name of names) { probe.style.color = `var(--${name})`; out[name] = getComputedStyle(probe).color; }
  probe.style.color = '';
  probe.style.boxShadow = 'var(--shadow)';
  out.shadow = getComputedStyle(probe).boxShadow;
  probe.remove();
  return out;
}"""
LOOK = """(el) => { const s = getComputedStyle(el);
  return { fill: s.backgroundColor, image: s.backgroundImage, edge: s.borderTopColor, ink: s.color, shadow: s.boxShadow }; }"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("back", ["blue", "red", "gold"])
def test_the_cards_are_drawn_in_the_palettes_colours(new_page, theme, back):
    page = new_page(
        code=EXAMPLE_CODE, scheme=theme, settings={"tripeaks.theme": theme, "tripeaks.back": back}
    )
    expect(page.locator("html")).to_have_attribute("data-back", back)
    palette = page.evaluate(PALETTE, ["card", "card-edge", "ink", "back-1", "back-2", "back-edge"])
    face = page.locator("#tableau .card.s-c, #tableau .card.s-s").first.evaluate(LOOK)
    assert face["fill"] == palette["card"]
    assert face["edge"] == palette["card-edge"]
    assert face["ink"] == palette["ink"]
    assert face["shadow"] == palette["shadow"]
    down = page.locator("#tableau .card.back").first.evaluate(LOOK)
    # the back's gradient runs from --back-2 to --back-1; its frame is --back-edge, then --back-1
    gradient = down["image"].rsplit("linear-gradient(", 1)[1]
    assert gradient.index(palette["back-2"]) < gradient.index(palette["back-1"]), gradient
    assert down["shadow"].startswith(f"{palette['back-edge']} 0px 0px 0px"), down["shadow"]
    frame = down["shadow"].split("inset, ", 1)[1]
    assert frame.startswith(f"{palette['back-1']} 0px 0px 0px"), frame
    assert down["shadow"].endswith(palette["shadow"]), (down["shadow"], palette["shadow"])


@pytest.mark.parametrize("back", ["blue", "red", "gold"])
def test_an_empty_stock_is_an_outline_under_every_back(new_page, back):
    page = new_page(code=EXAMPLE_CODE, settings={"tripeaks.back": back})
    pile = stock(page)
    for drawn in range(1, 40):
        if "empty" in (pile.get_attribute("class") or ""):
            break
        pile.click()
        expect(moves(page)).to_have_text(str(drawn))
    expect(pile).to_have_class(re.compile(r"\bempty\b"))
    look = pile.evaluate(LOOK)
    assert look["image"] == "none", look
    assert look["shadow"] == "none", look
    assert pile.evaluate("(el) => getComputedStyle(el).borderTopStyle") == "dashed"


# Recorded at the instant the page marks itself ready: the table's size as cards.js wrote it for app.css.
SIZE_AT_READY = """
new MutationObserver((changes, watcher) => {
  if (!document.body.dataset.ready) return;
  window.sizeAtReady = document.querySelector("#table").style.getPropertyValue("--tw");
  watcher.disconnect();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
"""


@pytest.mark.parametrize("code", [EXAMPLE_CODE, None])
def test_the_page_is_ready_only_once_its_board_has_a_size(new_page, code):
    """A stored game is shown without a deal: the ready mark came in the same task as the board was
    built, before the table's size was written, and a script reading the board then found cards 2 px
    wide (CI did, once)."""
    page = new_page(code=code, width=360, height=640, script=SIZE_AT_READY)
    assert page.evaluate("window.sizeAtReady") == "360px"
