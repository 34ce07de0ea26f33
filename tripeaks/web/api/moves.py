"""The short way for the four moves (play, draw, undo, redo): the hot path of every game.

A move is most of a server's requests, and FastAPI's per-request machinery (its exception and
exit-stack layers, matching every route in turn, solving the dependencies) cost about as much CPU
as the move itself. This layer sits inside every middleware of ours (the host and cross-site
guard, the body limit, the metrics and the access log all still see the request) and answers a
well-formed move by calling the very route function FastAPI would, with the same arguments
validated by the same models. Anything else, and any move it cannot read exactly as FastAPI
would (bad JSON, a wrong field, an unknown language, another content type), goes on to FastAPI
untouched, so every refusal keeps its one place in errors.py.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from typing import get_args
from urllib.parse import parse_qsl

from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from tripeaks.web.api import errors
from tripeaks.web.api.games import MOVES
from tripeaks.web.api.models import Lang

LANGUAGES = frozenset(get_args(Lang))
PREFIX = "/api/games/"

Endpoint = Callable[..., Awaitable[Response]]


class Moves:
    """Answer POST /api/games/{id}/play|draw|undo|redo straight from the route function."""

    def __init__(self, app: ASGIApp, routes: Iterable[BaseRoute]) -> None:
        self.app = app
        self.moves: list[tuple[APIRoute, Endpoint, type[BaseModel]]] = [
            (route, route.endpoint, MOVES[route.endpoint])
            for route in routes
            if isinstance(route, APIRoute) and route.endpoint in MOVES
        ]
        assert len(self.moves) == len(MOVES), "every move's route is the app's"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or PREFIX not in scope["path"]:
            await self.app(scope, receive, send)
            return
        for route, endpoint, model in self.moves:
            match, child = route.matches(scope)
            if match is Match.FULL:
                await self._move(scope, receive, send, child, endpoint, model)
                return
        await self.app(scope, receive, send)

    async def _move(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        child: Scope,
        endpoint: Endpoint,
        model: type[BaseModel],
    ) -> None:
        body = await _body(receive)
        if body is None:
            return  # the client went away before its move was read: nothing to do
        arguments = _read(scope, body, model)
        if arguments is None:  # FastAPI says what is wrong, in errors.py's words
            await self.app(scope, errors.replayed(body, receive), send)
            return
        scope.update(child)  # the route and its path parameters, as routing would set them
        request = Request(scope, receive)
        try:
            response = await endpoint(request, scope["path_params"]["game_id"], *arguments)
        except Exception as error:
            handler = errors.handler_for(error)
            if handler is None:
                raise  # the outermost handler answers 500, as for any route
            response = await handler(request, error)
        await response(scope, receive, send)


def _read(scope: Scope, body: bytes, model: type[BaseModel]) -> tuple[BaseModel, str] | None:
    """The body and the language exactly as FastAPI would take them, or None to let it refuse."""
    if not _is_json(scope):
        return None
    query = scope.get("query_string", b"").decode("latin-1")
    lang = "en"
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key == "lang":
            lang = value  # the last one wins, as in Starlette's QueryParams
    if lang not in LANGUAGES:
        return None
    try:
        return model.model_validate(json.loads(body)), lang
    except (ValueError, RecursionError, ValidationError):  # bad JSON, too deep, a wrong field
        return None


def _is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind == b"application/json"
    return False


async def _body(receive: Receive) -> bytes | None:
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)
