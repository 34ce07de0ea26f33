"""How strong can play be that sees only what a player sees (issue 40's stronger policy)?

    PYTHONPATH=. python bench/policy_study.py [--rules easy|classic] [--deals 500] [--seed 4]
        [--players greedy flat:1000 nested:200,10 ismcts:16000,0.7 ...] [--workers 1]
    PYTHONPATH=. python bench/policy_study.py [--rules easy|classic] --tune 600 --deals 20000 \
        --seed 100

Plays each of the bench's fixed deals (bench/reference.py fixed_codes, ``--seed``, Three Peaks, as
bench/fair_hint.py deals them) to its end with each of ``--players``, compiled in
bench/policy_study.c (built here into bench/out with the system's C compiler, as the app's own
extensions are). Every player decides from the visible position only; where it imagines the
hidden cards it deals the unseen ones at random (policy_study.c says how each plays):

- ``greedy``: the visible-card strategy the fair hint plays out (one play, ties at random);
- ``flat:K``: each legal move, the draw included, followed on K imagined deals by the greedy
  strategy; the move that wins most. The fair hint served is this with 1,000 samples, its moves
  screened by exact solves;
- ``nested:K,J``: as flat, followed by the flat player of J samples instead of the greedy one;
- ``ismcts:N,C``: information-set Monte Carlo tree search, N iterations, exploration C;
- ``endgame:U,K``: the flat player of K samples until at most U cards are unseen, then the best
  play there is for a player who sees only the face-up cards (exact expectimax over what the player
  sees); the decisions too large for its table (none, or their count printed) are the flat
  player's. Set beside ``flat:K`` on the same deals, it measures what the flat player loses once
  that few cards are unseen (both make the same moves before);
- ``tuned``: the greedy strategy's kind of choice (a fitting card, or a draw), made by a weighed
  sum of what the player sees of each move (policy_study.c names them), with the weights fitted for
  the rules (``TUNED``); ``tunedflat:K`` and ``tunedismcts:N,C``: flat and ismcts with their
  imagined deals played out by it instead of the greedy strategy.

With ``--tune ROUNDS`` it fits the tuned strategy's weights instead (``tune``): a random search
that keeps each step after which one play of each of ``--deals`` deals of ``--seed`` wins more,
checked on as many deals of the next seed; the weights it prints go into ``TUNED``.

Prints, figures only (nothing here asserts), per player: the share of the deals won and its 95%
Wilson interval, the share of the winnable ones won, and the CPU time of a game (median, p99),
beside the perfect-information bound (the share the exact solver can win) and, when
bench/fair_hint.py has played the same deals (its file in bench/out), the fair hint served; each
player's games gained and lost against it, deal by deal.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.util
import json
import multiprocessing
import os
import random
import struct
import subprocess
import sys
import sysconfig
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fair_hint import OUT, codes, percentile

from tripeaks.cli.solve import wilson_interval
from tripeaks.engine.codes import GameCode, deal
from tripeaks.engine.game import Game
from tripeaks.engine.rules import Rules
from tripeaks.solver import search as solver
from tripeaks.solver.compiled import strategy_tables

SOURCE = Path(__file__).resolve().parent / "policy_study.c"
KINDS = {
    "greedy": 0,
    "flat": 1,
    "nested": 2,
    "ismcts": 3,
    "endgame": 4,
    "tuned": 5,
    "tunedflat": 6,
    "tunedismcts": 7,
}
"""Each player's number in policy_study.c."""
NUMBERS = {"greedy": 0, "flat": 1, "nested": 2, "ismcts": 2, "endgame": 2, "tuned": 0}
NUMBERS |= {"tunedflat": 1, "tunedismcts": 2}
"""How many numbers each player takes."""
GREEDY = (0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0, -100.0, 0.0)
"""The tuned strategy's weights (policy_study.c, W_TURNED to W_STOCK) that play as the greedy one."""
TUNED = {
    Rules.EASY: (0.133, 0.111, 0.124, -0.63, 0.351, 0.2, -3.791, -4.656, -1.976),
    Rules.CLASSIC: (0.143, 0.025, 0.39, -0.386, 0.035, 0.092, -3.946, -5.724, -0.898),
}
"""The tuned strategy's weights of each rules, fitted by ``--tune 600 --deals 20000 --seed 100``
(2026-12-07; rounded to three places)."""
STEPS = (0.5, 0.5, 0.5, 0.3, 0.3, 0.1, 2.0, 0.5, 1.0)
"""The spread of ``--tune``'s random steps, weight by weight."""


