"""Fixtures every API test module shares (helpers to import live in test_api_support.py).

The API runs on both databases: ``database`` is a new SQLite file or an emptied schema in the
PostgreSQL cluster that ``make test`` starts (tests/pg_cluster.sh) and names in TRIPEAKS_TEST_PG;
a run without it starts a cluster of its own the same way, so the PostgreSQL tests always run.

Either is already at the newest revision, with no row but the revision's: migrating a database
costs a fifth of a second (PostgreSQL) or a tenth (SQLite), hundreds of times a run, and what the
migrations make is the business of test_migrations.py. A SQLite file is a copy of one migrated once
a worker; a schema is migrated once and emptied after each test for the next one (:class:`Schemas`).
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import pytest
from fastapi.testclient import TestClient
from test_api_support import CLUSTER, PG_VARIABLE, api, pg_url

from tripeaks import daily
from tripeaks.store import migrations

DATABASES = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    """Make sure a PostgreSQL cluster is there before any test: ``make test``'s, or one made here
    (in the main process only: xdist's workers inherit its URL from the environment)."""
    if os.environ.get(PG_VARIABLE) or hasattr(config, "workerinput"):
        return
    if os.environ.get("CI") == "true":
        raise pytest.UsageError(
            f"CI=true but {PG_VARIABLE} is not set: `make test` starts the throwaway cluster."
        )
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        raise pytest.UsageError(
            "PostgreSQL is not installed: `make test` installs it (or set TRIPEAKS_TEST_PG)."
        )
    folder = tempfile.mkdtemp(prefix="tripeaks-pg-")  # /tmp: the postgres user must reach it
    started = subprocess.run(
        ["sh", str(CLUSTER), "start", folder], capture_output=True, text=True, timeout=120
    )
    if started.returncode != 0:
        raise pytest.UsageError(f"could not start a PostgreSQL cluster: {started.stderr}")
    os.environ[PG_VARIABLE] = started.stdout.strip()
    config.add_cleanup(
        lambda: subprocess.run(["sh", str(CLUSTER), "stop", folder], capture_output=True)
    )


@pytest.fixture(autouse=True, scope="session")
def one_day() -> Iterator[None]:
    """The whole run happens on the UTC day it started: a run that crosses midnight would play
    one day's deal of the day and then read the next day's board (CI did, at 00:00): the daily's
    clock stops at the day's last instant. The servers these tests start in-process read the same
    clock; a test of the day changing pins its own time over this one (test_api_support.at)."""
    last = datetime.combine(daily.today(), time.max, UTC)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(daily, "clock", lambda: min(datetime.now(UTC), last))
        yield


def fresh_schema() -> str:
    """A URL of the test cluster whose tables live in a schema of their own (made here)."""
    url = pg_url()
    schema = f"t_{secrets.token_hex(8)}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}', safe='')}"


SHAPE = """
SELECT md5(string_agg(part, ';' ORDER BY part)) FROM (
    SELECT format('%s %s %s %s %s %s', c.relname, c.relkind, a.attname, a.atttypid::regtype,
                  a.attnotnull, pg_get_expr(d.adbin, d.adrelid)) AS part
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL
    SELECT replace(pg_get_indexdef(i.indexrelid), current_schema() || '.', '')
    FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
    WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL
    SELECT format('%s %s', conname, pg_get_constraintdef(oid)) FROM pg_constraint
    WHERE connamespace = current_schema()::regnamespace
    UNION ALL
    SELECT 'revision ' || version_num FROM alembic_version
) AS parts
"""
"""One digest of a schema's tables, columns, defaults, indexes, constraints and revision."""
EMPTIED = """
SELECT string_agg(format('%I', relname), ', ') FROM pg_class
WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p')
AND relname <> 'alembic_version'
"""
"""Every table a schema's rows are emptied from (all but the revision's)."""


class Schemas:
    """Schemas at the newest revision, each emptied after its test for the next one (a worker's).

    A schema is given out again only as it was made: with the same tables, columns, indexes and
    revision (:data:`SHAPE`), every table emptied and its identities restarted, waiting at most a
    second for a lock. Anything else (a test that undid a revision, a connection it left in a
    transaction) drops the schema, and the next test gets a new one."""

    def __init__(self) -> None:
        self.free: list[str] = []
        self.shape: str | None = None

    def take(self) -> str:
        """The URL of an empty schema at the newest revision."""
        if self.free:
            return self.free.pop()
        url = fresh_schema()
        migrations.upgrade(url)
        if self.shape is None:
            with psycopg.connect(url) as db:
                self.shape = _shape(db)
        return url

    def give_back(self, url: str) -> None:
        """Empty the schema for the next test, or drop it."""
        try:
            with psycopg.connect(url) as db:
                db.execute("SET LOCAL lock_timeout = '1s'")
                row = db.execute(EMPTIED).fetchone()
                if row is None or not row[0] or _shape(db) != self.shape:
                    raise LookupError("not the schema it was made")
                db.execute(f"TRUNCATE {row[0]} RESTART IDENTITY")  # type: ignore[arg-type]
        except (psycopg.Error, LookupError):
            with psycopg.connect(url, autocommit=True) as db:
                db.execute("DROP SCHEMA IF EXISTS " + _quoted_schema(db) + " CASCADE")  # type: ignore[arg-type]
            return
        self.free.append(url)


def _shape(db: psycopg.Connection[Any]) -> str:
    row = db.execute(SHAPE).fetchone()
    return str(row[0] if row else None)


def _quoted_schema(db: psycopg.Connection[Any]) -> str:
    row = db.execute("SELECT quote_ident(current_schema())").fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture(scope="session")
def schemas() -> Schemas:
    return Schemas()


@pytest.fixture(scope="session")
def migrated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the newest revision with no row but the revision's, made once a worker."""
    path = tmp_path_factory.mktemp("migrated") / "games.db"
    migrations.upgrade(path)
    return path


@pytest.fixture(params=DATABASES)
def database(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_file: Path, schemas: Schemas
) -> Iterator[str | Path]:
    """A new database of each kind at the newest revision, with no row: a SQLite file, or a
    PostgreSQL URL (module docstring)."""
    if request.param == "sqlite":
        path = tmp_path / "games.db"
        shutil.copyfile(migrated_file, path)
        yield path
        return
    url = schemas.take()
    yield url
    schemas.give_back(url)


@pytest.fixture
def postgres() -> str:
    """A fresh, empty PostgreSQL database (URL) for tests of what only PostgreSQL does."""
    return fresh_schema()


@pytest.fixture
def client(database: str | Path) -> Iterator[TestClient]:
    """The app on a fresh database, as one player (the client keeps the cookie)."""
    with api(database) as c:
        yield c


@pytest.fixture
def sqlite_client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh SQLite file, for tests that break SQLite itself (full disk, read-only)."""
    with api(tmp_path / "games.db") as c:
        yield c
