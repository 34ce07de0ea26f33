"""One JSON line per request on stderr, for a hosted server's operator (docs/deploy.md, "Logs").

The line names the route's template (``/api/games/{game_id}/play``), never a game id or a query, and
the player only as a hash of their cookie: enough to follow one player's requests, not to be them.
Client addresses are left to the reverse proxy's own log.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import time
from collections.abc import Callable

from starlette.types import ASGIApp, Scope

from tripeaks.web.http.identity import COOKIE
from tripeaks.web.http.observe import AfterReply

_COOKIE_PREFIX = COOKIE.encode() + b"="


def write_line(line: str) -> None:
    """One whole line on stderr in one write (several workers share it: lines never interleave)."""
    os.write(2, line.encode())


@functools.lru_cache(maxsize=4096)
def player_hash(cookie_header: bytes | None) -> str | None:
    """The first 16 hex digits of SHA-256 of the player id in a Cookie header, if there is one.

    Kept for the last few thousand headers: a player sends the same one with every request."""
    if not cookie_header:
        return None
    for part in cookie_header.split(b";"):
        part = part.strip()
        if part.startswith(_COOKIE_PREFIX):
            return hashlib.sha256(part[len(_COOKIE_PREFIX) :]).hexdigest()[:16]
    return None


class AccessLog(AfterReply):
    """Write the line when the reply has been sent (or the request failed).

    Formatted by hand, not through ``logging`` and ``json.dumps``: that tripled the log's cost per
    request. Every field is ours or checked (the method is an HTTP token, the path a template).
    """

    def __init__(self, app: ASGIApp, write: Callable[[str], None] = write_line) -> None:
        super().__init__(app)
        self.write = write

    def finished(self, scope: Scope, status: int, seconds: float) -> None:
        now = time.time()
        route = getattr(scope.get("route"), "path_format", None)
        cookie = None
        for name, value in scope["headers"]:
            if name == b"cookie":
                cookie = value
                break
        player = player_hash(cookie)
        method = scope["method"]
        if method not in _METHODS and not _TOKEN.fullmatch(method):
            method = "other"
        self.write(
            f'{{"time":"{_second(int(now))}.{int(now % 1 * 1000):03d}Z","method":"{method}",'
            f'"path":{_quoted(route)},"status":{status},'
            f'"duration_ms":{seconds * 1000:.2f},'
            f'"player":{_quoted(player)}}}\n'
        )


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_TOKEN = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}")
"""An HTTP method as the parser lets it through, and short."""


@functools.lru_cache(maxsize=4)
def _second(epoch: int) -> str:
    """UTC date and time of a second, made once (strftime cost more than the rest of the line)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch))


def _quoted(text: str | None) -> str:
    return "null" if text is None else f'"{text}"'
