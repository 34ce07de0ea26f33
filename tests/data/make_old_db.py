"""Make a SQLite file with an OLD tripeaks, and record what that version reported about it.

Run it with the old checkout first on the path (see README.md here), e.g. for commit 23cbfb5:

    git worktree add --detach /work/wt-old 23cbfb5 && cp tripeaks/_search*.so /work/wt-old/tripeaks/
    PYTHONPATH=/work/wt-old:/work/wt-old/tests:tests python tests/data/make_old_db.py \
        tests/data/tripeaks-23cbfb5.db

(tests/schemas.py, of this checkout, says what a game's state is.) With ``--pg-schema URL OUT.json``
it records instead the
schema that the old PgStore made on an empty PostgreSQL database.

It imports the flat layout of those versions (tripeaks.store, tripeaks.codes ...), before the
packages by layer.

It writes the .db and a .json beside it: every game's log and state as the old version replayed
it, and each player's statistics as the old version computed them. It only uses what every
version since 23cbfb5 has (Store.create / apply / reset_results / results, stats.summarize);
``apply`` took a ``perform`` callback up to the store's rewrite.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from schemas import state
from winning import find_win

from tripeaks.codes import GameCode
from tripeaks.game import DRAW, UNDO, Action, Game
from tripeaks.rules import Rules
from tripeaks.stats import summarize
from tripeaks.store import Store

WIN = GameCode.parse("TP1-E-AAAAAAB")
"""Winnable (tests/winning.py finds a line); more deals come from the same search."""


class Old:
    """The old store through the calls every version has."""

    def __init__(self, path: Path) -> None:
        self.store = Store(path)
        self.perform = "perform" in inspect.signature(Store.apply).parameters
        self.games: dict[str, dict[str, object]] = {}

    def new(self, player: str, code: GameCode) -> str:
        record = self.store.create(player, code)
        game_id: str = record.id
        self.games[game_id] = {"player": player, "code": str(code)}
        return game_id

    def act(self, game_id: str, action: Action, request_id: str | None = None) -> None:
        player = str(self.games[game_id]["player"])
        version = len(self.store.actions(game_id))
        if self.perform:
            self.store.apply(game_id, player, action, version, lambda g, a: g.apply(a), request_id)
        else:
            self.store.apply(game_id, player, action, version, request_id)

    def play(self, game_id: str, line: list[Action], request_every: int = 0) -> None:
        for n, action in enumerate(line):
            rid = f"r-{game_id[:6]}-{n}" if request_every and n % request_every == 0 else None
            self.act(game_id, action, rid)


def winning(code: GameCode) -> list[Action]:
    line = find_win(Game.new(code))
    assert line is not None, code
    return line


def main(out: Path) -> None:
    if out.exists():
        out.unlink()
    old = Old(out)
    classic = GameCode(Rules.CLASSIC, WIN.letters)
    win = winning(WIN)

    # alice: a win with request ids, a touched game left for another (lost), one in progress
    a1 = old.new("alice", WIN)
    old.play(a1, win, request_every=3)
    a2 = old.new("alice", WIN)
    old.play(a2, [DRAW, DRAW, UNDO])
    a3 = old.new("alice", WIN)
    old.play(a3, [*win[:4], UNDO, win[3], DRAW], request_every=2)

    # bob: a loss (touched, left), a win, an untouched game left (not counted), one in progress
    b1 = old.new("bob", WIN)
    old.play(b1, win[:5])
    b2 = old.new("bob", WIN)
    old.play(b2, win)
    b3 = old.new("bob", WIN)
    b4 = old.new("bob", WIN)
    old.play(b4, [win[0]], request_every=1)

    # carol: Classic rules as well (totals are kept per rules), a reset in the middle
    c1 = old.new("carol", WIN)
    old.play(c1, win)
    old.store.reset_results("carol")
    c2 = old.new("carol", WIN)
    old.play(c2, win[:2])
    c3 = old.new("carol", classic)
    hard = winning(classic)
    old.play(c3, hard[:3])
    c4 = old.new("carol", classic)
    old.play(c4, hard)
    c5 = old.new("carol", WIN)
    old.play(c5, win)
    old.store.close()
    del b3  # left untouched: its state is recorded with the rest

    store = Store(out)  # what the old version reports about the file it made
    games = {}
    for game_id, row in old.games.items():
        log = store.actions(game_id)
        games[game_id] = {**row, **state(Game.replay(str(row["code"]), log))}
    players = sorted({str(row["player"]) for row in old.games.values()})
    stats = {}
    results = {}
    for player in players:
        log = store.results(player)
        results[player] = [[str(r.code), r.outcome, r.score] for r in log]
        stats[player] = {rules.name.lower(): asdict(summarize(log, rules)) for rules in Rules}
    store.close()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=Path(sys.modules["tripeaks"].__file__ or ".").parent,
        capture_output=True,
        text=True,
    ).stdout.strip()
    expected = {
        "made_by": commit,
        "in_progress": [a3, b4],
        "games": games,
        "results": results,
        "stats": stats,
    }
    out.with_suffix(".json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{out}{suffix}").exists()


def pg_schema(url: str, out: Path) -> None:
    """The schema the old PgStore makes on an empty database (tests/schemas.py on the path)."""
    from schemas import pg_schema as dump

    from tripeaks.store_pg import PgStore

    PgStore(url).close()
    out.write_text(json.dumps(dump(url), indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "--pg-schema":
        pg_schema(sys.argv[2], Path(sys.argv[3]))
    else:
        main(Path(sys.argv[1]))
