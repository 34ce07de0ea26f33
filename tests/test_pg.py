"""What only PostgreSQL does: several workers on one database, and a database that goes away.

Two apps on one database are two workers (each has its own cache, commit thread and pool), as
``tripeaks serve --workers`` or two machines would run them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient
from test_api_support import BASE_URL, CLUSTER, WIN_CODE, api, new_game, send

from tripeaks import daily, stats
from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import DRAW, UNDO, Action
from tripeaks.i18n import translator
from tripeaks.store import postgres as store_pg
from tripeaks.store.core import ActionRefused, StaleVersion, Storage
from tripeaks.store.postgres import redacted
from tripeaks.web.app import create_app

POLICY = daily.Policy(stats.judge, stats.count)
"""The app's policy of the competition's rules (web/app.py hands the solver worker's judge first)."""


class PgStore(store_pg.PgStore):
    """The PostgreSQL store with the app's policy."""

    def __init__(self, url: str, **options: Any) -> None:
        super().__init__(url, POLICY, **options)


ROOT = Path(__file__).resolve().parent.parent
P = "p" * 22


def workers(url: str, n: int = 2) -> list[TestClient]:
    """``n`` apps on one database, as one player (the same cookie on each)."""
    clients = [TestClient(create_app(url), base_url=BASE_URL) for _ in range(n)]
    for c in clients:
        c.__enter__()
    return clients


@pytest.fixture
def two(postgres: str) -> Iterator[tuple[TestClient, TestClient]]:
    one, other = workers(postgres)
    try:
        yield one, other
    finally:
        one.__exit__(None, None, None)
        other.__exit__(None, None, None)


def board(state: dict[str, Any]) -> dict[str, Any]:
    """A state without ``last`` (the turn just taken: only the reply to an action has one)."""
    return {k: v for k, v in state.items() if k != "last"}


def same_player(one: TestClient, other: TestClient) -> dict[str, Any]:
    state = new_game(one, WIN_CODE)
    other.cookies.set("tripeaks_player", one.cookies["tripeaks_player"])
    return state


def test_a_change_through_one_worker_is_seen_by_the_other(
    two: tuple[TestClient, TestClient],
) -> None:
    one, other = two
    state = same_player(one, other)
    assert other.get(f"/api/games/{state['id']}").json()["version"] == 0  # now cached there too
    moved = send(one, state, DRAW).json()
    seen = other.get(f"/api/games/{state['id']}").json()
    assert board(seen) == board(moved)
    back = send(other, seen, UNDO)  # other's cache was brought up to date: version 1 is current
    assert back.status_code == 200 and back.json()["version"] == 2
    again = send(one, back.json(), DRAW)  # and one's, though it holds the game at version 1
    assert again.status_code == 200 and again.json()["version"] == 3


def test_a_read_waiting_on_the_database_stalls_no_other_request(postgres: str) -> None:
    """A query that waits (here on a table lock) runs in a thread: the worker's event loop goes
    on answering everyone else meanwhile, and the read answers once the database does."""
    with TestClient(create_app(postgres), base_url=BASE_URL) as client:
        state = new_game(client, WIN_CODE)
        with ThreadPoolExecutor(2) as pool, psycopg.connect(postgres) as blocker:
            blocker.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")  # held until commit
            waiting = pool.submit(client.get, f"/api/games/{state['id']}")
            time.sleep(0.3)  # the read is now inside PostgreSQL, waiting for the lock
            other = pool.submit(client.get, "/healthz")
            assert other.result(timeout=10).status_code == 200
            assert not waiting.done()
            blocker.commit()
            read = waiting.result(timeout=10)
        assert read.status_code == 200 and read.json()["version"] == 0


def test_a_stale_version_is_refused_even_when_this_worker_had_not_heard(
    two: tuple[TestClient, TestClient],
) -> None:
    one, other = two
    state = same_player(one, other)
    other.get(f"/api/games/{state['id']}")
    assert send(one, state, DRAW).status_code == 200
    late = send(other, state, "play 21")  # other still holds version 0 in memory
    assert late.status_code == 409 and late.json()["error"]["reason"] == "stale"
    assert late.json()["state"]["version"] == 1
    assert late.json()["state"]["stock_size"] == 22


def test_a_new_game_through_one_worker_leaves_the_game_played_through_the_other(
    two: tuple[TestClient, TestClient],
) -> None:
    one, other = two
    state = same_player(one, other)
    assert send(one, state, DRAW).status_code == 200
    other.get(f"/api/games/{state['id']}")
    assert send(one, {**state, "version": 1}, DRAW).status_code == 200  # other has version 1
    new_game(other)  # leaves the game as stored: two draws, so it counts lost
    left = one.get(f"/api/games/{state['id']}").json()
    assert left["status"] == "left" and left["version"] == 2
    stats = one.get("/api/stats").json()
    assert stats["easy"]["played"] == 1 and stats["recent"][0]["outcome"] == "lost"


def test_two_actions_at_once_through_two_workers_store_one_and_refuse_the_other(
    postgres: str,
) -> None:
    """Each worker's memory takes its action; the version check in the UPDATE decides."""
    apps = [create_app(postgres), create_app(postgres)]

    async def race() -> list[tuple[int, dict[str, Any]]]:
        clients = [
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL)
            for app in apps
        ]
        one, other = clients
        state = (await one.post("/api/games", json={"code": WIN_CODE})).json()
        other.cookies.set("tripeaks_player", one.cookies["tripeaks_player"])
        rounds = []
        for version in range(12):
            url = f"/api/games/{state['id']}"
            await asyncio.gather(one.get(url), other.get(url))  # both hold this version
            action = "draw" if version % 2 == 0 else "undo"
            replies = await asyncio.gather(
                *(c.post(f"{url}/{action}", json={"version": version}) for c in clients)
            )
            rounds.append(sorted((r.status_code, r.json()) for r in replies))
            state = next(r.json() for r in replies if r.status_code == 200)
        for c in clients:
            await c.aclose()
        return [pair for round_ in rounds for pair in round_]

    async def served() -> list[tuple[int, dict[str, Any]]]:
        async with (
            apps[0].router.lifespan_context(apps[0]),
            apps[1].router.lifespan_context(apps[1]),
        ):
            return await race()

    with ThreadPoolExecutor(1) as thread:
        replies = thread.submit(lambda: asyncio.run(served())).result()
    for (ok, applied), (refused, conflict) in zip(replies[::2], replies[1::2], strict=True):
        assert (ok, refused) == (200, 409)
        assert conflict["error"]["reason"] == "stale"
        assert board(conflict["state"]) == board(applied)
    store = PgStore(postgres)
    game_id = replies[0][1]["id"]
    assert [str(a) for a in store.actions(game_id)] == ["draw", "undo"] * 6
    store.close()


