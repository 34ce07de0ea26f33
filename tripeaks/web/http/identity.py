"""Who a request is for: player ids the server made, carried in a cookie it signed.

A player is whoever holds their cookie, so only the server may make one: a new player's id is
random (store.new_id) and the cookie is ``<id>.<signature>``, the signature being HMAC-SHA256 of
the id under the server's key (kept in the ``settings`` table, the same for every worker),
truncated to 128 bits, in base64url. A cookie whose signature is wrong or missing names nobody:
the request is answered as one without a cookie, and whatever it makes belongs to a new player.
Checking a signature is one HMAC in memory, never a database read.

Cookies issued before the signature existed carry a bare id. :class:`Upgrade` accepts one only if
the store knows that player (a game, a result or a nickname), answers the request as them, and
hands back the signed cookie; once the browser keeps it, that player's requests never ask again.
What the store said of a bare id is kept in memory too: a made-up one stays unknown for good (no
bare id is ever given anything), and a known one stays known (games are never deleted).
"""

from __future__ import annotations

import base64
import hmac
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "tripeaks_player"
"""The name of the cookie that carries a player's signed id."""
SETTING = "player_key"
"""The name of the key that signs player cookies in the ``settings`` table (hex)."""
KEY_BYTES = 32
SIGNATURE_BYTES = 16
"""128 bits of the HMAC: guessing one is out of reach, and the cookie stays short."""
PLAYER_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What an id looks like (store.new_id makes 32 characters; older servers made the same)."""
KEPT = 10_000
"""Signed cookies, and bare ids' verdicts, kept in memory (each a couple of hundred bytes)."""


def new_key() -> str:
    """A key for the settings table: KEY_BYTES random bytes, in hex."""
    return secrets.token_hex(KEY_BYTES)


class Identity:
    """Signs player ids and reads signed cookies; remembers what the store said of bare ids."""

    def __init__(self, key: bytes) -> None:
        if len(key) < SIGNATURE_BYTES:
            raise ValueError("a player key needs at least 16 bytes")
        self._key = key
        self._signed: dict[str, str] = {}
        """Cookies verified already, with their player: a hit is a dict lookup, where the HMAC
        costs about 5 µs (a move's whole route is a few hundred). Only good ones are kept."""
        self._known: OrderedDict[str, bool] = OrderedDict()
        self._lock = threading.Lock()

    def _signature(self, player: str) -> str:
        mac = hmac.digest(self._key, f"player:{player}".encode(), "sha256")  # the one-shot C path
        return base64.urlsafe_b64encode(mac[:SIGNATURE_BYTES]).rstrip(b"=").decode()

    def token(self, player: str) -> str:
        """The cookie's value for a player: ``<id>.<signature>``."""
        return f"{player}.{self._signature(player)}"

    def player(self, value: str | None) -> str | None:
        """The player a cookie names, if the server signed it; None for anything else. Called on
        the event loop only (routes._caller), so the kept cookies need no lock."""
        if not value:
            return None
        known = self._signed.get(value)
        if known is not None:
            return known
        player, dot, signature = value.partition(".")
        if not dot or not PLAYER_RE.fullmatch(player):
            return None
        if not hmac.compare_digest(signature, self._signature(player)):
            return None
        if len(self._signed) >= KEPT:  # the oldest first: enough for the players of the hour
            del self._signed[next(iter(self._signed))]
        self._signed[value] = player
        return player

    def verdict(self, player: str) -> bool | None:
        """What the store said of a bare id, if asked before in this process."""
        with self._lock:
            known = self._known.get(player)
            if known is not None:
                self._known.move_to_end(player)
            return known

    def remember(self, player: str, known: bool) -> None:
        with self._lock:
            self._known[player] = known
            self._known.move_to_end(player)
            while len(self._known) > KEPT:
                self._known.popitem(last=False)


def bare_id(cookie_header: bytes, name: bytes) -> str | None:
    """The cookie ``name``'s value if it is a bare id of the old kind (no signature), else None."""
    prefix = name + b"="
    for part in cookie_header.split(b";"):
        part = part.strip()
        if part.startswith(prefix):
            value = part[len(prefix) :]
            if b"." in value:
                return None
            text = value.decode("latin-1")
            return text if PLAYER_RE.fullmatch(text) else None
    return None


def with_token(cookie_header: bytes, name: bytes, token: str) -> bytes:
    """The Cookie header with the cookie ``name``'s value replaced by ``token``."""
    prefix = name + b"="
    parts = [part.strip() for part in cookie_header.split(b";")]
    return b"; ".join(
        prefix + token.encode() if part.startswith(prefix) else part for part in parts
    )


ErrorHandler = Callable[[Request, Exception], Awaitable[Response]]
"""The reply to a failure, as an exception handler of the app gives it."""


class Upgrade:
    """Turn an old cookie's bare id into a signed cookie, if the store knows that player.

    The request is then read as if it had carried the signed cookie, and the reply sets it. A bare
    id the store does not know is left as it is, and the routes read it as no cookie at all. Only
    requests carrying a bare id ever reach the store here; the answer is kept (Identity.verdict).
    """

    def __init__(
        self,
        app: ASGIApp,
        identity: Identity,
        cookie: str,
        known: Callable[[str], Awaitable[bool]],
        set_cookie: Callable[[Response, Scope, str], None],
        handler_for: Callable[[Exception], ErrorHandler | None],
    ) -> None:
        self.app = app
        self.identity = identity
        self.cookie = cookie.encode()
        self.known = known
        """Asks the store (off the event loop) whether a player id has anything stored."""
        self.set_cookie = set_cookie
        """Sets the player cookie's value on a reply, as the routes set it (routes.player_cookie)."""
        self.handler_for = handler_for
        """The reply for a failure of ``known`` (the store's), as the routes would give it
        (api/errors.py handler_for); None for an unexpected one, which is raised."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: list[tuple[bytes, bytes]] = scope["headers"]
        index, player = next(
            (
                (i, bare)
                for i, (name, value) in enumerate(headers)
                if name == b"cookie" and (bare := bare_id(value, self.cookie)) is not None
            ),
            (-1, None),
        )
        if player is None:
            await self.app(scope, receive, send)
            return
        known = self.identity.verdict(player)
        if known is None:
            try:
                known = await self.known(player)
            except Exception as error:
                handler = self.handler_for(error)
                if handler is None:
                    raise
                await (await handler(Request(scope, receive), error))(scope, receive, send)
                return
            self.identity.remember(player, known)
        if not known:
            await self.app(scope, receive, send)
            return
        token = self.identity.token(player)
        headers = list(headers)
        headers[index] = (b"cookie", with_token(headers[index][1], self.cookie, token))
        scope = {**scope, "headers": headers}
        carrier = Response()
        self.set_cookie(carrier, scope, token)
        issued = carrier.headers["set-cookie"]

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent = MutableHeaders(scope=message)
                if not any(
                    v.startswith(self.cookie.decode() + "=") for v in sent.getlist("set-cookie")
                ):
                    sent.append("set-cookie", issued)
            await send(message)

        await self.app(scope, receive, send_with_cookie)
