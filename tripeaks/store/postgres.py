"""Persistence in PostgreSQL, for a hosted server whose workers (and machines) share one database.

Everything a store does is :class:`tripeaks.store.core.Storage`'s; this module brings the connections
(a psycopg pool: commits and reads each borrow one) and the SQL PostgreSQL is sent otherwise. Several processes write at
once, so the store is ``shared``: a cached game is trusted only while its stored version and
settledness are what this process last saw, and an action's UPDATE checks the version it was
applied to, so two workers taking actions on one game at once store one and refuse the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import ConnectionPool

from tripeaks.store import migrations
from tripeaks.store.common import CONNECT_WAIT, Db, Rows, Unavailable
from tripeaks.store.core import Change, Storage
from tripeaks.store.policy import Policy
from tripeaks.store.sql import PLAYED, WON

POOL_SIZE = 4
"""Connections per process: the commit thread holds one; reads of the event loop take another."""
WAIT = 2.0
"""Seconds a request waits for a connection before it is answered 503 (the database is away)."""
RECONNECT = 1.0
"""Seconds psycopg_pool goes on trying (with its backoff: 1 s, then 2 s, ...) to open a connection
the database refused, before it gives up; the next request that needs one tries afresh. Its
default of five minutes let the backoff grow to 8 s while the database was away, and the pool
then opened nothing for as long after it was back."""


def _revision(db: psycopg.Connection[Any]) -> str | None:
    """The revision the database is stamped with (None: not stamped), without Alembic."""
    if db.execute("SELECT to_regclass('alembic_version')").fetchone() == (None,):
        return None
    row = db.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


_MOVE_AND_LOG = {
    won: f"WITH moved AS ({update} RETURNING 1)"
    " INSERT INTO actions (game, seq, action, request_id) SELECT ?, ?, ?, ? FROM moved"
    for won, update in ((False, PLAYED), (True, WON))
}
"""An action's UPDATE and its log line in one statement: the line is inserted only if the UPDATE
matched (the game was still at the action's version), so its row count says which."""

_MOVE_AND_LOG_OR_FAIL = {
    won: f"WITH moved AS ({update} RETURNING 1)"
    " INSERT INTO actions (game, seq, action, request_id) SELECT ?, ?, ?, ?"
    " FROM (SELECT count(*) AS n FROM moved) AS m WHERE 1 / m.n = 1"
    for won, update in ((False, PLAYED), (True, WON))
}
"""The same statement for a batch sent as one message, where nobody reads its row count: when the
UPDATE matched nothing (the game moved on elsewhere) it divides by zero, which fails the message
and with it the whole batch, written again one statement at a time (PgStore._write)."""

_MOVE_TYPES = "integer, integer, integer, text, text, integer, text, integer, text, text"
"""The types of a move's ten values: the game row's version, moves, score, status, id and the
version it was at, then the log line's game, seq, action and request id."""


def _numbered(text: str) -> str:
    """The store's ``?`` placeholders as PostgreSQL's own ``$1``, ``$2`` …, for PREPARE."""
    parts = text.split("?")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]


_PREPARE = [
    f"PREPARE tripeaks_move_{int(won)} ({_MOVE_TYPES}) AS {_numbered(sql)}".encode()
    for won, sql in _MOVE_AND_LOG_OR_FAIL.items()
]
"""Each pooled connection prepares the message's move statements once (PgStore._prepare), so a
message asks PostgreSQL to parse and plan only ``EXECUTE``; psycopg prepares the statements it
binds on the server by itself."""
_EXECUTE_MOVE = {
    won: f"EXECUTE tripeaks_move_{int(won)}({', '.join('?' * 10)})" for won in (False, True)
}


_T = TypeVar("_T")


@cache
def _sql(text: str) -> str:
    """The store's ``?`` placeholders in psycopg's style (its SQL has no other ``?`` or ``%``)."""
    return text.replace("?", "%s")


