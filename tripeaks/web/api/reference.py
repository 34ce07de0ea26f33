"""The routes of what the page reads once (docs/api.md): the page, the layout, the rules' numbers
and every message of a language. None changes while the server runs: each is serialized once."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse

from tripeaks.i18n import translator
from tripeaks.web.api import errors, view
from tripeaks.web.api.caller import LangQuery, reply_bytes
from tripeaks.web.api.errors import NotFound
from tripeaks.web.api.models import CatalogOut, ErrorOut, Lang, LayoutOut, LayoutsOut, RulesOut

STATIC = Path(__file__).parent.parent / "static"

router = APIRouter()


@router.get("/", include_in_schema=False, response_model=None)
async def index(request: Request) -> FileResponse:
    page = STATIC / "index.html"
    if not page.is_file():
        lang = errors.request_language(request)
        raise NotFound("no_page", translator(lang)("error.no_page"))
    return FileResponse(page, headers={"Cache-Control": "no-cache"})


@router.get("/api/layout", response_model=LayoutOut)
async def layout() -> Response:
    return reply_bytes(_LAYOUT_JSON)


@router.get("/api/layouts", response_model=LayoutsOut)
async def layouts(lang: LangQuery = "en") -> Response:
    """Every layout: its word, name, size and geometry, and whether it is offered yet."""
    return reply_bytes(_layouts_json(lang))


@cache
def _layouts_json(lang: str) -> bytes:
    return view.layouts_out(lang).model_dump_json().encode()


@router.get("/api/rules", response_model=RulesOut)
async def rules() -> Response:
    return reply_bytes(_RULES_JSON)


@router.get("/api/i18n/{lang}", response_model=CatalogOut, responses={422: {"model": ErrorOut}})
async def catalog(lang: Lang) -> Response:
    return reply_bytes(_catalog_json(lang))


_LAYOUT_JSON = view.layout_out().model_dump_json().encode()
_RULES_JSON = view.rules_out().model_dump_json().encode()


@cache
def _catalog_json(lang: Lang) -> bytes:
    """Every message of a language, serialized once: catalogs do not change while serving."""
    return view.catalog_out(lang).model_dump_json().encode()
