"""Motion, streaks, peaks, the win, sound and touch (issue 11): what runs, what shows and what is remembered.

The fixture's pages ask for reduced motion; the tests of motion pass motion="no-preference". Every
animation is recorded (Element.animate) so that a test can say which kinds ran; none is timed.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect
from tripeaks_page import (
    STUCK_CODE,
    WIN_CODE,
    card,
    moves,
    name_at,
    no_violations,
    open_settings,
    stock,
    winning_line,
)

from tripeaks.engine.game import Action, ActionKind, Game, Turn

RECORD = """() => {
  window.recorded = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    window.recorded.push({
      cls: String(this.className), frames: JSON.stringify(frames), readied: (this.dataset && this.dataset.readied) || "",
    });
    return animate.call(this, frames, options);
  };
}"""
# a new deal's first frame has no animation yet: its board waits, hidden, for its flights (motion.js deal)
SETTLED = (
    "!document.querySelector('#tableau.dealing')"
    " && document.getAnimations().every((a) => a.playState !== 'running')"
)
COUNT_AUDIO = """
window.audioContexts = 0;
const Real = window.AudioContext;
window.soundsStarted = 0;
for (const Node of [AudioScheduledSourceNode, AudioBufferSourceNode]) {
  const start = Node.prototype.start;
  Node.prototype.start = function (...a) { window.soundsStarted += 1; return start.apply(this, a); };
}
window.AudioContext = class extends Real {
  constructor(...a) { super(...a); window.audioContexts += 1; window.lastAudio = this; }
};
"""


def recorded(page: Page) -> list[dict[str, str]]:
    result: list[dict[str, str]] = page.evaluate("window.recorded.splice(0)")
    return result


def settle(page: Page) -> None:
    """Every animation has ended (a CSS animation that keeps its last frame stays listed, finished).

    Polled with evaluate: wait_for_function compiles its predicate with eval in the page, which the
    page's Content-Security-Policy refuses."""
    deadline = time.monotonic() + 10
    while not page.evaluate(SETTLED):
        assert time.monotonic() < deadline, "animations still running after 10 s"
        page.wait_for_timeout(50)


def do(page: Page, code: str, done: list[Action], action: Action, tap: bool = False) -> None:
    """One action of a line, by a tap (touch) or a click, waiting for the server's reply to be drawn."""
    target = (
        stock(page)
        if action.kind is ActionKind.DRAW
        else card(page, name_at(code, done, action.pos))  # type: ignore[arg-type]
    )
    if tap:
        target.tap()
    else:
        target.click()
    done.append(action)
    expect(moves(page)).to_have_text(str(len(done)))


# How much of the cascade's canvas the thrown cards have covered (a share of its pixels, sampled)
COVERED = """() => {
  const canvas = document.querySelector(".motion-layer canvas.cascade");
  if (!canvas) return -1;
  const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  let seen = 0;
  for (let i = 3; i < data.length; i += 4 * 97, seen += 1) if (data[i] > 0) painted += 1;
  return painted / seen;
}"""


def cascade_covers(page: Page, share: float) -> None:
    """Wait until the thrown cards' trails cover `share` of the screen (the cascade really draws)."""
    deadline = time.monotonic() + 10
    while (covered := page.evaluate(COVERED)) < share:
        assert time.monotonic() < deadline, f"the cascade covered {covered:.0%} of the screen"
        page.wait_for_timeout(50)


def peak_points(turn: Turn) -> str:
    """What the page shows rising from an emptied peak: the engine's own figure for it."""
    assert turn.peak_points > 0
    return f"+{turn.peak_points}"


