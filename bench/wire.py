"""The wire attacks of issue 13 against a real ``tripeaks serve``: what they cost the server now.

1. A 128 MB header: how long until the server cuts it off, how much of it the client got out, and how much the
   server's resident memory grew.
2. 300 clients trickling requests: a player's request latency beside them (median, p99 of 50 requests), and how
   long until the server dropped the slow ones.

Starts the server of the checkout on PYTHONPATH as a child process on loopback, so that an older checkout can be
measured the same way (``PYTHONPATH=<checkout> python bench/wire.py``). Prints figures only.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start(db: Path, read_timeout: float | None) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--port", str(port)]
    command += ["--db", str(db)]
    if read_timeout is not None:  # None: an older checkout, which has no such option
        command += ["--read-timeout", str(read_timeout)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)  # run from the checkout measured
    base = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            httpx.get(base + "/healthz", timeout=1.0)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    return process, base


def huge_header(port: int, pid: int) -> None:
    before = rss_kb(pid)
    chunk = b"a" * (1024 * 1024)
    sent = 0
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            while sent < 128 * len(chunk):
                sock.sendall(chunk)
                sent += len(chunk)
        except OSError:
            pass
    took = time.perf_counter() - started
    grew = (rss_kb(pid) - before) / 1024
    print(f"128 MB header: cut off after {took * 1000:.0f} ms, {sent / 2**20:.0f} MB got out,")
    print(f"  server RSS {before / 1024:.0f} MB -> {before / 1024 + grew:.0f} MB ({grew:+.1f} MB)")


def slow_clients(base: str, port: int, count: int) -> None:
    slow = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(count)]
    for sock in slow:
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
    opened = time.perf_counter()
    times = []
    with httpx.Client(base_url=base, timeout=30) as player:
        state = player.post("/api/games", json={}).json()
        for _ in range(50):
            started = time.perf_counter()
            reply = player.get(f"/api/games/{state['id']}")
            times.append(time.perf_counter() - started)
            assert reply.status_code == 200
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"{count} slow clients: a player's GET median {statistics.median(times) * 1000:.1f} ms,")
    print(f"  p99 {p99 * 1000:.1f} ms")
    dropped = 0
    for sock in slow:
        sock.settimeout(max(0.1, 30 - (time.perf_counter() - opened)))
        try:
            while sock.recv(1024):
                pass
            dropped += 1
        except TimeoutError:
            pass
        except OSError:
            dropped += 1
    waited = time.perf_counter() - opened
    print(f"  {dropped} of {count} dropped by the server within {waited:.1f} s of their start")
    for sock in slow:
        sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--read-timeout", type=float, default=None, help="server's own default")
    parser.add_argument("--slow", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        process, base = start(Path(tmp) / "wire.db", args.read_timeout)
        try:
            port = int(base.rsplit(":", 1)[1])
            with httpx.Client(base_url=base) as warm:
                warm.post("/api/games", json={})
            huge_header(port, process.pid)
            slow_clients(base, port, args.slow)
        finally:
            process.terminate()
            process.wait(timeout=20)


if __name__ == "__main__":
    main()
