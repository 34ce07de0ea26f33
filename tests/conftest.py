"""Fixtures every API test module shares (helpers to import live in test_api_support.py).

The API runs on both databases: ``database`` is a fresh SQLite file or a fresh schema in the
PostgreSQL cluster that ``make test`` starts (tests/pg_cluster.sh) and names in TRIPEAKS_TEST_PG;
a run without it starts a cluster of its own the same way, so the PostgreSQL tests always run.
"""

from __future__ import annotations

import glob
import os
import secrets
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, time
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from test_api_support import CLUSTER, PG_VARIABLE, api, pg_url

from tripeaks import daily

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
    import psycopg

    url = pg_url()
    schema = f"t_{secrets.token_hex(8)}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}', safe='')}"


@pytest.fixture(params=DATABASES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A fresh, empty database of each kind: a SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "games.db"
    return fresh_schema()


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