def test_with_full_motion_each_kind_of_action_animates_and_every_animation_ends(new_page):
    page = new_page(code=WIN_CODE, motion="no-preference", width=390, height=844, touch=True)
    page.evaluate(RECORD)
    line = winning_line(WIN_CODE)
    done: list[Action] = []

    # a play: the card flies to the discard (a ghost over the page), the old top kept under it
    do(page, WIN_CODE, done, line[0], tap=True)
    settle(page)
    kinds = recorded(page)
    assert any("ghost" in k["cls"] and "translate(" in k["frames"] for k in kinds), kinds
    expect(page.locator(".motion-layer > *")).to_have_count(0)

    # undo: the card flies back to its place
    page.locator("#undo").tap()
    expect(card(page, name_at(WIN_CODE, [], line[0].pos))).to_be_visible()  # type: ignore[arg-type]
    settle(page)
    assert any("ghost" in k["cls"] for k in recorded(page))

    # a refused tap: the card shakes
    page.locator("#tableau").get_by_role("button", name="hidden card").first.tap()
    expect(page.locator("#toast")).to_have_text("This card is locked")
    settle(page)
    assert any("rotate(-3deg)" in k["frames"] for k in recorded(page))

    # a draw: the card turns over on its way (its back, then its face: two sides turning)
    stock(page).tap()
    expect(stock(page)).to_have_accessible_name("Stock, 22 cards")
    settle(page)
    spins = [k for k in recorded(page) if "rotateY" in k["frames"] and "ghost" in k["cls"]]
    assert any("back" in k["cls"] for k in spins) and any("back" not in k["cls"] for k in spins)
    expect(page.locator(".motion-layer > *")).to_have_count(0)


def test_animation_off_leaves_no_animation_running_after_any_action(new_page):
    """Settings, Animation: Off (Reduced fades the changed cards: test_first_minutes.py)."""
    page = new_page(code=WIN_CODE, settings={"tripeaks.motion": "off"})
    page.evaluate(RECORD)
    line = winning_line(WIN_CODE)
    done: list[Action] = []
    nothing = "document.getAnimations().length"
    for action in line[:8]:  # plays, a streak, a draw, cards turned face up
        do(page, WIN_CODE, done, action)
        assert page.evaluate(nothing) == 0
    page.locator("#tableau").get_by_role("button", name="hidden card").first.click()
    expect(page.locator("#toast")).to_have_text("This card is locked")
    assert page.evaluate(nothing) == 0
    again = card(page, name_at(WIN_CODE, done[:-1], line[7].pos))  # type: ignore[arg-type]
    page.locator("#undo").click()
    expect(again).to_be_visible()
    assert page.evaluate(nothing) == 0
    again.click()  # the undone play again
    expect(again).to_have_count(0)
    assert page.evaluate(nothing) == 0
    assert recorded(page) == []
    # the rest of the game, to the win: the result window only fades in
    offset = int(moves(page).text_content() or 0) - len(done)
    for action in line[8:]:
        target = (
            stock(page)
            if action.kind is ActionKind.DRAW
            else card(page, name_at(WIN_CODE, done, action.pos))  # type: ignore[arg-type]
        )
        target.click()
        done.append(action)
        expect(moves(page)).to_have_text(str(len(done) + offset))
    expect(page.locator("#dlg-win")).to_be_visible()
    settle(page)
    assert all(
        '"opacity"' in k["frames"] and "transform" not in k["frames"] for k in recorded(page)
    )
    # "Same deal again": the same code, at the start, nothing moving
    page.locator("#dlg-win").get_by_role("button", name="Same deal again").click()
    expect(page.locator("#dlg-win")).to_be_hidden()
    expect(moves(page)).to_have_text("0")
    expect(page.locator("#code")).to_have_text(WIN_CODE)
    assert page.evaluate(nothing) == 0


