"""Revision 0005 (issue 16) on a database at 0004 with hinted games in it, on both databases.

The database is made at HEAD by playing through the API, then taken back to what 0004 left (0005's
columns dropped, the revision set to 0004) and opened again: the upgrade must mark every hint given
before as a perfect one, in the games, the verdicts and the running totals."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
from test_api_support import WIN_CODE, api, new_game, play_line, player_of, winning_line

from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.stats import figures, fold
from tripeaks.store import migrations
from tripeaks.store.policy import Kind
from tripeaks.store.sqlite import open_store

ADDED = {
    "hinted_games": ("kind",),
    "verdicts": ("grade", "hint"),
    "totals": (
        "won_perfect",
        *(
            f"{g}_{n}"
            for g in ("gentle", "medium", "hard", "unwinnable")
            for n in ("played", "won")
        ),
    ),
}


LATER = [
    "DROP TABLE journey",  # revision 0010 undone (the journey), first
    "DROP TABLE achievements",
    "DROP TABLE transfers",
    "ALTER TABLE games DROP COLUMN level",
    "DROP INDEX dailies_board",
    "ALTER TABLE dailies DROP COLUMN too_fast",
    "CREATE INDEX dailies_board ON dailies"
    " (day, ranked, finished, score DESC, moves, seconds, game)",
]
"""Revisions 0010 (the journey) and 0008 (the attempts too fast for the board) undone, first."""


def back_to_0004(database: str | Path) -> None:
    statements = (
        LATER
        + [
            "DROP INDEX players_skeleton",  # revision 0007's
            "ALTER TABLE players DROP COLUMN skeleton",
            "DROP INDEX dailies_address",  # revision 0006's
            "ALTER TABLE dailies DROP COLUMN address",
        ]
        + [
            f"ALTER TABLE {table} DROP COLUMN {column}"
            for table, columns in ADDED.items()
            for column in columns
        ]
        + ["UPDATE alembic_version SET version_num = '0004'"]
    )
    if isinstance(database, Path):
        with sqlite3.connect(database) as db:
            for sql in statements:
                db.execute(sql)
        return
    with psycopg.connect(database) as pg:
        for sql in statements:
            pg.execute(sql)  # type: ignore[arg-type]


def rows(database: str | Path, sql: str) -> list[Any]:
    if isinstance(database, Path):
        with sqlite3.connect(database) as db:
            return db.execute(sql).fetchall()
    with psycopg.connect(database) as pg:
        return pg.execute(sql).fetchall()  # type: ignore[arg-type]


def test_hints_given_before_revision_0005_were_perfect(database: str | Path) -> None:
    with api(database) as client:
        for kind in ("perfect", None):
            state = new_game(client, WIN_CODE)
            if kind is not None:
                assert client.get(f"/api/games/{state['id']}/hint?kind={kind}").status_code == 200
            play_line(client, state, winning_line())
        player = player_of(client)
    back_to_0004(database)
    store = open_store(database)
    try:
        assert rows(database, "SELECT version_num FROM alembic_version") == [(migrations.HEAD,)]
        assert rows(database, "SELECT kind FROM hinted_games") == [("perfect",)]
        assert sorted(rows(database, "SELECT hint, grade FROM verdicts"), key=str) == sorted(
            [("perfect", None), (None, None)], key=str
        )  # the grade of a game counted before is unknown: it is in no grade's figures
        kept = store.totals(player)[Kind(Variant(Rules.EASY))]
        shown = figures(kept)
        assert (shown.won_with_hints, shown.won_with_perfect_hints, shown.won_with_fair_hints) == (
            1,
            1,
            0,
        )
        assert all(n == {"played": 0, "won": 0} for n in shown.by_grade.values())
        assert kept == fold(store.results(player), Rules.EASY)
    finally:
        store.close()
