"""Persistence: a game is its code plus its ordered actions, committed before any reply.

The database is the truth; live :class:`Game` objects are only a cache so that a request does not
replay a game from its first action. The store alone applies actions: :meth:`Storage.stage_apply`
asks the engine, stages the action's SQL and hands back the engine's :class:`Turn`, a snapshot of
the game after it, and the change's own completion. :meth:`Storage.flush` puts every change staged
meanwhile into one transaction with one durable commit (group commit) and then resolves, or fails,
exactly the completions of that batch; nobody is answered before the commit that holds their
change. A failed commit changes nothing a later commit could build on: the games it touched are
dropped from memory (they are replayed from the database when next asked for), together with every
later change that stood on them.

The version check is in the database too: an action's UPDATE only matches the game row at the
version it was applied to, so a change made meanwhile by another process on the same database
(PostgreSQL with several workers, store_pg.py) refuses it as stale instead of being overwritten.
:class:`Storage` holds everything both databases do; :class:`Store` is SQLite, the embedded default.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager, contextmanager
from dataclasses import astuple, dataclass, field, fields, replace
from datetime import date
from pathlib import Path
from typing import Any, ClassVar, Protocol

from tripeaks import daily
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, Game, IllegalMove, Status, Turn
from tripeaks.engine.variant import Variant
from tripeaks.stats import Totals, Verdict, count, judge
from tripeaks.store import migrations

RETRIES = 2
"""Times a batch is tried again after the database aborted it for crossing another process's
commit (PostgreSQL's deadlock detection picks one of the two): the other has committed by then, so
the retry finds its changes (a stale action is refused 409 as usual) instead of failing 503."""
CACHE_SIZE = 512
"""Live games kept in memory; older ones are replayed from the database when asked for."""

# The tables are made and upgraded by tripeaks/migrations (Alembic revisions, both databases).
# ``games.version`` is the length of the log (the version an action's UPDATE checks);
# ``settled`` is set once the game is over: won, or left for another game (``status`` then says
# which). ``results.streak`` is the game's longest run of removals. ``totals`` holds each player's
# statistics per kind of game (``rules``: the rules letter of the code, then its options after a
# hyphen, variant.Variant.key: each scoring and variant apart), folded in as each game is counted
# (stats.count). The SQL below is written once for both databases (``?`` placeholders, upserts
# that SQLite and PostgreSQL both read); only the schema and the connections differ.

_TOTALS = ", ".join(f.name for f in fields(Totals))
_TOTALS_UPSERT = (
    f"INSERT INTO totals (player, rules, {_TOTALS})"
    f" VALUES (?, ?, {', '.join('?' * len(fields(Totals)))})"
    " ON CONFLICT (player, rules) DO UPDATE SET "
    + ", ".join(f"{f.name} = excluded.{f.name}" for f in fields(Totals))
)
_RESULTS = (
    "SELECT r.code, r.outcome, r.score, r.finished_at, r.streak, v.winnable, v.best, v.hint,"
    " v.grade, d.day"
    " FROM results r LEFT JOIN verdicts v ON v.game = r.game"
    " LEFT JOIN dailies d ON d.game = r.game WHERE r.player = ?"
)
_HINTED = (
    "INSERT INTO hinted_games (game, kind) VALUES (?, ?) ON CONFLICT (game) DO UPDATE SET kind ="
    " CASE WHEN hinted_games.kind = 'perfect' THEN 'perfect' ELSE excluded.kind END"
)
"""A hint of a kind given in a game: a game that had a perfect hint stays perfect."""
_LEAVE = "UPDATE games SET settled = 1, status = ? WHERE id = ? AND version = ? AND settled = 0"
_MOVE = (
    "UPDATE games SET version = ?, moves = ?, score = ?, status = ?{}"
    " WHERE id = ? AND version = ? AND settled = 0"
)
"""An action's own version check: it matches no row once the game has moved on elsewhere."""
_PLAYED, _WON = _MOVE.format(""), _MOVE.format(", settled = 1")
"""A move that does not end the game leaves ``settled`` out of its SET: naming an indexed column
makes the database rewrite that index too (SQLite wrote a third page per commit, 50% more to
sync; PostgreSQL loses its in-page update)."""
_LOG = "INSERT INTO actions (game, seq, action, request_id) VALUES (?, ?, ?, ?)"
_DAILY_MOVE = (
    "UPDATE dailies SET finished = ?, won = ?, score = ?, moves = ?, streak = ?, peaks = ?,"
    " first_at = COALESCE(first_at, ?), last_at = ?, seconds = ? - COALESCE(first_at, ?),"
    " too_fast = ? WHERE game = ? AND ranked = 1"
)
"""A ranked daily's figures after each of its actions, as the engine has them, with the server's
time of its first action (kept from the first) and of this one, and whether it finished faster
than a person plays (daily.too_fast): the board reads only these."""
_BOARD_ORDER = "score DESC, moves, seconds, game"
_SHOWN = "day = ? AND ranked = 1 AND finished = 1 AND too_fast = 0"
"""The attempts on a day's public board: finished ranked ones played at a person's pace."""
_AHEAD = (
    "SELECT (SELECT COALESCE(sum(players), 0) FROM daily_scores WHERE day = ? AND score > ?)"
    f" + (SELECT count(*) FROM dailies WHERE {_SHOWN} AND score = ? AND moves < ?)"
    f" + (SELECT count(*) FROM dailies WHERE {_SHOWN} AND score = ? AND moves = ? AND seconds < ?)"
)
_TIE = 0.0005
"""Seconds closer than this are the same time (the board shows milliseconds): the difference of two
clock readings is not exact, and two attempts timed alike must share their rank."""
"""Standings strictly ahead of one (score, moves, seconds): its rank is one more than that (equal
figures share a rank). The higher scores from their counts, the equal score from the board's
index (a few hundred standings at most share one)."""
_FINISHED = (
    "INSERT INTO daily_scores (day, score, players) VALUES (?, ?, 1)"
    " ON CONFLICT (day, score) DO UPDATE SET players = daily_scores.players + 1"
)
"""A ranked attempt finished (it takes no action after that: won, or stuck with undo refused) at
a person's pace: one too fast for that is in no count of the board (daily.too_fast)."""
_STANDING = (
    "SELECT d.day, d.player, p.name, d.game, d.ranked, d.finished, d.won, d.score, d.moves,"
    " d.seconds, d.streak, d.peaks, d.too_fast"
    " FROM dailies d LEFT JOIN players p ON p.player = d.player"
)


class UnknownGame(LookupError):
    """No game with this id belongs to this player (another player's game looks the same)."""


class Refused(Exception):
    """The store applied nothing; ``game`` is a snapshot of the game as it stands and ``tag`` its
    daily tag (None for any other game), so the reply needs nothing more from the store."""

    reason = "refused"

    def __init__(self, game: Game, tag: daily.Tag | None) -> None:
        super().__init__(self.reason)
        self.game = game
        self.tag = tag


class StaleVersion(Refused):
    """The action was sent against another version of the game (another tab moved first)."""

    reason = "stale"


class RequestIdReused(Refused):
    """This request id was already used on this game for a different action or version."""

    reason = "request_id_reused"


class ActionRefused(Refused):
    """The engine refused the action; ``refusal`` says why."""

    def __init__(self, game: Game, tag: daily.Tag | None, refusal: IllegalMove) -> None:
        self.reason = refusal.reason.name.lower()
        super().__init__(game, tag)
        self.refusal = refusal


class PolicyRefused(Refused):
    """A daily's policy refused the action (daily.refusal): an undo in the ranked attempt."""

    def __init__(self, game: Game, tag: daily.Tag | None, reason: str) -> None:
        self.reason = reason
        super().__init__(game, tag)


class _MovedOn(Exception):
    """A staged action's UPDATE matched no row: the game moved on elsewhere since it was applied."""


class NameTaken(Exception):
    """Another player has a nickname that looks like the one asked for (nickname.key)."""


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
    stored: int = 0
    """The version the database is known to hold: a shared store checks it before trusting us."""
    daily: daily.Tag | None = None
    """The day a daily game is for, and whether it is the ranked attempt (dailies table)."""
    first_at: float | None = None
    """A ranked daily's server time of its first action (dailies.first_at), for its pace. Every
    action's UPDATE checks the game's version, so a stored action always stood on this value."""
    hint: str | None = None
    """The kind of hint asked in the game (hinted_games table: "perfect" once any hint was,
    else "fair"); None: no hint. Its win is counted apart."""
    requests: dict[str, tuple[int, Action]] = field(default_factory=dict)
    """The committed actions of this game sent with a request id, by that id: (seq, action). Read
    with the log when the game is loaded and kept up at each commit, so that a new request id is
    known to be new without a read (a shared store's other workers: see ``_request``)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One daily game as the dailies table keeps it (figures: a ranked attempt's only)."""

    day: date
    player: str
    name: str | None
    """The player's nickname, if set."""
    game: str
    ranked: bool
    finished: bool
    won: bool
    score: int
    moves: int
    seconds: float
    """From the first action to the last, as the server's clock measured them."""
    streak: int
    peaks: int
    """Peaks cleared, as bits (daily.peaks_mask)."""
    too_fast: bool = False
    """Finished faster than a person plays (daily.too_fast): the player's own result, on no
    public board and in nobody's rank."""

    @property
    def shown(self) -> bool:
        """On its day's public board: finished, ranked and played at a person's pace."""
        return self.ranked and self.finished and not self.too_fast

    @classmethod
    def of(cls, row: Sequence[Any]) -> Standing:
        day, player, name, game, ranked, finished, won, *figures = row
        score, moves, seconds, streak, peaks, fast = figures
        return cls(
            date.fromisoformat(day),
            player,
            name,
            game,
            bool(ranked),
            bool(finished),
            bool(won),
            score,
            moves,
            seconds,
            streak,
            peaks,
            bool(fast),
        )


@dataclass(frozen=True, slots=True)
class Result:
    """One counted game in a player's statistics."""

    code: GameCode
    outcome: str
    score: int
    finished_at: float
    streak: int = 0
    """The longest run of removals of that game."""
    winnable: bool | None = None
    """The solver's verdict on the deal when the game was counted (None: not judged)."""
    best: int | None = None
    """The deal's best winning score, when judged winnable."""
    hint: str | None = None
    """The kind of hint asked in the game, None for none (known for judged games)."""
    grade: str | None = None
    """The deal's grade when the game was counted (judged games since revision 0005)."""
    day: date | None = None
    """The day of a daily game (None for any other): its code is shown once the day is over."""

    @property
    def hinted(self) -> bool:
        return self.hint is not None


class Rows(Protocol):
    """What a statement hands back, from either database's cursor."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Db(Protocol):
    """A connection inside the commit's transaction, taking the SQL of this module (``?`` style)."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...


Write = Callable[[Db], object]
"""A staged change: the SQL to run inside the next commit's transaction."""


@dataclass(eq=False, slots=True)
class Change:
    """One staged change: its SQL, the games it touched, and its own completion."""

    write: Write
    records: tuple[Record, ...]
    done: Future[None] = field(default_factory=Future)
    request: tuple[str, str] | None = None
    """(game id, request id) of an action sent with a request id."""
    action: tuple[Action, int] | None = None
    """An action's (action, version it leaves the game at): its game is ``records[0]``."""
    leaves: tuple[str, ...] = ()
    """Games a new game leaves: dropped from memory once committed (they are over anyway)."""


@dataclass(frozen=True, slots=True)
class Applied:
    """An action the store took: what the engine said it did, the game after it, its completion."""

    turn: Turn
    game: Game
    """A snapshot: nobody else changes it, so a reply can be shaped from it outside any lock."""
    done: Future[None]
    tag: daily.Tag | None
    """The game's daily tag (None for any other game), as a refusal carries it (``Refused.tag``)."""
    again: bool = False
    """A retry of an action taken before (same request id): answered again, not taken twice."""


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


_STORED = "SELECT version, settled FROM games WHERE id = ?"
"""A game's stored version and whether it is settled: what a shared store checks its cache by.
Read before the store's lock is taken, never while holding it: on PostgreSQL it is a round trip,
and the event loop's cached moves take that lock (``_load`` takes the row as ``stored``)."""
_UNSETTLED = "SELECT id, version, settled FROM games WHERE player = ? AND settled = 0"
"""A player's games not settled, each with its ``_STORED`` row: the games a new game leaves."""
_CREATE = (
    "INSERT INTO games (id, player, code, created_at, score, status) VALUES (?, ?, ?, ?, ?, ?)"
)
"""A new game's row (a ranked attempt's with ON CONFLICT: racing starts make it once)."""
_CLAIM = (
    "INSERT INTO players (player, name, skeleton) VALUES (?, ?, ?)"
    " ON CONFLICT DO NOTHING RETURNING player"
)
"""A nickname's row, unless a row holds its player or its key already (stage_nickname)."""


def _completed() -> Future[None]:
    done: Future[None] = Future()
    done.set_result(None)
    return done


class Storage:
    """Games and results of every player, in memory and in a database (see the subclasses).

    ``stage_*`` methods change the game in memory, stage the SQL and return the change's
    completion; ``flush`` commits everything staged and resolves those completions. ``create``,
    ``apply`` and ``reset_results`` do both at once (for the command line and tests).

    A subclass brings the database: ``_transaction`` (the commit's), ``_rows`` (one committed
    read), ``_is_unavailable`` (errors that mean "not now"), ``close``; ``shared`` says whether
    other processes write to it too, and then every read checks the cache against the database.
    ``on_staged`` is how whoever flushes (the app's commit thread) hears that there is something to.
    """

    shared: ClassVar[bool] = False
    """Other processes may change games: a cached game is checked against the stored version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        """Guards memory: the cache and the staged changes. A read that needs neither does not take
        it, so that one player's read (a PostgreSQL round trip) never holds up another's action."""
        self._reading = threading.Lock()
        """One read at a time on a subclass's single reader connection (SQLite's; a PostgreSQL read
        borrows a pooled connection of its own and needs none). Taken inside ``_lock`` or alone."""
        self._flushing = threading.Lock()
        """One commit at a time, on the writer connection."""
        self._cache: OrderedDict[str, Record] = OrderedDict()
        self._staged: list[Change] = []
        self._seen: dict[tuple[str, str], _Seen] = {}
        self.clock: Callable[[], float] = time.time
        """The server's clock of a daily's actions (tests set their own)."""
        self.judge: Callable[[GameCode], Verdict | None] = judge
        """The verdict a counted game keeps (stats.judge). The app puts the solver worker's first:
        it was asked for near the game's end, so it is usually known, and working it out here
        (the search and the grade, several milliseconds) would hold the store's lock meanwhile."""
        self.on_staged: Callable[[], None] | None = None
        """Called by every ``stage_*`` call that staged a change, once it has left the store's lock
        (so the two never nest): the committer's wake-up (web/committer.py). ``create``, ``apply``
        and ``reset_results`` flush their change themselves and do not call it."""

    def close(self) -> None:
        raise NotImplementedError

    # The database (a subclass's) -------------------------------------------------------------

    def _transaction(self) -> AbstractContextManager[Db]:
        """The commit's transaction: committed when the block ends, rolled back if it raises."""
        raise NotImplementedError

    def _rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """One read of committed data, safe from any thread (inside ``self._lock`` or not)."""
        raise NotImplementedError

    def _is_unavailable(self, error: BaseException) -> bool:
        """The database cannot answer now (full, read-only, away, I/O): not a bug of ours."""
        raise NotImplementedError

    def _is_crossed(self, error: BaseException) -> bool:
        """The database aborted this commit for crossing another's (a deadlock between two
        processes' commits): nothing of it was written, and the same batch can be tried again."""
        return False

    def _lock_player(self, db: Db, player: str) -> None:
        """Hold the player's totals for this transaction (another process may count too)."""

    # Changes -------------------------------------------------------------------------------

    def stage_create(
        self,
        player: str,
        code: GameCode,
        tag: daily.Tag | None = None,
        *,
        game_id: str | None = None,
        address: str | None = None,
    ) -> Created:
        """A new game; the player's unfinished games are left first (a touched one counts lost).

        ``tag`` makes it a daily game (its row in ``dailies``, with the ``address`` key it was
        started from). A ranked attempt has its own ``game_id`` (daily.attempt_id) and is made
        once: a start that finds the game made already (another worker's, racing) fails with
        StaleVersion carrying the stored game, and leaves nothing. The database keeps one ranked
        attempt per player and day: one made before attempts had their own id makes this one
        unranked (still a daily: as secret as the other while its day lasts)."""
        created = self._stage_create(player, code, tag, game_id=game_id, address=address)
        self._tell()
        return created

    def _stage_create(
        self,
        player: str,
        code: GameCode,
        tag: daily.Tag | None = None,
        *,
        game_id: str | None = None,
        address: str | None = None,
    ) -> Created:
        game = Game.new(code)
        game_id = game_id or new_id()
        once = tag is not None and tag.ranked
        created = time.time()
        unsettled = {left: [stored] for left, *stored in self._read(_UNSETTLED, (player,))}
        unsettled.pop(game_id, None)  # a racing start's own attempt is never left by another
        with self._lock:
            leaving = [
                (r, len(r.game.actions), c, self._verdict(r.game, r.daily) if c else None)
                for r, c in self._leave_unfinished(player, unsettled, keep=game_id)
            ]
            record = Record(game_id, player, game, daily=tag)
            row = (game_id, player, str(code), created, game.score, game.status.value)

            def write(db: Db) -> None:
                if once:  # first, so that a start that lost the race writes nothing
                    self._inserted(db, _CREATE + " ON CONFLICT (id) DO NOTHING", row)
                else:
                    db.execute(_CREATE, row)
                for left, version, counted, verdict in leaving:
                    if db.execute(_LEAVE, (Status.LEFT.value, left.id, version)).rowcount:
                        if counted:
                            self._count(db, player, left.id, left.game, "lost", verdict, left.hint)
                    else:  # moved on through another process since: leave it as stored
                        self._leave_stored(db, left.id, player)
                if tag is not None:
                    self._stage_daily(db, record, tag, address)

            self._remember(record)
            change = self._stage(write, (record, *(left for left, _v, _c, _j in leaving)))
            change.leaves = tuple(left.id for left, _v, _c, _j in leaving)
            lost = sum(counted for _left, _v, counted, _j in leaving)
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
        engine ActionRefused; each carries the game as it stands, and nothing is staged. A shared
        store decides on its cached game first and, if that refuses, once more on the stored one.
        """
        applied = self._stage_apply(game_id, player, action, version, request_id)
        if not applied.again:
            self._tell()
        return applied

    def stage_apply_cached(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None = None,
    ) -> Applied | None:
        """``stage_apply`` when that reads nothing from the database: the game is cached and the
        move applies (or is refused, by a store no other process writes to). Else None, and
        nothing changed: the caller asks ``stage_apply``, which may read. A shared store's route
        calls this on its event loop and so saves the hop to a thread that a read would need."""
        with self._lock:
            if game_id not in self._cache:
                return None
            try:
                applied = self._apply(self._load(game_id, player), action, version, request_id)
            except Refused:
                if self.shared:
                    return None  # decided again on the stored game, which is a read
                raise
        if not applied.again:
            self._tell()
        return applied

    def _stage_apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None,
    ) -> Applied:
        with self._lock:
            try:
                return self._apply(self._load(game_id, player), action, version, request_id)
            except Refused:
                if not self.shared:
                    raise
        stored = self._read(_STORED, (game_id,))  # before the lock (see _STORED)
        with self._lock:
            record = self._load(game_id, player, fresh=True, stored=stored)
            return self._apply(record, action, version, request_id)

    def _apply(
        self, record: Record, action: Action, version: int, request_id: str | None
    ) -> Applied:
        game, game_id = record.game, record.id
        if request_id is not None:
            seen = self._request(record, request_id)
            if seen is not None:
                if seen.action != action or seen.seq != version:
                    raise RequestIdReused(game.copy(), record.daily)
                if seen.seq >= len(game.actions):  # this cached game is behind the database
                    raise StaleVersion(game.copy(), record.daily)
                return self._again(record, seen)
        if version != len(game.actions):
            raise StaleVersion(game.copy(), record.daily)
        refused = daily.refusal(record.daily, action.kind)
        if refused is not None:
            raise PolicyRefused(game.copy(), record.daily, refused)
        try:
            turn = game.apply(action)
        except IllegalMove as refusal:
            raise ActionRefused(game.copy(), record.daily, refusal) from None
        seq = version
        won = game.status is Status.WON  # a won game takes no action: it stays as it is now
        row = (seq + 1, game.moves, game.score, game.status.value, game_id, seq)
        figures = self._daily_figures(record, self.clock())
        verdict = self._verdict(game, record.daily) if won else None
        finished = None
        # figures: finished first, too_fast just before the game id (_DAILY_MOVE's parameters)
        if figures is not None and figures[0] and not figures[-2] and record.daily is not None:
            finished = (record.daily.day.isoformat(), game.score)  # counted on the board

        def write(db: Db) -> None:
            if not self._move(db, won, row, (game_id, seq, str(action), request_id)):
                raise _MovedOn(game_id)  # before anything of this change was written
            if won:
                self._count(db, record.player, game_id, game, "won", verdict, record.hint)
            if figures is not None:
                db.execute(_DAILY_MOVE, figures)
                if finished is not None:
                    db.execute(_FINISHED, finished)

        change = self._stage(write, (record,))
        change.action = (action, seq + 1)
        if request_id is not None:
            change.request = (game_id, request_id)
            self._seen[change.request] = _Seen(seq, action, change.done)
        return Applied(turn, game.copy(), change.done, record.daily)

    def stage_reset(self, player: str) -> Future[None]:
        """Forget the player's counted games."""
        done = self._stage_reset(player)
        self._tell()
        return done

    def _stage_reset(self, player: str) -> Future[None]:
        with self._lock:

            def write(db: Db) -> None:
                self._lock_player(db, player)
                db.execute("DELETE FROM results WHERE player = ?", (player,))
                db.execute("DELETE FROM totals WHERE player = ?", (player,))

            return self._stage(write, ()).done

    def flush(self) -> list[Change]:
        """Commit everything staged in one transaction and settle each change's completion.

        If the commit fails, the batch's changes fail with the error (``Unavailable`` for a
        database that cannot take writes now), and so does every change staged since on the same
        games; those games are dropped from memory. Other staged changes stay for the next flush.
        An action whose game moved on through another process fails alone (StaleVersion with the
        stored game), with the actions staged on top of it; the rest of the batch commits.
        Returns the changes settled, done or failed.
        """
        with self._flushing:
            with self._lock:
                batch, self._staged = self._staged, []
            if not batch:
                return []
            for attempt in range(1 + RETRIES):
                try:
                    moved = self._write(batch)
                    break
                except Exception as error:
                    if attempt == RETRIES or not self._is_crossed(error):
                        return self._failed(batch, error)
            stored = [change for change in batch if change not in moved]
            with self._lock:
                for change in stored:
                    for record in change.records:
                        record.unsaved -= 1
                    if change.action is not None:
                        action, after = change.action
                        change.records[0].stored = after
                        if change.request is not None:
                            change.records[0].requests[change.request[1]] = (after - 1, action)
                    for left in change.leaves:
                        gone = self._cache.get(left)
                        if gone is not None and not gone.unsaved:
                            del self._cache[left]
                    self._forget_request(change)
            for change in stored:
                change.done.set_result(None)
            return stored + (self._moved_on(moved) if moved else [])

    def _write(self, batch: list[Change]) -> list[Change]:
        """One transaction for the batch; returns the actions whose game moved on elsewhere."""
        moved: list[Change] = []
        with self._transaction() as db:
            behind: set[str] = set()
            for change in batch:
                if change.action is not None and change.records[0].id in behind:
                    moved.append(change)  # stood on an action that was not stored
                    continue
                try:
                    change.write(db)
                except _MovedOn:
                    moved.append(change)
                    behind.add(change.records[0].id)
        return moved

    def create(self, player: str, code: GameCode) -> Created:
        created = self._stage_create(player, code)
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
        applied = self._stage_apply(game_id, player, action, version, request_id)
        self._flush_for(applied.done)
        return applied

    def reset_results(self, player: str) -> None:
        self._flush_for(self._stage_reset(player))

    # Reading -------------------------------------------------------------------------------

    def ping(self) -> None:
        """One trivial query (readiness check); raises when the database does not answer."""
        self._read("SELECT 1", ())

    def game(self, game_id: str, player: str | None) -> Game:
        """A snapshot of the player's game as it stands (staged changes included). A shared store
        reads the stored version before it takes the lock, not while holding it."""
        stored = self._read(_STORED, (game_id,)) if self.shared else None
        with self._lock:
            return self._load(game_id, player, fresh=True, stored=stored).game.copy()

    def actions(self, game_id: str) -> list[Action]:
        """The committed log of a game, oldest first."""
        rows = self._read("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,))
        return [Action.parse(text) for (text,) in rows]

    def results(self, player: str) -> list[Result]:
        """The player's counted games (committed), oldest first."""
        return self._results(f"{_RESULTS} ORDER BY r.seq", (player,))

    def totals(self, player: str) -> dict[Variant, Totals]:
        """The player's kept statistics per game kind (the rules, and the options: each scoring
        and variant apart), committed; kinds never played are absent."""
        rows = self._read(f"SELECT rules, {_TOTALS} FROM totals WHERE player = ?", (player,))
        return {Variant.from_key(key): Totals(*values) for key, *values in rows}

    def recent(self, player: str, limit: int) -> list[Result]:
        """The player's latest counted games (committed), newest first."""
        return self._results(f"{_RESULTS} ORDER BY r.seq DESC LIMIT ?", (player, limit))

    def _results(self, query: str, args: tuple[object, ...]) -> list[Result]:
        rows = self._read(query, args)
        return [
            Result(
                GameCode.parse(c),
                o,
                s,
                f,
                k,
                None if w is None else bool(w),
                b,
                h,
                g,
                None if d is None else date.fromisoformat(d),
            )
            for c, o, s, f, k, w, b, h, g, d in rows
        ]

    # Dailies ------------------------------------------------------------------------------

    def daily_tag(self, game_id: str) -> daily.Tag | None:
        """Whether a game is a daily (and which day's, ranked or not): None for any other game."""
        with self._lock:
            record = self._cache.get(game_id)
            if record is not None:
                return record.daily
        rows = self._read("SELECT day, ranked FROM dailies WHERE game = ?", (game_id,))
        return daily.Tag(date.fromisoformat(rows[0][0]), bool(rows[0][1])) if rows else None

    def daily_games(self, player: str, day: date) -> list[Standing]:
        """The player's daily games of a day, oldest first (the ranked attempt first of all)."""
        rows = self._read(
            f"{_STANDING} JOIN games g ON g.id = d.game WHERE d.player = ? AND d.day = ?"
            " ORDER BY d.ranked DESC, g.created_at",
            (player, day.isoformat()),
        )
        return [Standing.of(row) for row in rows]

    def board(self, day: date, limit: int) -> tuple[list[Standing], int]:
        """The day's ``limit`` best finished ranked attempts in the board's order (none read for
        0), and how many there are."""
        rows = (
            self._read(
                f"{_STANDING} WHERE d.{_SHOWN.replace(' AND ', ' AND d.')}"
                f" ORDER BY {', '.join(f'd.{term}' for term in _BOARD_ORDER.split(', '))}"
                " LIMIT ?",
                (day.isoformat(), limit),
            )
            if limit
            else []
        )
        total = self._read(
            "SELECT COALESCE(sum(players), 0) FROM daily_scores WHERE day = ?",
            (day.isoformat(),),
        )
        return [Standing.of(row) for row in rows], int(total[0][0])

    def ranked_from(self, day: date, address: str) -> int:
        """How many ranked attempts of the day were started from a network (its address key)."""
        rows = self._read(
            "SELECT count(*) FROM dailies WHERE day = ? AND address = ? AND ranked = 1",
            (day.isoformat(), address),
        )
        return int(rows[0][0])

    def daily_code(self, day: date) -> GameCode | None:
        """The code the day's daily games were dealt from (None before any was made): the truth
        of a past day, even if the secret has changed since."""
        rows = self._read(
            "SELECT g.code FROM dailies d JOIN games g ON g.id = d.game WHERE d.day = ? LIMIT 1",
            (day.isoformat(),),
        )
        return GameCode.parse(rows[0][0]) if rows else None

    def rank(self, standing: Standing) -> int | None:
        """A standing's place on its day's board (equal figures share one); None for one that is
        not on the board (unfinished, or too fast for a person: Standing.shown)."""
        if not standing.shown:
            return None
        day, score, moves, seconds = (
            standing.day.isoformat(),
            standing.score,
            standing.moves,
            standing.seconds,
        )
        ahead = (day, score, day, score, moves, day, score, moves, seconds - _TIE)
        rows = self._read(_AHEAD, ahead)
        return int(rows[0][0]) + 1

    def daily_history(self, player: str, first: date, last: date) -> list[Standing]:
        """The player's ranked attempts from ``first`` to ``last`` (both included), newest first."""
        rows = self._read(
            f"{_STANDING} WHERE d.player = ? AND d.ranked = 1 AND d.day >= ? AND d.day <= ?"
            " ORDER BY d.day DESC",
            (player, first.isoformat(), last.isoformat()),
        )
        return [Standing.of(row) for row in rows]

    def finished_days(self, player: str) -> list[date]:
        """Every day the player finished their ranked attempt, newest first (for the streak)."""
        rows = self._read(
            "SELECT day FROM dailies WHERE player = ? AND ranked = 1 AND finished = 1"
            " ORDER BY day DESC",
            (player,),
        )
        return [date.fromisoformat(day) for (day,) in rows]

    def stage_hinted(self, game_id: str, player: str | None, kind: str = "perfect") -> Future[None]:
        """A hint of ``kind`` ("perfect" or "fair") was given in this game: its result will say
        so. A game that had a perfect hint stays "perfect"; nothing is written twice."""
        with self._lock:
            record = self._load(game_id, player)
            if record.hint == "perfect" or record.hint == kind:
                return _completed()
            record.hint = kind

            def write(db: Db) -> None:
                db.execute(_HINTED, (game_id, kind))

            done = self._stage(write, (record,)).done
        self._tell()
        return done

    def known_player(self, player: str) -> bool:
        """Whether a player id has anything stored: a game, a counted result or a nickname (an
        old cookie's bare id is accepted only then, web/identity.py)."""
        rows = self._read(
            "SELECT 1 FROM games WHERE player = ?"
            " UNION ALL SELECT 1 FROM results WHERE player = ?"
            " UNION ALL SELECT 1 FROM players WHERE player = ? LIMIT 1",
            (player, player, player),
        )
        return bool(rows)

    def nickname(self, player: str) -> str | None:
        rows = self._read("SELECT name FROM players WHERE player = ?", (player,))
        return str(rows[0][0]) if rows else None

    def has_played(self, player: str) -> bool:
        """Whether the player has a game: only a player who has played may choose a name, so that
        a name change never makes a player (PUT /api/player/name)."""
        return bool(self._read("SELECT 1 FROM games WHERE player = ? LIMIT 1", (player,)))

    def stage_nickname(self, player: str, name: str, key: str) -> Future[None]:
        """Set the player's nickname (checked by the caller: nickname.clean) and its look, ``key``
        (nickname.key); its completion fails with NameTaken when another player has that look.

        The unique index on ``players.skeleton`` decides, inside the commit's transaction, so that
        two players asking for one name on two workers cannot both have it. The write never fails
        the batch it is in (other players' moves): the claim is an insert that does nothing on a
        conflict (PostgreSQL waits for the other worker's commit first), the player's own row is
        taken out before it and put back when the claim came to nothing.
        """
        outcome: list[bool] = []
        with self._lock:

            def write(db: Db) -> None:
                outcome.clear()  # a batch may be written more than once (Storage.flush)
                old = db.execute(
                    "SELECT name, skeleton FROM players WHERE player = ?", (player,)
                ).fetchall()
                if old and old[0][1] == key:
                    db.execute("UPDATE players SET name = ? WHERE player = ?", (name, player))
                    outcome.append(True)
                    return
                db.execute("DELETE FROM players WHERE player = ?", (player,))
                claimed = bool(db.execute(_CLAIM, (player, name, key)).fetchall())
                if not claimed and old:
                    db.execute(_CLAIM, (player, *old[0])).fetchall()
                outcome.append(claimed)

            staged = self._stage(write, ()).done
        self._tell()
        done: Future[None] = Future()

        def settle(change: Future[None]) -> None:
            error = change.exception()
            if error is None and outcome != [True]:
                error = NameTaken()
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)

        staged.add_done_callback(settle)
        return done

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """A server setting by name; the first server to ask makes it (``make``) and stores it, and
        every later one, in any process, reads the stored value."""
        rows = self._read("SELECT value FROM settings WHERE name = ?", (name,))
        if rows:
            return str(rows[0][0])
        with self._flushing, self._transaction() as db:
            db.execute(
                "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (name, make()),
            )
            return str(
                db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()[0]
            )

    def _read(self, sql: str, args: Sequence[Any]) -> list[Any]:
        try:
            return self._rows(sql, args)
        except Exception as error:
            if self._is_unavailable(error):
                raise Unavailable(str(error)) from error
            raise

    # Inside the lock -----------------------------------------------------------------------

    def _stage(self, write: Write, records: tuple[Record, ...]) -> Change:
        change = Change(write, records)
        self._staged.append(change)
        for record in records:
            record.unsaved += 1
        return change

    def _tell(self) -> None:
        """A change was staged: tell whoever flushes (outside the store's lock)."""
        if self.on_staged is not None:
            self.on_staged()

    def _flush_for(self, done: Future[None]) -> None:
        """Flush until ``done`` is settled (another thread's flush may have taken it); raise its error."""
        while not done.done():
            self.flush()
        done.result()

    def _failed(self, batch: list[Change], error: Exception) -> list[Change]:
        """Undo a failed commit in memory: fail the batch and whatever stood on its games."""
        failure: Exception = Unavailable(str(error)) if self._is_unavailable(error) else error
        failed = self._drop(batch, lambda change: True)
        for change in failed:
            change.done.set_exception(failure)
        return failed

    def _moved_on(self, moved: list[Change]) -> list[Change]:
        """Refuse the actions whose game moved on elsewhere, and those staged on top of them, with
        the stored game; a retry that the other process stored already answers as stored."""
        failed = self._drop(moved, lambda change: change.action is not None)
        for change in failed:
            record = change.records[0]
            try:
                with self._lock:
                    if change.request is not None and self._stored_already(change):
                        change.done.set_result(None)
                        continue
                    stored = self._load(record.id, record.player)
                    refusal: Exception = StaleVersion(stored.game.copy(), stored.daily)
            except Exception as error:
                refusal = Unavailable(str(error)) if self._is_unavailable(error) else error
            change.done.set_exception(refusal)
        return failed

    def _stored_already(self, change: Change) -> bool:
        """The same request id, action and version are in the database (sent twice, stored once:
        the other time through another process, which is why this one reads)."""
        assert change.request is not None and change.action is not None
        rows = self._read(
            "SELECT seq, action FROM actions WHERE game = ? AND request_id = ?", change.request
        )
        action, after = change.action
        return bool(rows) and Action.parse(rows[0][1]) == action and rows[0][0] == after - 1

    def _drop(self, first: list[Change], chains: Callable[[Change], bool]) -> list[Change]:
        """Take ``first`` and every staged change on their games that ``chains`` out of memory."""
        with self._lock:
            failed = list(first)
            touched = {record.id for change in first for record in change.records}
            kept: list[Change] = []
            for change in self._staged:  # in staging order, so a chain fails whole
                if chains(change) and any(record.id in touched for record in change.records):
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
        return failed

    def _forget_request(self, change: Change) -> None:
        if change.request is not None:
            seen = self._seen.get(change.request)
            if seen is not None and seen.done is change.done:
                del self._seen[change.request]

    def _request(self, record: Record, request_id: str) -> _Seen | None:
        """The action this request id was used for on this game, staged or committed, from memory.

        A shared store's other workers may have committed one since the game was cached; then
        this game is behind the database, an action taken on it is refused by the commit's version
        check, and ``_stored_already`` reads what they stored (``_moved_on``)."""
        seen = self._seen.get((record.id, request_id))
        if seen is not None:
            return seen
        known = record.requests.get(request_id)
        return None if known is None else _Seen(known[0], known[1], _completed())

    @staticmethod
    def _again(record: Record, seen: _Seen) -> Applied:
        """The turn of an action already applied, from the game as it was just before it."""
        code = record.game.code
        assert code is not None
        log = record.game.actions
        before = Game.replay(code, log[: seen.seq])
        return Applied(before.apply(log[seen.seq]), before, seen.done, record.daily, again=True)

    def _leave_unfinished(
        self, player: str, unsettled: dict[str, list[Any]], keep: str
    ) -> list[tuple[Record, bool]]:
        """Leave every game of the player that is not over, but ``keep`` (the game being made):
        (record, whether it counts as lost). ``unsettled``: the player's stored games not settled,
        by id, each its stored version row (read before the lock; a game this process settled
        since is over in its cache)."""
        ids = {r.id for r in self._cache.values() if r.player == player and not r.game.is_over}
        ids.update(unsettled)
        ids.discard(keep)
        leaving: list[tuple[Record, bool]] = []
        for game_id in sorted(ids):
            record = self._load(game_id, player, fresh=True, stored=unsettled.get(game_id))
            if record.game.is_over:  # won (its own change settles it) or left already
                continue
            leaving.append((record, record.game.leaving_counts_as_loss))
            record.game.leave()
        return leaving

    def _load(
        self,
        game_id: str,
        player: str | None,
        *,
        fresh: bool = False,
        stored: list[Any] | None = None,
    ) -> Record:
        """The live game, replayed from the database if not cached; ``fresh`` in a shared store
        first checks a cached game without staged changes against the stored version (``stored``:
        that row, read already). A version read before a commit of this process is behind it: the
        game is then replayed, which costs a read but is never wrong."""
        record = self._cache.get(game_id)
        if record is not None and fresh and self.shared and not record.unsaved:
            row = self._read(_STORED, (game_id,)) if stored is None else stored
            if not row or (row[0][0], bool(row[0][1])) != (record.stored, record.game.is_over):
                del self._cache[game_id]
                record = None
        if record is None:
            rows = self._read(
                "SELECT player, code, version, settled FROM games WHERE id = ?", (game_id,)
            )
            if not rows:
                raise UnknownGame(game_id)
            owner, code, version, settled = rows[0]
            logged = self._read(
                "SELECT seq, action, request_id FROM actions"
                f" WHERE game = ? AND seq < {int(version)} ORDER BY seq",
                (game_id,),
            )
            actions = [Action.parse(text) for _, text, _ in logged]
            requests = {rid: (seq, actions[i]) for i, (seq, _, rid) in enumerate(logged) if rid}
            game = Game.replay(code, actions)
            if len(game.actions) != version:
                raise RuntimeError(f"game {game_id} has {len(game.actions)} actions, not {version}")
            if settled:  # won, or left for another game: over either way
                game.leave()
            tagged = self._read(
                "SELECT day, ranked, first_at FROM dailies WHERE game = ?", (game_id,)
            )
            tag, first_at = None, None
            if tagged:
                tag = daily.Tag(date.fromisoformat(tagged[0][0]), bool(tagged[0][1]))
                first_at = tagged[0][2]
            hinted = self._read("SELECT kind FROM hinted_games WHERE game = ?", (game_id,))
            hint = hinted[0][0] if hinted else None
            record = Record(
                game_id,
                owner,
                game,
                stored=version,
                daily=tag,
                first_at=first_at,
                hint=hint,
                requests=requests,
            )
            self._remember(record)
        else:
            self._cache.move_to_end(game_id)
        if player is None or record.player != player:
            raise UnknownGame(game_id)
        return record

    def _remember(self, record: Record) -> None:
        self._cache[record.id] = record
        self._cache.move_to_end(record.id)
        if len(self._cache) > CACHE_SIZE:
            for old in [r for r in self._cache.values() if not r.unsaved]:
                if len(self._cache) <= CACHE_SIZE:
                    break
                del self._cache[old.id]

    def _verdict(self, game: Game, tag: daily.Tag | None) -> Verdict | None:
        """The verdict a counted game keeps; none for a daily of a day still open, whose deal's
        best score and grade the player's statistics would otherwise tell."""
        return None if daily.secret(tag) else self.judge(_code_of(game))

    def _daily_figures(self, record: Record, now: float) -> tuple[Any, ...] | None:
        """A ranked daily's figures after its latest action (_DAILY_MOVE's parameters), or None:
        for any other game, and for a ranked attempt played on after its day closed (it stands on
        the board as it was then). Its first action's time is kept from then on, in memory as in
        the table."""
        if not daily.counts(record.daily):
            return None
        game = record.game
        if record.first_at is None:
            record.first_at = now
        ended = daily.ended(game)
        too_fast = ended and daily.too_fast(now - record.first_at, len(game.actions))
        return (
            int(ended),
            int(game.is_won),
            game.score,
            game.moves,
            game.longest_streak,
            daily.peaks_mask(game),
            now,
            now,
            now,
            now,
            int(too_fast),
            record.id,
        )

    # Inside the commit's transaction -------------------------------------------------------

    def _inserted(self, db: Db, sql: str, args: Sequence[Any]) -> None:
        """An INSERT that must insert its row, else the change fails as moved on (_MovedOn)."""
        if not db.execute(sql, args).rowcount:
            raise _MovedOn

    def _stage_daily(self, db: Db, record: Record, tag: daily.Tag, address: str | None) -> None:
        """A daily game's row; a ranked attempt whose player has one of the day already (made
        before attempts had their own id) is stored unranked instead, and the live game is told."""
        row = (record.id, tag.day.isoformat(), record.player, address)
        if (
            tag.ranked
            and db.execute(
                "INSERT INTO dailies (game, day, player, address, ranked) VALUES (?, ?, ?, ?, 1)"
                " ON CONFLICT DO NOTHING",
                row,
            ).rowcount
        ):
            return
        db.execute(
            "INSERT INTO dailies (game, day, player, address, ranked) VALUES (?, ?, ?, ?, 0)", row
        )
        if tag.ranked:
            record.daily = replace(tag, ranked=False)

    def _leave_stored(self, db: Db, game_id: str, player: str) -> None:
        """Leave a game as the database holds it (it moved on through another process)."""
        while True:
            row = db.execute(
                "SELECT code, version, settled FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None or row[2]:
                return
            code, version, _settled = row
            log = db.execute(
                "SELECT action FROM actions WHERE game = ? AND seq < ? ORDER BY seq",
                (game_id, version),
            ).fetchall()
            game = Game.replay(code, [Action.parse(text) for (text,) in log])
            if db.execute(_LEAVE, (Status.LEFT.value, game_id, version)).rowcount:
                if game.leaving_counts_as_loss:
                    hinted = db.execute(
                        "SELECT kind FROM hinted_games WHERE game = ?", (game_id,)
                    ).fetchone()
                    tagged = db.execute(
                        "SELECT day, ranked FROM dailies WHERE game = ?", (game_id,)
                    ).fetchone()
                    tag = (
                        None
                        if tagged is None
                        else daily.Tag(date.fromisoformat(tagged[0]), bool(tagged[1]))
                    )
                    verdict = self._verdict(game, tag)
                    hint = None if hinted is None else hinted[0]
                    self._count(db, player, game_id, game, "lost", verdict, hint)
                return

    def _move(self, db: Db, won: bool, row: tuple[Any, ...], logged: tuple[Any, ...]) -> bool:
        """Store one action: the game row, if still at the action's version, then its log line.
        False, with nothing written, when the game moved on elsewhere."""
        if not db.execute(_WON if won else _PLAYED, row).rowcount:
            return False
        db.execute(_LOG, logged)
        return True

    def _count(
        self,
        db: Db,
        player: str,
        game_id: str,
        game: Game,
        outcome: str,
        verdict: Verdict | None = None,
        hint: str | None = None,
    ) -> None:
        """One result per game: a game settled once is never counted again; with the solver's
        verdict on its deal and whether a hint was asked (stats.count counts them apart)."""
        inserted = db.execute(
            "INSERT INTO results (player, game, code, outcome, score, finished_at, streak)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (
                player,
                game_id,
                str(game.code),
                outcome,
                game.score,
                time.time(),
                game.longest_streak,
            ),
        ).rowcount
        if inserted:
            if verdict is not None:
                db.execute(
                    "INSERT INTO verdicts (game, winnable, best, hinted, grade, hint)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        int(verdict.winnable),
                        verdict.best,
                        int(hint is not None),
                        verdict.grade,
                        hint,
                    ),
                )
            self._lock_player(db, player)
            row = db.execute(
                f"SELECT {_TOTALS} FROM totals WHERE player = ? AND rules = ?",
                (player, game.variant.key),
            ).fetchone()
            totals = count(
                Totals(*row) if row else Totals(),
                outcome,
                game.score,
                game.longest_streak,
                verdict,
                hint,
            )
            db.execute(_TOTALS_UPSERT, (player, game.variant.key, *astuple(totals)))


