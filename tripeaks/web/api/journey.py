"""The routes of the journey (docs/api.md "The journey"): the map, a level's game, the
achievements, and the one-time code that carries a player to another browser.

What a level is comes from journey/levels.json; what a won level earns and how achievements move
on is judged by the policy from the games' stored actions as they are counted (the store's
journey rows); these routes pick what to read and hand it to journey_view.py. No request carries
a figure: a level's game is started from its number alone.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request, Response

from tripeaks import nickname
from tripeaks.i18n import translator
from tripeaks.journey import levels, transfer
from tripeaks.store.core import new_id
from tripeaks.store.policy import LevelTag
from tripeaks.web.api import journey_view
from tripeaks.web.api.caller import Caller, LangQuery, caller_of, player_cookie, reply
from tripeaks.web.api.errors import (
    ERRORS,
    LIMITED,
    WRITE_ERRORS,
    ApiError,
    Forbidden,
    Gone,
    NotFound,
    Responses,
)
from tripeaks.web.api.games import with_unlocked
from tripeaks.web.api.journey_models import (
    AchievementsOut,
    JourneyOut,
    NewLevelIn,
    RedeemIn,
    RedeemOut,
    TransferIn,
    TransferOut,
)
from tripeaks.web.api.models import RULES, ErrorOut, GameState

router = APIRouter()


@router.get("/api/journey", response_model=JourneyOut, responses=ERRORS)
async def read_journey(request: Request, lang: LangQuery = "en") -> Response:
    """The map: every level with the player's best on it; a player without a cookie gets the
    fresh map (level 1 open) and no cookie."""
    caller = caller_of(request)
    rows = []
    if caller.player is not None:
        rows = await caller.backend.stored(caller.backend.store.levels, caller.player)
    return reply(journey_view.journey_out(rows))


_LEVEL_ERRORS: Responses = {
    **ERRORS,
    **WRITE_ERRORS,
    **LIMITED,
    403: {
        "model": ErrorOut,
        "description": "a level not open yet (level_locked); a write from another site or origin",
    },
    404: {"model": ErrorOut, "description": "no level of that number (unknown_level)"},
}


@router.post(
    "/api/journey/levels/{n}",
    status_code=201,
    response_model=GameState,
    responses=_LEVEL_ERRORS,
)
async def new_level(
    request: Request, n: int, body: NewLevelIn | None = None, lang: LangQuery = "en"
) -> Response:
    """A new game of level ``n``: its deal, its goal and its figures are the journey's. Like any
    new game it leaves the player's unfinished games and counts against the games' limit; a
    level not open yet is 403 and an unknown one 404, and then nothing changes."""
    caller = caller_of(request)
    backend, player = caller.backend, caller.player
    _ = translator(lang)
    journey = levels.load()
    try:
        level = journey.level(n)
    except KeyError:
        message = _("error.unknown_level", level=n, count=len(journey.levels))
        raise NotFound("unknown_level", message) from None
    done: dict[int, int] = {}
    if player is not None:
        rows = await backend.stored(backend.store.levels, player)
        done = {row.level: row.stars for row in rows if row.stars > 0}
    if n > 1 and (n - 1) not in done:
        raise Forbidden("level_locked", _("error.level_locked", level=n, previous=n - 1))
    fresh = player is None
    if player is None:
        player = new_id()
    await caller.refuse_if_limited("games", *(("players",) if fresh else ()), player=player)
    tag = LevelTag(n, done.get(n, 0))
    created = await backend.stored(backend.store.stage_create, player, level.code, level=tag)
    state = backend.state(created.game, created.id, lang, level=tag)
    await backend.committer.durable(created.done)
    response = reply(await with_unlocked(caller, player, created.left, state), 201)
    if backend.meter is not None:
        backend.meter.started[RULES[level.code.rules]].inc()
        if created.lost:
            backend.meter.counted["lost"].inc(created.lost)
    if fresh:
        caller.set_cookie(response, player)
    return response


@router.get("/api/achievements", response_model=AchievementsOut, responses=ERRORS)
async def read_achievements(request: Request, lang: LangQuery = "en") -> Response:
    """Every achievement with the player's progress toward it, in a fixed order."""
    caller = caller_of(request)
    kept = {}
    if caller.player is not None:
        kept = await caller.backend.stored(caller.backend.store.achievements, caller.player)
    return reply(journey_view.achievements_out(kept))


