"""Playing in the browser: a whole win by clicking, refusals, undo, codes, languages, reload."""

from __future__ import annotations

from playwright.sync_api import expect
from tripeaks_page import (
    EXAMPLE_CODE,
    STUCK_CODE,
    WIN_CODE,
    card,
    choose,
    click_line,
    live,
    more_options,
    moves,
    name_at,
    open_settings,
    stock,
    toast,
    winning_line,
)

from tripeaks.engine.game import DRAW, Action, Game


def test_a_deal_is_won_by_clicking(new_page, artifacts):
    line = winning_line(WIN_CODE)
    page = new_page(code=WIN_CODE)
    click_line(page, WIN_CODE, line)
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    final = Game.replay(WIN_CODE, line)
    expect(page.locator("#win-score")).to_contain_text(str(final.score))
    expect(page.locator("#score")).to_have_text(str(final.score))
    # the solver's verdict: this line is an optimal win
    expect(page.locator("#win-result")).to_have_text(
        "That is the best score this deal allows.", timeout=20_000
    )
    expect(win.get_by_role("button", name="Play again")).to_be_focused()
    expect(page.locator("#tableau").get_by_role("button")).to_have_count(0)
    page.screenshot(path=artifacts / "win-1280x800.png")
    # a move on the won game: the server refuses it (409 game_over, with the state) and the win screen
    # is shown again
    page.keyboard.press("Escape")
    expect(win).to_be_hidden()
    page.keyboard.press("d")
    expect(win).to_be_visible()
    expect(page.locator("#score")).to_have_text(str(final.score))


def test_refused_taps_show_the_error_hints_and_change_nothing(new_page):
    page = new_page(code=EXAMPLE_CODE)
    hidden = page.locator("#tableau").get_by_role("button", name="hidden card").first
    hidden.click()
    expect(toast(page)).to_have_text("This card is locked")
    expect(live(page)).to_have_text("This card is locked")
    card(page, "2 of clubs").click()  # the discard is the queen of clubs
    expect(toast(page)).to_have_text("Value must be one higher or lower")
    expect(live(page)).to_have_text("Value must be one higher or lower")
    expect(moves(page)).to_have_text("0")
    expect(page.locator("#score")).to_have_text("500")


def test_error_hints_can_be_turned_off_and_stay_off(new_page):
    page = new_page(code=EXAMPLE_CODE)
    dialog = open_settings(page)
    hints = dialog.get_by_role("checkbox", name="Error hints")
    expect(hints).to_be_checked()
    hints.uncheck()
    dialog.get_by_role("button", name="Close").click()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    card(page, "2 of clubs").click()
    page.wait_for_timeout(300)
    expect(toast(page)).to_be_hidden()
    expect(live(page)).to_have_text("")
    expect(open_settings(page).get_by_role("checkbox", name="Error hints")).not_to_be_checked()


def test_undo_puts_the_card_back_and_the_move_counter_stays(new_page):
    page = new_page(code=EXAMPLE_CODE)
    undo = page.locator("#tools").get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    expect(page.locator("#score")).to_have_text("499")
    expect(card(page, "king of clubs")).to_have_count(0)
    expect(undo).to_be_enabled()
    undo.click()
    expect(page.locator("#score")).to_have_text("500")
    expect(moves(page)).to_have_text("1")
    expect(card(page, "king of clubs")).to_be_visible()
    expect(undo).to_be_disabled()