class _Connection:
    """A psycopg connection that takes the store's SQL."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self._connection = connection

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Rows:
        return self._connection.execute(_sql(sql), parameters)


class _Pipelined(_Connection):
    """A connection in pipeline mode: statements go out without waiting for each answer, and
    the actions' UPDATEs are counted once the batch's answers are in (PgStore._write)."""

    def __init__(self, connection: psycopg.Connection[Any], pipeline: psycopg.Pipeline) -> None:
        super().__init__(connection)
        self.pipeline = pipeline
        self.moves: list[_Answer] = []

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> _Answer:
        return _Answer(super().execute(sql, parameters), self.pipeline)


class _Answer:
    """A pipelined statement's rows: asking how many it changed waits for the answers so far
    (fetching waits by itself), so code written for one statement at a time reads it right."""

    def __init__(self, rows: Rows, pipeline: psycopg.Pipeline) -> None:
        self.rows = rows
        self._pipeline = pipeline

    @property
    def rowcount(self) -> int:
        self._pipeline.sync()  # a round trip: for the few statements whose count decides
        return self.rows.rowcount

    def fetchone(self) -> Any:
        return self.rows.fetchone()

    def fetchall(self) -> list[Any]:
        return self.rows.fetchall()


class _NeedsAnswer(Exception):
    """A change asked for a statement's answer before it went on: its batch is not one message."""


class _Unanswered:
    """A statement of a message not sent yet: it has no answer to give."""

    @property
    def rowcount(self) -> int:
        raise _NeedsAnswer

    def fetchone(self) -> Any:
        raise _NeedsAnswer

    def fetchall(self) -> list[Any]:
        raise _NeedsAnswer


_UNANSWERED = _Unanswered()


