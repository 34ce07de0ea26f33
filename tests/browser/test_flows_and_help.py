"""Flows and words (issue 11): a typed code is checked before anything is asked, the help puts "How to
play" first and opens the rest on demand, the first game's guide, the buttons' keys, the statistics' best
card streak."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from tripeaks_page import EXAMPLE_CODE, HELP_SECTIONS, card, more_options, moves, no_violations

from tripeaks.i18n import messages

MORE = HELP_SECTIONS[1:]  # the sections folded below the first
LANGS = ["en", "fi", "ca"]


def watch_confirmation(page: Page) -> None:
    """Record whether the confirmation window opens at any moment from now on."""
    page.evaluate(
        """() => { window.confirmOpened = false;
          new MutationObserver(() => { if (document.querySelector('#dlg-confirm').open) window.confirmOpened = true; })
            .observe(document.querySelector('#dlg-confirm'), { attributes: true }); }"""
    )


def open_new_game(page: Page):
    """Open New game with More options unfolded: the code field is in it."""
    page.locator("#tools [data-action='new']").click()
    return more_options(page)


def test_a_wrong_code_is_refused_in_the_window_and_nothing_is_asked(new_page):
    page = new_page(code=EXAMPLE_CODE)
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")  # leaving now would count as a loss
    starts: list[str] = []
    page.on(
        "request",
        lambda r: (
            starts.append(r.url)
            if r.method == "POST" and r.url.split("?")[0].endswith("/api/games")
            else None
        ),
    )
    watch_confirmation(page)
    dialog = open_new_game(page)
    field = dialog.get_by_role("textbox", name="Game code (optional)")
    field.fill("TP1-X-NOTACODE")
    dialog.get_by_role("button", name="Deal").click()
    error = page.locator("#new-error")
    expect(error).to_have_text(messages("en")["error.invalid_code"])
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_be_focused()
    expect(dialog).to_be_visible()
    assert page.evaluate("window.confirmOpened") is False
    expect(page.locator("#dlg-confirm")).to_be_hidden()
    assert starts == []  # no game was asked for
    # The unfinished game is untouched, and a corrected code clears the message as it is typed.
    expect(page.locator("#code")).to_have_text(EXAMPLE_CODE)
    field.fill("TP1-E-AAAAAA")
    expect(error).to_be_empty()
    dialog.get_by_role("button", name="Cancel").click()
    expect(moves(page)).to_have_text("1")
    expect(card(page, "king of clubs")).to_have_count(0)


@pytest.mark.parametrize("lang", ["fi", "ca"])
def test_a_wrong_code_is_refused_in_the_players_language(new_page, lang):
    page = new_page(code=EXAMPLE_CODE, settings={"tripeaks.lang": lang})
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("1")
    watch_confirmation(page)
    dialog = open_new_game(page)
    dialog.locator("#new-code").fill("no code")
    dialog.locator("button[type='submit']").click()
    expect(page.locator("#new-error")).to_have_text(messages(lang)["error.invalid_code"])
    assert page.evaluate("window.confirmOpened") is False


SEEN = """(el) => {
  const box = el.getBoundingClientRect();
  const dialog = el.closest("dialog").getBoundingClientRect();
  const sticky = el.closest("dialog").querySelector(":scope > form > .row:last-child").getBoundingClientRect();
  return box.height > 0 && box.top >= dialog.top && box.bottom <= sticky.top + 1;
}"""
"""Is the element inside its window and above the window's sticky row of buttons?"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 640), (844, 390)])
def test_a_bad_code_is_said_next_to_its_field_in_view(new_page, width, height):
    """On a phone the refusal was drawn below the window's edge and the focused field hid behind
    the sticky Cancel/Deal row: it looked as if nothing happened (issue 37, defect 2)."""
    page = new_page(code=EXAMPLE_CODE, width=width, height=height)
    dialog = open_new_game(page)
    field = dialog.locator("#new-code")
    field.fill("TP1-X-1234567")
    dialog.get_by_role("button", name="Deal").click()
    error = page.locator("#new-error")
    expect(error).to_have_text(messages("en")["error.invalid_code"])
    expect(error).to_have_attribute("role", "alert")  # said as it appears
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    page.wait_for_timeout(100)
    assert field.evaluate(SEEN), "the field is hidden"
    assert error.evaluate(SEEN), "the refusal is out of sight"


