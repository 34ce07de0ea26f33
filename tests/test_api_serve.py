"""The ``tripeaks serve`` command: the default command, its options and its port choice."""

from __future__ import annotations

import argparse
import gc
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tripeaks.cli import main as cli
from tripeaks.cli import serve
from tripeaks.i18n import LANGUAGES, system_language, translator
from tripeaks.store.sqlite import Store
from tripeaks.web import hosting

ROOT = Path(__file__).resolve().parents[1]


def captured(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> argparse.Namespace:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(serve, "run", lambda args: seen.append(args) or 0)
    # build_parser binds serve.run when it registers the command, so patch before building.
    assert cli.main(argv) == 0
    return seen[0]


def test_no_argument_serves_on_loopback_and_opens_the_browser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = captured(monkeypatch, [])
    assert args.command == "serve" and args.host == "127.0.0.1"
    assert args.port is None and args.db is None and not args.no_browser


def test_options_reach_the_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    argv = ["serve", "--port", "8123", "--no-browser", "--db", str(tmp_path / "x.db")]
    args = captured(monkeypatch, argv)
    assert (args.port, args.no_browser, args.db) == (8123, True, tmp_path / "x.db")
    assert captured(monkeypatch, ["--no-browser"]).no_browser


def test_a_busy_port_is_skipped() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        assert serve.free_port("127.0.0.1", taken, 20) != taken


def test_the_default_database_is_in_the_user_data_directory() -> None:
    path = serve.default_db()
    assert path.name == "tripeaks.db" and "tripeaks" in path.parent.parts[-1]


def test_the_served_heap_is_settled_before_the_first_request() -> None:
    """Start-up objects leave the garbage collector's care; commits get the GIL back quickly."""
    switch, thresholds = sys.getswitchinterval(), gc.get_threshold()
    try:
        hosting.settle_the_heap()
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold() == hosting.GC_THRESHOLDS
        assert sys.getswitchinterval() == pytest.approx(hosting.SWITCH_INTERVAL)
        assert all(translator(lang) for lang in LANGUAGES)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(switch)


def test_the_workers_environment_names_the_app_each_worker_makes() -> None:
    """--workers hands its workers the database, host names and settings (hosting.to_workers),
    read back by app.from_environment; without host names or settings, the defaults."""
    settings = hosting.Hosting(hosted=True, metrics=True, rates={"games_per_player": "5/minute"})
    environ = hosting.to_workers("postgresql://db/x", ["a.example", "b.example"], settings)
    assert environ[serve.DB_VARIABLE] == "postgresql://db/x"
    assert hosting.from_workers(environ) == (
        "postgresql://db/x",
        ["a.example", "b.example"],
        settings,
    )
    assert hosting.from_workers({serve.DB_VARIABLE: "games.db"}) == ("games.db", [], None)


def test_the_web_app_never_imports_the_command_line() -> None:
    """cli is above web: making a worker's app loads nothing of tripeaks.cli."""
    code = (
        "import sys, tripeaks.web.app;"
        "print(sorted(m for m in sys.modules if m.startswith('tripeaks.cli')))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def readonly_database(path: Path) -> Path:
    """A database the server made earlier, now one that nobody, root included, may write to.

    Byte 18 of the header is the file format's write version; SQLite opens a file whose write
    version is above 2 read-only ("attempt to write a readonly database"). chmod would not do:
    the tests run as root, which ignores file modes. Its tables all exist, so opening the store
    writes nothing and succeeds: only a real write finds out.
    """
    Store(path).close()
    header = bytearray(path.read_bytes())
    header[18] = 3
    path.write_bytes(bytes(header))
    return path


def bad_databases(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of unusable --db, with the reason the server must give."""
    folder = tmp_path / "a-folder"
    folder.mkdir()
    plain = tmp_path / "notes.txt"
    plain.write_text("not a folder")
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not SQLite " * 300)
    return {
        "directory": (folder, "it is a directory, not a database file"),
        "under a file": (plain / "tripeaks.db", f"{plain} is a file, not a directory"),
        "not sqlite": (garbage, "file is not a database"),
        "read-only": (
            readonly_database(tmp_path / "old.db"),
            "attempt to write a readonly database",
        ),
    }


@pytest.mark.parametrize("kind", ["directory", "under a file", "not sqlite", "read-only"])
def test_an_unusable_database_stops_the_server_with_one_line(tmp_path: Path, kind: str) -> None:
    path, reason = bad_databases(tmp_path)[kind]
    argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--db", str(path)]
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60, env=env)
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"tripeaks: cannot use the database {path}: {reason}\n"
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_database_check_really_writes_and_leaves_nothing(tmp_path: Path) -> None:
    fresh = tmp_path / "new" / "folder" / "tripeaks.db"
    assert serve.check_database(fresh) is None
    assert fresh.parent.is_dir()
    used = tmp_path / "used.db"
    db = sqlite3.connect(used)
    db.execute("CREATE TABLE games (id TEXT)")
    db.execute("INSERT INTO games VALUES ('g1')")
    db.commit()
    db.close()
    before = used.read_bytes()
    assert serve.check_database(used) is None
    assert used.read_bytes() == before  # the probe's table was rolled back
    # the same database, made read-only: only a real write tells (reading still works)
    readonly = readonly_database(tmp_path / "readonly.db")
    Store(readonly).close()  # the store itself opens it without complaint
    assert serve.check_database(readonly) == "attempt to write a readonly database"


def test_a_store_that_fails_to_open_after_the_check_is_one_line_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr("tripeaks.web.app.create_app", broken)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    db = tmp_path / "games.db"
    assert cli.main(["serve", "--no-browser", "--port", "8123", "--db", str(db)]) == 1
    out = capsys.readouterr()
    assert out.err == f"tripeaks: cannot use the database {db}: database is locked\n"
    assert out.out == ""
    monkeypatch.setenv("LC_ALL", "fi_FI.UTF-8")  # the console speaks the system's language
    assert cli.main(["serve", "--no-browser", "--port", "8123", "--db", str(db)]) == 1
    assert capsys.readouterr().err == (
        f"tripeaks: tietokantaa {db} ei voi käyttää: database is locked\n"
    )


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "ca_ES.UTF-8"}, "ca"),
        ({"LANG": "fi_FI.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, "en"),
        ({"LANG": "ca_ES.UTF-8", "LC_ALL": "fi_FI"}, "fi"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_ALL": "C"}, "en"),
    ],
)
def test_the_console_language_follows_the_locale(environ: dict[str, str], lang: str) -> None:
    assert system_language(environ) == lang


def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    """Two servers on one SQLite file would serve each other's games stale: the second stops."""
    db = tmp_path / "games.db"
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    first = subprocess.Popen(
        [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        assert first.stdout is not None
        assert first.stdout.readline().startswith("TriPeaks: http://127.0.0.1:")
        argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--db", str(db)]
        second = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60, env=env)
        assert second.returncode == 1
        assert second.stderr == (
            f"tripeaks: another tripeaks server (process {first.pid}) is using the database"
            f" {db}; stop it, or give this one another --db\n"
        )
        assert second.stdout == ""
    finally:
        first.terminate()
        first.wait(timeout=20)
    claim, holder = serve.claim_database(db)  # the first one's lock went with it
    assert claim is not None and holder == str(os.getpid())
    claim.close()
