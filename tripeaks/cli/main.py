"""The ``tripeaks`` command: the browser app by default, and tools for deals in the terminal."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from tripeaks.cli.helptext import examples
from tripeaks.cli.refusal import Refused, engine_code, game_code
from tripeaks.engine.codes import GameCode, deal
from tripeaks.engine.game import Game
from tripeaks.i18n import LANGUAGES
from tripeaks.i18n.describe import describe


def format_deal(code: GameCode) -> str:
    """The full layout as docs/deal-format.md writes its vectors: every card, face down or not, row
    by row of the code's layout."""
    cards = deal(code)
    lines = [
        f"row {n}: " + " ".join(str(cards.tableau[p]) for p in row)
        for n, row in enumerate(code.layout.rows, start=1)
    ]
    lines.append(f"discard: {'empty' if cards.discard is None else cards.discard}")
    lines.append("stock, top first: " + " ".join(map(str, cards.stock)))
    return "\n".join(lines)


def cmd_deal(args: argparse.Namespace) -> int:
    print(format_deal(args.code))
    return 0


def cmd_describe(args: argparse.Namespace) -> int:
    print(describe(Game.new(args.code), args.lang))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from tripeaks.cli.terminal import play

    return play(args.code, args.lang, args.rules)


def cmd_migrate(args: argparse.Namespace) -> int:
    """Upgrade the database's schema to this version's (servers also do it at start)."""
    import os
    import sqlite3
    from pathlib import Path

    from tripeaks.cli import serve
    from tripeaks.i18n import system_language, translator
    from tripeaks.store import migrations

    say = translator(system_language())
    db: Path | str = args.db
    if db is None:
        named = os.environ.get(serve.DB_VARIABLE)
        db = serve.database(named) if named else serve.default_db()
    shown = db if isinstance(db, Path) else _redacted(db)
    claim = None
    if isinstance(db, Path):  # a server on the file owns it: it upgrades it itself at start
        try:
            claim, holder = serve.claim_database(db)
        except OSError as error:
            print(say("serve.no_database", db=shown, problem=serve._reason(error)), file=sys.stderr)
            return 1
        if claim is None:
            print(say("serve.db_in_use", db=shown, pid=holder), file=sys.stderr)
            return 1
    try:
        before, after = migrations.upgrade(db)
    except (migrations.NewerSchema, migrations.NotOurs, sqlite3.Error, OSError) as error:
        print(say("serve.no_database", db=shown, problem=serve._reason(error)), file=sys.stderr)
        return 1
    except Exception as error:
        import psycopg

        if not isinstance(error, psycopg.Error):
            raise
        problem = str(error).strip().splitlines()[0]  # as PgStore words it
        print(say("serve.no_database", db=shown, problem=problem), file=sys.stderr)
        return 1
    finally:
        if claim is not None:
            claim.close()
    if before == after:
        print(say("migrate.current", db=shown, revision=after))
    else:
        print(say("migrate.done", db=shown, before=before or say("migrate.empty"), after=after))
    return 0


def _redacted(url: str) -> str:
    from tripeaks.store.postgres import redacted

    return redacted(url)


def version() -> str:
    """The installed distribution's version: pyproject.toml's, its one source."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tripeaks")
    except PackageNotFoundError:  # the sources on sys.path, never installed
        return "unknown (not installed)"


EXIT_STATUSES = """exit status: 0 done; 1 refused what it met (a malformed or unoffered game code, a database
it cannot use), one line on stderr; 2 a usage error (an unknown option, a missing argument, a bad value)"""
"""What ``tripeaks --help`` says of exit statuses (README.md "The command line")."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tripeaks",
        description="TriPeaks solitaire",
        epilog="examples:\n  tripeaks                         # play in the browser\n"
        "  tripeaks solve TP1-C-AAAAAAB --json\n  tripeaks COMMAND --help\n\n" + EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tripeaks {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    deal_cmd = commands.add_parser(
        "deal",
        help="print every card of a deal",
        **examples("tripeaks deal TP1-E-AAAAAAB", "tripeaks deal TP1-VALLEY-E-AAAAAAB"),
    )
    deal_cmd.add_argument(
        "code",
        type=engine_code,
        help="a game code such as TP1-E-AAAAAAB, a long TP2-E-… code, or one on another layout"
        " (TP1-VALLEY-E-AAAAAAB)",
    )
    deal_cmd.set_defaults(run=cmd_deal)

    describe_cmd = commands.add_parser(
        "describe",
        help="the player's view of a new deal",
        **examples("tripeaks describe TP1-E-AAAAAAB --lang fi"),
    )
    describe_cmd.add_argument(
        "code", type=engine_code, help="a game code, TP1 or TP2, on any layout"
    )
    describe_cmd.add_argument("--lang", choices=LANGUAGES, default="en")
    describe_cmd.set_defaults(run=cmd_describe)

    play_cmd = commands.add_parser(
        "play",
        help="play in the terminal",
        **examples("tripeaks play", "tripeaks play TP1-C-AAAAAAB --lang ca"),
    )
    play_cmd.add_argument("code", nargs="?", type=game_code, default=None)
    play_cmd.add_argument("--lang", choices=LANGUAGES, default="en")
    play_cmd.add_argument("--rules", choices=["easy", "classic"], default="easy")
    play_cmd.set_defaults(run=cmd_play)

    from tripeaks.cli.serve import database

    migrate_cmd = commands.add_parser(
        "migrate",
        help="upgrade the database's schema (servers also do it at start)",
        **examples(
            "tripeaks migrate --db postgresql://tripeaks@db.internal/tripeaks",
            "TRIPEAKS_DB=/var/lib/tripeaks/tripeaks.db tripeaks migrate",
        ),
    )
    migrate_cmd.add_argument(
        "--db",
        type=database,
        default=None,
        metavar="FILE|URL",
        help="SQLite file or postgresql:// URL (default: as for serve)",
    )
    migrate_cmd.set_defaults(run=cmd_migrate)

    from tripeaks.cli.solve import add_commands

    add_commands(commands)

    from tripeaks.cli.journey import add_command as add_journey

    add_journey(commands)

    from tripeaks.cli.serve import add_command as add_serve

    add_serve(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; its exit status (EXIT_STATUSES). A reader that stops reading (``| head``)
    ends it quietly, as Python's documentation of SIGPIPE says: no traceback, status 1."""
    try:
        result = _run(argv)
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing left for the exit's flush to fail on
        return 1
    return result


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in ("-h", "--help", "--version")):
        words = ["serve", *words]  # the browser app is the default command
    try:
        args = parser.parse_args(words)
    except Refused as refused:  # a code the command refuses: one line, status 1
        print(f"tripeaks: {refused}", file=sys.stderr)
        return 1
    run = args.run
    result: int = run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
