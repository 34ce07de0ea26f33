"""bench/locustfile.py plays against a real server: locust, headless, for a few seconds.

Run as its own process (locust patches the standard library with gevent, which must not happen in
pytest's), against ``tripeaks serve`` on loopback; its final statistics come from ``--json-file``.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from served import ROOT, serving

# a load run against a real server: a quick run (`-m 'not slow'`) skips it
pytestmark = pytest.mark.slow

USERS = 4


def test_locust_players_play_whole_games_without_a_failure(tmp_path: Path) -> None:
    # 8 s, not 3: on a loaded machine locust's own start took most of 3 s and counted nothing
    db = tmp_path / "locust.db"
    with serving(db) as served:
        run = subprocess.run(
            [
                *(sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "locustfile.py")),
                *("--headless", "--host", served.url, "--users", str(USERS)),
                *("--spawn-rate", str(USERS), "--run-time", "8s", "--think-ms", "20"),
                *("--json-file", str(tmp_path / "stats"), "--only-summary", "--skip-log"),
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stdout + run.stderr  # locust exits 1 on any failure
    stats = {entry["name"]: entry for entry in json.loads((tmp_path / "stats.json").read_text())}
    assert {"/api/games", "/api/games/[id]/play", "/api/games/[id]/draw"} <= set(stats)
    assert sum(entry["num_failures"] for entry in stats.values()) == 0
    assert all(entry["num_requests"] > 0 for entry in stats.values())
    assert stats["/api/games/[id]/play"]["num_requests"] >= 20  # a few games' worth, not a stray
    with sqlite3.connect(db) as connection:
        games, players = connection.execute(
            "SELECT count(*), count(DISTINCT player) FROM games"
        ).fetchone()
    # Each user kept its cookie: one player each, every game it started stored (at most one
    # more each, answered after locust stopped counting).
    assert players == USERS
    started = stats["/api/games"]["num_requests"]
    assert started <= games <= started + USERS
