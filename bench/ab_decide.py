"""Two builds of the compiled solver side by side in one process, deal by deal: decide from a code.

    PYTHONPATH=<checkout> .venv/bin/python bench/ab_decide.py OLD.so NEW.so [--deals 1000]
        [--rules classic] [--rounds 3] [--draws 3000]

Loads both extension files (each its own copy of the module's state), then decides the bench's
fixed codes (bench/reference.py) in whole passes, one build's pass and then the other's (which
goes first alternates by round), so both see the same minutes of a shared machine and each its
own deals one after the other, as bench/solver.py does; prints each build's median / p99 / max
of the calling thread's CPU time and whether every verdict agreed. "winnable only" draws codes
from a seeded SplitMix64, each draw with one build and then the other (the same codes).
``--cold``: the deals the search decides alone, each after 4 MB have been written (what a
server process's other work does to the caches). Figures only.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from reference import fixed_codes

from tripeaks import solver
from tripeaks.codes import CODE_SPACE, SplitMix64
from tripeaks.rules import Rules


def load(path: str) -> ModuleType:
    name = "tripeaks._search"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def figures(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"median {1e6 * statistics.median(ordered):7.1f} µs  p99 {1e6 * p99:7.1f} µs"
        f"  max {1e6 * ordered[-1]:7.1f} µs"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--draws", type=int, default=3000)
    parser.add_argument("--rules", choices=["easy", "classic"], default="classic")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="also: each deal the search decides alone, after 4 MB written (caches cold)",
    )
    args = parser.parse_args(argv)
    rules = Rules.EASY if args.rules == "easy" else Rules.CLASSIC
    builds = {"old": load(args.old), "new": load(args.new)}
    shared = (
        solver._fits_table(rules),
        solver._LYING_UNDER_BYTES,
        solver._UNDER_BYTES,
        solver._NO_BRIDGE_BYTES,
        rules.wraps,
        solver.DECIDE_CAP,
    )
    numbers = [code.number for code in fixed_codes(args.deals, rules)]
    for module in builds.values():
        module.decide_deal(numbers[0], *shared)
    times: dict[str, list[float]] = {name: [] for name in builds}
    disagree = 0
    names = list(builds)
    for round_ in range(args.rounds):  # a whole pass over the codes with one, then the other
        verdicts: dict[str, list[bool]] = {}
        for name in names if round_ % 2 == 0 else names[::-1]:
            module, verdicts[name] = builds[name], []
            for number in numbers:
                cpu = time.thread_time()
                verdicts[name].append(module.decide_deal(number, *shared)[0])
                times[name].append(time.thread_time() - cpu)
        disagree += sum(a != b for a, b in zip(*verdicts.values(), strict=True))
    print(f"{args.rules}, decide from a code, {args.rounds} passes of {len(numbers)} deals each:")
    for name in builds:
        print(f"  {name}: {figures(times[name])}")
    print(f"  verdicts that differ: {disagree}")
    if args.cold:
        searched = [n for n in numbers if not builds["old"].decide_deal(n, *shared)[1]]
        cold: dict[str, list[float]] = {name: [] for name in builds}
        sweep = bytearray(4 << 20)
        for i, number in enumerate(searched * 2):
            turn = list(builds.items())
            for name, module in turn if i % 2 else turn[::-1]:
                sweep[::64] = bytes(len(sweep) // 64)  # out of the caches: as after other work
                cpu = time.thread_time()
                module.decide_deal(number, *shared)
                cold[name].append(time.thread_time() - cpu)
        print(f"  cold caches, the {len(searched)} deals the search decides, twice each:")
        for name in builds:
            print(f"  {name}: {figures(cold[name])}")
    if not args.draws:
        return 0
    draws: dict[str, list[float]] = {name: [] for name in builds}
    rngs = {name: SplitMix64(7) for name in builds}  # the same codes for both, draw by draw
    for _ in range(args.draws):
        for name, module in builds.items():
            rng = rngs[name]
            cpu = time.thread_time()
            while not module.decide_deal(rng.below(CODE_SPACE), *shared)[0]:
                pass
            draws[name].append(time.thread_time() - cpu)
    print(f"  winnable only, {args.draws} draws each (the same codes):")
    for name in builds:
        print(f"  {name}: {figures(draws[name])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
