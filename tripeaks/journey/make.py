"""Making the journey's data file: ``tripeaks journey --make`` (docs/journey.md "How the levels
are made").

The plan is fixed: on each of the seven layouts, SLOTS levels, each of one variant of VARIANTS
(both rules and every option), one target grade and one goal kind. A slot's deals come from its
own SplitMix64 stream, seeded from the journey's seed and the slot alone, and the first deal whose
proven grade is the slot's target is the slot's level: so one slot can be made again on its own
(the tests do) and the same seed always makes the same file, byte for byte. Each level's best
score comes from the exact solver (search.solve under our scoring, streak.best_score under the
traditional), and its goal from a line the solver gave, which becomes the witness; every line is
replayed through the engine here before it is written, and again by the tests.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from tripeaks.engine.codes import CODE_SPACE, GameCode, SplitMix64
from tripeaks.engine.game import Action
from tripeaks.engine.layout import Layout
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.journey.goals import Goal, GoalKind, met, replay
from tripeaks.journey.levels import Journey, Level
from tripeaks.solver import explain, search, streak
from tripeaks.solver.explain import PLAYS, Grade

SEED = 39
"""The shipped journey's seed (issue 39)."""
VARIANTS: tuple[str, ...] = ("E", "C", "E-O", "C-T", "E-D", "C-J", "E-T", "C-O", "E-DJ")
"""The variants of a layout's slots (statistics keys: rules, then options), each twice."""
GRADES: tuple[Grade, ...] = (Grade.GENTLE, Grade.MEDIUM, Grade.HARD)
SLOTS = 2 * len(VARIANTS)
"""Levels on each layout: 18, so 126 in all."""
GOALS: tuple[GoalKind | None, ...] = (
    None,
    GoalKind.DRAWS_AT_MOST,
    GoalKind.RUN_AT_LEAST,
    None,
    GoalKind.GROUP_FIRST,
    GoalKind.NO_UNDO,
)
"""The goal kinds slots take in turn (a traditional slot's draws goal is a score goal instead)."""
DRAWS_SLACK = 1
"""A draws goal allows the fewest draws and this many more."""
RUN_SHARE = Fraction(2, 3)
"""A run goal asks this share (rounded up) of the longest run of the traditional best win."""
SCORE_SHARE = Fraction(3, 4)
"""A score goal asks this share (rounded up) of the traditional best score of a win."""
TRIES = 10_000
"""Deals a slot tries before the tool gives up (about one in three has any given grade)."""
ORDER = {Grade.GENTLE: 0, Grade.MEDIUM: 1, Grade.HARD: 2}


@dataclass(frozen=True, slots=True)
class Slot:
    """One level of the plan: where and how it is played, and what is asked of its deal."""

    layout: Layout
    index: int
    """0 to SLOTS - 1, the slot's place among its layout's."""
    variant: Variant
    grade: Grade
    goal: GoalKind | None

    def stream(self, seed: int) -> SplitMix64:
        """The slot's own source of deal numbers."""
        layout = LAYOUTS.index(self.layout)
        return SplitMix64((seed << 16) | (layout << 8) | self.index)