# Carrying progress to another browser ----------------------------------------------------------

_TRANSFER_ERRORS: Responses = {
    **ERRORS,
    **WRITE_ERRORS,
    **LIMITED,
    403: {
        "model": ErrorOut,
        "description": "no player to carry (transfer_no_player); a write from another site or origin",
    },
}
_REDEEM_ERRORS: Responses = {
    **ERRORS,
    **WRITE_ERRORS,
    **LIMITED,
    404: {"model": ErrorOut, "description": "no such code (transfer_unknown)"},
    410: {
        "model": ErrorOut,
        "description": "the code expired or was used (transfer_expired, _spent)",
    },
    422: {"model": ErrorOut, "description": "not a code's shape (transfer_malformed)"},
}


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


@router.post(
    "/api/player/transfer",
    status_code=201,
    response_model=TransferOut,
    responses=_TRANSFER_ERRORS,
)
async def make_transfer(
    request: Request, body: TransferIn | None = None, lang: LangQuery = "en"
) -> Response:
    """A one-time code for this player, good for transfer.SECONDS; it spends their earlier ones.
    The server keeps only its keyed hash."""
    caller = caller_of(request)
    backend, player = caller.backend, caller.player
    if player is None:
        raise Forbidden("transfer_no_player", translator(lang)("error.transfer_no_player"))
    await caller.refuse_if_limited("transfers")
    code = transfer.new_code()
    expires = backend.store.clock() + transfer.SECONDS
    digest = transfer.digest(backend.transfer_key, code)
    await backend.committer.durable(
        await backend.stored(backend.store.stage_transfer, player, digest, expires, transfer.KEPT)
    )
    out = TransferOut(code=transfer.shown(code), expires_at=_iso(expires), seconds=transfer.SECONDS)
    return reply(out, 201)


@router.post("/api/player/transfer/redeem", response_model=RedeemOut, responses=_REDEEM_ERRORS)
async def redeem_transfer(request: Request, body: RedeemIn, lang: LangQuery = "en") -> Response:
    """Play as the code's player in this browser: its cookie is set to theirs (this browser's
    own games stay with its old player). Every attempt counts against the limits first; a code
    refused changes nothing."""
    caller = caller_of(request)
    backend = caller.backend
    _ = translator(lang)
    await caller.refuse_if_limited("redeems")
    code = transfer.read(body.code)
    if code is None:
        raise ApiError("transfer_malformed", _("error.transfer_malformed"))
    digest = transfer.digest(backend.transfer_key, code)
    found, owner = await backend.stored(backend.store.transfer_found, digest, backend.store.clock())
    if found == "redeemed":  # it looks good: spend it, deciding again in the commit
        found, owner = await _spent(caller, digest)
    if found != "redeemed" or owner is None:
        raise _refused(found, lang)
    chosen = await backend.stored(backend.store.nickname, owner)
    response = reply(RedeemOut(name=nickname.shown(owner, chosen, lang), chosen=chosen is not None))
    player_cookie(response, caller.scope, backend.identity.token(owner))
    return response


async def _spent(caller: Caller, digest: str) -> tuple[str, str | None]:
    backend = caller.backend
    done = await backend.stored(backend.store.stage_redeem, digest)
    await backend.committer.durable(done)
    return done.result()


def _refused(found: str, lang: str) -> ApiError:
    message = translator(lang)(f"error.transfer_{found}", minutes=transfer.SECONDS // 60)
    if found == "unknown":
        return NotFound("transfer_unknown", message)
    return Gone(f"transfer_{found}", message)
