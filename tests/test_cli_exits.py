"""The command line behaves like one: exit statuses (README.md "The command line"), an example in
every subcommand's --help, quiet on a closed pipe, a progress bar only on a terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tripeaks.cli.main import build_parser, main
from tripeaks.cli.solve import _Progress

ROOT = Path(__file__).resolve().parent.parent
SUBCOMMANDS = ("deal", "describe", "play", "solve", "survey", "journey", "migrate", "serve")


def test_every_subcommand_is_here() -> None:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    assert set(commands.choices) == set(SUBCOMMANDS)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommands_help_ends_with_an_example(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    examples = out.split("\nexamples:\n", 1)[1].splitlines()
    assert examples and all(line.startswith("  ") for line in examples)
    assert examples[0].strip().startswith(f"tripeaks {command}")


def test_the_top_help_says_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert "tripeaks solve TP1-C-AAAAAAB --json" in out
    assert "exit status: 0 done; 1 refused" in out and "2 a usage error" in out


USAGE_ERRORS = [
    *[[command, "--no-such-option"] for command in SUBCOMMANDS],
    ["deal"],  # a missing argument
    ["describe", "TP1-E-AAAAAAB", "--lang", "xx"],
    ["survey", "--deals", "many"],
    ["serve", "--no-browser", "--limit", "hints_per_player=lots"],  # checked before anything opens
    ["no-such-command"],
]


@pytest.mark.parametrize("argv", USAGE_ERRORS, ids=" ".join)
def test_a_usage_error_is_status_2_and_says_what_is_wrong(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as stopped:  # argparse's: a usage line, then the error
        status = stopped.code  # type: ignore[assignment]
        assert capsys.readouterr().err.splitlines()[-1].startswith("tripeaks")
    else:  # the server's own checks of its options: one line
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith("tripeaks: ")
    assert status == 2


REFUSED_CODES = [
    ["deal", "TP1-E-AAAA"],  # a malformed code
    ["describe", "TP1-HILLS-E-AAAAAAB"],  # an unknown layout
    ["play", "TP1-Q-AAAAAAB"],
    ["solve", "TP1-E-AAAAAAB-Z"],
]


@pytest.mark.parametrize("argv", REFUSED_CODES, ids=" ".join)
def test_a_refused_code_is_status_1_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 1
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert out == "" and line.startswith("tripeaks: ") and len(line) > len("tripeaks: ")


@pytest.mark.parametrize("command", ["serve", "migrate"])
def test_a_database_it_cannot_use_is_status_1_in_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    argv = [command, "--db", str(folder)] + (["--no-browser"] if command == "serve" else [])
    assert main(argv) == 1
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert line.startswith(f"tripeaks: cannot use the database {folder}") and out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "TP1-E-AAAAAAB"],
        ["describe", "TP1-E-AAAAAAB"],
        ["play", "TP1-E-AAAAAAB"],
        ["solve", "TP1-E-AAAAAAB"],
        ["survey", "--deals", "2", "--workers", "1", "--seed", "1"],
        ["journey"],
        ["migrate", "--db", "{tmp}/games.db"],
    ],
    ids=lambda argv: argv[0],
)
def test_done_is_status_0(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))  # play: quit at once
    assert main([word.format(tmp=tmp_path) for word in argv]) == 0
    out, err = capsys.readouterr()
    assert out and err == ""


def test_a_reader_that_stops_reading_ends_it_quietly() -> None:
    """``tripeaks solve … --json | head -1``: the pipe closes before the answer is written."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tripeaks", "solve", "TP1-C-AAAAAAB", "--json"],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (1, "")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_draws_on_a_terminal_only() -> None:
    piped = io.StringIO()
    progress = _Progress(10, "survey easy", piped)
    for done in (5, 10):
        progress.update(done)
    assert piped.getvalue() == ""
    terminal = Terminal()
    progress = _Progress(10, "survey easy", terminal)
    progress.update(10)
    drawn = terminal.getvalue()
    assert drawn.startswith("\rsurvey easy [") and " 10/10 " in drawn
    assert drawn.endswith(" deals/s\n")
