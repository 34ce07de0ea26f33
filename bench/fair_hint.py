"""The fair hint's honesty (issue 40): whole games played by following fair hints only.

    PYTHONPATH=. python bench/fair_hint.py [--rules easy|classic] [--games 1000 ...] [--samples 1000]
        [--winnable-only] [--workers 1] [--players played,today] [--seed 4 ...] [--fit]
        [--fit-from FILE ...] [--cross] [--out FILE]
        [--layout three_peaks] [--options DJOT]

Each of the bench's fixed deals (bench/reference.py fixed_codes, ``--seed`` 4, on ``--layout``
with the variant's ``--options``; with ``--winnable-only`` the first ``--games`` of them the exact
solver can win) is played to its end, until the table is empty (won) or no move is left (lost),
by players who make every move a hint names (seed 0):

- "played": the fair hint served (``explain.played_hint``, ``--samples`` samples a hint): the move
  after which the visible-card strategy wins most often on consistent deals; it states that share
  through its table's calibration map;
- "today": ``explain.solved_hint``, the sampling hint served before issue 40 (the move most
  consistent deals can still be won after, each solved exactly), with the 200 samples it was
  served with; it states that share;
- "tuned" (only when asked for): the fair hint with its plays made by bench/policy_study.py's
  tuned strategy instead of the visible-card strategy, a candidate policy measured for the share
  its followers win; it states its plays' share, through no map.

Every hint's stated chance is recorded with whether its game was won. Prints, figures only
(nothing here asserts):

(a) the calibration table of each player's stated chance: the stated chances in tenths, per tenth
    the hints, the stated mean, the share of those hints whose game was won and the difference
    (stated minus won); the issue's target is every tenth of 50 hints or more within 5 points;
    for "played" also the table of its raw share (before the map);
(b) on the same deals, random and the winnable ones apart: the share won by each follower, by the
    grades' visible-card strategy alone (explain.win_share: the mean over its 200 seeded plays of
    a deal, so the expected share of one play) and the perfect-information bound (the share of the
    deals the exact solver can win);
(c) each hint's cost: p50/p99 of the wall and this thread's CPU time of a hint, in ms.

The fair hint's stated chance is its recorded share through the map shipped now, so a refitted
map is checked on the games already played (the moves do not depend on the map). With ``--fit`` it
prints the calibration map fitted on the "played" games (the share of games won among the hints of
each share, by knots 0.05 apart, made non-decreasing; and the logistic curve of ``fit_logistic``,
for tables and options with fewer games), to be pasted into ``explain.CALIBRATION`` (or, for
an option or a combination of options, ``explain.OPTION_CALIBRATION``);
with ``--fit-from FILE ...`` the map fitted on those files' games instead: fit it on other deals
than the ones it is checked on (``--seed 5``, or the files of other seeds). With ``--cross`` and
several ``--seed``, it also prints (d): every seed's hints stated through a map fitted on the other
seeds' games only (share by share; on another table or with options also logistic), in one
table: the shipped map is fitted on all the seeds, and this is how it is checked on games it
never saw. On another table than Three Peaks, or with options, it also prints the largest gap of
the same games through the maps they would take otherwise (Three Peaks' of the rules; the table's
without options; for a combination of options, each of its options' own map).

Each game is one JSON line of ``--out`` (by default
bench/out/fair_hint-RULES[-OPTIONS][-LAYOUT][-winnable]-SEED.jsonl,
not kept in git): a run that stops is resumed by running it again (games already in the file are
not played again), and ``--workers`` processes play the games apart. The tables are of the
file's games among the asked ones. With several ``--seed``, each seed's games are played into
its own file and the tables are of all of them together (``--games`` of each seed).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import struct
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reference import fixed_codes

from tripeaks.engine.codes import GameCode
from tripeaks.engine.game import Game
from tripeaks.engine.layout import THREE_PEAKS, Layout
from tripeaks.engine.layouts import BY_ID
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver import explain, kernel
from tripeaks.solver import search as solver
from tripeaks.solver.compiled import strategy_tables

OUT = Path(__file__).resolve().parent / "out"


def codes(
    rules: Rules,
    games: int,
    winnable_only: bool,
    seed: int = 4,
    layout: Layout = THREE_PEAKS,
    options: str = "",
) -> list[GameCode]:
    """The asked deals, the same on every run: the first ``games`` fixed codes (on ``layout``,
    of the variant with ``options``), or with ``winnable_only`` the first ``games`` of them the
    exact solver wins."""
    batch = games
    variant = Variant(rules).with_options(options)
    while True:
        found = [
            GameCode(code.variant, code.letters, layout)
            for code in fixed_codes(batch, variant, seed)
        ]
        if winnable_only:
            found = [code for code in found if solver.is_winnable(code)]
        if len(found) >= games:
            return found[:games]
        batch *= 2


TODAY_SAMPLES = 200
"""The sampling hint's samples when it was served (it is measured as it was)."""