def _code_of(game: Game) -> GameCode:
    assert game.code is not None  # the store's games are all dealt from codes
    return game.code


class _Beside:
    """What SQLite maps into memory beside a database: its WAL index, the ``-shm`` file.

    A mapped file that can no longer back its pages is a SIGBUS at the next read or write of
    them, and the server dies without a reply or a line in the log: the file system went
    read-only, or the file was cut short or replaced (another program opening the database
    without its locks re-creates it). :meth:`check` looks first, before each transaction, and
    refuses it with an error the store answers 503, saying why. It costs two ``stat`` calls.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder = str(path.parent)
        self.shm = str(path.with_name(path.name + "-shm"))
        self.seen: tuple[int, int] | None = None
        """The index's inode and the largest size it had: SQLite grows it, never shrinks it."""

    def check(self) -> None:
        if os.statvfs(self.folder).f_flag & os.ST_RDONLY:
            raise sqlite3.OperationalError(f"the file system holding {self.path} is read-only")
        try:
            found = os.stat(self.shm)
        except FileNotFoundError:
            if self.seen is None:
                return  # not made yet: SQLite makes it with the first WAL transaction
            raise sqlite3.OperationalError(f"{self.shm} was removed: restart the server") from None
        if self.seen is not None:
            inode, size = self.seen
            if found.st_ino != inode or found.st_size < size:
                raise sqlite3.OperationalError(
                    f"{self.shm} was replaced or cut short: restart the server"
                )
        self.seen = found.st_ino, found.st_size