def test_the_store_refuses_an_action_stored_meanwhile_by_another_alone(postgres: str) -> None:
    """In one batch, the action whose game moved on fails (with the actions on top of it) and
    the rest commits; a retry of a request the other worker stored answers as stored."""
    code = GameCode.parse(WIN_CODE)
    one, other = PgStore(postgres), PgStore(postgres)
    moved, kept = one.create(P, code).id, one.create("q" * 22, code).id
    other.game(moved, P)
    one.apply(moved, P, DRAW, 0)
    stale = other.stage_apply(moved, P, DRAW, 0)  # other's memory still says version 0
    on_top = other.stage_apply(moved, P, DRAW, 1)
    fine = other.stage_apply(kept, "q" * 22, DRAW, 0)
    retried = one.stage_apply(moved, P, UNDO, 1, "r")
    other_retry = other.stage_apply(moved, P, DRAW, 2, "s")  # cache behind: refused at commit
    one.flush()
    settled = other.flush()
    assert {c.done for c in settled} == {stale.done, on_top.done, fine.done, other_retry.done}
    for refused in (stale, on_top):
        with pytest.raises(StaleVersion) as error:
            refused.done.result(timeout=0)
        assert [str(a) for a in error.value.game.actions] == ["draw", "undo"]
    assert fine.done.result(timeout=0) is None
    assert retried.done.result(timeout=0) is None
    assert isinstance(other_retry.done.exception(timeout=0), StaleVersion)
    assert other.game(moved, P).actions == (DRAW, UNDO)
    again = other.apply(moved, P, UNDO, 1, "r")  # the same request, through the other worker
    assert again.done.result(timeout=0) is None and one.actions(moved) == [DRAW, UNDO]
    one.close()
    other.close()


