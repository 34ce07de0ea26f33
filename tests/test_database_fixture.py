"""The tests' own PostgreSQL schemas (pg_schemas.Schemas): a schema given out again has no row,
restarts its identities and has the shape it was made with; one a test changed is not given out."""

from __future__ import annotations

import psycopg
from pg_schemas import Schemas

from tripeaks.store import migrations

RESULT = (
    "INSERT INTO results (player, game, code, outcome, score, finished_at, streak)"
    " VALUES ('p', %s, 'TP1-E-AAAAAAA', 'won', 1, 0, 0) RETURNING seq"
)


def test_a_schema_given_back_comes_out_again_empty_at_the_newest_revision() -> None:
    schemas = Schemas()
    url = schemas.take()
    with psycopg.connect(url) as db:
        db.execute("INSERT INTO settings (name, value) VALUES ('secret', 'x')")
        db.execute("INSERT INTO rate_hits (name, key, at) VALUES ('n', 'k', 0)")
        seqs = [db.execute(RESULT, (game,)).fetchone() for game in ("g1", "g2")]
    assert seqs == [(1,), (2,)]
    schemas.give_back(url)
    assert schemas.take() == url
    with psycopg.connect(url) as db:
        for table in ("settings", "rate_hits", "results"):
            assert db.execute(f"SELECT count(*) FROM {table}").fetchone() == (0,)  # type: ignore[arg-type]
        assert db.execute("SELECT version_num FROM alembic_version").fetchone() == (
            migrations.HEAD,
        )
        assert db.execute(RESULT, ("g3",)).fetchone() == (1,)


def test_a_schema_a_test_changed_is_never_given_out_again() -> None:
    schemas = Schemas()
    url = schemas.take()
    with psycopg.connect(url) as db:
        db.execute("DROP INDEX dailies_address")
    schemas.give_back(url)
    assert schemas.free == []
    fresh = schemas.take()
    assert fresh != url
    with psycopg.connect(fresh) as db:
        assert db.execute("SELECT to_regclass('dailies_address')").fetchone() != (None,)
