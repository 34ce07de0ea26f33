"""The tests' PostgreSQL schemas: a new empty one (:func:`fresh_schema`), and those at the newest
revision that ``database`` gives out and empties after each test (:class:`Schemas`, conftest.py).
"""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import quote

import psycopg
from test_api_support import pg_url

from tripeaks.store import migrations


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
    transaction) leaves the schema behind in the throwaway cluster, untouched, and the next test
    gets a new one."""

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
        """Empty the schema for the next test, or leave it behind."""
        try:
            with psycopg.connect(url) as db:
                db.execute("SET LOCAL lock_timeout = '1s'")
                row = db.execute(EMPTIED).fetchone()
                if row is None or not row[0] or _shape(db) != self.shape:
                    raise LookupError("not the schema it was made")
                db.execute(f"TRUNCATE {row[0]} RESTART IDENTITY")  # type: ignore[arg-type]
        except (psycopg.Error, LookupError):
            return
        self.free.append(url)


def _shape(db: psycopg.Connection[Any]) -> str:
    row = db.execute(SHAPE).fetchone()
    return str(row[0] if row else None)
