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

from tripeaks.store import Store

_Waiter = tuple[int, asyncio.Future[None]]


class Committer:
    """Runs the store's flushes one after another, in a thread, while anybody waits for one."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.durable = 0
        """The last ticket known to be committed."""
        self._lock = threading.Lock()
        """Guards the waiters, ``durable`` and the thread's state."""
        self._waiters: list[_Waiter] = []
        self._thread: threading.Thread | None = None
        self._wanted = False
        """A flush was asked for since the commit thread last started one."""
        self._wake = threading.Condition(self._lock)

    async def durable_after(self, ticket: int) -> None:
        """Return once the change with this ticket is committed; raise if its commit failed."""
        waiter = asyncio.get_running_loop().create_future()
        with self._lock:
            if ticket <= self.durable:
                return
            self._waiters.append((ticket, waiter))
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
                try:
                    done = self.store.flush()
                except Exception as failure:
                    self._settle(None, failure)
                else:
                    self._settle(done, None)
        finally:
            with self._lock:
                self._thread = None
                if self._wanted:  # asked for just as this thread was ending
                    self._thread = threading.Thread(
                        target=self._commit_while_wanted, name="tripeaks-commit", daemon=True
                    )
                    self._thread.start()

    def _settle(self, done: int | None, failure: Exception | None) -> None:
        """Wake the waiters whose change is now durable (or, on failure, every waiter)."""
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
        with self._lock:
            if done is not None:
                self.durable = max(self.durable, done)
            still: list[_Waiter] = []
            for ticket, waiter in self._waiters:
                if failure is None and ticket > self.durable:
                    still.append((ticket, waiter))
                else:
                    by_loop.setdefault(waiter.get_loop(), []).append(waiter)
            self._waiters = still
        for loop, waiters in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody left to tell
                loop.call_soon_threadsafe(_resolve, waiters, failure)


def _resolve(waiters: list[asyncio.Future[None]], failure: Exception | None) -> None:
    for waiter in waiters:
        if waiter.done():  # the request was cancelled (client gone): nobody to tell
            continue
        if failure is None:
            waiter.set_result(None)
        else:
            waiter.set_exception(failure)
