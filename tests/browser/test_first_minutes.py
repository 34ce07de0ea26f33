"""The first minutes of a new player, on every screen (issue 37): a phone on its side keeps its
margins, targets and card size; a tablet's ranks are as large as a phone's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from tripeaks_page import WIN_CODE, click_line, moves, winning_line

# A deal that is stuck once its whole stock is drawn, without a single card played.
STUCK_AT_ONCE = "TP1-E-AAAAAAH"
MARGIN = 12  # docs/ui.md, Layout: felt kept free at each edge of the screen

BOX = "(el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def draw_all(page: Page) -> None:
    for n in range(1, 24):
        page.keyboard.press("d")
        expect(moves(page)).to_have_text(str(n))


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_a_phone_on_its_side_keeps_the_stuck_notice_in_its_margins(new_page, lang):
    """844×390: the stuck notice sat flush at x = 0 with 40 px buttons, and "Pila de descart" ended
    exactly at the screen's edge (issue 37, defect 6)."""
    page = new_page(code=STUCK_AT_ONCE, width=844, height=390, settings={"tripeaks.lang": lang})
    draw_all(page)
    stuck = page.locator("#stuck")
    expect(stuck).to_be_visible()
    left, top, right, bottom = stuck.evaluate(BOX)
    assert left >= MARGIN - 0.5 and right <= 844 - MARGIN + 0.5, (left, right)
    assert bottom <= page.locator("#table").evaluate(BOX)[3]
    for button in stuck.locator("button:visible").all():
        assert button.evaluate("(el) => el.getBoundingClientRect().height") >= 44
    for caption in page.locator(".pile-caption").all():
        c_left, _, c_right, _ = caption.evaluate(BOX)
        assert c_left >= MARGIN - 0.5 and c_right <= 844 - MARGIN + 0.5, (
            caption.inner_text(),
            c_left,
            c_right,
        )
    # the notice covers no card
    for face in page.locator("#tableau .card").all():
        assert face.evaluate(BOX)[3] <= top + 1


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_a_phone_on_its_side_keeps_its_cards_size_under_the_guide(new_page, lang):
    """844×390: the cards shrank while the first game's guide showed, and the guide reached the
    screen's edge (issue 37, defect 6)."""
    page = new_page(width=844, height=390, guide=True, settings={"tripeaks.lang": lang})
    guide = page.locator("#guide")
    expect(guide).to_be_visible()
    card = page.locator("#tableau .card").first
    with_guide = card.evaluate("(el) => el.getBoundingClientRect().width")
    left, top, right, bottom = guide.evaluate(BOX)
    assert left >= MARGIN - 0.5 and right <= 844 - MARGIN + 0.5, (left, right)
    assert bottom <= page.locator("#table").evaluate(BOX)[3]
    for face in page.locator("#tableau .card").all():
        assert face.evaluate(BOX)[3] <= top + 1
    # every step's words fit the guide's place (the longest is Finnish)
    for _ in range(2):
        guide.locator("#guide-next").click()
        g_top, g_bottom = guide.evaluate(BOX)[1], guide.evaluate(BOX)[3]
        assert g_bottom <= page.locator("#table").evaluate(BOX)[3] and g_top >= bottom - 90
    guide.locator("#guide-next").click()
    expect(guide).to_be_hidden()
    without = card.evaluate("(el) => el.getBoundingClientRect().width")
    assert with_guide == pytest.approx(without, abs=0.5)


SEEN = """(el) => {
  const box = el.getBoundingClientRect();
  const dialog = el.closest("dialog").getBoundingClientRect();
  const sticky = el.closest("dialog").querySelector(":scope > .row:last-child").getBoundingClientRect();
  return box.height > 0 && box.top >= dialog.top && box.bottom <= sticky.top + 1;
}"""


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_phone_on_its_side_shows_the_whole_result(new_page, lang):
    """844×390: the result window hid the longest streak and the review below the fold with no cue
    (issue 37, defect 6)."""
    page = new_page(code=WIN_CODE, width=844, height=390, settings={"tripeaks.lang": lang})
    click_line(page, WIN_CODE, winning_line(WIN_CODE), lang=lang)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    expect(page.locator("#win-result")).not_to_be_empty()
    page.wait_for_timeout(300)
    for line in ("#win-score", "#win-result", "#win-streak"):
        assert page.locator(line).evaluate(SEEN), f"{line} is below the fold"
    # its buttons in one row
    tops = {round(b.evaluate(BOX)[1]) for b in win.locator(".row button:visible").all()}
    assert len(tops) == 1, tops