class _Message:
    """A batch's statements gathered into one simple-query message, each value bound on the client
    (psycopg quotes it as a literal). PostgreSQL runs such a message as one transaction, in one
    round trip; psycopg's pipeline took four times the CPU for the same batch (docs/decisions.md)."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.cursor = psycopg.ClientCursor(connection)
        self.statements: list[str] = []

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> _Unanswered:
        self.statements.append(self.cursor.mogrify(_sql(sql), parameters))
        return _UNANSWERED

    def send(self) -> None:
        if self.statements:
            self.cursor.execute(";\n".join(self.statements))


class _Behind(Exception):
    """A pipelined batch held an action whose game moved on: it is written again one by one."""


def redacted(url: str) -> str:
    """The URL without its password, for the console and logs: in the user part or a query
    parameter (libpq takes ``?password=`` too)."""
    parts = urlsplit(url)
    if parts.password is not None:
        host = parts.netloc.rpartition("@")[2]
        url = urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    return _QUERY_PASSWORD.sub(r"\1***", url)


_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)


class PgStore(Storage):
    """Games and results of every player in one PostgreSQL database, shared by every worker."""

    shared = True

    def __init__(
        self,
        url: str,
        policy: Policy | None = None,
        *,
        pool_size: int = POOL_SIZE,
        wait: float = WAIT,
    ) -> None:
        super().__init__(policy)
        self.url = url
        self._pool = ConnectionPool(
            url,
            min_size=2,
            max_size=pool_size,
            timeout=wait,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_WAIT},
            open=False,
            name="tripeaks",
            configure=self._prepare,
            reconnect_timeout=RECONNECT,
        )
        try:  # one plain connection first: if the database is not there, its error says why
            with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_WAIT) as db:
                stamped = _revision(db)
            if stamped != migrations.HEAD:
                migrations.upgrade(url)  # under SCHEMA_LOCK, where it reads the revision again
            self._pool.open(wait=True, timeout=CONNECT_WAIT)
        except BaseException as error:
            self._pool.close()
            if isinstance(error, psycopg.Error):
                raise Unavailable(str(error).strip().splitlines()[0]) from error
            raise

    def close(self) -> None:
        with self._flushing, self._lock:
            self._pool.close()

    @staticmethod
    def _prepare(connection: psycopg.Connection[Any]) -> None:
        """A new pooled connection prepares the move statements a message executes."""
        for statement in _PREPARE:
            connection.execute(statement)

    @contextmanager
    def _borrowed(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection; if it turns out dead, every idle one is dropped with it.

        A connection dies with its server: after PostgreSQL restarts, every connection the pool
        holds is dead, and each would fail one request in turn (psycopg_pool's own ``check`` on
        taking one pauses a second between two dead ones). Drained, the pool opens new ones at once.
        """
        with self._pool.connection() as connection:
            try:
                yield connection
            except psycopg.OperationalError:
                if connection.broken:
                    self._pool.drain()
                raise

    def _once_more(self, work: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """``work`` on a pooled connection, and once more on a new one if that one was dead: for
        reads (and the rate limits' statement), which nothing applies twice."""
        died = False
        try:
            with self._borrowed() as connection:
                try:
                    return work(connection)
                except psycopg.OperationalError:
                    died = connection.broken
                    raise
        except psycopg.OperationalError:
            if not died:
                raise
        with self._borrowed() as connection:
            return work(connection)

    @contextmanager
    def _transaction(self) -> Iterator[Db]:
        with self._borrowed() as connection, connection.transaction():
            yield _Connection(connection)

    def _rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return self._once_more(lambda connection: connection.execute(_sql(sql), args).fetchall())

    def statement(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """One statement (psycopg's ``%s`` parameters) on a pooled connection, committed by itself:
        for what belongs to no game, the shared rate limits (web/ratelimit_pg.py)."""

        def run(connection: psycopg.Connection[Any]) -> list[Any]:
            cursor = connection.execute(sql.encode(), args)
            return cursor.fetchall() if cursor.description else []

        return self._once_more(run)

    def _is_unavailable(self, error: BaseException) -> bool:
        return isinstance(error, psycopg.OperationalError | psycopg.InterfaceError | OSError)

    def _move(self, db: Db, won: bool, row: tuple[Any, ...], logged: tuple[Any, ...]) -> bool:
        """The same two statements as one: a round trip less for every action of a commit."""
        if isinstance(db, _Message):
            db.execute(_EXECUTE_MOVE[won], (*row, *logged))
            return True  # a game that moved on fails the whole message
        rows = db.execute(_MOVE_AND_LOG[won], (*row, *logged))
        if isinstance(db, _Pipelined):
            assert isinstance(rows, _Answer)
            db.moves.append(rows)  # counted once the batch's answers are in
            return True
        return bool(rows.rowcount)

    def _inserted(self, db: Db, sql: str, args: Sequence[Any]) -> None:
        """In a pipeline the row count is checked with the moves' once the batch's answers are in
        (a conflict rolls the batch back, and it is written again one statement at a time)."""
        if isinstance(db, _Pipelined):
            answer = db.execute(sql, args)
            assert isinstance(answer, _Answer)
            db.moves.append(answer)
            return
        super()._inserted(db, sql, args)

    def _write(self, batch: list[Change]) -> list[Change]:
        """The batch as one message when no change of it reads an answer (most are plain moves),
        else in one pipelined transaction. When an action's game moved on elsewhere (another
        worker wrote it), nothing of the batch is kept and it is written again one statement at a
        time (Storage._write), which sorts out what moved."""
        stored = self._as_message(batch)
        if stored is None:
            stored = self._pipelined(batch)
        return [] if stored else super()._write(batch)

    def _as_message(self, batch: list[Change]) -> bool | None:
        """Send the batch as one message: True once it is committed, False when a game of it moved
        on (the message failed whole), None when a change of it reads an answer (nothing sent)."""
        with self._borrowed() as connection:
            message = _Message(connection)
            try:
                for change in batch:
                    change.write(message)
            except _NeedsAnswer:
                return None
            try:
                message.send()
            except psycopg.errors.DivisionByZero:  # _MOVE_AND_LOG_OR_FAIL: a game moved on
                return False
            return True

    def _pipelined(self, batch: list[Change]) -> bool:
        """The batch in one transaction in pipeline mode: one round trip for all its statements
        rather than one each (a statement that reads waits for its answer, as it must). False,
        rolled back, when an action's game moved on."""
        try:
            with (
                self._borrowed() as connection,
                connection.pipeline() as pipeline,
                connection.transaction(),
            ):
                db = _Pipelined(connection, pipeline)
                for change in batch:
                    change.write(db)
                pipeline.sync()  # every answer is in: one round trip for the whole batch
                if not all(answer.rows.rowcount for answer in db.moves):
                    raise _Behind
        except _Behind:
            return False
        return True

    def _is_crossed(self, error: BaseException) -> bool:
        return isinstance(error, psycopg.errors.DeadlockDetected)

    def _lock_player(self, db: Db, player: str) -> None:
        db.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (player,))
