"""The journey's reply shapes: the map, a level game's level and result, the achievements.

Every figure comes from the journey's data (journey/levels.json), the store's rows (each judged
from a game's actions when it was counted) or a replay of the game's own log (journey/stars.py):
no request carries one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from tripeaks.engine.game import Game
from tripeaks.journey import achievements, levels, stars
from tripeaks.journey.goals import Goal
from tripeaks.journey.levels import Level
from tripeaks.store.policy import LevelBest, LevelTag, Progress
from tripeaks.web.api.journey_models import (
    LEVEL_GRADE,
    AchievementOut,
    AchievementsOut,
    JourneyOut,
    MapLevelOut,
)
from tripeaks.web.api.models import (
    LAYOUT,
    RULES,
    GoalOut,
    LevelOut,
    LevelResultOut,
    NextStarOut,
    UnlockedOut,
)
from tripeaks.web.api.view import variant_out


def _level(tag: LevelTag | None, game: Game) -> Level | None:
    """The level of a level game: None for another game, and for a level the journey no longer
    has or whose deal is no longer this game's (a journey made again since it was started)."""
    if tag is None:
        return None
    try:
        level = levels.load().level(tag.number)
    except KeyError:
        return None
    return level if game.code is not None and str(game.code) == str(level.code) else None


def goal_out(goal: Goal | None) -> GoalOut | None:
    return None if goal is None else GoalOut(kind=goal.kind.value, n=goal.n)


def level_out(tag: LevelTag | None, game: Game) -> LevelOut | None:
    """A level game's level, with the player's best stars on it when the game was read."""
    level = _level(tag, game)
    if tag is None or level is None:
        return None
    return LevelOut(
        number=level.number,
        goal=goal_out(level.goal),
        best_score=level.best_score,
        fewest_draws=level.fewest_draws,
        stars_before=tag.best,
    )


def level_result_out(tag: LevelTag | None, game: Game, best: int) -> LevelResultOut | None:
    """A won level game judged by replaying its log (stars.judge), with the player's ``best``
    stars on the level as stored after it; None for a game not won or of no level."""
    level = _level(tag, game)
    if level is None or not game.is_won:
        return None
    journey = levels.load()
    judged = stars.judge(level, game.actions)
    following = judged.next
    return LevelResultOut(
        stars=judged.stars,
        score=judged.score,
        best_score=judged.best_score,
        goal_met=judged.goal_met,
        next=None if following is None else NextStarOut(kind=following["kind"], n=following["n"]),
        best_stars=max(best, judged.stars),
        next_level=level.number + 1 if level.number < len(journey.levels) else None,
    )


def unlocked_out(ids: Iterable[str]) -> list[UnlockedOut]:
    """Achievement ids in the list's order."""
    found = set(ids)
    return [UnlockedOut(id=a.id) for a in achievements.listed() if a.id in found]


def _map_level(level: Level, best: LevelBest | None, open_: bool) -> MapLevelOut:
    done = best is not None and best.stars > 0
    return MapLevelOut(
        number=level.number,
        layout=LAYOUT[level.code.layout.id],
        rules=RULES[level.code.rules],
        variant=variant_out(level.code.variant),
        grade=LEVEL_GRADE[level.grade.value],
        goal=goal_out(level.goal),
        best_score=level.best_score,
        fewest_draws=level.fewest_draws,
        stars=0 if best is None else best.stars,
        goal_met=best is not None and best.goal_met,
        state="done" if done else ("open" if open_ else "locked"),
    )


def states(rows: Sequence[LevelBest]) -> dict[int, LevelBest]:
    """The player's rows of levels done (won, a star at least), by level."""
    return {row.level: row for row in rows if row.stars > 0}


def is_open(number: int, done: dict[int, LevelBest]) -> bool:
    """Level 1 is always open; level k once level k-1 is done."""
    return number == 1 or (number - 1) in done


def journey_out(rows: Sequence[LevelBest]) -> JourneyOut:
    """The map: every level with the player's stars on it and whether it is open."""
    done = states(rows)
    all_levels = levels.levels()
    listed = [
        _map_level(level, done.get(level.number), is_open(level.number, done))
        for level in all_levels
    ]
    following = next((level.number for level in all_levels if level.number not in done), None)
    return JourneyOut(
        levels=listed,
        next=following,
        stars=sum(level.stars for level in listed),
        max_stars=stars.MAX_STARS * len(all_levels),
    )


def achievements_out(kept: dict[str, Progress]) -> AchievementsOut:
    """Every achievement in the fixed order, with the player's progress toward it."""
    out = []
    for achievement in achievements.listed():
        row = kept.get(achievement.id, Progress())
        at = row.unlocked_at
        out.append(
            AchievementOut(
                id=achievement.id,
                unlocked=at is not None,
                unlocked_at=None
                if at is None
                else datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds"),
                progress=min(row.progress, achievement.target),
                target=achievement.target,
            )
        )
    return AchievementsOut(achievements=out)
