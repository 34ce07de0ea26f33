"""The ``tripeaks`` command: the browser app by default, and tools for deals in the terminal."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tripeaks.codes import GameCode, InvalidCode, deal
from tripeaks.game import Game
from tripeaks.i18n import LANGUAGES
from tripeaks.layout import ROWS


def _code(text: str) -> GameCode:
    try:
        return GameCode.parse(text)
    except InvalidCode as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def format_deal(code: GameCode) -> str:
    """The full layout as docs/deal-format.md writes its vectors: every card, face down or not."""
    cards = deal(code)
    lines = [
        f"row {n}: " + " ".join(str(cards.tableau[p]) for p in row)
        for n, row in enumerate(ROWS, start=1)
    ]
    lines.append(f"discard: {cards.discard}")
    lines.append("stock, top first: " + " ".join(map(str, cards.stock)))
    return "\n".join(lines)


def cmd_deal(args: argparse.Namespace) -> int:
    print(format_deal(args.code))
    return 0


def cmd_describe(args: argparse.Namespace) -> int:
    print(Game.new(args.code).describe(args.lang))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from tripeaks.terminal import play

    return play(args.code, args.lang, args.rules)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tripeaks", description="TriPeaks solitaire")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    deal_cmd = commands.add_parser("deal", help="print every card of a deal")
    deal_cmd.add_argument("code", type=_code, help="a game code such as TP1-E-AAAAAAB")
    deal_cmd.set_defaults(run=cmd_deal)

    describe_cmd = commands.add_parser("describe", help="the player's view of a new deal")
    describe_cmd.add_argument("code", type=_code)
    describe_cmd.add_argument("--lang", choices=LANGUAGES, default="en")
    describe_cmd.set_defaults(run=cmd_describe)

    play_cmd = commands.add_parser("play", help="play in the terminal")
    play_cmd.add_argument("code", nargs="?", type=_code, default=None)
    play_cmd.add_argument("--lang", choices=LANGUAGES, default="en")
    play_cmd.add_argument("--rules", choices=["easy", "classic"], default="easy")
    play_cmd.set_defaults(run=cmd_play)

    from tripeaks.solver_cli import add_commands

    add_commands(commands)

    from tripeaks.web.serve import add_command as add_serve

    add_serve(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in ("-h", "--help")):
        words = ["serve", *words]  # the browser app is the default command
    args = parser.parse_args(words)
    run = args.run
    result: int = run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
