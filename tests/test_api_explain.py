"""The solver explains, through the API (issue 16; docs/api.md "Explaining"): fair and perfect
hints, the review of a finished game, deals of a difficulty and the statistics that count them.

Every figure is checked against tripeaks/solver/explain.py or a fresh exact solve of a game the engine
replays here, on SQLite and PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

import asyncio
import gzip
import json
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from babel.numbers import format_decimal, format_percent
from fastapi.testclient import TestClient
from test_api_daily import best_line, deal_of, start
from test_api_daily import play as play_daily
from test_api_support import (
    STUCK_CODE,
    WIN_CODE,
    new_game,
    on_day,
    play_line,
    player_of,
    send,
    store_of,
    winning_line,
)
from test_explain import midgame, swapped

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, UNDO, Action, Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.i18n import translator
from tripeaks.i18n.describe import card_name
from tripeaks.solver import explain
from tripeaks.solver import search as solver
from tripeaks.stats import fold
from tripeaks.store.policy import Kind
from tripeaks.web.api.view import fair_hint_out as _fair_hint_out
from tripeaks.web.backend.solving import HintRefused, Solvers

NEVER_CODE = "TP1-E-AAAAABC"
"""An Easy deal no line can win."""
GRADED = ("gentle", "medium", "hard")


def hint(client: TestClient, state: dict[str, Any], query: str = "") -> dict[str, Any]:
    reply = client.get(f"/api/games/{state['id']}/hint{query}")
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def review(client: TestClient, state: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    reply = client.get(f"/api/games/{state['id']}/review?lang={lang}")
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def action_of(out: dict[str, Any]) -> Action:
    return DRAW if out["kind"] == "draw" else Action.play(out["pos"])


def fair_message(game: Game, fair: explain.PlayedHint, lang: str) -> str:
    """The sentence a fair hint must say, made here from the catalog."""
    _ = translator(lang)
    assert fair.move is not None
    ending = "_none" if fair.share == 0 else "_certain" if fair.share == 1 else ""
    words = {
        "chance": format_percent(fair.chance, locale=lang),
        "samples": format_decimal(fair.plays, locale=lang),
    }
    if fair.move.pos is None:
        return _(f"hint.fair_draw{ending}", **words)
    card = game.deal.tableau[fair.move.pos]
    return _(f"hint.fair_play{ending}", card=card_name(card, lang), **words)


# Hints of two kinds --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_a_hint_is_fair_unless_asked_perfect(client: TestClient, lang: str) -> None:
    state = new_game(client, WIN_CODE, lang)
    game = Game.new(WIN_CODE)
    fair = explain.played_hint(game, explain.HINT_SAMPLES, seed=0)
    assert fair.move is not None
    got = hint(client, state, f"?lang={lang}")
    assert got == {
        "kind": "fair",
        "winnable": None,  # the exact verdict would tell what is hidden
        "action": {"kind": "draw" if fair.move.pos is None else "play", "pos": fair.move.pos},
        "chance": fair.chance,
        "samples": explain.HINT_SAMPLES,
        "message": fair_message(game, fair, lang),
    }
    assert 0 < fair.chance < 1 and 0 < fair.share < 1
    assert hint(client, state, f"?kind=fair&lang={lang}") == got  # the same answer twice
    perfect = hint(client, state, f"?kind=perfect&lang={lang}")
    assert perfect["kind"] == "perfect" and perfect["winnable"] is True
    assert perfect["chance"] is None and perfect["samples"] is None
    move = solver.hint(game)
    assert move is not None and action_of(perfect["action"]) == move
    # the first move of a fewest-draws win: which of several such wins is the solver's to say
    assert solver.solve(game).draws == solver.solve(after(game, move)).draws + (move == DRAW)
    if move.pos is None:
        assert perfect["message"] == translator(lang)("hint.perfect_draw")
    else:
        card = card_name(game.deal.tableau[move.pos], lang)
        assert perfect["message"] == translator(lang)("hint.perfect_play", card=card)


def test_the_english_sentences_of_both_kinds() -> None:
    _ = translator("en")
    assert _("hint.perfect_play", card="7 of hearts") == (
        "Perfect hint (it knows every card): play the 7 of hearts."
    )
    game = Game.new(WIN_CODE)
    draw = _fair_hint_out(game, ("draw", 0.64, 1000, 0.7), "en")
    assert draw.message == (
        "Draw a card: following the hints from here wins about 64% of the time."
    )
    assert (draw.kind, draw.chance, draw.samples, draw.winnable) == ("fair", 0.64, 1000, None)
    # a whole percent in the language's own way
    fi = _fair_hint_out(game, ("draw", 0.64, 1000, 0.7), "fi").message.replace("\xa0", " ")
    assert "noin 64 %" in fi
    # none of the deals played on won, and all of them: sentences of their own, still the move
    play = f"play {game.playable_positions()[0]}"
    card = card_name(game.card_at(game.playable_positions()[0]), "en")
    none = _fair_hint_out(game, (play, 0.001, 1000, 0.0), "en")
    assert none.action is not None and none.action.kind == "play"
    assert none.message == (
        f"Play the {card}, your best try: seeing only what you see, none of 1,000 deals that"
        " look like this one was won from there."
    )
    certain = _fair_hint_out(game, ("draw", 0.999, 1000, 1.0), "en")
    assert certain.message == (
        "Draw a card: seeing only what you see, all 1,000 deals that look like this one were won"
        " from there."
    )
    ca = _fair_hint_out(game, (play, 0.001, 1000, 0.0), "ca").message
    assert "no s'ha guanyat des d'aquí cap dels 1.000 repartiments" in ca
    fi = _fair_hint_out(game, ("draw", 0.999, 1000, 1.0), "fi").message.replace("\xa0", " ")
    assert "kaikki 1 000 tämän näköistä jakoa voitettiin" in fi


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_hint_of_another_kind_is_refused(client: TestClient, lang: str) -> None:
    state = new_game(client, WIN_CODE)
    reply = client.get(f"/api/games/{state['id']}/hint?kind=psychic&lang={lang}")
    assert reply.status_code == 422
    message = translator(lang)("error.unknown_hint_kind")
    assert reply.json()["error"] == {"reason": "unknown_hint_kind", "message": message}
    assert client.get(f"/api/games/{state['id']}").json()["version"] == 0


@pytest.mark.parametrize("options", ["", "O", "D", "J", "T", "DJOT"])
@pytest.mark.parametrize("tableau", [True, False])
def test_a_fair_hint_sees_only_what_the_player_sees(
    client: TestClient, options: str, tableau: bool
) -> None:
    """A game played through the API gets the fair hint of another deal, identical in every
    visible card and different underneath; its perfect hint still answers under every variant."""
    code = GameCode(Variant(Rules.CLASSIC).with_options(options), "BCDEFGH")
    game, line = midgame(code)
    assert line
    state = play_line(client, new_game(client, str(code)), line)[-1]
    other = swapped(game, line, tableau)
    assert explain.visible_key(other) == explain.visible_key(game)
    theirs = explain.played_hint(other, explain.HINT_SAMPLES, seed=0)
    got = hint(client, state)
    assert theirs.move is not None and action_of(got["action"]) == theirs.move
    assert got["chance"] == theirs.chance and got["samples"] == explain.HINT_SAMPLES
    perfect = hint(client, state, "?kind=perfect")
    assert perfect["kind"] == "perfect" and isinstance(perfect["winnable"], bool)


def test_finished_games_answer_as_before(client: TestClient) -> None:
    won = play_line(client, new_game(client, WIN_CODE), winning_line())[-1]
    for kind in ("fair", "perfect"):
        got = hint(client, won, f"?kind={kind}")
        assert got["kind"] == kind and got["action"] is None and got["winnable"] is True
        assert got["message"] == translator("en")("hint.won")


def test_the_daily_refuses_both_kinds_and_a_review_until_its_day_is_over(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal = deal_of(client)
    ranked = start(client, 201)
    moved = play_daily(client, ranked, best_line(deal.code)[:2])
    for path in ("hint?kind=fair", "hint?kind=perfect", "review"):
        reply = client.get(f"/api/games/{moved['id']}/{path}")
        assert reply.status_code == 403, path
        assert reply.json()["error"]["reason"] == "daily_ranked"
    game = Game.replay(deal.code, best_line(deal.code)[:2])
    rest: list[Action] = []
    while not (game.is_over or game.is_stuck):  # then the first playable card, else a draw
        playable = game.playable_positions()
        rest.append(Action.play(playable[0]) if playable else DRAW)
        game.apply(rest[-1])
    over = play_daily(client, moved, rest)
    assert over["status"] in ("won", "stuck")
    for path in ("hint?kind=fair", "review"):  # ended, but the day is open: it would tell the deal
        assert client.get(f"/api/games/{over['id']}/{path}").status_code == 403, path
    on_day(monkeypatch, deal.day + timedelta(days=1))
    explained = review(client, over)
    assert explained["status"] == over["status"]
    for step in (explained["replay"] or {"steps": []})["steps"]:
        assert step["id"] is None and step["daily"] == over["daily"]


# The review of a finished game ---------------------------------------------------------------


def replay_wins(code: str, replay: dict[str, Any], before: tuple[Action, ...]) -> None:
    """The replay's first state is the position after ``before``, and its steps, each with the
    engine's Turn, play a win from there."""
    steps = replay["steps"]
    assert replay["start"] == len(before)
    walker = Game.replay(code, before)
    first = steps[0]
    assert first["id"] is None and first["last"] is None
    assert (first["score"], first["stock_size"]) == (walker.score, walker.stock_size)
    assert [s["slot"] for s in first["tableau"]] == [walker.slot(p).value for p in range(28)]
    for step in steps[1:]:
        last = step["last"]
        assert last is not None and last["announcement"]
        walker.apply(DRAW if last["kind"] == "draw" else Action.play(last["pos"]))
        assert (step["score"], step["status"]) == (walker.score, walker.status.value)
    assert walker.is_won and steps[-1]["status"] == "won"


