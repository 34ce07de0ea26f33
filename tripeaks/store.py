"""Persistence in SQLite: a game is its code plus its ordered actions, committed before any reply.

The database is the truth; live :class:`Game` objects are only a cache so that a request does not
replay a game from its first action. A change is first *staged* (applied in memory, its SQL queued)
and then *flushed*: every change staged meanwhile goes into one transaction with one durable commit
(group commit), and nobody is answered before the commit that holds their change. A crash leaves
each change either wholly in the database or not at all.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
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
    unsaved: int = 0
    """Staged changes not yet committed; such a game is never dropped from the cache."""


@dataclass(frozen=True, slots=True)
class Result:
    """One counted game in a player's statistics."""

    code: GameCode
    outcome: str
    score: int
    finished_at: float


Write = Callable[[sqlite3.Connection], object]
"""A staged change: the SQL to run inside the next commit's transaction."""


def new_id() -> str:
    """An unguessable id: 192 random bits."""
    return secrets.token_urlsafe(24)


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=5000")
    return db


class Store:
    """Games and results of every player in one SQLite file (WAL, durable commits).

    ``stage_*`` methods change the game in memory and return a ticket; ``flush`` commits every
    staged change and returns the last ticket it made durable. ``create``, ``apply`` and
    ``reset_results`` do both at once.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = _connect(self.path)
        self._writer.executescript(_SCHEMA)
        self._reader = _connect(self.path)
        self._lock = threading.Lock()
        """Guards memory (cache, staged changes) and the reader connection."""
        self._flushing = threading.Lock()
        """One commit at a time, on the writer connection."""
        self._cache: OrderedDict[str, Record] = OrderedDict()
        self._staged: list[tuple[Write, Record | None]] = []
        self._staged_requests: dict[tuple[str, str], tuple[int, int]] = {}
        self._ticket = 1
        """The ticket of the commit now being filled."""

    def close(self) -> None:
        with self._flushing, self._lock:
            self._writer.close()
            self._reader.close()

    # Changes -------------------------------------------------------------------------------

    def stage_create(self, player: str, code: GameCode) -> tuple[Record, int]:
        """A new game; the player's unfinished games are settled first (abandoned means lost)."""
        game = Game.new(code)
        record = Record(new_id(), player, game, 0)
        created = time.time()

        def write(db: sqlite3.Connection) -> None:
            _settle_unfinished(db, player)
            db.execute(
                "INSERT INTO games (id, player, code, created_at, score, status)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (record.id, player, str(code), created, game.score, game.status.value),
            )

        with self._lock:
            self._remember(record)
            return record, self._stage(write, record)

    def stage_apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        perform: Callable[[Game, Action], T],
        request_id: str | None = None,
    ) -> tuple[T, int]:
        """``perform(game, action)`` through the engine and stage the action for the log.

        A known ``request_id`` performs its logged action again on a copy of the game as it was
        then, and changes nothing. An old ``version`` raises StaleVersion; a refusal by the
        engine propagates and nothing is staged. What ``perform`` returns is the reply.
        """
        with self._lock:
            record = self._load(game_id, player)
            if request_id is not None:
                seen = self._staged_requests.get((game_id, request_id))
                if seen is None:
                    row = self._reader.execute(
                        "SELECT seq FROM actions WHERE game = ? AND request_id = ?",
                        (game_id, request_id),
                    ).fetchone()
                    seen = None if row is None else (row[0], 0)
                if seen is not None:
                    seq, ticket = seen
                    before, logged = self._as_of(record, seq)
                    return perform(before, logged), ticket
            if version != record.version:
                raise StaleVersion(record)
            game = record.game
            reply = perform(game, action)
            if game.actions[record.version :] != (action,):
                self._drop(record)
                raise RuntimeError(f"perform did not apply exactly {action}")
            seq = record.version
            record.version += 1
            row = (seq + 1, game.moves, game.score, game.status.value, game_id)
            won = game.status is Status.WON

            def write(db: sqlite3.Connection) -> None:
                db.execute(
                    "INSERT INTO actions (game, seq, action, request_id) VALUES (?, ?, ?, ?)",
                    (game_id, seq, str(action), request_id),
                )
                db.execute(
                    "UPDATE games SET version = ?, moves = ?, score = ?, status = ? WHERE id = ?",
                    row,
                )
                if won:
                    db.execute("UPDATE games SET settled = 1 WHERE id = ?", (game_id,))
                    _count(db, record.player, game_id, str(game.code), row[2], "won")

            ticket = self._stage(write, record)
            if request_id is not None:
                self._staged_requests[(game_id, request_id)] = (seq, ticket)
            return reply, ticket

    def stage_reset(self, player: str) -> int:
        """Forget the player's counted games."""
        with self._lock:
            return self._stage(
                lambda db: db.execute("DELETE FROM results WHERE player = ?", (player,)), None
            )

    def flush(self) -> int:
        """Commit everything staged in one transaction; returns the last ticket now durable.

        If the commit fails, every staged change is dropped from memory too (the games are
        replayed from the database when next asked for) and the error propagates.
        """
        with self._flushing:
            with self._lock:
                batch, self._staged = self._staged, []
                done = self._ticket - 1 if not batch else self._ticket
                if batch:
                    self._ticket += 1
            if not batch:
                return done
            try:
                self._writer.execute("BEGIN IMMEDIATE")
                for write, _record in batch:
                    write(self._writer)
                self._writer.execute("COMMIT")
            except BaseException:
                if self._writer.in_transaction:
                    self._writer.execute("ROLLBACK")
                with self._lock:
                    for lost in [r for r in self._cache.values() if r.unsaved]:
                        self._drop(lost)
                    self._staged.clear()
                    self._staged_requests.clear()
                raise
            with self._lock:
                for _write, saved in batch:
                    if saved is not None:
                        saved.unsaved -= 1
                self._staged_requests = {
                    key: seen for key, seen in self._staged_requests.items() if seen[1] > done
                }
            return done

    def create(self, player: str, code: GameCode) -> Record:
        record, _ticket = self.stage_create(player, code)
        self.flush()
        return record

    def apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        perform: Callable[[Game, Action], T],
        request_id: str | None = None,
    ) -> T:
        """stage_apply and flush: the action is durable when this returns."""
        reply, _ticket = self.stage_apply(game_id, player, action, version, perform, request_id)
        self.flush()
        return reply

    def reset_results(self, player: str) -> None:
        self.stage_reset(player)
        self.flush()

    # Reading -------------------------------------------------------------------------------

    def view(self, game_id: str, player: str | None, read: Callable[[Game], T]) -> T:
        """``read`` the player's game under the lock, so it never sees a half-made change."""
        with self._lock:
            return read(self._load(game_id, player).game)

    def actions(self, game_id: str) -> list[Action]:
        """The committed log of a game, oldest first."""
        with self._lock:
            return self._actions(game_id)

    def results(self, player: str) -> list[Result]:
        """The player's counted games (committed), oldest first."""
        with self._lock:
            rows = self._reader.execute(
                "SELECT code, outcome, score, finished_at FROM results WHERE player = ?"
                " ORDER BY seq",
                (player,),
            ).fetchall()
        return [Result(GameCode.parse(c), o, s, f) for c, o, s, f in rows]

    # Inside the lock -----------------------------------------------------------------------

    def _stage(self, write: Write, record: Record | None) -> int:
        self._staged.append((write, record))
        if record is not None:
            record.unsaved += 1
        return self._ticket

    def _load(self, game_id: str, player: str | None) -> Record:
        record = self._cache.get(game_id)
        if record is None:
            row = self._reader.execute(
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
        rows = self._reader.execute(
            "SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [Action.parse(text) for (text,) in rows]

    @staticmethod
    def _as_of(record: Record, seq: int) -> tuple[Game, Action]:
        """The game just before its action number ``seq``, and that action (memory holds all)."""
        log = record.game.actions
        code = record.game.code
        assert code is not None
        return Game.replay(code, log[:seq]), log[seq]

    def _remember(self, record: Record) -> None:
        self._cache[record.id] = record
        self._cache.move_to_end(record.id)
        if len(self._cache) > CACHE_SIZE:
            for old in [r for r in self._cache.values() if not r.unsaved]:
                if len(self._cache) <= CACHE_SIZE:
                    break
                del self._cache[old.id]

    def _drop(self, record: Record) -> None:
        self._cache.pop(record.id, None)


def _settle_unfinished(db: sqlite3.Connection, player: str) -> None:
    """Every game the player leaves is settled; one with moves counts as lost."""
    rows = db.execute(
        "SELECT id, code, moves, score, status FROM games WHERE player = ? AND settled = 0",
        (player,),
    ).fetchall()
    for game_id, code, moves, score, status in rows:
        db.execute("UPDATE games SET settled = 1 WHERE id = ?", (game_id,))
        if moves and status != Status.WON.value:
            _count(db, player, game_id, code, score, "lost")


def _count(
    db: sqlite3.Connection, player: str, game_id: str, code: str, score: int, outcome: str
) -> None:
    """One result per game: a game settled once is never counted again."""
    db.execute(
        "INSERT OR IGNORE INTO results (player, game, code, outcome, score, finished_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (player, game_id, code, outcome, score, time.time()),
    )
