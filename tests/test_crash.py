"""SIGKILL the real server at random moments: every acknowledged action survives, none half-applied.

The first and the last server are started exactly as a player would (``python -m tripeaks serve``);
the restarts in between are forked from a process that has already imported the app, and run the
same CLI entry point, so that two dozen kills take seconds instead of a minute of imports.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tripeaks.engine.game import Action, Game
from tripeaks.web.api.view import game_state

# kills real servers and restarts them: a quick run (`-m 'not slow'`) skips it
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
KILLS = 22
ROUND_REQUESTS = 400
"""At most this many requests between two kills (the kill nearly always comes first)."""

ZYGOTE = r"""
import os, signal, sys
import uvicorn, tripeaks.web.app, tripeaks.store.postgres  # the heavy imports, once before any fork
from tripeaks.cli.main import main
from tripeaks.i18n import LANGUAGES, translator
for lang in LANGUAGES:
    translator(lang)
tripeaks.web.app.create_app(sys.argv[1])  # warms FastAPI's caches: each fork starts sooner
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for line in sys.stdin:
    pid = os.fork()
    if pid == 0:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os._exit(main(line.split()))
    print(pid, flush=True)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Servers:
    """Starts and SIGKILLs servers on one port and one database (a SQLite file, or PostgreSQL)."""

    def __init__(self, db: Path | str, warm: Path) -> None:
        self.db, self.port = db, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.argv = ["serve", "--no-browser", "--port", str(self.port), "--db", str(db)]
        self.zygote = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE, str(warm)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.command: subprocess.Popen[bytes] | None = None
        self.pid = 0

    def start(self, *, as_command: bool) -> None:
        if as_command:
            self.command = subprocess.Popen(
                [sys.executable, "-m", "tripeaks", *self.argv], cwd=ROOT, stdout=subprocess.DEVNULL
            )
            self.pid = self.command.pid
        else:
            assert self.zygote.stdin and self.zygote.stdout
            self.zygote.stdin.write((" ".join(self.argv) + "\n").encode())
            self.zygote.stdin.flush()
            self.pid = int(self.zygote.stdout.readline())
            self.command = None
        for _ in range(500):
            try:
                httpx.get(self.base + "/api/layout", timeout=0.5)
                return
            except httpx.TransportError:
                time.sleep(0.02)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """SIGKILL, then wait until the process is gone."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        if self.command is not None:
            self.command.wait(timeout=10)
            return
        for _ in range(500):
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.01)
        raise AssertionError(f"server {self.pid} survived SIGKILL")

    def close(self) -> None:
        self.kill()
        if self.zygote.stdin:
            self.zygote.stdin.close()
        self.zygote.wait(timeout=10)


@dataclass
class Tracked:
    """A game as the client knows it: what was acknowledged, and what was in flight at a kill."""

    id: str
    code: str
    acked: list[str] = field(default_factory=list)
    pending: tuple[str, str] | None = None  # (action, request_id)


def choose(state: dict[str, Any], rng: random.Random) -> str:
    """Mostly sensible taps, with undos and some refused ones."""
    roll = rng.random()
    if roll < 0.1 and state["can_undo"]:
        return "undo"
    if roll < 0.15:
        return f"play {rng.randrange(28)}"
    top = state["discard"]["rank"]
    fits = [
        s["pos"] for s in state["tableau"] if s["card"] and abs(s["card"]["rank"] - top) in (1, 12)
    ]
    if fits and rng.random() < 0.8:
        return f"play {rng.choice(fits)}"
    return "draw" if state["stock_size"] else "undo"


def post(client: httpx.Client, game: Tracked, action: str, request_id: str) -> httpx.Response:
    parsed = Action.parse(action)
    body: dict[str, Any] = {"version": len(game.acked), "request_id": request_id}
    if parsed.pos is not None:
        body["pos"] = parsed.pos
    return client.post(f"/api/games/{game.id}/{parsed.kind.value}", json=body)


def drive(
    client: httpx.Client,
    games: list[Tracked],
    rng: random.Random,
    touched: set[str],
    countdown: Callable[[], None],
) -> int:
    """Play until the server dies under us; returns how many actions were acknowledged.

    ``countdown`` starts the kill's timer, once, at the first acknowledged action: on a loaded
    machine a timer started with the round often fired before the first game was even made.
    """
    acked = 0
    state: dict[str, Any] | None = None
    game = games[-1] if games else None
    try:
        for _ in range(ROUND_REQUESTS):
            if game is None or state is None or state["status"] != "playing" or rng.random() < 0.03:
                reply = client.post("/api/games", json={"rules": rng.choice(["easy", "classic"])})
                assert reply.status_code == 201
                state = reply.json()
                game = Tracked(state["id"], state["code"])
                games.append(game)
                continue
            action, request_id = choose(state, rng), uuid.uuid4().hex
            game.pending = (action, request_id)
            touched.add(game.id)
            reply = post(client, game, action, request_id)
            game.pending = None
            if reply.status_code == 200:
                game.acked.append(action)
                acked += 1
                if acked == 1:
                    countdown()
                state = reply.json()
            else:
                assert reply.status_code == 422, reply.text
                state = reply.json()["state"]
    except httpx.TransportError:
        pass  # killed: the request in flight is unacknowledged
    if acked == 0:
        countdown()  # nothing acknowledged (the server died by itself?): the kill still comes
    return acked


class Logs(dict[str, list[str]]):
    """Each game's committed log, and which games the database says are settled."""

    settled: set[str]


