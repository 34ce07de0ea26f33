"""Every refusal as docs/api.md's Error: a reason, a sentence in the player's language, maybe a state."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tripeaks.i18n import translator
from tripeaks.store.core import Unavailable
from tripeaks.web.api.models import ErrorDetail, ErrorOut, GameState
from tripeaks.web.http.refusal import refuse, scope_language

MAX_BODY = 16 * 1024
"""Requests are a few dozen bytes; anything over this is refused before it is read further."""
RETRY_AFTER = 2
"""Seconds the page waits before it sends a change again that the database could not take."""

UNEXPECTED_EVERY = 60.0
"""Seconds between two tracebacks of one kind of unexpected error (its type and route): a client
that finds a way to fail a route fails it thousands of times a second, and one traceback says
everything the next thousand would (docs/decisions.md, "Unexpected errors in the log")."""

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

log = logging.getLogger(__name__)


class ApiError(Exception):
    """A refusal the routes raise; the handler turns it into an Error reply. Each kind of refusal
    is a subclass that carries its HTTP status; this one is 422, a request the API or the rules
    refuse (``invalid_code``, ``bad_request``, a move the engine refuses, a name the rules refuse)."""

    status: ClassVar[int] = 422

    def __init__(
        self,
        reason: str,
        message: str,
        state: GameState | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.message = message
        self.state = state
        self.headers = headers


class Unauthorized(ApiError):
    """No credentials, or not the operator's (``/metrics``)."""

    status = 401


class Forbidden(ApiError):
    """Not for this caller: the ranked daily's policy, a network's ranked attempts of the day, a
    name before any game, ``/metrics`` from outside its networks."""

    status = 403


class NotFound(ApiError):
    """Nothing of that name for this player: a game, a day's board, the page."""

    status = 404


class Gone(ApiError):
    """It was there and is no more: a transfer code expired or spent already."""

    status = 410


class Conflict(ApiError):
    """It moved on: a stale version, a game over, a reused request id (with the state), a name
    taken, a review of a game still played."""

    status = 409


class TooMany(ApiError):
    """Ask again after Retry-After: over a rate limit, or a hint of this player still searched."""

    status = 429


class Busy(ApiError):
    """The server cannot answer now; ask again after Retry-After (the solver, the database)."""

    status = 503


REFUSALS: dict[str, type[ApiError]] = {
    "stale": Conflict,
    "request_id_reused": Conflict,
    "game_over": Conflict,
    "daily_ranked": Forbidden,
    "hint_pending": TooMany,
    "busy": Busy,
}
"""The kind of each refusal the store and the solver give by reason (store.Refused,
solving.HintRefused); any other reason of theirs is a 422 (a move the engine refuses)."""


def refusal(
    reason: str,
    message: str,
    state: GameState | None = None,
    headers: dict[str, str] | None = None,
) -> ApiError:
    """A lower layer's refusal as the reply says it, with its kind's status (REFUSALS)."""
    return REFUSALS.get(reason, ApiError)(reason, message, state, headers)


def error_response(
    status: int, reason: str, message: str, state: GameState | None = None
) -> JSONResponse:
    body = ErrorOut(error=ErrorDetail(reason=reason, message=message), state=state)
    return JSONResponse(body.model_dump(mode="json"), status_code=status)


Responses = dict[int | str, dict[str, Any]]
"""Error replies a route may send, as its OpenAPI ``responses`` list them."""

ERRORS: Responses = {
    400: {"model": ErrorOut, "description": "a Host the server was not started for"},
    413: {"model": ErrorOut, "description": "body over 16 KB"},
    422: {"model": ErrorOut, "description": "refused: bad request or by the rules"},
    503: {"model": ErrorOut, "description": "the database cannot take the change now; retry"},
}
GAME_ERRORS: Responses = {
    **ERRORS,
    404: {"model": ErrorOut, "description": "no such game for this player"},
}
WRITE_ERRORS: Responses = {
    403: {
        "model": ErrorOut,
        "description": "a write from another site or origin; the ranked daily's policy",
    },
    415: {"model": ErrorOut, "description": "a write whose body is not application/json"},
}
LIMITED: Responses = {
    429: {"model": ErrorOut, "description": "over a rate limit; retry after Retry-After seconds"},
}
ACTION_ERRORS: Responses = {
    **GAME_ERRORS,
    **WRITE_ERRORS,
    409: {
        "model": ErrorOut,
        "description": "stale version, game over or a reused request id; carries the state",
    },
}


def request_language(request: Request) -> str:
    return scope_language(request.scope)


