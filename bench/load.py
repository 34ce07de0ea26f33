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

``--closed-loop``: players without think time (each sends its next action as soon as the reply
came), to find the throughput at p99 < 50 ms. The players are doubled from 1 until p99 is over
50 ms in two steps running, then bisected between the last step under and the next one over; each
step starts fresh
players (one after another over the first half of the warm-up: started all at once, their
connections piled onto one or two of several workers), lets them warm up for ``--warmup`` s and
counts the actions sent in the next ``--seconds``
(a newly started server first plays 2 s uncounted, so that its solver processes and database
connections exist before anything is measured).
It runs each server of ``--config``: SQLite with one worker, PostgreSQL with 1, 2 and 4 workers
(a throwaway cluster with fsync on, tests/pg_cluster.sh, unless ``--pg URL``), and with ``--before
DIR`` first another checkout's server on SQLite (the build the SQLite target was measured on, so
that the target is judged on this machine too), and prints for
each step the CPU time an action of the server's processes (the workers, the solver's), of the
PostgreSQL server's and of this generator, and for the best step each worker's, so that scaling
past two cores can be projected. The issue's targets are printed beside the figures.
``--rounds N`` runs the configurations N times in turn and ends with each one's rate in every round,
their median, and the ratios the targets compare, round by round (a shared machine's speed can
change by a third between runs minutes apart: compare within a round, and look at the median).
``--side-by-side`` starts every configuration's server at once and takes their steps in turn, so
that the configurations a target compares meet the machine seconds apart rather than minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api import ROOT, RawHttp, percentile, server, serving
from players import LANGUAGES, choose
from proctimes import Part, postgres_parts, sample, server_parts, spent


class Tally:
    def __init__(self, since: float = 0.0) -> None:
        self.since = since
        """Only actions sent from this moment (``time.perf_counter``) on are counted: a warm-up."""
        self.latencies: list[float] = []
        self.refused = 0
        self.errors: dict[str, int] = {}
        self.games = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def player(
    base: str, seed: int, until: float, think: float, tally: Tally, lang: str, delay: float = 0.0
) -> None:
    await asyncio.sleep(delay)  # the closed loop's players connect one after another
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
            counted = started >= tally.since
            if counted:
                tally.latencies.append(time.perf_counter() - started)
            if status == 200:
                state = reply
            elif status == 422 and reply.get("state"):
                tally.refused += counted
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
    await asyncio.gather(
        *(player(base, n, until, think, tally, LANGUAGES[n % 3]) for n in range(players))
    )
    return tally, time.perf_counter() - started


def _event_loop() -> None:
    """uvloop if installed: less of the machine's CPU for the generator, more for the server."""
    try:
        import uvloop
    except ImportError:
        return
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


# The closed loop: no think time, the number of players stepped until p99 reaches the bound.

BOUND = 0.050
"""The p99 latency the closed loop finds the throughput under (the issue's p99 < 50 ms)."""

WARM_SERVER = 2.0
"""Seconds of play, not counted, on a newly started server before its first step."""

OLD_SQLITE = 2294
"""SQLite's closed-loop figure before PostgreSQL came (20 players, p99 13.5 ms): the target."""


@dataclass(frozen=True)
class Config:
    name: str
    database: str  # "SQLite" or "PostgreSQL"
    workers: int


CONFIGS = {
    "sqlite": Config("sqlite", "SQLite", 1),
    "pg1": Config("pg1", "PostgreSQL", 1),
    "pg2": Config("pg2", "PostgreSQL", 2),
    "pg4": Config("pg4", "PostgreSQL", 4),
    "before": Config("before", "SQLite", 1),
}
"""``before`` is another checkout's server on SQLite (``--before DIR``): the build the SQLite
target's figure was measured on, run beside ours so that the two meet the same machine."""