def test_a_window_that_scrolls_says_so(new_page):
    """A window whose body goes on below its sticky row casts a shadow from that row, and none once
    read to its end."""
    page = new_page(width=844, height=390)
    page.locator("#menu-btn").click()
    page.get_by_role("menu").locator("[data-action='settings']").click()
    settings = page.locator("#dlg-settings")
    expect(settings).to_be_visible()
    row = settings.locator(":scope > .row:last-child")
    assert settings.evaluate("(el) => el.scrollHeight > el.clientHeight")
    assert row.evaluate("(el) => getComputedStyle(el).boxShadow") != "none"
    settings.evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    page.wait_for_timeout(100)
    shadow = row.evaluate("(el) => getComputedStyle(el).boxShadow")
    assert shadow == "none", shadow
    assert (
        page.evaluate("document.getAnimations().length") == 0
    )  # a state of the scroll, not motion


def rank_size(page: Page) -> float:
    face = page.locator("#tableau .card:not(.back) .idx .r").first
    return float(face.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)"))


@pytest.mark.parametrize(("width", "height"), [(768, 1024), (1024, 768), (1440, 900)])
def test_a_tablets_ranks_are_as_large_as_a_phones(new_page, width, height):
    """At 768×1024 the rank was 17 px, smaller than on a phone (21 px at 390×844): wide cards switch
    to small corner indices (issue 37)."""
    phone = rank_size(new_page(width=390, height=844))
    assert rank_size(new_page(width=width, height=height)) >= phone - 0.5


# ---- Animation: Full, Reduced, Off ------------------------------------------------------------

# Every animation the page starts with the Web Animations API, as it is started.
RECORD = """const animate = Element.prototype.animate;
window.__animations = [];
Element.prototype.animate = function (frames, options) {
  const props = (Array.isArray(frames) ? frames : [frames]).flatMap((k) => Object.keys(k))
    .filter((p) => !['offset', 'easing', 'composite'].includes(p));
  const ms = typeof options === 'number' ? options : (options && options.duration) || 0;
  window.__animations.push({ props: [...new Set(props)], ms });
  return animate.call(this, frames, options);
};"""


def open_settings(page: Page):
    page.locator("#menu-btn").click()
    page.get_by_role("menu").locator("[data-action='settings']").click()
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    return dialog


@pytest.mark.parametrize(("system", "default"), [("no-preference", "Full"), ("reduce", "Reduced")])
def test_the_animation_setting_follows_the_system_until_chosen(new_page, system, default):
    page = new_page(motion=system)
    settings = open_settings(page)
    group = settings.get_by_role("group", name="Animation")
    expect(group.get_by_role("radio", name=default)).to_be_checked()
    group.get_by_role("radio", name="Off").check()
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    settings = open_settings(page)
    expect(settings.get_by_role("radio", name="Off")).to_be_checked()


@pytest.mark.parametrize(
    ("choice", "flies", "fades"),
    [("full", True, False), ("reduced", False, True), ("off", False, False)],
)
def test_each_animation_setting_moves_as_it_says(new_page, choice, flies, fades):
    """Full flies the card; Reduced fades the changed cards in briefly and flies nothing; Off
    changes everything at once."""
    page = new_page(motion="no-preference", settings={"tripeaks.motion": choice}, script=RECORD)
    page.wait_for_timeout(900)  # the deal's flights are over
    page.evaluate("window.__animations = []")
    page.locator("#stock").click()
    expect(moves(page)).to_have_text("1")  # the state is there at once, whatever moves
    page.wait_for_timeout(400)
    started = page.evaluate("window.__animations")
    assert any("transform" in a["props"] for a in started) is flies, started
    fading = [a for a in started if a["props"] == ["opacity"]]
    assert bool(fading) is fades, started
    assert all(a["ms"] <= 200 for a in fading)
    if choice == "off":
        assert started == []


