"""Server CPU per action, without sockets: the ASGI app driven in-process, whole games, one player.

Prints the median main-thread CPU time (``time.thread_time``) of play, draw and undo requests, so that two
versions can be compared side by side with less noise than a loopback benchmark: run it from each checkout
(``PYTHONPATH=<checkout> python bench/cpu.py``). The commit itself happens in the store's thread and is
not counted. Prints figures only; it asserts nothing.

Every run plays the same deals (fixed codes), so two checkouts do exactly the same work. On a
loaded machine CPU time is noisy too; instruction counts are not: run it under
``valgrind --tool=cachegrind --cache-sim=no`` with ``--games 4`` and ``--games 24`` and divide the
difference of the two totals by the difference in actions (how docs/decisions.md's action-path
figures were made).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from typing import Any

from tripeaks.engine.codes import GameCode
from tripeaks.engine.rules import Rules
from tripeaks.web.app import create_app

CODES = [str(GameCode.from_number(i * 2654435761 % 26**7, Rules.EASY)) for i in range(1, 1001)]
"""The deals played, the same in every run and checkout."""


async def call(app: Any, method: str, path: str, body: object, cookie: str) -> tuple[int, Any, str]:
    """One request through the app; returns the status, the JSON body and any cookie set."""
    payload = json.dumps(body).encode()
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": payload, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    out: dict[str, Any] = {"status": 0, "body": b"", "cookie": ""}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            for name, value in message["headers"]:
                if name == b"set-cookie":
                    out["cookie"] = value.decode().split(";")[0]
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return out["status"], json.loads(out["body"]), out["cookie"]


def playable(state: dict[str, Any]) -> list[int]:
    if "playable" in state:  # older versions did not send it
        found: list[int] = state["playable"]
        return found
    top = state["discard"]["rank"]
    return [
        s["pos"] for s in state["tableau"] if s["card"] and abs(s["card"]["rank"] - top) in (1, 12)
    ]


async def play(games: int) -> dict[str, list[float]]:
    app = create_app(os.path.join(tempfile.mkdtemp(), "cpu.db"))
    times: dict[str, list[float]] = {"play": [], "draw": [], "undo": []}
    cookie = ""
    for game in range(games):
        _status, state, issued = await call(
            app, "POST", "/api/games", {"code": CODES[game % len(CODES)]}, cookie
        )
        cookie = issued or cookie
        for step in range(200):
            if state["status"] != "playing":
                break
            body: dict[str, int] = {"version": state["version"]}
            if state["can_undo"] and step % 7 == 6:
                kind = "undo"
            elif playable(state):
                kind, body["pos"] = "play", playable(state)[0]
            elif state["stock_size"]:
                kind = "draw"
            else:
                kind = "undo"
            started = time.thread_time()
            status, state, _ = await call(
                app, "POST", f"/api/games/{state['id']}/{kind}", body, cookie
            )
            times[kind].append(time.thread_time() - started)
            if status != 200:
                raise SystemExit(f"{kind} answered {status}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    times = asyncio.run(play(args.games))
    every = [t for values in times.values() for t in values]
    print(f"Main-thread CPU per action, in process, {args.games} games ({sys.argv[0]}):")
    for kind, values in times.items():
        print(f"  {kind:5} n={len(values):5}  median {statistics.median(values) * 1e6:6.0f} µs")
    print(f"  all   n={len(every):5}  median {statistics.median(every) * 1e6:6.0f} µs")
    os._exit(0)  # the app's commit thread and solver workers are not worth a clean shutdown here


if __name__ == "__main__":
    main()
