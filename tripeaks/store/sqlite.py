"""The SQLite store, the embedded default: one file in WAL mode, durable commits, one process.

Everything a store does is :class:`tripeaks.store.core.Storage`'s; this module brings the
connections (one writer, one reader) and the guard against what SQLite maps beside the file.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tripeaks.store import migrations
from tripeaks.store.common import Db
from tripeaks.store.core import Storage
from tripeaks.store.policy import Policy


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

    def __init__(self, path: str | Path, policy: Policy | None = None) -> None:
        super().__init__(policy)
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


def open_store(target: str | Path, policy: Policy | None = None) -> Storage:
    """The store for ``--db``: a ``postgresql://`` URL, or else the path of a SQLite file; with
    the policy of the competition's rules (daily.Policy; none: policy.Bare)."""
    if isinstance(target, str) and target.startswith(("postgresql://", "postgres://")):
        from tripeaks.store.postgres import PgStore

        return PgStore(target, policy)
    return Store(target, policy)
