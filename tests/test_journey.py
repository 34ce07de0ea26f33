"""The journey's levels (issue 39): the shipped data file's proofs replayed through the engine and
re-checked by the solver, stars and goals judged from action logs alone, and the tool that makes
the file (``tripeaks journey --make``) deterministic and in agreement with the file."""

from __future__ import annotations

import inspect
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from tripeaks.cli.main import main
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, UNDO, Action, Game, IllegalMove
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import OPTION_LETTERS, Scoring
from tripeaks.journey import make, stars
from tripeaks.journey.goals import Goal, GoalKind, met, replay
from tripeaks.journey.levels import Journey, Level, dumps, load, loads
from tripeaks.solver import explain, search, streak
from tripeaks.solver.explain import PLAYS, Grade

JOURNEY = load()
LEVELS = JOURNEY.levels


def _ours(code: GameCode) -> GameCode:
    return GameCode(replace(code.variant, scoring=Scoring.OURS), code.letters, code.layout)


def _level(*, traditional: bool) -> Level:
    """The first shipped Three Peaks level of the scoring, with no other option."""
    return next(
        level
        for level in LEVELS
        if level.traditional is traditional
        and level.code.layout is LAYOUTS[0]
        and level.code.options == ("T" if traditional else "")
    )


# The shipped file -----------------------------------------------------------------------------


def test_the_journey_spans_every_layout_rules_and_option_gentle_to_hard() -> None:
    assert len(LEVELS) >= 120
    assert [level.number for level in LEVELS] == list(range(1, len(LEVELS) + 1))
    assert {level.code.layout for level in LEVELS} == set(LAYOUTS)
    assert {level.code.rules for level in LEVELS} == set(Rules)
    for letter in OPTION_LETTERS:
        assert any(letter in level.code.options for level in LEVELS), letter
    assert [make.key(level) for level in LEVELS] == sorted(make.key(level) for level in LEVELS)
    grades = [level.grade for level in LEVELS]
    assert grades[0] is Grade.GENTLE and grades[-1] is Grade.HARD
    assert len({str(level.code) for level in LEVELS}) == len(LEVELS)
    assert {level.goal.kind for level in LEVELS if level.goal} == set(GoalKind)
    assert any(level.goal is None for level in LEVELS)


@pytest.mark.parametrize("level", LEVELS, ids=lambda level: f"{level.number}-{level.code}")
def test_every_level_is_proven_by_its_lines_and_again_by_the_solver(level: Level) -> None:
    witness = replay(level.code, level.witness)
    assert witness.won
    assert level.goal is None or met(level.goal, witness)
    best = replay(level.code, level.best_line)
    assert best.won and best.game.score == level.best_score
    fewest = search.solve(_ours(level.code))
    assert fewest.winnable and fewest.draws == level.fewest_draws
    if level.traditional:
        assert streak.best_score(level.code).win_score == level.best_score
    else:
        assert fewest.final_score == level.best_score
        assert best.game.drawn == level.fewest_draws
    assert explain.grade(level.code) is level.grade
    assert round(explain.win_share(level.code) * PLAYS) == level.won_plays


def test_the_file_is_what_the_tool_makes_slot_by_slot() -> None:
    """Every layout's first two slots made again, each equal to its shipped level (the whole file
    is `tripeaks journey --make --check`, docs/journey.md)."""
    shipped = {str(level.code): level for level in LEVELS}
    for slot in make.plan()[: 2 * len(LAYOUTS)]:
        made = make.make_level(slot)
        assert replace(made, number=shipped[str(made.code)].number) == shipped[str(made.code)]


def test_the_data_file_reads_back_to_the_same_text() -> None:
    path = Path(make.__file__).with_name("levels.json")
    assert dumps(loads(path.read_text(encoding="utf-8"))) == path.read_text(encoding="utf-8")


def test_a_data_file_of_another_format_or_numbering_is_refused() -> None:
    data = json.loads(dumps(JOURNEY))
    with pytest.raises(ValueError, match="format"):
        loads(json.dumps({**data, "format": 2}))
    data["levels"][0]["number"] = 2
    with pytest.raises(ValueError, match="numbered"):
        loads(json.dumps(data))


# Stars -----------------------------------------------------------------------------------------


