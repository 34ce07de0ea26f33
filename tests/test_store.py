"""The store: durable action logs, versions, request ids, and nothing half-applied."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tripeaks import store as store_module
from tripeaks.codes import GameCode
from tripeaks.game import DRAW, UNDO, Action, Game, IllegalMove
from tripeaks.store import StaleVersion, Store, UnknownGame

CODE = GameCode.parse("TP1-E-AAABUWI")


def apply(game: Game, action: Action) -> str:
    game.apply(action)
    return str(action)


def test_the_database_is_durable_and_in_wal_mode(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    assert store._writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._writer.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_actions_survive_a_new_store_on_the_same_file(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    record = store.create("p" * 22, CODE)
    for version, action in enumerate([DRAW, DRAW, UNDO]):
        store.apply(record.id, "p" * 22, action, version, apply)
    store.close()
    again = Store(tmp_path / "g.db")
    assert again.actions(record.id) == [DRAW, DRAW, UNDO]
    replayed = again.view(record.id, "p" * 22, lambda g: (g.actions, g.stock_size, g.moves))
    assert replayed == ((DRAW, DRAW, UNDO), 22, 2)


def test_refusals_and_stale_versions_store_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    record = store.create("p" * 22, CODE)
    with pytest.raises(IllegalMove):
        store.apply(record.id, "p" * 22, Action.play(0), 0, apply)
    with pytest.raises(StaleVersion):
        store.apply(record.id, "p" * 22, DRAW, 3, apply)
    assert store.actions(record.id) == []
    assert record.version == 0


def test_only_the_owner_reaches_a_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    record = store.create("a" * 22, CODE)
    for player in ("b" * 22, None):
        with pytest.raises(UnknownGame):
            store.view(record.id, player, lambda g: g)
        with pytest.raises(UnknownGame):
            store.apply(record.id, player, DRAW, 0, apply)
    assert store.actions(record.id) == []


def test_a_request_id_is_applied_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    record = store.create("p" * 22, CODE)

    def count(game: Game, action: Action) -> tuple[int, str]:
        return len(game.actions), apply(game, action)

    first = store.apply(record.id, "p" * 22, DRAW, 0, count, "r1")
    store.apply(record.id, "p" * 22, DRAW, 1, apply, "r2")
    again = store.apply(record.id, "p" * 22, UNDO, 0, count, "r1")
    assert first == again == (0, "draw")
    assert store.actions(record.id) == [DRAW, DRAW]


def test_perform_must_apply_the_action_it_is_given(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    record = store.create("p" * 22, CODE)
    with pytest.raises(RuntimeError):
        store.apply(record.id, "p" * 22, DRAW, 0, lambda g, a: None)
    assert store.actions(record.id) == []


def test_games_evicted_from_the_cache_are_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "CACHE_SIZE", 2)
    store = Store(tmp_path / "g.db")
    records = [store.create("p" * 22, CODE) for _ in range(5)]
    store.apply(records[0].id, "p" * 22, DRAW, 0, apply)
    for r in records[1:]:
        store.view(r.id, "p" * 22, lambda g: g)
    assert store.view(records[0].id, "p" * 22, lambda g: g.stock_size) == 22
    store.apply(records[0].id, "p" * 22, DRAW, 1, apply)
    assert store.actions(records[0].id) == [DRAW, DRAW]


class FailingInsert:
    """A connection whose action insert fails, as a full disk would."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.startswith("INSERT INTO actions"):
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *args)

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction


def test_a_failed_commit_leaves_the_game_as_it_was(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    record = store.create("p" * 22, CODE)
    store.apply(record.id, "p" * 22, DRAW, 0, apply)
    real = store._writer
    store._writer = FailingInsert(real)  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError):
        store.apply(record.id, "p" * 22, DRAW, 1, apply)
    store._writer = real
    assert store.view(record.id, "p" * 22, lambda g: (g.stock_size, len(g.actions))) == (22, 1)
    store.apply(record.id, "p" * 22, DRAW, 1, apply)
    assert store.actions(record.id) == [DRAW, DRAW]


def test_changes_staged_together_are_committed_together(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    players = ["a" * 22, "b" * 22]
    records = [store.create(p, CODE) for p in players]
    tickets = {
        store.stage_apply(r.id, p, DRAW, 0, apply)[1] for r, p in zip(records, players, strict=True)
    }
    assert len(tickets) == 1
    assert store.actions(records[0].id) == []  # staged, not yet committed: not in the database
    assert store.view(records[0].id, players[0], lambda g: g.stock_size) == 22
    assert store.flush() == tickets.pop()
    assert [store.actions(r.id) for r in records] == [[DRAW], [DRAW]]


def test_a_staged_request_id_is_still_applied_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    record = store.create("p" * 22, CODE)
    first, ticket = store.stage_apply(record.id, "p" * 22, DRAW, 0, apply, "r")
    again, same = store.stage_apply(record.id, "p" * 22, DRAW, 0, apply, "r")
    assert (again, same) == (first, ticket)
    store.flush()
    assert store.stage_apply(record.id, "p" * 22, DRAW, 0, apply, "r") == ("draw", 0)
    assert store.actions(record.id) == [DRAW]


def test_game_ids_carry_at_least_128_bits(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ids = {store.create("p" * 22, CODE).id for _ in range(50)}
    assert len(ids) == 50
    assert all(len(i) * 6 >= 128 for i in ids)
