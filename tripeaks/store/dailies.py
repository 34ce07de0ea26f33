"""The daily's tables: each daily game's row (``dailies``), the counts of a day's scores
(``daily_scores``), and the reads of the board, a player's days and ranks.

What a ranked attempt's row holds after an action is the policy's to say (Policy.figures); this
module writes it and reads it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from tripeaks.engine.codes import GameCode
from tripeaks.store import sql
from tripeaks.store.common import Db, Reader
from tripeaks.store.policy import Figures, Policy, Tag


@dataclass(frozen=True, slots=True)
class Standing:
    """One daily game as the dailies table keeps it (figures: a ranked attempt's only)."""

    day: date
    player: str
    name: str | None
    """The player's nickname, if set."""
    game: str
    ranked: bool
    finished: bool
    won: bool
    score: int
    moves: int
    seconds: float
    """From the first action to the last, as the server's clock measured them."""
    streak: int
    peaks: int
    """Peaks cleared, as bits (daily.peaks_mask)."""
    too_fast: bool = False
    """Finished faster than a person plays (daily.too_fast): the player's own result, on no
    public board and in nobody's rank."""

    @property
    def shown(self) -> bool:
        """On its day's public board: finished, ranked and played at a person's pace."""
        return self.ranked and self.finished and not self.too_fast

    @classmethod
    def of(cls, row: Sequence[Any]) -> Standing:
        day, player, name, game, ranked, finished, won, *figures = row
        score, moves, seconds, streak, peaks, fast = figures
        return cls(
            date.fromisoformat(day),
            player,
            name,
            game,
            bool(ranked),
            bool(finished),
            bool(won),
            score,
            moves,
            seconds,
            streak,
            peaks,
            bool(fast),
        )


def tag_of(row: Sequence[Any] | None) -> Tag | None:
    """A game's tag from its (day, ranked) row in ``dailies``; None for a game with none."""
    return None if row is None else Tag(date.fromisoformat(row[0]), bool(row[1]))


def insert(db: Db, game_id: str, player: str, tag: Tag, address: str | None) -> bool:
    """A daily game's row; False when a ranked attempt's player has one of the day already (made
    before attempts had their own id: the ``dailies_ranked`` index refused it), which is stored
    unranked instead."""
    row = (game_id, tag.day.isoformat(), player, address)
    if tag.ranked and db.execute(sql.DAILY_RANKED, row).rowcount:
        return True
    db.execute(sql.DAILY, (*row, 0))
    return not tag.ranked


def move(db: Db, game_id: str, day: date, figures: Figures, now: float) -> None:
    """A ranked attempt's figures after an action at ``now``; a finished one played at a person's
    pace joins its day's count of its score (the board's ranks)."""
    db.execute(
        sql.DAILY_MOVE,
        (
            int(figures.finished),
            int(figures.won),
            figures.score,
            figures.moves,
            figures.streak,
            figures.peaks,
            now,
            now,
            now,
            now,
            int(figures.too_fast),
            game_id,
        ),
    )
    if figures.finished and not figures.too_fast:
        db.execute(sql.FINISHED, (day.isoformat(), figures.score))


class DailyReads(Reader):
    """The daily's committed reads (a mixin of the store)."""

    policy: Policy

    def daily_games(self, player: str, day: date) -> list[Standing]:
        """The player's daily games of a day, oldest first (the ranked attempt first of all)."""
        rows = self._read(
            f"{sql.STANDING} JOIN games g ON g.id = d.game WHERE d.player = ? AND d.day = ?"
            " ORDER BY d.ranked DESC, g.created_at",
            (player, day.isoformat()),
        )
        return [Standing.of(row) for row in rows]

    def board(self, day: date, limit: int) -> tuple[list[Standing], int]:
        """The day's ``limit`` best finished ranked attempts in the board's order (none read for
        0), and how many there are."""
        rows = self._read(sql.BOARD, (day.isoformat(), limit)) if limit else []
        total = self._read(
            "SELECT COALESCE(sum(players), 0) FROM daily_scores WHERE day = ?",
            (day.isoformat(),),
        )
        return [Standing.of(row) for row in rows], int(total[0][0])

    def ranked_from(self, day: date, address: str) -> int:
        """How many ranked attempts of the day were started from a network (its address key)."""
        rows = self._read(
            "SELECT count(*) FROM dailies WHERE day = ? AND address = ? AND ranked = 1",
            (day.isoformat(), address),
        )
        return int(rows[0][0])

    def daily_code(self, day: date) -> GameCode | None:
        """The code the day's daily games were dealt from (None before any was made): the truth
        of a past day, even if the secret has changed since."""
        rows = self._read(
            "SELECT g.code FROM dailies d JOIN games g ON g.id = d.game WHERE d.day = ? LIMIT 1",
            (day.isoformat(),),
        )
        return GameCode.parse(rows[0][0]) if rows else None

    def rank(self, standing: Standing) -> int | None:
        """A standing's place on its day's board (equal figures share one, times closer than the
        policy's tie among them); None for one that is not on the board (unfinished, or too fast
        for a person: Standing.shown)."""
        if not standing.shown:
            return None
        day, score, moves, seconds = (
            standing.day.isoformat(),
            standing.score,
            standing.moves,
            standing.seconds,
        )
        ahead = (day, score, day, score, moves, day, score, moves, seconds - self.policy.tie)
        rows = self._read(sql.AHEAD, ahead)
        return int(rows[0][0]) + 1

    def daily_history(self, player: str, first: date, last: date) -> list[Standing]:
        """The player's ranked attempts from ``first`` to ``last`` (both included), newest first."""
        rows = self._read(
            f"{sql.STANDING} WHERE d.player = ? AND d.ranked = 1 AND d.day >= ? AND d.day <= ?"
            " ORDER BY d.day DESC",
            (player, first.isoformat(), last.isoformat()),
        )
        return [Standing.of(row) for row in rows]

    def finished_days(self, player: str) -> list[date]:
        """Every day the player finished their ranked attempt, newest first (for the streak)."""
        rows = self._read(
            "SELECT day FROM dailies WHERE player = ? AND ranked = 1 AND finished = 1"
            " ORDER BY day DESC",
            (player,),
        )
        return [date.fromisoformat(day) for (day,) in rows]
