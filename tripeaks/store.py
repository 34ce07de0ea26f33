"""Persistence in SQLite: a game is its code plus its ordered actions, committed before any reply.

The database is the truth; live :class:`Game` objects are only a cache so that a request does not
replay a game from its first action. The store alone applies actions: :meth:`Store.stage_apply`
asks the engine, stages the action's SQL and hands back the engine's :class:`Turn`, a snapshot of
the game after it, and the change's own completion. :meth:`Store.flush` puts every change staged
meanwhile into one transaction with one durable commit (group commit) and then resolves, or fails,
exactly the completions of that batch; nobody is answered before the commit that holds their
change. A failed commit changes nothing a later commit could build on: the games it touched are
dropped from memory (they are replayed from the database when next asked for), together with every
later change that stood on them.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import astuple, dataclass, field, fields
from pathlib import Path

from tripeaks.codes import GameCode
from tripeaks.game import Action, Game, IllegalMove, Status, Turn
from tripeaks.rules import Rules
from tripeaks.stats import Totals, count

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
    finished_at REAL NOT NULL,
    streak INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS results_player ON results (player, seq);
CREATE TABLE IF NOT EXISTS totals (
    player TEXT NOT NULL,
    rules TEXT NOT NULL,
    played INTEGER NOT NULL,
    won INTEGER NOT NULL,
    won_score_sum INTEGER NOT NULL,
    best_score INTEGER,
    current_streak INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    longest_card_streak INTEGER,
    PRIMARY KEY (player, rules)
) WITHOUT ROWID;
"""
"""``games.version`` is the length of the log (kept to check a replay); ``settled`` is set once the
game is over: won, or left for another game (``status`` then says which). ``results.streak`` is
the game's longest run of removals. ``totals`` holds each player's statistics per rules (the rules
letter of the code), folded in as each game is counted (stats.count)."""

_TOTALS = ", ".join(f.name for f in fields(Totals))
_TOTALS_UPSERT = (
    f"INSERT OR REPLACE INTO totals (player, rules, {_TOTALS})"
    f" VALUES (?, ?, {', '.join('?' * len(fields(Totals)))})"
)
_RESULTS = "SELECT code, outcome, score, finished_at, streak FROM results WHERE player = ?"

_MIGRATIONS = (("results", "streak", "INTEGER NOT NULL DEFAULT 0"),)
"""Columns added since the first schema: a database made before them gets them at start-up."""


class UnknownGame(LookupError):
    """No game with this id belongs to this player (another player's game looks the same)."""


class Refused(Exception):
    """The store applied nothing; ``game`` is a snapshot of the game as it stands."""

    reason = "refused"

    def __init__(self, game: Game) -> None:
        super().__init__(self.reason)
        self.game = game


class StaleVersion(Refused):
    """The action was sent against another version of the game (another tab moved first)."""

    reason = "stale"


class RequestIdReused(Refused):
    """This request id was already used on this game for a different action or version."""

    reason = "request_id_reused"


class ActionRefused(Refused):
    """The engine refused the action; ``refusal`` says why."""

    def __init__(self, game: Game, refusal: IllegalMove) -> None:
        self.reason = refusal.reason.name.lower()
        super().__init__(game)
        self.refusal = refusal


class Unavailable(Exception):
    """The database cannot take the change now (full disk, read-only, I/O error); nothing was lost
    that had been acknowledged, and the same request can be sent again."""


@dataclass(slots=True)
class Record:
    """A live game with what the store knows about it."""

    id: str
    player: str
    game: Game
    unsaved: int = 0
    """Staged changes not yet committed; such a game is never dropped from the cache."""


@dataclass(frozen=True, slots=True)
class Result:
    """One counted game in a player's statistics."""

    code: GameCode
    outcome: str
    score: int
    finished_at: float
    streak: int = 0
    """The longest run of removals of that game."""


Write = Callable[[sqlite3.Connection], object]
"""A staged change: the SQL to run inside the next commit's transaction."""


@dataclass(eq=False, slots=True)
class Change:
    """One staged change: its SQL, the games it touched, and its own completion."""

    write: Write
    records: tuple[Record, ...]
    done: Future[None] = field(default_factory=Future)
    request: tuple[str, str] | None = None
    """(game id, request id) of an action sent with a request id."""


