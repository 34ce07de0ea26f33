"""The Error reply middleware sends before any route: docs/api.md's Error, with no state.

The guard, the body limit and the others refuse a request at the ASGI level, where no route has
read its query yet; the sentence is in the language its ``lang`` parameter asks for. The routes'
own refusals (api/errors.py) have the same shape, and may carry a state.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from tripeaks.i18n import DEFAULT_LANGUAGE, LANGUAGES, translator


def scope_language(scope: Scope) -> str:
    """The ``lang`` query parameter when it is one we speak, else the default.

    Read from the ASGI scope, so that middleware refusing a request before any route can use it.
    """
    query = scope.get("query_string", b"").decode("latin-1")
    lang = next((v for k, v in parse_qsl(query) if k == "lang"), DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def refusal_body(reason: str, message: str) -> dict[str, object]:
    """An Error without a state, as api/models.py's ErrorOut serializes it."""
    return {"error": {"reason": reason, "message": message}, "state": None}


async def refuse(
    scope: Scope, receive: Receive, send: Send, status: int, reason: str, **headers: str
) -> None:
    """An Error reply sent straight from middleware: ``error.<reason>`` in the query's language."""
    message = translator(scope_language(scope))(f"error.{reason}")
    response = JSONResponse(refusal_body(reason, message), status_code=status)
    response.headers.update(headers)
    await response(scope, receive, send)
