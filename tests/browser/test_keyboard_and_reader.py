"""A whole game by keyboard alone, and what a screen reader hears."""

from __future__ import annotations

from playwright.sync_api import expect
from tripeaks_page import (
    EXAMPLE_CODE,
    WIN_CODE,
    card,
    choose,
    focused_pos,
    live,
    moves,
    stock,
    toast,
    walk_to,
    winning_line,
)

from tripeaks.engine.game import Action, ActionKind, Game
from tripeaks.i18n.describe import describe

ARROWS = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight")


def test_a_whole_game_by_keyboard_alone(new_page):
    page = new_page(code=WIN_CODE)
    # Tab from the top of the page reaches the board: the score, the Journey button, then one board stop.
    for _ in range(3):
        page.keyboard.press("Tab")
    assert focused_pos(page) is not None
    for n, action in enumerate(winning_line(WIN_CODE), start=1):
        if action.kind is ActionKind.DRAW:
            page.keyboard.press("d")
        else:
            walk_to(page, str(action.pos))
            page.keyboard.press("Enter" if n % 2 else " ")
        expect(moves(page)).to_have_text(str(n))
        if n < 34:
            assert focused_pos(page) is not None, "focus was lost after a move"
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()
    expect(win.get_by_role("button", name="Play again")).to_be_focused()
    page.keyboard.press("Escape")
    expect(win).to_be_hidden()
    assert page.evaluate("document.activeElement !== document.body")


def test_undo_and_hint_and_new_game_keys(new_page):
    page = new_page(code=EXAMPLE_CODE)
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("1")
    page.keyboard.press("u")
    expect(stock(page)).to_have_accessible_name("Stock, 23 cards")
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("2")
    page.keyboard.press("Control+z")
    expect(stock(page)).to_have_accessible_name("Stock, 23 cards")
    page.keyboard.press("?")
    expect(page.locator("#dlg-help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-help")).to_be_hidden()
    menu_button = page.locator("#menu-btn")
    menu_button.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("menuitem", name="Settings")).to_be_visible()
    settings_item = page.get_by_role("menuitem", name="Settings")
    for _ in range(8):  # arrows move inside the menu
        if settings_item.evaluate("(el) => el === document.activeElement"):
            break
        page.keyboard.press("ArrowDown")
    expect(settings_item).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#dlg-settings")).to_be_visible()
    page.keyboard.press("Escape")
    expect(menu_button).to_be_focused()  # the focus goes back where it came from
    page.keyboard.press("n")
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    # The window keeps the focus: Tab never leaves it.
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('#dlg-new')")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert page.evaluate("document.activeElement !== document.body")


def test_arrow_keys_follow_the_peaks(new_page):
    page = new_page(code=EXAMPLE_CODE)
    card(page, "2 of clubs").focus()  # bottom row, far left
    page.keyboard.press("ArrowRight")
    expect(card(page, "ace of diamonds")).to_be_focused()
    page.keyboard.press("ArrowUp")
    assert focused_pos(page) in {"9", "10"}  # row 3 above it
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert focused_pos(page) == "stock"


def test_live_region_after_a_removal_a_draw_and_a_refusal(new_page):
    page = new_page(code=EXAMPLE_CODE)
    card(page, "king of clubs").click()
    expect(live(page)).to_have_text("Removed king of clubs.")
    card(page, "ace of diamonds").click()
    card(page, "king of hearts").click()
    expect(live(page)).to_contain_text("Removed king of hearts.")
    expect(live(page)).to_contain_text("3 of clubs")  # the card it turned over
    stock(page).click()
    first_stock = Game.new(EXAMPLE_CODE).deal.stock[0]
    from tripeaks.i18n.describe import card_name

    expect(live(page)).to_contain_text(card_name(first_stock, "en"))
    expect(moves(page)).to_have_text("4")
    page.locator("#tableau").get_by_role("button", name="hidden card").first.click()
    expect(live(page)).to_have_text("This card is locked")
    expect(toast(page)).to_have_text("This card is locked")


def test_key_b_and_the_read_board_button_say_the_exact_description(new_page):
    page = new_page(code=EXAMPLE_CODE)
    actions = [Action.play(21), Action.play(19), Action.play(22)]
    for name in ("king of clubs", "ace of diamonds", "king of hearts"):
        card(page, name).click()
    expect(moves(page)).to_have_text("3")
    page.keyboard.press("b")
    expect(live(page)).to_have_text(describe(Game.replay(EXAMPLE_CODE, actions), "en"))
    choose(page, action="settings")
    page.locator("#set-lang").select_option("fi")
    page.keyboard.press("Escape")
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    choose(page, "Lue pöytä")
    expect(live(page)).to_have_text(describe(Game.replay(EXAMPLE_CODE, actions), "fi"))
    page.keyboard.press("d")
    expect(moves(page)).to_have_text("4")
    page.keyboard.press("b")
    expect(live(page)).to_have_text(
        describe(Game.replay(EXAMPLE_CODE, [*actions, Action.parse("draw")]), "fi")
    )


def test_cards_and_stock_are_named_buttons(new_page):
    page = new_page(code=EXAMPLE_CODE, locale="ca")
    board = page.locator("#tableau")
    expect(board.get_by_role("button", name="carta oculta")).to_have_count(18)
    expect(board.get_by_role("button", name="2 de trèvols", exact=True)).to_be_visible()
    expect(stock(page)).to_have_accessible_name("Pila per robar, 23 cartes")
    board.get_by_role("button", name="rei de trèvols").click()
    expect(board.get_by_role("button")).to_have_count(27)