def _wins(level: Level) -> dict[int, tuple[Action, ...]]:
    """Wins of the level's deal by their draws, found by the solver: the best line up to a point,
    then one to four draws, then the best win from there. A deal's wins do not take every count of
    draws (a win's last draw must be a card the rest of the table can be played on)."""
    line = level.best_line
    found: dict[int, tuple[Action, ...]] = {}
    for extra in range(1, 5):
        for cut in range(len(line)):
            game = Game.replay(level.code, line[:cut])
            if game.stock_size < extra:
                continue
            for _ in range(extra):
                game.apply(DRAW)
            rest = search.solve(game)
            if rest.winnable:
                found.setdefault(game.drawn + rest.draws, (*game.actions, *rest.line))
    return found


def test_stars_under_our_scoring_count_draws_above_the_fewest() -> None:
    level = _level(traditional=False)
    best = stars.judge(level, level.best_line)
    assert (best.stars, best.won, best.score, best.next) == (3, True, level.best_score, None)
    wins = _wins(level)
    fewest, margin = level.fewest_draws, stars.MARGIN_DRAWS
    assert min(wins) == fewest
    near = min(draws for draws in wins if draws > fewest)
    assert near <= fewest + margin  # the level the test picks has one
    two = stars.judge(level, wins[near])
    assert two.stars == 2 and two.score == level.best_score - (near - fewest)
    assert two.next == {"kind": "draws_at_most", "n": fewest}
    far = min(draws for draws in wins if draws > fewest + margin)
    one = stars.judge(level, wins[far])
    assert one.stars == 1 and one.won
    assert one.next == {"kind": "draws_at_most", "n": fewest + margin}
    unfinished = stars.judge(level, level.best_line[:-1])
    assert (unfinished.stars, unfinished.won, unfinished.next) == (0, False, {"kind": "win"})
    assert two.to_data() == {
        "stars": 2,
        "won": True,
        "score": two.score,
        "best_score": level.best_score,
        "goal_met": None if level.goal is None else two.goal_met,
        "next": {"kind": "draws_at_most", "n": fewest},
    }
    # the margin is exact: the same win against a best one point higher is one draw further off
    assert (
        stars.judge(
            replace(level, best_score=level.best_score + fewest + margin - near + 1), wins[near]
        ).stars
        == 1
    )


def test_an_undone_draw_costs_no_star() -> None:
    level = _level(traditional=False)
    result = stars.judge(level, [DRAW, UNDO, *level.best_line])
    assert result.stars == 3 and result.score == level.best_score


def test_stars_under_the_traditional_scoring_are_shares_of_the_best() -> None:
    level = _level(traditional=True)
    score = replay(level.code, level.best_line).game.score
    assert stars.judge(level, level.best_line).stars == 3
    # the same win measured against higher bests: half of the best still earns two stars
    assert stars.judge(replace(level, best_score=2 * score), level.best_line).stars == 2
    higher = replace(level, best_score=2 * score + 2)
    assert math.ceil(higher.best_score * stars.TRADITIONAL_SHARE) == score + 1
    result = stars.judge(higher, level.best_line)
    assert result.stars == 1 and result.next == {"kind": "score_at_least", "n": score + 1}
    assert stars.next_star(level, 2) == {"kind": "score_at_least", "n": level.best_score}


def test_stars_come_from_actions_alone() -> None:
    """No score, star or goal a caller states is an input: judge takes the level and the log, and
    a log the engine refuses earns nothing but an error."""
    assert list(inspect.signature(stars.judge).parameters) == ["level", "actions"]
    level = _level(traditional=False)
    with pytest.raises(IllegalMove):
        stars.judge(level, [*level.best_line, DRAW])  # past the win: the game is over
    with pytest.raises(IllegalMove):
        stars.judge(level, [Action.play(0)])  # a covered card
    with pytest.raises(ValueError):
        stars.judge(level, ["score 9999"])
    texts = [str(action) for action in level.best_line]
    assert stars.judge(level, texts) == stars.judge(level, level.best_line)


# Goals -----------------------------------------------------------------------------------------


