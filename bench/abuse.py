"""Issue 35's three attacks against a real hosted ``tripeaks serve``: what they cost a bystander.

1. Memory: cookie-less floods for ``--flood`` seconds (60) from 8 clients at once, as fast as the
   server answers: ``/api/preview`` of a new random deal drawn near its end each time (each asks the
   solver for that deal's verdict, kept by code), and ``/api/daily/board`` of a random past day
   (year 1 to yesterday). The web process's resident memory (and the solver worker's) before,
   every 15 s and after. An hour of the attacker's rate is far more distinct codes and days than
   every cache holds; what matters is whether memory stops growing once the caches are full.
2. Connections: one address (127.0.0.2) opens 1,000 connections and reopens each as soon as the
   server drops it, for ``--hold`` seconds (20); a bystander (127.0.0.3) sends a request a new
   connection each, one after another: how many were answered, and their p50/p99.
3. Fair hints: 16 /64s of one /56 (two players each, X-Forwarded-For through ``--behind-proxy``)
   ask fair hints of ever new positions without pause for ``--hints`` seconds (30); a bystander of
   another address asks one every second: how many it got, and how long it waited.

Only loopback is a target (127.0.0.0/8); other addresses are the forwarded header's. The server
is hosted (``--behind-proxy``, access log off) with the hint and game rate limits off, so that
what is measured is the bounds and shares themselves, not a limit in front of them (``--limit``
adds a server option, e.g. for another rate limit to switch off). ``--before DIR`` runs another
checkout's server the same way first and prints both side by side. Every loop is bounded by its
time; the run stops by itself. Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api import ROOT, percentile, serving

from tripeaks.engine.codes import CODE_SPACE, GameCode
from tripeaks.engine.game import Game
from tripeaks.engine.rules import Rules

LIMITS_OFF = tuple(
    f"--limit={name}_per_{whom}=none"
    for name in ("games", "hints", "winnable")
    for whom in ("player", "address")
)
ATTACKER, BYSTANDER = "127.0.0.2", "127.0.0.3"
HOLD_CONNECTIONS = 1000
PREFIX = "2001:db8:35:100"
"""The flooding /56 is 2001:db8:35:100::/56; its /64s are PREFIX[:-1] + two hex digits."""


@dataclass
class Figures:
    rss: list[tuple[float, int, int]] = field(default_factory=list)
    """(seconds into the flood, web process KB, solver worker KB)."""
    sent: Counter[str] = field(default_factory=Counter)
    held_answered: int = 0
    held_asked: int = 0
    held_times: list[float] = field(default_factory=list)
    hint_statuses: Counter[int] = field(default_factory=Counter)
    hint_waits: list[float] = field(default_factory=list)
    flood_hints: Counter[int] = field(default_factory=Counter)


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    """The server's child processes (its solver worker), read from each of its threads; a thread
    that ends between the listing and the read has none."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "children").read_text().split()
        except FileNotFoundError:
            continue
        found.extend(int(p) for p in text)
    return found


def random_code(rng: random.Random) -> GameCode:
    return GameCode.from_number(rng.randrange(CODE_SPACE), Rules.EASY)


# 1. Memory -------------------------------------------------------------------------------------


async def flood_reads(base: str, pid: int, seconds: float, figures: Figures) -> None:
    rng = random.Random(35)
    until = time.monotonic() + seconds
    today = date.today()
    span = (today - date(1, 1, 1)).days

    async def previews() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            while time.monotonic() < until:
                code = random_code(rng)
                draws = ",".join(["draw"] * Game.new(code).stock_size)
                reply = await client.get(
                    "/api/preview", params={"code": str(code), "actions": draws}
                )
                figures.sent[f"preview {reply.status_code}"] += 1

    async def boards() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            while time.monotonic() < until:
                day = today - timedelta(days=rng.randrange(1, span))
                reply = await client.get("/api/daily/board", params={"day": day.isoformat()})
                figures.sent[f"board {reply.status_code}"] += 1

    async def sample() -> None:
        started = time.monotonic()
        while True:
            worker = sum(rss_kb(child) for child in children(pid))
            figures.rss.append((time.monotonic() - started, rss_kb(pid), worker))
            if time.monotonic() >= until:
                return
            await asyncio.sleep(min(15.0, max(0.0, until - time.monotonic())))

    await asyncio.gather(sample(), *(previews() for _ in range(4)), *(boards() for _ in range(4)))