# ---- Spoken, not only shown -------------------------------------------------------------------


def test_a_peak_cleared_a_growing_streak_and_the_verdict_are_said(new_page):
    """The live region says when a peak is cleared and its points, the streak once it grows past 2,
    and at the end the solver's verdict, each once (issue 37, "Spoken, not only shown")."""
    from tripeaks.engine.game import ActionKind, Game

    page = new_page(code=WIN_CODE)
    said: list[str] = []
    line = winning_line(WIN_CODE)
    game = Game.new(WIN_CODE)

    def heard(action) -> None:
        turn = game.apply(action)
        text = page.locator("#live").inner_text()
        said.append(text)
        if action.kind is ActionKind.PLAY and turn.peak is not None:
            assert f"Peak cleared, {turn.peak_points} points." in text
        if action.kind is ActionKind.PLAY and turn.streak > 2:
            assert f"Card streak {turn.streak}." in text
        else:
            assert "Card streak" not in text
        if not game.is_won:
            assert "best score" not in text

    click_line(page, WIN_CODE, line, each=heard)
    assert any("Peak cleared" in text for text in said)
    assert any("Card streak 3." in text for text in said)
    # the winning play's sentence, then the verdict once it is known: said once
    expect(page.locator("#live")).to_contain_text("best score")
    page.wait_for_timeout(3000)
    assert page.locator("#live").inner_text().count("best score") == 1


def test_a_stuck_game_says_whether_it_could_have_been_won(new_page):
    page = new_page(code=STUCK_AT_ONCE)
    draw_all(page)
    expect(page.locator("#stuck")).to_be_visible()
    expect(page.locator("#live")).to_contain_text("This deal could")


# ---- The first game ---------------------------------------------------------------------------


def test_a_new_players_first_deal_is_gentle_and_winnable(new_page):
    """29% of random Easy deals are graded Hard and 4% cannot be won: a new player's first game is a
    Gentle deal; later deals follow the player's choice (issue 37)."""
    from tripeaks.solver.explain import Grade, grade
    from tripeaks.solver.search import is_winnable

    page = new_page(guide=True, motion="reduce")
    code = page.locator("#code").text_content()
    assert code and code.startswith("TP1-E-")
    assert grade(code) is Grade.GENTLE
    assert is_winnable(code)
    # the choice stays the player's: New game then deals a random deal, not a graded one
    assert page.evaluate("localStorage.getItem('tripeaks.difficulty')") is None


# ---- Redo -------------------------------------------------------------------------------------


def test_redo_plays_the_undone_moves_again_by_button_and_keys(new_page):
    """After an undo, Redo (the button, R, Ctrl+Y, Ctrl+Shift+Z) plays the undone actions again in
    order, each counted as the move it is, until a new action is taken (issue 37)."""
    from tripeaks_page import EXAMPLE_CODE, card, name_at

    from tripeaks.engine.game import DRAW, Action

    page = new_page(code=EXAMPLE_CODE, width=360, height=640)
    redo = page.locator("#redo")
    expect(redo).to_be_disabled()
    expect(redo).to_have_accessible_name("Redo")
    expect(redo).to_have_attribute("aria-keyshortcuts", "R Control+Y Control+Shift+Z")
    line = [Action.play(21), Action.play(19), DRAW]
    king = name_at(EXAMPLE_CODE, [], 21)
    click_line(page, EXAMPLE_CODE, line)
    expect(page.locator("#stock-count")).to_have_text("22")
    page.keyboard.press("u")  # the draw taken back
    expect(page.locator("#stock-count")).to_have_text("23")
    page.keyboard.press("u")
    expect(card(page, name_at(EXAMPLE_CODE, [], 19))).to_be_visible()
    page.keyboard.press("u")
    expect(card(page, king)).to_be_visible()
    expect(moves(page)).to_have_text("3")  # an undo is no move (rules §4)
    expect(redo).to_be_enabled()
    redo.click()  # the king again: the first undone is redone last
    expect(card(page, king)).to_have_count(0)
    expect(moves(page)).to_have_text("4")  # a redo counts as the move it is
    expect(page.locator("#live")).to_contain_text("Redo")
    page.keyboard.press("r")
    expect(moves(page)).to_have_text("5")
    page.keyboard.press("Control+y")  # the draw
    expect(moves(page)).to_have_text("6")
    expect(page.locator("#stock-count")).to_have_text("22")
    expect(redo).to_be_disabled()
    page.keyboard.press("Control+z")
    expect(page.locator("#stock-count")).to_have_text("23")
    expect(redo).to_be_enabled()
    page.keyboard.press("Control+Shift+Z")
    expect(moves(page)).to_have_text("7")
    expect(page.locator("#stock-count")).to_have_text("22")
    # a new action ends what could be redone
    page.keyboard.press("u")
    expect(redo).to_be_enabled()
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("8")
    expect(redo).to_be_disabled()
    page.keyboard.press("r")  # nothing to redo: nothing happens
    page.wait_for_timeout(200)
    expect(moves(page)).to_have_text("8")