@dataclass
class Step:
    """One step of the closed loop: so many players for so long, and what the processes spent."""

    players: int
    seconds: float
    tally: Tally
    cpu: dict[Part, float] = field(default_factory=dict)
    generator: float = 0.0  # this process's CPU seconds in the window

    @property
    def actions(self) -> int:
        return len(self.tally.latencies)

    @property
    def rate(self) -> float:
        return self.actions / self.seconds

    @property
    def errors(self) -> int:
        return sum(self.tally.errors.values())

    def p(self, q: float) -> float:
        return percentile(self.tally.latencies, q) if self.tally.latencies else float("inf")

    @property
    def passes(self) -> bool:
        return self.p(0.99) < BOUND and self.errors == 0

    def per_action(self, seconds: float) -> float:
        """µs a counted action."""
        return seconds / self.actions * 1e6 if self.actions else float("nan")

    def cpu_of(self, *prefixes: str) -> float:
        return sum(v for part, v in self.cpu.items() if part.role.startswith(prefixes))


def _own_cpu() -> float:
    times = os.times()
    return times.user + times.system


async def closed_step(
    base: str,
    players: int,
    seconds: float,
    warmup: float,
    parts: Callable[[], list[Part]],
    seed: int,
) -> Step:
    """``players`` players without think time; actions sent in the ``seconds`` after a warm-up
    count, and the CPU of ``parts`` is read at the start and the end of those seconds."""
    known = parts()  # found before the players start: reading /proc mid-step stalls them
    tally = Tally(since=time.perf_counter() + warmup)
    until = tally.since + seconds
    marks: dict[str, Any] = {}

    async def mark() -> None:
        await asyncio.sleep(max(0.0, tally.since - time.perf_counter()))
        marks["parts"], marks["own"] = sample(known), _own_cpu()

    await asyncio.gather(
        mark(),
        *(
            player(base, seed + n, until, 0.0, tally, LANGUAGES[n % 3], n * warmup / 2 / players)
            for n in range(players)
        ),
    )
    own = _own_cpu() - marks["own"]
    return Step(players, seconds, tally, spent(marks["parts"], sample(parts())), own)


async def find_throughput(
    run_step: Callable[[int], Awaitable[Step]],
    players: list[int] | None,
    most: int,
    refine: int,
    show: Callable[[Step], None],
) -> list[Step]:
    """Double the players from 1 until p99 is over the bound in two steps running (one step's
    p99 on a shared machine can be a stall of a few ms elsewhere; or until ``most``), then bisect
    ``refine`` times between the last step under it and the next over it; or just the given
    ``players``."""
    steps: dict[int, Step] = {}

    async def at(n: int) -> Step:
        steps[n] = await run_step(n)
        show(steps[n])
        return steps[n]

    if players:
        for n in players:
            await at(n)
        return list(steps.values())
    n, running = 1, 0
    while n <= most and running < 2:
        running = running + 1 if (await at(n)).p(0.99) >= BOUND else 0
        n *= 2
    low = max((k for k, step in steps.items() if step.p(0.99) < BOUND), default=0)
    over = [k for k, step in steps.items() if k > low and step.p(0.99) >= BOUND]
    if low and over:
        high = min(over)
        for _ in range(refine):
            if high - low <= 1:
                break
            middle = (low + high) // 2
            if (await at(middle)).p(0.99) < BOUND:
                low = middle
            else:
                high = middle
    return [steps[k] for k in sorted(steps)]


def best_of(steps: list[Step]) -> Step | None:
    """The step with the most actions a second among those with p99 under the bound and no error."""
    passing = [step for step in steps if step.passes]
    return max(passing, key=lambda step: step.rate) if passing else None


@dataclass
class Postgres:
    """Where the PostgreSQL configurations keep their games."""

    url: str
    postmaster: int | None  # None: not on this machine, or not readable; its CPU is not measured
    throwaway: bool  # our own cluster: a fresh database each configuration (and round)

    def database(self, name: str) -> str:
        if not self.throwaway:
            return self.url
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "tripeaks_{name}"')  # the round before's
            connection.execute(f'CREATE DATABASE "tripeaks_{name}"')
        return urlunsplit(urlsplit(self.url)._replace(path=f"/tripeaks_{name}"))


def _postmaster_of(url: str) -> int | None:
    """The pid of the PostgreSQL server at ``url`` if it runs on this machine and we may read it."""
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=5) as connection:
            row = connection.execute("SHOW data_directory").fetchone()
        assert row is not None
        return int((Path(row[0]) / "postmaster.pid").read_text().split()[0])
    except Exception:
        return None