# 2. Connections --------------------------------------------------------------------------------


def hold(port: int, seconds: float) -> None:
    """In a process of its own: HOLD_CONNECTIONS connections from ATTACKER, each reopened as soon
    as the server drops it, until ``seconds`` have passed."""

    async def one(until: float) -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(ATTACKER, 0)
                )
            except OSError:
                await asyncio.sleep(0.01)
                continue
            with contextlib.suppress(OSError, TimeoutError):
                await asyncio.wait_for(reader.read(), max(0.01, until - time.monotonic()))
            writer.close()

    async def all_of() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(one(until) for _ in range(HOLD_CONNECTIONS)))

    asyncio.run(all_of())


def bystander_request(port: int) -> float | None:
    """One GET /healthz on a new connection from BYSTANDER: its seconds, None if not answered."""
    started = time.perf_counter()
    try:
        with socket.socket() as sock:
            sock.settimeout(10)
            sock.bind((BYSTANDER, 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            reply = b""
            while chunk := sock.recv(4096):
                reply += chunk
    except OSError:
        return None
    return time.perf_counter() - started if reply.startswith(b"HTTP/1.1 200 ") else None


def hold_and_measure(port: int, seconds: float, figures: Figures) -> None:
    attacker = multiprocessing.get_context("spawn").Process(target=hold, args=(port, seconds))
    attacker.start()
    time.sleep(min(3.0, seconds / 4))  # the connections are open
    until = time.monotonic() + seconds - min(3.0, seconds / 4) - 1.0
    while time.monotonic() < until:
        took = bystander_request(port)
        figures.held_asked += 1
        if took is not None:
            figures.held_answered += 1
            figures.held_times.append(took)
        time.sleep(0.05)
    attacker.join(seconds + 30)
    if attacker.is_alive():
        attacker.terminate()
        attacker.join()


# 3. Fair hints ---------------------------------------------------------------------------------


async def a_fresh_position(client: httpx.AsyncClient, rng: random.Random) -> str:
    """A new game of a random deal: a position nobody asked a hint about."""
    reply = await client.post("/api/games", json={"code": str(random_code(rng))})
    reply.raise_for_status()
    return str(reply.json()["id"])


async def flood_hints(base: str, seconds: float, figures: Figures) -> None:
    until = time.monotonic() + seconds
    latest = until + 3 * seconds

    def flooding() -> bool:
        """For ``seconds``, and on a machine too slow to fill the queue by then, on until the flood
        has met its first refusal (at most three times as long): a short run measures that too."""
        now = time.monotonic()
        return now < until or (not figures.flood_hints[503] and now < latest)

    async def flooder(n: int) -> None:
        rng = random.Random(n)
        address = f"{PREFIX[:-1]}{n % 16:02x}::{n + 1}"
        headers = {"X-Forwarded-For": address}
        async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as client:
            game = await a_fresh_position(client, rng)
            while flooding():
                reply = await client.get(f"/api/games/{game}/hint", params={"kind": "fair"})
                figures.flood_hints[reply.status_code] += 1
                if reply.status_code == 200:
                    game = await a_fresh_position(client, rng)
                else:
                    await asyncio.sleep(0.01)

    async def bystander() -> None:
        rng = random.Random(1000)
        headers = {"X-Forwarded-For": "198.51.100.7"}
        async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as client:
            await asyncio.sleep(2.0)  # the flood has filled what it can
            while True:  # at least one hint, however slow the machine: a short run measures it too
                game = await a_fresh_position(client, rng)
                started = time.perf_counter()
                reply = await client.get(f"/api/games/{game}/hint", params={"kind": "fair"})
                figures.hint_waits.append(time.perf_counter() - started)
                figures.hint_statuses[reply.status_code] += 1
                if time.monotonic() >= until - 1.0:
                    break
                await asyncio.sleep(1.0)

    await asyncio.gather(bystander(), *(flooder(n) for n in range(32)))


# The run ---------------------------------------------------------------------------------------


def measure(root: Path, args: argparse.Namespace) -> Figures:
    figures = Figures()
    options = (
        "--behind-proxy",
        "--access-log",
        "off",
        *LIMITS_OFF,
        *(f"--limit={x}" for x in args.limit),
    )
    with (
        tempfile.TemporaryDirectory() as tmp,
        serving(Path(tmp) / "abuse.db", root, options) as (
            base,
            pid,
        ),
    ):
        port = int(base.rsplit(":", 1)[1])
        with httpx.Client(base_url=base, timeout=30) as warm:  # the worker and caches exist
            game = warm.post("/api/games", json={}).json()["id"]
            warm.get(f"/api/games/{game}/hint", params={"kind": "fair"})
            warm.get("/api/daily/board")
        asyncio.run(flood_reads(base, pid, args.flood, figures))
        hold_and_measure(port, args.hold, figures)
        asyncio.run(flood_hints(base, args.hints, figures))
    return figures


def report(columns: dict[str, Figures], args: argparse.Namespace) -> None:
    names = list(columns)
    width = max(24, *(len(n) + 2 for n in names))

    def row(label: str, values: list[str]) -> None:
        print(f"{label:<44}" + "".join(f"{v:>{width}}" for v in values))

    row("", names)
    print(f"1. {args.flood:g} s of preview and past-board floods, 8 clients")
    samples = max(len(f.rss) for f in columns.values())
    for i in range(samples):
        cells = []
        for f in columns.values():
            if i < len(f.rss):
                at, web, worker = f.rss[i]
                cells.append(f"{web / 1024:.0f} MB (+{worker / 1024:.0f}) @{at:.0f}s")
            else:
                cells.append("")
        row("   RSS web (+ solver worker)", cells)
    row(
        "   growth of the web process",
        [f"{(f.rss[-1][1] - f.rss[0][1]) / 1024:+.1f} MB" for f in columns.values()],
    )
    row(
        "   after its first 15 s",
        [
            f"{(f.rss[-1][1] - f.rss[min(1, len(f.rss) - 1)][1]) / 1024:+.1f} MB"
            for f in columns.values()
        ],
    )
    kinds = sorted({k for f in columns.values() for k in f.sent})
    for kind in kinds:
        row(f"   {kind}", [str(f.sent[kind]) for f in columns.values()])
    print(f"2. {HOLD_CONNECTIONS} connections held from one address for {args.hold:g} s")
    row(
        "   bystander's new connections answered",
        [f"{f.held_answered}/{f.held_asked}" for f in columns.values()],
    )
    row(
        "   their p50 / p99",
        [
            f"{percentile(f.held_times, 0.5) * 1000:.0f} / {percentile(f.held_times, 0.99) * 1000:.0f} ms"
            if f.held_times
            else "-"
            for f in columns.values()
        ],
    )
    print(f"3. fair hints from 16 /64s of one /56 for {args.hints:g} s")
    row(
        "   bystander's fair hints answered",
        [
            f"{f.hint_statuses[200]}/{sum(f.hint_statuses.values())}"
            f" ({100 * f.hint_statuses[200] / max(1, sum(f.hint_statuses.values())):.0f}%)"
            for f in columns.values()
        ],
    )
    row(
        "   its longest wait",
        [f"{max(f.hint_waits, default=0) * 1000:.0f} ms" for f in columns.values()],
    )
    row(
        "   the flood's hints 200 / 503",
        [f"{f.flood_hints[200]} / {f.flood_hints[503]}" for f in columns.values()],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--flood", type=float, default=60.0, help="seconds of read floods (60)")
    parser.add_argument("--hold", type=float, default=20.0, help="seconds of connection hold (20)")
    parser.add_argument("--hints", type=float, default=30.0, help="seconds of hint flood (30)")
    parser.add_argument("--before", type=Path, default=None, help="another checkout, run first")
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        help="NAME=RATE, a further --limit of the server (repeatable)",
    )
    args = parser.parse_args()
    columns: dict[str, Figures] = {}
    if args.before is not None:
        columns[f"before ({args.before.name})"] = measure(args.before.resolve(), args)
    columns["this checkout"] = measure(ROOT, args)
    report(columns, args)


if __name__ == "__main__":
    main()
