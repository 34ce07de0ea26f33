"""The store's core: the cache of live games, staging, group commit, versions and request ids.

The database is the truth; live :class:`Game` objects are only a cache so that a request does not
replay a game from its first action. A change is staged in memory with its SQL and its own
completion; :meth:`Staging.flush` puts every change staged meanwhile into one transaction with one
durable commit (group commit) and then resolves, or fails, exactly the completions of that batch;
nobody is answered before the commit that holds their change. A failed commit changes nothing a
later commit could build on: the games it touched are dropped from memory (they are replayed from
the database when next asked for), together with every later change that stood on them.

The version check is in the database too: an action's UPDATE only matches the game row at the
version it was applied to, so a change made meanwhile by another process on the same database
(PostgreSQL with several workers, postgres.py) refuses it as stale instead of being overwritten.
A verdict a change counts (Policy.verdict, which may take the solver) is asked for outside the
store's locks and handed to the change before it commits (``Change.unjudged``).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, ActionKind, Game, IllegalMove, Turn
from tripeaks.store import dailies, sql
from tripeaks.store.common import (
    Db,
    MovedOn,
    Reader,
    StaleVersion,
    Unavailable,
    UnknownGame,
    Write,
)
from tripeaks.store.policy import Bare, LevelTag, Policy, Tag, Verdict

RETRIES = 2
"""Times a batch is tried again after the database aborted it for crossing another process's
commit (PostgreSQL's deadlock detection picks one of the two): the other has committed by then, so
the retry finds its changes (a stale action is refused 409 as usual) instead of failing 503."""
CACHE_SIZE = 512
"""Live games kept in memory; older ones are replayed from the database when asked for."""


@dataclass(slots=True)
class Record:
    """A live game with what the store knows about it."""

    id: str
    player: str
    game: Game
    unsaved: int = 0
    """Staged changes not yet committed; such a game is never dropped from the cache."""
    stored: int = 0
    """The version the database is known to hold: a shared store checks it before trusting us."""
    daily: Tag | None = None
    """The day a daily game is for, and whether it is the ranked attempt (dailies table)."""
    first_at: float | None = None
    """A ranked daily's server time of its first action (dailies.first_at), for its pace. Every
    action's UPDATE checks the game's version, so a stored action always stood on this value."""
    hint: str | None = None
    """The kind of hint asked in the game (hinted_games table: "perfect" once any hint was,
    else "fair"); None: no hint. Its win is counted apart."""
    requests: dict[str, tuple[int, Action]] = field(default_factory=dict)
    """The committed actions of this game sent with a request id, by that id: (seq, action). Read
    with the log when the game is loaded and kept up at each commit, so that a new request id is
    known to be new without a read (a shared store's other workers: see ``_request``)."""
    level: LevelTag | None = None
    """The journey level it is a game of (games.level), with the player's best stars on that
    level when the game was loaded or made; None for every other game."""


Judging = tuple[tuple[str, GameCode, Tag | None], ...]
"""The games a change counts whose verdict is still to be asked for: (game id, code, tag)."""


@dataclass(eq=False, slots=True)
class Change:
    """One staged change: its SQL, the games it touched, and its own completion."""

    write: Write
    records: tuple[Record, ...]
    done: Future[None] = field(default_factory=Future)
    request: tuple[str, str] | None = None
    """(game id, request id) of an action sent with a request id."""
    action: tuple[Action, int] | None = None
    """An action's (action, version it leaves the game at): its game is ``records[0]``."""
    leaves: tuple[str, ...] = ()
    """Games a new game leaves: dropped from memory once committed (they are over anyway)."""
    verdicts: dict[str, Verdict | None] = field(default_factory=dict)
    """The verdicts of the games it counts, by game id, as its write reads them."""
    unjudged: Judging = ()
    """Verdicts still to be asked for (outside the store's locks): until they are in, neither
    this change nor any staged after it is committed."""


@dataclass(frozen=True, slots=True)
class Applied:
    """An action the store took: what the engine said it did, the game after it, its completion."""

    turn: Turn
    game: Game
    """A snapshot: nobody else changes it, so a reply can be shaped from it outside any lock."""
    done: Future[None]
    tag: Tag | None
    """The game's daily tag (None for any other game), as a refusal carries it (``Refused.tag``)."""
    again: bool = False
    """A retry of an action taken before (same request id): answered again, not taken twice."""
    level: LevelTag | None = None
    """The game's journey level (Record.level), None for any other game."""


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    game: Game
    done: Future[None]
    lost: int = 0
    """Unfinished games of the player this one made count as lost (for the server's metrics)."""
    left: tuple[str, ...] = ()
    """The games it left (those counted may have unlocked achievements: unlocked_by)."""


@dataclass(frozen=True, slots=True)
class _Seen:
    """An action staged with a request id, not yet committed."""

    seq: int
    action: Action
    done: Future[None]


class _Unjudged(Exception):
    """A write found a game to count whose verdict it was not handed (it moved on through another
    process since it was staged): the batch goes back, the verdict is asked for outside every
    lock and transaction, and the batch is written again."""

    def __init__(
        self, verdicts: dict[str, Verdict | None], game_id: str, code: GameCode, tag: Tag | None
    ) -> None:
        super().__init__(game_id)
        self.verdicts, self.game_id, self.code, self.tag = verdicts, game_id, code, tag


def _completed() -> Future[None]:
    done: Future[None] = Future()
    done.set_result(None)
    return done


def _code_of(game: Game) -> GameCode:
    assert game.code is not None  # the store's games are all dealt from codes
    return game.code


class Staging(Reader):
    """Games in memory and in a database: the cache, the staged changes and their commits.

    A subclass brings the database: ``_transaction`` (the commit's), ``_rows`` (one committed
    read), ``_is_unavailable`` (errors that mean "not now"), ``close``; ``shared`` says whether
    other processes write to it too, and then every read checks the cache against the database.
    ``on_staged`` is how whoever flushes (the app's commit thread) hears that there is something to.
    ``policy`` is what the competition's rules say of each action (policy.Policy; daily.Policy in
    the app); a store built without one refuses nothing and counts no game (policy.Bare).
    """

    shared: ClassVar[bool] = False
    """Other processes may change games: a cached game is checked against the stored version."""

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy: Policy = Bare() if policy is None else policy
        self._lock = threading.Lock()
        """Guards memory: the cache and the staged changes. A read that needs neither does not take
        it, so that one player's read (a PostgreSQL round trip) never holds up another's action."""
        self._reading = threading.Lock()
        """One read at a time on a subclass's single reader connection (SQLite's; a PostgreSQL read
        borrows a pooled connection of its own and needs none). Taken inside ``_lock`` or alone."""
        self._flushing = threading.Lock()
        """One commit at a time, on the writer connection."""
        self._cache: OrderedDict[str, Record] = OrderedDict()
        self._staged: list[Change] = []
        self._seen: dict[tuple[str, str], _Seen] = {}
        self.clock: Callable[[], float] = time.time
        """The server's clock of a daily's actions (tests set their own)."""
        self.on_staged: Callable[[], None] | None = None
        """Called by every ``stage_*`` call that staged a change, once it has left the store's lock
        (so the two never nest): the committer's wake-up (web/committer.py). ``create``, ``apply``
        and ``reset_results`` flush their change themselves and do not call it."""

    def close(self) -> None:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Db]:
        """The commit's transaction: committed when the block ends, rolled back if it raises."""
        raise NotImplementedError

    def _rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """One read of committed data, safe from any thread (inside ``self._lock`` or not)."""
        raise NotImplementedError

    def _is_unavailable(self, error: BaseException) -> bool:
        """The database cannot answer now (full, read-only, away, I/O): not a bug of ours."""
        raise NotImplementedError

    def _is_crossed(self, error: BaseException) -> bool:
        """The database aborted this commit for crossing another's (a deadlock between two
        processes' commits): nothing of it was written, and the same batch can be tried again."""
        return False

    def _lock_player(self, db: Db, player: str) -> None:
        """Hold the player's totals for this transaction (another process may count too)."""

    def _judged(self, change: Change | None, *, tell: bool) -> None:
        """Ask for the verdicts a change counts (Policy.verdict, which may search), outside the
        store's locks, and let it commit; then tell whoever flushes. A verdict that fails fails
        the change, and everything staged on its games, as a failed commit would."""
        try:
            if change is not None and change.unjudged:
                try:
                    for game_id, code, tag in change.unjudged:
                        change.verdicts[game_id] = self.policy.verdict(code, tag)
                except Exception as error:
                    with self._lock:  # out of the queue first: _failed takes what stood on it
                        staged = change in self._staged
                        if staged:
                            self._staged.remove(change)
                    if staged:
                        self._failed([change], error)
                    raise
                with self._lock:
                    change.unjudged = ()
        finally:
            if tell:
                self._tell()

    def flush(self) -> list[Change]:
        """Commit everything staged in one transaction and settle each change's completion.

        If the commit fails, the batch's changes fail with the error (``Unavailable`` for a
        database that cannot take writes now), and so does every change staged since on the same
        games; those games are dropped from memory. Other staged changes stay for the next flush.
        An action whose game moved on through another process fails alone (StaleVersion with the
        stored game), with the actions staged on top of it; the rest of the batch commits.
        Returns the changes settled, done or failed. A change whose verdicts are still being
        asked for (``Change.unjudged``) waits, with every change staged after it.
        """
        while True:
            settled = self._flush_once()
            if not isinstance(settled, _Unjudged):
                return settled
            try:  # outside every lock and transaction
                settled.verdicts[settled.game_id] = self.policy.verdict(settled.code, settled.tag)
            except Exception as error:
                with self._lock:
                    failed = [c for c in self._staged if c.verdicts is settled.verdicts]
                    for change in failed:
                        self._staged.remove(change)
                return self._failed(failed, error) if failed else []

    def _flush_once(self) -> list[Change] | _Unjudged:
        with self._flushing:
            with self._lock:
                ready = next(
                    (n for n, change in enumerate(self._staged) if change.unjudged),
                    len(self._staged),
                )
                batch, self._staged = self._staged[:ready], self._staged[ready:]
            if not batch:
                return []
            for attempt in range(1 + RETRIES):
                try:
                    moved = self._write(batch)
                    break
                except _Unjudged as unjudged:  # rolled back: the batch goes back, first
                    with self._lock:
                        self._staged[:0] = batch
                    return unjudged
                except Exception as error:
                    if attempt == RETRIES or not self._is_crossed(error):
                        return self._failed(batch, error)
            stored = [change for change in batch if change not in moved]
            with self._lock:
                for change in stored:
                    for record in change.records:
                        record.unsaved -= 1
                    if change.action is not None:
                        action, after = change.action
                        change.records[0].stored = after
                        if change.request is not None:
                            change.records[0].requests[change.request[1]] = (after - 1, action)
                    for left in change.leaves:
                        gone = self._cache.get(left)
                        if gone is not None and not gone.unsaved:
                            del self._cache[left]
                    self._forget_request(change)
            for change in stored:
                change.done.set_result(None)
            return stored + (self._moved_on(moved) if moved else [])

    def _write(self, batch: list[Change]) -> list[Change]:
        """One transaction for the batch; returns the actions whose game moved on elsewhere."""
        moved: list[Change] = []
        with self._transaction() as db:
            behind: set[str] = set()
            for change in batch:
                if change.action is not None and change.records[0].id in behind:
                    moved.append(change)  # stood on an action that was not stored
                    continue
                try:
                    change.write(db)
                except MovedOn:
                    moved.append(change)
                    behind.add(change.records[0].id)
        return moved

    def ping(self) -> None:
        """One trivial query (readiness check); raises when the database does not answer."""
        self._read("SELECT 1", ())

    def game(self, game_id: str, player: str | None) -> Game:
        """A snapshot of the player's game as it stands (staged changes included). A shared store
        reads the stored version before it takes the lock, not while holding it."""
        stored = self._read(sql.STORED, (game_id,)) if self.shared else None
        with self._lock:
            return self._load(game_id, player, fresh=True, stored=stored).game.copy()

    def actions(self, game_id: str) -> list[Action]:
        """The committed log of a game, oldest first."""
        rows = self._read("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,))
        return [Action.parse(text) for (text,) in rows]

    def _read(self, sql: str, args: Sequence[Any]) -> list[Any]:
        try:
            return self._rows(sql, args)
        except Exception as error:
            if self._is_unavailable(error):
                raise Unavailable(str(error)) from error
            raise

    def _stage(self, write: Write, records: tuple[Record, ...]) -> Change:
        change = Change(write, records)
        self._staged.append(change)
        for record in records:
            record.unsaved += 1
        return change

    def _tell(self) -> None:
        """A change was staged: tell whoever flushes (outside the store's lock)."""
        if self.on_staged is not None:
            self.on_staged()

    def _flush_for(self, done: Future[None]) -> None:
        """Flush until ``done`` is settled (another thread's flush may have taken it); raise its error."""
        while not done.done():
            if not self.flush():  # another's, or one waiting for its verdict (Change.unjudged)
                time.sleep(0.001)
        done.result()

    def _failed(self, batch: list[Change], error: Exception) -> list[Change]:
        """Undo a failed commit in memory: fail the batch and whatever stood on its games."""
        failure: Exception = Unavailable(str(error)) if self._is_unavailable(error) else error
        failed = self._drop(batch, lambda change: True)
        for change in failed:
            change.done.set_exception(failure)
        return failed

    def _moved_on(self, moved: list[Change]) -> list[Change]:
        """Refuse the actions whose game moved on elsewhere, and those staged on top of them, with
        the stored game; a retry that the other process stored already answers as stored."""
        failed = self._drop(moved, lambda change: change.action is not None)
        for change in failed:
            record = change.records[0]
            try:
                with self._lock:
                    if change.request is not None and self._stored_already(change):
                        change.done.set_result(None)
                        continue
                    stored = self._load(record.id, record.player)
                    refusal: Exception = StaleVersion(stored.game.copy(), stored.daily)
            except Exception as error:
                refusal = Unavailable(str(error)) if self._is_unavailable(error) else error
            change.done.set_exception(refusal)
        return failed

    def _stored_already(self, change: Change) -> bool:
        """The same request id, action and version are in the database (sent twice, stored once:
        the other time through another process, which is why this one reads)."""
        assert change.request is not None and change.action is not None
        rows = self._read(
            "SELECT seq, action FROM actions WHERE game = ? AND request_id = ?", change.request
        )
        action, after = change.action
        return bool(rows) and Action.parse(rows[0][1]) == action and rows[0][0] == after - 1

    def _drop(self, first: list[Change], chains: Callable[[Change], bool]) -> list[Change]:
        """Take ``first`` and every staged change on their games that ``chains`` out of memory."""
        with self._lock:
            failed = list(first)
            touched = {record.id for change in first for record in change.records}
            kept: list[Change] = []
            for change in self._staged:  # in staging order, so a chain fails whole
                if chains(change) and any(record.id in touched for record in change.records):
                    failed.append(change)
                    touched.update(record.id for record in change.records)
                else:
                    kept.append(change)
            self._staged = kept
            for change in failed:
                self._forget_request(change)
                for record in change.records:
                    record.unsaved -= 1
            for game_id in touched:
                self._cache.pop(game_id, None)
        return failed

    def _forget_request(self, change: Change) -> None:
        if change.request is not None:
            seen = self._seen.get(change.request)
            if seen is not None and seen.done is change.done:
                del self._seen[change.request]

    def _request(self, record: Record, request_id: str) -> _Seen | None:
        """The action this request id was used for on this game, staged or committed, from memory.

        A shared store's other workers may have committed one since the game was cached; then
        this game is behind the database, an action taken on it is refused by the commit's version
        check, and ``_stored_already`` reads what they stored (``_moved_on``)."""
        seen = self._seen.get((record.id, request_id))
        if seen is not None:
            return seen
        known = record.requests.get(request_id)
        return None if known is None else _Seen(known[0], known[1], _completed())

    @staticmethod
    def _again(record: Record, seen: _Seen, action: Action) -> Applied | None:
        """The turn of an action already applied, from the game as it was just before it. A
        redo sent again is answered as a redo if the game then had that very action to redo;
        None if it had not (the request id was used for another action)."""
        code = record.game.code
        assert code is not None
        log = record.game.actions
        before = Game.replay(code, log[: seen.seq])
        if action.kind is not ActionKind.REDO:
            turn = before.apply(log[seen.seq])
            return Applied(turn, before, seen.done, record.daily, again=True, level=record.level)
        try:
            turn = before.apply(action)
        except IllegalMove:
            return None
        if turn.action != log[seen.seq]:
            return None
        return Applied(turn, before, seen.done, record.daily, again=True, level=record.level)

    def _load(
        self,
        game_id: str,
        player: str | None,
        *,
        fresh: bool = False,
        stored: list[Any] | None = None,
    ) -> Record:
        """The live game, replayed from the database if not cached; ``fresh`` in a shared store
        first checks a cached game without staged changes against the stored version (``stored``:
        that row, read already). A version read before a commit of this process is behind it: the
        game is then replayed, which costs a read but is never wrong."""
        record = self._cache.get(game_id)
        if record is not None and fresh and self.shared and not record.unsaved:
            row = self._read(sql.STORED, (game_id,)) if stored is None else stored
            if not row or (row[0][0], bool(row[0][1])) != (record.stored, record.game.is_over):
                del self._cache[game_id]
                record = None
        if record is None:
            rows = self._read(sql.LOADED, (game_id,))
            if not rows:
                raise UnknownGame(game_id)
            owner, code, version, settled, level, best = rows[0]
            logged = self._read(
                "SELECT seq, action, request_id FROM actions"
                f" WHERE game = ? AND seq < {int(version)} ORDER BY seq",
                (game_id,),
            )
            actions = [Action.parse(text) for _, text, _ in logged]
            requests = {rid: (seq, actions[i]) for i, (seq, _, rid) in enumerate(logged) if rid}
            game = Game.replay(code, actions)
            if len(game.actions) != version:
                raise RuntimeError(f"game {game_id} has {len(game.actions)} actions, not {version}")
            if settled:  # won, or left for another game: over either way
                game.leave()
            tagged = self._read(
                "SELECT day, ranked, first_at FROM dailies WHERE game = ?", (game_id,)
            )
            tag, first_at = None, None
            if tagged:
                tag = dailies.tag_of(tagged[0])
                first_at = tagged[0][2]
            hinted = self._read("SELECT kind FROM hinted_games WHERE game = ?", (game_id,))
            hint = hinted[0][0] if hinted else None
            record = Record(
                game_id,
                owner,
                game,
                stored=version,
                daily=tag,
                first_at=first_at,
                hint=hint,
                requests=requests,
                level=None if level is None else LevelTag(int(level), int(best or 0)),
            )
            self._remember(record)
        else:
            self._cache.move_to_end(game_id)
        if player is None or record.player != player:
            raise UnknownGame(game_id)
        return record

    def _remember(self, record: Record) -> None:
        self._cache[record.id] = record
        self._cache.move_to_end(record.id)
        if len(self._cache) > CACHE_SIZE:
            for old in [r for r in self._cache.values() if not r.unsaved]:
                if len(self._cache) <= CACHE_SIZE:
                    break
                del self._cache[old.id]

    def _inserted(self, db: Db, sql: str, args: Sequence[Any]) -> None:
        """An INSERT that must insert its row, else the change fails as moved on (MovedOn)."""
        if not db.execute(sql, args).rowcount:
            raise MovedOn