@contextmanager
def postgres(url: str | None) -> Iterator[Postgres]:
    """The given server, or a throwaway cluster (tests/pg_cluster.sh) with durable commits."""
    if url:
        yield Postgres(url, _postmaster_of(url), throwaway=False)
        return
    script = ["sh", str(ROOT / "tests" / "pg_cluster.sh")]
    folder = tempfile.mkdtemp(prefix="tripeaks-load-pg-")
    try:
        started = subprocess.run(
            [*script, "start", folder],
            env={**os.environ, "PG_FSYNC": "on"},  # durable commits, as on a real server
            capture_output=True,
            text=True,
        )
        if started.returncode != 0:
            raise SystemExit(f"load.py: no PostgreSQL cluster: {started.stderr.strip()}")
        postmaster = int((Path(folder) / "data" / "postmaster.pid").read_text().split()[0])
        yield Postgres(started.stdout.strip().splitlines()[-1], postmaster, throwaway=True)
    finally:
        subprocess.run([*script, "stop", folder], check=False)


def _wait_for_workers(serve: int, workers: int) -> None:
    """With --workers N, until uvicorn's supervisor has all N children (at most 30 s)."""
    deadline = time.monotonic() + 30
    while workers > 1 and time.monotonic() < deadline:
        if sum(p.role == "worker" for p in server_parts(serve, workers)) >= workers:
            return
        time.sleep(0.1)


def _row(step: Step) -> str:
    server = step.per_action(step.cpu_of("worker", "supervisor", "solver", "resource"))
    measured = any(part.role.startswith("postgres") for part in step.cpu)
    pg = f"{step.per_action(step.cpu_of('postgres')):8.0f}" if measured else "       -"
    return (
        f"  {step.players:7}  {step.rate:9.0f}  {step.p(0.5) * 1e3:7.2f}  {step.p(0.99) * 1e3:7.2f}"
        f"  {step.errors:6}  {step.tally.refused:7}  {server:8.0f}  {pg}"
        f"  {step.per_action(step.generator):9.0f}  {split(step):>11}"
        + (f"  {step.tally.errors}" if step.errors else "")
    )


def split(step: Step) -> str:
    """Each worker's share of the workers' CPU, in %: several workers take connections from one
    listening socket as the kernel hands them out, and a closed loop keeps few connections."""
    shares = sorted((part.pid, cpu) for part, cpu in step.cpu.items() if part.role == "worker")
    total = sum(cpu for _pid, cpu in shares)
    if len(shares) < 2 or not total:
        return "-"
    return "/".join(f"{100 * cpu / total:.0f}" for _pid, cpu in shares)


HEADER = (
    "  players  actions/s   p50 ms   p99 ms  errors  refused    CPU µs an action:"
    "               workers'\n"
    "                                                          server  postgres  generator"
    "  CPU split %"
)


def _cpu_lines(step: Step) -> list[str]:
    """Each worker on its own line, the rest by role, in µs of CPU per counted action."""
    lines = []
    for part, cpu in sorted(step.cpu.items(), key=lambda item: (item[0].role, item[0].pid)):
        if part.role in ("worker", "supervisor"):
            lines.append(f"    {part.role} {part.pid}".ljust(34) + f"{step.per_action(cpu):7.0f}")
    roles = sorted({part.role for part in step.cpu} - {"worker", "supervisor"})
    for role in roles:
        count = sum(part.role == role for part in step.cpu)
        total = step.cpu_of(role)
        lines.append(f"    {role} ({count})".ljust(34) + f"{step.per_action(total):7.0f}")
    lines.append(
        "    generator (this process)".ljust(34) + f"{step.per_action(step.generator):7.0f}"
    )
    server = step.cpu_of("worker", "supervisor", "solver", "resource") + step.cpu_of("postgres")
    if server:
        us = step.per_action(server)
        lines.append(
            f"    server in all (app + database) {us:.0f} µs an action: one core fully used"
            f" would serve about {1e6 / us:.0f} actions/s"
        )
    return lines


RATIOS = {"pg1": ("sqlite", 0.7), "pg2": ("pg1", 1.3), "sqlite": ("before", 1.0)}
"""The targets that compare two configurations of one round: (the other, the least ratio)."""


