"""The store: durable action logs, versions, request ids, left games, and nothing half-applied."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from winning import find_win

from tripeaks import daily, stats
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, UNDO, Action, Game, Reason, Status
from tripeaks.store import sqlite
from tripeaks.store import staging as store_module
from tripeaks.store.core import (
    ActionRefused,
    RequestIdReused,
    StaleVersion,
    Unavailable,
    UnknownGame,
)
from tripeaks.store.policy import Kind

CODE = GameCode.parse("TP1-E-AAABUWI")
P = "p" * 22
PLAYERS = ("a" * 22, "b" * 22, "c" * 22)

POLICY = daily.Policy(stats.judge, stats.count)
"""The app's policy of the competition's rules (web/app.py hands the solver worker's judge first)."""


class Store(sqlite.Store):
    """The SQLite store with the app's policy."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, POLICY)


def test_the_database_is_durable_and_in_wal_mode(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    assert store._writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._writer.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_actions_survive_a_new_store_on_the_same_file(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    for version, action in enumerate([DRAW, DRAW, UNDO]):
        store.apply(created.id, P, action, version)
    store.close()
    again = Store(tmp_path / "g.db")
    assert again.actions(created.id) == [DRAW, DRAW, UNDO]
    game = again.game(created.id, P)
    assert (game.actions, game.stock_size, game.moves) == ((DRAW, DRAW, UNDO), 22, 2)


def test_the_store_answers_with_the_engines_turn_and_a_snapshot(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    applied = store.apply(created.id, P, DRAW, 0)
    assert applied.turn.action == DRAW and applied.turn.card == applied.game.discard_top
    assert applied.turn.score_after == applied.game.score == 499
    store.apply(created.id, P, DRAW, 1)
    assert applied.game.stock_size == 22, "a snapshot does not change with the live game"
    assert store.game(created.id, P).stock_size == 21


def test_refusals_and_stale_versions_store_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    with pytest.raises(ActionRefused) as refused:
        store.apply(created.id, P, Action.play(0), 0)
    assert refused.value.refusal.reason is Reason.LOCKED and refused.value.reason == "locked"
    with pytest.raises(StaleVersion) as stale:
        store.apply(created.id, P, DRAW, 3)
    assert len(stale.value.game.actions) == 0
    assert store.actions(created.id) == []
    assert store.game(created.id, P).actions == ()


def test_only_the_owner_reaches_a_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create("a" * 22, CODE)
    for player in ("b" * 22, None):
        with pytest.raises(UnknownGame):
            store.game(created.id, player)
        with pytest.raises(UnknownGame):
            store.apply(created.id, player, DRAW, 0)
    assert store.actions(created.id) == []


def test_a_request_id_is_applied_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    first = store.apply(created.id, P, DRAW, 0, "r1")
    store.apply(created.id, P, DRAW, 1, "r2")
    again = store.apply(created.id, P, DRAW, 0, "r1")
    assert again.turn == first.turn
    assert len(again.game.actions) == 1, "the retry answers the game as that action left it"
    assert store.actions(created.id) == [DRAW, DRAW]


@pytest.mark.parametrize(
    ("action", "version"), [(UNDO, 0), (Action.play(21), 0), (DRAW, 1)], ids=str
)
def test_a_request_id_reused_for_another_action_is_refused(
    tmp_path: Path, action: Action, version: int
) -> None:
    """Regression: a reused id with another endpoint, position or version got the first reply."""
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    store.stage_apply(created.id, P, DRAW, 0, "r1")  # staged, not yet committed
    with pytest.raises(RequestIdReused):
        store.stage_apply(created.id, P, action, version, "r1")
    store.flush()
    with pytest.raises(RequestIdReused):  # and once it is in the database
        Store(tmp_path / "g.db").apply(created.id, P, action, version, "r1")
    assert store.actions(created.id) == [DRAW]


def test_a_staged_request_id_is_still_applied_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    first = store.stage_apply(created.id, P, DRAW, 0, "r")
    again = store.stage_apply(created.id, P, DRAW, 0, "r")
    assert again.turn == first.turn and again.done is first.done
    store.flush()
    assert first.done.result() is None
    assert store.stage_apply(created.id, P, DRAW, 0, "r").done.done()
    assert store.actions(created.id) == [DRAW]


def test_an_action_with_a_new_request_id_reads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request ids of a cached game are in memory: a new one is known to be new without a
    read (on PostgreSQL a read is a round trip, and an action holds the store's lock), and a retry
    of one committed before a restart is still answered as the first time."""
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    first = store.apply(created.id, P, DRAW, 0, "r1")
    store.close()
    again = Store(tmp_path / "g.db")
    assert again.apply(created.id, P, DRAW, 0, "r1").turn == first.turn  # loaded with its log
    reads: list[str] = []
    real = again._rows
    monkeypatch.setattr(again, "_rows", lambda sql, args: reads.append(sql) or real(sql, args))
    again.apply(created.id, P, DRAW, 1, "r2")
    again.apply(created.id, P, UNDO, 2, "r3")
    assert reads == []
    retried = again.apply(created.id, P, DRAW, 1, "r2")  # committed: answered again
    assert retried.turn.action == DRAW and len(retried.game.actions) == 2
    with pytest.raises(RequestIdReused):
        again.apply(created.id, P, UNDO, 3, "r2")
    assert again.actions(created.id) == [DRAW, DRAW, UNDO]


def test_only_a_cached_game_moves_without_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``stage_apply_cached`` (what a route tries on its event loop first): a game not in memory
    is left to ``stage_apply`` with nothing changed; a cached one moves without a read; a refusal
    by a store that no other process writes to is raised at once."""
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    store.apply(created.id, P, DRAW, 0)
    store.close()
    again = Store(tmp_path / "g.db")
    assert again.stage_apply_cached(created.id, P, DRAW, 1) is None
    assert created.id not in again._cache and again.actions(created.id) == [DRAW]
    again.game(created.id, P)
    reads: list[str] = []
    real = again._rows
    monkeypatch.setattr(again, "_rows", lambda sql, args: reads.append(sql) or real(sql, args))
    applied = again.stage_apply_cached(created.id, P, DRAW, 1, "r1")
    assert applied is not None and applied.turn.action == DRAW and reads == []
    again.flush()
    assert applied.done.result(timeout=0) is None
    with pytest.raises(StaleVersion):
        again.stage_apply_cached(created.id, P, DRAW, 1)
    with pytest.raises(UnknownGame):
        again.stage_apply_cached(created.id, PLAYERS[0], DRAW, 2)
    monkeypatch.undo()
    assert again.actions(created.id) == [DRAW, DRAW]


def test_reads_of_no_game_do_not_wait_for_the_stores_lock(tmp_path: Path) -> None:
    """Statistics, a day's board, a nickname: committed reads that need neither the cache nor the
    staged changes, answered while the store's lock is held (by an action, in a server)."""
    store = Store(tmp_path / "g.db")
    created = store.create(P, CODE)
    store.apply(created.id, P, DRAW, 0)
    answers: list[object] = []

    def read() -> None:
        day = date(2026, 12, 2)
        answers.extend(
            [
                store.totals(P),
                store.results(P),
                store.recent(P, 5),
                store.actions(created.id),
                store.nickname(P),
                store.board(day, 10),
                store.daily_games(P, day),
                store.daily_history(P, day, day),
                store.finished_days(P),
                store.daily_code(day),
            ]
        )

    with store._lock:
        reader = threading.Thread(target=read)
        reader.start()
        reader.join(timeout=10)
        assert not reader.is_alive(), "a read waited for the store's lock"
    assert answers[3] == [DRAW]
    store.close()


def test_games_evicted_from_the_cache_are_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "CACHE_SIZE", 2)
    store = Store(tmp_path / "g.db")
    players = [str(i) * 22 for i in range(5)]
    games = [store.create(p, CODE).id for p in players]
    store.apply(games[0], players[0], DRAW, 0)
    for game_id, player in zip(games[1:], players[1:], strict=True):
        store.game(game_id, player)
    assert games[0] not in store._cache
    assert store.game(games[0], players[0]).stock_size == 22
    store.apply(games[0], players[0], DRAW, 1)
    assert store.actions(games[0]) == [DRAW, DRAW]


