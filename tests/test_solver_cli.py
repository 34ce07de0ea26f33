"""The ``tripeaks solve`` and ``tripeaks survey`` commands."""

from __future__ import annotations

import json

import pytest

from tripeaks.cli.main import main
from tripeaks.cli.solve import survey_codes, survey_numbers_of, wilson_interval
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Game
from tripeaks.engine.layouts import BY_ID
from tripeaks.engine.rules import Rules
from tripeaks.solver.search import is_winnable, solve


def test_solve_prints_the_verdict_the_best_score_and_the_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "TP1-E-AAAAAAB"]) == 0
    out = capsys.readouterr().out
    assert "TP1-E-AAAAAAB (Easy): winnable; best score 759 with 13 draws in 41 moves" in out
    assert out.split("\n")[1].split()[:3] == ["J♠", "10♥", "draw"]


def test_solve_json_gives_the_line_as_actions_and_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", " tp1-c-aaaaaab ", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["code"] == "TP1-C-AAAAAAB" and result["rules"] == "classic"
    assert (result["winnable"], result["final_score"], result["draws"]) == (True, 750, 22)
    assert result["line"].count("draw") == 22 and len(result["line"]) == len(result["cards"]) == 50
    assert result["cards"][1] == "draw 4♠"


def test_solve_both_rules_reports_a_lost_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "TP1-E-EYVQHJU", "--json", "--both-rules"]) == 0
    easy, classic = json.loads(capsys.readouterr().out)
    assert (easy["rules"], easy["winnable"]) == ("easy", True)
    assert classic == {
        "code": "TP1-C-EYVQHJU",
        "rules": "classic",
        "scoring": "ours",
        "winnable": False,
        "final_score": None,
        "draws": None,
        "max_removed": 25,
        "line": [],
        "cards": [],
    }
    main(["solve", "TP1-C-EYVQHJU"])
    assert "not winnable; at most 25 of 28 cards can be removed" in capsys.readouterr().out


def test_solve_gives_the_traditional_best_score_and_its_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Under the traditional scoring the best score can end stuck (TP1-E-OHYPLZE-T: 169 points
    without a win, 140 with the best win), and the line replays through the engine to it."""
    assert main(["solve", "TP1-E-OHYPLZE-T", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["scoring"], result["winnable"], result["won"]) == ("traditional", True, False)
    assert (result["final_score"], result["win_score"], result["max_removed"]) == (169, 140, 28)
    game = Game.replay(result["code"], result["line"])
    assert game.is_stuck and game.score == 169
    assert result["draws"] == result["line"].count("draw") == 23  # the whole stock, stuck
    assert len(result["cards"]) == len(result["line"]) == 23 + 28 - game.present.bit_count()
    main(["solve", "TP1-C-OHYPLZE-DJT"])
    out = capsys.readouterr().out
    assert out.startswith("TP1-C-OHYPLZE-DJT (Classic, traditional scoring): winnable; best score")
    assert "draw 🃏" in out


def test_survey_counts_the_winnable_share_of_reproducible_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    codes = list(survey_codes(8, Rules.CLASSIC, seed=11))
    assert codes == list(survey_codes(8, Rules.CLASSIC, seed=11))
    won = sum(is_winnable(code) for code in codes)
    assert (
        main(["survey", "--deals", "8", "--rules", "classic", "--seed", "11", "--workers", "2"])
        == 0
    )
    captured = capsys.readouterr()
    assert captured.out.startswith(f"classic: {won} of 8 deals winnable")
    assert captured.err == ""  # no progress bar: stderr is no terminal here


def test_survey_draws_adds_the_histogram_of_the_fewest_draws(
    capsys: pytest.CaptureFixture[str],
) -> None:
    codes = list(survey_codes(6, Rules.EASY, seed=5))
    fewest = [solve(code) for code in codes]
    assert main(["survey", "--deals", "6", "--seed", "5", "--workers", "1", "--draws"]) == 0
    out = capsys.readouterr().out.splitlines()
    won = [s.draws for s in fewest if s.winnable]
    assert out[0].startswith(f"easy: {len(won)} of 6 deals winnable")
    assert out[1].startswith("fewest draws of a win")
    rows = {int(line.split()[0]): int(line.split()[1]) for line in out[2:]}
    assert rows == {draws: won.count(draws) for draws in set(won)}


def test_survey_numbers_are_the_codes_numbers() -> None:
    assert [c.number for c in survey_codes(20, Rules.CLASSIC, seed=3)] == list(
        survey_numbers_of(20, seed=3)
    )


def test_wilson_interval() -> None:
    low, high = wilson_interval(73, 100)
    assert low == pytest.approx(0.6357, abs=1e-4) and high == pytest.approx(0.8073, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(10, 10)[0] == pytest.approx(0.7225, abs=1e-4)


@pytest.mark.parametrize("name", ["four_peaks", "FOURPEAKS", "Four_Peaks", "fourpeaks"])
def test_survey_on_a_layout_decides_its_deals_on_that_table(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same numbers as on Three Peaks, each a code naming the layout (the id or its code word,
    in any case)."""
    layout = BY_ID["four_peaks"]
    codes = [
        GameCode(Rules.CLASSIC, code.letters, layout)
        for code in survey_codes(8, Rules.CLASSIC, seed=11)
    ]
    won = sum(is_winnable(code) for code in codes)
    args = ["survey", "--deals", "8", "--rules", "classic", "--seed", "11", "--workers", "1"]
    assert main([*args, "--layout", name]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"classic on four_peaks: {won} of 8 deals winnable")


def test_survey_refuses_an_unknown_layout_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["survey", "--deals", "8", "--layout", "five_peaks"])
    assert exit_.value.code != 0
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "argument --layout" in error and "'five_peaks'" in error and "four_peaks" in error
