"""bench/load.py's closed loop: which numbers of players it tries, which step it calls the best, and
whose CPU it reads. No timing is asserted: the steps here are made up, the processes real."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import load
import proctimes


def made_up(players: int, p99_ms_a_player: float, errors: int = 0) -> load.Step:
    """A step whose every action took players × p99_ms_a_player ms, 100 actions a player."""
    tally = load.Tally()
    tally.latencies = [players * p99_ms_a_player / 1000] * (100 * players)
    if errors:
        tally.errors = {"play 500": errors}
    return load.Step(players, 1.0, tally)


def search(p99_ms_a_player: float, players: list[int] | None = None, most: int = 256) -> list[int]:
    tried: list[int] = []

    async def step(n: int) -> load.Step:
        tried.append(n)
        return made_up(n, p99_ms_a_player)

    search = load.find_throughput(step, players, most, 2, lambda _: None)
    with ThreadPoolExecutor(1) as thread:  # its own loop: a browser test may hold this thread's
        thread.submit(asyncio.run, search).result()
    return tried


def test_players_double_until_p99_is_over_50_ms_twice_then_bisect_twice() -> None:
    # 3 ms a player: 16 players 48 ms (under), 32 and 64 over; then 24 and 20 (both over)
    assert search(3.0) == [1, 2, 4, 8, 16, 32, 64, 24, 20]
    # 1 ms a player: 32 under, 64 and 128 over; 48 under (48 ms), 56 over
    assert search(1.0) == [1, 2, 4, 8, 16, 32, 64, 128, 48, 56]


def test_one_step_over_the_bound_does_not_end_the_search() -> None:
    tried: list[int] = []

    async def step(n: int) -> load.Step:  # a stall at 2 players; else 3 ms a player
        tried.append(n)
        return made_up(n, 40.0 if n == 2 else 3.0)

    with ThreadPoolExecutor(1) as thread:
        found = thread.submit(
            asyncio.run, load.find_throughput(step, None, 256, 2, lambda _: None)
        ).result()
    assert tried == [1, 2, 4, 8, 16, 32, 64, 24, 20]
    assert load.best_of(found) is not None and load.best_of(found).players == 16  # type: ignore[union-attr]


def test_the_doubling_stops_at_most_and_given_players_are_tried_as_they_are() -> None:
    assert search(0.01, most=16) == [1, 2, 4, 8, 16]
    assert search(3.0, players=[20, 8]) == [20, 8]
    assert search(60.0) == [1, 2]  # over at once, twice: nothing to bisect


def test_searches_side_by_side_take_their_steps_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """--side-by-side: two servers' searches share one lock; while both search, their steps (and
    warm-ups) alternate, and the one that goes on longer finishes alone."""
    taken: list[tuple[str, int]] = []

    async def step(base: str, players: int, *_args: object, **_kwargs: object) -> load.Step:
        taken.append((base, players))
        for _ in range(1 if base == "fast" else 3):  # unlocked, fast would step ahead of slow
            await asyncio.sleep(0)
        return made_up(players, 1.0 if base == "fast" else 4.0)

    monkeypatch.setattr(load, "closed_step", step)
    args = argparse.Namespace(seconds=1.0, warmup=0.0, most=256, refine=2)

    async def both() -> list[list[load.Step]]:
        turn = asyncio.Lock()
        return await asyncio.gather(
            *(load.search(b, list, None, args, lambda _: None, turn) for b in ("fast", "slow"))
        )

    with ThreadPoolExecutor(1) as thread:
        fast, slow = thread.submit(asyncio.run, both()).result()
    bases = [base for base, _n in taken]
    shorter = 1 + min(len(fast), len(slow))  # each one's warm-up and steps
    assert bases[: 2 * shorter] == ["fast", "slow"] * shorter
    assert len(taken) == 2 + len(fast) + len(slow) and len(fast) > len(slow)
    assert set(bases[2 * shorter :]) == {"fast"}


def test_a_step_passes_only_under_50_ms_and_without_errors() -> None:
    assert made_up(16, 3.0).passes
    assert not made_up(17, 3.0).passes  # 51 ms
    assert not made_up(1, 3.0, errors=1).passes
    step = made_up(4, 3.0)
    assert step.actions == 400 and step.rate == 400.0
    # the best: the most actions a second among the passing steps, not the most players
    slow, fast, over, failing = made_up(8, 3.0), made_up(4, 3.0), made_up(32, 3.0), made_up(9, 1.0)
    slow.seconds = 4.0  # 800 actions in 4 s: 200/s; fast: 400/s
    failing.tally.errors = {"play 503": 1}
    assert load.best_of([slow, fast, over, failing]) is fast
    assert load.best_of([over]) is None


def test_the_split_shows_each_workers_share_of_the_workers_cpu() -> None:
    step = made_up(4, 3.0)
    step.cpu = {
        proctimes.Part(11, "worker"): 0.3,
        proctimes.Part(10, "worker"): 0.1,
        proctimes.Part(12, "worker"): 0.0,
        proctimes.Part(13, "solver"): 5.0,
    }
    assert load.split(step) == "25/75/0"  # by pid; the solver is not a worker
    step.cpu = {proctimes.Part(10, "worker"): 0.3}
    assert load.split(step) == "-"


def test_targets_follow_the_issue() -> None:
    best: dict[str, load.Step | None] = {"sqlite": made_up(10, 1.0), "pg1": None}
    best["sqlite"].seconds = 0.4  # type: ignore[union-attr]  # 1000 actions in 0.4 s: 2500/s
    assert load._target("sqlite", best).endswith(": met")
    assert "≥ 1750/s" in load._target("pg1", best)  # within 30% of SQLite
    assert "not measured" in load._target("pg2", best)
    best["before"] = made_up(10, 1.0)
    best["before"].seconds = 0.5  # type: ignore[union-attr]  # 2000/s
    assert load._target("sqlite", best).endswith("on this machine, 2000/s: met")
    best["before"].seconds = 0.3  # type: ignore[union-attr]  # 3333/s
    assert load._target("sqlite", best).endswith("on this machine, 3333/s: not met")


TREE = """
import subprocess, sys, time
if sys.argv[1] == "supervisor":
    subprocess.Popen([sys.executable, __file__, "worker-with-solver"])
    subprocess.Popen([sys.executable, __file__, "worker"])