def test_a_won_game_shows_its_draws_and_a_best_win(client: TestClient) -> None:
    line = winning_line()
    state = play_line(client, new_game(client, WIN_CODE), line)[-1]
    got = review(client, state)
    fewest = solver.solve(WIN_CODE).draws
    used = sum(1 for a in line if a == DRAW)
    assert got["status"] == "won" and got["winnable"] is True
    assert got["grade"] == explain.grade(WIN_CODE).value
    assert got["draws"] == {"used": used, "fewest": fewest}
    assert got["lost_at"] is None and got["most_removed"] is None
    assert got["message"] == translator("en")("review.draws", used=used, fewest=fewest)
    replay_wins(WIN_CODE, got["replay"], ())
    assert len(got["replay"]["steps"]) == len(solver.solve(WIN_CODE).line) + 1


@pytest.mark.parametrize("lang", ["en", "fi", "ca"])
def test_a_stuck_game_shows_where_it_was_lost(client: TestClient, lang: str) -> None:
    line = (DRAW,) * 23
    state = play_line(client, new_game(client, STUCK_CODE), line)[-1]
    assert state["status"] == "stuck"
    got = review(client, state, lang)
    # the last position of the line a fresh exact solve calls winnable
    winnable = [solver.is_winnable(Game.replay(STUCK_CODE, line[:i])) for i in range(24)]
    index = max(i for i, w in enumerate(winnable) if w)
    assert winnable == [True] * (index + 1) + [False] * (23 - index)
    assert got["lost_at"] == {"index": index, "move": {"kind": "draw", "pos": None}, "moves": 23}
    assert got["winnable"] is True and got["draws"] is None and got["most_removed"] is None
    assert got["message"] == translator(lang)("review.lost_draw", move=index + 1)
    replay_wins(STUCK_CODE, got["replay"], line[:index])