def _field(loc: tuple[object, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or str(loc[0] if loc else "body")


async def _on_api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    response = error_response(exc.status, exc.reason, exc.message, exc.state)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    lang = request_language(request)
    _ = translator(lang)
    errors = exc.errors()
    if any(tuple(e.get("loc", ()))[-1:] == ("lang",) for e in errors):
        return error_response(422, "unknown_language", _("error.unknown_language"))
    if any(tuple(e.get("loc", ())) == ("query", "kind") for e in errors):
        return error_response(422, "unknown_hint_kind", _("error.unknown_hint_kind"))
    field = _field(tuple(errors[0].get("loc", ()))) if errors else "body"
    return error_response(422, "bad_request", _("error.bad_request", field=field))


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    _ = translator(request_language(request))
    if exc.status_code == 404:
        return error_response(404, "not_found", _("error.not_found"))
    if exc.status_code == 405:
        response = error_response(405, "method_not_allowed", _("error.method_not_allowed"))
        response.headers["Allow"] = ", ".join(_allowed(request))
        return response
    if exc.status_code == 413:
        return error_response(413, "body_too_large", _("error.body_too_large"))
    if exc.status_code < 500:  # a body that is not even text: as bad as invalid JSON
        return error_response(422, "bad_request", _("error.bad_request", field="body"))
    return error_response(exc.status_code, "server_error", _("error.server"))


def _allowed(request: Request) -> list[str]:
    """Every method some route takes at this path, for the Allow header HTTP requires of a 405:
    Starlette names only the first route's, and GET and DELETE /api/stats are two routes."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        if route.matches(request.scope)[0] is not Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return sorted(methods)


async def _on_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """A full disk, a read-only or locked database: nothing was applied, the same request may come
    again (with the same request id it is applied once)."""
    log.warning("storage unavailable on %s %s: %s", request.method, request.url.path, exc)
    message = translator(request_language(request))("error.unavailable")
    response = error_response(503, "unavailable", message)
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


class Unexpected:
    """The log of unexpected errors: one traceback per kind (exception type and route) a window
    of UNEXPECTED_EVERY seconds, and with the next one the count of those it left out."""

    def __init__(self, every: float = UNEXPECTED_EVERY) -> None:
        self.every = every
        self.clock: Callable[[], float] = time.monotonic
        self._kinds: dict[tuple[str, str], tuple[float, int]] = {}
        """The time of each kind's last traceback and how many of it came since, unlogged."""

    def note(self, scope: Scope, error: BaseException) -> None:
        """Log ``error``, or count it when its kind was logged less than ``every`` ago."""
        route = getattr(scope.get("route"), "path_format", None) or "(no route)"
        method = scope.get("method", "")
        method = method if method in _METHODS else "(other)"  # never the client's own words:
        kind = (type(error).__qualname__, f"{method} {route}")  # a client varies those at will
        now = self.clock()
        last, unlogged = self._kinds.get(kind, (None, 0))
        if last is not None and now - last < self.every:
            self._kinds[kind] = (last, unlogged + 1)
            return
        self._kinds[kind] = (now, 0)
        more = f" (and {unlogged} more since the last one)" if unlogged else ""
        log.error("unexpected %s on %s%s", kind[0], kind[1], more, exc_info=error)


UNEXPECTED = Unexpected()
"""The process's one log of unexpected errors (every app of it writes to the same log)."""


def server_error(scope: Scope) -> JSONResponse:
    """The 500 reply: nothing was applied that was not acknowledged."""
    return error_response(500, "server_error", translator(scope_language(scope))("error.server"))


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    """An error in a layer outside :class:`CatchAll` (Starlette logs it again after this)."""
    UNEXPECTED.note(request.scope, exc)
    return server_error(request.scope)


Handler = Callable[[Request, Exception], Awaitable[JSONResponse]]

HANDLERS: tuple[tuple[type[Exception], Handler], ...] = (
    (ApiError, _on_api_error),
    (RequestValidationError, _on_validation_error),
    (StarletteHTTPException, _on_http_error),
    (Unavailable, _on_unavailable),
)
"""Each failure a route may raise and its reply; anything else is a 500 (``_on_unexpected``)."""


def install(app: FastAPI) -> None:
    """Route every kind of failure through the Error shape."""
    for kind, handler in HANDLERS:
        app.add_exception_handler(kind, handler)
    app.add_exception_handler(Exception, _on_unexpected)
    app.add_middleware(BodyLimit)
    app.add_middleware(CatchAll)


def handler_for(error: Exception) -> Handler | None:
    """The reply for an error raised outside FastAPI's routing (moves.py), as install() gives it
    inside; None for an unexpected one, which the server's outermost handler answers with 500."""
    return next((handler for kind, handler in HANDLERS if isinstance(error, kind)), None)


class CatchAll:
    """Answer an unexpected error with 500 here, logged by :data:`UNEXPECTED`, rather than in
    Starlette's outermost layer, which logs every one and raises it again for uvicorn to log a
    second time: one request that fails would write two tracebacks to the log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def noting_start(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, noting_start)
        except Exception as error:
            UNEXPECTED.note(scope, error)
            if not started:  # else a reply half sent: uvicorn closes the connection
                await server_error(scope)(scope, receive, send)


class BodyLimit:
    """Refuse request bodies over MAX_BODY with 413, whether announced by Content-Length or not."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, replayed(b"".join(chunks), receive), send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        await refuse(scope, receive, send, 413, "body_too_large", connection="close")


def replayed(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the body read already to the app, then the client's next messages."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
