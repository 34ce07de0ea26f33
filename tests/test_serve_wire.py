"""Attacks on the wire against a real ``tripeaks serve`` process: huge heads, slow and idle clients.

Each test talks raw sockets to the server as it runs for players (its own process, uvicorn, the
guarded protocol of tripeaks/web/http/wire.py). Timeouts below are failure bounds, never measurements.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from served import BOUND, Served, serving

from tripeaks.web.http import wire


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("wire") / "games.db"
    with serving(db, "--read-timeout", "2") as served:
        yield served


def a_player_plays(served: Served) -> None:
    """A real player's requests: a new game and its state, each answered."""
    with httpx.Client(base_url=served.url, timeout=BOUND) as player:
        made = player.post("/api/games", json={})
        assert made.status_code == 201, made.text
        assert player.get(f"/api/games/{made.json()['id']}").status_code == 200


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed this connection (read until it does, or the bound passes)."""
    sock.settimeout(BOUND)
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def reply_to(sock: socket.socket) -> bytes:
    sock.settimeout(BOUND)
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def test_a_head_over_the_cap_gets_431_as_an_error_reply(server: Served) -> None:
    with server.connect() as sock:
        head = b"GET /api/layout HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: "
        sock.sendall(head + b"a" * (wire.MAX_HEAD + 1024))
        reply = reply_to(sock)
    assert reply.startswith(b"HTTP/1.1 431 ")
    assert b'"reason": "head_too_large"' in reply
    with server.connect() as sock:  # the request line counts too
        sock.sendall(b"GET /api/layout?x=" + b"a" * (wire.MAX_HEAD + 1024))
        assert reply_to(sock).startswith(b"HTTP/1.1 431 ")
    # a head just under the cap is still served
    with server.connect() as sock:
        filler = b"a" * (wire.MAX_HEAD - 200)
        sock.sendall(
            b"GET /api/layout HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: "
            + filler
            + b"\r\nConnection: close\r\n\r\n"
        )
        assert reply_to(sock).startswith(b"HTTP/1.1 200 ")


def test_a_128_mb_header_is_cut_off_and_the_server_does_not_grow(server: Served) -> None:
    """Today's attack: the whole 128 MB used to be read (35 s, +250 MB). Now the server stops
    reading after the cap, so the client cannot even send it, and the server stays its size."""
    a_player_plays(server)
    before = server.rss_kb()
    chunk = b"a" * (1024 * 1024)
    sent = 0
    with server.connect() as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        with pytest.raises(OSError):  # broken pipe or reset: the server closed the connection
            while sent < 128 * len(chunk):
                sock.sendall(chunk)
                sent += len(chunk)
    assert sent < 16 * len(chunk)  # what the sockets' buffers held before the close came
    assert server.rss_kb() - before < 20 * 1024
    a_player_plays(server)


def test_a_request_trickled_byte_by_byte_is_dropped(server: Served) -> None:
    """A client that keeps a request coming, slower than it should, is closed at --read-timeout."""
    with server.connect() as sock:
        started = time.monotonic()
        sock.sendall(b"GET /api/layout HTTP/1.1\r\n")
        with pytest.raises(OSError):  # the server closed it: a later send breaks
            while time.monotonic() - started < BOUND:
                sock.sendall(b"X")  # a header name that never ends, one byte at a time
                time.sleep(0.2)


def test_a_connection_that_sends_nothing_is_closed(server: Served) -> None:
    with server.connect() as sock:
        assert closed_by_server(sock)


def test_300_slow_connections_do_not_keep_a_player_out(server: Served) -> None:
    """Today 300 trickling clients exhausted the server; now a player is served beside them, and
    the server drops them all at its read timeout."""
    slow = [server.connect() for _ in range(300)]
    try:
        for sock in slow:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        a_player_plays(server)
        assert all(closed_by_server(sock) for sock in slow)
    finally:
        for sock in slow:
            sock.close()
    a_player_plays(server)


def ask(sock: socket.socket, path: str) -> bytes:
    """One keep-alive GET on an open connection; its whole reply."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_connections_beyond_the_cap_are_closed_at_once(tmp_path: Path) -> None:
    """Over --max-connections a new connection is closed unanswered, its descriptor given back."""
    with serving(tmp_path / "games.db", "--max-connections", "20") as served:
        held = [served.connect() for _ in range(20)]
        try:
            for sock in held:  # each one answered: the server holds all twenty
                assert ask(sock, "/healthz").startswith(b"HTTP/1.1 200 ")
            for _ in range(5):
                with served.connect() as extra:
                    extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    assert reply_to(extra) == b""
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.5)  # the server sees the twenty go
        a_player_plays(served)