class TunedPlays:
    """The app's kernel with the fair hint's plays made by bench/policy_study.py's tuned strategy
    (its rollouts(), the weights fitted for the rules) instead of the visible-card strategy."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel

    def __getattr__(self, name: str) -> Any:
        return getattr(self.kernel, name)

    def rollouts(self, tableaux: bytes, stocks: bytes, rules: Rules, *rest: Any) -> list[int]:
        """The kernel's rollouts (same arguments), played out by the tuned strategy."""
        import policy_study  # it imports this module

        present, drawn, top, firsts, plays, seed, layout = rest
        weights = policy_study.TUNED.get(rules, policy_study.GREEDY)
        packed = struct.pack(f"{len(weights)}d", *weights)
        tables = strategy_tables(rules, layout)
        position = (present, drawn, top, plays, seed, firsts)
        return list(policy_study.built().rollouts(tableaux, stocks, *tables, *position, packed))


def tuned_hint(game: Game, samples: int) -> explain.PlayedHint:
    """The fair hint with its plays made by the tuned strategy: a candidate policy, measured for
    the share its followers win (its stated chance is its plays' share, through no map)."""
    served = kernel.KERNEL
    kernel.KERNEL = TunedPlays(served)
    try:
        return explain.played_hint(game, samples)
    finally:
        kernel.KERNEL = served


HINTS: dict[str, Callable[[Game, int], Any]] = {
    "played": lambda game, samples: explain.played_hint(game, samples),
    "today": lambda game, samples: explain.solved_hint(game, samples),
    "tuned": tuned_hint,
}
"""The players: how each asks for its hint."""


def samples_of(player: str, samples: int) -> int:
    """The samples ``player``'s hints are asked with: the fair hint's ``--samples``, the sampling
    hint's as it was served."""
    return TODAY_SAMPLES if player == "today" else samples


def play(code_text: str, samples: int, player: str) -> dict[str, Any]:
    """One game played by following every hint of ``player``: its code, whether it could be won
    at all, the visible-card strategy's share, whether it was won, and each hint as [stated
    chance, share before any map, cards left, stock left, wall ms, CPU ms]."""
    code = GameCode.parse(code_text)
    game = Game.new(code)
    hints: list[list[float]] = []
    while True:
        wall, cpu = time.perf_counter(), time.thread_time()
        hint = HINTS[player](game, samples)
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        if hint.move is None:
            break
        share = hint.chance if player == "today" else hint.share
        hints.append(
            [
                round(hint.chance, 4),
                round(share, 4),
                bin(game.present).count("1"),
                game.stock_size,
                round(wall * 1e3, 2),
                round(cpu * 1e3, 2),
            ]
        )
        game.apply(hint.move)
    return {
        "code": code_text,
        "player": player,
        "winnable": solver.is_winnable(code),
        "greedy": explain.win_share(code),
        "won": game.is_won,
        "samples": samples,
        "hints": hints,
    }


def _play(job: tuple[str, int, str]) -> dict[str, Any]:
    return play(*job)


