"""Group commit for the async app: a reply waits for the commit that holds its change.

While one commit is being made durable (in a thread, so the event loop keeps serving), every
change staged meanwhile waits for the next one; under load many actions share one fsync.
"""

from __future__ import annotations

import asyncio

from tripeaks.store import Store


class Committer:
    """Runs the store's flushes one after another while anybody waits for one."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.durable = 0
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._running: asyncio.Task[None] | None = None

    async def durable_after(self, ticket: int) -> None:
        """Return once the change with this ticket is committed; raise if its commit failed."""
        if ticket <= self.durable:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append((ticket, waiter))
        if self._running is None:
            self._running = asyncio.create_task(self._run())
        await waiter

    async def _run(self) -> None:
        try:
            while self._waiters:
                try:
                    done = await asyncio.to_thread(self.store.flush)
                except Exception as failure:
                    waiting, self._waiters = self._waiters, []
                    for _ticket, waiter in waiting:
                        if not waiter.done():
                            waiter.set_exception(failure)
                    continue
                self.durable = max(self.durable, done)
                still = []
                for ticket, waiter in self._waiters:
                    if ticket > self.durable:
                        still.append((ticket, waiter))
                    elif not waiter.done():
                        waiter.set_result(None)
                self._waiters = still
        finally:
            self._running = None
