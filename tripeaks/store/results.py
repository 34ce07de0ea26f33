"""The counted games: one ``results`` row per game once it is over, its deal's verdict
(``verdicts``), and each player's running ``totals``, folded in by the policy as it is counted."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import astuple, dataclass
from datetime import date

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Game
from tripeaks.store import journeys, sql
from tripeaks.store.common import Db, Reader
from tripeaks.store.policy import Kind, Policy, Tag, Totals, Verdict


@dataclass(frozen=True, slots=True)
class Result:
    """One counted game in a player's statistics."""

    code: GameCode
    outcome: str
    score: int
    finished_at: float
    streak: int = 0
    """The longest run of removals of that game."""
    winnable: bool | None = None
    """The solver's verdict on the deal when the game was counted (None: not judged)."""
    best: int | None = None
    """The deal's best winning score, when judged winnable."""
    hint: str | None = None
    """The kind of hint asked in the game, None for none (known for judged games)."""
    grade: str | None = None
    """The deal's grade when the game was counted (judged games since revision 0005)."""
    day: date | None = None
    """The day of a daily game (None for any other): its code is shown once the day is over."""

    @property
    def hinted(self) -> bool:
        return self.hint is not None


def count(
    db: Db,
    policy: Policy,
    lock_player: Callable[[Db, str], None],
    player: str,
    game_id: str,
    game: Game,
    outcome: str,
    verdict: Verdict | None = None,
    hint: str | None = None,
    tag: Tag | None = None,
    level: int | None = None,
) -> None:
    """Count a game that is over: one result per game (a game settled once is never counted
    again), with the verdict on its deal handed in and the kind of hint asked, folded into the
    player's totals as the policy says (``lock_player`` holds them for this transaction); then
    the journey's rows (journeys.fold: a won level's best, the achievements)."""
    code = game.code
    assert code is not None  # the store's games are all dealt from codes
    now = time.time()
    row = (player, game_id, str(code), outcome, game.score, now, game.longest_streak)
    if not db.execute(sql.RESULT, row).rowcount:
        return
    if verdict is not None:
        db.execute(
            sql.VERDICT,
            (
                game_id,
                int(verdict.winnable),
                verdict.best,
                int(hint is not None),
                verdict.grade,
                hint,
            ),
        )
    lock_player(db, player)
    kind = Kind.of(code).key
    kept = db.execute(
        f"SELECT {sql.TOTALS} FROM totals WHERE player = ? AND rules = ?",
        (player, kind),
    ).fetchone()
    totals = policy.count(
        Totals(*kept) if kept else Totals(),
        outcome,
        game.score,
        game.longest_streak,
        verdict,
        hint,
    )
    db.execute(sql.TOTALS_UPSERT, (player, kind, *astuple(totals)))
    journeys.fold(db, policy, player, game_id, game, outcome, verdict, hint, tag, level, now)


class ResultReads(Reader):
    """The counted games' committed reads (a mixin of the store)."""

    def results(self, player: str) -> list[Result]:
        """The player's counted games (committed), oldest first."""
        return self._results(f"{sql.RESULTS} ORDER BY r.seq", (player,))

    def totals(self, player: str) -> dict[Kind, Totals]:
        """The player's kept statistics per game kind (the layout, the rules and the options: each
        scoring and variant apart), committed; kinds never played are absent."""
        rows = self._read(f"SELECT rules, {sql.TOTALS} FROM totals WHERE player = ?", (player,))
        return {Kind.from_key(key): Totals(*values) for key, *values in rows}

    def recent(self, player: str, limit: int) -> list[Result]:
        """The player's latest counted games (committed), newest first."""
        return self._results(f"{sql.RESULTS} ORDER BY r.seq DESC LIMIT ?", (player, limit))

    def _results(self, query: str, args: tuple[object, ...]) -> list[Result]:
        rows = self._read(query, args)
        return [
            Result(
                GameCode.parse(c),
                o,
                s,
                f,
                k,
                None if w is None else bool(w),
                b,
                h,
                g,
                None if d is None else date.fromisoformat(d),
            )
            for c, o, s, f, k, w, b, h, g, d in rows
        ]
