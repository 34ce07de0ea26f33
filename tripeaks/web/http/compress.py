"""The page, its files and its words go out gzipped; the game's replies do not.

A phone's first visit fetches the page, its CSS, its modules and the catalog of its language: about
170 KB as they are, under 70 KB compressed (bench/ui.py). The game's replies are a few KB each and
lie on every action's path, where a compression per reply would cost more CPU than it saves in
bytes (a reverse proxy may still compress them). A finished game's review (docs/api.md
"Explaining") is an exception: asked once a game, its replay is a full state a step, 128 KB for a
51-move line and 5 KB gzipped. The journey's map is the other (``JOURNEY``).
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

PAGE_PATHS = ("/static/", "/api/i18n/")
"""Prefixes of what is compressed, besides the page itself at ``/``: the page's files and the
message catalogs (17 KB, asked for once a visit)."""
REVIEW_SUFFIX = "/review"
"""A game's review, compressed too."""
JOURNEY = "/api/journey"
"""The journey's map, compressed too: asked once a visit to it, 33 KB for 126 levels and 2 KB
gzipped."""


class PageGzip:
    """Starlette's GZipMiddleware for ``/``, PAGE_PATHS, reviews and the journey's map only
    (clients that accept gzip)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1024, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path in ("/", JOURNEY) or path.startswith(PAGE_PATHS) or path.endswith(REVIEW_SUFFIX):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