def test_a_batch_of_moves_is_written_as_one_message_unless_a_game_moved_on(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PgStore._write sends a batch of plain moves as one message (one round trip, one
    transaction); only a batch with an action whose game moved on is written again one statement
    at a time (Storage._write), and then exactly that action is refused."""
    code = GameCode.parse(WIN_CODE)
    one, other = PgStore(postgres), PgStore(postgres)
    ids = [one.create(p, code).id for p in (P, "q" * 22, "r" * 22)]
    one_by_one: list[int] = []
    write = Storage._write
    monkeypatch.setattr(
        Storage, "_write", lambda self, batch: one_by_one.append(len(batch)) or write(self, batch)
    )
    sent = messages(monkeypatch)
    staged = [
        one.stage_apply(i, p, DRAW, 0) for i, p in zip(ids, (P, "q" * 22, "r" * 22), strict=True)
    ]
    staged.append(one.stage_apply(ids[0], P, UNDO, 1))
    one.flush()
    assert sent == [4] and one_by_one == []
    assert all(s.done.result(timeout=0) is None for s in staged)
    assert one.actions(ids[0]) == [DRAW, UNDO] and one.actions(ids[2]) == [DRAW]
    other.game(ids[1], "q" * 22)
    one.apply(ids[1], "q" * 22, DRAW, 1)
    stale = other.stage_apply(ids[1], "q" * 22, DRAW, 1)  # other's copy is behind
    fine = other.stage_apply(ids[2], "r" * 22, DRAW, 1)
    other.flush()
    assert sent == [4, 1, 2] and one_by_one == [2]  # the message failed whole: nothing of it kept
    assert isinstance(stale.done.exception(timeout=0), StaleVersion)
    assert fine.done.result(timeout=0) is None and one.actions(ids[2]) == [DRAW, DRAW]
    assert other.game(ids[1], "q" * 22).actions == (DRAW, DRAW)
    one.close()
    other.close()


def test_a_batch_whose_change_reads_an_answer_goes_through_the_pipeline(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new game that leaves a played one asks whether the leaving row was still there before it
    counts the loss: such a batch is not one message (nothing of it is sent as one) but one
    pipelined transaction, and every change of it is stored."""
    code = GameCode.parse(WIN_CODE)
    store = PgStore(postgres)
    left = store.create(P, code).id
    played = store.create("q" * 22, code).id
    store.apply(left, P, DRAW, 0)
    sent = messages(monkeypatch)
    pipelined: list[int] = []
    made = store_pg._Pipelined.__init__

    def counted(self: store_pg._Pipelined, *args: Any) -> None:
        pipelined.append(1)
        made(self, *args)

    monkeypatch.setattr(store_pg._Pipelined, "__init__", counted)
    move = store.stage_apply(played, "q" * 22, DRAW, 0)
    created = store.stage_create(P, code)
    store.flush()
    assert sent == [] and pipelined == [1]
    assert move.done.result(timeout=0) is None and created.done.result(timeout=0) is None
    assert created.lost == 1 and store.totals(P)
    with psycopg.connect(postgres) as db:
        rows = db.execute(
            "SELECT id, settled FROM games WHERE player = %s ORDER BY created_at", (P,)
        ).fetchall()
        outcomes = db.execute("SELECT outcome FROM results WHERE game = %s", (left,)).fetchall()
    assert rows == [(left, 1), (created.id, 0)] and outcomes == [("lost",)]
    assert store.actions(played) == [DRAW]
    store.close()


def test_a_message_binds_every_value_as_data(postgres: str) -> None:
    """The message's values are bound on the client: a request id made of SQL is stored as it
    was sent, and nothing of it runs."""
    code = GameCode.parse(WIN_CODE)
    store = PgStore(postgres)
    game = store.create(P, code).id
    hostile = "x'); DROP TABLE games; -- \\ %s $1 \u00e9"
    store.apply(game, P, DRAW, 0, hostile)
    with psycopg.connect(postgres) as db:
        logged = db.execute("SELECT request_id FROM actions WHERE game = %s", (game,)).fetchall()
    assert logged == [(hostile,)]
    again = store.apply(game, P, DRAW, 0, hostile)  # the retry finds it by that very id
    assert again.again and store.actions(game) == [DRAW]
    store.close()


def messages(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The statements in each one-message batch PgStore sends, from now on."""
    sent: list[int] = []
    send = store_pg._Message.send

    def counted(self: store_pg._Message) -> None:
        sent.append(len(self.statements))
        send(self)

    monkeypatch.setattr(store_pg._Message, "send", counted)
    return sent


def test_a_move_the_cached_game_refuses_is_decided_again_on_the_stored_one(postgres: str) -> None:
    """Another worker moved the game: this worker's cached copy calls the next move stale, so
    ``stage_apply_cached`` leaves it to ``stage_apply``, which reads the stored game and applies it."""
    code = GameCode.parse(WIN_CODE)
    one, other = PgStore(postgres), PgStore(postgres)
    game_id = one.create(P, code).id
    other.game(game_id, P)
    one.apply(game_id, P, DRAW, 0)
    assert other.stage_apply_cached(game_id, P, DRAW, 1) is None
    applied = other.stage_apply(game_id, P, DRAW, 1)
    other.flush()
    assert applied.done.result(timeout=0) is None
    assert one.actions(game_id) == [DRAW, DRAW]
    one.close()
    other.close()


def reads_of(store: PgStore, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """From now on, each read of the store: (its first table, whether the store's lock was held)."""
    reads: list[tuple[str, bool]] = []
    read = store._read

    def reading(sql: str, args: Any) -> list[Any]:
        reads.append((sql.split(" FROM ")[1].split()[0], store._lock.locked()))
        return read(sql, args)

    monkeypatch.setattr(store, "_read", reading)
    return reads


def test_a_move_the_rules_refuse_reads_the_stored_version_without_holding_the_lock(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second decision's read is a round trip to the database, and the event loop's cached
    moves take the store's lock: it is read before the lock is taken, not while holding it."""
    store = PgStore(postgres)
    game_id = store.create(P, GameCode.parse(WIN_CODE)).id
    covered = Action.play(0)
    assert store.stage_apply_cached(game_id, P, covered, 0) is None
    reads = reads_of(store, monkeypatch)
    with pytest.raises(ActionRefused) as refused:
        store.stage_apply(game_id, P, covered, 0)
    assert refused.value.game.actions == () and refused.value.tag is None
    assert reads == [("games", False)]  # the stored version alone, and the lock free
    store.close()


def test_a_new_game_reads_the_games_it_leaves_without_holding_the_lock(
    postgres: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new game leaves the player's unfinished games: which they are and their stored versions
    are read before the store's lock is taken, so the event loop's moves never wait on them."""
    store = PgStore(postgres)
    code = GameCode.parse(WIN_CODE)
    first = store.create(P, code).id
    store.apply(first, P, DRAW, 0)  # touched: leaving it counts as a loss
    reads = reads_of(store, monkeypatch)
    created = store.stage_create(P, code)
    assert created.lost == 1
    assert reads == [("games", False)]  # the player's unsettled games, with the lock free
    store.flush()
    monkeypatch.undo()
    assert store.game(first, P).is_over and created.done.result(timeout=0) is None
    store.close()


def test_two_workers_commits_that_cross_are_not_failed(postgres: str) -> None:
    """Two workers' batches lock the same two games in opposite orders: PostgreSQL aborts one as a
    deadlock. That batch is tried again, after the other committed: its stale actions are refused
    409 as any stale action is, never 503, and the other's are stored."""
    code = GameCode.parse(WIN_CODE)
    one, other = PgStore(postgres), PgStore(postgres)
    first, second = one.create(P, code).id, one.create("q" * 22, code).id
    for game_id, player in ((first, P), (second, "q" * 22)):
        other.game(game_id, player)  # both workers hold both games at version 0
    ones = [one.stage_apply(first, P, DRAW, 0), one.stage_apply(second, "q" * 22, DRAW, 0)]
    others = [other.stage_apply(second, "q" * 22, DRAW, 0), other.stage_apply(first, P, DRAW, 0)]
    both_hold_one = threading.Barrier(2, timeout=10)
    for store in (one, other):
        write = store._staged[0].write

        def slowly(db: Any, write: Any = write) -> None:
            write(db)  # this game's row is locked now; wait until the other worker locked its own
            with contextlib.suppress(threading.BrokenBarrierError):
                both_hold_one.wait()

        store._staged[0].write = slowly
    with ThreadPoolExecutor(2) as pool:
        for flushed in [pool.submit(one.flush), pool.submit(other.flush)]:
            flushed.result(timeout=30)
    outcomes = [
        [type(a.done.exception(timeout=0)).__name__ for a in applied] for applied in (ones, others)
    ]
    assert sorted(outcomes) == [["NoneType", "NoneType"], ["StaleVersion", "StaleVersion"]]
    assert one.actions(first) == [DRAW] and one.actions(second) == [DRAW]
    one.close()
    other.close()


# The database going away ---------------------------------------------------------------------


def cluster(command: str, folder: Path) -> str:
    done = subprocess.run(
        ["sh", str(CLUSTER), command, str(folder)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def own_cluster() -> Iterator[tuple[str, Path]]:
    """A cluster of this test's own, to stop and start (the shared one serves other tests).

    In a folder of /tmp, not pytest's: the postgres user must reach it, and its socket's path
    must stay short."""
    folder = Path(tempfile.mkdtemp(prefix="tripeaks-pg-"))
    url = cluster("start", folder)
    try:
        yield url, folder
    finally:
        cluster("stop", folder)


def test_nothing_acknowledged_is_lost_while_postgres_restarts_mid_burst(
    own_cluster: tuple[str, Path],
) -> None:
    """Players send draw/undo with request ids and resend on 503; the database stops at once
    (as a crash would) and comes back. Every 200 is stored exactly once; while it is away the
    replies are 503 with Retry-After, never 500; afterwards everything works."""
    url, folder = own_cluster
    app = create_app(url)
    statuses: list[int] = []
    acked: dict[str, list[str]] = {}
    ready = threading.Event()

    async def player(n: int) -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as client:
            state = (await client.post("/api/games", json={"code": WIN_CODE})).json()
            log = acked.setdefault(state["id"], [])
            for i in range(60):
                action = "draw" if i % 2 == 0 else "undo"
                body = {"version": i, "request_id": f"{n}-{i}"}
                while True:
                    reply = await client.post(f"/api/games/{state['id']}/{action}", json=body)
                    statuses.append(reply.status_code)
                    if reply.status_code != 503:
                        break
                    assert int(reply.headers["Retry-After"]) >= 1
                    assert reply.json()["error"]["reason"] == "unavailable"
                    await asyncio.sleep(0.05)
                assert reply.status_code == 200, reply.text
                log.append(action)
                if sum(map(len, acked.values())) >= 40:
                    ready.set()
                await asyncio.sleep(0.01)

    def restart() -> None:
        ready.wait(60)
        cluster("halt", folder)
        time.sleep(1.5)
        cluster("resume", folder)

    async def burst() -> None:
        async with app.router.lifespan_context(app):
            await asyncio.gather(*(player(n) for n in range(4)))

    restarting = threading.Thread(target=restart)
    restarting.start()
    with ThreadPoolExecutor(1) as thread:
        thread.submit(lambda: asyncio.run(burst())).result()
    restarting.join()
    assert 503 in statuses and set(statuses) == {200, 503}
    store = PgStore(url)
    for game_id, log in acked.items():
        assert [str(a) for a in store.actions(game_id)] == log
        assert len(log) == 60
    store.close()
    with api(url) as client:  # and a fresh worker plays on
        assert send(client, new_game(client), Action.parse("draw")).status_code == 200


def test_a_database_away_answers_503_and_a_read_too(own_cluster: tuple[str, Path]) -> None:
    url, folder = own_cluster
    with api(url) as client:
        state = new_game(client, WIN_CODE)
        cluster("halt", folder)
        try:
            for reply in (
                send(client, state, DRAW),
                client.get(f"/api/games/{state['id']}"),
                client.post("/api/games", json={}),
                client.get("/api/stats"),
            ):
                assert reply.status_code == 503, reply.text
                assert reply.json()["error"]["reason"] == "unavailable"
                assert int(reply.headers["Retry-After"]) >= 1
        finally:
            cluster("resume", folder)
        deadline = time.monotonic() + 30
        while (reply := send(client, state, DRAW)).status_code == 503:
            assert time.monotonic() < deadline, "the database came back but the app did not"
            time.sleep(0.1)
        assert reply.status_code == 200 and reply.json()["version"] == 1


# Serving on PostgreSQL -----------------------------------------------------------------------


def test_serve_takes_the_database_from_the_environment(postgres: str) -> None:
    env = {**os.environ, "LC_ALL": "C.UTF-8", "TRIPEAKS_DB": postgres}
    argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--port", "0"]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("TriPeaks: http://127.0.0.1:") and redacted(postgres) in line
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_a_database_that_is_not_there_stops_serve_with_one_line() -> None:
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    url = "postgresql://someone:secret@127.0.0.1:1/games"
    argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--db", url]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(
        "tripeaks: cannot use the database postgresql://someone:***@127.0.0.1:1/games: "
    )
    assert done.stderr.count("\n") == 1 and "secret" not in done.stderr


def children(pid: int) -> set[int]:
    return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def test_two_worker_processes_serve_one_game_and_one_survives_the_others_sigkill(
    postgres: str,
) -> None:
    """Every request on a new connection (any worker may take it); one worker is SIGKILLed
    mid-game: what it acknowledged is there, and the game goes on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "LC_ALL": "C.UTF-8", "TRIPEAKS_WORKERS": "2"}
    argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--port", str(port)]
    server = subprocess.Popen(
        [*argv, "--db", postgres], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    base = f"http://127.0.0.1:{port}"
    try:
        assert server.stdout is not None
        assert server.stdout.readline().startswith(f"TriPeaks: {base}/")
        deadline = time.monotonic() + 60
        while len(children(server.pid)) < 2 or not answers(base):
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.1)
        first = httpx.post(f"{base}/api/games", json={"code": WIN_CODE})
        cookies = {"tripeaks_player": first.cookies["tripeaks_player"]}
        state = first.json()
        for i in range(40):
            if i == 20:
                os.kill(min(children(server.pid)), signal.SIGKILL)
            action = "draw" if i % 2 == 0 else "undo"
            body = {"version": i, "request_id": f"r{i}"}
            while True:  # a connection the killed worker had accepted is lost: send it again
                try:
                    reply = httpx.post(
                        f"{base}/api/games/{state['id']}/{action}", json=body, cookies=cookies
                    )
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            assert reply.status_code == 200, reply.text
            state = reply.json()
        store = PgStore(postgres)
        assert [str(a) for a in store.actions(state["id"])] == ["draw", "undo"] * 20
        store.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


def answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/layout", timeout=1).status_code == 200
    except httpx.TransportError:
        return False


def test_several_workers_on_a_sqlite_file_are_refused(tmp_path: Path) -> None:
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--workers", "2"]
    argv += ["--db", str(tmp_path / "games.db")]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 1
    assert done.stderr == translator("en")("serve.workers_need_postgres") + "\n"


TOKEN = "scrape-me-0123456789"
"""The operator's metrics token: /metrics answers only a scrape that sends it."""


def test_the_workers_apps_get_the_hosted_settings(postgres: str) -> None:
    """--workers makes each worker's app from the environment: the hosted settings reach it too
    (each worker answers /metrics; the limits, per process, are in Hosting's round trip test)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    argv = [sys.executable, "-m", "tripeaks", "serve", "--no-browser", "--port", str(port)]
    argv += ["--workers", "2", "--metrics", "on", "--metrics-token", TOKEN]
    server = subprocess.Popen(
        [*argv, "--db", postgres], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while len(children(server.pid)) < 2 or not answers(base):
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.1)
        for _ in range(6):  # new connections: both workers answer some
            metrics = httpx.get(f"{base}/metrics", headers={"authorization": f"Bearer {TOKEN}"})
            assert metrics.status_code == 200 and "http_requests_total" in metrics.text
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://tp:s3cret@db.example/tp", "postgresql://tp:***@db.example/tp"),
        (
            "postgresql://db/tp?sslmode=require&password=s3cret",
            "postgresql://db/tp?sslmode=require&password=***",
        ),
        (
            "postgresql:///tp?host=/run/pg&PASSWORD=s3cret",
            "postgresql:///tp?host=/run/pg&PASSWORD=***",
        ),
        (
            "postgresql://tp@db/tp?application_name=a%20b",
            "postgresql://tp@db/tp?application_name=a%20b",
        ),
    ],
)
def test_the_console_never_shows_a_password(url: str, shown: str) -> None:
    """libpq takes the password in the user part or as a query parameter: both are masked."""
    assert redacted(url) == shown
