"""Issue 35: one client holding the connection cap must not lock everyone else out.

A real ``tripeaks serve`` process, hosted (``--behind-proxy``, so that X-Forwarded-For is read from
its proxy on 127.0.0.1); the attacker and the bystander are other loopback addresses, which a hosted
server counts as clients of their own (wire.client_key). Timeouts are failure bounds, never
measurements.
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import httpx
import pytest
from served import BOUND, Served, serving
from test_serve_hosted import parsed
from test_serve_wire import closed_by_server
from uvicorn.config import Config

from tripeaks.cli import serve
from tripeaks.i18n import system_language, translator
from tripeaks.web.http import wire

CAP = 40
"""The connection cap of the test's server; its per-client share is a tenth of it."""


def held_from(served: Served, address: str, count: int) -> list[socket.socket]:
    """``count`` connections opened from ``address`` and left idle (the attacker's)."""
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((address, 0))
        sock.settimeout(BOUND)
        sock.connect(("127.0.0.1", served.port))
        held.append(sock)
    return held


def answered_from(served: Served, address: str) -> bool:
    """A new connection from ``address`` is served a request."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, base_url=served.url, timeout=BOUND) as client:
        try:
            return client.get("/healthz").status_code == 200
        except httpx.TransportError:
            return False


@pytest.mark.slow
def test_one_client_holding_connections_leaves_room_for_a_bystander(tmp_path: Path) -> None:
    options = ("--behind-proxy", "--max-connections", str(CAP))
    with serving(tmp_path / "games.db", *options) as served:
        share = wire.address_share(CAP)
        held = held_from(served, "127.0.0.2", CAP)  # the whole cap, from one address
        try:
            # at once, while the attacker's connections are still open (well within the idle
            # timeout that would close them anyway): a bystander is served
            assert all(answered_from(served, "127.0.0.3") for _ in range(8))
            for sock in held[:share]:  # the attacker's share is served too...
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                assert sock.recv(64).startswith(b"HTTP/1.1 200 ")
            for sock in held[share:]:  # ...and the rest was closed unanswered
                assert closed_by_server(sock)
            # the declared proxy's connections are many players': never one client's share
            proxy = held_from(served, "127.0.0.1", share + 2)
            assert answered_from(served, "127.0.0.1")
            for sock in proxy:
                sock.close()
        finally:
            for sock in held:
                sock.close()
        # once the attacker lets go, its share is its own again
        assert answered_from(served, "127.0.0.2")


@pytest.mark.parametrize(
    ("argv", "share", "warned"),
    [
        (["serve"], None, False),  # the local app: one player, nothing counted per client
        (["serve", "--host", "0.0.0.0"], wire.address_share(wire.MAX_CONNECTIONS), True),
        (["serve", "--host", "0.0.0.0", "--behind-proxy"], 100, False),
        (["serve", "--max-connections", "50", "--behind-proxy"], 5, False),
    ],
)
def test_a_hosted_server_shares_its_connections_and_warns_of_an_undeclared_proxy(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    share: int | None,
    warned: bool,
) -> None:
    args: argparse.Namespace = parsed(monkeypatch, argv)
    assert serve._guarded(args).address_share == share
    serve._warn_of_an_undeclared_proxy(args)
    line = translator(system_language())("serve.no_proxy_declared", share=share)
    assert capsys.readouterr().err == (f"{line}\n" if warned else "")


def test_a_workers_limits_carry_the_share(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(wire.WORKER_LIMITS_VARIABLE, "3.5,50,5")
    assert wire._worker_limits() == (3.5, 50, 5)
    monkeypatch.setenv(wire.WORKER_LIMITS_VARIABLE, "3.5,50,")
    assert wire._worker_limits() == (3.5, 50, None)
    monkeypatch.delenv(wire.WORKER_LIMITS_VARIABLE)
    assert wire._worker_limits() == (wire.READ_TIMEOUT, wire.MAX_CONNECTIONS, None)


@pytest.mark.parametrize(
    ("address", "proxy", "allowed", "key"),
    [
        ("203.0.113.9", False, "127.0.0.1", "203.0.113.9"),
        ("2001:db8:0:1ab:5::1", False, "127.0.0.1", "2001:db8:0:1ab::/64"),
        ("127.0.0.2", False, "127.0.0.1", "127.0.0.2"),  # loopback counted, by itself
        ("127.0.0.1", False, "127.0.0.1", "127.0.0.1"),  # no proxy declared: a client too
        ("127.0.0.1", True, "127.0.0.1,::1", None),  # the declared proxy: everyone's
        ("127.0.0.2", True, "127.0.0.1,::1", "127.0.0.2"),
        ("10.1.2.3", True, "10.0.0.0/8", None),
        ("192.0.2.1", True, "*", None),
        ("192.0.2.1", True, "unix:/run/proxy.sock, 10.0.0.2", "192.0.2.1"),
        (None, False, "127.0.0.1", None),
    ],
)
def test_a_connection_counts_for_its_client(
    address: str | None, proxy: bool, allowed: str, key: str | None
) -> None:
    config = Config(app=None, proxy_headers=proxy, forwarded_allow_ips=allowed)
    assert wire.client_key(address, config) == key
