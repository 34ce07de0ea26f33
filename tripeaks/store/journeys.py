"""The journey's tables: each player's best on each level (``journey``), their achievements'
progress (``achievements``) and the one-time transfer codes (``transfers``, by hash only).

What a won level game earns and how a counted game moves the achievements on is the policy's to
say (Policy.level, Policy.achieve: tripeaks/journey/achievements.py); this module hands it what
the store keeps and writes back what it says, in the transaction that counts the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from tripeaks.engine.game import Game
from tripeaks.store import sql
from tripeaks.store.common import Db, Reader, Write
from tripeaks.store.policy import Counted, LevelBest, Policy, Progress, Tag, Verdict

WEEK = 7
"""The days back a daily game's count reads the player's finished ranked attempts of."""


def fold(
    db: Db,
    policy: Policy,
    player: str,
    game_id: str,
    game: Game,
    outcome: str,
    verdict: Verdict | None,
    hint: str | None,
    tag: Tag | None,
    level: int | None,
    at: float,
) -> None:
    """A game being counted (results.count, once per game): a won level game's best kept, then
    the achievements moved on as the policy says, each one unlocked now marked with this game."""
    judged = None
    levels = None
    if level is not None and outcome == "won":
        judged = policy.level(level, game)
        if judged is not None:
            kept = db.execute(
                "SELECT stars, goal_met, best_score, game, won_at FROM journey"
                " WHERE player = ? AND level = ?",
                (player, level),
            ).fetchone()
            stars, met, best, earned, won_at = (
                (judged.stars, bool(judged.goal_met), judged.score, game_id, at)
                if kept is None
                else kept
            )
            if kept is not None:
                met = bool(met) or bool(judged.goal_met)
                if (judged.stars, judged.score) > (stars, best):
                    stars, best, earned, won_at = judged.stars, judged.score, game_id, at
            code = str(game.code)
            db.execute(
                sql.LEVEL_UPSERT, (player, level, code, stars, int(met), best, earned, won_at)
            )
            levels = tuple(
                LevelBest(n, s, bool(m), b)
                for n, s, m, b in db.execute(sql.LEVELS, (player,)).fetchall()
            )
    days: tuple[date, ...] = ()
    if tag is not None:
        first = tag.day - timedelta(days=WEEK - 1)
        rows = db.execute(
            sql.FINISHED_DAYS, (player, first.isoformat(), tag.day.isoformat())
        ).fetchall()
        found = {date.fromisoformat(day) for (day,) in rows}
        if outcome == "won":
            found.add(tag.day)  # its own row is marked finished after its count
        days = tuple(sorted(found))
    rows = db.execute(sql.ACHIEVED, (player,)).fetchall()
    kept_rows = {name: (Progress(p, b, u), g) for name, p, b, u, g in rows}
    counted = Counted(game, outcome, verdict, hint, tag, level, judged, levels, days, at)
    moved = policy.achieve({name: row for name, (row, _g) in kept_rows.items()}, counted)
    for name, row in moved.items():
        before, by = kept_rows.get(name, (Progress(), None))
        if row.unlocked_at is not None and before.unlocked_at is None:
            by = game_id
        db.execute(
            sql.ACHIEVEMENT_UPSERT, (player, name, row.progress, row.bits, row.unlocked_at, by)
        )


def transfer(player: str, digest: str, now: float, expires: float, keep: float) -> Write:
    """The write of a new transfer code (its hash): the player's earlier unused codes are spent,
    and codes expired more than ``keep`` seconds ago are forgotten."""

    def write(db: Db) -> None:
        db.execute(sql.TRANSFERS_GONE, (now - keep,))
        db.execute(sql.TRANSFERS_SPENT, (player,))
        db.execute(sql.TRANSFER, (digest, player, now, expires))

    return write


def redeem(digest: str, now: float, outcome: list[tuple[str, str | None]]) -> Write:
    """The write that spends a code: ``outcome`` is then [("redeemed", player)], or why not
    ("unknown", "expired", "spent"), decided in the commit's transaction so that two browsers
    redeeming one code at once cannot both have it."""

    def write(db: Db) -> None:
        outcome.clear()  # a batch may be written more than once (Storage.flush)
        outcome.append(check(db.execute(sql.TRANSFER_FOUND, (digest,)).fetchall(), now))
        if outcome[0][0] == "redeemed" and not db.execute(sql.TRANSFER_SPEND, (digest,)).rowcount:
            outcome[0] = ("spent", outcome[0][1])

    return write


def check(rows: Sequence[Sequence[object]], now: float) -> tuple[str, str | None]:
    """What a code's row says: ("redeemed", player) while it may be, else why not."""
    if not rows:
        return "unknown", None
    player, expires, spent = rows[0]
    assert isinstance(player, str) and isinstance(expires, int | float)
    if spent:
        return "spent", player
    if now >= expires:
        return "expired", player
    return "redeemed", player


class JourneyReads(Reader):
    """The journey's committed reads (a mixin of the store)."""

    def levels(self, player: str) -> list[LevelBest]:
        """The player's best on each level won, level 1 first."""
        rows = self._read(sql.LEVELS, (player,))
        return [LevelBest(n, s, bool(m), b) for n, s, m, b in rows]

    def level_best(self, player: str, number: int) -> int:
        """The player's best stars on one level (0: never won)."""
        rows = self._read(
            "SELECT stars FROM journey WHERE player = ? AND level = ?", (player, number)
        )
        return int(rows[0][0]) if rows else 0

    def achievements(self, player: str) -> dict[str, Progress]:
        """The player's achievements moved on so far, by id."""
        return {
            name: Progress(p, b, u) for name, p, b, u, _g in self._read(sql.ACHIEVED, (player,))
        }

    def unlocked_by(self, player: str, games: Sequence[str]) -> list[str]:
        """The achievements the count of these games unlocked (at most one count each)."""
        if not games:
            return []
        marks = ", ".join("?" * len(games))
        rows = self._read(
            f"SELECT achievement FROM achievements WHERE player = ? AND game IN ({marks})",
            (player, *games),
        )
        return [str(name) for (name,) in rows]

    def transfer_found(self, digest: str, now: float) -> tuple[str, str | None]:
        """A transfer code's standing by its hash, as committed (transfer: check)."""
        return check(self._read(sql.TRANSFER_FOUND, (digest,)), now)