@functools.cache
def built() -> ModuleType:
    """policy_study.c compiled into bench/out (again when the source is newer), imported."""
    target = OUT / f"_policy_study{sysconfig.get_config_var('EXT_SUFFIX')}"
    if not target.exists() or target.stat().st_mtime < SOURCE.stat().st_mtime:
        OUT.mkdir(parents=True, exist_ok=True)
        compiler = os.environ.get("CC", "cc")
        include = sysconfig.get_paths()["include"]
        command = [compiler, "-O3", "-shared", "-fPIC", f"-I{include}", str(SOURCE)]
        subprocess.run([*command, "-o", str(target), "-lm"], check=True)
    spec = importlib.util.spec_from_file_location("_policy_study", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def player(text: str) -> tuple[int, int, int, float]:
    """A ``--players`` entry as policy_study.c's (kind, a, b, c): ``greedy``, ``flat:K``,
    ``nested:K,J``, ``ismcts:N,C``, ``endgame:U,K``, ``tuned``, ``tunedflat:K`` or
    ``tunedismcts:N,C``."""
    name, _, numbers = text.partition(":")
    if name not in KINDS:
        raise argparse.ArgumentTypeError(f"unknown player {name!r}: one of {', '.join(KINDS)}")
    parts = numbers.split(",") if numbers else []
    wanted = NUMBERS[name]
    if len(parts) != wanted:
        raise argparse.ArgumentTypeError(f"{text!r}: {name} takes {wanted} number(s)")
    try:
        a = int(parts[0]) if parts else 0
        b = int(parts[1]) if name in ("nested", "endgame") else 0
        c = float(parts[1]) if name in ("ismcts", "tunedismcts") else 0.0
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None
    if (wanted and a < 1) or (name in ("nested", "endgame") and b < 1) or c < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the numbers must be positive")
    return KINDS[name], a, b, c


def arguments(
    code: GameCode,
    who: tuple[int, int, int, float],
    first: bool = False,
    game: Game | None = None,
    weights: Sequence[float] | None = None,
) -> tuple[Any, ...]:
    """policy_study.c's play() arguments for ``who`` at ``game``'s position (by default the
    start) of ``code``'s deal, seeded from the code (the same ties on every run); the tuned
    strategy's ``weights`` by default those fitted for the rules."""
    game, cards = game or Game.new(code), deal(code)
    seed = int.from_bytes(hashlib.blake2b(str(code).encode(), digest_size=8).digest(), "little")
    return (
        bytes(card.rank for card in cards.tableau),
        bytes(card.rank for card in cards.stock),
        *strategy_tables(code.rules, code.layout),
        game.present,
        game.drawn,
        game.top_rank,
        *who,
        seed,
        first,
        struct.pack(f"{len(GREEDY)}d", *(weights or TUNED.get(code.rules, GREEDY))),
    )


def _play(job: tuple[str, tuple[int, int, int, float]]) -> tuple[str, bool, float, int]:
    code, module = GameCode.parse(job[0]), built()
    cpu, gave_up = time.process_time(), module.gave_up()
    won = bool(module.play(*arguments(code, job[1])))
    return job[0], won, time.process_time() - cpu, module.gave_up() - gave_up


def served(rules: str, seed: int) -> dict[str, bool]:
    """Which deals the fair hint served won, from bench/fair_hint.py's file of the seed (if any)."""
    path = OUT / f"fair_hint-{rules}-{seed}.jsonl"
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines())
    return {row["code"]: row["won"] for row in rows if row.get("player") == "played"}