def test_a_valid_code_with_a_game_in_progress_asks_first(new_page):
    page = new_page(code=EXAMPLE_CODE)
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("1")
    dialog = open_new_game(page)
    dialog.locator("#new-code").fill("  tp1-c-aaaaaab ")
    dialog.get_by_role("button", name="Deal").click()
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_be_visible()
    expect(page.locator("#new-error")).to_be_empty()
    confirm.get_by_role("button", name="Keep playing").click()
    expect(page.locator("#code")).to_have_text(EXAMPLE_CODE)
    expect(moves(page)).to_have_text("1")
    dialog.get_by_role("button", name="Deal").click()
    confirm.get_by_role("button", name="Start a new game").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#code")).to_have_text("TP1-C-AAAAAAB")
    # A game without a move is left without a question, code or not.
    watch_confirmation(page)
    dialog = open_new_game(page)
    dialog.locator("#new-code").fill(EXAMPLE_CODE)
    dialog.get_by_role("button", name="Deal").click()
    expect(page.locator("#code")).to_have_text(EXAMPLE_CODE)
    assert page.evaluate("window.confirmOpened") is False


# ---- Help -------------------------------------------------------------------------------------

# The words a player reads: headings, paragraphs, list items and captions (not the drawn cards' corners).
WORDS = """(el) => [...el.querySelectorAll('h3, p, li, figcaption')].map((e) => e.innerText).join(' ')
  .split(/\\s+/).filter(Boolean).length"""


def open_help(page: Page):
    page.keyboard.press("?")
    help_ = page.locator("#dlg-help")
    expect(help_).to_be_visible()
    expect(help_.locator("#help-howto figure")).to_have_count(1)
    return help_


@pytest.mark.parametrize("lang", LANGS)
def test_how_to_play_comes_first_in_at_most_150_words(new_page, lang, artifacts):
    words = messages(lang)
    page = new_page(code=EXAMPLE_CODE, settings={"tripeaks.lang": lang}, width=390, height=844)
    help_ = open_help(page)
    first = help_.locator("#help-body > section").first
    expect(first).to_have_attribute("id", "help-howto")
    expect(first.get_by_role("heading", level=3)).to_have_text(words["help.howto.title"])
    count = first.evaluate(WORDS)
    print(f"how to play, {lang}: {count} words")
    assert 60 <= count <= 150, count
    # The picture is the start of a real deal, from the engine: ten cards face up, captioned for people.
    figure = first.locator("figure")
    expect(figure.locator(".tableau .card:not(.back)")).to_have_count(10)
    expect(figure.locator("figcaption")).to_have_text(words["help.howto.figure"])
    assert "hidden card" not in figure.inner_text() and ";" not in figure.inner_text()
    # Every other section is closed until asked for.
    for name in MORE:
        button = help_.locator(f"#help-{name}-title")
        expect(button).to_have_text(words[f"help.{name}.title"])
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(help_.locator(f"#help-{name}-body")).to_be_hidden()
    page.screenshot(path=artifacts / f"help-phone-{lang}.png")
    page.set_viewport_size({"width": 1440, "height": 900})
    page.screenshot(path=artifacts / f"help-desktop-{lang}.png")


def test_the_sections_open_on_demand_by_keyboard(new_page, artifacts):
    words = messages("en")
    page = new_page(code=EXAMPLE_CODE)
    help_ = open_help(page)
    expect(help_.get_by_role("button", name="Close")).to_be_focused()
    for name in MORE:
        page.keyboard.press("Tab")
        button = help_.locator(f"#help-{name}-title")
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(help_.locator(f"#help-{name}-body")).to_be_visible()
    expect(help_.locator("#help-rules-body")).to_contain_text("This card is locked")
    expect(help_.locator("#help-scoring-ours tbody tr")).to_have_count(3)
    expect(help_.locator("#help-scoring-traditional tbody tr")).to_have_count(6)
    expect(help_.locator("#help-scoring-body")).to_contain_text("+100")
    expect(help_.locator("#help-keys-body kbd")).to_have_count(14)
    expect(help_.locator("#help-sources-body li")).to_have_count(11)
    after = help_.locator("#help-example-body figure")
    expect(after.locator(".tableau .card:not([hidden])")).to_have_count(25)
    expect(after.locator(".tableau .card:not([hidden]):not(.back)")).to_have_count(8)
    expect(after.locator("figcaption")).to_have_text(words["help.example.figure"])
    help_.screenshot(path=artifacts / "help-open-en.png")
    # Space closes a section again, and the button keeps the focus.
    button = help_.locator("#help-sources-title")
    button.focus()
    page.keyboard.press("Space")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(help_.locator("#help-sources-body")).to_be_hidden()
    expect(button).to_be_focused()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_on_the_new_help(new_page, theme):
    page = new_page(code=EXAMPLE_CODE, scheme=theme, settings={"tripeaks.theme": theme})
    help_ = open_help(page)
    no_violations(page, "help, closed sections")
    for name in MORE:
        help_.locator(f"#help-{name}-title").click()
    expect(help_.locator("#help-sources-body")).to_be_visible()
    no_violations(page, "help, every section open")


