"""The FastAPI app: one store, one commit thread and one set of solver workers, made and closed here.

The routes live in api/, a module per resource, and reach these through ``app.state``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from tripeaks import daily
from tripeaks import stats as statistics
from tripeaks.journey import achievements, transfer
from tripeaks.store.core import Storage
from tripeaks.store.sqlite import open_store
from tripeaks.web.api import codes, errors, games, health, journey, players, reference, stats
from tripeaks.web.api import daily as daily_routes
from tripeaks.web.api.caller import Backend, player_cookie
from tripeaks.web.api.moves import Moves
from tripeaks.web.api.reference import STATIC
from tripeaks.web.backend.committer import Committer
from tripeaks.web.backend.solving import Solvers
from tripeaks.web.hosting import Hosting, from_workers, settle_the_heap
from tripeaks.web.http import guard, identity
from tripeaks.web.http.compress import PageGzip
from tripeaks.web.http.ratelimit import Counts, Limiter


def create_app(
    db: str | Path,
    *,
    allowed_hosts: Iterable[str] = guard.DEFAULT_HOSTS,
    hosting: Hosting | None = None,
) -> FastAPI:
    """The whole app on one database: a SQLite file, or a ``postgresql://`` URL (open_store).

    Browser tests start uvicorn on this with a temporary SQLite file. ``hosting`` turns on what a
    server for many players wants (metrics, access log, its limits).
    """
    hosting = hosting or Hosting()
    # the verdict a counted game keeps: the solver worker's, asked for near the game's end, else
    # worked out here (the store asks for it outside its lock; ``solvers`` is made just below,
    # before any game can be played)
    store = open_store(
        db,
        daily.Policy(
            judge=lambda code: solvers.known_verdict(code) or statistics.judge(code),
            count=statistics.count,
            journey=achievements.Keeper(),
        ),
    )
    solvers = Solvers()
    meter = None
    if hosting.metrics:
        from tripeaks.web.http.metrics import Meter  # prometheus is imported only when it is used

        meter = Meter(solvers, hosting.metrics_allow, hosting.metrics_token)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            solvers.close()
            store.close()

    app = FastAPI(
        title="TriPeaks",
        version="1",
        description="The JSON API between the TriPeaks server and its page (docs/api.md).",
        lifespan=lifespan,
        # Swagger UI and ReDoc load their scripts from a CDN: no page of ours does. The schema stays
        # at /openapi.json; docs/api.md is the reference.
        docs_url=None,
        redoc_url=None,
        # FastAPI's own OpenTelemetry hook asks the global providers on every request; the server's
        # figures are Prometheus's (/metrics) and the access log (docs/deploy.md)
        telemetry={"tracing": False, "metrics": False, "logs": False},
        # the app's own routes: include_router adds a matching layer per request
        routes=[
            *reference.router.routes,
            *codes.router.routes,
            *games.router.routes,
            *stats.router.routes,
            *daily_routes.router.routes,
            *players.router.routes,
            *journey.router.routes,
            *health.router.routes,
            *(health.metrics_router.routes if meter else ()),
        ],
    )
    limiter = Limiter(hosting.rates, counts=_shared_counts(store), loopback=hosting.hosted)
    secret = daily.operator_secret() or bytes.fromhex(
        store.setting(daily.SETTING, daily.new_secret)
    )
    signer = identity.Identity(bytes.fromhex(store.setting(identity.SETTING, identity.new_key)))
    backend = Backend(
        store,
        Committer(store),
        solvers,
        limiter,
        identity=signer,
        meter=meter,
        dailies=daily.Dailies(secret),
        ranked_per_address=hosting.ranked_per_address,
        transfer_key=bytes.fromhex(store.setting(transfer.SETTING, transfer.new_key)),
    )
    app.state.backend = backend
    app.add_middleware(Moves, routes=app.router.routes)  # innermost: every guard runs before it
    app.add_middleware(  # an old cookie's bare id, signed once the store knows the player
        identity.Upgrade,
        identity=signer,
        cookie=identity.COOKIE,
        known=lambda player: backend.stored(store.known_player, player),
        set_cookie=player_cookie,
        handler_for=errors.handler_for,
    )
    errors.install(app)
    app.add_middleware(PageGzip)  # inside the guard: a refusal is never compressed work
    guard.install(app, allowed_hosts)
    if hosting.access_log:
        from tripeaks.web.http.accesslog import AccessLog

        app.add_middleware(AccessLog)
    if meter is not None:
        meter.install(app)  # outermost: it counts refusals too
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


def _shared_counts(store: Storage) -> Counts | None:
    """The rate limits' counts every worker shares, for a store that several workers share."""
    if not store.shared:
        return None  # one process (SQLite): its memory is the one place
    from tripeaks.store.postgres import PgStore
    from tripeaks.store.ratelimits import PgCounts

    assert isinstance(store, PgStore)
    return PgCounts(store.statement)


def from_environment() -> FastAPI:
    """One worker process's app under ``tripeaks serve --workers N`` (uvicorn imports it by name):
    the database, host names and hosted settings come from the environment serve.py set before
    starting them (hosting.to_workers)."""
    db, hosts, settings = from_workers(os.environ)
    app = create_app(db, allowed_hosts=hosts or guard.DEFAULT_HOSTS, hosting=settings)
    settle_the_heap()
    return app