def test_a_pasted_code_deals_the_same_cards_and_a_bad_one_is_refused(new_page):
    page = new_page()
    first_code = page.locator("#code").inner_text()
    page.keyboard.press("d")  # a move: leaving the game now needs a confirmation
    expect(moves(page)).to_have_text("1")
    page.locator("#tools").get_by_role("button", name="New game").click()
    dialog = page.locator("#dlg-new")
    expect(dialog.get_by_role("radio", name="Easy (king and ace connected)")).to_be_checked()
    expect(dialog.get_by_role("radio", name="Classic (king and ace separate)")).not_to_be_checked()
    expect(dialog.get_by_role("checkbox", name="Winnable deals only")).to_be_visible()
    field = more_options(page).get_by_role("textbox", name="Game code (optional)")
    field.fill("TP1-X-NOTACODE")
    dialog.get_by_role("button", name="Deal").click()
    # A wrong code is said in the window at once: nothing is asked (test_flows_and_help.py).
    expect(page.locator("#new-error")).not_to_be_empty()
    expect(dialog).to_be_visible()
    confirm = page.locator("#dlg-confirm")
    expect(confirm).to_be_hidden()
    expect(page.locator("#code")).to_have_text(first_code)

    field.fill("  tp1-c-aaaaaab ")
    dialog.get_by_role("button", name="Deal").click()
    confirm.get_by_role("button", name="Start a new game").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#code")).to_have_text("TP1-C-AAAAAAB")
    expect(page.locator("#code-rules")).to_have_text("Classic")
    game = Game.new("TP1-C-AAAAAAB")
    for pos in range(18, 28):
        expect(card(page, name_at("TP1-C-AAAAAAB", [], pos))).to_be_visible()
    expect(page.locator("#discard")).to_have_attribute(
        "aria-label", f"Discard: {name_at('TP1-C-AAAAAAB', [], 18) and 'queen of clubs'}"
    )
    assert game.discard_top.rank == 12
    # Classic: the ace of diamonds does not go on the king of clubs.
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    card(page, "ace of diamonds").click()
    expect(toast(page)).to_have_text("Value must be one higher or lower")


def test_cancelling_the_confirmation_keeps_the_game(new_page):
    page = new_page(code=EXAMPLE_CODE)
    page.keyboard.press("n")
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    # no move yet: nothing to lose, no question
    expect(page.locator("#code")).not_to_have_text(EXAMPLE_CODE)
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("1")
    played = page.locator("#code").inner_text()
    page.keyboard.press("n")
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Keep playing").click()
    expect(page.locator("#code")).to_have_text(played)
    expect(moves(page)).to_have_text("1")


def test_the_new_game_window_has_closed_when_the_new_deal_shows(new_page):
    """A key pressed as soon as the new deal is drawn goes to the board, not to the window that asked for
    it: the window closes in the task that draws the deal (the first card's focus comes a frame later)."""
    page = new_page(code=EXAMPLE_CODE)
    page.evaluate(
        """() => { window.openWhenShown = null;
        new MutationObserver(() => setTimeout(() => {
          if (window.openWhenShown === null) window.openWhenShown = document.querySelector('#dlg-new').open;
        })).observe(document.querySelector('#code'), { childList: true, characterData: true, subtree: true }); }"""
    )
    page.keyboard.press("n")
    page.locator("#dlg-new").get_by_role("button", name="Deal").click()
    expect(page.locator("#code")).not_to_have_text(EXAMPLE_CODE)
    assert page.evaluate("window.openWhenShown") is False
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("1")


def test_reloading_continues_the_same_game(new_page):
    page = new_page(code=EXAMPLE_CODE)
    card(page, "king of clubs").click()
    expect(moves(page)).to_have_text("1")
    stock(page).click()
    expect(moves(page)).to_have_text("2")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#code")).to_have_text(EXAMPLE_CODE)
    expect(moves(page)).to_have_text("2")
    expect(page.locator("#score")).to_have_text("498")
    expect(stock(page)).to_have_accessible_name("Stock, 22 cards")
    expect(card(page, "king of clubs")).to_have_count(0)


