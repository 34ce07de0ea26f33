"""``tripeaks journey``: the journey's levels, and ``--make``, the tool that makes their data file
(tripeaks/journey/make.py; docs/journey.md)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from tripeaks.cli.helptext import examples
from tripeaks.journey import levels as journey_levels
from tripeaks.journey.levels import FILE, dumps, load
from tripeaks.journey.make import SEED, make

SHIPPED = Path(journey_levels.__file__).with_name(FILE)
"""The data file in the package, which ``--make`` writes and ``--check`` reads by default."""


def cmd_journey(args: argparse.Namespace) -> int:
    if not args.make:
        for level in load().levels:
            goal = "" if level.goal is None else f"  goal {level.goal.to_data()}"
            print(
                f"{level.number:4d}  {level.code!s:28} {level.grade.value:7} "
                f"best {level.best_score:4d}  fewest draws {level.fewest_draws:2d}{goal}"
            )
        return 0
    out: Path = args.out
    started = time.monotonic()
    journey = make(args.seed, args.count)
    text = dumps(journey)
    seconds = time.monotonic() - started
    if args.check:
        try:
            same = out.read_text(encoding="utf-8") == text
        except OSError:
            same = False
        if not same:
            print(f"tripeaks: {out} is not what --make makes (seed {args.seed})", file=sys.stderr)
            return 1
        print(f"{out}: the same as --make makes, {len(journey.levels)} levels ({seconds:.1f} s)")
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {len(journey.levels)} levels to {out} in {seconds:.1f} s")
    return 0


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def add_command(commands: Any) -> None:
    """Register ``journey`` on the ``tripeaks`` command's subparsers."""
    cmd = commands.add_parser(
        "journey",
        help="the journey's levels; --make makes their data file",
        **examples(
            "tripeaks journey",
            "tripeaks journey --make --check",
            "tripeaks journey --make --out /tmp/levels.json --count 14",
        ),
    )
    cmd.add_argument(
        "--make", action="store_true", help="make the levels (deterministic: the seed decides)"
    )
    cmd.add_argument(
        "--out",
        type=Path,
        default=SHIPPED,
        metavar="PATH",
        help="where --make writes, or what --check compares (default: the shipped file)",
    )
    cmd.add_argument(
        "--check",
        action="store_true",
        help="with --make: write nothing, exit 1 unless PATH is byte for byte what it makes",
    )
    cmd.add_argument("--seed", type=int, default=SEED, help=f"(default {SEED}, the shipped one)")
    cmd.add_argument(
        "--count", type=_count, default=None, help="only the plan's first COUNT levels"
    )
    cmd.set_defaults(run=cmd_journey)
