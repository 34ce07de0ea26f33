"""Persistence in SQLite: a game is its code plus its ordered actions, committed before any reply.

The database is the truth; live :class:`Game` objects are only a cache so that a request does not
replay a game from its first action. Every change happens inside one transaction under one lock,
so a crash leaves either the whole action or none of it.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from tripeaks.codes import GameCode
from tripeaks.game import Action, Game, Status

T = TypeVar("T")

CACHE_SIZE = 512
"""Live games kept in memory; older ones are replayed from the database when asked for."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    code TEXT NOT NULL,
    created_at REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    score INTEGER NOT NULL,
    status TEXT NOT NULL,
    settled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_unsettled ON games (player, settled);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    request_id TEXT,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS actions_request
    ON actions (game, request_id) WHERE request_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    player TEXT NOT NULL,
    game TEXT NOT NULL UNIQUE,
    code TEXT NOT NULL,
    outcome TEXT NOT NULL,
    score INTEGER NOT NULL,
    finished_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_player ON results (player, seq);
"""


class UnknownGame(LookupError):
    """No game with this id belongs to this player (another player's game looks the same)."""


class StaleVersion(Exception):
    """The action was sent against an older version of the game."""

    def __init__(self, record: Record) -> None:
        super().__init__(f"game is at version {record.version}")
        self.record = record


@dataclass(slots=True)
class Record:
    """A live game with what the store knows about it."""

    id: str
    player: str
    game: Game
    version: int


@dataclass(frozen=True, slots=True)
class Result:
    """One counted game in a player's statistics."""

    code: GameCode
    outcome: str
    score: int
    finished_at: float


def new_id() -> str:
    """An unguessable id: 192 random bits."""
    return secrets.token_urlsafe(24)


class Store:
    """Games and results of every player in one SQLite file (WAL, durable commits)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, Record] = OrderedDict()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # Games ---------------------------------------------------------------------------------

    def create(self, player: str, code: GameCode) -> Record:
        """A new game; the player's unfinished games are settled first (abandoned means lost)."""
        game = Game.new(code)
        record = Record(new_id(), player, game, 0)
        with self._lock:
            with self._transaction() as db:
                self._settle_unfinished(db, player)
                db.execute(
                    "INSERT INTO games (id, player, code, created_at, score, status)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (record.id, player, str(code), time.time(), game.score, game.status.value),
                )
            self._remember(record)
        return record

    def view(self, game_id: str, player: str | None, read: Callable[[Game], T]) -> T:
        """``read`` the player's game under the lock, so it never sees a half-made change."""
        with self._lock:
            return read(self._load(game_id, player).game)

    def apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        perform: Callable[[Game, Action], T],
        request_id: str | None = None,
    ) -> T:
        """``perform(game, action)`` through the engine and log the action, in one transaction.

        A known ``request_id`` performs its stored action again on a copy of the game as it was
        then, and changes nothing. An old ``version`` raises StaleVersion; a refusal by the
        engine propagates and nothing is stored. What ``perform`` returns is the reply.
        """
        with self._lock:
            record = self._load(game_id, player)
            if request_id is not None:
                seen = self._db.execute(
                    "SELECT seq FROM actions WHERE game = ? AND request_id = ?",
                    (game_id, request_id),
                ).fetchone()
                if seen is not None:
                    before, stored = self._as_of(record, seen[0])
                    return perform(before, stored)
            if version != record.version:
                raise StaleVersion(record)
            game = record.game
            reply = perform(game, action)
            if game.actions[record.version :] != (action,):
                self._cache.pop(game_id, None)
                raise RuntimeError(f"perform did not apply exactly {action}")
            try:
                with self._transaction() as db:
                    db.execute(
                        "INSERT INTO actions (game, seq, action, request_id) VALUES (?, ?, ?, ?)",
                        (game_id, record.version, str(action), request_id),
                    )
                    db.execute(
                        "UPDATE games SET version = ?, moves = ?, score = ?, status = ?"
                        " WHERE id = ?",
                        (record.version + 1, game.moves, game.score, game.status.value, game_id),
                    )
                    if game.status is Status.WON:
                        self._settle(db, record, str(game.code), game.score, "won")
            except BaseException:
                self._cache.pop(game_id, None)
                raise
            record.version += 1
            return reply

    def actions(self, game_id: str) -> list[Action]:
        """The stored log of a game, oldest first."""
        with self._lock:
            return self._actions(game_id)

    # Statistics ----------------------------------------------------------------------------

    def results(self, player: str) -> list[Result]:
        """The player's counted games, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT code, outcome, score, finished_at FROM results WHERE player = ?"
                " ORDER BY seq",
                (player,),
            ).fetchall()
        return [Result(GameCode.parse(c), o, s, f) for c, o, s, f in rows]

    def reset_results(self, player: str) -> None:
        with self._lock, self._transaction() as db:
            db.execute("DELETE FROM results WHERE player = ?", (player,))

    # Inside the lock -----------------------------------------------------------------------

    def _load(self, game_id: str, player: str | None) -> Record:
        record = self._cache.get(game_id)
        if record is None:
            row = self._db.execute(
                "SELECT player, code, version FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            owner, code, version = row
            game = Game.replay(code, self._actions(game_id))
            if len(game.actions) != version:
                raise RuntimeError(f"game {game_id} has {len(game.actions)} actions, not {version}")
            record = Record(game_id, owner, game, version)
            self._remember(record)
        else:
            self._cache.move_to_end(game_id)
        if player is None or record.player != player:
            raise UnknownGame(game_id)
        return record

    def _actions(self, game_id: str) -> list[Action]:
        rows = self._db.execute(
            "SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [Action.parse(text) for (text,) in rows]

    def _as_of(self, record: Record, seq: int) -> tuple[Game, Action]:
        """The game just before its action number ``seq``, and that action."""
        log = self._actions(record.id)
        code = record.game.code
        assert code is not None
        return Game.replay(code, log[:seq]), log[seq]

    def _remember(self, record: Record) -> None:
        self._cache[record.id] = record
        self._cache.move_to_end(record.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _settle_unfinished(self, db: sqlite3.Connection, player: str) -> None:
        """Every game the player leaves is settled; one with moves counts as lost."""
        rows = db.execute(
            "SELECT id, code, moves, score, status FROM games WHERE player = ? AND settled = 0",
            (player,),
        ).fetchall()
        for game_id, code, moves, score, status in rows:
            db.execute("UPDATE games SET settled = 1 WHERE id = ?", (game_id,))
            if moves and status != Status.WON.value:
                _count(db, player, game_id, code, score, "lost")

    @staticmethod
    def _settle(
        db: sqlite3.Connection, record: Record, code: str, score: int, outcome: str
    ) -> None:
        db.execute("UPDATE games SET settled = 1 WHERE id = ?", (record.id,))
        _count(db, record.player, record.id, code, score, outcome)


def _count(
    db: sqlite3.Connection, player: str, game_id: str, code: str, score: int, outcome: str
) -> None:
    """One result per game: a game settled once is never counted again."""
    db.execute(
        "INSERT OR IGNORE INTO results (player, game, code, outcome, score, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (player, game_id, code, outcome, score, time.time()),
    )