def test_a_game_lost_by_a_play_names_the_card(client: TestClient) -> None:
    """Undone moves are not in the line; the move that lost it is a play."""
    code = GameCode.parse(WIN_CODE)
    game = Game.new(code)
    line: list[Action] = []
    while True:  # play the first card that loses the win, else the lowest that keeps it
        lost = next(
            (m for m in game.legal_moves() if m != DRAW and not winnable_after(game, m)), None
        )
        if lost is not None:
            break
        move = next(m for m in game.legal_moves() if winnable_after(game, m))
        game.apply(move)
        line.append(move)
    state = play_line(client, new_game(client, WIN_CODE), line)[-1]
    if game.stock_size:  # a draw taken back is no part of the line
        state = play_line(client, state, [DRAW, UNDO])[-1]
    state = play_line(client, state, [lost])[-1]
    assert state["status"] in ("playing", "stuck")
    if state["status"] == "playing":  # leave it: a left game is reviewed too
        new_game(client, WIN_CODE)
    got = review(client, state)
    assert got["lost_at"]["index"] == len(line)
    assert got["lost_at"]["move"] == {"kind": "play", "pos": lost.pos}
    assert got["lost_at"]["moves"] == len(line) + 1
    assert lost.pos is not None
    card = card_name(code_deal(WIN_CODE).tableau[lost.pos], "en")
    assert got["message"] == translator("en")("review.lost_play", move=len(line) + 1, card=card)
    replay_wins(WIN_CODE, got["replay"], tuple(line))