def _target(name: str, best: dict[str, Step | None]) -> str:
    def judged(goal: float) -> str:
        step = best.get(name)
        met = step is not None and step.rate >= goal
        return "met" if met else "not met"

    if name == "sqlite":
        line = f"target ≥ {OLD_SQLITE}/s, the figure before (20 players, p99 13.5 ms): {judged(OLD_SQLITE)}"
        other, least = RATIOS[name]
        before = best.get(other)
        if before is not None:
            goal = least * before.rate
            line += f"; ≥ the build before on this machine, {goal:.0f}/s: {judged(goal)}"
        return line
    if name == "before":
        return "the build before (--before), beside ours on this machine"
    if name not in RATIOS:
        return "no target (for projecting past two cores)"
    other, least = RATIOS[name]
    what = "within 30% of SQLite" if name == "pg1" else f"≥ {least:g} × 1 worker"
    step = best.get(other)
    if step is None:
        return f"target: {what} (not measured in this run)"
    goal = least * step.rate
    if name == "pg1":
        return f"target {what}: ≥ {goal:.0f}/s: {judged(goal)}"
    return f"target {what} = {goal:.0f}/s: {judged(goal)}"


@contextmanager
def started(
    config: Config, db: Path | str, postmaster: int | None, args: argparse.Namespace
) -> Iterator[tuple[str, Callable[[], list[Part]]]]:
    """One configuration's server, started and its workers up: its base URL, and its processes
    (with PostgreSQL's) for the CPU figures."""
    options = ("--workers", str(config.workers)) if config.workers > 1 else ()
    root = Path(args.before) if config.name == "before" else ROOT
    with serving(db, root=root, options=options) as (base, pid):
        _wait_for_workers(pid, config.workers)

        def parts() -> list[Part]:
            found = server_parts(pid, config.workers)
            return found + (postgres_parts(postmaster) if postmaster else [])

        yield base, parts


async def search(
    base: str,
    parts: Callable[[], list[Part]],
    players: list[int] | None,
    args: argparse.Namespace,
    show: Callable[[Step], None],
    turn: asyncio.Lock | None = None,
) -> list[Step]:
    """A started server's warm-up and search, each step printed by ``show``; with ``turn``, each
    step (and the warm-up) holds it, so that searches run side by side take their steps in turn."""

    async def held(step: Awaitable[Step]) -> Step:
        if turn is None:
            return await step
        async with turn:  # asyncio's lock hands over in the order asked: the searches alternate
            return await step

    # Games played to their end first, so each worker's solver process (verdicts) and its
    # database connections are there before anything is counted.
    await held(closed_step(base, 8, WARM_SERVER, 0.0, parts, seed=10**6))

    def one(n: int) -> Awaitable[Step]:
        return held(closed_step(base, n, args.seconds, args.warmup, parts, seed=n * 1000))

    return await find_throughput(one, players, args.most, args.refine, show)


def measure(
    config: Config,
    db: Path | str,
    postmaster: int | None,
    players: list[int] | None,
    args: argparse.Namespace,
) -> list[Step]:
    """One configuration's server, started for it, through the search; each step printed."""
    with started(config, db, postmaster, args) as (base, parts):

        def show(step: Step) -> None:
            print(_row(step), flush=True)

        return asyncio.run(search(base, parts, players, args, show))


def side_by_side(
    names: list[str], stack: ExitStack, pg: Any, players: list[int] | None, args: argparse.Namespace
) -> dict[str, Step | None]:
    """Every configuration's server started at once and their searches run together, one step
    at a time in turn: a ratio of two configurations then compares steps taken seconds apart, not
    minutes (on a shared machine the speed can change by a third between minutes). The servers
    not being measured sit idle. Each configuration's steps are printed once all are done."""
    with ExitStack() as servers:
        found: dict[str, tuple[str, Callable[[], list[Part]]]] = {}
        for name in names:
            db, postmaster = _database(name, stack, pg)
            found[name] = servers.enter_context(started(CONFIGS[name], db, postmaster, args))
        rows: dict[str, list[Step]] = {name: [] for name in names}

        async def together() -> list[list[Step]]:
            turn = asyncio.Lock()
            return await asyncio.gather(
                *(search(*found[name], players, args, rows[name].append, turn) for name in names)
            )

        load = os.getloadavg()
        searched = dict(zip(names, asyncio.run(together()), strict=True))
    after = os.getloadavg()
    best: dict[str, Step | None] = {}
    for name in names:
        _heading(name)
        for step in rows[name]:
            print(_row(step))
        best[name] = _report(name, best_of(searched[name]), best)
    print(f"  load average (1 min) before {load[0]:.2f}, after {after[0]:.2f} (all of them)")
    return best


