"""Time the engine replaying whole games: Game.apply per action, and games replayed a second.

    PYTHONPATH=$PWD .venv/bin/python bench/engine.py [--games 2000] [--rounds 3] [--baseline REV]

The lines are the solver's: the best win of each of the bench's fixed Easy deals (bench/reference.py
``fixed_codes``), or for a deal that cannot be won a seeded random line of legal moves to its end;
after every 7th action of a line an ``undo`` and the same action again, so that undo is timed too.
Prints the median and p99 of one ``Game.apply`` (wall clock, nanoseconds) and games/s for
``Game.replay`` of every line (the code dealt, then every action applied), by the wall clock and a
second of the process's CPU time (steadier on a shared machine), the median of the rounds.

With ``--baseline REV`` the same lines are replayed, in the same run, by the engine of git revision
REV too (its ``tripeaks`` package extracted into a temporary directory): the two engines take turns
round by round, each in its own process, so both see the same machine. Figures only: nothing here
asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def make_lines(games: int) -> list[tuple[str, list[str]]]:
    """(code, actions) for ``games`` fixed deals: the solver's best win, else a random line."""
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT))
    from reference import fixed_codes

    from tripeaks.engine.game import Game
    from tripeaks.engine.rules import Rules
    from tripeaks.solver.search import solve

    rng = random.Random(38)
    lines: list[tuple[str, list[str]]] = []
    for code in fixed_codes(games, Rules.EASY):
        solution = solve(code)
        if solution.winnable:
            steps = [str(a) for a in solution.line]
        else:
            game, steps = Game.new(code), []
            while not game.is_over:
                moves = list(game.legal_moves())
                if not moves:
                    break
                move = rng.choice(moves)
                game.apply(move)
                steps.append(str(move))
        with_undo: list[str] = []
        for i, step in enumerate(steps, 1):
            with_undo.append(step)
            if i % 7 == 0 and i < len(steps):
                with_undo += ["undo", step]
        lines.append((str(code), with_undo))
    return lines


def child(path: Path) -> None:
    """Replay the lines of ``path`` with the engine on sys.path; print the figures as JSON."""
    from tripeaks.engine.game import Action, Game

    lines = [
        (code, [Action.parse(a) for a in actions]) for code, actions in json.loads(path.read_text())
    ]
    for code, actions in lines[:50]:  # warm the caches and the specialising interpreter
        Game.replay(code, actions)
    per_action: list[int] = []
    clock = time.perf_counter_ns
    for code, actions in lines:
        game = Game.new(code)
        apply = game.apply
        for action in actions:
            started = clock()
            apply(action)
            per_action.append(clock() - started)
    started, cpu = time.perf_counter(), time.process_time()
    for code, actions in lines:
        Game.replay(code, actions)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    print(
        json.dumps(
            {
                "per_action": per_action,
                "games_per_s": len(lines) / seconds,
                "games_per_cpu_s": len(lines) / cpu_seconds,
            }
        )
    )


def run(tree: Path, path: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(path)],
        env=env,
        cwd=tree,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, object] = json.loads(out)
    return result


def report(name: str, results: list[dict[str, object]]) -> None:
    per_action = sorted(t for r in results for t in r["per_action"])  # type: ignore[attr-defined]
    games = [float(r["games_per_s"]) for r in results]  # type: ignore[arg-type]
    cpu = [float(r["games_per_cpu_s"]) for r in results]  # type: ignore[arg-type]
    p99 = per_action[int(len(per_action) * 0.99)]
    print(
        f"{name:<10} apply median {statistics.median(per_action):6.0f} ns  p99 {p99:6.0f} ns"
        f"  ({len(per_action)} actions)   replay {statistics.median(games):5.0f} games/s wall,"
        f" {statistics.median(cpu):5.0f} a CPU second (best round {max(cpu):.0f})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="a git revision whose engine runs beside this one")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "lines.json"
        lines = make_lines(args.games)
        path.write_text(json.dumps(lines))
        print(
            f"{len(lines)} lines, {sum(len(a) for _, a in lines)} actions; load {os.getloadavg()}"
        )
        trees = {"this": ROOT}
        if args.baseline:
            base = Path(tmp) / "baseline"
            base.mkdir()
            archive = subprocess.run(
                ["git", "archive", args.baseline, "tripeaks"],
                cwd=ROOT,
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            trees = {args.baseline: base, **trees}
        results: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
        for _ in range(args.rounds):
            for name, tree in trees.items():
                results[name].append(run(tree, path))
        for name in trees:
            report(name, results[name])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
