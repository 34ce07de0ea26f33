"""What the browser tests share: the engine's view of a deal, and how a player drives the page."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator, Page, expect

from tripeaks.engine.game import Action, ActionKind, Game
from tripeaks.i18n.describe import card_name
from tripeaks.solver.search import solve

WIN_CODE = "TP1-E-AAAAAAC"
"""A deal the tests win; its winning line comes from the solver."""
EXAMPLE_CODE = "TP1-E-AAAAAAB"
STUCK_CODE = "TP1-C-AAAAAAH"
HELP_SECTIONS = [
    "howto",
    "rules",
    "example",
    "scoring",
    "undo",
    "codes",
    "choices",
    "variants",
    "layouts",
    "keys",
    "sources",
]
"""The help's sections, in the order the help shows them (the first one open)."""
"""Drawing all 23 stock cards of this deal, playing nothing, leaves no possible move."""


def winning_line(code: str) -> list[Action]:
    solution = solve(code)
    assert solution.winnable
    return list(solution.line)


def name_at(code: str, actions: list[Action], pos: int, lang: str = "en") -> str:
    """The accessible name the page must give the card at ``pos`` after ``actions``."""
    game = Game.replay(code, actions)
    card = game.card_at(pos)
    assert card is not None and game.is_face_up(pos)
    return card_name(card, lang)


def card(page: Page, name: str) -> Locator:
    return page.locator("#tableau").get_by_role("button", name=name, exact=True)


def stock(page: Page) -> Locator:
    return page.locator("#stock")


def moves(page: Page) -> Locator:
    return page.locator("#moves")


def live(page: Page) -> Locator:
    return page.locator("#live")


def toast(page: Page) -> Locator:
    return page.locator("#toast")


def click_line(
    page: Page,
    code: str,
    line: list[Action],
    before: list[Action] | None = None,
    lang: str = "en",
    each: Callable[[Action], None] | None = None,
) -> None:
    """Play ``line`` (after ``before``) by clicking cards by their accessible names in ``lang`` and
    the stock; ``each`` is called after each step has landed."""
    done: list[Action] = list(before or [])
    for action in line:
        if action.kind is ActionKind.DRAW:
            stock(page).click()
        else:
            assert action.pos is not None
            card(page, name_at(code, done, action.pos, lang)).click()
        done.append(action)
        expect(moves(page)).to_have_text(str(len(done)))
        if each is not None:
            each(action)


def no_violations(page: Page, screen: str) -> None:
    """axe-core finds nothing on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    page.wait_for_timeout(50)
    results = Axe().run(page)
    assert results.violations_count == 0, f"{screen}:\n{results.generate_report()}"


def choose(page: Page, name: str | None = None, action: str | None = None) -> None:
    """Open the toolbar's menu and choose an item, by its accessible name or its data-action."""
    page.locator("#menu-btn").click()
    menu = page.get_by_role("menu")
    expect(menu).to_be_visible()
    if action is not None:
        menu.locator(f"[data-action='{action}']").click()
    else:
        menu.get_by_role("menuitem", name=name).click()
    expect(menu).to_be_hidden()


def open_settings(page: Page) -> Locator:
    choose(page, action="settings")
    dialog = page.locator("#dlg-settings")
    expect(dialog).to_be_visible()
    return dialog


def more_options(page: Page) -> Locator:
    """Unfold More options in the open New game window (the scoring, the variants and the code are
    in it), if it is not open already; returns the window."""
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    more = dialog.locator("#new-more")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    expect(more).to_have_attribute("open", "")
    return dialog


def focused_pos(page: Page) -> str | None:
    return page.evaluate(
        "(() => { const el = document.activeElement;"
        " return el.id === 'stock' ? 'stock' : el.closest('#tableau') ? el.dataset.pos : null; })()"
    )


def walk_to(page: Page, target: str) -> None:
    """Arrow keys, as a player would press them looking at the table, until the card at ``target`` has the
    focus: up or down while it is in another row, else left or right; back at a card already left, the
    other way (on Diamonds the row between may have nothing near the target: sideways first)."""
    seen: set[str] = set()
    for _ in range(40):
        here = focused_pos(page)
        assert here is not None, "focus left the board"
        if here == target:
            return
        dx, dy, height = page.evaluate(
            """([from, to]) => {
                 const el = (p) => p === 'stock' ? document.getElementById('stock')
                   : document.querySelector(`#tableau [data-pos='${p}']`);
                 const a = el(from).getBoundingClientRect(), b = el(to).getBoundingClientRect();
                 return [b.x + b.width / 2 - a.x - a.width / 2, b.y + b.height / 2 - a.y - a.height / 2,
                         a.height];
               }""",
            [here, target],
        )
        vertical = abs(dy) > height * 0.3
        if here in seen and abs(dx) > 1:
            vertical = not vertical
        seen.add(here)
        if vertical:
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    raise AssertionError(f"arrow keys never reached {target}")