def test_goals_are_judged_by_replaying_the_actions() -> None:
    level = _level(traditional=False)
    code, line = level.code, level.best_line
    won = replay(code, line)
    lost = replay(code, line[:-1])
    draws, run = won.game.drawn, won.game.longest_streak
    first = won.emptied[0]
    assert met(Goal(GoalKind.DRAWS_AT_MOST, draws), won)
    assert not met(Goal(GoalKind.DRAWS_AT_MOST, draws - 1), won)
    assert met(Goal(GoalKind.RUN_AT_LEAST, run), won)
    assert not met(Goal(GoalKind.RUN_AT_LEAST, run + 1), won)
    assert met(Goal(GoalKind.GROUP_FIRST, first), won)
    others = set(range(len(code.layout.groups))) - {first}
    assert not any(met(Goal(GoalKind.GROUP_FIRST, group), won) for group in others)
    assert met(Goal(GoalKind.NO_UNDO), won)
    assert not met(Goal(GoalKind.NO_UNDO), replay(code, [DRAW, UNDO, *line]))
    for goal in (
        Goal(GoalKind.DRAWS_AT_MOST, 99),
        Goal(GoalKind.NO_UNDO),
        Goal(GoalKind.RUN_AT_LEAST, 0),
    ):
        assert not met(goal, lost)  # every goal asks for a win
    assert not met(Goal(GoalKind.SCORE_AT_LEAST, 0), won)  # not a traditional game


def test_an_undo_takes_back_the_group_it_refills() -> None:
    level = _level(traditional=False)
    line = level.best_line
    cut = next(i for i in range(1, len(line) + 1) if replay(level.code, line[:i]).emptied)
    assert replay(level.code, [*line[:cut], UNDO]).emptied == ()
    again = replay(level.code, [*line[:cut], UNDO, line[cut - 1], *line[cut:]])
    assert again.emptied == replay(level.code, line).emptied and again.undos == 1


def test_a_score_goal_reads_the_traditional_score() -> None:
    level = _level(traditional=True)
    played = replay(level.code, level.best_line)
    assert met(Goal(GoalKind.SCORE_AT_LEAST, level.best_score), played)
    assert not met(Goal(GoalKind.SCORE_AT_LEAST, level.best_score + 1), played)


def test_a_goal_that_does_not_fit_its_code_is_refused() -> None:
    level = _level(traditional=False)
    with pytest.raises(ValueError, match="does not fit"):
        replace(level, goal=Goal(GoalKind.SCORE_AT_LEAST, 10))
    with pytest.raises(ValueError, match="does not fit"):
        replace(level, goal=Goal(GoalKind.GROUP_FIRST, len(level.code.layout.groups)))
    with pytest.raises(ValueError):
        Goal(GoalKind.NO_UNDO, 3)
    with pytest.raises(ValueError):
        Goal(GoalKind.DRAWS_AT_MOST)


# The tool --------------------------------------------------------------------------------------


def test_make_is_deterministic_and_check_compares_bytes(tmp_path: Path) -> None:
    first, second = make.make(count=3), make.make(count=3)
    assert dumps(first) == dumps(second)
    assert isinstance(first, Journey) and len(first.levels) == 3
    out = tmp_path / "levels.json"
    assert main(["journey", "--make", "--count", "3", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == dumps(first)
    assert main(["journey", "--make", "--count", "3", "--out", str(out), "--check"]) == 0
    out.write_text(dumps(first).replace('"seed": 39', '"seed": 40'), encoding="utf-8")
    assert main(["journey", "--make", "--count", "3", "--out", str(out), "--check"]) == 1
    assert dumps(make.make(seed=40, count=3)) != dumps(first)


def test_the_plan_covers_every_layout_variant_and_grade() -> None:
    slots = make.plan()
    assert len(slots) == len(LAYOUTS) * make.SLOTS >= 120
    for layout in LAYOUTS:
        mine = [slot for slot in slots if slot.layout is layout]
        assert {slot.variant.key for slot in mine} == set(make.VARIANTS)
        assert {slot.grade for slot in mine} == {Grade.GENTLE, Grade.MEDIUM, Grade.HARD}
    for key in make.VARIANTS:
        assert {slot.grade for slot in slots if slot.variant.key == key} == set(make.GRADES)
    for slot in slots:
        traditional = slot.variant.scoring is Scoring.TRADITIONAL
        assert (slot.goal is GoalKind.SCORE_AT_LEAST) <= traditional


def test_the_docs_show_the_shipped_journey() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "journey.md").read_text("utf-8")
    shipped = docs.split("## The journey as shipped", 1)[1]
    assert make.distribution(JOURNEY) in shipped
