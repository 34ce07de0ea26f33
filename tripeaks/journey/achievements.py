"""The achievements, and a won level game judged: the journey's part of the policy (issue 39).

Which achievements there are, their targets and how one counted game moves each of them on are
decided here, from the engine's game (its code and its whole log, as the store replayed or applied
it) and what the store already keeps: the deal's verdict and grade, the kind of hint asked, the
daily's finished days and the player's rows of the journey. Nothing a request says is read. The
store hands these in as it counts a game and writes back what comes out (store/journeys.py); the
list and its rules are in docs/journey.md "Achievements".

Pure: no SQL, no clock (the store's time comes in with the game), no words (the page's catalog
names each achievement ``achievement.<id>.name``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date, timedelta

from tripeaks.engine.game import ActionKind, Game
from tripeaks.engine.layouts import LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.journey import levels, stars
from tripeaks.solver.explain import Grade
from tripeaks.store.policy import Counted, LevelBest, LevelResult, Progress


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: its id (the API's and the catalogs' word) and the progress that unlocks it."""

    id: str
    target: int


OPTIONS: tuple[Callable[[Variant], bool], ...] = (
    lambda v: v.open_peaks,
    lambda v: v.empty_discard,
    lambda v: v.joker,
    lambda v: v.scoring is Scoring.TRADITIONAL,
)
"""every_option's four: open peaks, empty discard, joker, the traditional scoring (a bit each)."""
RUN_SHORT, RUN_LONG = 10, 20
TRADITIONAL_MARK = 300
WIN_STREAK = 5
DAILY_DAYS = 7


@functools.cache
def listed() -> tuple[Achievement, ...]:
    """Every achievement, in the order the API lists them."""
    count = len(levels.levels())
    return (
        Achievement("first_win", 1),
        Achievement("wins_10", 10),
        Achievement("wins_100", 100),
        Achievement("half_stock_win", 1),
        Achievement("run_10", RUN_SHORT),
        Achievement("run_20", RUN_LONG),
        Achievement("classic_no_undo", 1),
        Achievement("hard_no_hints", 1),
        Achievement("perfect_score", 1),
        Achievement("every_layout", len(LAYOUTS)),
        Achievement("every_option", len(OPTIONS)),
        Achievement("traditional_300", TRADITIONAL_MARK),
        Achievement("win_streak_5", WIN_STREAK),
        Achievement("daily_first", 1),
        Achievement("daily_7", DAILY_DAYS),
        Achievement("level_1", 1),
        Achievement("levels_25", min(25, count)),
        Achievement("levels_all", count),
        Achievement("three_stars_20", min(20, count)),
        Achievement("stars_100", min(100, stars.MAX_STARS * count)),
        Achievement("goals_10", 10),
    )


def targets() -> dict[str, int]:
    return {a.id: a.target for a in listed()}


def level(number: int, game: Game) -> LevelResult | None:
    """A won game of level ``number`` judged by replaying its whole log (stars.judge): None when
    there is no such level, the game is not of its deal or was not won."""
    try:
        found = levels.load().level(number)
    except KeyError:
        return None
    if game.code is None or str(game.code) != str(found.code):
        return None
    judged = stars.judge(found, game.actions)
    if not judged.won:
        return None
    return LevelResult(judged.stars, judged.goal_met, judged.score)


def _grade(counted: Counted) -> str | None:
    """The deal's grade: the solver's verdict's, else the level's (a level with options has no
    verdict, but the tool graded it)."""
    if counted.verdict is not None and counted.verdict.grade is not None:
        return counted.verdict.grade
    if counted.level is not None and counted.judged is not None:
        return levels.load().level(counted.level).grade.value
    return None


def _perfect(counted: Counted) -> bool:
    """Won with the best score the deal allows: the verdict's (a standard deal, our scoring) or a
    level's three stars (its proven best, under its own scoring)."""
    if counted.judged is not None and counted.judged.stars == stars.MAX_STARS:
        return True
    verdict = counted.verdict
    return (
        verdict is not None
        and verdict.best is not None
        and counted.game.variant.scoring is Scoring.OURS
        and counted.game.score >= verdict.best
    )


