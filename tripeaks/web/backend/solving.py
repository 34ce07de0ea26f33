"""The solver behind hints, ``result`` and winnable deals, kept off the request path.

Hints and verdicts run in one worker process per app (a search holds the GIL, and would otherwise
stall every other player's request). The worker keeps each deal's prepared answers
(solver_worker.py): the backward pass is done once per deal, and every hint of that game and its
verdict are read from it. A deal's verdict never changes, so it is asked for once per code, from
the moment a game nears its end; no reply waits for it, and ``result`` is null until it is known.

The worker's queue is bounded and a hint never waits for room in it (docs/api.md, hints): a hint
identical to one being searched shares that search, a player has at most one search of their own
under way, one client address (an IPv6 /56) at most ADDRESS_SHARE, and when SOLVER_QUEUE searches
are waiting the next hint is refused at once. Fair hints, reviews of finished games and deals of a
difficulty (issue 16, explain.py) go the same way. A fair answer is kept by what the player sees,
so the same position asked again costs no search.

Everything kept is bounded (:class:`Kept`, the least recently used dropped first): verdicts by
code and fair answers by position are asked for by anyone, cookie or not, and a cache that never
forgot would grow with every code a script sends (issue 35).

All of it belongs to one :class:`Solvers`, which the app makes with itself and closes when it
stops: two apps in one process (the tests make many) have their own worker and verdicts.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from ipaddress import ip_network
from typing import Any, Generic, Literal, TypeVar

from tripeaks import stats
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Action, Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.variant import Scoring, Variant
from tripeaks.solver import explain
from tripeaks.solver import search as solver
from tripeaks.solver.pool import WinnablePool
from tripeaks.web.backend import solver_worker
from tripeaks.web.clients import network

SOLVER_QUEUE = 32
"""Searches sent to the worker and not answered yet. A prepared hint costs well under a
millisecond and a deal's first one or a verdict a few, so a full queue is gone in tens of
milliseconds: a hint that finds it full is told to come back (503 ``busy``) instead of waiting."""
ADDRESS_SHARE = SOLVER_QUEUE // 8
"""Searches one client may have queued at once: an IPv4 address, or an IPv6 /56 (one customer's
prefix, however many /64s it spreads over). Another player's hint then waits behind at most four
of its searches (a fair one takes up to a few hundred milliseconds on a busy machine), and seven
such clients still leave room. A school behind one address has far fewer hints under way at once:
each is answered in milliseconds to a few hundred, and a refused one is asked again a second on."""
VERDICTS_QUEUED = 8
"""Verdicts among those; beyond this a finished game simply gets its result at a later read."""
HINT_TIMEOUT = 20.0
"""The last resort: a search that takes this long (the Python fallback on a bad deal) is given up."""
RETRY_AFTER = 1
"""Seconds a refused hint is told to wait (``Retry-After``)."""

FAIR_SAMPLES = explain.HINT_SAMPLES
"""Deals consistent with what the player sees that a fair hint plays on from each move."""
FAIR_SEED = 0
"""The fair hint's seed: the same position gets the same hint (explain.consistent_deals)."""
GRADE_TRIES = 200
"""Random deals a new game of a difficulty tries before it gives up (503)."""

VERDICTS_KEPT = 4096
"""Deals whose verdict a web process keeps, the least recently read dropped first: 0.9 MB
measured (a verdict and its code take some 220 bytes). A dropped verdict is found again
(milliseconds, in the worker) when a game of that deal nears its end."""
FAIR_KEPT = 4096
"""Fair answers kept by what the player sees, the least recently read dropped first: about 1 MB
(a position's key takes some 150 bytes, its answer about 80). A player who asks again, or
another who stands where they stood, is answered without a search."""

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
HintKey = Hashable
"""What a search answers: equal keys have equal answers, and share one search. A perfect hint's
is (code, cards on the table, cards drawn, rank on the discard, and the streak and the score under
the traditional scoring, 0 and 0 under ours: a draw never takes the traditional score below 0, so
the best line depends on it); a fair hint's ("fair", explain.visible_key); a review's ("review",
code, log, left)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """A deal's verdict from its start under its own rules, as the worker found it (Deal.verdict);
    the API shapes it into its reply (api/view.py). stats.Verdict is a standard deal's, the one a
    counted game keeps (:meth:`Solvers.known_verdict`)."""

    winnable: bool
    best: int | None
    """The deal's best final score: of a win under our scoring (None when it cannot be won), of
    any ending under the traditional scoring."""
    grade: str
    """The deal's difficulty, explain.Grade's value."""


class Kept(Generic[K, V]):
    """At most ``size`` answers, the least recently read dropped first (not thread-safe: the
    caller holds its lock). functools.lru_cache wraps a function that computes its own answer;
    these answers arrive later, from the worker, so they are put in by hand."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: K) -> V | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> None:
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