def test_five_tools_fit_a_small_phone_in_every_language(new_page):
    for lang in ("en", "fi", "ca"):
        page = new_page(width=320, height=568, settings={"tripeaks.lang": lang})
        boxes = page.locator("#tools > button").evaluate_all(
            "(bs) => bs.map((b) => { const r = b.getBoundingClientRect();"
            " return [r.left, r.right, r.width, r.height, b.scrollWidth <= b.clientWidth + 1]; })"
        )
        assert len(boxes) == 5
        assert all(w >= 44 and h >= 44 and fits for _, _, w, h, fits in boxes), (lang, boxes)
        assert boxes[0][0] >= 0 and boxes[-1][1] <= 320, (lang, boxes)


# ---- The score adds up ------------------------------------------------------------------------

WATCH_COUNT = """window.counted = [];
new MutationObserver(() => {
  const el = document.querySelector('#win-count');
  if (el && !el.hidden) window.counted.push(el.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
  attributeFilter: ['hidden'] });"""


def test_the_result_window_counts_the_score_up_from_its_parts(new_page):
    """The result window lists the score's parts (500, the cards played, the draws, each peak's
    +100) and counts the score up through them, so a player sees why a win scored what it did; a
    screen reader reads the final score all along (issue 37)."""
    from tripeaks.engine.game import Game

    page = new_page(code=WIN_CODE, motion="no-preference", script=WATCH_COUNT)
    line = winning_line(WIN_CODE)
    final = Game.replay(WIN_CODE, line)
    click_line(page, WIN_CODE, line)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible(timeout=15_000)
    expect(page.locator("#win-score")).to_have_text(f"Score: {final.score}")
    parts = page.locator("#win-parts li")
    expect(parts).to_have_count(4)
    expect(parts.nth(0)).to_have_text("Start500")
    plays = 28
    draws = sum(1 for a in line if a.kind.value == "draw")
    expect(parts.nth(1)).to_have_text(f"Cards played ×{plays}−{plays}")
    expect(parts.nth(2)).to_have_text(f"Cards drawn ×{draws}−{draws}")
    expect(parts.nth(3)).to_have_text("Peaks cleared ×3+300")
    assert 500 - plays - draws + 300 == final.score
    expect(page.locator("#win-count")).to_be_hidden(timeout=5_000)  # counted to the end
    counted = page.evaluate("window.counted")
    assert counted[0] == "Score: 500" and counted[-1] == f"Score: {final.score}", counted
    assert len(set(counted)) > 4, counted
    assert page.locator("#win-count").get_attribute("aria-hidden") == "true"


WATCH_GUIDE = """new MutationObserver((records, observer) => {
  if (!document.querySelector('#guide')) return;
  window.flyingAtGuide = document.getAnimations().filter((a) => a.playState === 'running'
    && a.effect && a.effect.target && a.effect.target.closest('.motion-layer')).length;
  observer.disconnect();
}).observe(document, { subtree: true, childList: true });"""


def test_the_first_games_guide_opens_once_the_deal_has_landed(new_page):
    """On a first visit the guide opened while the deal's cards still flew over its panel."""
    page = new_page(guide=True, motion="no-preference", script=WATCH_GUIDE)
    expect(page.locator("#guide")).to_be_visible()
    assert page.evaluate("window.flyingAtGuide") == 0