def closed_loop(args: argparse.Namespace) -> None:
    names = [n.strip() for n in args.config.split(",") if n.strip()]
    if args.before and "before" not in names:
        names.insert(0, "before")  # first: the SQLite target compares with it in each round
    if "before" in names and not args.before:
        raise SystemExit("load.py: the 'before' configuration needs --before DIR")
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        raise SystemExit(f"load.py: unknown --config {unknown}; choose from {', '.join(CONFIGS)}")
    steps = [int(n) for n in args.steps.split(",")] if args.steps else None
    print(
        f"Closed loop: no think time; each server first plays {WARM_SERVER:g} s uncounted, then"
        f" each step {args.warmup:g} s warm-up and {args.seconds:g} s counted; the best"
        f" throughput with p99 < {BOUND * 1e3:.0f} ms and 0 errors."
        f" {os.cpu_count()} cores, shared by the generator (this process) and the server."
    )
    rounds: list[dict[str, Step | None]] = []
    with ExitStack() as stack:
        pg = stack.enter_context(postgres(args.pg)) if any(n != "sqlite" for n in names) else None
        if pg is not None:
            where = "given server" if not pg.throwaway else "throwaway cluster, fsync=on"
            print(f"PostgreSQL: {where}; its CPU {'measured' if pg.postmaster else 'not measured'}")
        for round_ in range(args.rounds):
            if args.rounds > 1:
                print(f"\nRound {round_ + 1} of {args.rounds}")
            best: dict[str, Step | None] = {}
            if args.side_by_side:
                best = side_by_side(names, stack, pg, steps, args)
            else:
                for name in names:
                    best[name] = one_config(name, stack, pg, steps, args, best)
            rounds.append(best)
            print("\nSummary (best throughput with p99 < 50 ms and 0 errors):")
            for name in names:
                top = best[name]
                figure = (
                    f"{top.rate:6.0f}/s at {top.players:3} players, p99 {top.p(0.99) * 1e3:5.2f} ms"
                    if top
                    else "   none"
                )
                print(f"  {name:6}  {figure}   {_target(name, best)}")
    if args.rounds > 1:
        print("\n".join(rounds_summary(names, rounds)))


def _database(name: str, stack: ExitStack, pg: Any) -> tuple[Path | str, int | None]:
    """A fresh database for the configuration (a SQLite file, or a PostgreSQL database) and the
    PostgreSQL server's pid when its CPU can be read."""
    if CONFIGS[name].database == "SQLite":
        return Path(stack.enter_context(tempfile.TemporaryDirectory())) / "load.db", None
    assert pg is not None
    return pg.database(name), pg.postmaster


def _heading(name: str) -> None:
    config = CONFIGS[name]
    workers = f"{config.workers} worker" + ("s" if config.workers > 1 else "")
    print(f"\n{config.database}, {workers} [{name}]")
    print(HEADER)


def _report(name: str, top: Step | None, best: dict[str, Step | None]) -> Step | None:
    """The best step of a configuration, its target and its CPU by process."""
    if top is None:
        print("  no step had p99 < 50 ms and 0 errors")
    else:
        print(
            f"  best: {top.rate:.0f} actions/s at {top.players} players"
            f" (p50 {top.p(0.5) * 1e3:.2f} ms, p99 {top.p(0.99) * 1e3:.2f} ms, 0 errors)"
        )
        print(f"  {_target(name, {**best, name: top})}")
        print("  CPU µs an action at that step, by process:")
        print("\n".join(_cpu_lines(top)))
    return top