elif sys.argv[1] == "worker-with-solver":
    subprocess.Popen([sys.executable, __file__, "solver"])
time.sleep(60)
"""


def test_the_server_tree_tells_workers_from_their_solvers(tmp_path: Path) -> None:
    """A supervisor with two workers, one with a process of its own: as uvicorn's ``--workers``
    and the solver's process pool make them."""
    (tmp_path / "tree.py").write_text(TREE)
    top = subprocess.Popen(
        [sys.executable, str(tmp_path / "tree.py"), "supervisor"], start_new_session=True
    )
    try:
        for _ in range(200):
            parts = proctimes.server_parts(top.pid, workers=2)
            if len(parts) == 4:
                break
            time.sleep(0.05)
        roles = {part.pid: part.role for part in parts}
        assert roles[top.pid] == "supervisor"
        assert sorted(roles.values()) == ["solver", "supervisor", "worker", "worker"]
        solver = next(pid for pid, role in roles.items() if role == "solver")
        assert proctimes.stat(solver)[0] in roles  # type: ignore[index]  # a worker's child
        # one worker: the process itself is the worker, everything below it the solver's
        alone = sorted(part.role for part in proctimes.server_parts(top.pid, workers=1))
        assert alone == ["solver", "solver", "solver", "worker"]
        before = proctimes.sample(parts)
        assert set(before) == set(parts) and all(cpu >= 0 for cpu in before.values())
    finally:
        os.killpg(top.pid, signal.SIGKILL)
        top.wait()
    gone = proctimes.sample(parts)
    assert top.pid not in {part.pid for part in gone}


def test_rounds_give_each_rate_its_median_and_the_ratios_round_by_round() -> None:
    def rated(rate: float) -> load.Step:
        step = made_up(10, 1.0)  # 1000 actions
        step.seconds = 1000 / rate
        return step

    rounds: list[dict[str, load.Step | None]] = [
        {"sqlite": rated(2400), "pg1": rated(2000), "pg2": rated(2800)},
        {"sqlite": rated(1500), "pg1": rated(1000), "pg2": rated(1400)},
        {"sqlite": rated(2000), "pg1": rated(1500), "pg2": None},
    ]
    lines = load.rounds_summary(["sqlite", "pg1", "pg2"], rounds)
    sqlite, pg1, pg2 = lines[1:]
    assert "2400, 1500, 2000   median 2000" in sqlite
    assert f"≥ {load.OLD_SQLITE}/s in 1 of 3" in sqlite
    assert "× sqlite: 0.83, 0.67, 0.75, median 0.75 (target ≥ 0.7: met in 2 of 3)" in pg1
    assert "2800, 1400, 0   median 1400" in pg2  # a round with no passing step counts as 0
    assert "× pg1: 1.40, 1.40, 0.00, median 1.40 (target ≥ 1.3: met in 2 of 3)" in pg2
    for each, rate in zip(rounds, (2300, 1600, 1900), strict=True):
        each["before"] = rated(rate)
    sqlite = load.rounds_summary(["before", "sqlite"], rounds)[2]
    assert "× before: 1.04, 0.94, 1.05, median 1.04 (target ≥ 1: met in 2 of 3)" in sqlite
