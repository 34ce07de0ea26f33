"""The routes of the player's name (docs/api.md): the nickname every board shows.

What a name may be is nickname.py's; the store keeps it, with the key that tells names that look
alike apart.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from tripeaks import nickname
from tripeaks.i18n import translator
from tripeaks.store.core import NameTaken
from tripeaks.web.api.caller import LangQuery, caller_of, reply
from tripeaks.web.api.daily_models import NameIn, NameOut
from tripeaks.web.api.errors import (
    ERRORS,
    LIMITED,
    WRITE_ERRORS,
    ApiError,
    Conflict,
    Forbidden,
    Responses,
)
from tripeaks.web.api.models import ErrorOut

router = APIRouter()


@router.get("/api/player/name", response_model=NameOut, responses=ERRORS)
async def read_name(request: Request, lang: LangQuery = "en") -> NameOut:
    caller = caller_of(request)
    if caller.player is None:
        return NameOut(name=None, chosen=False)
    chosen = await caller.backend.stored(caller.backend.store.nickname, caller.player)
    return NameOut(name=nickname.shown(caller.player, chosen, lang), chosen=chosen is not None)


_NAME_ERRORS: Responses = {
    **ERRORS,
    **WRITE_ERRORS,
    403: {
        "model": ErrorOut,
        "description": "a player who has not played yet (name_no_player); a write from another"
        " site or origin",
    },
    409: {"model": ErrorOut, "description": "another player has a name that looks like it"},
    422: {"model": ErrorOut, "description": "a name the rules refuse (docs/api.md)"},
}


@router.put("/api/player/name", response_model=NameOut, responses={**_NAME_ERRORS, **LIMITED})
async def set_name(request: Request, body: NameIn, lang: LangQuery = "en") -> Response:
    """The player's nickname on every board: 1-20 letters, digits and single spaces, that draw
    something, look like no other player's name and not like a generated one.

    Only a player who has played may choose one: a name change makes no player (each one made
    would be a row of the players table, for anyone who sends requests without a cookie)."""
    caller = caller_of(request)
    await caller.refuse_if_limited("names")
    try:
        name = nickname.clean(body.name)
    except nickname.BadName as bad:
        raise ApiError(f"name_{bad.reason}", bad.message(lang)) from None
    player = caller.player
    backend = caller.backend
    _ = translator(lang)
    if player is None or not await backend.stored(backend.store.has_played, player):
        raise Forbidden("name_no_player", _("error.name_no_player"))
    try:
        await backend.committer.durable(
            await backend.stored(backend.store.stage_nickname, player, name, nickname.key(name))
        )
    except NameTaken:
        raise Conflict("name_taken", _("error.name_taken")) from None
    return reply(NameOut(name=name, chosen=True))
