"""Only the player's own page may change their games: refuse cross-site writes and foreign hosts.

A form on any web site can POST to the server (the player's cookie stays behind, a new player is
made and their games are lost from view); a page on another port of 127.0.0.1 is the same *site*,
so its form even carries the cookie. Browsers mark such requests (``Sec-Fetch-Site``, ``Origin``),
and no HTML form can send ``Content-Type: application/json``, which the page always does. A host
name that is not ours (DNS rebinding: evil.example resolving to 127.0.0.1) is refused outright.
docs/decisions.md, "Hosting and cross-site safety", has the reasons.
"""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import AddressValueError, IPv6Address
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tripeaks.web.errors import refuse

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
nothing and show no player's data (health.py); ``/metrics`` checks the client's network itself."""


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
    """Add the host check (outermost) and the cross-site write check around everything else.

    Call after ``errors.install``: middleware added later runs earlier, so a foreign host gets its
    400 before any other middleware, and a refused write never reaches the body limit or a route
    (which is what issues the cookie). The security headers go on every reply, refusals included.
    """
    app.add_middleware(CrossSiteWrites)
    app.add_middleware(TrustedHosts, allowed_hosts=[host_pattern(h) for h in allowed_hosts])
    app.add_middleware(SecurityHeaders)


class SecurityHeaders:
    """Add SECURITY_HEADERS to the start of every HTTP reply."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


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


class TrustedHosts:
    """Starlette's TrustedHostMiddleware, with its plain-text refusal replaced by an Error reply."""

    def __init__(self, app: ASGIApp, allowed_hosts: list[str]) -> None:
        self.app = app
        self.check = TrustedHostMiddleware(self._trusted, allowed_hosts, www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.check(scope, receive, send)
            return
        if scope["path"] in OPEN_PATHS and scope["method"] in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return

        async def send_or_refuse(message: Message) -> None:
            if scope.get(_TRUSTED):
                await send(message)
            elif message["type"] == "http.response.start":  # the middleware's own refusal
                await refuse(scope, receive, send, 400, "bad_host")

        await self.check(scope, receive, send_or_refuse)

    async def _trusted(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope[_TRUSTED] = True
        await self.app(scope, receive, send)


class CrossSiteWrites:
    """Refuse a write another page made (403 ``cross_site``) or one that is not JSON (415)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WRITES:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if _foreign(scope, headers):
            await refuse(scope, receive, send, 403, "cross_site")
            return
        media_type = headers.get("content-type", "").partition(";")[0].strip().lower()
        if media_type != JSON:
            await refuse(scope, receive, send, 415, "unsupported_media_type")
            return
        await self.app(scope, receive, send)


def _foreign(scope: Scope, headers: Headers) -> bool:
    """Whether the browser says another page made this request."""
    if headers.get("sec-fetch-site", "").strip().lower() in FOREIGN_FETCH_SITES:
        return True
    origin = headers.get("origin")
    if origin is None:
        return False  # not sent by a browser page (or a same-origin GET-like request)
    own = _origin(f"{scope.get('scheme', 'http')}://{headers.get('host', '')}")
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
