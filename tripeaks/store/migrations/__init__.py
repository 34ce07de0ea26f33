"""The schema of both databases, made and upgraded in place by Alembic revisions (versions/).

The revisions are the only place the tables are written down: a new database is made by running
them all, an older one by running those it lacks, each upgrade in one transaction (SQLite's
``BEGIN IMMEDIATE``, PostgreSQL's under the advisory lock :data:`tripeaks.store.common.SCHEMA_LOCK`,
so workers starting together upgrade once). A database made before migrations existed has no
``alembic_version``: it is recognised by its tables and columns (:func:`recognise`) and stamped
with the revision it matches first. One at a revision this code does not know was made by a newer
tripeaks and is refused (:class:`NewerSchema`): an older tripeaks must not write to it.

Alembic and SQLAlchemy are imported only when a database is not at :data:`HEAD` (importing them
costs more than half a second): the stores read ``alembic_version`` on their own connections first.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

HEAD = "0011"
"""The newest revision in versions/ (a test checks it against Alembic's own view)."""
FOLDER = Path(__file__).parent
TABLES = ("games", "actions", "results")
"""The tables of the baseline: a database with all of them is ours, one with some is not."""


class NewerSchema(Exception):
    """The database is at a revision this tripeaks does not know: a newer one upgraded it."""

    def __init__(self, revision: str) -> None:
        super().__init__(
            f"its schema is at revision {revision}, newer than this tripeaks knows (up to {HEAD});"
            " it was upgraded by a newer tripeaks: run that one"
        )
        self.revision = revision


class NotOurs(Exception):
    """The database has some of our tables but not all: not one that tripeaks made."""


def sqlite_revision(db: sqlite3.Connection) -> str | None:
    """The revision a SQLite database is stamped with (None: not stamped), on the store's own
    connection, without importing Alembic."""
    try:
        row = db.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.OperationalError:  # no such table
        return None
    return None if row is None else str(row[0])


def upgrade(target: str | Path) -> tuple[str | None, str]:
    """Bring the database (a SQLite path or a ``postgresql://`` URL) to HEAD: (from, to)."""
    if isinstance(target, str) and target.startswith(("postgresql://", "postgres://")):
        return _upgrade(_pg_engine(target), "SELECT pg_advisory_xact_lock(:lock)")
    return _upgrade(_sqlite_engine(Path(target)), None)


def recognise(connection: Connection) -> str | None:
    """The revision a database made before migrations existed is at, from its tables and
    columns; None for a database without our tables (everything is made from the start)."""
    from sqlalchemy import inspect

    inspector = inspect(connection)
    tables = set(inspector.get_table_names())
    present = [name for name in TABLES if name in tables]
    if not present:
        return None
    if len(present) != len(TABLES):
        missing = ", ".join(name for name in TABLES if name not in tables)
        raise NotOurs(f"it has some of tripeaks's tables but not {missing}")
    if "streak" not in {column["name"] for column in inspector.get_columns("results")}:
        return "0001"  # 23cbfb5 and before
    if "totals" not in tables:
        return "0002"  # a5f5eb3 up to 73db35b
    return "0003"  # the last version before migrations: stamped at this one from now on


def config(connection: Connection | None) -> Any:
    """Alembic's configuration, made here (no alembic.ini), with the connection to run on (None
    for commands that need none, such as ``command.revision``)."""
    from alembic.config import Config

    settings = Config()
    settings.set_main_option("script_location", str(FOLDER))
    settings.attributes["connection"] = connection
    return settings


def _upgrade(engine: Any, lock: str | None) -> tuple[str | None, str]:
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    try:
        with engine.connect() as connection, connection.begin():
            if lock is not None:
                from tripeaks.store.common import SCHEMA_LOCK

                connection.execute(text(lock), {"lock": SCHEMA_LOCK})
            context = MigrationContext.configure(connection)
            script = ScriptDirectory(str(FOLDER))
            before = context.get_current_revision()
            if before is None:
                before = recognise(connection)
                if before is not None:
                    context.stamp(script, before)
            elif before != HEAD:
                try:
                    script.get_revision(before)
                except CommandError:
                    raise NewerSchema(before) from None
            if before != HEAD:
                command.upgrade(config(connection), "head")
            return before, HEAD
    except DBAPIError as error:  # the driver's own error, as the stores raise and catch them
        if isinstance(error.orig, Exception):
            raise error.orig from error
        raise
    finally:
        engine.dispose()


def _sqlite_engine(path: Path) -> Any:
    """One plain connection whose transactions are ``BEGIN IMMEDIATE`` (DDL included: Python's
    sqlite3 would otherwise run CREATE TABLE outside any transaction)."""
    from sqlalchemy import create_engine, event
    from sqlalchemy.pool import NullPool

    def connect() -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA busy_timeout=5000")
        return db

    engine = create_engine("sqlite://", creator=connect, poolclass=NullPool)

    def begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    event.listen(engine, "begin", begin)
    return engine


def _pg_engine(url: str) -> Any:
    """One psycopg connection made from our own URL as libpq reads it (options, query passwords
    and ``postgres://`` included, which SQLAlchemy's URL parser would have to be taught)."""
    import psycopg
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    from tripeaks.store.common import CONNECT_WAIT

    def connect() -> Any:
        return psycopg.connect(url, connect_timeout=CONNECT_WAIT)

    return create_engine("postgresql+psycopg://", creator=connect, poolclass=NullPool)