def run(
    wanted: list[str], players: list[str], samples: int, out: Path, workers: int
) -> dict[tuple[str, str], dict[str, Any]]:
    """The rows of ``out`` for the ``wanted`` codes and ``players``, the missing ones played and
    appended; keyed by (player, code)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            if row["samples"] == samples_of(row.get("player", "today"), samples):
                rows[row.get("player", "today"), row["code"]] = row
    jobs = [
        (code, samples_of(player, samples), player)
        for player in players
        for code in wanted
        if (player, code) not in rows
    ]
    if jobs:
        print(f"playing {len(jobs)} games ({len(rows)} in {out})", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with out.open("a") as sink:
        played: Iterable[dict[str, Any]]
        if workers > 1:
            pool = multiprocessing.Pool(workers)
            played = pool.imap(_play, jobs)
        else:
            pool, played = None, map(_play, jobs)
        for n, row in enumerate(played, 1):
            sink.write(json.dumps(row, separators=(",", ":")) + "\n")
            sink.flush()
            rows[row["player"], row["code"]] = row
            if n % 50 == 0 or n == len(jobs):
                took = time.perf_counter() - started
                print(
                    f"  {n}/{len(jobs)} games, {took:.0f} s ({took / n:.2f} s a game)", flush=True
                )
        if pool is not None:
            pool.close()
            pool.join()
    return {
        (player, code): rows[player, code]
        for player in players
        for code in wanted
        if (player, code) in rows
    }


def calibration(pairs: list[tuple[float, bool, int]]) -> list[str]:
    """The table of (stated chance, game won, game) in tenths of the stated chance, with the games
        the hints of each tenth come from and a 95% interval of the share won, by resampling those
        games (the hints of one game are won or lost together, so a tenth is as sure as its games); then
    the largest gap of a tenth of 50 hints or more and the most such a tenth states above its share
    won (the issue's two targets: every such tenth within 5 points, none stating more than 5 above)."""
    lines = [
        "| stated | hints | games | stated mean | won | 95% interval | difference |",
        "|---|---|---|---|---|---|---|",
    ]
    worst = above = 0.0
    rng = random.Random(40)
    for tenth in range(10):
        low, high = tenth / 10, (tenth + 1) / 10
        inside = [(s, w, g) for s, w, g in pairs if low <= s < high or (tenth == 9 and s == 1.0)]
        if not inside:
            lines.append(f"| {low:.1f}-{high:.1f} | 0 | 0 | | | | |")
            continue
        stated = sum(s for s, _, _ in inside) / len(inside)
        won = sum(w for _, w, _ in inside) / len(inside)
        if len(inside) >= 50:
            worst, above = max(worst, abs(stated - won)), max(above, stated - won)
        by_game: dict[int, list[int]] = {}
        for _, w, g in inside:
            count = by_game.setdefault(g, [0, 0])
            count[0] += 1
            count[1] += w
        games = list(by_game.values())
        shares = []
        for _ in range(200):
            drawn = [games[rng.randrange(len(games))] for _ in games]
            shares.append(sum(c[1] for c in drawn) / sum(c[0] for c in drawn))
        shares.sort()
        lines.append(
            f"| {low:.1f}-{high:.1f} | {len(inside)} | {len(games)} | {stated:.1%} | {won:.1%} |"
            f" {shares[5]:.1%}-{shares[194]:.1%} | {(stated - won) * 100:+.1f} |"
        )
    certain = [w for s, w, _ in pairs if s == 1.0]
    if certain:
        lines.append(f"(exactly 100%: {len(certain)} hints, won {sum(certain) / len(certain):.1%})")
    lines.append(
        f"(largest gap in a tenth of 50 hints or more: {worst * 100:.1f} points;"
        f" most stated above the share won: {above * 100:+.1f})"
    )
    return lines


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def fit(pairs: list[tuple[float, bool]], steps: int = 20) -> tuple[float, ...]:
    """The calibration map: at each knot k / steps, the share won among the hints whose share is
    nearest that knot, then made non-decreasing (pool adjacent violators, weighted by hints); a
    knot no hint is nearest takes its neighbours' line."""
    counts, won = [0] * (steps + 1), [0.0] * (steps + 1)
    for share, w in pairs:
        k = round(share * steps)
        counts[k] += 1
        won[k] += w
    blocks: list[list[float]] = []  # [won, hints, knots]
    for k in range(steps + 1):
        if counts[k]:
            blocks.append([won[k], counts[k], 1])
            while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
                w2, n2, k2 = blocks.pop()
                blocks[-1] = [blocks[-1][0] + w2, blocks[-1][1] + n2, blocks[-1][2] + k2]
    means = [b[0] / b[1] for b in blocks for _ in range(int(b[2]))]
    seen = [k for k in range(steps + 1) if counts[k]]
    knots = []
    for k in range(steps + 1):
        if counts[k]:
            knots.append(means[seen.index(k)])
            continue
        below = max((j for j in seen if j < k), default=None)
        above = min((j for j in seen if j > k), default=None)
        if below is None or above is None:
            knots.append(means[seen.index(above if below is None else below)])
        else:
            low, high = means[seen.index(below)], means[seen.index(above)]
            knots.append(low + (high - low) * (k - below) / (above - below))
    return tuple(round(v, 3) for v in knots)


def fit_logistic(pairs: list[tuple[float, bool]], steps: int = 20) -> tuple[float, ...]:
    """The calibration map of a table with fewer games: the knots k / steps of the logistic curve
    chance = 1 / (1 + exp(-(a + b * logit(share)))) whose a and b are most likely to have given
    those hints' games won or lost (Newton's method on the log-likelihood; a share of 0 or 1 is
    taken as 0.0005 or 0.9995, half a play of 1,000 in from the end). Two numbers, not 21, so a
    few hundred games fit it; it never decreases while b > 0."""

    def logit(share: float) -> float:
        share = min(max(share, 0.0005), 0.9995)
        return math.log(share / (1 - share))

    xs = [(logit(share), float(w)) for share, w in pairs]
    a = b = 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in xs:
            p = 1 / (1 + math.exp(-(a + b * x)))
            ga, gb = ga + y - p, gb + (y - p) * x
            v = p * (1 - p)
            haa, hab, hbb = haa + v, hab + v * x, hbb + v * x * x
        det = haa * hbb - hab * hab
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return tuple(
        round(1 / (1 + math.exp(-(a + b * logit(k / steps)))), 3) for k in range(steps + 1)
    )


def stated(player: str, hint: list[float], code: GameCode) -> float:
    """The chance a hint states: the fair hint's share through the map shipped now for the deal's
    table and options (so a refitted map is checked on games already played: the moves do not
    depend on it), the sampling hint's as it was recorded."""
    if player != "played":
        return hint[0]
    return explain.calibrated(hint[1], code.rules, code.layout, code.options)


def report(rows: dict[tuple[str, str], dict[str, Any]], players: list[str], title: str) -> None:
    by = {p: [row for (q, _), row in rows.items() if q == p] for p in players}
    print(f"\n## {title}")
    for player in players:
        hints = [
            (h, row["won"], n, GameCode.parse(row["code"]))
            for n, row in enumerate(by[player])
            for h in row["hints"]
        ]
        print(f"\n(a) {player}: {len(by[player])} games, {len(hints)} hints; the stated chance:")
        print("\n".join(calibration([(stated(player, h, c), w, n) for h, w, n, c in hints])))
        if any(h[0] != h[1] for h, *_ in hints):
            print(f"\n    {player}: the share before the calibration map:")
            print("\n".join(calibration([(h[1], w, n) for h, w, n, _ in hints])))
    print("\n(b) Share won on the same deals:")
    names = " | ".join(f"{p} hint follower" for p in players)
    print(f"| deals | n | {names} | visible-card strategy | perfect information |")
    print("|---|---|" + "---|" * len(players) + "---|---|")
    first = by[players[0]]
    codes_ = {row["code"] for row in first}
    for player in players[1:]:
        codes_ &= {row["code"] for row in by[player]}
    for name, winnable in (("random", False), ("winnable", True)):
        chosen = sorted(
            code for code in codes_ if not winnable or rows[players[0], code]["winnable"]
        )
        if not chosen:
            continue
        n = len(chosen)
        shares = [sum(rows[p, c]["won"] for c in chosen) / n for p in players]
        greedy = sum(rows[players[0], c]["greedy"] for c in chosen) / n
        bound = sum(rows[players[0], c]["winnable"] for c in chosen) / n
        cells = " | ".join(f"{share:.1%}" for share in shares)
        print(f"| {name} | {n} | {cells} | {greedy:.1%} | {bound:.1%} |")
    print("\n(c) A hint's cost (ms):")
    for player in players:
        wall = [h[4] for row in by[player] for h in row["hints"]]
        cpu = [h[5] for row in by[player] for h in row["hints"]]
        print(
            f"    {player:6}  wall p50 {percentile(wall, 0.5):.1f}  p99 {percentile(wall, 0.99):.1f}"
            f"  max {max(wall, default=0):.1f} | CPU p50 {percentile(cpu, 0.5):.1f}"
            f"  p99 {percentile(cpu, 0.99):.1f}  max {max(cpu, default=0):.1f}"
        )
    print(f"    (load average now {os.getloadavg()[0]:.1f})")


def share_pairs(rows: Iterable[dict[str, Any]]) -> list[tuple[float, bool]]:
    """(share before the map, game won) of every hint of the fair hint's games among ``rows``:
    what a map is fitted on."""
    return [
        (h[1], row["won"])
        for row in rows
        if row.get("player", "today") == "played"
        for h in row["hints"]
    ]


def cross_check(
    by_seed: dict[int, list[dict[str, Any]]], rules: Rules, layout: Layout, options: str = ""
) -> None:
    """The calibration table of every seed's fair hints each stated through a map fitted on the
    other seeds' games only: every game is checked by a map that never saw it, and the table is of
    all of them together. On Three Peaks without options the map is fitted share by share, as
    shipped; elsewhere through both kinds of map (logistic and share by share), the one shipped
    being the one that came nearer."""
    kinds: list[tuple[str, Callable[[list[tuple[float, bool]]], tuple[float, ...]]]] = [
        ("share by share", fit)
    ]
    if layout is not THREE_PEAKS or options:
        kinds.insert(0, ("logistic", fit_logistic))
    seeds = ", ".join(map(str, by_seed))
    for name, fitter in kinds:
        pairs: list[tuple[float, bool, int]] = []
        for seed, checked in by_seed.items():
            others = share_pairs(row for s, rows in by_seed.items() if s != seed for row in rows)
            knots = fitter(others)
            first = len({n for _, _, n in pairs})
            pairs += [
                (explain.on_knots(knots, h[1]), row["won"], first + n)
                for n, row in enumerate(checked)
                for h in row["hints"]
            ]
        print(
            f"\n(d) Cross-check, seeds {seeds}: each seed's hints through a map fitted on the"
            f" others' ({name}):"
        )
        print("\n".join(calibration(pairs)))


def other_map(rows: list[dict[str, Any]], rules: Rules, layout: Layout, options: str) -> None:
    """On another table than Three Peaks or with options, the largest gap of the fair hint's
    ``rows`` stated through the maps they would take without their own (Three Peaks' of the rules,
    or the table's without options; for a combination of options on Three Peaks, also each of its
    options' own map): what the map shipped for them is set against."""
    if layout is THREE_PEAKS and not options:
        return
    other = layout if options else THREE_PEAKS
    name = "the table's map without options" if options else "Three Peaks' map of the rules"
    maps = [(name, explain.CALIBRATION[rules, other.id])]
    played = options.replace("T", "")
    if layout is THREE_PEAKS and len(played) > 1:
        maps += [
            (f"the map of {letter} alone", explain.OPTION_CALIBRATION[rules, letter])
            for letter in played
            if (rules, letter) in explain.OPTION_CALIBRATION
        ]
    for name, knots in maps:
        through = [
            (explain.on_knots(knots, h[1]), row["won"], n)
            for n, row in enumerate(rows)
            for h in row["hints"]
        ]
        print(f"\n    The same games through {name} (fitted on other games):")
        print("    " + calibration(through)[-1])


def fitting_rows(paths: list[Path], samples: int) -> list[dict[str, Any]]:
    """The fair hint's games (with ``samples`` samples) of the JSON-lines files ``paths``."""
    return [
        row
        for path in paths
        for row in map(json.loads, path.read_text().splitlines())
        if row.get("player") == "played" and row["samples"] == samples
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=("easy", "classic"), default="easy")
    parser.add_argument(
        "--games",
        type=int,
        nargs="+",
        default=[1000],
        help="games of each seed (one, or one a seed)",
    )
    parser.add_argument("--samples", type=int, default=explain.HINT_SAMPLES)
    parser.add_argument("--winnable-only", action="store_true")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--players", default="played,today", help="some of played, today and tuned")
    parser.add_argument(
        "--seed",
        type=int,
        nargs="+",
        default=[4],
        help="the deals' seed (fixed_codes); with several, their games are reported together",
    )
    parser.add_argument("--layout", choices=sorted(BY_ID), default=THREE_PEAKS.id)
    parser.add_argument("--options", default="", help="variant letters: D, J, O, T")
    parser.add_argument("--fit", action="store_true", help="print the calibration map fitted")
    parser.add_argument(
        "--fit-from",
        type=Path,
        nargs="+",
        default=None,
        help="fit the map on the fair hint's games of these files (other deals) instead",
    )
    parser.add_argument(
        "--cross",
        action="store_true",
        help="with several --seed: each seed's hints through a map fitted on the other seeds",
    )
    parser.add_argument("--out", type=Path, default=None, help="the JSON-lines file of games")
    args = parser.parse_args(argv)
    players = [p for p in args.players.split(",") if p]
    if not players or any(p not in HINTS for p in players):
        parser.error(f"--players: some of {', '.join(HINTS)}")
    if args.out and len(args.seed) > 1:
        parser.error("--out: with one --seed only")
    if args.cross and len(set(args.seed)) < 2:
        parser.error("--cross: with two --seed or more")
    if len(args.games) not in (1, len(args.seed)):
        parser.error("--games: one number, or one for each --seed")
    each = args.games * len(args.seed) if len(args.games) == 1 else args.games
    games = dict(zip(args.seed, each, strict=True))
    rules = Rules.EASY if args.rules == "easy" else Rules.CLASSIC
    winnable = "-winnable" if args.winnable_only else ""
    layout = BY_ID[args.layout]
    table = "" if layout is THREE_PEAKS else f"-{layout.id}"
    options = f"-{args.options.upper()}" if args.options else ""
    started = time.perf_counter()
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    by_seed: dict[int, list[dict[str, Any]]] = {}
    for seed in args.seed:
        out = args.out or OUT / f"fair_hint-{args.rules}{options}{table}{winnable}-{seed}.jsonl"
        found = codes(rules, games[seed], args.winnable_only, seed, layout, args.options.upper())
        these = run([str(code) for code in found], players, args.samples, out, args.workers)
        by_seed[seed] = [row for (player, _), row in these.items() if player == "played"]
        rows |= these
    took = time.perf_counter() - started
    kind = "winnable deals" if args.winnable_only else "random deals"
    seeds = ", ".join(map(str, args.seed))
    report(
        rows,
        players,
        f"{args.rules.capitalize()}{options} on {layout.id}, {kind}"
        f" (seed{'s' if len(args.seed) > 1 else ''} {seeds}), {args.samples} samples",
    )
    if args.cross:
        cross_check(by_seed, rules, layout, args.options.upper())
    other_map(
        [row for rows in by_seed.values() for row in rows], rules, layout, args.options.upper()
    )
    if args.fit or args.fit_from:
        fitted = rows.values() if not args.fit_from else fitting_rows(args.fit_from, args.samples)
        pairs = share_pairs(fitted)
        where = "these games" if not args.fit_from else ", ".join(map(str, args.fit_from))
        played = args.options.upper().replace("T", "")
        key = f'(Rules.{rules.name}, "{played or layout.id}")'
        print(f"\nThe calibration maps fitted on {len(pairs)} played hints of {where}:")
        print(f"    share by share (isotonic): {key}: {fit(pairs)},")
        print(f"    logistic: {key}: {fit_logistic(pairs)},")
    print(f"\n(this run: {took:.0f} s wall, {args.workers} worker(s))")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
