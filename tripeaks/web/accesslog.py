"""One JSON line per request on stderr, for a hosted server's operator (docs/deploy.md, "Logs").

The line names the route's template (``/api/games/{game_id}/play``), never a game id or a query, and
the player only as a hash of their cookie: enough to follow one player's requests, not to be them.
Client addresses are left to the reverse proxy's own log.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
import time
from datetime import UTC, datetime

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tripeaks.web.routes import COOKIE

log = logging.getLogger("tripeaks.access")
_COOKIE_PREFIX = COOKIE.encode() + b"="


def start_logging() -> None:
    """Send the access log to stderr as bare JSON lines (once per process)."""
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


def player_hash(cookie_header: bytes | None) -> str | None:
    """The first 16 hex digits of SHA-256 of the player id in a Cookie header, if there is one."""
    if not cookie_header:
        return None
    for part in cookie_header.split(b";"):
        part = part.strip()
        if part.startswith(_COOKIE_PREFIX):
            return hashlib.sha256(part[len(_COOKIE_PREFIX) :]).hexdigest()[:16]
    return None


class AccessLog:
    """Write the line when the reply has been sent (or the request failed)."""

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
            route = scope.get("route")
            cookie = next((v for k, v in scope["headers"] if k == b"cookie"), None)
            line = {
                "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "method": scope["method"],
                "path": getattr(route, "path_format", None),
                "status": status,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                "player": player_hash(cookie),
            }
            log.info(json.dumps(line, separators=(",", ":")))
