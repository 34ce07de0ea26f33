"""A database's schema and a game's state as plain data, to compare what an older version made
with what this one makes (tests/test_migrations.py): tables, columns, keys, indexes, WITHOUT ROWID.

Nothing here imports tripeaks, so tests/data/make_old_db.py uses it with an older version on the
path to record what that version made. ``alembic_version`` is left out: older versions
had none.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any


def state(game: Any) -> dict[str, object]:
    """What a replay must reproduce of a game (names every version since 23cbfb5 has)."""
    return {
        "slots": [slot.value for slot in game.slots()],
        "discard_top": str(game.discard_top),
        "stock_size": game.stock_size,
        "score": game.score,
        "moves": game.moves,
        "status": game.status.value,
        "actions": [str(a) for a in game.actions],
    }


def _words(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


def sqlite_schema(path: Path) -> dict[str, Any]:
    db = sqlite3.connect(path)
    try:
        tables: dict[str, Any] = {}
        rows = db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table'"
            " AND name NOT IN ('alembic_version', 'sqlite_sequence') ORDER BY name"
        ).fetchall()
        for name, sql in rows:
            columns = []
            for _cid, column, kind, notnull, default, pk in db.execute(
                f"PRAGMA table_info({name})"
            ):
                rowid_alias = pk == 1 and kind.upper() == "INTEGER"
                # a rowid alias cannot hold NULL whether or not it says NOT NULL
                columns.append(
                    [column, kind.upper(), bool(notnull) and not rowid_alias, default, pk]
                )
            indexes = []
            for _seq, index, unique, origin, partial in db.execute(f"PRAGMA index_list({name})"):
                keys = [row[2] for row in db.execute(f"PRAGMA index_info({index})")]
                made = db.execute(
                    "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", (index,)
                ).fetchone()
                where = made[0] if made else None
                condition = _words(where.partition(" WHERE ")[2]) if where and partial else None
                shown = index if origin == "c" else origin  # automatic ones: by what made them
                indexes.append([shown, bool(unique), keys, condition])
            keys = [[*row[2:5], row[6]] for row in db.execute(f"PRAGMA foreign_key_list({name})")]
            tables[name] = {
                "columns": columns,
                "indexes": sorted(indexes, key=repr),
                "foreign_keys": keys,
                "without_rowid": _words(sql).upper().endswith("WITHOUT ROWID"),
                "autoincrement": "AUTOINCREMENT" in sql.upper(),
            }
        return tables
    finally:
        db.close()


def pg_schema(url: str) -> dict[str, Any]:
    import psycopg

    with psycopg.connect(url) as db:
        tables: dict[str, Any] = {}
        names = db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_name <> 'alembic_version' ORDER BY table_name"
        ).fetchall()
        for (name,) in names:
            columns = db.execute(
                "SELECT column_name, data_type, is_nullable, column_default, is_identity,"
                " identity_generation FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = %s"
                " ORDER BY ordinal_position",
                (name,),
            ).fetchall()
            indexes = db.execute(
                "SELECT indexname, indexdef FROM pg_indexes"
                " WHERE schemaname = current_schema() AND tablename = %s ORDER BY indexname",
                (name,),
            ).fetchall()
            constraints = db.execute(
                "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint"
                " WHERE conrelid = to_regclass(%s) ORDER BY conname",
                (name,),
            ).fetchall()
            schema = db.execute("SELECT current_schema()").fetchone()
            assert schema is not None
            tables[name] = {
                "columns": [list(c) for c in columns],
                "indexes": [[i, d.replace(f"{schema[0]}.", "")] for i, d in indexes],
                "constraints": [list(c) for c in constraints],
            }
        return tables
