"""What every route is handed and hands back: the backend, the caller, the cookie, the reply.

The app (app.py) makes one Backend and keeps it on ``app.state``; each request reads it with the
player of its cookie as one Caller. Routes answer with :func:`reply`, a model serialized once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

from fastapi import Query, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from tripeaks import daily
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Game, Turn
from tripeaks.i18n import translator
from tripeaks.store.core import Storage
from tripeaks.store.policy import LevelTag
from tripeaks.web.api import journey_view
from tripeaks.web.api.errors import TooMany
from tripeaks.web.api.models import GameState, Lang
from tripeaks.web.api.view import game_state
from tripeaks.web.backend.committer import Committer
from tripeaks.web.backend.solving import Solvers
from tripeaks.web.http.identity import COOKIE, Identity
from tripeaks.web.http.ratelimit import Limiter
from tripeaks.web.http.refusal import scope_language

if TYPE_CHECKING:
    from tripeaks.web.http.metrics import Meter

COOKIE_AGE = 10 * 365 * 24 * 3600

P = ParamSpec("P")
T = TypeVar("T")

LangQuery = Annotated[Lang, Query(description="language of every word in the reply")]


@dataclass(frozen=True, slots=True)
class Backend:
    """What the app made for its routes: the store, its commit thread and the solver workers."""

    store: Storage
    committer: Committer
    solvers: Solvers
    limiter: Limiter
    identity: Identity
    """Signs and reads the player cookies (identity.py)."""
    meter: Meter | None = None
    """The metrics, when the app serves them (Hosting.metrics)."""
    dailies: daily.Dailies | None = None
    """The deals of the day (daily.py), from the server's secret."""
    ranked_per_address: int = daily.RANKED_PER_ADDRESS
    """Ranked attempts at a day's deal from one client network (Hosting.ranked_per_address)."""
    transfer_key: bytes = b""
    """The key of the transfer codes' hashes (journey/transfer.py), kept in the settings table."""

    async def stored(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """A store call, made so that the event loop never waits on a database server.

        SQLite answers from this process's memory or a local file in microseconds: the call runs
        inline (a thread hop would cost more than it saves). A shared store (PostgreSQL) may read
        over the network, a round trip that would stall every other request of this worker: the
        call runs in a worker thread.
        """
        if not self.store.shared:
            return call(*args, **kwargs)
        return await run_in_threadpool(call, *args, **kwargs)

    def state(
        self,
        game: Game,
        game_id: str | None,
        lang: str,
        tag: daily.Tag | None = None,
        turn: Turn | None = None,
        level: LevelTag | None = None,
        best: int | None = None,
        unlocked: Sequence[str] = (),
    ) -> GameState:
        """The player's state of a game, with the deal's verdict once over (asked for near the
        end); none for a daily of an open day, whose deal nobody is told anything of. A level
        game (``level``) carries its level, and once won its result, with the player's ``best``
        stars on it as stored after the win (None: the game's own, read before)."""
        verdict = None
        if not daily.secret(tag):
            if game.is_over or game.is_stuck:
                verdict = self.solvers.deal_result(_code(game))
            elif game.near_the_end:
                self.solvers.deal_result(_code(game))  # start the search now; nobody waits for it
        return game_state(
            game,
            lang,
            game_id=game_id,
            turn=turn,
            verdict=verdict,
            tag=tag,
            level=journey_view.level_out(level, game),
            level_result=journey_view.level_result_out(
                level, game, (level.best if level else 0) if best is None else best
            ),
            unlocked=journey_view.unlocked_out(unlocked) if unlocked else None,
        )


@dataclass(frozen=True, slots=True)
class Caller:
    """The backend and the player a request is for: one dependency, so FastAPI solves one per request."""

    backend: Backend
    player: str | None
    """The anonymous player id of the cookie, if the server signed it (identity.py); None for
    no cookie and for one it did not sign: such a request is a new player's."""
    scope: Scope
    """The request's ASGI scope: its client address and scheme, read only by the routes that
    need them (rate limits, the cookie's ``Secure``)."""

    @property
    def address(self) -> str | None:
        """The client's address (the declared proxy's X-Forwarded-For one behind
        ``--behind-proxy``): what the limits, the daily's network count and the solver's shares
        count by."""
        client = self.scope.get("client")
        return str(client[0]) if client else None

    async def refuse_if_limited(self, *kinds: str, player: str | None = None) -> None:
        """Count one request of each kind (ratelimit.py); raise 429 when one is over its limit.

        ``player`` is the one counted when it is not the cookie's (a new player's first game).
        Counts the workers share are a database round trip, made off the event loop.
        """
        address = self.address
        limiter, who = self.backend.limiter, player or self.player
        if not limiter.active:
            return
        if limiter.counts.shared:
            wait = await run_in_threadpool(limiter.refusal, kinds, who, address)
        else:
            wait = limiter.refusal(kinds, who, address)
        if wait is None:
            return
        if self.backend.meter is not None:
            for kind in kinds:
                self.backend.meter.limited.labels(kind).inc()
        lang = scope_language(self.scope)
        message = translator(lang)("error.rate_limited", seconds=wait)
        raise TooMany("rate_limited", message, headers={"Retry-After": str(wait)})

    def set_cookie(self, response: Response, player: str) -> None:
        """The new player's cookie: their id with the server's signature (identity.py)."""
        player_cookie(response, self.scope, self.backend.identity.token(player))


def _code(game: Game) -> GameCode:
    assert game.code is not None
    return game.code


def caller_of(request: Request) -> Caller:
    """What a route is for, read from ``app.state`` and the cookie.

    A plain call, not a ``Depends``: FastAPI 0.165 solves every sub-dependency with a second pass
    of its dependency machinery (a new Response, cache keys, scope checks), about 3% of the CPU of
    a whole action (cachegrind); a ``Request`` parameter costs nothing extra.
    """
    backend: Backend = request.app.state.backend
    player = backend.identity.player(request.cookies.get(COOKIE))
    return Caller(backend, player, request.scope)


def player_cookie(response: Response, scope: Scope, token: str) -> None:
    """The player cookie with a signed id: theirs for ten years, never sent cross-site nor to
    scripts, and ``Secure`` over HTTPS (direct TLS or a trusted proxy's)."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="strict",
        secure=scope.get("scheme") == "https",
    )


def reply(model: BaseModel, status: int = 200) -> Response:
    """Serialize once; FastAPI would otherwise validate the finished model a second time."""
    body = model.model_dump_json(by_alias=True)
    return Response(body, status_code=status, media_type="application/json")


def reply_bytes(content: bytes) -> Response:
    """A reply serialized once for the server's life (the layout, the rules, the catalogs)."""
    return Response(content, media_type="application/json")