def after(game: Game, move: Action) -> Game:
    moved = game.copy()
    moved.apply(move)
    return moved


def winnable_after(game: Game, move: Action) -> bool:
    return solver.is_winnable(after(game, move))


def code_deal(code: str) -> Any:
    return Game.new(code).deal


def test_a_game_left_while_winnable_lost_nothing(client: TestClient) -> None:
    first = solver.solve(WIN_CODE).line[0]
    state = send(client, new_game(client, WIN_CODE), first).json()
    assert client.get(f"/api/games/{state['id']}/review").json()["error"]["reason"] == "not_over"
    new_game(client)  # leaves it
    got = review(client, state)
    assert got["status"] == "left"
    assert got["lost_at"] == {"index": 1, "move": None, "moves": 1}
    assert got["message"] == translator("en")("review.still_winnable")
    replay_wins(WIN_CODE, got["replay"], (first,))


def test_a_deal_never_winnable_says_how_far_any_line_gets(client: TestClient) -> None:
    game = Game.new(NEVER_CODE)
    line: list[Action] = []
    while (move := next(game.legal_moves(), None)) is not None:
        game.apply(move)
        line.append(move)
    state = play_line(client, new_game(client, NEVER_CODE), line)[-1]
    assert state["status"] == "stuck"
    got = review(client, state, "fi")
    removed = explain.most_removed(game)
    assert got["winnable"] is False and got["grade"] == "unwinnable"
    assert got["most_removed"] == removed and removed < 28
    assert got["lost_at"] is None and got["draws"] is None and got["replay"] is None
    assert got["message"] == translator("fi")("review.never", removed=removed)


@pytest.mark.parametrize("lang", ["en", "ca"])
def test_a_game_still_played_has_no_review(client: TestClient, lang: str) -> None:
    state = new_game(client, WIN_CODE)
    reply = client.get(f"/api/games/{state['id']}/review?lang={lang}")
    assert reply.status_code == 409
    message = translator(lang)("error.not_over")
    assert reply.json()["error"] == {"reason": "not_over", "message": message}
    unknown = client.get(f"/api/games/nosuchgame/review?lang={lang}")
    assert unknown.status_code == 404 and unknown.json()["error"]["reason"] == "unknown_game"


def test_a_traditional_game_replays_our_best_win_under_its_own_scoring(
    client: TestClient,
) -> None:
    code = GameCode(Variant(Rules.EASY, Scoring.TRADITIONAL), GameCode.parse(STUCK_CODE).letters)
    line = (DRAW,) * 23
    state = play_line(client, new_game(client, str(code)), line)[-1]
    assert state["status"] == "stuck"
    got = review(client, state)
    standard = [solver.is_winnable(Game.replay(STUCK_CODE, line[:i])) for i in range(24)]
    index = max(i for i, w in enumerate(standard) if w)
    assert got["lost_at"]["index"] == index
    replay_wins(str(code), got["replay"], line[:index])
    assert got["replay"]["steps"][-1]["variant"]["scoring"] == "traditional"


def test_the_review_of_a_long_line_stays_small(client: TestClient) -> None:
    """A best win of many moves, every step a full state: measured gzipped (gzip is on)."""
    line = solver.solve(WIN_CODE).line
    state = play_line(client, new_game(client, WIN_CODE), line)[-1]
    reply = client.get(f"/api/games/{state['id']}/review", headers={"Accept-Encoding": "gzip"})
    assert reply.status_code == 200 and reply.headers["content-encoding"] == "gzip"
    body = json.dumps(reply.json()).encode()
    packed = len(gzip.compress(body))
    assert len(reply.json()["replay"]["steps"]) == len(line) + 1
    assert packed < 64 * 1024, (len(body), packed)


