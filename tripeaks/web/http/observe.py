"""An ASGI layer that learns how each request ended: the base of the access log and the metrics."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class AfterReply:
    """Call :meth:`finished` once a request's reply has been sent, or the request failed (500)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noting_status)
        finally:
            self.finished(scope, status, time.perf_counter() - started)

    def finished(self, scope: Scope, status: int, seconds: float) -> None:
        """The request is over with this status after this many seconds."""
        raise NotImplementedError
