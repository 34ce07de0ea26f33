"""``/healthz``, ``/readyz`` and ``/metrics``: for the load balancer and the operator, not the page.

A load balancer and Prometheus ask by the machine's address, not by the site's name, so these paths
are let through the Host check (guard.OPEN_PATHS): they change nothing and tell a stranger nothing
about anyone's games. ``/metrics`` answers only clients on the networks of Hosting.metrics_allow.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from tripeaks.i18n import translator
from tripeaks.web import errors
from tripeaks.web.models import ErrorOut

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
    responses={503: {"model": ErrorOut, "description": "the database does not answer"}},
)
@router.head("/readyz", include_in_schema=False)
async def readyz(request: Request) -> Response:
    """Ready: the database answered a cheap query within PING_TIMEOUT; send players here."""
    store = request.app.state.backend.store
    try:
        await asyncio.wait_for(run_in_threadpool(store.ping), PING_TIMEOUT)
    except Exception:  # any failure at all means: not ready
        message = translator(errors.request_language(request))("error.not_ready")
        response = errors.error_response(503, "not_ready", message)
        response.headers["Retry-After"] = str(errors.RETRY_AFTER)
        return response
    return Response(OK, media_type="application/json")


@metrics_router.get(
    "/metrics",
    tags=["operator"],
    response_class=Response,
    responses={403: {"model": ErrorOut, "description": "a client outside the allowed networks"}},
)
async def metrics(request: Request) -> Response:
    """Prometheus text format; only for clients on the allowed networks."""
    meter = request.app.state.backend.meter
    client = request.client.host if request.client else None
    if not meter.allows(client):
        message = translator(errors.request_language(request))("error.metrics_forbidden")
        return errors.error_response(403, "metrics_forbidden", message)
    body, media_type = await run_in_threadpool(meter.exposition)
    return Response(body, media_type=media_type)