# ---- The first game's guide -------------------------------------------------------------------


def assert_no_guide_after_reload(page: Page) -> None:
    """Once seen, the guide is gone for good: after a reload guide.js is not even fetched."""
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url) if "guide.js" in r.url else None)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_load_state("networkidle")
    assert requested == []
    expect(page.locator("#guide")).to_have_count(0)


RING = "rgb(111, 211, 255)"
"""The guide's ring colour (app.css .guided): drawn as a box-shadow around what it points at."""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_guides_ring_shows_around_the_stock_and_the_card(new_page, width, height):
    """Step 2 rings the stock, a card's back: its own shadow (.card.back) outweighed .guided, so
    the class was set and nothing was drawn (issue 37, defect 1)."""
    page = new_page(width=width, height=height, code=EXAMPLE_CODE, guide=True)
    shadow = "(el) => getComputedStyle(el).boxShadow"
    assert RING in page.locator("#tableau .guided").evaluate(shadow)
    page.get_by_role("button", name="Next").click()
    stock = page.locator("#stock")
    expect(stock).to_have_class(re.compile(r"\bguided\b"))
    assert RING in stock.evaluate(shadow)
    # the card's own frame stays, inside the ring
    assert "inset" in stock.evaluate(shadow)


def test_the_guide_shows_on_the_first_game_and_never_again(new_page):
    page = new_page(code=EXAMPLE_CODE, guide=True)
    guide = page.get_by_role("dialog", name="Your first game")
    expect(guide).to_be_visible()
    next_ = guide.get_by_role("button", name="Next")
    expect(next_).to_be_focused()
    expect(guide).to_have_accessible_description(
        re.compile("^The highlighted card can go on the discard")
    )
    expect(guide.locator("#guide-step")).to_have_text("Step 1 of 3")
    # Step 1 rings a card the server says can be played (the two kings and the jack of spades fit).
    ringed = page.locator("#tableau .guided")
    expect(ringed).to_have_count(1)
    assert ringed.get_attribute("aria-label") in {
        "king of clubs",
        "king of hearts",
        "jack of spades",
    }
    page.keyboard.press("Enter")
    expect(guide.locator("#guide-step")).to_have_text("Step 2 of 3")
    expect(page.locator("#live")).to_have_text(
        re.compile(r"^Step 2 of 3\. Nothing fits\? Tap the stock")
    )
    expect(page.locator("#stock")).to_have_class(re.compile(r"\bguided\b"))
    expect(page.locator("#tableau .guided")).to_have_count(0)
    page.keyboard.press("Enter")
    expect(guide.locator("#guide-step")).to_have_text("Step 3 of 3")
    expect(guide.locator("#guide-text")).to_have_text(
        "You start with 500 points: \u22121 for each card you play or draw, +100 for each peak you clear. "
        "Clear all three peaks to win."
    )
    expect(page.locator(".guided")).to_have_count(1)
    expect(page.locator(".guided #score")).to_have_count(1)
    expect(guide.get_by_role("button", name="Skip")).to_be_hidden()
    guide.get_by_role("button", name="Let’s play").click()
    expect(guide).to_have_count(0)
    expect(page.locator(".guided")).to_have_count(0)
    assert page.evaluate("localStorage.getItem('tripeaks.guide')") == "done"
    assert page.evaluate("document.activeElement.closest('#board') !== null")
    assert_no_guide_after_reload(page)


def test_the_guide_is_dismissed_by_escape_or_skip_and_lets_the_game_go_on(new_page):
    page = new_page(code=EXAMPLE_CODE, guide=True)
    guide = page.locator("#guide")
    expect(guide).to_be_visible()
    card(page, "king of clubs").click()  # the game is not blocked by the guide
    expect(moves(page)).to_have_text("1")
    expect(page.locator("#tableau .guided")).to_have_count(1)  # another card that can be played now
    page.keyboard.press("Escape")
    expect(guide).to_have_count(0)
    assert page.evaluate("localStorage.getItem('tripeaks.guide')") == "done"
    # A later game does not bring it back.
    page.keyboard.press("n")
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Start a new game").click()
    expect(page.locator("#code")).not_to_have_text(EXAMPLE_CODE)
    expect(guide).to_have_count(0)

    other = new_page(guide=True)
    expect(other.locator("#guide")).to_be_visible()
    other.locator("#guide").get_by_role("button", name="Skip").click()
    expect(other.locator("#guide")).to_have_count(0)
    assert_no_guide_after_reload(other)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_nothing_on_the_guide(new_page, theme):
    page = new_page(code=EXAMPLE_CODE, guide=True, scheme=theme, settings={"tripeaks.theme": theme})
    guide = page.locator("#guide")
    expect(guide).to_be_visible()
    for step in range(3):
        expect(guide.locator("#guide-step")).to_have_text(f"Step {step + 1} of 3")
        no_violations(page, f"guide, step {step + 1}")
        if step < 2:
            guide.get_by_role("button", name="Next").click()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [(360, 640), (390, 844), (844, 390), (1440, 900)])
