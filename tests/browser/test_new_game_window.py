"""The New game window is a choice, not a form (issue 37): difficulty, then rules, then "Winnable deals
only" in view at once on a phone with the Deal button; the scoring, the variants and the code folded under
More options, which opens by itself when something in it is not the default or a code is refused."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Locator, Page, expect
from tripeaks_page import EXAMPLE_CODE, no_violations

from tripeaks.i18n import messages

EN = messages("en")
SIZES = [(360, 640), (390, 844), (844, 390), (768, 1024), (1440, 900)]

FITS = """(dialog) => ({ scroll: dialog.scrollHeight, client: dialog.clientHeight,
  form: dialog.querySelector('form').scrollHeight <= dialog.clientHeight })"""
"""The window's content height against its box: no scroll when the first is not above the second."""

IN_VIEW = """(el) => {
  const box = el.getBoundingClientRect();
  const dialog = el.closest("dialog").getBoundingClientRect();
  return box.height > 0 && box.top >= dialog.top - 0.5 && box.bottom <= dialog.bottom + 0.5
    && box.top >= 0 && box.bottom <= innerHeight;
}"""
"""Is the element drawn inside its window and on the screen, as it is scrolled now?"""

SEEN = """(el) => {
  const box = el.getBoundingClientRect();
  const dialog = el.closest("dialog").getBoundingClientRect();
  const sticky = el.closest("dialog").querySelector(":scope > form > .row:last-child").getBoundingClientRect();
  return box.height > 0 && box.top >= dialog.top && box.bottom <= sticky.top + 1;
}"""
"""Is the element inside its window and above the window's sticky row of buttons?"""


def open_window(page: Page) -> Locator:
    page.locator("#tools [data-action='new']").click()
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    return dialog


def summary(page: Page) -> Locator:
    return page.locator("#new-more > summary")


