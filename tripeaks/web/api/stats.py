"""The routes of the player's statistics (docs/api.md): read them, or forget them."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from tripeaks import stats as statistics
from tripeaks.web.api import view
from tripeaks.web.api.caller import LangQuery, caller_of
from tripeaks.web.api.errors import ERRORS, WRITE_ERRORS
from tripeaks.web.api.models import StatsPage

router = APIRouter()


@router.get("/api/stats")
async def read_stats(request: Request, lang: LangQuery = "en") -> StatsPage:
    """Numbers only; ``lang`` is still checked, as on every route, so a wrong one is a 422."""
    caller = caller_of(request)
    player, backend = caller.player, caller.backend
    totals = await backend.stored(backend.store.totals, player) if player else {}
    latest = await backend.stored(backend.store.recent, player, statistics.RECENT) if player else []
    return view.stats_page(totals, latest)


@router.delete(
    "/api/stats", status_code=204, response_class=Response, responses={**ERRORS, **WRITE_ERRORS}
)
async def reset_stats(request: Request) -> Response:
    caller = caller_of(request)
    if caller.player:
        backend = caller.backend
        await backend.committer.durable(
            await backend.stored(backend.store.stage_reset, caller.player)
        )
    return Response(status_code=204)
