"""Redo (issue 37): the engine's intent, its history, its place in the log and the store, and the
score's parts (Game.score_parts), which always add up to the score."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import date
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from winning import find_win

from tripeaks import daily, stats
from tripeaks.engine.codes import CODE_SPACE, GameCode
from tripeaks.engine.game import (
    DRAW,
    REDO,
    UNDO,
    Action,
    ActionKind,
    Game,
    IllegalMove,
    Reason,
    Status,
)
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.i18n import refusal
from tripeaks.store import sqlite
from tripeaks.store.core import ActionRefused, PolicyRefused, RequestIdReused
from tripeaks.store.policy import Tag

WIN_CODE = "TP1-E-AAABUWI"
STUCK_CODE = "TP1-E-AABPSMK"
"""Drawing all 23 stock cards leaves this deal stuck."""
P = "p" * 22


@cache
def winning_line(code: str = WIN_CODE) -> tuple[Action, ...]:
    line = find_win(Game.new(code), limit=50_000)
    assert line is not None
    return tuple(line)


def state(game: Game) -> tuple[object, ...]:
    """Everything a player or a replay can tell of a game."""
    return (
        game.present,
        game.drawn,
        tuple(game.discard),
        game.score,
        game.moves,
        game.streak,
        game.longest_streak,
        game.status,
        game.can_undo,
        game.can_redo,
        game.actions,
        game.score_parts(),
        tuple(game.legal_moves()),
    )


def played(line: tuple[Action, ...] | list[Action], code: str = WIN_CODE) -> Game:
    game = Game.new(code)
    for action in line:
        game.apply(action)
    return game


# The engine ------------------------------------------------------------------------------------


def test_redo_after_one_undo_is_the_action_again_and_a_move() -> None:
    line = winning_line()[:5]
    game = played(line)
    straight = state(game)
    game.undo()
    assert game.can_redo
    turn = game.apply(REDO)
    assert turn.redone and turn.action == line[-1] and turn.undone is None
    assert game.actions == (*line, UNDO, line[-1]), "the log records the play or draw, no redo"
    assert game.moves == len(line) + 1
    assert (game.present, game.drawn, game.score) == straight[:2] + straight[3:4]
    assert (game.streak, game.longest_streak) == straight[5:7]
    assert not game.can_redo
    with pytest.raises(IllegalMove) as nothing:
        game.redo()
    assert nothing.value.reason is Reason.NOTHING_TO_REDO
    assert refusal(nothing.value, "en") == "There is nothing to redo"
    assert refusal(nothing.value, "fi") and refusal(nothing.value, "ca")


def test_redo_turn_is_the_turn_of_the_action_it_applies() -> None:
    line = winning_line()
    for n in range(1, 12):
        game = played(line[:n])
        first = played(line[: n - 1]).apply(line[n - 1])
        game.undo()
        again = game.apply("redo")
        assert again.redone and not first.redone
        assert replace(again, redone=False) == first


def test_redo_after_three_undos_goes_newest_undone_first() -> None:
    line = winning_line()[:8]
    game = played(line)
    after = [state(played(line[:n])) for n in range(len(line) + 1)]
    for _ in range(3):
        game.undo()
    redone = [game.redo() for _ in range(3)]
    assert redone == list(line[5:8]), "the newest undone is the last undone: the line's order"
    assert game.moves == 8 + 3
    assert (game.present, game.drawn, game.score, game.streak) == (
        after[8][0],
        after[8][1],
        after[8][3],
        after[8][5],
    )
    assert not game.can_redo


def test_a_new_action_clears_what_there_was_to_redo_and_the_same_one_keeps_it() -> None:
    line = winning_line()[:6]
    game = played(line)
    game.undo()
    game.undo()
    game.apply(line[4])  # the newest undone, played by hand: its redo
    assert game.can_redo and game.redo() == line[5]
    game.undo()
    game.undo()
    other = next(a for a in game.legal_moves() if a != line[4])
    game.apply(other)
    assert not game.can_redo
    with pytest.raises(IllegalMove) as refused:
        game.apply(REDO)
    assert refused.value.reason is Reason.NOTHING_TO_REDO


def test_an_undo_after_a_redo_takes_it_back_and_the_redo_comes_again() -> None:
    line = winning_line()[:4]
    game = played(line)
    game.undo()
    game.redo()
    game.undo()
    assert game.can_redo and game.redo() == line[-1]
    assert game.moves == 6


def test_refused_redo_changes_nothing() -> None:
    game = played(winning_line()[:3])
    before = state(game)
    with pytest.raises(IllegalMove):
        game.redo()
    assert state(game) == before


def test_score_streak_and_longest_come_back_as_the_action_gives_them() -> None:
    """Under the traditional scoring the streak is worth points: a redone play scores its place
    in the run again, and a redone draw ends the run again."""
    code = GameCode.parse(WIN_CODE.replace("AAABUWI", "AAABUWI-T"))
    line = find_win(Game.new(code), limit=50_000)
    assert line is not None
    game = Game.new(code)
    for n, action in enumerate(line[:-1], 1):  # a won game takes no undo
        turn = game.apply(action)
        straight = (turn.score_after, turn.streak, game.longest_streak, game.runs)
        game.undo()
        again = game.apply(REDO)
        assert (again.score_after, again.streak, game.longest_streak, game.runs) == straight, n
        assert again.peak == turn.peak and again.peak_points == turn.peak_points
    game.apply(line[-1])
    assert game.is_won and game.moves == 2 * len(line) - 1


def test_a_won_game_has_nothing_to_redo_and_refuses_it_as_over() -> None:
    line = winning_line()
    game = played(line[:-1])
    game.undo()
    game.undo()
    assert game.redo() == line[-3] and game.redo() == line[-2]
    assert game.apply(line[-1]).status is Status.WON
    assert not game.can_redo and not game.can_undo
    with pytest.raises(IllegalMove) as over:
        game.redo()
    assert over.value.reason is Reason.GAME_OVER


def test_a_redo_into_a_dead_end_is_stuck_and_a_left_game_refuses_it() -> None:
    game = played([DRAW] * 23, STUCK_CODE)
    game.undo()
    assert not game.is_stuck and game.can_redo
    assert game.apply(REDO).status is Status.STUCK
    assert game.is_stuck and not game.can_redo
    game.undo()
    game.leave()
    assert not game.can_redo
    with pytest.raises(IllegalMove) as left:
        game.redo()
    assert left.value.reason is Reason.GAME_OVER


def test_redo_counts_against_the_action_limit() -> None:
    game = played([DRAW])
    game.undo()
    game.action_limit = len(game.actions)
    with pytest.raises(IllegalMove) as full:
        game.redo()
    assert full.value.reason is Reason.TOO_LONG
    assert game.can_redo  # nothing changed


def test_redo_parses_and_is_never_in_a_log() -> None:
    assert Action.parse("redo") == REDO and str(REDO) == "redo" and REDO.kind is ActionKind.REDO
    game = played(winning_line()[:3])
    game.undo()
    game.undo()
    game.apply("redo")
    assert all(a.kind is not ActionKind.REDO for a in game.actions)


def test_a_replay_and_a_copy_rebuild_the_redo_history() -> None:
    line = winning_line()[:10]
    game = played(line)
    for _ in range(4):
        game.undo()
    game.redo()
    replayed = Game.replay(WIN_CODE, game.actions)
    twin = game.copy()
    assert state(replayed) == state(game) == state(twin)
    assert [replayed.redo() for _ in range(3)] == list(line[7:10])
    assert twin.can_redo, "a copy is independent"
    assert [twin.redo() for _ in range(3)] == list(line[7:10])


# Random lines --------------------------------------------------------------------------------

variants = st.builds(
    Variant,
    st.sampled_from(list(Rules)),
    st.sampled_from(list(Scoring)),
    open_peaks=st.booleans(),
    empty_discard=st.booleans(),
    joker=st.booleans(),
)
codes = st.builds(lambda n, v: GameCode.from_number(n, v), st.integers(0, CODE_SPACE - 1), variants)


def random_line(game: Game, picks: list[int]) -> list[Action]:
    """Play, draw, undo or redo as the picks say; the intents sent, in order."""
    sent: list[Action] = []
    for pick in picks:
        if game.is_over:
            break
        moves = list(game.legal_moves())
        if game.can_redo and pick % 4 == 0:
            action = REDO
        elif game.can_undo and (pick % 4 == 1 or not moves):
            action = UNDO
        elif moves:
            action = moves[pick % len(moves)]
        else:
            break
        game.apply(action)
        sent.append(action)
    return sent


@settings(max_examples=150, deadline=None)
@given(codes, st.lists(st.integers(0, 1000), max_size=150))
def test_any_line_with_redo_replays_to_the_same_game(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    sent = random_line(game, picks)
    assert all(a.kind is not ActionKind.REDO for a in game.actions)
    assert len(game.actions) == len(sent)
    assert game.moves == sum(a.kind is not ActionKind.UNDO for a in sent)
    assert state(Game.replay(code, game.actions)) == state(game)


@settings(max_examples=200, deadline=None)
@given(codes, st.lists(st.integers(0, 1000), max_size=150))
def test_the_score_parts_always_add_up_to_the_score(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    traditional = code.variant.scoring is Scoring.TRADITIONAL
    for pick in picks:
        parts = game.score_parts()
        assert sum(p.points for p in parts) == game.score
        named = {p.part: p for p in parts}
        assert list(named)[:4] == (
            ["start", "runs", "draws", "peaks"]
            if traditional
            else ["start", "plays", "draws", "peaks"]
        )
        assert set(named) <= {"start", "plays", "runs", "draws", "peaks", "floor"}
        assert named["draws"].count == game.drawn
        assert named["peaks"].count == sum(
            all(game.card_at(p) is None for p in peak) for peak in _peaks()
        )
        played_cards = sum(game.card_at(p) is None for p in range(28))
        assert named["runs" if traditional else "plays"].count == played_cards
        if "floor" in named:
            assert named["floor"].count == 0 and named["floor"].points != 0
        moves = list(game.legal_moves())
        with contextlib.suppress(IllegalMove):
            if game.can_redo and pick % 4 == 0:
                game.redo()
            elif game.can_undo and (pick % 4 == 1 or not moves):
                game.undo()
            elif moves:
                game.apply(moves[pick % len(moves)])
            else:
                break
    assert sum(p.points for p in game.score_parts()) == game.score


def _peaks() -> tuple[tuple[int, ...], ...]:
    from tripeaks.engine.layout import PEAKS

    return tuple(tuple(peak) for peak in PEAKS)


def test_the_score_parts_of_a_won_game() -> None:
    line = winning_line()
    game = played(line)
    draws = sum(a == DRAW for a in line)
    assert [(p.part, p.count, p.points) for p in game.score_parts()] == [
        ("start", 1, 500),
        ("plays", 28, -28),
        ("draws", draws, -draws),
        ("peaks", 3, 300),
    ]
    assert game.score == 772 - draws


def test_the_traditional_score_parts_count_each_cards_place_in_its_run() -> None:
    code = GameCode.parse(f"{WIN_CODE}-T")
    game = Game.new(code)
    line = winning_line()
    runs = run = 0
    for action in line[:12]:
        game.apply(action)
        run = 0 if action == DRAW else run + 1
        runs += run
    parts = {p.part: (p.count, p.points) for p in game.score_parts()}
    assert parts["start"] == (1, 0)
    assert parts["runs"] == (sum(a != DRAW for a in line[:12]), runs)
    assert parts["draws"][1] == -5 * parts["draws"][0]
    assert sum(points for _, points in parts.values()) == game.score
    game.undo()
    game.undo()
    assert sum(p.points for p in game.score_parts()) == game.score


# The store -----------------------------------------------------------------------------------

POLICY = daily.Policy(stats.judge, stats.count)


class Store(sqlite.Store):
    def __init__(self, path: str | Path) -> None:
        super().__init__(path, POLICY)


def test_the_store_logs_a_redo_as_the_action_it_applied(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create(P, GameCode.parse(WIN_CODE))
    line = winning_line()[:3]
    version = 0
    for action in (*line, UNDO, UNDO):
        store.apply(created.id, P, action, version)
        version += 1
    applied = store.apply(created.id, P, REDO, version)
    assert applied.turn.redone and applied.turn.action == line[1]
    assert applied.game.can_redo and applied.game.moves == 4
    assert store.actions(created.id) == [*line, UNDO, UNDO, line[1]]
    with pytest.raises(ActionRefused) as refused:
        store.apply(created.id, P, Action.play(99), version + 1)
    assert refused.value.refusal.reason is Reason.NO_SUCH_POSITION
    store.close()
    again = Store(tmp_path / "g.db")  # a restart replays the log
    game = again.game(created.id, P)
    assert state(game) == state(applied.game)
    assert again.apply(created.id, P, REDO, version + 1).turn.action == line[2]
    expected = Game.replay(WIN_CODE, [*line, UNDO, UNDO, line[1], line[2]])
    assert state(again.game(created.id, P)) == state(expected)
    with pytest.raises(ActionRefused) as nothing:
        again.apply(created.id, P, REDO, version + 2)
    assert nothing.value.refusal.reason is Reason.NOTHING_TO_REDO
    again.close()


def test_a_redo_sent_again_with_its_request_id_is_answered_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create(P, GameCode.parse(WIN_CODE))
    line = winning_line()[:2]
    for version, action in enumerate((*line, UNDO)):
        store.apply(created.id, P, action, version)
    staged = store.stage_apply(created.id, P, REDO, 3, "r")
    again = store.stage_apply(created.id, P, REDO, 3, "r")  # staged, not yet committed
    assert again.turn == staged.turn and again.turn.redone and again.again
    store.flush()
    assert store.apply(created.id, P, REDO, 3, "r").turn == staged.turn
    restarted = Store(tmp_path / "g.db")  # from the database's request ids
    assert restarted.apply(created.id, P, REDO, 3, "r").turn == staged.turn
    with pytest.raises(RequestIdReused):
        restarted.apply(created.id, P, UNDO, 3, "r")
    assert restarted.actions(created.id) == [*line, UNDO, line[1]]
    store.close()
    restarted.close()


def test_a_request_id_of_another_action_is_not_a_redo(tmp_path: Path) -> None:
    """A redo sent with the id of an action that was no redo of that game is refused."""
    store = Store(tmp_path / "g.db")
    created = store.create(P, GameCode.parse(WIN_CODE))
    store.apply(created.id, P, DRAW, 0, "r")
    with pytest.raises(RequestIdReused):
        store.apply(created.id, P, REDO, 0, "r")
    assert store.actions(created.id) == [DRAW]
    store.close()


def test_a_ranked_daily_refuses_redo_and_a_practice_one_allows_it(tmp_path: Path) -> None:
    today = daily.today()
    assert daily.refusal(Tag(today, True), ActionKind.REDO) == daily.RANKED_REFUSED
    assert daily.refusal(Tag(today, False), ActionKind.REDO) is None
    assert daily.refusal(Tag(date(2000, 1, 1), True), ActionKind.REDO) is None  # day over
    assert not daily.may_redo(Tag(today, True)) and daily.may_redo(Tag(today, False))
    assert daily.may_redo(None)
    store = Store(tmp_path / "g.db")
    ranked = store.create(P, GameCode.parse(WIN_CODE))
    store._cache[ranked.id].daily = Tag(today, True)
    store.apply(ranked.id, P, DRAW, 0)
    with pytest.raises(PolicyRefused) as refused:
        store.apply(ranked.id, P, REDO, 1)
    assert refused.value.reason == daily.RANKED_REFUSED
    assert store.actions(ranked.id) == [DRAW]
    practice = store.create("q" * 22, GameCode.parse(WIN_CODE))
    store._cache[practice.id].daily = Tag(today, False)
    for version, action in enumerate((DRAW, UNDO)):
        store.apply(practice.id, "q" * 22, action, version)
    assert store.apply(practice.id, "q" * 22, REDO, 2).turn.redone
    store.close()


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.integers(0, 1000), max_size=60))
def test_a_stored_line_with_redo_replays_to_the_same_game(
    tmp_path_factory: pytest.TempPathFactory, picks: list[int]
) -> None:
    store = Store(tmp_path_factory.mktemp("redo") / "g.db")
    created = store.create(P, GameCode.parse(WIN_CODE))
    game = Game.new(WIN_CODE)
    sent = random_line(game, picks)
    for version, action in enumerate(sent):
        store.apply(created.id, P, action, version)
    store.close()
    again = Store(store.path)
    assert again.actions(created.id) == list(game.actions)
    assert state(again.game(created.id, P)) == state(game)
    again.close()
