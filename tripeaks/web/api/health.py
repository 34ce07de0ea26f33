"""``/healthz``, ``/readyz`` and ``/metrics``: for the load balancer and the operator, not the page.

A load balancer and Prometheus ask by the machine's address, not by the site's name, so these paths
are let through the Host check (guard.OPEN_PATHS): they change nothing and tell a stranger nothing
about anyone's games. ``/metrics`` answers only a scrape that carries the operator's token
(Hosting.metrics_token) from the networks of Hosting.metrics_allow; without a token it is closed.
``/readyz`` reads the database, so it is rate-limited per address like every route that costs work.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from tripeaks.i18n import translator
from tripeaks.web.api import errors
from tripeaks.web.api.caller import Caller
from tripeaks.web.api.errors import Busy, Forbidden, Unauthorized
from tripeaks.web.api.models import ErrorOut

PING_TIMEOUT = 2.0
"""Seconds the database has to answer a readiness check (a probe's own timeout is a few)."""
OK = b'{"status":"ok"}'

router = APIRouter()
metrics_router = APIRouter()


# HEAD is answered as GET but left out of the schema: one route for both methods would give the two
# operations one id (FastAPI warns), and a client generated from the schema needs one name each.
@router.get("/healthz", tags=["operator"])
@router.head("/healthz", include_in_schema=False)
async def healthz() -> Response:
    """Live: the process answers requests (it does not ask the database: restarting would not help)."""
    return Response(OK, media_type="application/json")


@router.get(
    "/readyz",
    tags=["operator"],
    responses={
        429: {"model": ErrorOut, "description": "too many checks from this address"},
        503: {"model": ErrorOut, "description": "the database does not answer"},
    },
)
@router.head("/readyz", include_in_schema=False)
async def readyz(request: Request) -> Response:
    """Ready: the database answered a cheap query within PING_TIMEOUT; send players here."""
    backend = request.app.state.backend
    await Caller(backend, None, request.scope).refuse_if_limited("ready")
    store = backend.store
    try:
        await asyncio.wait_for(run_in_threadpool(store.ping), PING_TIMEOUT)
    except Exception:  # any failure at all means: not ready
        message = translator(errors.request_language(request))("error.not_ready")
        later = {"Retry-After": str(errors.RETRY_AFTER)}
        raise Busy("not_ready", message, headers=later) from None
    return Response(OK, media_type="application/json")


@metrics_router.get(
    "/metrics",
    tags=["operator"],
    response_class=Response,
    responses={
        401: {"model": ErrorOut, "description": "no token, or not the operator's"},
        403: {"model": ErrorOut, "description": "a client outside the allowed networks"},
    },
)
async def metrics(request: Request) -> Response:
    """Prometheus text format; only for the operator's token, from the allowed networks."""
    meter = request.app.state.backend.meter
    client = request.client.host if request.client else None
    _ = translator(errors.request_language(request))
    if not meter.allows(client):
        raise Forbidden("metrics_forbidden", _("error.metrics_forbidden"))
    if not meter.opens_to(_authorization(request)):
        challenge = {"WWW-Authenticate": 'Bearer realm="metrics"'}
        raise Unauthorized("metrics_token", _("error.metrics_token"), headers=challenge)
    body, media_type = await run_in_threadpool(meter.exposition)
    return Response(body, media_type=media_type)


def _authorization(request: Request) -> bytes | None:
    """The request's first ``Authorization`` header as it came."""
    for name, value in request.scope["headers"]:
        if name == b"authorization":
            return bytes(value)
    return None