# Deals of a difficulty -----------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["easy", "classic"])
@pytest.mark.parametrize("grade", GRADED)
def test_a_difficulty_deals_a_deal_of_that_grade(
    client: TestClient, rules: str, grade: str
) -> None:
    """The deal is of the grade, and the first fair hint the player is given agrees with it: its
    chance is in the grade's band (issue 40)."""
    reply = client.post("/api/games", json={"rules": rules, "difficulty": grade})
    assert reply.status_code == 201, reply.text
    code = reply.json()["code"]
    assert explain.grade(code).value == grade and GameCode.parse(code).rules.name.lower() == rules
    first = explain.first_hint(code)
    assert hint(client, reply.json())["chance"] == first.chance
    gentle, medium = explain.GRADE_BANDS[GameCode.parse(code).rules, THREE_PEAKS.id]
    band = "gentle" if first.share >= gentle else "medium" if first.share >= medium else "hard"
    assert band == grade


def test_a_difficulty_under_a_variant_and_the_bad_ones(client: TestClient) -> None:
    reply = client.post(
        "/api/games", json={"difficulty": "gentle", "scoring": "traditional", "joker": True}
    )
    assert reply.status_code == 201, reply.text
    code = GameCode.parse(reply.json()["code"])
    assert explain.grade(code) is explain.Grade.GENTLE and code.variant.joker
    typed = client.post("/api/games", json={"code": NEVER_CODE, "difficulty": "gentle"})
    assert typed.status_code == 201 and typed.json()["code"] == NEVER_CODE  # a typed code rules
    bad = client.post("/api/games", json={"difficulty": "brutal"})
    assert bad.status_code == 422 and bad.json()["error"]["reason"] == "bad_request"


