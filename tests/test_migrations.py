"""Schema migrations: databases made by older versions upgrade in place, on both databases.

tests/data holds SQLite files made by three older versions (README.md there says how): 23cbfb5
(before results.streak and the totals), 4c0a472 (streak, no totals) and 357c0b4 (the last before
migrations: the whole schema, no alembic_version), each with a JSON of what that version
reported: every game's state and each player's statistics. On PostgreSQL, the same rows go into
the schema of that version (the migrations up to the revision it matches), unstamped.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import psycopg
import pytest
from schemas import pg_schema, sqlite_schema, state

from tripeaks import daily, stats
from tripeaks.cli.main import main
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, Game
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.stats import Totals, figures
from tripeaks.store import migrations, postgres, sqlite
from tripeaks.store.core import Storage
from tripeaks.store.policy import Kind

POLICY = daily.Policy(stats.judge, stats.count)
"""The app's policy of the competition's rules (web/app.py hands the solver worker's judge first)."""


class Store(sqlite.Store):
    """The SQLite store with the app's policy."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, POLICY)


class PgStore(postgres.PgStore):
    """The PostgreSQL store with the app's policy."""

    def __init__(self, url: str) -> None:
        super().__init__(url, POLICY)


DATA = Path(__file__).parent / "data"
MADE_BY = {"23cbfb5": "0001", "4c0a472": "0002", "357c0b4": "0003"}
"""Each fixture's version, and the revision a database it made is recognised as."""
DAILY_TABLES = {"settings", "players", "dailies", "daily_scores", "verdicts", "hinted_games"}
"""Revision 0004's tables (the deal of the day): the rest of the schema is 357c0b4's."""
LATER_TABLES = {"rate_hits", "journey", "achievements", "transfers"}
"""Tables of later revisions: 0009's (PostgreSQL's only) and 0010's (the journey)."""
LATER_COLUMNS = {"games": ("level",)}
"""Columns later revisions added to the baseline's tables, last (0010: a game's journey level)."""
HONEST_TOTALS = (
    "judged",
    "judged_winnable",
    "judged_won",
    "won_hinted",
    "best_share_sum",
    "won_perfect",
    *(
        f"{grade}_{n}"
        for grade in ("gentle", "medium", "hard", "unwinnable")
        for n in ("played", "won")
    ),
)
"""Revision 0004's columns of totals (the honest statistics) and 0005's (the kind of hint, the
grades), added after the others."""


def before_dailies(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema without revision 0004's tables and columns and those of later revisions,
    which must all be there."""
    assert set(schema) >= DAILY_TABLES, sorted(schema)
    dropped = DAILY_TABLES | LATER_TABLES
    kept = {table: shape for table, shape in schema.items() if table not in dropped}
    columns = kept["totals"]["columns"]
    assert [c[0] for c in columns[-len(HONEST_TOTALS) :]] == list(HONEST_TOTALS)
    kept["totals"] = {**kept["totals"], "columns": columns[: -len(HONEST_TOTALS)]}
    for table, later in LATER_COLUMNS.items():
        columns = kept[table]["columns"]
        assert [c[0] for c in columns[-len(later) :]] == list(later), table
        kept[table] = {**kept[table], "columns": columns[: -len(later)]}
    return kept


ROOT = Path(__file__).parent.parent


def expected(version: str) -> dict[str, Any]:
    made: dict[str, Any] = json.loads((DATA / f"tripeaks-{version}.json").read_text())
    assert made["made_by"] == version
    return made


def copied(version: str, tmp_path: Path) -> Path:
    db = tmp_path / "games.db"
    shutil.copy(DATA / f"tripeaks-{version}.db", db)
    return db


def check_upgraded(store: Storage, made: dict[str, Any]) -> None:
    """Everything the old version reported is what this one reports, and play goes on."""
    games: dict[str, dict[str, Any]] = made["games"]
    assert len(games) == 12
    for game_id, old in games.items():
        player, code = old["player"], old["code"]
        replayed = state(Game.replay(code, store.actions(game_id)))
        live = state(store.game(game_id, player))
        assert replayed == {k: v for k, v in old.items() if k not in ("player", "code")}
        # a game that is neither won nor the player's latest was left for another one: the old
        # versions kept it as settled, and today's engine calls that "left"
        over = old["status"] == "won" or game_id in made["in_progress"]
        assert live == {**replayed, "status": old["status"] if over else "left"}
    for player, results in made["results"].items():
        assert [[str(r.code), r.outcome, r.score] for r in store.results(player)] == results
        totals = store.totals(player)
        for rules in Rules:
            now = asdict(figures(totals.get(Kind(Variant(rules)), Totals())))
            then = made["stats"][player][rules.name.lower()]
            assert {key: now[key] for key in then} == then, (player, rules)
    # a game in progress goes on: its next action is stored after the old ones
    game_id = made["in_progress"][0]
    before = store.game(game_id, "alice")
    action = next(iter(before.legal_moves()))
    store.apply(game_id, "alice", action, len(before.actions), "after-upgrade")
    assert store.actions(game_id) == [*before.actions, action]
    # ...and a request id the old version stored still answers as that action, changing nothing
    first = Action.parse(games[game_id]["actions"][0])
    store.apply(game_id, "alice", first, 0, f"r-{game_id[:6]}-0")
    assert store.actions(game_id) == [*before.actions, action]


def sqlite_revision(db: Path) -> str:
    with sqlite3.connect(db) as connection:
        revision = migrations.sqlite_revision(connection)
    assert revision is not None
    return revision


def newer_file(tmp_path: Path) -> Path:
    """A SQLite file as a newer tripeaks would leave it: at a revision this one does not know."""
    db = tmp_path / "games.db"
    Store(db).close()
    with sqlite3.connect(db) as newer:
        newer.execute("UPDATE alembic_version SET version_num = '0999'")
    return db


def test_head_is_the_newest_revision_and_the_revisions_form_one_line() -> None:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(migrations.FOLDER))
    assert script.get_heads() == [migrations.HEAD]
    line = [r.revision for r in script.walk_revisions("base", "heads")]
    assert line == [f"{n:04d}" for n in range(11, 0, -1)]
    assert set(MADE_BY.values()) <= set(line)


@pytest.mark.parametrize("version", MADE_BY)
def test_a_sqlite_file_made_by_an_older_version_upgrades_in_place(
    version: str, tmp_path: Path
) -> None:
    db = copied(version, tmp_path)
    with sqlite3.connect(db) as old:
        assert migrations.sqlite_revision(old) is None
    store = Store(db)
    try:
        assert sqlite_revision(db) == migrations.HEAD
        check_upgraded(store, expected(version))
    finally:
        store.close()
    store = Store(db)  # the action taken after the upgrade is in the file
    try:
        game_id = expected(version)["in_progress"][0]
        assert (
            len(store.actions(game_id)) == len(expected(version)["games"][game_id]["actions"]) + 1
        )
    finally:
        store.close()


def test_a_new_sqlite_file_has_the_schema_every_older_version_upgrades_to(tmp_path: Path) -> None:
    """One path: the migrations from nothing give what 357c0b4's CREATE TABLEs gave, and the
    files of the older versions upgraded have that schema too (tables, keys, indexes, WITHOUT
    ROWID, AUTOINCREMENT)."""
    fresh = tmp_path / "fresh.db"
    Store(fresh).close()
    assert sqlite_revision(fresh) == migrations.HEAD
    schema = sqlite_schema(fresh)
    assert before_dailies(schema) == sqlite_schema(DATA / "tripeaks-357c0b4.db")
    assert schema["dailies"]["without_rowid"] and schema["settings"]["without_rowid"]
    assert schema["actions"]["without_rowid"] and schema["totals"]["without_rowid"]
    assert schema["results"]["autoincrement"]
    for version in MADE_BY:
        db = tmp_path / f"{version}.db"
        shutil.copy(DATA / f"tripeaks-{version}.db", db)
        Store(db).close()
        assert sqlite_schema(db) == schema, version


JOURNEY_COLUMNS = {
    "journey": ["player", "level", "code", "stars", "goal_met", "best_score", "game", "won_at"],
    "achievements": ["player", "achievement", "progress", "bits", "unlocked_at", "game"],
    "transfers": ["hash", "player", "created_at", "expires_at", "spent"],
}
"""Revision 0010's tables (the journey's stored progress), both databases."""
JOURNEY_KEYS = {
    "journey": ["player", "level"],
    "achievements": ["player", "achievement"],
    "transfers": ["hash"],
}


def test_revision_0010_gives_an_old_file_the_journey_and_play_goes_on(tmp_path: Path) -> None:
    """An older version's file upgraded: its games have no level, the journey's tables are there
    and empty, and a level game is then judged and kept as on a new file."""
    from tripeaks.journey import achievements
    from tripeaks.journey.levels import levels
    from tripeaks.store.policy import LevelTag

    db = copied("357c0b4", tmp_path)
    store = sqlite.Store(db, daily.Policy(stats.judge, stats.count, achievements.Keeper()))
    try:
        schema = sqlite_schema(db)
        for table, columns in JOURNEY_COLUMNS.items():
            assert [c[0] for c in schema[table]["columns"]] == columns, table
            assert [c[0] for c in schema[table]["columns"] if c[4]] == JOURNEY_KEYS[table]
            assert schema[table]["without_rowid"], table
        assert schema["games"]["columns"][-1][:3] == ["level", "INTEGER", False]
        with sqlite3.connect(db) as raw:
            assert raw.execute("SELECT count(*) FROM games WHERE level IS NOT NULL").fetchone() == (
                0,
            )
        assert store.levels("alice") == [] and store.achievements("alice") == {}
        level = levels()[0]
        created = store.create("alice", level.code, LevelTag(1))
        for version, action in enumerate(level.best_line):
            store.apply(created.id, "alice", action, version)
        assert [(row.level, row.stars) for row in store.levels("alice")] == [(1, 3)]
        assert store.achievements("alice")["first_win"].unlocked_at is not None
    finally:
        store.close()


def test_revision_0011_sets_aside_the_grades_the_old_measure_gave(tmp_path: Path) -> None:
    """A file at 0010 with games counted under the old grades: after the upgrade Gentle, Medium
    and Hard are no longer kept with them and their per-grade totals start again, while
    Unwinnable (the solver's) and every other figure stay as they were."""
    db = tmp_path / "games.db"
    Store(db).close()
    with sqlite3.connect(db) as old:
        old.execute("UPDATE alembic_version SET version_num = '0010'")
        for game, grade in (("g1", "gentle"), ("g2", "hard"), ("g3", "unwinnable"), ("g4", None)):
            old.execute(
                "INSERT INTO verdicts (game, winnable, best, hinted, grade) VALUES (?, 1, 5, 0, ?)",
                (game, grade),
            )
        old.execute(
            "INSERT INTO totals (player, rules, played, won, won_score_sum, current_streak,"
            " best_streak, judged, gentle_played, gentle_won, medium_played, hard_played,"
            " unwinnable_played) VALUES ('ann', 'easy', 9, 4, 40, 1, 2, 7, 3, 2, 1, 2, 1)"
        )
    Store(db).close()
    with sqlite3.connect(db) as new:
        assert new.execute("SELECT version_num FROM alembic_version").fetchone() == ("0011",)
        grades = dict(new.execute("SELECT game, grade FROM verdicts").fetchall())
        assert grades == {"g1": None, "g2": None, "g3": "unwinnable", "g4": None}
        row = new.execute(
            "SELECT played, won, judged, gentle_played, gentle_won, medium_played, hard_played,"
            " unwinnable_played FROM totals WHERE player = 'ann'"
        ).fetchone()
        assert row == (9, 4, 7, 0, 0, 0, 0, 1)


def test_the_journeys_tables_are_the_same_on_postgresql(tmp_path: Path, postgres: str) -> None:
    PgStore(postgres).close()
    tables = pg_schema(postgres)
    for table, columns in JOURNEY_COLUMNS.items():
        assert [c[0] for c in tables[table]["columns"]] == columns, table
        primary = [c for c in tables[table]["constraints"] if c[1] == "p"]
        assert primary and primary[0][2] == f"PRIMARY KEY ({', '.join(JOURNEY_KEYS[table])})"
    assert tables["games"]["columns"][-1][:3] == ["level", "integer", "YES"]


def test_an_up_to_date_file_opens_without_importing_alembic(tmp_path: Path) -> None:
    """Start-up stays cheap for make run: Alembic and SQLAlchemy load only to upgrade."""
    db = tmp_path / "games.db"
    Store(db).close()
    assert loaded_to_open(db) == []
    # ...and they do when there is something to upgrade
    assert loaded_to_open(copied("23cbfb5", tmp_path)) == ["alembic", "sqlalchemy"]


def loaded_to_open(db: Path) -> list[str]:
    """Which of Alembic and SQLAlchemy a fresh process imported to open ``db``."""
    script = (
        "import sys; from tripeaks.store.sqlite import Store; Store(sys.argv[1]).close();"
        " print(' '.join(m for m in ('alembic', 'sqlalchemy') if m in sys.modules))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", script, str(db)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout
    return shown.split()


def test_a_sqlite_file_newer_than_this_tripeaks_is_refused_and_left_alone(
    tmp_path: Path,
) -> None:
    db = newer_file(tmp_path)
    with sqlite3.connect(db) as newer:
        newer.execute("CREATE TABLE from_the_future (x INTEGER)")
    before = db.read_bytes()
    with pytest.raises(migrations.NewerSchema, match=r"0999.*newer than this tripeaks"):
        Store(db)
    assert sqlite_revision(db) == "0999" and db.read_bytes() == before


def test_a_file_with_only_some_of_our_tables_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE results (seq INTEGER PRIMARY KEY, player TEXT)")
    with pytest.raises(migrations.NotOurs, match="not games, actions"):
        Store(db)
    with sqlite3.connect(db) as other:
        tables = {row[0] for row in other.execute("SELECT name FROM sqlite_master")}
    assert tables == {"results"}


def test_an_upgrade_that_fails_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stamp and every revision commit as one: a failure half-way leaves the old file."""
    db = copied("23cbfb5", tmp_path)
    before = sqlite_schema(db)

    def broken(*args: object) -> None:
        raise RuntimeError("the disk went away")

    import tripeaks.stats

    monkeypatch.setattr(tripeaks.stats, "count", broken)  # revision 0003 folds the totals
    with pytest.raises(RuntimeError, match="disk went away"):
        Store(db)
    assert sqlite_schema(db) == before
    with sqlite3.connect(db) as old:
        assert migrations.sqlite_revision(old) is None
    monkeypatch.undo()
    store = Store(db)
    check_upgraded(store, expected("23cbfb5"))
    store.close()


# PostgreSQL ------------------------------------------------------------------------------------


def load_into_postgres(version: str, url: str) -> None:
    """The schema of ``version`` (the revisions up to the one it matches) and its file's rows,
    without alembic_version: as that version would have left a PostgreSQL database."""
    from alembic import command
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    engine = create_engine(
        "postgresql+psycopg://", creator=lambda: psycopg.connect(url), poolclass=NullPool
    )
    with engine.begin() as connection:
        command.upgrade(migrations.config(connection), MADE_BY[version])
    engine.dispose()
    source = sqlite3.connect(DATA / f"tripeaks-{version}.db")
    with psycopg.connect(url) as db:
        db.execute("DROP TABLE alembic_version")
        for table in ("games", "actions", "results", "totals"):
            names = [row[1] for row in source.execute(f"PRAGMA table_info({table})")]
            if not names:
                continue
            rows = source.execute(f"SELECT {', '.join(names)} FROM {table}").fetchall()
            override = " OVERRIDING SYSTEM VALUE" if table == "results" else ""
            with db.cursor() as cursor:
                cursor.executemany(
                    f"INSERT INTO {table} ({', '.join(names)}){override}"  # type: ignore[arg-type]
                    f" VALUES ({', '.join(['%s'] * len(names))})",
                    rows,
                )
        db.execute("SELECT setval(pg_get_serial_sequence('results', 'seq'), max(seq)) FROM results")
    source.close()


def pg_revision(url: str) -> str | None:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


@pytest.mark.parametrize("version", MADE_BY)
def test_a_postgresql_database_of_an_older_version_upgrades_in_place(
    version: str, postgres: str
) -> None:
    load_into_postgres(version, postgres)
    store = PgStore(postgres)
    try:
        assert pg_revision(postgres) == migrations.HEAD
        check_upgraded(store, expected(version))
        # a game counted after the upgrade takes the next results.seq (the identity goes on)
        game_id = expected(version)["in_progress"][1]
        store.create("bob", GameCode.parse(expected(version)["games"][game_id]["code"]))
        assert [r.outcome for r in store.results("bob")] == ["lost", "won", "lost"]
    finally:
        store.close()


def test_a_new_postgresql_database_has_the_schema_357c0b4_made(postgres: str) -> None:
    PgStore(postgres).close()
    assert pg_revision(postgres) == migrations.HEAD
    made = json.loads((DATA / "pg-schema-357c0b4.json").read_text())
    assert before_dailies(pg_schema(postgres)) == made


def test_a_postgresql_database_newer_than_this_tripeaks_is_refused(postgres: str) -> None:
    PgStore(postgres).close()
    with psycopg.connect(postgres) as db:
        db.execute("UPDATE alembic_version SET version_num = '0999'")
    with pytest.raises(migrations.NewerSchema, match="0999"):
        PgStore(postgres)
    assert pg_revision(postgres) == "0999"


def test_workers_starting_together_on_an_empty_database_all_come_up(postgres: str) -> None:
    """Each is a process of its own, as uvicorn's workers are; the advisory lock lets one make
    the tables while the others wait, and they then find them at head."""
    script = (
        "import sys; from tripeaks.store.postgres import PgStore;"
        " sys.stdin.read(); PgStore(sys.argv[1]).close(); print('up')"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", script, postgres],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for _ in range(3)
    ]
    for worker in workers:  # all imported and waiting: let them go at once
        assert worker.stdin is not None
        worker.stdin.close()
    for worker in workers:
        assert worker.stdout is not None and worker.stderr is not None
        returncode = worker.wait(timeout=120)
        assert (returncode, worker.stdout.read().strip()) == (0, "up"), worker.stderr.read()
        worker.stdout.close()
        worker.stderr.close()
    with psycopg.connect(postgres) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (migrations.HEAD,)
        ]
    made = json.loads((DATA / "pg-schema-357c0b4.json").read_text())
    assert before_dailies(pg_schema(postgres)) == made


# tripeaks migrate ------------------------------------------------------------------------------


def test_migrate_upgrades_a_sqlite_file_and_says_from_what_to_what(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = copied("23cbfb5", tmp_path)
    assert main(["migrate", "--db", str(db)]) == 0
    assert f"0001 → {migrations.HEAD}" in capsys.readouterr().out
    assert sqlite_revision(db) == migrations.HEAD
    assert main(["migrate", "--db", str(db)]) == 0
    assert f"already at revision {migrations.HEAD}" in capsys.readouterr().out
    store = Store(db)
    check_upgraded(store, expected("23cbfb5"))
    store.close()


def test_migrate_makes_a_new_database_and_upgrades_postgresql(
    postgres: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--db", str(tmp_path / "new.db")]) == 0
    assert f"(none) → {migrations.HEAD}" in capsys.readouterr().out
    load_into_postgres("4c0a472", postgres)
    assert main(["migrate", "--db", postgres]) == 0
    assert f"0002 → {migrations.HEAD}" in capsys.readouterr().out
    assert pg_revision(postgres) == migrations.HEAD


def test_migrate_refuses_a_newer_database_and_one_a_server_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tripeaks.cli.serve import claim_database

    db = newer_file(tmp_path)
    assert main(["migrate", "--db", str(db)]) == 1
    assert "0999" in capsys.readouterr().err
    (tmp_path / "held").mkdir()
    old = copied("23cbfb5", tmp_path / "held")
    claim, _holder = claim_database(old)
    assert claim is not None
    try:
        assert main(["migrate", "--db", str(old)]) == 1
        assert "another tripeaks server" in capsys.readouterr().err
        with sqlite3.connect(old) as untouched:
            assert migrations.sqlite_revision(untouched) is None
    finally:
        claim.close()


def test_serve_refuses_a_newer_database_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = newer_file(tmp_path)
    assert main(["serve", "--db", str(db), "--no-browser"]) == 1
    assert capsys.readouterr().err == (
        f"tripeaks: cannot use the database {db}: its schema is at revision 0999, newer than"
        f" this tripeaks knows (up to {migrations.HEAD}); it was upgraded by a newer tripeaks:"
        " run that one\n"
    )
    assert sqlite_revision(db) == "0999"


def test_an_old_file_that_cannot_be_written_fails_as_sqlite_says_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The driver's own error, not SQLAlchemy's wrapper: serve and migrate word it in one line."""
    db = copied("23cbfb5", tmp_path)
    header = bytearray(db.read_bytes())
    header[18] = 3  # a write version SQLite does not know: read-only, root included
    db.write_bytes(bytes(header))
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        Store(db)
    assert main(["migrate", "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"tripeaks: cannot use the database {db}: attempt to write a readonly database\n"
    )