@dataclass(frozen=True, slots=True)
class Applied:
    """An action the store took: what the engine said it did, the game after it, its completion."""

    turn: Turn
    game: Game
    """A snapshot: nobody else changes it, so a reply can be shaped from it outside any lock."""
    done: Future[None]


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    game: Game
    done: Future[None]
    lost: int = 0
    """Unfinished games of the player this one made count as lost (for the server's metrics)."""


@dataclass(frozen=True, slots=True)
class _Seen:
    """An action staged with a request id, not yet committed."""

    seq: int
    action: Action
    done: Future[None]


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


def _completed() -> Future[None]:
    done: Future[None] = Future()
    done.set_result(None)
    return done


class Store:
    """Games and results of every player in one SQLite file (WAL, durable commits).

    ``stage_*`` methods change the game in memory, stage the SQL and return the change's
    completion; ``flush`` commits everything staged and resolves those completions. ``create``,
    ``apply`` and ``reset_results`` do both at once (for the command line and tests).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = _connect(self.path)
        self._writer.executescript(_SCHEMA)
        _migrate(self._writer)
        _rebuild_totals(self._writer)
        self._reader = _connect(self.path)
        self._lock = threading.Lock()
        """Guards memory (cache, staged changes) and the reader connection."""
        self._flushing = threading.Lock()
        """One commit at a time, on the writer connection."""
        self._cache: OrderedDict[str, Record] = OrderedDict()
        self._staged: list[Change] = []
        self._seen: dict[tuple[str, str], _Seen] = {}

    def close(self) -> None:
        with self._flushing, self._lock:
            self._writer.close()
            self._reader.close()

    # Changes -------------------------------------------------------------------------------

    def stage_create(self, player: str, code: GameCode) -> Created:
        """A new game; the player's unfinished games are left first (a touched one counts lost)."""
        game = Game.new(code)
        game_id = new_id()
        created = time.time()
        with self._lock:
            leaving = self._leave_unfinished(player)
            record = Record(game_id, player, game)

            def write(db: sqlite3.Connection) -> None:
                for left, counted in leaving:
                    db.execute(
                        "UPDATE games SET settled = 1, status = ? WHERE id = ?",
                        (Status.LEFT.value, left.id),
                    )
                    if counted:
                        _count(db, player, left.id, left.game, "lost")
                db.execute(
                    "INSERT INTO games (id, player, code, created_at, score, status)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, player, str(code), created, game.score, game.status.value),
                )

            self._remember(record)
            change = self._stage(write, (record, *(left for left, _counted in leaving)))
            lost = sum(counted for _left, counted in leaving)
            return Created(game_id, game.copy(), change.done, lost)

    def stage_apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None = None,
    ) -> Applied:
        """Apply ``action`` to the player's game at ``version`` and stage it for the log.

        A request id seen before on this game with the same action and version answers that
        action's turn again and changes nothing (a retry after a lost reply); with another action
        or version it is RequestIdReused. Another version is StaleVersion, a refusal by the
        engine ActionRefused; each carries the game as it stands, and nothing is staged.
        """
        with self._lock:
            record = self._load(game_id, player)
            game = record.game
            if request_id is not None:
                seen = self._request(game_id, request_id)
                if seen is not None:
                    if seen.action != action or seen.seq != version:
                        raise RequestIdReused(game.copy())
                    return self._again(record, seen)
            if version != len(game.actions):
                raise StaleVersion(game.copy())
            try:
                turn = game.act(action)
            except IllegalMove as refusal:
                raise ActionRefused(game.copy(), refusal) from None
            seq = version
            row = (seq + 1, game.moves, game.score, game.status.value, game_id)
            won = game.status is Status.WON  # a won game takes no action: it stays as it is now

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
                    _count(db, record.player, game_id, game, "won")

            change = self._stage(write, (record,))
            if request_id is not None:
                change.request = (game_id, request_id)
                self._seen[change.request] = _Seen(seq, action, change.done)
            return Applied(turn, game.copy(), change.done)

    def stage_reset(self, player: str) -> Future[None]:
        """Forget the player's counted games."""
        with self._lock:

            def write(db: sqlite3.Connection) -> None:
                db.execute("DELETE FROM results WHERE player = ?", (player,))
                db.execute("DELETE FROM totals WHERE player = ?", (player,))

            return self._stage(write, ()).done

    def flush(self) -> list[Change]:
        """Commit everything staged in one transaction and settle each change's completion.

        If the commit fails, the batch's changes fail with the error (``Unavailable`` for a
        database that cannot take writes now), and so does every change staged since on the same
        games; those games are dropped from memory. Other staged changes stay for the next flush.
        Returns the changes settled, done or failed.
        """
        with self._flushing:
            with self._lock:
                batch, self._staged = self._staged, []
            if not batch:
                return []
            try:
                self._writer.execute("BEGIN IMMEDIATE")
                for change in batch:
                    change.write(self._writer)
                self._writer.execute("COMMIT")
            except Exception as error:
                return self._failed(batch, error)
            with self._lock:
                for change in batch:
                    for record in change.records:
                        record.unsaved -= 1
                    self._forget_request(change)
            for change in batch:
                change.done.set_result(None)
            return batch

    def create(self, player: str, code: GameCode) -> Created:
        created = self.stage_create(player, code)
        self._flush_for(created.done)
        return created

    def apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None = None,
    ) -> Applied:
        """stage_apply and flush: the action is durable when this returns."""
        applied = self.stage_apply(game_id, player, action, version, request_id)
        self._flush_for(applied.done)
        return applied

    def reset_results(self, player: str) -> None:
        self._flush_for(self.stage_reset(player))

    # Reading -------------------------------------------------------------------------------

    def ping(self) -> None:
        """Read the database's header (readiness check); raises when the database does not answer."""
        with self._lock:
            self._reader.execute("PRAGMA schema_version").fetchone()

    def game(self, game_id: str, player: str | None) -> Game:
        """A snapshot of the player's game as it stands (staged changes included)."""
        with self._lock:
            return self._load(game_id, player).game.copy()

    def actions(self, game_id: str) -> list[Action]:
        """The committed log of a game, oldest first."""
        with self._lock:
            return self._actions(game_id)

    def results(self, player: str) -> list[Result]:
        """The player's counted games (committed), oldest first."""
        return self._results(f"{_RESULTS} ORDER BY seq", (player,))

    def totals(self, player: str) -> dict[Rules, Totals]:
        """The player's kept statistics per rules (committed); rules never played are absent."""
        with self._lock:
            rows = self._reader.execute(
                f"SELECT rules, {_TOTALS} FROM totals WHERE player = ?", (player,)
            ).fetchall()
        return {Rules(rules): Totals(*values) for rules, *values in rows}

    def recent(self, player: str, limit: int) -> list[Result]:
        """The player's latest counted games (committed), newest first."""
        return self._results(f"{_RESULTS} ORDER BY seq DESC LIMIT ?", (player, limit))

    def _results(self, query: str, args: tuple[object, ...]) -> list[Result]:
        with self._lock:
            rows = self._reader.execute(query, args).fetchall()
        return [Result(GameCode.parse(c), o, s, f, k) for c, o, s, f, k in rows]

    # Inside the lock -----------------------------------------------------------------------

    def _stage(self, write: Write, records: tuple[Record, ...]) -> Change:
        change = Change(write, records)
        self._staged.append(change)
        for record in records:
            record.unsaved += 1
        return change

    def _flush_for(self, done: Future[None]) -> None:
        """Flush until ``done`` is settled (another thread's flush may have taken it); raise its error."""
        while not done.done():
            self.flush()
        done.result()

    def _failed(self, batch: list[Change], error: Exception) -> list[Change]:
        """Undo a failed commit in memory: fail the batch and whatever stood on its games."""
        if self._writer.in_transaction:
            self._writer.execute("ROLLBACK")
        failure: Exception = Unavailable(str(error)) if _unavailable(error) else error
        with self._lock:
            failed = list(batch)
            touched = {record.id for change in batch for record in change.records}
            kept: list[Change] = []
            for change in self._staged:  # in staging order, so a chain fails whole
                if any(record.id in touched for record in change.records):
                    failed.append(change)
                    touched.update(record.id for record in change.records)
                else:
                    kept.append(change)
            self._staged = kept
            for change in failed:
                self._forget_request(change)
                for record in change.records:
                    record.unsaved -= 1
            for game_id in touched:
                self._cache.pop(game_id, None)
        for change in failed:
            change.done.set_exception(failure)
        return failed

    def _forget_request(self, change: Change) -> None:
        if change.request is not None:
            seen = self._seen.get(change.request)
            if seen is not None and seen.done is change.done:
                del self._seen[change.request]

    def _request(self, game_id: str, request_id: str) -> _Seen | None:
        """The action this request id was used for on this game, staged or committed."""
        seen = self._seen.get((game_id, request_id))
        if seen is not None:
            return seen
        row = self._reader.execute(
            "SELECT seq, action FROM actions WHERE game = ? AND request_id = ?",
            (game_id, request_id),
        ).fetchone()
        return None if row is None else _Seen(row[0], Action.parse(row[1]), _completed())

    @staticmethod
    def _again(record: Record, seen: _Seen) -> Applied:
        """The turn of an action already applied, from the game as it was just before it."""
        code = record.game.code
        assert code is not None
        log = record.game.actions
        before = Game.replay(code, log[: seen.seq])
        return Applied(before.act(log[seen.seq]), before, seen.done)

    def _leave_unfinished(self, player: str) -> list[tuple[Record, bool]]:
        """Leave every game of the player that is not over: (record, whether it counts as lost)."""
        ids = {r.id for r in self._cache.values() if r.player == player and not r.game.is_over}
        rows = self._reader.execute(
            "SELECT id FROM games WHERE player = ? AND settled = 0", (player,)
        ).fetchall()
        ids.update(game_id for (game_id,) in rows)
        leaving: list[tuple[Record, bool]] = []
        for game_id in sorted(ids):
            record = self._load(game_id, player)
            if record.game.is_over:  # won (its own change settles it) or left already
                continue
            leaving.append((record, record.game.leaving_counts_as_loss))
            record.game.leave()
        return leaving

    def _load(self, game_id: str, player: str | None) -> Record:
        record = self._cache.get(game_id)
        if record is None:
            row = self._reader.execute(
                "SELECT player, code, version, settled FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            owner, code, version, settled = row
            game = Game.replay(code, self._actions(game_id))
            if len(game.actions) != version:
                raise RuntimeError(f"game {game_id} has {len(game.actions)} actions, not {version}")
            if settled:  # won, or left for another game: over either way
                game.leave()
            record = Record(game_id, owner, game)
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

    def _remember(self, record: Record) -> None:
        self._cache[record.id] = record
        self._cache.move_to_end(record.id)
        if len(self._cache) > CACHE_SIZE:
            for old in [r for r in self._cache.values() if not r.unsaved]:
                if len(self._cache) <= CACHE_SIZE:
                    break
                del self._cache[old.id]


def _unavailable(error: BaseException) -> bool:
    """A database that cannot take writes now (full, read-only, locked, I/O), not a bug of ours."""
    return isinstance(error, sqlite3.OperationalError | OSError)


def _count(db: sqlite3.Connection, player: str, game_id: str, game: Game, outcome: str) -> None:
    """One result per game: a game settled once is never counted again."""
    inserted = db.execute(
        "INSERT OR IGNORE INTO results"
        " (player, game, code, outcome, score, finished_at, streak) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (player, game_id, str(game.code), outcome, game.score, time.time(), game.longest_streak),
    ).rowcount
    if inserted:
        _add_to_totals(db, player, game.rules, outcome, game.score, game.longest_streak)


def _add_to_totals(
    db: sqlite3.Connection, player: str, rules: Rules, outcome: str, score: int, streak: int
) -> None:
    row = db.execute(
        f"SELECT {_TOTALS} FROM totals WHERE player = ? AND rules = ?", (player, rules.value)
    ).fetchone()
    totals = count(Totals(*row) if row else Totals(), outcome, score, streak)
    db.execute(_TOTALS_UPSERT, (player, rules.value, *astuple(totals)))


def _rebuild_totals(db: sqlite3.Connection) -> None:
    """Fold every counted game into the totals when there are results but no totals at all: a
    database made before they were kept (or one whose first start stopped before this committed).
    Every counted game adds to its totals and a reset clears both, so no other state has that."""
    if db.execute("SELECT 1 FROM totals LIMIT 1").fetchone() is not None:
        return
    rows = db.execute(
        "SELECT player, code, outcome, score, streak FROM results ORDER BY seq"
    ).fetchall()
    if not rows:
        return
    totals: dict[tuple[str, Rules], Totals] = {}
    for player, code, outcome, score, streak in rows:
        key = (player, GameCode.parse(code).rules)
        totals[key] = count(totals.get(key, Totals()), outcome, score, streak)
    db.execute("BEGIN IMMEDIATE")
    db.executemany(_TOTALS_UPSERT, [(p, r.value, *astuple(t)) for (p, r), t in totals.items()])
    db.execute("COMMIT")


def _migrate(db: sqlite3.Connection) -> None:
    """Add the columns a database made by an older version lacks (data stays as it was)."""
    for table, column, declaration in _MIGRATIONS:
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