def connect(db: Path | str) -> Any:
    """A plain connection to the database, that takes ``?`` placeholders on either."""
    if isinstance(db, Path):
        return sqlite3.connect(db)
    import psycopg

    class Plain:
        def __init__(self) -> None:
            self.db = psycopg.connect(db, autocommit=True)

        def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
            return self.db.execute(sql.replace("?", "%s"), args)

        def close(self) -> None:
            self.db.close()

    return Plain()


def check_database(db: Path | str, games: list[Tracked]) -> Logs:
    """With the server dead: each log is the acknowledged actions, maybe plus the one in flight."""
    connection = connect(db)
    try:
        logs = Logs()
        logs.settled = {
            game_id for (game_id,) in connection.execute("SELECT id FROM games WHERE settled = 1")
        }
        for game in games:
            rows = connection.execute(
                "SELECT seq, action FROM actions WHERE game = ? ORDER BY seq", (game.id,)
            ).fetchall()
            (version,) = connection.execute(
                "SELECT version FROM games WHERE id = ?", (game.id,)
            ).fetchone()
            stored = [action for _, action in rows]
            assert [seq for seq, _ in rows] == list(range(len(rows)))
            assert version == len(stored), "the game row and its log disagree"
            assert stored[: len(game.acked)] == game.acked, "an acknowledged action is missing"
            extra = stored[len(game.acked) :]
            assert not extra or (game.pending is not None and extra == [game.pending[0]])
            logs[game.id] = stored
        return logs
    finally:
        connection.close()


def check_server(client: httpx.Client, games: list[Tracked], logs: Logs) -> int:
    """The restarted server shows each game exactly as replaying its log; retries apply once."""
    committed_in_flight = 0
    for game in games:
        stored = logs[game.id]
        shown = client.get(f"/api/games/{game.id}").json()
        replayed = Game.replay(game.code, stored)
        if game.id in logs.settled:  # won, or left when a newer game was started
            replayed.leave()
        expected = game_state(replayed, "en", game_id=game.id)
        expected_json = expected.model_dump(mode="json", exclude={"last", "result"})
        assert {k: v for k, v in shown.items() if k not in ("last", "result")} == expected_json
        if game.pending is None:
            continue
        action, request_id = game.pending
        reply = post(client, game, action, request_id)
        if len(stored) > len(game.acked):
            committed_in_flight += 1
            assert reply.status_code == 200 and reply.json()["version"] == len(stored)
        if reply.status_code == 200:
            game.acked.append(action)
        game.pending = None
        assert client.get(f"/api/games/{game.id}").json()["version"] == len(game.acked)
    return committed_in_flight


def test_sigkill_loses_no_acknowledged_action(tmp_path: Path, database: Path | str) -> None:
    db = database
    servers = Servers(db, tmp_path / "warm.db")
    rng = random.Random(20261130)
    games: list[Tracked] = []
    touched: set[str] = set()
    acked_total = committed_in_flight = 0
    try:
        with httpx.Client(base_url=servers.base, timeout=5.0) as client:
            for kill in range(KILLS):
                servers.start(as_command=kill == 0)
                if kill:
                    recent = [g for g in games if g.id in touched]
                    committed_in_flight += check_server(client, recent, check_database(db, recent))
                touched.clear()
                killer = threading.Timer(rng.uniform(0.02, 0.3), servers.kill)
                acked_total += drive(client, games, rng, touched, killer.start)
                killer.join()
            servers.start(as_command=True)
            check_server(client, games, check_database(db, games))
    finally:
        servers.close()
    print(
        f"{KILLS} kills, {len(games)} games, {acked_total} acknowledged actions, "
        f"{committed_in_flight} in-flight actions found committed and not applied twice"
    )
    assert acked_total >= KILLS