def test_finnish_shows_the_words_of_the_specification(new_page, artifacts):
    page = new_page(code=STUCK_CODE, width=360, height=640)
    dialog = open_settings(page)
    dialog.get_by_role("combobox", name="Language").select_option("fi")
    expect(dialog.get_by_role("checkbox", name="Virheopastus")).to_be_visible()
    dialog.get_by_role("button", name="Sulje").click()
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(stock(page)).to_have_accessible_name("Nostopakka, 23 korttia")
    game = Game.new(STUCK_CODE)
    expect(card(page, name_at(STUCK_CODE, [], 18, "fi"))).to_be_visible()
    expect(page.locator("#tableau").get_by_role("button", name="piilokortti")).to_have_count(18)
    page.locator("#tools").get_by_role("button", name="Uusi peli").click()
    new = page.locator("#dlg-new")
    expect(new.get_by_role("heading", name="Uusi peli")).to_be_visible()
    expect(new.get_by_role("radio", name="Helppo (kuningas ja ässä yhdistetty)")).to_be_visible()
    expect(new.get_by_role("radio", name="Klassinen (kuningas ja ässä erillään)")).to_be_visible()
    page.keyboard.press("Escape")
    expect(new).to_be_hidden()
    for n in range(1, 24):
        page.keyboard.press("d")
        expect(moves(page)).to_have_text(str(n))
    for _ in range(23):
        game.apply(DRAW)
    assert game.status.value == "stuck"
    notice = page.locator("#stuck")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Ei enää mahdollisia siirtoja")
    expect(live(page)).to_contain_text("Ei enää mahdollisia siirtoja")
    expect(notice.locator("#stuck-result")).to_contain_text(
        "olisi ollut voitettavissa", timeout=20_000
    )
    expect(notice.get_by_role("button", name="Kumoa")).to_be_enabled()
    expect(notice.get_by_role("button", name="Uusi peli")).to_be_visible()
    page.screenshot(path=artifacts / "stuck-fi-360x640.png")
    notice.get_by_role("button", name="Kumoa").click()
    expect(notice).to_be_hidden()
    expect(page.locator("#score")).to_have_text(str(Game.replay(STUCK_CODE, [DRAW] * 22).score))


def test_first_visit_follows_the_browser_language_and_remembers_a_choice(new_page):
    page = new_page(locale="ca-ES")
    expect(page.locator("html")).to_have_attribute("lang", "ca")
    expect(page.locator("#tools").get_by_role("button", name="Partida nova")).to_be_visible()
    choose(page, action="settings")
    page.locator("#set-lang").select_option("en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_the_game_code_can_be_copied(new_page):
    page = new_page(code=EXAMPLE_CODE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator("#menu-btn").click()
    page.get_by_role("menuitem", name=f"Copy game code {EXAMPLE_CODE}").click()
    expect(live(page)).to_have_text("Game code copied")
    assert page.evaluate("navigator.clipboard.readText()") == EXAMPLE_CODE


def test_hint_highlights_a_move(new_page):
    # the perfect hint is the first move of a best win (the fair one: test_explain_page.py)
    page = new_page(code=WIN_CODE, settings={"tripeaks.hint_kind": "perfect"})
    page.keyboard.press("h")
    first: Action = winning_line(WIN_CODE)[0]
    target = (
        page.locator(f"#tableau [data-pos='{first.pos}']") if first.pos is not None else stock(page)
    )
    expect(target).to_have_class(__import__("re").compile(r"\bhinted\b"))
    expect(live(page)).not_to_be_empty()


def test_a_stale_page_redraws_from_the_server(new_page):
    page = new_page(code=EXAMPLE_CODE)
    other = page.context.new_page()
    other.goto("/")
    other.wait_for_selector("body[data-ready]")
    card(other, "king of clubs").click()
    expect(moves(other)).to_have_text("1")
    # the first tab still shows the start; its play is refused as stale and it redraws
    stock(page).click()
    expect(moves(page)).to_have_text("1")
    expect(card(page, "king of clubs")).to_have_count(0)
    expect(stock(page)).to_have_accessible_name("Stock, 23 cards")


def test_moves_animate_unless_animation_is_off(new_page):
    count_animations = (
        "window.animations = 0; const animate = Element.prototype.animate;"
        "Element.prototype.animate = function (...a) { window.animations += 1;"
        " return animate.apply(this, a); }; 0;"
    )
    moving = new_page(code=EXAMPLE_CODE, motion="no-preference")
    moving.evaluate(count_animations)
    card(moving, "king of clubs").click()
    expect(moves(moving)).to_have_text("1")
    played = moving.evaluate("window.animations")
    assert played > 0
    moving.keyboard.press("u")  # the card glides back from the discard
    expect(card(moving, "king of clubs")).to_be_visible()
    assert moving.evaluate("window.animations") > played
    still = new_page(code=EXAMPLE_CODE, settings={"tripeaks.motion": "off"})
    still.evaluate(count_animations)
    card(still, "king of clubs").click()
    expect(moves(still)).to_have_text("1")
    assert still.evaluate("window.animations") == 0
