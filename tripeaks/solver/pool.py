"""Proven-winnable random deals kept ready, so that "winnable deals only" waits for no search.

A new game of winnable deals only draws random codes until one is proved winnable
(search.random_winnable_code). Where lost deals are common (a Classic deal of Bridge is lost three
times in four, each refuted by a backward pass) the tries add up to milliseconds. A
:class:`WinnablePool` keeps a few such deals per kind of game (variant and layout), each found by
that same loop, and hands one out at once; a thread of its own refills what was taken, off the
request path. What it keeps is:

- uniform over the winnable deals: each is the first winnable one of uniformly random codes, as the
  loop's own answer is;
- seen by nobody before it is dealt, and dealt once: a deal leaves the pool when it is handed out;
- bounded: SIZE deals a kind, for at most KINDS kinds (the least recently asked dropped first).

An empty pool (a kind's first request, or a burst faster than the refill) answers None, and the
caller runs the loop itself, as before (docs/solver.md "Winnable deals only").
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from tripeaks.engine.codes import GameCode
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver import search

SIZE = 4
"""Deals kept ready a kind: a burst of that many new games of one kind waits for no search."""
KINDS = 32
"""Kinds (variant and layout) kept at once, the least recently asked dropped first: 128 codes."""

Kind = tuple[Variant, Layout]


@dataclass(frozen=True, slots=True)
class Refills:
    """What the refill has cost so far: deals proved, the codes tried for them and the refill
    thread's CPU seconds."""

    proved: int
    tried: int
    seconds: float


class WinnablePool:
    """Winnable deals kept ready per kind, refilled by a daemon thread started on first use.

    ``prove``: the loop that finds one (search.random_winnable_code's; the tests hand another).
    Thread-safe; :meth:`close` stops the thread and waits for it."""

    def __init__(
        self,
        size: int = SIZE,
        kinds: int = KINDS,
        prove: Callable[[Variant, Layout], tuple[GameCode | None, int]] | None = None,
    ) -> None:
        self.size = size
        self.kinds = kinds
        self._prove = prove or _prove
        self._ready: OrderedDict[Kind, deque[GameCode]] = OrderedDict()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._proved = self._tried = 0
        self._seconds = 0.0

    def take(self, rules: Rules | Variant, layout: Layout = THREE_PEAKS) -> GameCode | None:
        """A winnable deal of the kind, never handed out before; None when none is ready (the
        refill is asked for it either way)."""
        kind = (rules if isinstance(rules, Variant) else Variant(rules), layout)
        with self._wake:
            if self._closed:
                return None
            ready = self._ready.get(kind)
            if ready is None:
                ready = self._ready[kind] = deque()
                while len(self._ready) > self.kinds:
                    self._ready.popitem(last=False)
            self._ready.move_to_end(kind)
            code = ready.popleft() if ready else None
            self._start()
            self._wake.notify()
            return code

    def ready(self, rules: Rules | Variant, layout: Layout = THREE_PEAKS) -> int:
        """How many deals of the kind are ready now."""
        kind = (rules if isinstance(rules, Variant) else Variant(rules), layout)
        with self._wake:
            return len(self._ready.get(kind, ()))

    def settle(self, timeout: float = 10.0) -> bool:
        """Wait until every kind asked for is full (the bench and the tests): whether it is."""
        deadline = time.monotonic() + timeout
        with self._wake:
            while self._wanted() is not None and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._wake.wait(min(left, 0.05))
            return self._wanted() is None

    @property
    def refills(self) -> Refills:
        with self._wake:
            return Refills(self._proved, self._tried, self._seconds)

    def close(self) -> None:
        """Stop the refill and wait for it; a later take answers None."""
        with self._wake:
            self._closed = True
            self._ready.clear()
            self._wake.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _start(self) -> None:
        """The refill thread, started on first use (called under the lock)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._refill, name="winnable-pool", daemon=True)
            self._thread.start()

    def _wanted(self) -> Kind | None:
        """The most recently asked kind that is not full (called under the lock)."""
        for kind in reversed(self._ready):
            if len(self._ready[kind]) < self.size:
                return kind
        return None

    def _refill(self) -> None:
        while True:
            with self._wake:
                kind = self._wanted()
                while kind is None and not self._closed:
                    self._wake.wait()
                    kind = self._wanted()
                if self._closed or kind is None:
                    return
            started = time.thread_time()
            code, tried = self._prove(*kind)  # outside the lock: takes never wait for it
            spent = time.thread_time() - started
            with self._wake:
                self._proved += code is not None
                self._tried += tried
                self._seconds += spent
                ready = self._ready.get(kind)
                if code is None:  # no winnable deal in TRIES codes (never seen): not refilled
                    self._ready.pop(kind, None)
                elif ready is not None and len(ready) < self.size:
                    ready.append(code)
                self._wake.notify_all()


TRIES = 1000
"""Random codes a refill tries for one winnable deal, as search.random_winnable_code does."""


def _prove(variant: Variant, layout: Layout) -> tuple[GameCode | None, int]:
    """search.random_winnable_code's loop, counting its tries: a winnable deal and the codes tried
    for it, or None after TRIES."""
    for tries in range(1, TRIES + 1):
        code = GameCode.random(variant, layout)
        if search.is_winnable(code):
            return code, tries
    return None, TRIES
