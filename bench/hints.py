"""Hint round trips over real HTTP on loopback through whole games, and the solver worker's memory.

Starts the real server (``python -m tripeaks serve``) of a checkout (``--root``, this one by default)
on a temporary SQLite file and plays whole games with one keep-alive connection, asking for a hint
before every move (``--kind``: perfect, the default, or fair: the hint that sees only what the player
sees, 200 samples a hint). The player follows the hint most of the time (``--follow``) and otherwise plays
the first card the state lists as playable, or draws. It prints p50/p99 of a game's first hint
(which prepares the deal's answers in the worker) and of the rest, then fills the worker with
``--deals`` more deals (one hint each) and prints the resident memory of the server's worker
processes. Run it once per checkout to compare: ``python bench/hints.py --root /path/to/main``.

The same hints are then timed in this process, without HTTP, on this checkout's code: the old way
(the game replayed from its log, then a whole search) beside the worker's own function (the
position taken directly, the deal's answers prepared once). Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from api import RawHttp, percentile, serving

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the in-process figures are this checkout's


class Player:
    """One keep-alive connection that waits out a 429 or 503 (``Retry-After``) and counts them."""

    def __init__(self, base: str, kind: str = "perfect") -> None:
        self.http = RawHttp(base)
        self.kind = kind
        self.refused: Counter[int] = Counter()

    async def hint(self, game_id: str) -> tuple[float, dict[str, Any]]:
        """(seconds of the answered round trip, the hint)."""
        while True:
            started = time.perf_counter()
            status, reply = await self.http.request(
                "GET", f"/api/games/{game_id}/hint?kind={self.kind}"
            )
            took = time.perf_counter() - started
            if status == 200:
                return took, reply
            if status not in (429, 503):
                raise SystemExit(f"hint got {status} {reply}")
            self.refused[status] += 1
            await asyncio.sleep(1.0)


async def play(
    base: str,
    games: int,
    follow: float,
    seed: int,
    record: list[tuple[str, list[str]]],
    kind: str = "perfect",
) -> dict[str, list[float]]:
    """Whole games, a hint before every move; each game's code and moves go to ``record``."""
    times: dict[str, list[float]] = {"first": [], "later": []}
    choose = random.Random(seed)
    player = Player(base, kind)
    for g in range(games):
        status, state = await player.http.request("POST", "/api/games", {})
        record.append((state["code"], []))
        kind = "first"
        for _ in range(200):
            if state["status"] != "playing":
                break
            took, hint = await player.hint(state["id"])
            times[kind].append(took)
            kind = "later"
            path, body = move(state, hint["action"] if choose.random() < follow else None)
            status, reply = await player.http.request(
                "POST", f"/api/games/{state['id']}/{path}", body
            )
            if status != 200:
                raise SystemExit(f"game {g}: {path} got {status} {reply}")
            record[-1][1].append(path if path != "play" else f"play {body['pos']}")
            state = reply
    await player.http.close()
    if player.refused:
        print(f"  (refused and retried: {dict(player.refused)})")
    return times


def move(state: dict[str, Any], hinted: dict[str, Any] | None) -> tuple[str, dict[str, int]]:
    body = {"version": state["version"]}
    if hinted is not None and hinted["kind"] == "play":
        return "play", {**body, "pos": hinted["pos"]}
    if hinted is not None:
        return "draw", body
    if state["playable"]:
        return "play", {**body, "pos": state["playable"][0]}
    if state["stock_size"]:
        return "draw", body
    return "undo", body


async def fill(base: str, deals: int) -> None:
    """One hint in each of ``deals`` new games, so that the worker holds as many deals as it keeps."""
    player = Player(base)
    for _ in range(deals):
        _status, state = await player.http.request("POST", "/api/games", {})
        await player.hint(state["id"])
    await player.http.close()


def in_process(record: list[tuple[str, list[str]]]) -> dict[str, list[float]]:
    """The worker's own time for the same hints, in this process: as it was (``was``: the game
    replayed from its log, then a whole search) and as it is (the position, the deal's answers
    prepared at its first hint)."""
    from tripeaks.engine.game import Game
    from tripeaks.solver import search as solver
    from tripeaks.web.backend import solver_worker

    times: dict[str, list[float]] = {"was first": [], "was later": [], "first": [], "later": []}
    for code, actions in record:
        for n in range(len(actions)):
            kind = "first" if n == 0 else "later"
            started = time.perf_counter()
            game = Game.replay(code, actions[:n])
            solver.hint(game)
            times[f"was {kind}"].append(time.perf_counter() - started)
            started = time.perf_counter()
            solver_worker.hint(code, game.present, game.drawn, game.discard_top)
            times[kind].append(time.perf_counter() - started)
    return times


def workers(server_pid: int) -> list[tuple[int, str, int, int]]:
    """(pid, what it is, resident KB, peak resident KB) of the server's multiprocessing children."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields["PPid"]) != server_pid or "multiprocessing" not in command:
            continue
        what = "resource tracker" if "resource_tracker" in command else "solver worker"
        rss, peak = (int(fields[k].split()[0]) for k in ("VmRSS", "VmHWM"))
        found.append((int(entry.name), what, rss, peak))
    return sorted(found)


def figures(values: list[float], scale: float, unit: str) -> str:
    p50, p95, p99 = (percentile(values, q) * scale for q in (0.5, 0.95, 0.99))
    return (
        f"p50 {p50:8.2f} {unit}  p95 {p95:8.2f} {unit}  p99 {p99:8.2f} {unit}"
        f"  max {max(values) * scale:8.2f} {unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose server to run")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--follow", type=float, default=0.8, help="how often the hint is taken")
    parser.add_argument("--deals", type=int, default=200, help="deals to fill the worker with")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--kind",
        choices=("perfect", "fair"),
        default="perfect",
        help="the kind of hint asked (fair: 200 samples a hint, docs/api.md 'Explaining')",
    )
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        serving(Path(tmp) / "b.db", args.root) as (base, pid),
    ):
        asyncio.run(play(base, 2, args.follow, args.seed + 1, []))  # warm-up: the worker starts
        record: list[tuple[str, list[str]]] = []
        times = asyncio.run(play(base, args.games, args.follow, args.seed, record, args.kind))
        before = workers(pid)
        asyncio.run(fill(base, args.deals))
        after = workers(pid)
    print(
        f"{args.kind.capitalize()} hints over loopback HTTP ({args.root}), {args.games} games,"
        f" hint followed {args.follow:.0%}:"
    )
    everything = times["first"] + times["later"]
    for kind, values in (*times.items(), ("all", everything)):
        print(f"  {kind:5} n={len(values):5}  {figures(values, 1e3, 'ms')}")
    if args.kind == "perfect":  # the perfect hint's own search, timed apart
        print("The worker's own time per hint, in this process, over the same positions:")
        for kind, values in in_process(record).items():
            print(f"  {kind:9} n={len(values):5}  {figures(values, 1e6, 'µs')}")
    print(f"Worker memory after those games, then after one hint in {args.deals} more deals:")
    earlier = {wpid: rss for wpid, _, rss, _ in before}
    for wpid, what, rss, peak in after:
        then = f"{earlier[wpid] / 1024:6.1f} MB" if wpid in earlier else "(not yet started)"
        print(f"  {what} {wpid}: {then} -> {rss / 1024:6.1f} MB (peak {peak / 1024:.1f} MB)")


if __name__ == "__main__":
    main()