def tune(rules: Rules, deals: int, seed: int, rounds: int) -> tuple[float, ...]:
    """The tuned strategy's weights fitted to win most of ``deals`` of ``seed``, one play each
    (the same ties on every trial): a random search from the greedy strategy's, each round
    moving one to three weights by a normal step (``STEPS``, halved after 200 rounds) and kept when
    it wins more. Prints each step kept, then the share the weights win of as many other deals
    (``seed`` + 1) beside the greedy strategy's."""
    study, rng, who = built(), random.Random(1), player("tuned")
    dealt = [arguments(code, who) for code in codes(rules, deals, False, seed)]
    held = [arguments(code, who) for code in codes(rules, deals, False, seed + 1)]

    def share(weights: Sequence[float], games: list[tuple[Any, ...]]) -> float:
        packed = struct.pack(f"{len(weights)}d", *weights)
        return sum(study.play(*game[:-1], packed) for game in games) / len(games)

    best = [*GREEDY[:7], -4.0, 0.0]  # a draw a card could have been played on, worth trying
    top = share(best, dealt)
    print(f"{rules.name.lower()}, {deals} deals (seed {seed}): the greedy strategy wins {top:.2%}")
    for step in range(rounds):
        trial = list(best)
        for i in rng.sample(range(len(best)), rng.choice([1, 1, 2, 3])):
            trial[i] += rng.gauss(0, STEPS[i] * (1.0 if step < 200 else 0.5))
        won = share(trial, dealt)
        if won > top:
            best, top = trial, won
            print(f"{step}: {top:.2%} {[round(w, 3) for w in best]}", flush=True)
    fitted = tuple(round(w, 3) for w in best)
    print(
        f"weights {fitted}: {share(fitted, held):.2%} of {deals} other deals (seed {seed + 1}),"
        f" the greedy strategy {share(GREEDY, held):.2%}"
    )
    return fitted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=("easy", "classic"), default="easy")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--players", nargs="+", default=["greedy", "flat:1000"])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--tune", type=int, default=0, metavar="ROUNDS", help="fit the tuned strategy's weights"
    )
    args = parser.parse_args(argv)
    try:
        players = {text: player(text) for text in args.players}
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))
    rules = Rules.EASY if args.rules == "easy" else Rules.CLASSIC
    if args.tune:
        tune(rules, args.deals, args.seed, args.tune)
        return 0
    deals = [str(code) for code in codes(rules, args.deals, False, args.seed)]
    built()  # once, before any worker
    winnable = {code: solver.is_winnable(code) for code in deals}
    jobs = [(code, who) for who in players.values() for code in deals]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(_play, jobs, chunksize=4)
    hint = served(args.rules, args.seed)
    hint = {code: hint[code] for code in deals} if all(code in hint for code in deals) else {}
    n, solvable = len(deals), [code for code in deals if winnable[code]]
    print(
        f"{args.rules.capitalize()}, {n} random deals (seed {args.seed}), {len(solvable)} winnable"
    )
    print(
        "| player | won | 95% interval | winnable won | CPU a game p50 / p99 (ms) | vs fair hint |"
    )
    print("|---|---|---|---|---|---|")

    def row(name: str, won: dict[str, bool], cpu: list[float] | None) -> None:
        count = sum(won.values())
        low, high = wilson_interval(count, n)
        of_winnable = sum(won[code] for code in solvable) / max(1, len(solvable))
        took = f"{percentile(cpu, 0.5):.0f} / {percentile(cpu, 0.99):.0f}" if cpu else "-"
        versus = "-"
        if hint and cpu is not None:
            gained = sum(won[c] and not hint[c] for c in deals)
            lost = sum(hint[c] and not won[c] for c in deals)
            versus = f"+{gained} / -{lost}"
        print(
            f"| {name} | {100 * count / n:.1f}% | {100 * low:.1f}-{100 * high:.1f} |"
            f" {100 * of_winnable:.1f}% | {took} | {versus} |"
        )

    gave_up = []
    for k, name in enumerate(players):
        mine = results[k * n : (k + 1) * n]
        row(name, {code: won for code, won, *_ in mine}, [1e3 * cpu for _, _, cpu, _ in mine])
        if any(given for *_, given in mine):
            gave_up.append(f"{name}: {sum(given for *_, given in mine)} decisions past its table")
    if gave_up:
        print("(played as the flat player's: " + "; ".join(gave_up) + ")")
    if hint:
        row("fair hint served (bench/fair_hint.py)", hint, None)
    else:
        print(
            f"(the fair hint served: run bench/fair_hint.py --rules {args.rules} --seed {args.seed})"
        )
    row("perfect information", winnable, None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
