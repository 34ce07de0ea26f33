"""Fixtures every API test module shares (helpers to import live in test_api_support.py).

The API runs on both databases: ``database`` is a fresh SQLite file or a fresh schema in the
PostgreSQL cluster that ``make test`` starts (tests/pg_cluster.sh) and names in TRIPEAKS_TEST_PG.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from test_api_support import PG_URL, api

DATABASES = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("CI") == "true" and not PG_URL:
        raise pytest.UsageError(
            "CI=true but TRIPEAKS_TEST_PG is not set: the PostgreSQL runs would not run."
            " `make test` starts a throwaway cluster and sets it."
        )


def fresh_schema() -> str:
    """A URL of the test cluster whose tables live in a schema of their own (made here)."""
    import psycopg

    if not PG_URL:
        pytest.skip("no PostgreSQL here: TRIPEAKS_TEST_PG is unset (`make test` sets it)")
    schema = f"t_{secrets.token_hex(8)}"
    with psycopg.connect(PG_URL, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    joiner = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{joiner}options={quote(f'-csearch_path={schema}', safe='')}"


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