# Left games (regression: a game settled without a move stayed playable, and only a win counted)


@cache
def winning_line(code: str) -> tuple[Action, ...]:
    line = find_win(Game.new(code), limit=50_000)
    assert line is not None
    return tuple(line)


def results(store: Store) -> list[tuple[str, str]]:
    return [(str(r.code), r.outcome) for r in store.results(P)]


def test_a_game_left_without_a_move_refuses_every_action_and_never_counts(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    first = store.create(P, CODE)
    store.create(P, CODE)
    for action in (DRAW, Action.play(21), UNDO):
        with pytest.raises(ActionRefused) as refused:
            store.apply(first.id, P, action, 0)
        assert refused.value.refusal.reason is Reason.GAME_OVER
        assert refused.value.game.status is Status.LEFT
    assert results(store) == []
    again = Store(tmp_path / "g.db")  # a restarted server knows it too
    assert again.game(first.id, P).status is Status.LEFT
    with pytest.raises(ActionRefused):
        again.apply(first.id, P, DRAW, 0)


def test_a_left_game_with_moves_counts_lost_once_and_can_never_be_won(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    first = store.create(P, CODE)
    line = winning_line(str(CODE))
    for version, action in enumerate(line[:-1]):
        store.apply(first.id, P, action, version)
    store.create(P, CODE)
    store.create(P, CODE)  # leaving again does not count the first game twice
    with pytest.raises(ActionRefused):
        store.apply(first.id, P, line[-1], len(line) - 1)
    assert results(store) == [(str(CODE), "lost")]
    assert store.actions(first.id) == list(line[:-1])


def test_a_won_game_counts_once_and_is_not_left(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    first = store.create(P, CODE)
    for version, action in enumerate(winning_line(str(CODE))):
        store.apply(first.id, P, action, version)
    store.create(P, CODE)
    assert store.game(first.id, P).status is Status.WON
    assert Store(tmp_path / "g.db").game(first.id, P).status is Status.WON
    assert results(store) == [(str(CODE), "won")]


def test_leaving_a_game_only_cached_in_the_database_works_too(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    first = store.create(P, CODE)
    store.apply(first.id, P, DRAW, 0)
    store.close()
    again = Store(tmp_path / "g.db")  # first is not in this store's memory
    again.create(P, CODE)
    with pytest.raises(ActionRefused):
        again.apply(first.id, P, DRAW, 1)
    assert results(again) == [(str(CODE), "lost")]


class Watched:
    """The app's policy, noting each verdict asked for and whether the store held a lock then."""

    def __init__(self, path: Path) -> None:
        self.asked: list[tuple[str, bool]] = []
        self.store = sqlite.Store(path, daily.Policy(self.judge, stats.count))

    def judge(self, code: GameCode) -> stats.Verdict | None:
        held = self.store._lock.locked() or self.store._flushing.locked()
        self.asked.append((str(code), held))
        return stats.judge(code)


def verdicts(path: Path) -> list[tuple[int, int | None]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT winnable, best FROM verdicts").fetchall()


def test_a_counted_games_verdict_is_asked_for_outside_the_stores_locks(tmp_path: Path) -> None:
    """A lost game (left touched) and a won one each keep the solver's verdict, asked for after
    the store let go of its lock and before the commit took it (no search under the lock)."""
    watched = Watched(tmp_path / "g.db")
    store = watched.store
    first = store.create(P, CODE)
    store.apply(first.id, P, DRAW, 0)
    second = store.create(P, CODE)  # leaves the first: counted lost
    for version, action in enumerate(winning_line(str(CODE))):
        store.apply(second.id, P, action, version)
    store.create(P, CODE)  # the second was won: nothing left to count
    assert watched.asked == [(str(CODE), False), (str(CODE), False)]
    assert results(store) == [(str(CODE), "lost"), (str(CODE), "won")]
    verdict = stats.judge(CODE)
    assert verdict is not None
    assert verdicts(tmp_path / "g.db") == [(int(verdict.winnable), verdict.best)] * 2
    assert store.totals(P)[Kind.of(CODE)].judged == 2


def test_a_game_that_counts_only_in_the_commit_is_judged_outside_it(tmp_path: Path) -> None:
    """The game left was untouched in this store's memory but moved since (another process):
    the commit finds it counts, rolls back, the verdict is asked for outside every lock and the
    batch is written again, counted once with its verdict."""
    watched = Watched(tmp_path / "g.db")
    store = watched.store
    first = store.create(P, CODE)
    other = Store(tmp_path / "g.db")
    other.apply(first.id, P, DRAW, 0)  # this store's cached game is still at version 0
    store.create(P, CODE)
    assert watched.asked == [(str(CODE), False)]
    assert results(store) == [(str(CODE), "lost")]
    assert len(verdicts(tmp_path / "g.db")) == 1
    assert store.totals(P)[Kind.of(CODE)].played == 1
    assert not store._staged


def test_a_verdict_that_fails_fails_its_change_and_nothing_else(tmp_path: Path) -> None:
    def judge(code: GameCode) -> stats.Verdict | None:
        raise RuntimeError("no verdict")

    store = sqlite.Store(tmp_path / "g.db", daily.Policy(judge, stats.count))
    first = store.create(P, CODE)
    store.apply(first.id, P, DRAW, 0)
    with pytest.raises(RuntimeError, match="no verdict"):
        store.create(P, CODE)
    assert not store._staged and results(store) == []
    assert store.game(first.id, P).actions == (DRAW,)  # replayed: as the database has it
    other = store.create(PLAYERS[0], CODE)  # the store goes on
    assert store.apply(other.id, PLAYERS[0], DRAW, 0).game.actions == (DRAW,)


def test_a_verdict_that_fails_inside_a_commits_retry_fails_that_change_alone(
    tmp_path: Path,
) -> None:
    def judge(code: GameCode) -> stats.Verdict | None:
        raise RuntimeError("no verdict")

    store = sqlite.Store(tmp_path / "g.db", daily.Policy(judge, stats.count))
    first = store.create(P, CODE)
    kept = store.create(PLAYERS[0], CODE)
    Store(tmp_path / "g.db").apply(first.id, P, DRAW, 0)  # moved elsewhere: counts when left
    drawn = store.stage_apply(kept.id, PLAYERS[0], DRAW, 0)
    made = store.stage_create(P, CODE)
    # the batch went back, and the verdict failed: that change alone is settled, failed
    assert [change.done for change in store.flush()] == [made.done]
    with pytest.raises(RuntimeError, match="no verdict"):
        made.done.result(timeout=0)
    assert not drawn.done.done()  # another player's move, in the same batch, waits for the next
    store.flush()
    drawn.done.result(timeout=0)
    assert results(store) == [] and store.actions(kept.id) == [DRAW]


# Failed commits (regression: changes staged after a failed batch were thrown away, and the next,
# unrelated commit answered them as saved)


class Faulty:
    """The writer connection, with a COMMIT that can fail, and a hook run just before it."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.fail = 0
        self.before_commit: Callable[[], None] | None = None

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            hook, self.before_commit = self.before_commit, None
            if hook is not None:
                hook()
            if self.fail:
                self.fail -= 1
                raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def close(self) -> None:
        self.db.close()


def faulty(store: Store) -> Faulty:
    writer = Faulty(store._writer)
    store._writer = writer  # type: ignore[assignment]
    return writer


def test_a_failed_commit_fails_exactly_its_changes_and_what_stood_on_them(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    one, two = store.create(P, CODE).id, store.create("q" * 22, CODE).id
    writer = faulty(store)
    first = store.stage_apply(one, P, DRAW, 0, "a")
    later: dict[str, Any] = {}

    def meanwhile() -> None:  # staged while the failing batch is being committed
        later["other"] = store.stage_apply(two, "q" * 22, DRAW, 0, "b")
        later["on_top"] = store.stage_apply(one, P, DRAW, 1, "c")

    writer.fail, writer.before_commit = 1, meanwhile
    failed = store.flush()
    assert {c.done for c in failed} == {first.done, later["on_top"].done}
    for applied in (first, later["on_top"]):
        with pytest.raises(Unavailable):
            applied.done.result(timeout=0)
    assert not later["other"].done.done(), "an unrelated change waits for the next commit"
    assert store.game(one, P).actions == (), "the live game is the database's again"
    assert store.flush()[0].done is later["other"].done
    assert later["other"].done.result(timeout=0) is None
    assert store.actions(two) == [DRAW] and store.actions(one) == []
    retried = store.apply(one, P, DRAW, 0, "a")  # the page sends the same request again
    assert retried.done.result(timeout=0) is None and store.actions(one) == [DRAW]


def test_a_failed_create_puts_the_left_game_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    first = store.create(P, CODE)
    store.apply(first.id, P, DRAW, 0)
    faulty(store).fail = 1
    with pytest.raises(Unavailable):
        store.create(P, CODE)
    assert store.game(first.id, P).status is Status.PLAYING
    store.apply(first.id, P, DRAW, 1)
    assert results(store) == []


@st.composite
def schedules(draw: st.DrawFn) -> list[tuple[str, int]]:
    steps = st.one_of(
        st.tuples(st.just("stage"), st.integers(0, 2)),
        st.tuples(st.just("flush"), st.just(0)),
        st.tuples(st.just("fail"), st.just(0)),
        st.tuples(st.just("fail_while_staging"), st.integers(0, 2)),
        st.tuples(st.just("flush_while_staging"), st.integers(0, 2)),
    )
    return draw(st.lists(steps, max_size=25))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(schedule=schedules())
def test_any_interleaving_of_stage_flush_and_failure_loses_nothing_acknowledged(
    tmp_path_factory: pytest.TempPathFactory, schedule: list[tuple[str, int]]
) -> None:
    """Every change is acknowledged only once it is in the database, a failed one never is, and
    in the end the live games are exactly the database's."""
    store = Store(tmp_path_factory.mktemp("s") / "g.db")
    games = [store.create(player, CODE).id for player in PLAYERS]
    writer = faulty(store)
    sent: list[tuple[str, Any]] = []

    def stage(i: int) -> None:
        game = store.game(games[i], PLAYERS[i])
        action = DRAW if game.stock_size else UNDO
        request = f"r{len(sent)}"
        version = len(game.actions)
        sent.append((request, store.stage_apply(games[i], PLAYERS[i], action, version, request)))

    for step, i in schedule:
        if step == "stage":
            stage(i)
        elif step in ("fail", "fail_while_staging", "flush_while_staging"):
            writer.fail = int(step != "flush_while_staging")
            writer.before_commit = None if step == "fail" else (lambda i=i: stage(i))
            store.flush()
        else:
            store.flush()
        check_acknowledged(store, sent)
    while store._staged:
        store.flush()
    check_acknowledged(store, sent)
    assert all(applied.done.done() for _r, applied in sent)
    for game_id, player in zip(games, PLAYERS, strict=True):
        assert list(store.game(game_id, player).actions) == store.actions(game_id)
    store.close()


def check_acknowledged(store: Store, sent: list[tuple[str, Any]]) -> None:
    committed = {
        row[0]
        for row in store._reader.execute("SELECT request_id FROM actions").fetchall()
        if row[0] is not None
    }
    for request, applied in sent:
        if applied.done.done():
            ok = applied.done.exception() is None
            assert (request in committed) is ok, (request, ok)


def test_game_ids_carry_at_least_128_bits(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ids = {store.create(P, CODE).id for _ in range(50)}
    assert len(ids) == 50
    assert all(len(i) * 6 >= 128 for i in ids)