def one_config(
    name: str,
    stack: ExitStack,
    pg: Any,
    steps: list[int] | None,
    args: argparse.Namespace,
    best: dict[str, Step | None],
) -> Step | None:
    """One configuration's search, its best step printed with its target (``best`` holds this
    round's configurations before it, which the targets compare with)."""
    db, postmaster = _database(name, stack, pg)
    load = os.getloadavg()
    _heading(name)
    top = _report(name, best_of(measure(CONFIGS[name], db, postmaster, steps, args)), best)
    after = os.getloadavg()
    print(f"  load average (1 min) before {load[0]:.2f}, after {after[0]:.2f}")
    return top


def rounds_summary(names: list[str], rounds: list[dict[str, Step | None]]) -> list[str]:
    """Each configuration's best rate in every round and their median; and for the targets that
    compare two configurations, the ratio in each round (both measured minutes apart, so on the
    same machine's mood) and how many rounds met it. On a shared machine the rates of one
    configuration can differ by a third between rounds: the rounds and their median say more than
    any one of them."""

    def rate(round_: dict[str, Step | None], name: str) -> float:
        step = round_.get(name)
        return step.rate if step is not None else 0.0  # none passed: 0, which meets nothing

    lines = [f"\nRounds ({len(rounds)}; best actions/s with p99 < 50 ms and 0 errors):"]
    for name in names:
        rates = [rate(r, name) for r in rounds]
        each = ", ".join(f"{rate:.0f}" for rate in rates)
        line = f"  {name:6}  {each}   median {statistics.median(rates):.0f}"
        if name == "sqlite":
            met = sum(rate >= OLD_SQLITE for rate in rates)
            line += f"   ≥ {OLD_SQLITE}/s in {met} of {len(rounds)}"
        if name in RATIOS and RATIOS[name][0] in names:
            other, least = RATIOS[name]
            ratios = [rate(r, name) / rate(r, other) if rate(r, other) else 0.0 for r in rounds]
            met = sum(ratio >= least for ratio in ratios)
            line += (
                f"   × {other}: {', '.join(f'{ratio:.2f}' for ratio in ratios)},"
                f" median {statistics.median(ratios):.2f} (target ≥ {least:g}: met in {met}"
                f" of {len(rounds)})"
            )
        lines.append(line)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--seconds", type=float, help="how long (30 s; closed loop: a step, 3 s)")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=100.0,
        help="mean pause between a player's taps (uniform 0 to twice this); 0 for none",
    )
    parser.add_argument("--url", help="an already running server instead of starting one")
    loop = parser.add_argument_group("closed loop")
    loop.add_argument(
        "--closed-loop",
        action="store_true",
        help="no think time; step the players to find the throughput at p99 < 50 ms",
    )
    loop.add_argument(
        "--config",
        default="sqlite,pg1,pg2,pg4",
        help="which servers, of sqlite, pg1, pg2, pg4 (PostgreSQL with 1, 2, 4 workers) and before"
        " (another checkout, with --before)",
    )
    loop.add_argument("--pg", help="a PostgreSQL URL instead of a throwaway cluster")
    loop.add_argument(
        "--before",
        metavar="DIR",
        help="another checkout (its C modules built) served on SQLite in each round beside ours:"
        " the SQLite target measured against the build before on this machine",
    )
    loop.add_argument("--warmup", type=float, default=1.0, help="seconds not counted, each step")
    loop.add_argument("--steps", help="these numbers of players (1,8,20) instead of the search")
    loop.add_argument("--most", type=int, default=256, help="players the doubling stops at")
    loop.add_argument("--refine", type=int, default=2, help="bisections after the doubling")
    loop.add_argument(
        "--rounds", type=int, default=1, help="run the configurations this many times, in turn"
    )
    loop.add_argument(
        "--side-by-side",
        action="store_true",
        help="start every configuration's server at once and take their steps in turn",
    )
    args = parser.parse_args()
    _event_loop()
    gc.collect()
    gc.freeze()
    if args.closed_loop:
        if args.url:
            raise SystemExit(
                "load.py: --closed-loop starts its own servers (use --pg for a database)"
            )
        args.seconds = 3.0 if args.seconds is None else args.seconds
        closed_loop(args)
        return
    args.seconds = 30.0 if args.seconds is None else args.seconds
    think_time(args)


def think_time(args: argparse.Namespace) -> None:
    """The default: players who think between taps (figures compared with older versions)."""
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