def test_the_guide_in_every_language(new_page, lang, size, artifacts):
    words = messages(lang)
    page = new_page(
        code=EXAMPLE_CODE,
        guide=True,
        settings={"tripeaks.lang": lang},
        width=size[0],
        height=size[1],
    )
    guide = page.get_by_role("dialog", name=words["web.guide.title"])
    expect(guide).to_be_visible()
    expect(guide.locator("#guide-text")).to_have_text(words["web.guide.card"])
    expect(guide.get_by_role("button", name=words["web.guide.skip"])).to_be_visible()
    # The guide covers no card.
    overlap = page.evaluate(
        """() => { const g = document.querySelector('#guide').getBoundingClientRect();
          return [...document.querySelectorAll('#tableau .card:not([hidden]), #stock, #discard')].filter((c) => {
            const r = c.getBoundingClientRect();
            return r.left < g.right && g.left < r.right && r.top < g.bottom && g.top < r.bottom; }).length; }"""
    )
    assert overlap == 0
    page.screenshot(path=artifacts / f"guide-{size[0]}-{lang}.png")


# ---- Keys and statistics ----------------------------------------------------------------------

KEY_OF = {"undo": "u", "hint": "h", "new": "n", "read": "b", "help": "help"}


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_buttons_carry_their_keys_from_the_keys_table(new_page, lang):
    words = messages(lang)
    page = new_page(settings={"tripeaks.lang": lang})
    as_aria = lambda names: " ".join(n.replace("Ctrl+", "Control+") for n in names.split(", "))  # noqa: E731
    labelled = page.evaluate(
        """() => [...document.querySelectorAll('button[data-action]')].filter((b) => !b.closest('dialog'))
          .map((b) => [b.dataset.action, b.getAttribute('aria-keyshortcuts'), b.title])"""
    )
    found = set()
    for action, aria, title in labelled:
        if action not in KEY_OF:
            continue
        names = words[f"web.keys.{KEY_OF[action]}.key"]
        assert aria == as_aria(names), (action, aria)
        assert title == words["web.keys.tooltip"].replace("{keys}", names), (action, title)
        found.add(action)
    assert {"undo", "hint", "new"} <= found
    assert (
        page.locator("#tools [data-action='undo']").get_attribute("aria-keyshortcuts")
        == "U Control+Z"
    )
    expect(page.locator("#stock")).to_have_attribute("aria-keyshortcuts", "D")
    # The keys they name do what the buttons do.
    page.keyboard.press("D")
    expect(moves(page)).to_have_text("1")
    page.keyboard.press("Control+z")
    expect(page.locator("#tools [data-action='undo']")).to_be_disabled()


def test_the_statistics_show_the_longest_card_streak(new_page, artifacts):
    page = new_page(code=EXAMPLE_CODE)
    for name, done in (("king of clubs", 1), ("ace of diamonds", 2), ("king of hearts", 3)):
        card(page, name).click()
        expect(moves(page)).to_have_text(str(done))
    page.keyboard.press("d")  # the run of three ends; the game counts when it is left
    expect(moves(page)).to_have_text("4")
    page.keyboard.press("n")
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Start a new game").click()
    expect(page.locator("#code")).not_to_have_text(EXAMPLE_CODE)
    page.locator("[data-action='stats']").first.dispatch_event(
        "click"
    )  # in the toolbar or its menu
    stats = page.locator("#dlg-stats")
    row = stats.get_by_role("row", name=re.compile("^Longest card streak"))
    expect(row.locator("td")).to_have_text(["3", "–"])
    stats.screenshot(path=artifacts / "stats-card-streak.png")
    server = page.request.get("/api/stats").json()
    assert server["easy"]["longest_card_streak"] == 3
    assert server["classic"]["longest_card_streak"] is None


def test_the_page_shows_no_word_before_its_catalog_and_is_busy_until_ready(new_page):
    """What shows before the catalogs arrive is in no language: card backs breathing, main busy."""
    page = new_page()
    html = page.request.get("/").text()
    assert re.search(r'<main [^>]*aria-busy="true"', html)
    loading = re.search(r'<div class="loading" id="loading"[^>]*>(.*?)</div>', html, re.S)
    assert loading and re.sub(r"<[^>]+>", "", loading.group(1)).strip() == ""
    expect(page.locator("#loading")).to_have_count(0)
    expect(page.locator("main")).not_to_have_attribute("aria-busy", "true")
