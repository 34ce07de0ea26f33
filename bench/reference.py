"""The plain reference search the solver is checked against: kept deliberately simple.

A 0-1 breadth-first search over (removed-card set, stock index, discard rank): plays cost nothing and
draws cost one, so states are reached in order of draws and the first win found has the fewest draws.
No pruning, no move ordering, no cleverness: if the fast solver disagrees with this, the solver is wrong.

It knows the variants from the Deal alone: an empty discard (the Deal's discard is None) and a joker
(rank 0 in the stock) are a discard rank of 0, WILD, on which any card goes; open peaks deals the
same cards and frees them the same way (a card needs both covering cards gone), so it changes nothing
here. The traditional scoring is not its question (its best is not the fewest draws).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import deque
from dataclasses import asdict, dataclass
from pathlib import Path

from tripeaks.engine.codes import CODE_SPACE, Deal, GameCode, SplitMix64, deal
from tripeaks.engine.layout import ALL_MASK, COVERED_BY_MASK, TABLEAU_SIZE
from tripeaks.engine.rules import Rules
from tripeaks.engine.variant import Variant

WILD = 0
"""The discard rank of an empty discard or a joker: any card goes on it."""


@dataclass(frozen=True)
class Verdict:
    """What the reference knows about a deal: the fewest draws of a win, or the most cards removed."""

    winnable: bool
    draws: int | None
    max_removed: int


def reference_search(
    cards: Deal,
    rules: Rules,
    *,
    removed: int = 0,
    drawn: int = 0,
    top: int | None = None,
) -> Verdict:
    """Search every reachable state from (removed, drawn, top); ``top`` defaults to the deal's discard
    (WILD when it is empty)."""
    ranks = [card.rank for card in cards.tableau]
    stock = [card.rank for card in cards.stock]  # a joker is rank 0: WILD once drawn
    fitting = {
        on: [pos for pos in range(TABLEAU_SIZE) if on == WILD or rules.fits(ranks[pos], on)]
        for on in range(14)
    }
    if top is None:
        top = WILD if cards.discard is None else cards.discard.rank
    start = (removed, drawn, top)
    cost = {start: 0}
    queue = deque([start])
    done = set()
    most = bin(removed).count("1")
    while queue:
        state = queue.popleft()
        if state in done:
            continue
        done.add(state)
        gone, used, rank = state
        draws = cost[state]
        most = max(most, bin(gone).count("1"))
        if gone == ALL_MASK:
            return Verdict(True, draws, TABLEAU_SIZE)
        present = ALL_MASK & ~gone
        for pos in fitting[rank]:
            if present >> pos & 1 and not present & COVERED_BY_MASK[pos]:
                after = (gone | 1 << pos, used, ranks[pos])
                if after not in cost or cost[after] > draws:
                    cost[after] = draws
                    queue.appendleft(after)
        if used < len(stock):
            after = (gone, used + 1, stock[used])
            if after not in cost or cost[after] > draws + 1:
                cost[after] = draws + 1
                queue.append(after)
    return Verdict(False, None, most)


def fixed_codes(count: int, rules: Rules | Variant, seed: int = 4) -> list[GameCode]:
    """The bench's deals: the same ``count`` codes on every run, from a SplitMix64 seeded with 4
    (the variants' stored verdicts use other seeds, so that they are other deals)."""
    rng = SplitMix64(seed)
    return [GameCode.from_number(rng.below(CODE_SPACE), rules) for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    """Append the reference verdicts of the fixed codes to a JSON-lines file, one deal a line."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("output", type=Path)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--rules", choices=["easy", "classic"], default="easy")
    parser.add_argument("--skip", type=int, default=0, help="start after this many deals")
    parser.add_argument("--options", default="", help="variant letters: D, J, O (not T)")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    rules = Rules.EASY if args.rules == "easy" else Rules.CLASSIC
    if "T" in args.options.upper():
        parser.error("the traditional scoring's best is not the fewest draws")
    variant = Variant(rules).with_options(args.options.upper())
    with args.output.open("a") as out:
        for code in fixed_codes(args.deals, variant, args.seed)[args.skip :]:
            started = time.perf_counter()
            verdict = reference_search(deal(code), rules)
            seconds = time.perf_counter() - started
            row = {"code": str(code), **asdict(verdict), "seconds": round(seconds, 4)}
            out.write(json.dumps(row) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
