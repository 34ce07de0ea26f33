"""Revision 0007 (issue 34) on a database at 0006 with nicknames in it, on both databases.

The database is made at HEAD, given players' names as 0006 kept them (any that its rules let
through: lookalikes of one another, a Hangul filler, a generated shape), then taken back to what
0006 left (0008's flag and 0007's skeleton column and index dropped, the revision set to 0006) and opened again:
each name kept gets its key; of names that look alike the player who played first keeps theirs;
the others, and the names today's rules refuse, go back to generated names."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tripeaks import nickname
from tripeaks.engine.codes import GameCode
from tripeaks.store import migrations
from tripeaks.store.core import NameTaken
from tripeaks.store.sqlite import open_store

CODE = GameCode.parse("TP1-E-AAABUWI")
NAMES = {  # player: (name, the time of their first game, or None: no game)
    "alice": ("Hans", 1000.0),
    "bob": ("\u041dANS", 500.0),  # Cyrillic Н: looks like bob's own...
    "carol": ("hans", 2000.0),  # ...and carol's, whose game is later: bob keeps it
    "dave": ("\U0001d407\U0001d41a\U0001d427\U0001d42c", None),  # no game: last of all
    "erin": ("\u3164", 100.0),  # a Hangul filler
    "frank": ("Otter 417", 100.0),  # a generated shape
    "grete": ("Grete", None),
}


def sql(database: str | Path, statements: list[tuple[str, tuple[Any, ...]]]) -> list[Any]:
    """Run the statements (``?`` parameters) in one transaction; the last one's rows."""
    if isinstance(database, Path):
        with sqlite3.connect(database) as db:
            return [db.execute(s, a).fetchall() for s, a in statements][-1]
    with psycopg.connect(database) as pg:
        found = [pg.execute(s.replace("?", "%s"), a) for s, a in statements]  # type: ignore[call-overload]
        return found[-1].fetchall() if found[-1].description else []


def player(who: str) -> str:
    return who + "-" * 16


def test_names_that_look_alike_keep_the_first_players_and_refused_ones_go(
    database: str | Path,
) -> None:
    store = open_store(database)
    for who, (_, first) in NAMES.items():
        if first is not None:
            created = store.create(player(who), CODE)
            sql(database, [("UPDATE games SET created_at = ? WHERE id = ?", (first, created.id))])
    store.close()
    sql(
        database,
        [
            ("DROP TABLE journey", ()),  # revision 0010 undone first (the journey)
            ("DROP TABLE achievements", ()),
            ("DROP TABLE transfers", ()),
            ("ALTER TABLE games DROP COLUMN level", ()),
            ("DROP INDEX dailies_board", ()),  # then revision 0008
            ("ALTER TABLE dailies DROP COLUMN too_fast", ()),
            (
                "CREATE INDEX dailies_board ON dailies"
                " (day, ranked, finished, score DESC, moves, seconds, game)",
                (),
            ),
            ("DROP INDEX players_skeleton", ()),
            ("ALTER TABLE players DROP COLUMN skeleton", ()),
            ("UPDATE alembic_version SET version_num = '0006'", ()),
        ]
        + [
            ("INSERT INTO players (player, name) VALUES (?, ?)", (player(who), name))
            for who, (name, _) in NAMES.items()
        ],
    )
    store = open_store(database)
    try:
        assert sql(database, [("SELECT version_num FROM alembic_version", ())]) == [
            (migrations.HEAD,)
        ]
        kept = sql(database, [("SELECT player, name, skeleton FROM players", ())])
        assert sorted(kept) == [
            (player("bob"), "\u041dANS", nickname.key("Hans")),
            (player("grete"), "Grete", nickname.key("Grete")),
        ]
        for who in ("alice", "carol", "dave", "erin", "frank"):
            assert store.nickname(player(who)) is None
        # the index holds from now on: no one else may have the look of bob's name
        done = store.stage_nickname(player("alice"), "Hans", nickname.key("Hans"))
        store.flush()
        with pytest.raises(NameTaken):
            done.result(timeout=10)
    finally:
        store.close()
