"""The store: what it does with games, results, dailies and players, on the core's machinery.

:class:`Storage` applies actions (the store alone does: :meth:`Storage.stage_apply` asks the
engine, stages the action's SQL and hands back the engine's :class:`Turn`, a snapshot of the game
after it, and the change's own completion), makes and leaves games, counts them and keeps the
daily's rows. What the competition's rules say of an action (the daily's refusals and figures, a
counted game's verdict and totals) comes from its :class:`~tripeaks.store.policy.Policy`, handed
in when the store is built. The cache, staging and group commit are staging.py's; the tables' own
reads and writes results.py's, dailies.py's and players.py's; the SQL sql.py's; the databases
sqlite.py's and postgres.py's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, ActionKind, Game, IllegalMove, Status
from tripeaks.store import dailies, journeys, players, results, sql
from tripeaks.store.common import (
    ActionRefused,
    Db,
    MovedOn,
    NameTaken,
    PolicyRefused,
    Refused,
    RequestIdReused,
    StaleVersion,
    Unavailable,
    UnknownGame,
    new_id,
)
from tripeaks.store.dailies import DailyReads, Standing
from tripeaks.store.journeys import JourneyReads
from tripeaks.store.players import PlayerReads
from tripeaks.store.policy import Figures, LevelTag, Tag, Verdict
from tripeaks.store.results import Result, ResultReads
from tripeaks.store.staging import (
    Applied,
    Change,
    Created,
    Record,
    Staging,
    _code_of,
    _completed,
    _Seen,
    _Unjudged,
)

__all__ = [
    "ActionRefused",
    "Applied",
    "Change",
    "Created",
    "Db",
    "NameTaken",
    "PolicyRefused",
    "Record",
    "Refused",
    "RequestIdReused",
    "Result",
    "StaleVersion",
    "Standing",
    "Storage",
    "Unavailable",
    "UnknownGame",
    "new_id",
]


class Storage(Staging, ResultReads, DailyReads, PlayerReads, JourneyReads):
    """Games and results of every player, in memory and in a database (sqlite.Store,
    postgres.PgStore).

    ``stage_*`` methods change the game in memory, stage the SQL and return the change's
    completion; ``flush`` commits everything staged and resolves those completions. ``create``,
    ``apply`` and ``reset_results`` do both at once (for the command line and tests).
    """

    def stage_create(
        self,
        player: str,
        code: GameCode,
        tag: Tag | None = None,
        *,
        game_id: str | None = None,
        address: str | None = None,
        level: LevelTag | None = None,
    ) -> Created:
        """A new game; the player's unfinished games are left first (a touched one counts lost).

        ``tag`` makes it a daily game (its row in ``dailies``, with the ``address`` key it was
        started from). A ranked attempt has its own ``game_id`` (daily.attempt_id) and is made
        once: a start that finds the game made already (another worker's, racing) fails with
        StaleVersion carrying the stored game, and leaves nothing. The database keeps one ranked
        attempt per player and day: one made before attempts had their own id makes this one
        unranked (still a daily: as secret as the other while its day lasts). ``level`` makes it a
        game of that journey level (the caller deals the level's code)."""
        created, change = self._stage_create(
            player, code, tag, game_id=game_id, address=address, level=level
        )
        self._judged(change, tell=True)
        return created

    def _stage_create(
        self,
        player: str,
        code: GameCode,
        tag: Tag | None = None,
        *,
        game_id: str | None = None,
        address: str | None = None,
        level: LevelTag | None = None,
    ) -> tuple[Created, Change]:
        game = Game.new(code)
        game_id = game_id or new_id()
        once = tag is not None and tag.ranked
        created = time.time()
        unsettled = {left: [stored] for left, *stored in self._read(sql.UNSETTLED, (player,))}
        unsettled.pop(game_id, None)  # a racing start's own attempt is never left by another
        verdicts: dict[str, Verdict | None] = {}
        with self._lock:
            leaving = [
                (r, len(r.game.actions), c)
                for r, c in self._leave_unfinished(player, unsettled, keep=game_id)
            ]
            record = Record(game_id, player, game, daily=tag, level=level)
            number = None if level is None else level.number
            row = (game_id, player, str(code), created, game.score, game.status.value, number)

            def write(db: Db) -> None:
                if once:  # first, so that a start that lost the race writes nothing
                    self._inserted(db, sql.CREATE_ONCE, row)
                else:
                    db.execute(sql.CREATE, row)
                for left, version, counted in leaving:
                    if db.execute(sql.LEAVE, (Status.LEFT.value, left.id, version)).rowcount:
                        if counted:
                            self._count(db, player, left, "lost", verdicts[left.id])
                    else:  # moved on through another process since: leave it as stored
                        self._leave_stored(db, left.id, player, verdicts)
                if tag is not None and not dailies.insert(db, game_id, player, tag, address):
                    record.daily = replace(tag, ranked=False)  # the player has one already

            self._remember(record)
            change = self._stage(write, (record, *(left for left, _v, _c in leaving)))
            change.leaves = tuple(left.id for left, _v, _c in leaving)
            change.verdicts = verdicts
            change.unjudged = tuple(
                (left.id, _code_of(left.game), left.daily) for left, _v, c in leaving if c
            )
            lost = sum(counted for _left, _v, counted in leaving)
            return Created(game_id, game.copy(), change.done, lost, change.leaves), change

    def stage_apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None = None,
    ) -> Applied:
        """Apply ``action`` to the player's game at ``version`` and stage it for the log.

        A request id seen before on this game with the same action and version answers that
        action's turn again and changes nothing (a retry after a lost reply); with another action
        or version it is RequestIdReused. Another version is StaleVersion, a refusal by the
        engine ActionRefused; each carries the game as it stands, and nothing is staged. A shared
        store decides on its cached game first and, if that refuses, once more on the stored one.
        """
        applied, change = self._stage_apply(game_id, player, action, version, request_id)
        self._judged(change, tell=not applied.again)
        return applied

    def stage_apply_cached(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None = None,
    ) -> Applied | None:
        """``stage_apply`` when that reads nothing from the database: the game is cached and the
        move applies (or is refused, by a store no other process writes to). Else None, and
        nothing changed: the caller asks ``stage_apply``, which may read. A shared store's route
        calls this on its event loop and so saves the hop to a thread that a read would need."""
        with self._lock:
            if game_id not in self._cache:
                return None
            try:
                applied, change = self._apply(
                    self._load(game_id, player), action, version, request_id
                )
            except Refused:
                if self.shared:
                    return None  # decided again on the stored game, which is a read
                raise
        self._judged(change, tell=not applied.again)
        return applied

    def _stage_apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None,
    ) -> tuple[Applied, Change | None]:
        with self._lock:
            try:
                return self._apply(self._load(game_id, player), action, version, request_id)
            except Refused:
                if not self.shared:
                    raise
        stored = self._read(sql.STORED, (game_id,))  # before the lock (see sql.STORED)
        with self._lock:
            record = self._load(game_id, player, fresh=True, stored=stored)
            return self._apply(record, action, version, request_id)

    def _apply(
        self, record: Record, action: Action, version: int, request_id: str | None
    ) -> tuple[Applied, Change | None]:
        """The action applied and staged (its change, None for a retry answered again).

        What is staged, logged and remembered for a request id is the action the engine applied
        (the Turn's): a redo is the play or draw it applied again, so every log stays readable by
        every version, and its replay rebuilds the redo history."""
        game, game_id = record.game, record.id
        if request_id is not None:
            seen = self._request(record, request_id)
            if seen is not None:
                redo = action.kind is ActionKind.REDO  # the same as what it applied then
                if (seen.action != action and not redo) or seen.seq != version:
                    raise RequestIdReused(game.copy(), record.daily)
                if seen.seq >= len(game.actions):  # this cached game is behind the database
                    raise StaleVersion(game.copy(), record.daily)
                again = self._again(record, seen, action)
                if again is None:  # a redo that would not apply what the id was used for
                    raise RequestIdReused(game.copy(), record.daily)
                return again, None
        if version != len(game.actions):
            raise StaleVersion(game.copy(), record.daily)
        refused = self.policy.refusal(record.daily, action.kind)
        if refused is not None:
            raise PolicyRefused(game.copy(), record.daily, refused)
        try:
            turn = game.apply(action)
        except IllegalMove as refusal:
            raise ActionRefused(game.copy(), record.daily, refusal) from None
        action = turn.action  # a redo is stored as the play or draw it applied
        seq = version
        won = game.status is Status.WON  # a won game takes no action: it stays as it is now
        row = (seq + 1, game.moves, game.score, game.status.value, game_id, seq)
        now = self.clock()
        figures = self._figures(record, now)
        day = None if record.daily is None else record.daily.day
        verdicts: dict[str, Verdict | None] = {}

        def write(db: Db) -> None:
            if not self._move(db, won, row, (game_id, seq, str(action), request_id)):
                raise MovedOn(game_id)  # before anything of this change was written
            if won:
                self._count(db, record.player, record, "won", verdicts[game_id])
            if figures is not None and day is not None:
                dailies.move(db, game_id, day, figures, now)

        change = self._stage(write, (record,))
        change.action = (action, seq + 1)
        change.verdicts = verdicts
        if won:
            change.unjudged = ((game_id, _code_of(game), record.daily),)
        if request_id is not None:
            change.request = (game_id, request_id)
            self._seen[change.request] = _Seen(seq, action, change.done)
        applied = Applied(turn, game.copy(), change.done, record.daily, level=record.level)
        return applied, change

    def _figures(self, record: Record, now: float) -> Figures | None:
        """A daily's figures after its latest action (Policy.figures), or None. Its first
        counted action's time is kept from then on, in memory as in the table."""
        first = record.first_at
        figures = self.policy.figures(
            record.daily, record.game, 0.0 if first is None else now - first
        )
        if figures is not None and first is None:
            record.first_at = now
        return figures

    def stage_reset(self, player: str) -> Future[None]:
        """Forget the player's counted games."""
        done = self._stage_reset(player)
        self._tell()
        return done

    def _stage_reset(self, player: str) -> Future[None]:
        with self._lock:

            def write(db: Db) -> None:
                self._lock_player(db, player)
                db.execute("DELETE FROM results WHERE player = ?", (player,))
                db.execute("DELETE FROM totals WHERE player = ?", (player,))

            return self._stage(write, ()).done

    def create(self, player: str, code: GameCode, level: LevelTag | None = None) -> Created:
        created, change = self._stage_create(player, code, level=level)
        self._judged(change, tell=False)
        self._flush_for(created.done)
        return created

    def apply(
        self,
        game_id: str,
        player: str | None,
        action: Action,
        version: int,
        request_id: str | None = None,
    ) -> Applied:
        """stage_apply and flush: the action is durable when this returns."""
        applied, change = self._stage_apply(game_id, player, action, version, request_id)
        self._judged(change, tell=False)
        self._flush_for(applied.done)
        return applied

    def reset_results(self, player: str) -> None:
        self._flush_for(self._stage_reset(player))

    def daily_tag(self, game_id: str) -> Tag | None:
        """Whether a game is a daily (and which day's, ranked or not): None for any other game."""
        with self._lock:
            record = self._cache.get(game_id)
            if record is not None:
                return record.daily
        rows = self._read("SELECT day, ranked FROM dailies WHERE game = ?", (game_id,))
        return dailies.tag_of(rows[0] if rows else None)

    def level_tag(self, game_id: str) -> LevelTag | None:
        """Whether a game is a journey level's (and the player's best on it when it was read)."""
        with self._lock:
            record = self._cache.get(game_id)
            if record is not None:
                return record.level
        rows = self._read(sql.LOADED, (game_id,))
        if not rows or rows[0][4] is None:
            return None
        return LevelTag(int(rows[0][4]), int(rows[0][5] or 0))

    def stage_transfer(self, player: str, digest: str, expires: float, keep: float) -> Future[None]:
        """A new transfer code for the player, kept by its hash ``digest`` until ``expires`` (the
        store's clock); the player's earlier unused codes are spent with it, and codes expired
        more than ``keep`` seconds ago are forgotten."""
        with self._lock:
            now = self.clock()
            done = self._stage(journeys.transfer(player, digest, now, expires, keep), ()).done
        self._tell()
        return done

    def stage_redeem(self, digest: str) -> Future[tuple[str, str | None]]:
        """Spend the transfer code of hash ``digest``: its completion gives ("redeemed", its
        player), or why not: "unknown", "expired" or "spent" (decided in the commit)."""
        outcome: list[tuple[str, str | None]] = []
        with self._lock:
            staged = self._stage(journeys.redeem(digest, self.clock(), outcome), ()).done
        self._tell()
        done: Future[tuple[str, str | None]] = Future()

        def settle(change: Future[None]) -> None:
            error = change.exception()
            if error is None:
                done.set_result(outcome[0])
            else:
                done.set_exception(error)

        staged.add_done_callback(settle)
        return done

    def stage_hinted(self, game_id: str, player: str | None, kind: str = "perfect") -> Future[None]:
        """A hint of ``kind`` ("perfect" or "fair") was given in this game: its result will say
        so. A game that had a perfect hint stays "perfect"; nothing is written twice."""
        with self._lock:
            record = self._load(game_id, player)
            if record.hint == "perfect" or record.hint == kind:
                return _completed()
            record.hint = kind

            def write(db: Db) -> None:
                db.execute(sql.HINTED, (game_id, kind))

            done = self._stage(write, (record,)).done
        self._tell()
        return done

    def stage_nickname(self, player: str, name: str, key: str) -> Future[None]:
        """Set the player's nickname (checked by the caller: nickname.clean) and its look, ``key``
        (nickname.key); its completion fails with NameTaken when another player has that look
        (players.claim: the database decides, in the commit's transaction, so that two players
        asking for one name on two workers cannot both have it; PostgreSQL waits for the other
        worker's commit first)."""
        outcome: list[bool] = []
        with self._lock:
            staged = self._stage(players.claim(player, name, key, outcome), ()).done
        self._tell()
        done: Future[None] = Future()

        def settle(change: Future[None]) -> None:
            error = change.exception()
            if error is None and outcome != [True]:
                error = NameTaken()
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)

        staged.add_done_callback(settle)
        return done

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """A server setting by name; the first server to ask makes it (``make``) and stores it, and
        every later one, in any process, reads the stored value."""
        rows = self._read("SELECT value FROM settings WHERE name = ?", (name,))
        if rows:
            return str(rows[0][0])
        with self._flushing, self._transaction() as db:
            db.execute(
                "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (name, make()),
            )
            return str(
                db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()[0]
            )

    def _leave_unfinished(
        self, player: str, unsettled: dict[str, list[Any]], keep: str
    ) -> list[tuple[Record, bool]]:
        """Leave every game of the player that is not over, but ``keep`` (the game being made):
        (record, whether it counts as lost). ``unsettled``: the player's stored games not settled,
        by id, each its stored version row (read before the lock; a game this process settled
        since is over in its cache)."""
        ids = {r.id for r in self._cache.values() if r.player == player and not r.game.is_over}
        ids.update(unsettled)
        ids.discard(keep)
        leaving: list[tuple[Record, bool]] = []
        for game_id in sorted(ids):
            record = self._load(game_id, player, fresh=True, stored=unsettled.get(game_id))
            if record.game.is_over:  # won (its own change settles it) or left already
                continue
            leaving.append((record, record.game.leaving_counts_as_loss))
            record.game.leave()
        return leaving

    def _leave_stored(
        self, db: Db, game_id: str, player: str, verdicts: dict[str, Verdict | None]
    ) -> None:
        """Leave a game as the database holds it (it moved on through another process)."""
        while True:
            row = db.execute(
                "SELECT code, version, settled, level FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None or row[2]:
                return
            code, version, _settled, level = row
            log = db.execute(
                "SELECT action FROM actions WHERE game = ? AND seq < ? ORDER BY seq",
                (game_id, version),
            ).fetchall()
            game = Game.replay(code, [Action.parse(text) for (text,) in log])
            if db.execute(sql.LEAVE, (Status.LEFT.value, game_id, version)).rowcount:
                if game.leaving_counts_as_loss:
                    hinted = db.execute(
                        "SELECT kind FROM hinted_games WHERE game = ?", (game_id,)
                    ).fetchone()
                    tagged = db.execute(
                        "SELECT day, ranked FROM dailies WHERE game = ?", (game_id,)
                    ).fetchone()
                    if game_id not in verdicts:  # counted here only: judged outside, then again
                        raise _Unjudged(verdicts, game_id, _code_of(game), dailies.tag_of(tagged))
                    hint = None if hinted is None else hinted[0]
                    record = Record(
                        game_id,
                        player,
                        game,
                        daily=dailies.tag_of(tagged),
                        hint=hint,
                        level=None if level is None else LevelTag(int(level)),
                    )
                    self._count(db, player, record, "lost", verdicts[game_id])
                return

    def _move(self, db: Db, won: bool, row: tuple[Any, ...], logged: tuple[Any, ...]) -> bool:
        """Store one action: the game row, if still at the action's version, then its log line.
        False, with nothing written, when the game moved on elsewhere."""
        if not db.execute(sql.WON if won else sql.PLAYED, row).rowcount:
            return False
        db.execute(sql.LOG, logged)
        return True

    def _count(
        self, db: Db, player: str, record: Record, outcome: str, verdict: Verdict | None
    ) -> None:
        """Count a game that is over, with the verdict on its deal handed in (results.count)."""
        results.count(
            db,
            self.policy,
            self._lock_player,
            player,
            record.id,
            record.game,
            outcome,
            verdict,
            record.hint,
            record.daily,
            None if record.level is None else record.level.number,
        )
