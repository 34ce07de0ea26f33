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
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pg_schemas import Schemas, fresh_schema
from test_api_support import CLUSTER, PG_VARIABLE, api

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