def test_no_deal_of_the_grade_is_a_clear_503(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    solvers = client.app.state.backend.solvers  # type: ignore[attr-defined]

    async def nothing(variant: Variant, grade: str, layout: Layout) -> None:
        return None

    monkeypatch.setattr(solvers, "graded_code", nothing)
    reply = client.post("/api/games?lang=ca", json={"difficulty": "hard"})
    assert reply.status_code == 503
    message = translator("ca")("error.no_graded_deal")
    assert reply.json()["error"] == {"reason": "no_graded_deal", "message": message}


def test_a_search_for_a_grade_gives_up_after_its_tries_or_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A grade asks the first fair hint, up to half a second a deal on some layouts: a rare grade
    must not hold a worker for GRADE_TRIES of them."""
    from tripeaks.web.backend import solver_worker

    asked: list[str] = []

    def gentle(code: GameCode) -> explain.Grade:
        asked.append(str(code))
        return explain.Grade.GENTLE

    monkeypatch.setattr(solver_worker.explain, "grade", gentle)
    assert solver_worker.graded_code("E", "hard", 5) is None and len(asked) == 5
    asked.clear()
    assert solver_worker.graded_code("E", "hard", 5, seconds=0.0) is None and len(asked) == 1
    asked.clear()
    assert solver_worker.graded_code("E", "gentle", 5, seconds=0.0) is not None and len(asked) == 1


def result_of(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game's result once the worker has its verdict (it is asked near the end)."""
    for _ in range(400):
        result = client.get(f"/api/games/{game_id}").json()["result"]
        if result is not None:
            found: dict[str, Any] = result
            return found
        import time

        time.sleep(0.025)
    raise AssertionError("no result")


# Statistics ---------------------------------------------------------------------------------


def test_the_result_and_the_statistics_count_each_grade(client: TestClient) -> None:
    won = play_line(client, new_game(client, WIN_CODE), winning_line())[-1]
    stuck = play_line(client, new_game(client, STUCK_CODE), [DRAW] * 23)[-1]
    assert result_of(client, won["id"])["grade"] == explain.grade(WIN_CODE).value
    assert result_of(client, stuck["id"])["grade"] == explain.grade(STUCK_CODE).value
    new_game(client)  # the stuck one counts lost
    by_grade = client.get("/api/stats").json()["easy"]["by_grade"]
    expected = {g: {"played": 0, "won": 0} for g in (*GRADED, "unwinnable")}
    expected[explain.grade(WIN_CODE).value]["played"] += 1
    expected[explain.grade(WIN_CODE).value]["won"] += 1
    expected[explain.grade(STUCK_CODE).value]["played"] += 1
    assert by_grade == expected
    player = player_of(client)
    store = store_of(client)
    assert store.totals(player)[Kind(Variant(Rules.EASY))] == fold(
        store.results(player), Rules.EASY
    )
    assert [r.grade for r in store.results(player)] == [
        explain.grade(WIN_CODE).value,
        explain.grade(STUCK_CODE).value,
    ]
    assert client.delete("/api/stats", headers={"content-type": "application/json"}).is_success
    assert client.get("/api/stats").json()["easy"]["by_grade"] == {
        g: {"played": 0, "won": 0} for g in (*GRADED, "unwinnable")
    }


def test_wins_with_perfect_hints_are_counted_apart_from_fair_ones(client: TestClient) -> None:
    asked = {"fair": ["fair"], "perfect": ["perfect"], "both": ["fair", "perfect", "fair"]}
    for kinds in [*asked.values(), []]:
        state = new_game(client, WIN_CODE)
        for kind in kinds:
            hint(client, state, f"?kind={kind}")
        play_line(client, state, winning_line())
    stats = client.get("/api/stats").json()["easy"]
    assert (stats["won"], stats["won_with_hints"], stats["won_without_hints"]) == (4, 3, 1)
    assert (stats["won_with_perfect_hints"], stats["won_with_fair_hints"]) == (2, 1)
    player = player_of(client)
    store = store_of(client)
    assert [r.hint for r in store.results(player)] == ["fair", "perfect", "perfect", None]
    assert store.totals(player)[Kind(Variant(Rules.EASY))] == fold(
        store.results(player), Rules.EASY
    )


# The worker's limits -------------------------------------------------------------------------


def test_games_that_look_the_same_share_one_fair_search_and_a_player_has_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two players at the same visible position share one search; a player's second search of
    another kind while the first is under way is refused (hint_pending), as hints are."""
    code = GameCode(Variant(Rules.EASY), "BCDEFGH")
    game, line = midgame(code)
    solvers = Solvers()
    submitted: list[str] = []
    submit = solvers._submit

    def counted(search: Any, *args: Any) -> Any:
        submitted.append(search.__name__)
        return submit(search, *args)

    monkeypatch.setattr(solvers, "_submit", counted)

    async def asked() -> list[Any]:
        return await asyncio.gather(
            solvers.fair_hint(Game.replay(code, line), "ann"),
            solvers.fair_hint(Game.replay(code, line), "bob"),
            solvers.hint(Game.replay(code, line[:-1]), "ann"),
            return_exceptions=True,
        )

    try:  # a loop of its own, in a thread: the browser tests' Playwright may run one in this one
        with ThreadPoolExecutor(1) as thread:
            ann, bob, again = thread.submit(lambda: asyncio.run(asked())).result()
    finally:
        solvers.close()
    fair = explain.played_hint(game, explain.HINT_SAMPLES, seed=0)
    assert ann == bob == (str(fair.move), fair.chance, explain.HINT_SAMPLES, fair.share)
    assert submitted == ["fair_hint"]
    assert isinstance(again, HintRefused) and again.reason == "hint_pending"


def test_the_review_of_a_stuck_game_an_undo_can_save_counts_as_a_perfect_hint(
    client: TestClient,
) -> None:
    """Stuck is not over while an undo is left: the review says where the game was lost and shows
    a win from there, so a player who undoes back to that point and follows it won with the best
    hint there is. The review of a won game changes nothing of its statistics."""
    line = (DRAW,) * 23
    state = play_line(client, new_game(client, STUCK_CODE), line)[-1]
    assert state["status"] == "stuck" and state["can_undo"]
    got = review(client, state, "en")
    index = got["lost_at"]["index"]
    for _ in range(len(line) - index):  # back to the last position that could still be won
        reply = send(client, state, UNDO)
        assert reply.status_code == 200, reply.text
        state = reply.json()
    won = play_line(client, state, [Action.parse(a) for a in replayed_line(got)])[-1]
    assert won["status"] == "won"
    plain = play_line(client, new_game(client, WIN_CODE), winning_line())[-1]
    assert review(client, plain, "en")["draws"] is not None
    stats = client.get("/api/stats").json()["easy"]
    assert (stats["won"], stats["won_with_perfect_hints"], stats["won_without_hints"]) == (2, 1, 1)


def replayed_line(got: dict[str, Any]) -> list[str]:
    """The moves of a review's replay, as the engine names them, from each step's ``last``."""
    moves = []
    for step in got["replay"]["steps"][1:]:
        last = step["last"]
        moves.append("draw" if last["kind"] == "draw" else f"play {last['pos']}")
    return moves
