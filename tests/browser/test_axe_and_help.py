"""axe-core finds nothing on any screen in either theme; the help is complete in every language, with both
scorings' tables as GET /api/rules gives them and every variant under the name the rest of the page uses."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tripeaks_page import EXAMPLE_CODE, HELP_SECTIONS, card, choose, moves, no_violations

from tripeaks.i18n import messages

VARIANTS = ["open_peaks", "empty_discard", "joker"]
MINUS = "\u2212"


def heading(words: dict, name: str) -> str:
    """An option's name as the help heads its part: the catalog's option.* with a capital."""
    word = words[f"option.{name}"]
    return word[0].upper() + word[1:]


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


SECTIONS = HELP_SECTIONS


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_violation_on_any_screen(new_page, theme, artifacts):
    page = new_page(code=EXAMPLE_CODE, scheme=theme, settings={"tripeaks.theme": theme})
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    no_violations(page, "game")
    for action, dialog in (
        ("new", "#dlg-new"),
        ("settings", "#dlg-settings"),
        ("stats", "#dlg-stats"),
        ("help", "#dlg-help"),
    ):
        if action == "new":
            page.locator("#tools [data-action='new']").click()
        else:
            choose(page, action=action)
        expect(page.locator(dialog)).to_be_visible()
        if action == "help":
            expect(page.locator("#help-howto figure")).to_have_count(1)
        page.screenshot(path=artifacts / f"dialog-{action}-{theme}.png")
        no_violations(page, action)
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()
    page.keyboard.press("h")
    expect(page.locator(".hinted")).to_have_count(1)
    page.locator("#tableau").get_by_role("button", name="hidden card").first.click()
    expect(page.locator("#toast")).to_be_visible()
    no_violations(page, "game with a hint and an error hint")


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_the_help_has_every_section_in_every_language(new_page, lang, artifacts):
    words = messages(lang)
    page = new_page(code=EXAMPLE_CODE, settings={"tripeaks.lang": lang})
    page.keyboard.press("?")
    help_ = page.locator("#dlg-help")
    expect(help_).to_be_visible()
    expect(help_.get_by_role("heading", level=2)).to_have_text(words["help.title"])
    # "How to play" is open; every other section opens from its heading's button.
    expect(help_.locator("#help-body > section")).to_have_count(len(SECTIONS))
    for name in SECTIONS:
        section = help_.locator(f"#help-{name}")
        title = words[f"help.{name}.title"]
        expect(section.get_by_role("heading", name=title, exact=True)).to_be_visible()
        if name != "howto":
            section.get_by_role("button", name=title, exact=True).click()
        assert len(section.inner_text()) > 150, name
    scoring = help_.locator("#help-scoring-ours")
    expect(scoring.locator("tbody tr")).to_have_count(3)
    expect(scoring).to_contain_text("+100")
    # The traditional scoring: its own heading and table, every figure the server's.
    trad = page.request.get("/api/rules").json()["traditional"]
    assert (trad["start"], trad["draw"], trad["peaks"], trad["best"]) == (0, -5, [15, 15, 30], 466)
    expect(help_.locator("#help-scoring-traditional-title")).to_have_text(
        heading(words, "traditional")
    )
    rows = help_.locator("#help-scoring-traditional tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.nth(0)).to_have_text(f"{words['help.scoring.t_start']}0")
    expect(rows.nth(1)).to_have_text(f"{words['help.scoring.t_remove']}+1, +2, +3…")
    expect(rows.nth(2)).to_have_text(f"{words['help.scoring.t_draw']}{MINUS}5")
    for i, bonus in enumerate(trad["peaks"]):
        expect(rows.nth(3 + i)).to_have_text(
            f"{words[f'help.scoring.t_peak{i + 1}']}{signed(bonus)}"
        )
    best = words["help.scoring.traditional_after"].split("\n\n")[0]
    expect(help_.locator("#help-scoring")).to_contain_text(
        best.format(cards=28, bonus=60, best=466)
    )
    # Each variant under its name, the one the New game window's label starts with.
    for name in VARIANTS:
        title = heading(words, name)
        expect(help_.locator(f"#help-variant-{name}")).to_have_text(title)
        assert words[f"web.new.{name}"].lower().startswith(title.lower()), (lang, name)
        expect(help_.locator("#help-variants")).to_contain_text(words[f"help.variants.{name}"])
    # The solver knows them all; one pass through the stock only, and why.
    for paragraph in words["help.variants.after"].split("\n\n"):
        expect(help_.locator("#help-variants")).to_contain_text(paragraph)
    expect(help_.locator("#help-keys kbd")).to_have_count(14)  # the board’s 11 and the replay’s 3
    expect(help_.locator("#help-howto figure .tableau .card:not(.back)")).to_have_count(10)
    after = help_.locator("#help-example figure")
    expect(after).to_have_count(1)
    expect(after.locator(".tableau .card:not([hidden])")).to_have_count(25)
    expect(after.locator(".tableau .card:not([hidden]):not(.back)")).to_have_count(8)
    expect(help_.locator("#help-sources li")).to_have_count(11)
    spec = {
        "en": [
            "Value must be one higher or lower",
            "This card is locked",
            "No more possible moves",
        ],
        "fi": ["Arvon on oltava yhtä suurempi tai pienempi", "Tämä kortti on lukittu"],
        "ca": [
            "Ha de tenir un valor immediatament superior o inferior",
            "Aquesta carta està bloquejada",
        ],
    }[lang]
    for words_of_spec in spec:
        expect(help_.locator("#help-rules")).to_contain_text(words_of_spec)
    help_.screenshot(path=artifacts / f"help-{lang}.png")


def test_every_catalog_has_every_page_word():
    keys = {lang: set(messages(lang)) for lang in ("en", "fi", "ca")}
    page_words = {k for k in keys["en"] if k.startswith(("web.", "help."))}
    assert page_words
    for lang in ("fi", "ca"):
        assert page_words <= keys[lang], sorted(page_words - keys[lang])
    for lang in ("en", "fi", "ca"):
        for key in page_words:
            words = messages(lang)[key]  # a plural message is its list of forms
            assert all(form.strip() for form in (words if isinstance(words, list) else [words])), (
                lang,
                key,
            )


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_scoring_and_variants_at_phone_and_desktop_size(new_page, lang, artifacts):
    page = new_page(code=EXAMPLE_CODE, settings={"tripeaks.lang": lang}, width=390, height=844)
    words = messages(lang)
    page.keyboard.press("?")
    help_ = page.locator("#dlg-help")
    expect(help_.locator("#help-howto figure")).to_have_count(1)
    for name in ("scoring", "variants"):
        help_.locator(f"#help-{name}-title").click()
    expect(help_.locator("#help-scoring-traditional tbody tr")).to_have_count(6)
    no_violations(page, f"help, scoring and variants open, phone, {lang}")
    for size, viewport in (("phone", (390, 844)), ("desktop", (1440, 900))):
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        # Neither table is wider than the window: nothing to scroll sideways.
        for table in ("#help-scoring-ours", "#help-scoring-traditional"):
            box = help_.locator(table).bounding_box()
            assert box is not None, table
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport[0], table
        for shot, part in (
            ("scoring", "#help-scoring-traditional-title"),
            ("traditional", "#help-scoring-traditional"),
            ("variants", "#help-variants-title"),
            ("joker", "#help-variant-joker"),
        ):
            help_.locator(part).scroll_into_view_if_needed()
            page.screenshot(path=artifacts / f"help-{shot}-{size}-{lang}.png")
    expect(help_.locator("#help-variants h4")).to_have_text([heading(words, n) for n in VARIANTS])
