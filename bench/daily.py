"""The daily board of a day with 100,000 finished ranked games: GET /api/daily/board timed.

Fills a fresh database (a temporary SQLite file, and PostgreSQL when ``--pg URL`` is given: a
new schema of its own in that database) with ``--games`` finished daily results for today directly
through SQL (a games row and a dailies row each, random figures), then asks for the board through
the whole app in this process (FastAPI's test client: routing, the store's reads, the reply) as
three players: one who has not played (the top 50 alone), one ranked in the middle and the one
ranked last (whose own rank counts every standing ahead). Prints the median and p99 of
``--requests`` requests for each; asserts nothing.

    PYTHONPATH=. python bench/daily.py [--pg postgresql://...] [--games 100000] [--requests 200]
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402

from tripeaks import daily  # noqa: E402
from tripeaks.web.api import daily as daily_routes  # noqa: E402
from tripeaks.web.app import create_app  # noqa: E402

COOKIE = "tripeaks_player"


def rows(count: int, day: str, code: str, rng: random.Random) -> list[tuple[Any, ...]]:
    """(game, player, score, moves, seconds, won) of ``count`` finished ranked attempts."""
    out = []
    for _ in range(count):
        won = rng.random() < 0.7
        score = rng.randint(600, 790) if won else rng.randint(300, 620)
        out.append(
            (
                secrets.token_urlsafe(24),
                secrets.token_urlsafe(24),
                score,
                rng.randint(35, 75),
                round(rng.uniform(40, 1200), 3),
                int(won),
            )
        )
    return out


def fill(store: Any, day: str, code: str, standings: list[tuple[Any, ...]]) -> None:
    """Straight into the tables, in one transaction (as many finished games would have left them)."""
    now = time.time()
    games = [(g, p, code, now, s, "won" if w else "stuck", w) for g, p, s, _m, _t, w in standings]
    dailies = [(g, day, p, w, s, m, t, now, now + t) for g, p, s, m, t, w in standings]
    with store._flushing, store._transaction() as db:
        many = getattr(db, "executemany", None)
        games_sql = (
            "INSERT INTO games (id, player, code, created_at, score, status, settled, version)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 0)"
        )
        dailies_sql = (
            "INSERT INTO dailies (game, day, player, ranked, finished, won, score, moves, seconds,"
            " first_at, last_at) VALUES (?, ?, ?, 1, 1, ?, ?, ?, ?, ?, ?)"
        )
        counts = Counter(s for _g, _p, s, _m, _t, _w in standings)
        scores_sql = "INSERT INTO daily_scores (day, score, players) VALUES (?, ?, ?)"
        scores = [(day, score, n) for score, n in counts.items()]
        if many is not None:  # sqlite3
            many(games_sql, games)
            many(dailies_sql, dailies)
            many(scores_sql, scores)
        else:  # psycopg, through the store's wrapper
            connection = db._connection  # type: ignore[attr-defined]
            with connection.cursor() as cursor:
                cursor.executemany(games_sql.replace("?", "%s"), games)
                cursor.executemany(dailies_sql.replace("?", "%s"), dailies)
                cursor.executemany(scores_sql.replace("?", "%s"), scores)


def analyze(store: Any) -> None:
    if store.shared:
        with store._pool.connection() as connection:
            connection.execute("VACUUM ANALYZE dailies")
    else:
        store._writer.execute("ANALYZE")


def timed(client: TestClient, requests: int) -> tuple[float, float, dict[str, Any]]:
    took = []
    reply: dict[str, Any] = {}
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get("/api/daily/board")
        took.append(time.perf_counter() - started)
        assert response.status_code == 200, response.text
        reply = response.json()
    took.sort()
    return statistics.median(took) * 1000, took[int(len(took) * 0.99) - 1] * 1000, reply


def bench(db: str | Path, label: str, games: int, requests: int) -> None:
    app = create_app(db)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        backend = app.state.backend
        day = daily.today()
        deal = backend.dailies.deal(day)
        rng = random.Random(15)
        standings = rows(games, day.isoformat(), str(deal.code), rng)
        started = time.perf_counter()
        fill(backend.store, day.isoformat(), str(deal.code), standings)
        analyze(backend.store)
        print(f"{label}: {games} finished dailies written in {time.perf_counter() - started:.1f} s")
        ordered = sorted(standings, key=lambda r: (-r[2], r[3], r[4]))
        viewers = {
            "no daily": None,
            "ranked in the middle": ordered[len(ordered) // 2][1],
            "ranked last": ordered[-1][1],
        }
        for who, player in viewers.items():
            client.cookies.clear()
            if player is not None:
                client.cookies.set(COOKIE, backend.identity.token(player))  # as the server signs it
            median, p99, reply = timed(client, requests)
            rank = reply["me"]["rank"] if reply["me"] else None
            print(
                f"  GET /api/daily/board, {who:<22} median {median:6.2f} ms  p99 {p99:6.2f} ms"
                f"  (rank {rank}, {reply['players']} players, {len(reply['top'])} rows)"
            )
            reads = []
            for _ in range(requests):  # the route's reads of the store alone, without HTTP
                started = time.perf_counter()
                daily_routes._board(backend.store, player, day, "en")
                reads.append(time.perf_counter() - started)
            reads.sort()
            print(
                f"    its reads of the store alone       median {statistics.median(reads) * 1000:6.2f} ms"
                f"  p99 {reads[int(len(reads) * 0.99) - 1] * 1000:6.2f} ms"
            )
        layout = []
        for _ in range(requests):
            started = time.perf_counter()
            client.get("/api/layout")
            layout.append(time.perf_counter() - started)
        print(
            f"  for scale, GET /api/layout (a constant reply)  median"
            f" {statistics.median(layout) * 1000:6.2f} ms"
        )


def fresh_schema(url: str) -> str:
    """The URL with a new, empty schema of its own as its search path (the run's own tables)."""
    import psycopg

    schema = f"bench_daily_{secrets.token_hex(6)}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")  # type: ignore[arg-type]
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options={quote(f'-csearch_path={schema}', safe='')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="a PostgreSQL URL (the run makes a schema of its own in it)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bench(Path(folder) / "games.db", "SQLite", args.games, args.requests)
    if args.pg:
        bench(fresh_schema(args.pg), "PostgreSQL", args.games, args.requests)


if __name__ == "__main__":
    main()
