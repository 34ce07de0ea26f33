"""50 simulated players against the real server on loopback: actions/s, p50/p99 latency, errors.

Each player has its own cookie (so its own games and statistics), starts a game, taps a fitting
card when it sees one, else draws, now and then undoes or taps a card that does not fit, thinks
for a moment between taps, and starts a new game when one is over. Targets: 0 errors, p99 < 50 ms.
A refusal by the rules (422) is part of play, not an error; errors are 5xx, 409 and lost
connections. Prints figures only.

What the latency is: for each play/draw/undo, from just before the player writes its request to
just after it has read and parsed the whole reply, timed by the player itself. So it holds the
server's whole time (parsing, the game, the durable commit, the reply), the loopback, and also
any delay of this generator's own event loop, which shares the machine's cores with the server:
a figure for the server plus a little more, never less. The generator runs on uvloop when it is
installed (it comes with the app) and keeps its start-up objects out of the garbage collector, so
that its own overhead stays small; neither changes what the server does. The machine's load
average is printed before and after, since other work on the machine shows in the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api import RawHttp, percentile, server


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.refused = 0
        self.errors: dict[str, int] = {}
        self.games = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def choose(state: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    body: dict[str, Any] = {"version": state["version"]}
    roll = rng.random()
    if roll < 0.08 and state["can_undo"]:
        return "undo", body
    if roll < 0.12:
        return "play", {**body, "pos": rng.randrange(28)}
    if state["playable"]:  # which cards fit is the server's word, as for the page
        return "play", {**body, "pos": rng.choice(state["playable"])}
    if state["stock_size"]:
        return "draw", body
    return "undo", body


async def player(base: str, seed: int, until: float, think: float, tally: Tally, lang: str) -> None:
    rng = random.Random(seed)
    client = RawHttp(base)
    state: dict[str, Any] | None = None
    while time.perf_counter() < until:
        try:
            if state is None or state["status"] != "playing":
                status, reply = await client.request("POST", f"/api/games?lang={lang}", {})
                if status != 201:
                    tally.error(f"new game {status}")
                    continue
                state = reply
                tally.games += 1
                continue
            kind, body = choose(state, rng)
            started = time.perf_counter()
            path = f"/api/games/{state['id']}/{kind}?lang={lang}"
            status, reply = await client.request("POST", path, body)
            tally.latencies.append(time.perf_counter() - started)
            if status == 200:
                state = reply
            elif status == 422 and reply.get("state"):
                tally.refused += 1
                state = reply["state"]
            else:
                tally.error(f"{kind} {status}")
                state = None
        except (OSError, asyncio.IncompleteReadError) as lost:
            tally.error(type(lost).__name__)
            await client.close()
            state = None
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
    await client.close()


async def run(base: str, players: int, seconds: float, think: float) -> tuple[Tally, float]:
    tally = Tally()
    started = time.perf_counter()
    until = started + seconds
    languages = ("en", "fi", "ca")
    await asyncio.gather(
        *(player(base, n, until, think, tally, languages[n % 3]) for n in range(players))
    )
    return tally, time.perf_counter() - started


def _event_loop() -> None:
    """uvloop if installed: less of the machine's CPU for the generator, more for the server."""
    try:
        import uvloop
    except ImportError:
        return
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=100.0,
        help="mean pause between a player's taps (uniform 0 to twice this); 0 for none",
    )
    parser.add_argument("--url", help="an already running server instead of starting one")
    args = parser.parse_args()
    _event_loop()
    gc.collect()
    gc.freeze()
    before = os.getloadavg()
    if args.url:
        tally, elapsed = asyncio.run(
            run(args.url, args.players, args.seconds, args.think_ms / 1000)
        )
    else:
        with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "load.db") as base:
            tally, elapsed = asyncio.run(
                run(base, args.players, args.seconds, args.think_ms / 1000)
            )
    after = os.getloadavg()
    n = len(tally.latencies)
    errors = sum(tally.errors.values())
    print(
        f"{args.players} players, {elapsed:.1f} s, mean think {args.think_ms:.0f} ms, "
        f"real server on loopback with SQLite (WAL, synchronous=FULL)"
    )
    print(f"  actions: {n} = {n / elapsed:.0f}/s  ({tally.refused} refused by the rules)")
    print(f"  games started: {tally.games}")
    if n:
        print(
            f"  latency p50 {percentile(tally.latencies, 0.5) * 1e3:.2f} ms"
            f"  p99 {percentile(tally.latencies, 0.99) * 1e3:.2f} ms"
            f"  max {max(tally.latencies) * 1e3:.2f} ms  (target p99 < 50 ms)"
        )
    print(f"  errors: {errors} {tally.errors if errors else ''}  (target 0)")
    print(
        "  load average (1, 5, 15 min) before: "
        + ", ".join(f"{x:.2f}" for x in before)
        + "; after: "
        + ", ".join(f"{x:.2f}" for x in after)
    )


if __name__ == "__main__":
    main()
