"""axe-core finds nothing on any screen in either theme; the help is complete in every language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tripeaks_page import EXAMPLE_CODE, card, choose, moves, no_violations

from tripeaks.i18n import messages

SECTIONS = [
    "howto",
    "rules",
    "example",
    "scoring",
    "undo",
    "codes",
    "choices",
    "variants",
    "keys",
    "sources",
]


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
    scoring = help_.locator("#help-scoring table")
    expect(scoring.locator("tbody tr")).to_have_count(3)
    expect(scoring).to_contain_text("+100")
    expect(help_.locator("#help-keys kbd")).to_have_count(9)
    expect(help_.locator("#help-howto figure .tableau .card:not(.back)")).to_have_count(10)
    after = help_.locator("#help-example figure")
    expect(after).to_have_count(1)
    expect(after.locator(".tableau .card:not([hidden])")).to_have_count(25)
    expect(after.locator(".tableau .card:not([hidden]):not(.back)")).to_have_count(8)
    expect(help_.locator("#help-sources li")).to_have_count(5)
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
            assert messages(lang)[key].strip(), (lang, key)
