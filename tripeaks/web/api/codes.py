"""The route of codes (docs/api.md): a typed code checked, changing nothing.

A code is read here the way a new game and a preview read it (games.py), so that what the check
accepts, a new game deals.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from tripeaks import i18n
from tripeaks.engine.codes import GameCode, InvalidCode, NotOffered, offer_layout, offered
from tripeaks.engine.codes import offer as offer_variant
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.variant import Variant
from tripeaks.i18n import translator
from tripeaks.web.api import view
from tripeaks.web.api.caller import LangQuery
from tripeaks.web.api.errors import ERRORS, ApiError
from tripeaks.web.api.models import CodeOut

router = APIRouter()


def read_code(text: str, lang: str) -> GameCode:
    """A code from outside (TP1 or TP2), as a new game reads it: a bad one, or one with options
    this version does not offer yet, is a 422 that changes nothing. Any good code is read the same
    way, whoever's it is: the deal of the day is dealt from the secret, and its code (a long one)
    cannot be worked out from what is seen of it (docs/decisions.md)."""
    try:
        parsed = GameCode.parse(text)
    except InvalidCode:
        raise ApiError("invalid_code", translator(lang)("error.invalid_code")) from None
    offer(parsed, lang)
    return parsed


def offer(code: GameCode | Variant, lang: str, layout: Layout = THREE_PEAKS) -> None:
    """Nothing, if this version offers all the code's or the new deal's options and its table
    (``layout``, for a new deal); else a 422 that changes nothing."""
    try:
        if isinstance(code, GameCode):
            offered(code)
        else:
            offer_layout(code, layout)
            offer_variant(code)
    except NotOffered as refusal:
        raise ApiError("options_not_offered", i18n.refusal(refusal, lang)) from None


@router.get("/api/code", response_model=CodeOut, responses=ERRORS)
async def check_code(code: Annotated[str, Query(max_length=64)], lang: LangQuery = "en") -> CodeOut:
    """Read a typed code the way a new game would, and change nothing."""
    return view.code_out(read_code(code, lang))