def expanded(page: Page) -> bool | None:
    """The summary's expanded state as Chromium gives it to a screen reader."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    for node in nodes:
        if node.get("role", {}).get("value") == "DisclosureTriangle":
            states = {p["name"]: p["value"]["value"] for p in node.get("properties", [])}
            assert states.get("focusable") is True
            return bool(states.get("expanded"))
    return None


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_on_a_small_phone_the_window_fits_with_deal_in_view(new_page, lang):
    """At 360x640 the window held 1,085 px in 589, Difficulty below the variants: now, More options folded,
    it needs no scroll, Difficulty comes before Rules, and Deal is on the screen."""
    page = new_page(width=360, height=640, settings={"tripeaks.lang": lang})
    dialog = open_window(page)
    words = messages(lang)
    expect(dialog.get_by_role("radio", name=words["web.new.difficulty_any"])).to_be_visible()
    fits = dialog.evaluate(FITS)
    assert fits["scroll"] <= fits["client"] and fits["form"], fits
    difficulty = dialog.locator("#new-difficulty")
    rules = dialog.locator("input[name='rules']").first
    # DOCUMENT_POSITION_FOLLOWING (4): the rules come after the difficulty in the page
    assert difficulty.evaluate("(d, r) => d.compareDocumentPosition(r) & 4", rules.element_handle())
    deal = dialog.get_by_role("button", name=words["web.new.start"])
    assert deal.evaluate(IN_VIEW)
    for chip in dialog.locator(".chip").all():  # each chip a 44 px target
        box = chip.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
    expect(dialog.locator("#new-scoring")).to_be_hidden()  # folded under More options
    expect(dialog.locator("#new-code")).to_be_hidden()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_deal_and_cancel_are_in_view_at_every_size(new_page, width, height):
    page = new_page(width=width, height=height)
    dialog = open_window(page)
    for name in ("Deal", "Cancel"):
        assert dialog.get_by_role("button", name=name).evaluate(IN_VIEW), name
    summary(page).click()
    expect(dialog.locator("#new-code")).to_be_visible()
    for name in ("Deal", "Cancel"):  # unfolded, the body scrolls under them
        assert dialog.get_by_role("button", name=name).evaluate(IN_VIEW), name


def test_more_options_is_folded_and_opens_by_click_and_by_keyboard(new_page):
    page = new_page(width=390, height=844)
    dialog = open_window(page)
    more = dialog.locator("#new-more")
    expect(more).not_to_have_attribute("open", "")
    expect(summary(page)).to_have_text(EN["web.new.more"])
    assert expanded(page) is False
    # the focus starts on the first choice and Tab follows the page's order: difficulty, rules, the
    # layout, winnable, More options, then the buttons
    expect(dialog.get_by_role("radio", name=EN["web.new.difficulty_any"])).to_be_focused()
    page.keyboard.press("Tab")
    expect(dialog.get_by_role("radio", name=EN["rules.easy"])).to_be_focused()
    page.keyboard.press("Tab")
    expect(dialog.get_by_role("radio", name=EN["layout.three_peaks"])).to_be_focused()
    page.keyboard.press("Tab")
    expect(dialog.get_by_role("checkbox", name=EN["web.new.winnable"])).to_be_focused()
    page.keyboard.press("Tab")
    expect(summary(page)).to_be_focused()
    page.keyboard.press("Enter")
    expect(more).to_have_attribute("open", "")
    assert expanded(page) is True
    expect(dialog.get_by_label(EN["web.new.scoring_traditional"])).to_be_visible()
    page.keyboard.press("Tab")  # into what it holds, in order
    expect(dialog.get_by_role("radio", name=EN["web.new.scoring_ours"])).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(summary(page)).to_be_focused()
    page.keyboard.press("Space")
    expect(more).not_to_have_attribute("open", "")
    assert expanded(page) is False
    summary(page).click()
    expect(more).to_have_attribute("open", "")
    expect(dialog.locator("#new-code")).to_be_visible()
    summary(page).click()
    expect(more).not_to_have_attribute("open", "")
    page.keyboard.press("Escape")  # closes the window as before
    expect(dialog).to_be_hidden()


def test_more_options_opens_by_itself_when_its_choice_is_not_the_default(new_page):
    page = new_page(width=360, height=640, settings={"tripeaks.scoring": "traditional"})
    dialog = open_window(page)
    more = dialog.locator("#new-more")
    expect(more).to_have_attribute("open", "")
    expect(dialog.get_by_label(EN["web.new.scoring_traditional"])).to_be_checked()
    expect(dialog.get_by_label(EN["web.new.scoring_traditional"])).to_be_visible()
    summary(page).click()  # folded by hand, its summary still names what is chosen in it
    expect(more).not_to_have_attribute("open", "")
    expect(summary(page)).to_have_text(f"{EN['web.new.more']} {EN['option.traditional']}")
    summary(page).click()
    dialog.get_by_label(EN["web.new.scoring_ours"]).check()
    expect(summary(page)).to_have_text(EN["web.new.more"])
    dialog.get_by_role("button", name="Deal").click()
    expect(dialog).to_be_hidden()
    open_window(page)
    expect(more).not_to_have_attribute("open", "")  # our scoring, remembered: nothing unusual
    page.keyboard.press("Escape")
    # a variant chosen last time opens it too, and the summary says which
    page.evaluate("localStorage.setItem('tripeaks.open_peaks', '1')")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    dialog = open_window(page)
    expect(more).to_have_attribute("open", "")
    expect(dialog.get_by_label(EN["web.new.open_peaks"])).to_be_checked()
    summary(page).click()
    expect(summary(page)).to_have_text(f"{EN['web.new.more']} {EN['option.open_peaks']}")


@pytest.mark.parametrize(("width", "height"), [(360, 640), (844, 390)])
def test_a_refused_code_opens_more_options_with_its_error_in_view(new_page, width, height):
    page = new_page(code=EXAMPLE_CODE, width=width, height=height)
    dialog = open_window(page)
    summary(page).click()
    field = dialog.get_by_role("textbox", name=EN["web.new.code"])
    field.fill("TP1-X-1234567")
    summary(page).click()  # folded again before dealing
    expect(dialog.locator("#new-more")).not_to_have_attribute("open", "")
    dialog.get_by_role("button", name="Deal").click()
    error = page.locator("#new-error")
    expect(error).to_have_text(EN["error.invalid_code"])
    expect(dialog.locator("#new-more")).to_have_attribute("open", "")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    page.wait_for_timeout(100)
    assert field.evaluate(SEEN), "the field is hidden"
    assert error.evaluate(SEEN), "the refusal is out of sight"


def test_a_grade_chosen_on_a_phone_is_in_view_with_its_line_and_deals(new_page):
    """At 360x640 a grade's chip, the line that says why the winnable box is ticked and Deal are all in view
    at once, without scrolling; and Deal deals a deal of that grade."""
    page = new_page(width=360, height=640)
    dialog = open_window(page)
    dialog.locator(".chip", has_text=EN["web.new.difficulty_gentle"]).click()
    gentle = dialog.get_by_role("radio", name=EN["web.new.difficulty_gentle"])
    expect(gentle).to_be_checked()
    winnable = dialog.get_by_role("checkbox", name=EN["web.new.winnable"])
    expect(winnable).to_be_checked()
    expect(winnable).to_be_disabled()
    help_line = dialog.locator("#new-winnable-help")
    expect(help_line).to_have_text(EN["web.new.difficulty_help"])
    assert dialog.evaluate("(d) => d.scrollTop") == 0
    for part in (gentle, help_line, dialog.get_by_role("button", name="Deal")):
        assert part.evaluate(IN_VIEW)
    fits = dialog.evaluate(FITS)
    assert fits["scroll"] <= fits["client"], fits
    code = page.locator("#code").inner_text()
    with page.expect_request(
        lambda r: r.method == "POST" and r.url.endswith("/api/games?lang=en")
    ) as sent:
        dialog.get_by_role("button", name="Deal").click()
    body = json.loads(sent.value.post_data or "{}")
    assert body["difficulty"] == "gentle" and body["winnable_only"] is True
    expect(dialog).to_be_hidden()
    expect(page.locator("#code")).not_to_have_text(code)
    # the window opens again on that grade
    dialog = open_window(page)
    expect(gentle).to_be_checked()
    expect(gentle).to_be_focused()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_on_the_window_folded_and_unfolded(new_page, theme, artifacts):
    page = new_page(width=390, height=844, scheme=theme, settings={"tripeaks.theme": theme})
    dialog = open_window(page)
    dialog.get_by_role("radio", name=EN["web.new.difficulty_medium"]).focus()
    no_violations(page, f"new game, {theme}")
    summary(page).click()
    expect(dialog.locator("[data-option='joker']")).to_be_visible()
    page.screenshot(path=artifacts / f"new-game-more-{theme}.png")
    no_violations(page, f"new game with More options open, {theme}")
    summary(page).focus()
    no_violations(page, f"new game, More options focused, {theme}")
