"""The grades' cuts (issue 40): the first fair hint's share on winnable deals of every table.

    PYTHONPATH=. python bench/grade_bands.py [--deals 300] [--seed 40] [--workers 2]

For each layout and rules, the first ``--deals`` winnable deals of a fixed stream (bench/reference.py
fixed_codes on the layout, ``--seed``) get their first fair hint (explain.first_hint: the hint a
player is given at the deal's start). Prints, figures only, per table: the deals tried and won at
all, the median and the thirds of the hint's share (its plays won, before the calibration map,
which never decreases: so a band of shares is a band of stated chances), each with the chance it
states beside it, and then the ``explain.GRADE_BANDS`` those thirds make: a deal at or above the
upper third is Gentle, at or above the lower Medium, else Hard. A deal's grade is then the band its
first hint falls in, so the grade and the hint never disagree.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tripeaks.engine.codes import CODE_SPACE, GameCode, SplitMix64
from tripeaks.engine.layouts import BY_ID, LAYOUTS
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant
from tripeaks.solver import explain
from tripeaks.solver import search as solver


def table(job: tuple[str, str, int, int, str]) -> tuple[str, str, int, list[float]]:
    """One table's first ``deals`` winnable deals' first hints' shares, and the deals tried."""
    rules_name, layout_id, deals, seed, options = job
    rules, layout = Rules[rules_name], BY_ID[layout_id]
    variant = Variant(rules).with_options(options)
    rng = SplitMix64(seed)
    shares: list[float] = []
    tried = 0
    while len(shares) < deals:
        code = GameCode.from_number(rng.below(CODE_SPACE), variant, layout)
        tried += 1
        if solver.is_winnable(code):
            shares.append(explain.first_hint(code).share)
    return rules_name, layout_id, tried, sorted(shares)


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--variants",
        action="store_true",
        help="instead: the share of each grade under the shipped cuts with each option",
    )
    args = parser.parse_args(argv)
    if args.variants:
        return variants(args)
    jobs = [
        (rules.name, layout.id, args.deals, args.seed, "")
        for rules in (Rules.EASY, Rules.CLASSIC)
        for layout in LAYOUTS
    ]
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        found = pool.map(table, jobs)
    print("| rules | layout | deals tried | winnable | median | lower third | upper third |")
    print("|---|---|---|---|---|---|---|")
    bands = []
    for rules_name, layout_id, tried, shares in found:
        rules = Rules[rules_name]
        cells = [quantile(shares, q) for q in (0.5, 1 / 3, 2 / 3)]
        low, high = cells[1], cells[2]
        print(
            f"| {rules_name.lower()} | {layout_id} | {tried} | {len(shares)} | "
            + " | ".join(
                f"{c:.3f} ({explain.calibrated(c, rules, BY_ID[layout_id]):.0%})" for c in cells
            )
            + " |"
        )
        bands.append(f'    (Rules.{rules_name}, "{layout_id}"): ({high:.3f}, {low:.3f}),')
    print("\nexplain.GRADE_BANDS:\n" + "\n".join(bands))
    print(f"\n(this run: {time.perf_counter() - started:.0f} s wall, {args.workers} worker(s))")
    return 0


def variants(args: argparse.Namespace) -> int:
    """The share of each grade among the winnable deals of every table with each option that
    changes play (open peaks, an empty discard, the joker), under explain.GRADE_BANDS: the cuts
    are the plain variant's, so an option that makes deals easier has fewer Hard ones."""
    jobs = [
        (rules.name, layout.id, args.deals, args.seed, options)
        for options in ("O", "D", "J")
        for rules in (Rules.EASY, Rules.CLASSIC)
        for layout in LAYOUTS
    ]
    with multiprocessing.Pool(args.workers) as pool:
        found = pool.map(table, jobs)
    print("| variant | layout | winnable | gentle | medium | hard |")
    print("|---|---|---|---|---|---|")
    for (rules_name, layout_id, _, _, options), (_, _, _, shares) in zip(jobs, found, strict=True):
        gentle, medium = explain.GRADE_BANDS[Rules[rules_name], layout_id]
        n = len(shares)
        parts = (
            sum(c >= gentle for c in shares) / n,
            sum(medium <= c < gentle for c in shares) / n,
            sum(c < medium for c in shares) / n,
        )
        cells = " | ".join(f"{part:.0%}" for part in parts)
        print(f"| {rules_name[0]}-{options} | {layout_id} | {n} | {cells} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