class _Guarded(sqlite3.Connection):
    """A connection that checks :class:`_Beside` before each transaction it begins."""

    beside: _Beside

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if not self.in_transaction:
            self.beside.check()
        return super().execute(sql, parameters)


def _connect(path: Path, beside: _Beside | None = None) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, factory=_Guarded)
    db.beside = beside or _Beside(path)
    db.execute("PRAGMA mmap_size=0")  # the database file itself is never mapped (see _Beside)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=5000")
    return db


class Store(Storage):
    """Games and results of every player in one SQLite file (WAL, durable commits).

    One process owns the file (``tripeaks serve`` claims it), so the cache needs no checking.
    """

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._beside = _Beside(self.path)
        self._writer = _connect(self.path, self._beside)
        try:
            if migrations.sqlite_revision(self._writer) != migrations.HEAD:
                migrations.upgrade(self.path)
        except BaseException:
            self._writer.close()
            raise
        self._reader = _connect(self.path, self._beside)

    def close(self) -> None:
        with self._flushing, self._lock, self._reading:
            self._writer.close()
            self._reader.close()

    @contextmanager
    def _transaction(self) -> Iterator[Db]:
        self._writer.execute("BEGIN IMMEDIATE")
        try:
            yield self._writer
            self._writer.execute("COMMIT")
        except BaseException:
            if self._writer.in_transaction:
                self._writer.execute("ROLLBACK")
            raise

    def _rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        with self._reading:
            return self._reader.execute(sql, args).fetchall()

    def _is_unavailable(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.OperationalError | OSError)


def open_store(target: str | Path) -> Storage:
    """The store for ``--db``: a ``postgresql://`` URL, or else the path of a SQLite file."""
    if isinstance(target, str) and target.startswith(("postgresql://", "postgres://")):
        from tripeaks.store.postgres import PgStore

        return PgStore(target)
    return Store(target)
