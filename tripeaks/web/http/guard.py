"""Only the player's own page may change their games: refuse cross-site writes and foreign hosts.

A form on any web site can POST to the server (the player's cookie stays behind, a new player is
made and their games are lost from view); a page on another port of 127.0.0.1 is the same *site*,
so its form even carries the cookie. Browsers mark such requests (``Sec-Fetch-Site``, ``Origin``),
and no HTML form can send ``Content-Type: application/json``, which the page always does. A host
name that is not ours (DNS rebinding: evil.example resolving to 127.0.0.1) is refused outright.
docs/decisions.md, "Hosting and cross-site safety", has the reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from ipaddress import AddressValueError, IPv6Address
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tripeaks.web.http.refusal import refuse

DEFAULT_HOSTS: tuple[str, ...] = ("127.0.0.1", "localhost", "[::1]")
"""Host names the server answers to on loopback; ``--host`` and ``--allowed-host`` add to them.

An IPv6 literal is written in brackets, as it arrives in the Host header (``[::1]:8000``).
"""

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Methods that may change state; GET and HEAD are never refused here."""

FOREIGN_FETCH_SITES = frozenset({"cross-site", "same-site"})
"""``Sec-Fetch-Site`` values of a request some other page made: another port is the same site."""

JSON = "application/json"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_TRUSTED = "tripeaks.trusted_host"
"""Scope key set once the Host header passed the check."""
OPEN_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
"""Answered whatever the Host: a load balancer's probe and Prometheus ask by address. They change
nothing and show no player's data (health.py); ``/metrics`` checks the operator's token and the
client's network itself."""


SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline';"
        b" img-src 'self' data:; connect-src 'self'; manifest-src 'self'; base-uri 'none';"
        b" form-action 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""Sent with every reply. Everything the page loads comes from this server, so the policy allows
nothing else; the one inline exception is ``style`` attributes (the court figures' SVG colours, and
the positions motion.js gives the cards it flies). No page may frame ours (clickjacking)."""


def install(app: FastAPI, allowed_hosts: Iterable[str]) -> None:
    """Add the guard around everything else.

    Call after ``errors.install``: middleware added later runs earlier, so a foreign host gets its
    400 before any other middleware, and a refused write never reaches the body limit or a route
    (which is what issues the cookie). The security headers go on every reply, refusals included.
    """
    hosts = [host_pattern(h) for h in allowed_hosts]
    app.add_middleware(Guard, allowed_hosts=hosts, routes=app.router.routes)
    schema = app.openapi

    def documented() -> dict[str, Any]:
        return json_bodies(schema())

    app.openapi = documented  # type: ignore[method-assign]


def json_bodies(schema: dict[str, Any]) -> dict[str, Any]:
    """The API schema with the JSON body this guard requires of every write (415 without it):
    routes that read none still take one (the page sends ``{}``), of any shape."""
    for operations in schema.get("paths", {}).values():
        for method, operation in operations.items():
            if method.upper() in WRITES:
                body = operation.setdefault("requestBody", {"content": {JSON: {"schema": {}}}})
                body["required"] = True
    return schema


class Guard:
    """The host check (Starlette's TrustedHostMiddleware, its plain-text refusal replaced by an
    Error reply), the cross-site write check and the security headers, in one layer.

    One layer rather than three: each ASGI layer is a call and a ``send`` wrapper on every
    request; as three layers the checks cost ~5% of an action's CPU, as one under half of that
    (cachegrind instruction counts).
    """

    def __init__(
        self, app: ASGIApp, allowed_hosts: list[str], routes: Sequence[BaseRoute] = ()
    ) -> None:
        self.app = app
        self.check = TrustedHostMiddleware(self._trusted, allowed_hosts, www_redirect=False)
        self.routes = routes
        """The app's routes: a write no route takes is left to routing's 405, not refused 415."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.check(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        if scope["path"] in OPEN_PATHS and scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, with_headers)  # any Host: probes ask by address
            return

        async def send_or_refuse(message: Message) -> None:
            if scope.get(_TRUSTED):
                await with_headers(message)
            elif message["type"] == "http.response.start":  # the host check's own refusal
                await refuse(scope, receive, with_headers, 400, "bad_host")

        await self.check(scope, receive, send_or_refuse)

    async def _trusted(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope[_TRUSTED] = True
        if scope["type"] == "http" and scope["method"] in WRITES:
            refusal = _write_refusal(scope)
            if refusal is not None and refusal[0] == 415 and not _routed(self.routes, scope):
                refusal = None  # a method this path does not take: 405, and Allow says which
            if refusal is not None:
                await refuse(scope, receive, send, *refusal)
                return
        await self.app(scope, receive, send)


def _routed(routes: Sequence[BaseRoute], scope: Scope) -> bool:
    """Some route takes this method at this path (asked only of a write about to be refused)."""
    return any(
        getattr(route, "methods", None) and route.matches(scope)[0] is Match.FULL
        for route in routes
    )


def _write_refusal(scope: Scope) -> tuple[int, str] | None:
    """403 ``cross_site`` for a write another page made, 415 for one that is not JSON, else None."""
    found: dict[bytes, str] = {}
    for name, value in scope["headers"]:  # one pass; the first of a repeated header counts
        if name in _WRITE_HEADERS and name not in found:
            found[name] = value.decode("latin-1")
    if _foreign(
        scope.get("scheme", "http"),
        found.get(b"sec-fetch-site", ""),
        found.get(b"origin"),
        found.get(b"host", ""),
    ):
        return 403, "cross_site"
    if found.get(b"content-type", "").partition(";")[0].strip().lower() != JSON:
        return 415, "unsupported_media_type"
    return None


_WRITE_HEADERS = frozenset({b"sec-fetch-site", b"origin", b"host", b"content-type"})


def host_pattern(name: str) -> str:
    """A host name as TrustedHostMiddleware compares it: lower case, IPv6 in brackets.

    Raises ValueError for what can never match a Host header (empty, a port, a bad wildcard).
    """
    name = name.strip().lower()
    try:
        return f"[{IPv6Address(name.strip('[]'))}]"
    except AddressValueError:
        pass
    if not name or any(c in name for c in "/:@[] ") or "*" in name[1:]:
        raise ValueError(f"not a host name: {name!r}")
    if name.startswith("*") and name != "*" and not name.startswith("*."):
        raise ValueError(f"a wildcard host must look like *.example.com: {name!r}")
    return name


def _foreign(scheme: str, fetch_site: str, origin: str | None, host: str) -> bool:
    """Whether the browser says another page made this request."""
    if fetch_site.strip().lower() in FOREIGN_FETCH_SITES:
        return True
    if origin is None:
        return False  # not sent by a browser page (or a same-origin GET-like request)
    if origin == f"{scheme}://{host}":
        return False  # the page's own origin, written as its Host: the usual case, no parsing
    own = _origin(f"{scheme}://{host}")
    return own is None or _origin(origin) != own


def _origin(text: str) -> tuple[str, str, int] | None:
    """Scheme, host and port of an origin, or None when it is none (``null``, garbage)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.username is not None or parts.query or parts.fragment:
        return None
    return scheme, parts.hostname.lower(), port if port is not None else _DEFAULT_PORTS[scheme]
