"""Group commit for the async app: whatever is staged is flushed; a reply waits for its commit.

One commit thread makes the store's staged changes durable, one flush after another, for as long
as anything is staged: the store tells the committer of every change it stages (``on_staged``), not
the request that waits for it, so a change is written even when its request was cancelled before
it waited (the client went away mid-call on PostgreSQL, where staging runs in a worker thread).
Every change staged during a flush goes into the next one, so under load many actions share one
fsync, and a burst wakes the thread once (a flag, not a queue). The thread starts the next flush
itself the moment one ends: it does not wait for the event loop (which may be busy with other
requests) to ask for it; it ends after a second with nothing staged and starts again on the next
change. Only the waking of the waiting requests goes through their event loop.

The store's lock and the committer's never nest: the store calls ``wanted`` after it has left its
lock, and the commit thread lets go of the committer's lock before it flushes (which takes the
store's). A change is staged before the thread is told, so none is missed: a flush that took its
batch before the change was staged leaves the flag set, and the next flush takes the change.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from concurrent.futures import Future
from typing import Any

from tripeaks.store.core import Change, Storage

_Waiter = tuple[Future[None], asyncio.Future[None]]


class Committer:
    """Runs the store's flushes one after another, in a thread, while anything is staged."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._lock = threading.Lock()
        """Guards the waiters and the thread's state."""
        self._waiters: list[_Waiter] = []
        self._thread: threading.Thread | None = None
        self._wanted = False
        """A change was staged since the commit thread last started a flush."""
        self._wake = threading.Condition(self._lock)
        store.on_staged = self.wanted

    def wanted(self) -> None:
        """A change was staged (the store's ``on_staged``, outside its lock): flush it soon.

        Sets the flag and wakes the commit thread, or starts it if it ended; a change staged
        while a flush runs waits for the next one, with every other change staged meanwhile.
        """
        with self._lock:
            self._wanted = True
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._commit_while_wanted, name="tripeaks-commit", daemon=True
                )
                self._thread.start()
            else:
                self._wake.notify()

    async def durable(self, change: Future[Any]) -> None:
        """Return once this staged change is committed; raise its error if its commit failed.

        Only waits: the commit thread was told of the change when it was staged.
        """
        waiter = asyncio.get_running_loop().create_future()
        with self._lock:
            if change.done():
                change.result()
                return
            self._waiters.append((change, waiter))
        await waiter

    def _commit_while_wanted(self) -> None:
        """The commit thread: flush while anything is staged; end after a second with nothing."""
        try:
            while True:
                with self._lock:
                    if not self._wanted:
                        self._wake.wait(timeout=1.0)
                    if not self._wanted:
                        return
                    self._wanted = False
                self._settle(self.store.flush())
        finally:
            with self._lock:
                self._thread = None
                if self._wanted:  # staged just as this thread was ending
                    self._thread = threading.Thread(
                        target=self._commit_while_wanted, name="tripeaks-commit", daemon=True
                    )
                    self._thread.start()

    def _settle(self, settled: list[Change]) -> None:
        """Wake the waiters of the changes this flush settled, one call per event loop."""
        if not settled:
            return
        by_loop: dict[asyncio.AbstractEventLoop, list[_Waiter]] = {}
        with self._lock:
            still: list[_Waiter] = []
            for change, waiter in self._waiters:
                if change.done():
                    by_loop.setdefault(waiter.get_loop(), []).append((change, waiter))
                else:
                    still.append((change, waiter))
            self._waiters = still
        for loop, waiters in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody left to tell
                loop.call_soon_threadsafe(_resolve, waiters)


def _resolve(waiters: list[_Waiter]) -> None:
    for change, waiter in waiters:
        if waiter.done():  # the request was cancelled (client gone): nobody to tell
            continue
        failure = change.exception()
        if failure is None:
            waiter.set_result(None)
        else:
            waiter.set_exception(failure)
