"""The terminal commands: deal, describe and a short terminal game."""

import subprocess
import sys

from test_deal import DEAL_MD_VECTOR

from tripeaks.cli.main import main


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tripeaks", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_deal_prints_the_layout(capsys: object) -> None:
    assert main(["deal", "tp1-c-aaaaaab"]) == 0
    assert capsys.readouterr().out.strip() == DEAL_MD_VECTOR  # type: ignore[attr-defined]


def test_describe_in_finnish(capsys: object) -> None:
    assert main(["describe", "TP1-E-AAAAAAB", "--lang", "fi"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert out.startswith("Nostopakka: 23 korttia; poistopino: ristirouva. Huippukortit:")


def test_a_bad_code_is_a_clear_error() -> None:
    result = run("deal", "TP1-E-AAAA")
    assert result.returncode == 1 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("tripeaks: ") and "7 letters" in line


def test_terminal_game_plays_draws_undoes_and_explains_refusals() -> None:
    result = run("play", "TP1-E-AAAAAAB", stdin="21\n5\nd\nu\nq\n")
    assert result.returncode == 0
    assert "This card is locked" in result.stdout
    assert "score 499  moves 1" in result.stdout
    assert "score 498  moves 2" in result.stdout
    assert "score 499  moves 2" in result.stdout


def test_terminal_game_redoes_what_was_undone() -> None:
    result = run("play", "TP1-E-AAAAAAB", stdin="21\nd\nu\nr\nr\nq\n")
    assert result.returncode == 0
    assert "score 499  moves 2" in result.stdout  # the draw undone
    assert "score 498  moves 3" in result.stdout  # and redone: a move
    assert "There is nothing to redo" in result.stdout