def share_of(address: str | None) -> str | None:
    """Whose share of the queue (ADDRESS_SHARE) a search takes: the client's IPv4 address, or the
    /56 of its IPv6 one. None, not limited, for loopback or no address (clients.network)."""
    key = network(address)
    if key is None or not key.endswith("/64"):
        return key
    return str(ip_network(key).supernet(new_prefix=56))


class HintRefused(Exception):
    """No search was started for this hint, and the caller should ask again a little later.

    ``hint_pending``: the same player's previous hint is still being searched; ``busy``: the
    worker has SOLVER_QUEUE searches waiting, or ADDRESS_SHARE of the caller's address. Their HTTP
    statuses (429, 503) are the API's (api/errors.py REFUSALS).
    """

    def __init__(self, reason: Literal["hint_pending", "busy"]) -> None:
        super().__init__(reason)
        self.reason = reason


class Solvers:
    """The worker process of one app, the searches it has under way and the verdicts it found.

    Nothing starts with the object: the worker is spawned by the first search. A worker that dies
    (killed, out of memory) is replaced by the next search; one that outlives the server, even a
    SIGKILLed one, ends itself within half a second.

    :meth:`close` ends the worker and waits until it is gone. It is the object's end: any later use
    raises ``RuntimeError`` rather than quietly spawning a worker nobody would close.
    """

    def __init__(self) -> None:
        self._lock = threading.RLock()
        """Reentrant: a future that is already done runs its callback at once, under the lock."""
        self._pool: ProcessPoolExecutor | None = None
        self._results: Kept[str, Verdict] = Kept(VERDICTS_KEPT)
        """Verdicts found, by code."""
        self._fair: Kept[HintKey, solver_worker.Fair] = Kept(FAIR_KEPT)
        """Fair answers found, by what the player sees (the fair hint's search key)."""
        self._pending: dict[str, Future[solver_worker.Graded]] = {}
        """Verdict searches under way, by code."""
        self._hints: dict[HintKey, Future[Any]] = {}
        """Hint searches under way, by what they answer: an identical hint waits on the same one
        (reviews and deals of a grade too)."""
        self._asking: dict[str | None, Future[Any]] = {}
        """The hint search each player started and that is not answered yet."""
        self._shares: Counter[str] = Counter()
        """Searches under way by whose share they take (share_of)."""
        self._waiting = 0
        self._closed = False
        self._winnable = WinnablePool()
        """Winnable deals kept ready per kind of game, refilled by a thread of their own."""

    @property
    def queued(self) -> int:
        """Searches sent to the worker and not answered yet (hints and verdicts)."""
        with self._lock:
            return len(self._hints) + len(self._pending)

    def verdicts_pending(self) -> int:
        """Deals waiting for their verdict now (read by the metrics)."""
        with self._lock:
            return len(self._pending)

    @property
    def waiting(self) -> int:
        """Hint requests awaiting an answer: more than :attr:`queued` when some share a search."""
        with self._lock:
            return self._waiting

    def deal_result(self, code: GameCode) -> Verdict | None:
        """The deal's verdict from its start under its rules if known; otherwise start working on it.

        Never waits: call it early (near a game's end) so the verdict is there when it is over.
        """
        key = str(code)
        with self._lock:
            self._check_open()
            known = self._results.get(key)
            if known is not None or key in self._pending:
                return known
            if len(self._pending) >= VERDICTS_QUEUED or self.queued >= SOLVER_QUEUE:
                return None
            future = self._submit(solver_worker.graded_verdict, key)
            if future is not None:
                self._pending[key] = future
                future.add_done_callback(lambda done: self._settle(key, done))
            return None

    def known_verdict(self, code: GameCode) -> stats.Verdict | None:
        """The verdict of a standard deal if the worker found it already (never searches): what
        the store keeps with a counted game, without working it out under its lock."""
        with self._lock:
            known = self._results.get(str(code))
        if known is None or code.options:
            return None
        return stats.Verdict(known.winnable, known.best, known.grade)

    async def hint(
        self, game: Game, player: str | None = None, address: str | None = None
    ) -> tuple[bool, Action | None] | None:
        """(winnable from here, the hint's move) for ``player``'s game: under our scoring the first
        move of a best win (None once it cannot be won), under the traditional one the first move
        of a line to the best score still possible, won or not (solver_worker.Deal).

        Raises :class:`HintRefused` at once when this would be a second search of the player's, the
        client ``address`` has its share of the queue or the queue is full. None when there is no answer this time: not within HINT_TIMEOUT, or the
        worker died (the next hint gets a new one). The game itself is never touched: the worker
        is sent the position.
        """
        if game.code is None:
            return None
        top = game.top  # None: an empty discard
        traditional = game.variant.scoring is Scoring.TRADITIONAL
        streak, score = (game.streak, game.score) if traditional else (0, 0)
        key = (str(game.code), game.present, game.drawn, game.top_rank, streak, score)
        answer = await self._ask(
            key, player, address, solver_worker.hint, *key[:3], top, streak, score
        )
        if answer is None:
            return None
        winnable, text = answer
        return winnable, None if text is None else Action.parse(text)

    async def fair_hint(
        self, game: Game, player: str | None = None, address: str | None = None
    ) -> solver_worker.Fair | None:
        """The fair hint of ``player``'s game (explain.played_hint over FAIR_SAMPLES deals, seed
        FAIR_SEED), with the limits of :meth:`hint`. Two games that look the same share a search,
        and once it is found its answer is kept (FAIR_KEPT): the key is what the player sees, and
        the answer depends on nothing else."""
        if game.code is None:
            return None
        key = ("fair", explain.visible_key(game))
        with self._lock:
            self._check_open()
            known = self._fair.get(key)
        if known is not None:
            return known
        log = [str(action) for action in game.actions]
        return await self._ask(
            key,
            player,
            address,
            solver_worker.fair_hint,
            str(game.code),
            log,
            FAIR_SAMPLES,
            FAIR_SEED,
            keep=self._fair,
        )

    async def review(
        self, game: Game, player: str | None = None, address: str | None = None
    ) -> solver_worker.Review | None:
        """The review of ``player``'s finished game (solver_worker.review), limited as hints are."""
        if game.code is None:
            return None
        log = [str(action) for action in game.actions]
        key = ("review", str(game.code), tuple(log), game.left)
        return await self._ask(
            key, player, address, solver_worker.review, str(game.code), log, game.left
        )

    async def graded_code(
        self, variant: Variant, grade: str, layout: Layout = THREE_PEAKS
    ) -> GameCode | None:
        """A random deal of the variant on ``layout`` with the grade, None if GRADE_TRIES deals had
        none.

        Grading is Python that holds the GIL for a few milliseconds a deal: it runs in the worker.
        Raises :class:`HintRefused` ("busy") when the queue is full."""
        key = ("graded", object())  # never shared: each new game gets its own deal
        found = await self._ask(
            key,
            None,
            None,
            solver_worker.graded_code,
            variant.key,
            grade,
            GRADE_TRIES,
            layout.id,
            alone=False,
        )
        return None if found is None else GameCode.parse(found)

    async def _ask(
        self,
        key: HintKey,
        player: str | None,
        address: str | None,
        search: Callable[..., T],
        *args: Any,
        alone: bool = True,
        keep: Kept[HintKey, T] | None = None,
    ) -> T | None:
        """A search in the worker, shared by identical requests (``key``). With ``alone``, a
        player has at most one of their own under way (HintRefused "hint_pending"); a client
        ``address`` with ADDRESS_SHARE under way, or a full queue, refuses it at once (HintRefused
        "busy"). Its answer goes into ``keep`` when found. None when there is no answer this time."""
        share = share_of(address)
        with self._lock:
            self._check_open()
            future = self._hints.get(key)
            if future is None:
                if alone and player in self._asking:
                    raise HintRefused("hint_pending")
                if self.queued >= SOLVER_QUEUE:
                    raise HintRefused("busy")
                if share is not None and self._shares[share] >= ADDRESS_SHARE:
                    raise HintRefused("busy")
                future = self._submit(search, *args)
                if future is None:
                    return None
                self._hints[key] = future
                asker = player if alone else None
                if alone:
                    self._asking[player] = future
                if share is not None:
                    self._shares[share] += 1
                future.add_done_callback(
                    lambda done: self._hint_done(key, asker, done, alone, share, keep)
                )
            self._waiting += 1
        try:
            # shielded: a waiter that gives up must not cancel a search others share
            answer: T = await asyncio.wait_for(
                asyncio.shield(asyncio.wrap_future(future)), HINT_TIMEOUT
            )
        except TimeoutError:
            return None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the request itself is cancelled
            return None  # close() cancelled the search before it started
        except Exception:  # a broken worker: no answer this time, the game itself is unharmed
            return None
        finally:
            with self._lock:
                self._waiting -= 1
        return answer

    def winnable_code(self, variant: Variant, layout: Layout = THREE_PEAKS) -> GameCode | None:
        """A random deal of the variant on ``layout`` proved winnable, None if none turned up
        (never seen).

        One of the few kept ready for the kind (tripeaks/solver/pool.py: found by the same loop,
        uniform over the winnable deals, handed out once, refilled by a thread off the request
        path); when none is ready, the loop itself: the compiled decide takes microseconds for
        most deals and about a millisecond at worst, and lets go of the GIL, so it runs in the
        calling thread (the app calls this in its thread pool) and not in the worker.
        """
        with self._lock:
            self._check_open()
        ready = self._winnable.take(variant, layout)
        if ready is not None:
            return ready
        try:
            return solver.random_winnable_code(variant, layout=layout)
        except RuntimeError:
            return None

    def close(self) -> None:
        """Terminate the worker and wait until it has exited; again, it does nothing.

        A search in progress is not worth waiting for: its future fails, and a hint awaiting it
        gets None.
        """
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
            self._pending.clear()
        self._winnable.close()
        if pool is None:
            return
        # outside the lock: failing futures call back into _settle and _hint_done
        workers = list((pool._processes or {}).values())
        for worker in workers:
            worker.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        for worker in workers:
            worker.join()

    # Inside the server ---------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("these Solvers are closed: their app has stopped")

    def _executor(self) -> ProcessPoolExecutor:
        """The worker, spawned on first use (called under the lock)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=solver_worker.start,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _submit(self, search: Callable[..., T], *args: Any) -> Future[T] | None:
        """Start a search (under the lock); None when the worker cannot take it.

        A worker that died breaks its pool for good: the pool is dropped and the search goes to a
        fresh worker, so no request fails because of it.
        """
        for _ in range(2):
            pool = self._executor()
            try:
                return pool.submit(search, *args)
            except (BrokenProcessPool, RuntimeError):
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
        return None

    def _hint_done(
        self,
        key: HintKey,
        player: str | None,
        future: Future[Any],
        alone: bool = True,
        share: str | None = None,
        keep: Kept[HintKey, Any] | None = None,
    ) -> None:
        with self._lock:
            if self._hints.get(key) is future:
                del self._hints[key]
            if alone and self._asking.get(player) is future:
                del self._asking[player]
            if share is not None:
                self._shares[share] -= 1
                if self._shares[share] <= 0:
                    del self._shares[share]
            found = (
                None if future.cancelled() or future.exception() is not None else future.result()
            )
            if keep is not None and found is not None:
                keep.put(key, found)

    def _settle(self, key: str, future: Future[solver_worker.Graded]) -> None:
        with self._lock:
            self._pending.pop(key, None)
            if future.cancelled() or future.exception() is not None:
                return
            self._results.put(key, Verdict(*future.result()))