def plan() -> tuple[Slot, ...]:
    """Every slot: slot 0 of each layout, then slot 1 of each, and so on (a prefix of the plan
    visits every layout). A variant's two slots on a layout get different grades, and the grades
    turn by one from layout to layout, so every variant has every grade somewhere."""
    slots = []
    for index in range(SLOTS):
        key = VARIANTS[index % len(VARIANTS)]
        for n, layout in enumerate(LAYOUTS):
            grade = GRADES[(index + index // len(VARIANTS) + n) % len(GRADES)]
            goal = GOALS[(index + n) % len(GOALS)]
            variant = Variant.from_key(key)
            if goal is GoalKind.DRAWS_AT_MOST and variant.scoring is Scoring.TRADITIONAL:
                goal = GoalKind.SCORE_AT_LEAST
            slots.append(Slot(layout, index, variant, grade, goal))
    return tuple(slots)


class NoDeal(RuntimeError):
    """No deal of a slot's grade among its TRIES."""


def _ours(code: GameCode) -> GameCode:
    return GameCode(replace(code.variant, scoring=Scoring.OURS), code.letters, code.layout)


def _traditional(code: GameCode) -> GameCode:
    variant = replace(code.variant, scoring=Scoring.TRADITIONAL)
    return GameCode(variant, code.letters, code.layout)


def _first_group(code: GameCode, line: Sequence[Action]) -> int:
    emptied = replay(code, line).emptied
    return emptied[0]


def _longest_run(code: GameCode, line: Sequence[Action]) -> int:
    return replay(code, line).game.longest_streak


def find(slot: Slot, seed: int = SEED) -> tuple[GameCode, int]:
    """The slot's deal: the first of its stream whose grade is the slot's, and its plays won."""
    stream = slot.stream(seed)
    for _ in range(TRIES):
        code = GameCode.from_number(stream.below(CODE_SPACE), slot.variant, slot.layout)
        if explain.grade(code) is slot.grade:
            return code, round(explain.win_share(code) * PLAYS)
    raise NoDeal(f"no {slot.grade.value} deal among {TRIES} for {slot}")


def make_level(slot: Slot, seed: int = SEED) -> Level:
    """The slot's level, numbered 1 (:func:`make` numbers the journey), its lines checked."""
    code, won_plays = find(slot, seed)
    fewest = search.solve(_ours(code))
    assert fewest.winnable  # the grade said so; the solver says it again
    long_win = streak.best_score(_traditional(code))
    if code.variant.scoring is Scoring.TRADITIONAL:
        assert long_win.win_score is not None
        best_score, best_line = long_win.win_score, long_win.win_line
    else:
        assert fewest.final_score is not None
        best_score, best_line = fewest.final_score, fewest.line
    goal: Goal | None = None
    witness = best_line
    if slot.goal is GoalKind.DRAWS_AT_MOST:
        goal, witness = Goal(slot.goal, fewest.draws + DRAWS_SLACK), fewest.line
    elif slot.goal is GoalKind.RUN_AT_LEAST:
        run = _longest_run(code, long_win.win_line)
        goal, witness = Goal(slot.goal, math.ceil(run * RUN_SHARE)), long_win.win_line
    elif slot.goal is GoalKind.GROUP_FIRST:
        goal, witness = Goal(slot.goal, _first_group(code, fewest.line)), fewest.line
    elif slot.goal is GoalKind.SCORE_AT_LEAST:
        goal = Goal(slot.goal, math.ceil(best_score * SCORE_SHARE))
    elif slot.goal is GoalKind.NO_UNDO:
        goal = Goal(slot.goal)
    level = Level(
        number=1,
        code=code,
        grade=slot.grade,
        won_plays=won_plays,
        best_score=best_score,
        fewest_draws=fewest.draws,
        goal=goal,
        witness=witness,
        best_line=best_line,
    )
    check(level)
    return level


def check(level: Level) -> None:
    """The level's proofs, replayed through the engine: its witness wins and meets its goal, its
    best line wins with the best score, and a win with the fewest draws scores at most the best.
    AssertionError when one does not hold."""
    played = replay(level.code, level.witness)
    assert played.won, f"{level.code}: the witness does not win"
    assert level.goal is None or met(level.goal, played), f"{level.code}: the goal is not met"
    best = replay(level.code, level.best_line)
    assert best.won and best.game.score == level.best_score, f"{level.code}: no best score"
    if not level.traditional:
        assert best.game.drawn == level.fewest_draws, f"{level.code}: not the fewest draws"


BAND = 20
"""Plays won (of explain.PLAYS) that count as the same ease within a grade: a tenth of them. The
share of 200 plays is an estimate (at a share of 0.8, two standard errors are 11 plays), so the
order within a band is by the options and the layout instead, which brings the standard games and
Three Peaks first."""


def key(level: Level) -> tuple[int, int, int, int, int, str]:
    """The journey's order: by grade, gentle first; within a grade by ease, the plays the
    visible-card strategy lost in bands of BAND (fewest lost first); within a band fewer options
    first, then the layouts' order, then more plays won, then the code."""
    return (
        ORDER[level.grade],
        (PLAYS - level.won_plays) // BAND,
        len(level.code.options),
        LAYOUTS.index(level.code.layout),
        -level.won_plays,
        str(level.code),
    )


def make(seed: int = SEED, count: int | None = None) -> Journey:
    """The journey of ``seed``: the first ``count`` slots of the plan (all of them by default),
    each slot's level, in the journey's order and numbered from 1."""
    slots = plan()[:count]
    made = sorted((make_level(slot, seed) for slot in slots), key=key)
    codes = [str(level.code) for level in made]
    if len(set(codes)) != len(codes):
        raise NoDeal("two slots drew the same deal: choose another seed")
    return Journey(seed, tuple(replace(level, number=n) for n, level in enumerate(made, 1)))


def distribution(journey: Journey) -> str:
    """The journey's levels counted by grade and layout, then by grade and variant, as the two
    Markdown tables of docs/journey.md "The journey as shipped" (the tests compare them)."""
    grades = list(GRADES)

    def table(title: str, columns: Sequence[str], of: Callable[[Level], str]) -> list[str]:
        counts = Counter((level.grade, of(level)) for level in journey.levels)
        lines = [
            f"| grade | {' | '.join(columns)} | all |",
            "|---" * (len(columns) + 2) + "|",
        ]
        for grade in grades:
            row = [counts[grade, column] for column in columns]
            lines.append(f"| {grade.value} | {' | '.join(map(str, row))} | {sum(row)} |")
        totals = [sum(counts[grade, column] for grade in grades) for column in columns]
        lines.append(f"| all | {' | '.join(map(str, totals))} | {sum(totals)} |")
        return [title, "", *lines]

    layouts = table("By layout:", [layout.id for layout in LAYOUTS], lambda lv: lv.code.layout.id)
    variants = table(
        "By variant (rules, then options):", list(VARIANTS), lambda lv: lv.code.variant.key
    )
    goals = Counter("none" if lv.goal is None else lv.goal.kind.value for lv in journey.levels)
    kinds = ["none", *(kind.value for kind in GoalKind)]
    goal_line = "Goals: " + ", ".join(f"{kind} {goals[kind]}" for kind in kinds) + "."
    return "\n".join([*layouts, "", *variants, "", *stretches(journey), "", goal_line]) + "\n"


STRETCHES = 6


def stretches(journey: Journey) -> list[str]:
    """The journey in STRETCHES stretches of levels: each one's layouts and grades."""
    size = math.ceil(len(journey.levels) / STRETCHES)
    columns = [layout.id for layout in LAYOUTS]
    lines = [
        "Along the journey:",
        "",
        f"| levels | {' | '.join(columns)} | gentle | medium | hard |",
        "|---" * (len(columns) + 4) + "|",
    ]
    for start in range(0, len(journey.levels), size):
        part = journey.levels[start : start + size]
        layouts = Counter(level.code.layout.id for level in part)
        grades = Counter(level.grade for level in part)
        cells = [layouts[column] for column in columns] + [grades[grade] for grade in GRADES]
        lines.append(f"| {part[0].number}-{part[-1].number} | {' | '.join(map(str, cells))} |")
    return lines


__all__ = [
    "SEED",
    "SLOTS",
    "VARIANTS",
    "NoDeal",
    "Slot",
    "check",
    "distribution",
    "find",
    "key",
    "make",
    "plan",
]
