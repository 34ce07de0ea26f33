"""``tripeaks serve`` as its own process for tests that talk to it over real sockets."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx

ROOT = Path(__file__).resolve().parents[1]
BOUND = 20.0
"""Seconds after which a test gives up waiting: far more than any limit it checks."""


@dataclass
class Served:
    port: int
    pid: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_kb(self) -> int:
        """The server's resident memory now."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=BOUND)
        return sock


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(
    db: Path, *options: str, stderr: IO[str] | int = subprocess.DEVNULL, **environ: str
) -> Iterator[Served]:
    """``tripeaks serve`` in its own process, until the block ends; ``environ`` adds variables."""
    port = _free_port()
    argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--port", str(port)]
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONPATH": str(ROOT), **environ}
    process = subprocess.Popen(
        [*argv, "--db", str(db), *options],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("TriPeaks: http://127.0.0.1:")
        deadline = time.monotonic() + BOUND  # the line comes just before uvicorn listens
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=BOUND)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield Served(port, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