def test_a_whole_game_by_touch_on_a_phone_streak_peak_celebration_and_play_again(
    new_page, artifacts
):
    page = new_page(code=WIN_CODE, motion="no-preference", width=390, height=844, touch=True)
    page.evaluate(RECORD)
    line = winning_line(WIN_CODE)
    game = Game.new(WIN_CODE)
    streak = page.locator("#streak")
    burst = page.locator(".burst-points")
    done: list[Action] = []
    for i, action in enumerate(line):
        turn = game.apply(action)
        do(page, WIN_CODE, done, action, tap=True)
        if i == len(line) - 1:
            break
        if turn.streak >= 2:
            expect(streak).to_be_visible()
            expect(streak).to_have_text(f"Card streak ×{turn.streak}")
        else:
            expect(streak).to_be_hidden()
        if turn.peak is not None:
            expect(burst.last).to_have_text(peak_points(turn))
            # the points stay whole on the screen, wherever the peak is
            box = burst.last.bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] >= 0, box
            page.screenshot(path=artifacts / "peak-burst-390x844.png")
        if i == 1:
            page.screenshot(path=artifacts / "streak-390x844.png")
    # the last card lands, the table shows cleared, then the cards cascade; a tap skips to the result
    # (held still, so that only the tap can end it)
    expect(page.locator("body[data-celebrating]")).to_have_count(1)
    cascade_covers(page, 0.2)
    page.evaluate("document.getAnimations().forEach((a) => a.pause())")
    page.screenshot(path=artifacts / "celebration-390x844.png")
    win = page.locator("#dlg-win")
    expect(win).to_be_hidden()
    page.touchscreen.tap(20, 120)
    expect(win).to_be_visible()
    expect(page.locator("body[data-celebrating]")).to_have_count(0)
    expect(page.locator("#win-score")).to_have_text(f"Score: {game.score}")
    expect(page.locator("#win-streak")).to_have_text(f"Longest card streak: {game.longest_streak}")
    buttons = win.get_by_role("button")
    # the review's "Show a best win" (test_explain_page.py) comes once the server has sent it
    expect(buttons).to_have_text(["Play again", "Same deal again", "Show a best win", "Close"])
    expect(win.get_by_role("button", name="Play again")).to_be_focused()
    page.screenshot(path=artifacts / "result-390x844.png")
    settle(page)
    recorded(page)
    # Play again: a new deal at once (nothing asked), dealt from the stock
    win.get_by_role("button", name="Play again").tap()
    expect(win).to_be_hidden()
    expect(page.locator("#dlg-confirm")).to_be_hidden()
    expect(moves(page)).to_have_text("0")
    expect(page.locator("#code")).not_to_have_text(WIN_CODE)
    expect(page.locator("#code")).to_have_text(re.compile(r"^TP1-E-"))
    settle(page)
    dealt = recorded(page)
    assert sum(1 for k in dealt if "translate(" in k["frames"]) >= 28
    assert any("rotateY" in k["frames"] for k in dealt)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_on_the_streak_the_celebration_and_the_result_window(new_page, theme):
    page = new_page(code=WIN_CODE, motion="no-preference", scheme=theme)
    line = winning_line(WIN_CODE)
    done: list[Action] = []
    for action in line[:2]:
        do(page, WIN_CODE, done, action)
    expect(page.locator("#streak")).to_have_text("Card streak ×2")
    settle(page)
    no_violations(page, f"streak ({theme})")
    for action in line[2:]:
        do(page, WIN_CODE, done, action)
    # the celebration, held still (its animations paused, its clock with them) while axe reads the page
    expect(page.locator("body[data-celebrating]")).to_have_count(1)
    cascade_covers(page, 0.05)
    page.evaluate("window.held = document.getAnimations(); window.held.forEach((a) => a.pause())")
    # held still: once the cards made late have caught up with the paused clock, nothing more is drawn
    page.wait_for_timeout(400)
    covered = page.evaluate(COVERED)
    page.wait_for_timeout(400)
    assert page.evaluate(COVERED) == covered
    no_violations(page, f"celebration ({theme})")
    page.evaluate("window.held.forEach((a) => a.play())")
    expect(page.locator("#dlg-win")).to_be_visible(timeout=15_000)
    settle(page)
    no_violations(page, f"result window ({theme})")


