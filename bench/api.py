"""Round-trip time of play/draw/undo over real HTTP on loopback, and the bytes of a first page load.

Starts the real server (``python -m tripeaks serve``) on a temporary SQLite file, plays whole games
with one keep-alive connection, and prints p50/p99 per action kind. Targets: p50 < 5 ms,
p99 < 20 ms; first page load < 150 KB. Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast
from urllib.parse import urljoin

import httpx
from pydantic_core import from_json

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(
    db: Path | str, root: Path = ROOT, options: tuple[str, ...] = ()
) -> Iterator[tuple[str, int]]:
    """A checkout's real server as a child process on loopback; yields its base URL and pid.

    ``db`` is a SQLite file or a PostgreSQL URL; ``options`` go to ``tripeaks serve`` as they are
    (``("--workers", "2")``)."""
    port = free_port()
    command = [sys.executable, "-m", "tripeaks", "serve", "--no-browser"]
    command += ["--port", str(port), "--db", str(db), *options]
    env = {**os.environ, "PYTHONPATH": str(root)}
    process = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(base + "/api/layout", timeout=1.0)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def server(db: Path) -> Iterator[str]:
    """This checkout's real server; yields its base URL."""
    with serving(db) as (base, _pid):
        yield base


class RawHttp:
    """A lean keep-alive HTTP/1.1 client, so the figures measure the server and not the client.

    The generator shares the machine's cores with the server it measures, so every microsecond it
    spends is one the server does not get: the connection is an asyncio Protocol that completes one
    future per reply (no stream reader between), and a reply is parsed by pydantic-core's JSON
    reader (it comes with the app), about four times faster than the standard library's on a
    game's state. Together they took the generator from 200-230 µs of CPU an action to 110-170."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.cookie = b""
        self.connection: _Connection | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        if self.connection is None:
            loop = asyncio.get_running_loop()
            _transport, self.connection = await loop.create_connection(
                _Connection, self.host, self.port
            )
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n".encode()
        if payload:
            head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(payload)
        if self.cookie:
            head += b"Cookie: " + self.cookie + b"\r\n"
        status, cookie, data = await self.connection.send(head + b"\r\n" + payload)
        if cookie is not None:
            self.cookie = cookie
        return status, from_json(data) if data else None

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
            self.connection = None


class _Connection(asyncio.Protocol):
    """One keep-alive connection: a request written, its reply gathered until it is whole."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiting: asyncio.Future[tuple[int, bytes | None, bytes]] | None = None
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.lost: Exception | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def send(self, request: bytes) -> asyncio.Future[tuple[int, bytes | None, bytes]]:
        assert self.transport is not None and self.waiting is None, "one request at a time"
        if self.lost is not None:
            raise self.lost
        self.waiting = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return self.waiting

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0 or self.waiting is None:
            return
        raw = bytes(self.buffer[: end + 2])  # every header line ends in CRLF
        head = raw.lower()
        at = head.find(b"\r\ncontent-length:")
        length = int(head[at + 17 : head.index(b"\r\n", at + 2)]) if at >= 0 else 0
        if len(self.buffer) < end + 4 + length:
            return
        body = bytes(self.buffer[end + 4 : end + 4 + length])
        del self.buffer[: end + 4 + length]
        cookie = None
        at = head.find(b"\r\nset-cookie: tripeaks_player=")
        if at >= 0:  # as sent: the head was lowered only to find it
            line = raw[at + 14 : raw.index(b"\r\n", at + 2)]
            cookie = line.split(b";", 1)[0].strip()
        waiting, self.waiting = self.waiting, None
        if not waiting.done():  # its request was cancelled: the reply is read and dropped
            waiting.set_result((int(head[9:12]), cookie, body))

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc or ConnectionResetError("the server closed the connection")
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(self.lost)
        if not self.gone.done():
            self.gone.set_result(None)

    async def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
            await self.gone


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play_games(base: str, games: int) -> dict[str, list[float]]:
    return asyncio.run(_play_games(base, games))


async def _play_games(base: str, games: int) -> dict[str, list[float]]:
    """Whole games, one after another: the first fitting card, else a draw, an undo now and then."""
    times: dict[str, list[float]] = {"play": [], "draw": [], "undo": []}
    client = RawHttp(base)
    for g in range(games):
        status, state = await client.request("POST", "/api/games", {})
        for step in range(200):
            if state["status"] != "playing":
                break
            kind, body = next_action(state, step)
            started = time.perf_counter()
            status, reply = await client.request("POST", f"/api/games/{state['id']}/{kind}", body)
            times[kind].append(time.perf_counter() - started)
            if status == 200:
                state = reply
            elif status == 422 and reply.get("state"):
                state = reply["state"]
            else:
                raise SystemExit(f"game {g}: {kind} got {status} {reply}")
    await client.close()
    return times


def next_action(state: dict, step: int) -> tuple[str, dict]:  # type: ignore[type-arg]
    body: dict[str, int] = {"version": state["version"]}
    if state["can_undo"] and step % 7 == 6:
        return "undo", body
    if state["playable"]:  # the server says which cards fit; the player decides nothing
        return "play", {**body, "pos": state["playable"][0]}
    if state["stock_size"]:
        return "draw", body
    return "undo", body


def page_bytes(base: str) -> tuple[int, list[tuple[str, int]]]:
    """GET / and every asset it references (scripts, styles, icons, fonts, imports), once each."""
    seen: dict[str, int] = {}
    todo = [base + "/"]
    with httpx.Client(timeout=10.0) as client:
        while todo:
            url = todo.pop()
            if url in seen or not url.startswith(base):
                continue
            reply = client.get(url)
            seen[url] = len(reply.content) if reply.status_code == 200 else 0
            kind = reply.headers.get("content-type", "")
            if reply.status_code != 200 or not any(
                t in kind for t in ("html", "css", "javascript", "json")
            ):
                continue
            for ref in re.findall(
                r"""(?:src|href)=["']([^"'#]+)["']|url\(["']?([^)"'#]+)["']?\)"""
                r"""|(?:import|from)\s*\(?\s*["']([^"']+\.m?js)["']""",
                reply.text,
            ):
                target = next(r for r in ref if r)
                if target.startswith(("data:", "http:", "https:", "mailto:")):
                    continue
                todo.append(urljoin(url, target))
    return sum(seen.values()), sorted(
        ((u.removeprefix(base), n) for u, n in seen.items()), key=lambda x: -x[1]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "bench.db") as base:
        play_games(base, 2)  # warm-up
        times = play_games(base, args.games)
        total, assets = page_bytes(base)
    print(f"API round trips over loopback HTTP, SQLite store, {args.games} games:")
    everything: list[float] = []
    for kind, values in times.items():
        everything += values
        if values:
            print(
                f"  {kind:5} n={len(values):5}  p50 {percentile(values, 0.5) * 1e3:6.2f} ms"
                f"  p99 {percentile(values, 0.99) * 1e3:6.2f} ms"
            )
    print(
        f"  all   n={len(everything):5}  p50 {percentile(everything, 0.5) * 1e3:6.2f} ms"
        f"  p99 {percentile(everything, 0.99) * 1e3:6.2f} ms  (targets: p50 < 5, p99 < 20)"
        f"  mean {statistics.mean(everything) * 1e3:.2f} ms"
    )
    print(f"First page load: {total} bytes = {total / 1024:.1f} KB (target < 150 KB)")
    for path, size in assets:
        print(f"  {size:8}  {path}")


if __name__ == "__main__":
    main()
