"""Group commit for the async app: a reply waits for the commit that holds its change.

One commit thread makes the store's staged changes durable, one flush after another, for as long
as anybody waits; every change staged during a flush goes into the next one, so under load many
actions share one fsync. The thread starts the next flush itself the moment one ends: it does not
wait for the event loop (which may be busy with other requests) to ask for it. Only the waking of
the waiting requests goes through their event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from concurrent.futures import Future

from tripeaks.store import Change, Storage

_Waiter = tuple[Future[None], asyncio.Future[None]]


class Committer:
    """Runs the store's flushes one after another, in a thread, while anybody waits for one."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._lock = threading.Lock()
        """Guards the waiters and the thread's state."""
        self._waiters: list[_Waiter] = []
        self._thread: threading.Thread | None = None
        self._wanted = False
        """A flush was asked for since the commit thread last started one."""
        self._wake = threading.Condition(self._lock)

    async def durable(self, change: Future[None]) -> None:
        """Return once this staged change is committed; raise its error if its commit failed."""
        waiter = asyncio.get_running_loop().create_future()
        with self._lock:
            if change.done():
                change.result()
                return
            self._waiters.append((change, waiter))
            self._wanted = True
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._commit_while_wanted, name="tripeaks-commit", daemon=True
                )
                self._thread.start()
            else:
                self._wake.notify()
        await waiter

    def _commit_while_wanted(self) -> None:
        """The commit thread: flush while anybody waits; end when nobody has for a second."""
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
                if self._wanted:  # asked for just as this thread was ending
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