def _run_of_days(days: tuple[date, ...], last: date) -> int:
    """The days in a row among ``days`` that end on ``last`` (0 when ``last`` is not one)."""
    found, run = set(days), 0
    while last - timedelta(days=run) in found:
        run += 1
    return run


def _journey(rows: tuple[LevelBest, ...]) -> dict[str, int]:
    """The journey's figures from the player's rows: levels done, three-star levels, stars, goals."""
    count = len(levels.levels())
    kept = [row for row in rows if 1 <= row.level <= count and row.stars > 0]
    done = len(kept)
    return {
        "level_1": int(any(row.level == 1 for row in kept)),
        "levels_25": done,
        "levels_all": done,
        "three_stars_20": sum(row.stars == stars.MAX_STARS for row in kept),
        "stars_100": sum(row.stars for row in kept),
        "goals_10": sum(row.goal_met for row in kept),
    }


def achieve(kept: Mapping[str, Progress], counted: Counted) -> dict[str, Progress]:
    """The achievements one counted game moves on, by id (only those it changes). Progress never
    goes past the target nor back; an achievement is unlocked, at the game's count, the first
    time its progress reaches the target, and stays unlocked."""
    game, won = counted.game, counted.outcome == "won"
    goal = targets()
    moved: dict[str, Progress] = {}

    def now(name: str) -> Progress:
        return moved.get(name) or kept.get(name) or Progress()

    def reach(name: str, value: int, bits: int | None = None) -> None:
        before = now(name)
        progress = min(goal[name], max(before.progress, value))
        after = replace(before, progress=progress, bits=before.bits if bits is None else bits)
        if after.unlocked_at is None and progress >= goal[name]:
            after = replace(after, unlocked_at=counted.at)
        if after != (kept.get(name) or Progress()):
            moved[name] = after

    if won:
        for name in ("first_win", "wins_10", "wins_100"):
            reach(name, now(name).progress + 1)
        if game.stock_size >= game.drawn:  # at least half the stock never drawn
            reach("half_stock_win", 1)
        undone = any(action.kind is ActionKind.UNDO for action in game.actions)
        if game.rules is Rules.CLASSIC and not undone:
            reach("classic_no_undo", 1)
        if counted.hint is None and _grade(counted) == Grade.HARD.value:
            reach("hard_no_hints", 1)
        if _perfect(counted):
            reach("perfect_score", 1)
        layouts = now("every_layout").bits | 1 << LAYOUTS.index(game.layout)
        reach("every_layout", layouts.bit_count(), layouts)
        options = now("every_option").bits
        for bit, has in enumerate(OPTIONS):
            options |= has(game.variant) << bit
        reach("every_option", options.bit_count(), options)
        if counted.tag is not None:
            reach("daily_first", 1)
    reach("run_10", game.longest_streak)
    reach("run_20", game.longest_streak)
    if game.variant.scoring is Scoring.TRADITIONAL:
        reach("traditional_300", game.score)
    streak = now("win_streak_5").bits + 1 if won else 0
    reach("win_streak_5", streak, streak)
    if counted.tag is not None:
        reach("daily_7", _run_of_days(counted.finished_days, counted.tag.day))
    if counted.levels is not None:
        for name, value in _journey(counted.levels).items():
            reach(name, value)
    return moved


class Keeper:
    """The journey's part of the app's policy (store.policy.Progression: daily.Policy takes it)."""

    def level(self, number: int, game: Game) -> LevelResult | None:
        return level(number, game)

    def achieve(self, kept: Mapping[str, Progress], counted: Counted) -> dict[str, Progress]:
        return achieve(kept, counted)


__all__ = ["Achievement", "Keeper", "achieve", "level", "listed", "targets"]
