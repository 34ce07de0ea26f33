"""What the server takes from a connection before any route sees it: a small head, sent promptly.

uvicorn's C parser (httptools) caps nothing: a 128 MB header is read to the end (the server grows by
as much, and the parse stalls every player), a client may trickle a request a byte at a time for as
long as it likes, and a connection that sends nothing is never closed. :class:`GuardedHttp` is that
protocol with three limits added, each checked on data the parser is fed anyway (no timer per byte,
nothing on the route path but one timer per request):

- a request's line and headers over MAX_HEAD bytes: 431 and the connection closed;
- a request not fully received READ_TIMEOUT seconds after its first byte: the connection closed;
- a new connection that sends nothing: closed after uvicorn's keep-alive timeout, as an idle one;
- beyond ``max_connections`` open connections, a new one is closed at once (its file descriptor is
  given back right away, not after a timeout);
- when hosted, beyond ``address_share`` open connections from one client (an IPv4 address or an
  IPv6 /64, clients.network; loopback too, by its own address), a new one of that client's is
  closed at once: one client holding connections open leaves the rest of the cap to everyone else.
  Connections from the declared reverse proxy (``--behind-proxy``) are many players' and are not
  counted per address (the proxy limits its clients).

docs/deploy.md, "Slow and oversized requests", says why these numbers.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections import Counter
from functools import lru_cache
from ipaddress import IPv4Network, IPv6Network, ip_address, ip_network
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from tripeaks.i18n import DEFAULT_LANGUAGE, translator
from tripeaks.web.clients import network

MAX_HEAD = 16 * 1024
"""Bytes of request line and headers; the page's requests carry well under 1 KB (one cookie).
The same as h11's default and nginx's ``large_client_header_buffers`` of 2 x 8k."""
READ_TIMEOUT = 10.0
"""Seconds from a request's first byte until the whole of it (head and body) must have arrived.
A phone on a poor line sends a 1 KB request in well under a second; nginx's own client header
timeout is 60 s, but nginx holds a slow client for us when it is in front."""
MAX_CONNECTIONS = 1000
"""Open connections per worker; a browser keeps about six to one server."""
ADDRESS_SHARE = 0.1
"""The fraction of ``max_connections`` one client may hold when hosted: 100 of 1000, some sixteen
browsers' worth behind one address (a household, a classroom behind one NAT), while ten such
clients are needed to fill the cap."""


def address_share(max_connections: int) -> int:
    """Open connections one client may hold under this cap (ADDRESS_SHARE of it, at least one)."""
    return max(1, int(max_connections * ADDRESS_SHARE))


_held: weakref.WeakKeyDictionary[ServerState, Counter[str]] = weakref.WeakKeyDictionary()
"""Open connections by client, per server (uvicorn's ServerState is one per server, shared by
every connection's protocol as its ``connections`` set is)."""


@lru_cache(maxsize=8)
def _proxies(allowed: str) -> tuple[IPv4Network | IPv6Network, ...] | None:
    """uvicorn's ``forwarded_allow_ips`` as networks; None for ``*`` (every peer is the proxy)."""
    found: list[IPv4Network | IPv6Network] = []
    for text in allowed.replace(",", " ").split():
        if text == "*":
            return None
        try:
            found.append(ip_network(text, strict=False))
        except ValueError:  # a Unix socket's name: never a TCP peer's
            continue
    return tuple(found)


def client_key(address: str | None, config: Config) -> str | None:
    """Whose share a connection from ``address`` takes: clients.network's client (IPv4 address,
    IPv6 /64), and a loopback address as itself (a hosted server counts it: a script on the
    machine is a client too). None, not counted, for the declared proxy's connections."""
    if address is None:
        return None
    if config.proxy_headers:
        allowed = config.forwarded_allow_ips
        proxies = _proxies(allowed if isinstance(allowed, str) else ",".join(allowed))
        try:
            peer = ip_address(address)
        except ValueError:
            return None
        if proxies is None or any(peer in proxy for proxy in proxies):
            return None
    return network(address) or address


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a capped head, a read deadline and a connection cap
    (with a share of it per client when ``address_share`` is set)."""

    max_head = MAX_HEAD
    read_timeout = READ_TIMEOUT
    max_connections = MAX_CONNECTIONS
    address_share: int | None = None
    """Open connections one client may hold; None (the local app) counts none per client."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._head = 0
        """Bytes received since the current request began, while its head is incomplete."""
        self._in_head = True
        self._deadline: asyncio.TimerHandle | None = None
        self._client: str | None = None
        """Whose share this connection holds (client_key), once counted."""

    @classmethod
    def limited(
        cls,
        max_head: int = MAX_HEAD,
        read_timeout: float = READ_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
        address_share: int | None = None,
    ) -> type[GuardedHttp]:
        """A subclass with other limits, for uvicorn's ``http=`` (which takes a class)."""
        return type(
            "GuardedHttp",
            (cls,),
            {
                "max_head": max_head,
                "read_timeout": read_timeout,
                "max_connections": max_connections,
                "address_share": address_share,
            },
        )

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections or not self._take_share(transport):
            transport.abort()  # connection_lost follows and forgets it
            return
        # Idle from the start: uvicorn arms this only after a first response.
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        if self._client is not None:
            held = _held[self.server_state]
            held[self._client] -= 1
            if held[self._client] <= 0:
                del held[self._client]
            self._client = None
        super().connection_lost(exc)

    def _take_share(self, transport: asyncio.Transport) -> bool:
        """Count the connection in its client's share; False when that share is full."""
        if self.address_share is None:
            return True
        peer = transport.get_extra_info("peername")
        key = client_key(str(peer[0]) if peer else None, self.config)
        if key is None:
            return True
        held = _held.setdefault(self.server_state, Counter())
        if held[key] >= self.address_share:
            return False
        held[key] += 1
        self._client = key
        return True

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head += len(data)
        super().data_received(data)
        if self._in_head and self._head > self.max_head and not self.transport.is_closing():
            self._refuse_head()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._stop_deadline()
        self._deadline = self.loop.call_later(self.read_timeout, self._too_slow)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head = 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._stop_deadline()
        self._in_head = True
        super().on_message_complete()

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The request did not arrive in time: close (a reply might never be read either)."""
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request the parser cannot read (a malformed request line or header): the API's Error,
        not uvicorn's plain text."""
        self._stop_deadline()
        self.transport.write(_BAD_REQUEST)
        self.transport.close()

    def _refuse_head(self) -> None:
        self._stop_deadline()
        self.transport.write(_HEAD_TOO_LARGE)
        self.transport.close()


WORKER_LIMITS_VARIABLE = "TRIPEAKS_SERVED_WIRE"
"""How ``serve --workers`` hands its read timeout, connection cap and per-client share (empty:
none) to the worker processes."""


def _worker_limits() -> tuple[float, int, int | None]:
    timeout, connections, share, *_ = [
        *os.environ.get(WORKER_LIMITS_VARIABLE, "").split(","),
        "",
        "",
    ]
    return (
        float(timeout or READ_TIMEOUT),
        int(connections or MAX_CONNECTIONS),
        int(share) if share else None,
    )


class WorkerHttp(GuardedHttp):
    """GuardedHttp in a worker process of ``serve --workers``, with the limits serve.py put in the
    environment before starting it: uvicorn names the class by its import path (it pickles its
    settings for the workers, and a class made at run time cannot be pickled)."""

    read_timeout, max_connections, address_share = _worker_limits()


def _refusal(status: bytes, reason: str, field: str | None = None) -> bytes:
    """A reply sent before any route, as docs/api.md's Error (the query's language is not known)."""
    import json

    values = {} if field is None else {"field": field}
    message = translator(DEFAULT_LANGUAGE)(f"error.{reason}", **values)
    body = json.dumps({"error": {"reason": reason, "message": message}, "state": None}).encode()
    return (
        b"HTTP/1.1 %s\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (status, len(body), body)
    )


_HEAD_TOO_LARGE = _refusal(b"431 Request Header Fields Too Large", "head_too_large")
_BAD_REQUEST = _refusal(b"400 Bad Request", "bad_request", field="request")