def test_the_stuck_notice_offers_undo_then_the_same_deal_then_a_new_game(new_page):
    page = new_page(code=STUCK_CODE)
    for n in range(1, 24):
        page.keyboard.press("d")
        expect(moves(page)).to_have_text(str(n))
    notice = page.locator("#stuck")
    expect(notice).to_be_visible()
    buttons = notice.get_by_role("button")
    # an undo can still save it: where it was lost is shown only when asked (test_explain_page.py)
    expect(buttons).to_have_text(["Undo", "Where was it lost?", "Same deal again", "New game"])
    expect(buttons.first).to_have_class(re.compile(r"\bprimary\b"))
    notice.get_by_role("button", name="Same deal again").click()
    page.locator("#dlg-confirm").get_by_role("button", name="Start a new game").click()
    expect(moves(page)).to_have_text("0")
    expect(page.locator("#code")).to_have_text(STUCK_CODE)
    expect(notice).to_be_hidden()


def test_sound_and_vibration_switches_persist_and_sound_waits_for_a_gesture(new_page):
    page = new_page(code=WIN_CODE)
    page.context.add_init_script(COUNT_AUDIO)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    # no sound before the player touches the page (the AudioContext, made while the page is idle after it
    # loads, waits); the first tap plays the draw
    page.wait_for_timeout(300)
    assert page.evaluate("window.audioContexts") <= 1
    assert page.evaluate("window.soundsStarted") == 0
    stock(page).click()
    expect(moves(page)).to_have_text("1")
    for _ in range(50):
        if page.evaluate("window.soundsStarted"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.soundsStarted") > 0
    assert page.evaluate("window.audioContexts") == 1
    settings = open_settings(page)
    sound = settings.get_by_role("checkbox", name="Sound")
    vibration = settings.get_by_role("checkbox", name="Vibration")
    expect(sound).to_be_checked()
    expect(vibration).to_be_checked()
    sound.uncheck()
    vibration.uncheck()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    stock(page).click()  # with Sound off, no AudioContext at all
    expect(moves(page)).to_have_text("2")
    assert page.evaluate("window.audioContexts") == 0
    settings = open_settings(page)
    expect(settings.get_by_role("checkbox", name="Sound")).not_to_be_checked()
    expect(settings.get_by_role("checkbox", name="Vibration")).not_to_be_checked()
    settings.get_by_role("button", name="Close").click()
    # the toolbar menu's Sound switch is the same setting
    page.locator("#menu-btn").click()
    item = page.get_by_role("menuitemcheckbox", name="Sound")
    expect(item).to_have_attribute("aria-checked", "false")
    item.click()
    expect(item).to_have_attribute("aria-checked", "true")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(open_settings(page).get_by_role("checkbox", name="Sound")).to_be_checked()


_SOUND_FIGURES = """async () => {
  const { renderSound } = await import('/static/js/sound.js');
  const out = {};
  for (const name of ['place', 'turn', 'draw', 'refused', 'peak', 'win']) {
    const x = await renderSound(name, 0, 2.5, 44100);
    let peak = 0, first = -1, last = 0, crossings = 0;
    for (let i = 0; i < x.length; i++) {
      const a = Math.abs(x[i]);
      if (a > peak) peak = a;
      if (a > 0.01 && first < 0) first = i;
      if (a > 0.001) last = i;
      if (i && (x[i] >= 0) !== (x[i - 1] >= 0)) crossings++;
    }
    out[name] = { peak, start: first / 44100, end: last / 44100, pitch: crossings / 2 / (last / 44100) };
  }
  return out;
}"""


def test_every_sound_is_short_clean_and_its_own(new_page):
    """Each sound rendered offline (OfflineAudioContext): it starts at once, is never clipped, ends
    soon, and the card sounds differ in brightness (zero crossings a second, a rough pitch)."""
    page = new_page()
    figures = page.evaluate(_SOUND_FIGURES)
    longest = {"place": 0.3, "turn": 0.3, "draw": 0.3, "refused": 0.3, "peak": 0.8, "win": 2.2}
    for name, most in longest.items():
        f = figures[name]
        assert 0.05 < f["peak"] < 0.9, (name, f)  # heard, and far from clipping
        assert 0 <= f["start"] < 0.015, (name, f)  # no silence before the sound
        assert 0.02 < f["end"] <= most, (name, f)
    pitch = {name: figures[name]["pitch"] for name in figures}
    assert pitch["turn"] > pitch["draw"] > pitch["place"] > pitch["refused"], pitch
    assert figures["win"]["end"] > figures["peak"]["end"] > figures["draw"]["end"]


def test_a_press_on_a_playable_card_makes_its_ghost_which_the_click_flies(new_page):
    """The flight's copy is made between the finger's down and its click, hidden, so the click's frame only
    starts an animation; a press that ends in no click leaves nothing once the next state comes."""
    page = new_page(code=WIN_CODE, motion="no-preference", width=390, height=844)
    page.evaluate(RECORD)
    line = winning_line(WIN_CODE)
    layer = page.locator(".motion-layer > .ghost")

    def press(target: object) -> None:
        box = target.bounding_box()  # type: ignore[attr-defined]
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()

    # a card the state does not list as playable gets none
    press(page.locator("#tableau").get_by_role("button", name="hidden card").first)
    page.wait_for_timeout(100)
    expect(layer).to_have_count(0)
    page.mouse.up()
    expect(page.locator("#toast")).to_have_text("This card is locked")
    settle(page)

    # a playable one: a hidden ghost, not the card's back, drawn where the discard is
    target = card(page, name_at(WIN_CODE, [], line[0].pos))  # type: ignore[arg-type]
    press(target)
    expect(layer).to_have_count(1)
    assert layer.evaluate("(g) => getComputedStyle(g).visibility") == "hidden"
    assert "back" not in (layer.get_attribute("class") or "")
    at, discard = layer.bounding_box(), page.locator("#discard").bounding_box()
    assert at and discard and abs(at["x"] - discard["x"]) < 1 and abs(at["y"] - discard["y"]) < 1
    layer.evaluate("(g) => { g.dataset.readied = 'yes'; }")
    page.mouse.up()  # the click: that very ghost flies
    expect(moves(page)).to_have_text("1")
    settle(page)
    flights = [k for k in recorded(page) if "translate(" in k["frames"]]
    assert flights and flights[0]["readied"] == "yes", flights
    expect(page.locator(".motion-layer > *")).to_have_count(0)

    # pressed, then the finger slides off: no click, and the next state takes the hidden ghost away
    press(card(page, name_at(WIN_CODE, line[:1], line[1].pos)))  # type: ignore[arg-type]
    expect(layer).to_have_count(1)
    page.mouse.move(5, 5)
    page.mouse.up()
    expect(moves(page)).to_have_text("1")
    stock(page).click()
    expect(moves(page)).to_have_text("2")
    settle(page)
    expect(page.locator(".motion-layer > *")).to_have_count(0)


# Every card of #tableau that gained the class "unshown" (its face not drawn while it is dealt), and
# every one that has it now
WATCH_UNSHOWN = """() => {
  window.unshown = new Set();
  new MutationObserver((changes) => {
    for (const c of changes) if (c.target.classList.contains("unshown")) window.unshown.add(c.target.dataset.pos);
  }).observe(document.querySelector("#tableau"), { subtree: true, attributes: true, attributeFilter: ["class"] });
}"""


def test_near_a_win_the_cascade_comes_early_and_play_again_closes_the_window_at_the_tap(new_page):
    """Work kept out of the animations' frames (docs/ui.md, "Long tasks"): the cascade's module is fetched
    a few cards before the win; Play again closes the result window at the tap and opens it again when no
    deal comes; a deal draws the face of each card dealt face up only once it starts turning."""
    page = new_page(code=WIN_CODE, motion="no-preference", width=390, height=844)
    line = winning_line(WIN_CODE)
    done: list[Action] = []
    # the number of the action in flight when cascade.js was asked for: set before its tap, since the
    # request's event may reach this script while the tap itself is still being sent
    sending = [0]
    fetched: list[int] = []
    page.on(
        "request",
        lambda r: fetched.append(sending[0]) if r.url.endswith("/static/js/cascade.js") else None,
    )
    left = page.locator("#tableau .card:not([hidden])")
    near = None
    for action in line[:-1]:
        sending[0] = len(done) + 1
        do(page, WIN_CODE, done, action)
        if near is None and left.count() <= 3:
            near = len(done)
        if near is None:
            assert fetched == [], f"cascade.js fetched with {left.count()} cards on the table"
    assert near is not None and near < len(line)
    deadline = time.monotonic() + 10
    while not fetched:
        assert time.monotonic() < deadline, "cascade.js was not fetched near the win"
        page.wait_for_timeout(50)
    assert fetched[0] >= near and fetched[0] < len(line), (fetched, near)

    do(page, WIN_CODE, done, line[-1])
    expect(page.locator("body[data-celebrating]")).to_have_count(1)
    assert len(fetched) == 1  # the win used the module already there
    page.mouse.click(20, 120)  # skips the cascade
    win = page.locator("#dlg-win")
    expect(win).to_be_visible()

    # no deal found: the window, closed at the tap, opens again and the server's sentence is shown
    refused = {"error": {"reason": "busy", "message": "No deal came this time."}}
    new_games = re.compile(r"/api/games\?")
    page.route(
        new_games,
        lambda route: (
            route.fulfill(status=503, json=refused)
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.evaluate(
        """() => { window.closedAt = null; const d = document.querySelector('#dlg-win');
        d.addEventListener('close', () => { window.closedAt = window.closedAt ?? performance.now(); }); }"""
    )
    win.get_by_role("button", name="Play again").click()
    expect(page.locator("#toast")).to_have_text("No deal came this time.")
    expect(win).to_be_visible()
    assert page.evaluate("window.closedAt") is not None
    expect(moves(page)).to_have_text(str(len(line)))

    # a deal that comes: the window is closed, and the faces of the cards dealt face up come as they turn
    page.unroute(new_games)
    page.evaluate(WATCH_UNSHOWN)
    win.get_by_role("button", name="Play again").click()
    expect(win).to_be_hidden()
    expect(moves(page)).to_have_text("0")
    settle(page)
    expect(page.locator("#tableau .card.unshown")).to_have_count(0)
    face_up = page.locator("#tableau .card:not(.back):not([hidden])")
    expect(face_up).to_have_count(10)
    positions = face_up.evaluate_all("(cards) => cards.map((c) => c.dataset.pos).sort()")
    assert sorted(page.evaluate("[...window.unshown]")) == positions
    # their faces are drawn now (each index has a box), and the icons and figures drawn from the page's
    # symbols (not displayed themselves) have their shapes
    assert face_up.evaluate_all(
        "(cards) => cards.every((c) => c.querySelector('.idx .r').getClientRects().length)"
    )
    assert page.evaluate("document.querySelector('#undo use').getBBox().width") > 0
    assert page.evaluate("getComputedStyle(document.querySelector('svg.defs')).display") == "none"


WATCH_WIN = """new MutationObserver((records) => {
  for (const r of records) if (r.target.id === 'dlg-win' || r.target.id === 'win-score')
    (window.winSeen ||= []).push([r.target.id, r.type, r.oldValue, r.target.textContent]);
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['class', 'open'],
  attributeOldValue: true, childList: true });"""


def test_the_result_window_is_laid_out_once_unseen_and_left_as_it_was(new_page):
    """Its fonts (sizes the page draws nowhere else, a fallback font for the suit symbols) are loaded at an idle
    moment after the page is up, not in the frames of the first win: the window is laid out once while
    unseen (with a digit in each empty line), then left closed, empty and out of the way."""
    page = new_page(width=390, height=844, touch=True, motion="no-preference", script=WATCH_WIN)
    focused = page.evaluate("document.activeElement.id || document.activeElement.dataset.pos")
    classes = (
        "() => (window.winSeen || []).filter((s) => s[0] === 'dlg-win' && s[1] === 'attributes')"
    )
    page.evaluate(  # polled in the page (wait_for_function's eval is refused by the page's CSP)
        f"""() => new Promise((done) => {{ const t0 = performance.now();
          const poll = () => ({classes})().length >= 2 || performance.now() - t0 > 8000
            ? requestIdleCallback(() => setTimeout(done, 50)) : setTimeout(poll, 20);
          poll(); }})"""
    )
    seen = page.evaluate("window.winSeen")
    window = page.evaluate(classes)
    assert [s[2] or "" for s in window] == ["", "warming"], seen  # the class put on, then taken off
    assert [s[1] for s in seen if s[0] == "win-score"] == ["childList", "childList"], seen
    state = page.evaluate(
        """() => { const d = document.querySelector('#dlg-win');
        return [d.open, d.className, getComputedStyle(d).display,
                document.querySelector('#win-score').textContent]; }"""
    )
    assert state == [False, "", "none", ""]
    assert (
        page.evaluate("document.activeElement.id || document.activeElement.dataset.pos") == focused
    )


# When #tableau took and lost the class "dealing": frames drawn by then, and the animations running.
WATCH_DEALING = """() => {
  window.dealing = [];
  let frames = 0;
  const tick = () => { frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const tableau = document.querySelector("#tableau");
  let was = tableau.classList.contains("dealing");
  new MutationObserver(() => {
    const on = tableau.classList.contains("dealing");
    if (on !== was) window.dealing.push({ on, frames, running: document.getAnimations().length });
    was = on;
  }).observe(tableau, { attributes: true, attributeFilter: ["class"] });
}"""


COUNT_ANIMATIONS = """window.animated = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.animated += 1; return animate.apply(this, args); };"""


def test_the_very_first_visit_deals_with_the_deals_motion(new_page):
    """The first game ever was made and drawn without the deal's flights; every later deal had them
    (issue 37, defect 5). A returning player's stored game is drawn as it stands, undealt."""
    page = new_page(motion="no-preference", width=390, height=844, script=COUNT_ANIMATIONS)
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#tableau .card.unshown")).to_have_count(0, timeout=3000)
    assert page.evaluate("window.animated") >= 28  # every card's flight from the stock
    page.evaluate("window.animated = 0")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_timeout(300)
    assert page.evaluate("window.animated") == 0  # the same game again: no deal


def test_a_new_deal_lays_its_board_out_a_frame_before_its_cards_fly(new_page):
    """The deal's two frames (docs/ui.md, "The new deal in two frames"): the new board is drawn unseen,
    the cards' flights start only after a frame has been drawn, and then the board shows again."""
    page = new_page(code=WIN_CODE, motion="no-preference", width=390, height=844)
    page.evaluate(WATCH_DEALING)
    page.locator("#tools [data-action='new']").click()
    dialog = page.locator("#dlg-new")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Deal").click()
    expect(page.locator("#code")).not_to_have_text(WIN_CODE)
    expect(page.locator("#tableau")).not_to_have_class(re.compile(r"\bdealing\b"))
    hidden, shown = page.evaluate("window.dealing")
    assert hidden["on"] and not shown["on"], (hidden, shown)
    assert hidden["running"] == 0, hidden  # nothing flies while the new board is drawn
    assert shown["frames"] > hidden["frames"], (hidden, shown)  # a frame between
    assert shown["running"] >= 28, shown  # then every card's flight, at once
    # the face of a card dealt face up waits for its turn, and the focus is on the new board
    expect(page.locator("#tableau .card.unshown")).to_have_count(0, timeout=3000)
    focused = page.evaluate("document.activeElement.closest('#tableau, .piles') !== null")
    assert focused
    settle(page)
