"""``tripeaks serve`` (and plain ``tripeaks``): the app on loopback, opened in the default browser.

The same command hosts the game for many players (docs/deploy.md): every option can also come from
a ``TRIPEAKS_*`` environment variable (ENVIRONMENT), for containers and systemd units.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sqlite3
import sys
import threading
import time
import webbrowser
from collections.abc import Mapping
from ipaddress import ip_network
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tripeaks.i18n import system_language, translator

if TYPE_CHECKING:
    from tripeaks.web.hosting import Hosting

ENVIRONMENT: dict[str, str] = {
    "host": "TRIPEAKS_HOST",
    "port": "TRIPEAKS_PORT",
    "db": "TRIPEAKS_DB",
    "workers": "TRIPEAKS_WORKERS",
    "allowed_host": "TRIPEAKS_ALLOWED_HOSTS",
    "no_browser": "TRIPEAKS_NO_BROWSER",
    "behind_proxy": "TRIPEAKS_BEHIND_PROXY",
    "forwarded_allow_ips": "TRIPEAKS_FORWARDED_ALLOW_IPS",
    "max_connections": "TRIPEAKS_MAX_CONNECTIONS",
    "read_timeout": "TRIPEAKS_READ_TIMEOUT",
    "limit": "TRIPEAKS_LIMITS",
    "access_log": "TRIPEAKS_ACCESS_LOG",
    "metrics": "TRIPEAKS_METRICS",
    "metrics_allow": "TRIPEAKS_METRICS_ALLOW",
    "ranked_per_address": "TRIPEAKS_RANKED_PER_ADDRESS",
    "metrics_token": "TRIPEAKS_METRICS_TOKEN",
}
"""The environment variable of each option; a command-line option wins over its variable. A list
(allowed hosts, limits, networks) is separated by commas or spaces; a switch is 1/true/yes/on."""
_YES = frozenset({"1", "true", "yes", "on"})
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DB_VARIABLE = ENVIRONMENT["db"]
"""The environment variable that names the database when ``--db`` is not given (containers)."""
WORKERS_VARIABLE = ENVIRONMENT["workers"]
PORT_TRIES = 100


def default_db() -> Path:
    """The player's games live in their data directory, so nothing else has to be set up."""
    import platformdirs

    return platformdirs.user_data_path("tripeaks", appauthor=False) / "tripeaks.db"


def free_port(host: str, start: int = DEFAULT_PORT, tries: int = PORT_TRIES) -> int:
    """``start``, or the next port after it that nothing listens on."""
    for port in range(start, start + tries):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port between {start} and {start + tries - 1}")


def add_command(subparsers: Any) -> None:
    """Register ``serve`` on the CLI's subparsers."""
    from tripeaks.cli.helptext import examples
    from tripeaks.web.http import wire

    cmd = subparsers.add_parser(
        "serve",
        help="play in the browser (the default command)",
        **examples(
            "tripeaks serve --port 8000 --no-browser --db games.db",
            "tripeaks serve --db postgresql://tripeaks@db.internal/tripeaks --workers 4 \\",
            "    --host 0.0.0.0 --behind-proxy --allowed-host games.example.org",
        ),
    )
    cmd.add_argument("--host", default=DEFAULT_HOST, help="address to listen on (127.0.0.1)")
    cmd.add_argument("--port", type=int, default=None, help="port (8000 or the next free one)")
    cmd.add_argument("--no-browser", action="store_true", help="do not open the browser")
    cmd.add_argument(
        "--db",
        type=database,
        default=None,
        metavar="FILE|URL",
        help="SQLite file of games and statistics, or a postgresql:// URL for a hosted server"
        f" (default: ${DB_VARIABLE}, else a file in the user's data directory)",
    )
    cmd.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=f"worker processes, PostgreSQL only (default: ${WORKERS_VARIABLE}, else 1)",
    )
    cmd.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        type=_host_name,
        metavar="NAME",
        help="also answer to this host name (repeatable); 127.0.0.1, localhost, [::1] and"
        " --host always",
    )
    hosted = cmd.add_argument_group(
        "hosting for many players", "docs/deploy.md; each also from its TRIPEAKS_* variable"
    )
    hosted.add_argument(
        "--behind-proxy",
        action="store_true",
        help="trust X-Forwarded-For/-Proto from --forwarded-allow-ips (a TLS reverse proxy)",
    )
    hosted.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1,::1",
        metavar="ADDRESSES",
        help="the proxy's addresses, comma-separated (127.0.0.1,::1)",
    )
    hosted.add_argument(
        "--max-connections",
        type=int,
        default=wire.MAX_CONNECTIONS,
        metavar="N",
        help=f"open connections at most; more are closed at once ({wire.MAX_CONNECTIONS})",
    )
    hosted.add_argument(
        "--read-timeout",
        type=float,
        default=wire.READ_TIMEOUT,
        metavar="SECONDS",
        help=f"a request must arrive whole this soon after its first byte ({wire.READ_TIMEOUT:g})",
    )
    hosted.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=RATE",
        help="change a rate limit, e.g. hints_per_player=40/minute or =none (repeatable)",
    )
    hosted.add_argument(
        "--ranked-per-address",
        type=int,
        default=None,
        metavar="N",
        help="ranked attempts at the deal of the day from one network a day (5; an IPv6 /64)",
    )
    hosted.add_argument(
        "--access-log",
        choices=("json", "off"),
        default=None,
        help="one JSON line per request on stderr (json when hosted, else off)",
    )
    hosted.add_argument(
        "--metrics",
        choices=("on", "off"),
        default=None,
        help="serve Prometheus metrics at /metrics (on when hosted, else off)",
    )
    hosted.add_argument(
        "--metrics-allow",
        action="append",
        default=[],
        metavar="NETWORK",
        help="client networks that may read /metrics (loopback and private ones)",
    )
    hosted.add_argument(
        "--metrics-token",
        default=None,
        metavar="TEXT",
        help="the bearer token a scrape of /metrics must carry, 16 characters or more (without"
        " it /metrics is closed)",
    )
    cmd.add_argument(
        "--daily-secret",
        default=None,
        metavar="TEXT",
        help="the secret the deal of the day is chosen from, 16 characters or more (default:"
        " $TRIPEAKS_DAILY_SECRET, else one the server makes and keeps in the database)",
    )
    cmd.set_defaults(run=run, **environment_defaults(os.environ))


def environment_defaults(environ: Mapping[str, str]) -> dict[str, Any]:
    """The options' defaults from ``TRIPEAKS_*`` variables (argparse converts the strings)."""
    found: dict[str, Any] = {}
    for option, variable in ENVIRONMENT.items():
        value = environ.get(variable)
        if value is None or not value.strip():
            continue
        if option in ("allowed_host", "limit", "metrics_allow"):
            found[option] = value.replace(",", " ").split()
        elif option in ("no_browser", "behind_proxy"):
            found[option] = value.strip().lower() in _YES
        else:
            found[option] = value.strip()
    return found


def is_hosted(args: argparse.Namespace) -> bool:
    """Serving many players: on an address other than loopback's, or behind a reverse proxy."""
    from ipaddress import ip_address

    host: str = args.host
    if args.behind_proxy:
        return True
    try:
        return not ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host != "localhost"


def hosting(args: argparse.Namespace) -> Hosting:
    """The app's hosted settings from the options; ValueError says which one is wrong."""
    from tripeaks.web.hosting import PRIVATE_NETWORKS, TOKEN_LENGTH, Hosting
    from tripeaks.web.http.ratelimit import rates

    hosted = is_hosted(args)
    allow = tuple(args.metrics_allow) or PRIVATE_NETWORKS
    for network in allow:
        ip_network(network, strict=False)  # ValueError names it
    per_address = args.ranked_per_address
    if per_address is not None and int(per_address) < 1:
        raise ValueError(f"--ranked-per-address takes a whole number from 1, not {per_address}")
    token: str | None = args.metrics_token
    if token is not None and (
        len(token) < TOKEN_LENGTH or not token.isascii() or not token.isprintable() or " " in token
    ):
        raise ValueError(f"a metrics token is {TOKEN_LENGTH} or more ASCII characters, no spaces")
    return Hosting(
        hosted=hosted,
        metrics_token=token,
        metrics=args.metrics == "on" if args.metrics else hosted,
        metrics_allow=allow,
        access_log=args.access_log == "json" if args.access_log else hosted,
        rates=rates(args.limit) if hosted or args.limit else {},
        **({} if per_address is None else {"ranked_per_address": int(per_address)}),
    )


def database(text: str) -> Path | str:
    """``--db``: a ``postgresql://`` URL as it is, anything else the path of a SQLite file."""
    return text if text.startswith(("postgresql://", "postgres://")) else Path(text)


def run(args: argparse.Namespace) -> int:
    from tripeaks.web.app import create_app

    host: str = args.host
    try:
        settings = hosting(args)
        names = allowed_hosts(host, args.allowed_host)
        from tripeaks import daily

        if args.daily_secret is not None:  # every worker (and create_app) reads it from there
            os.environ[daily.SECRET_VARIABLE] = args.daily_secret
        daily.operator_secret()  # a short one is a WeakSecret, a ValueError naming the rule
    except ValueError as error:
        _say("serve.bad_option", problem=error)
        return 2
    port: int = args.port if args.port is not None else free_port(host)
    db = args.db if args.db is not None else default_db()  # --db, else $TRIPEAKS_DB (argparse)
    if isinstance(db, str):  # PostgreSQL: every worker shares it, there is nothing to claim
        return _serve_shared(args, db, host, port, settings)
    if args.workers != 1:
        _say("serve.workers_need_postgres")
        return 1
    problem = check_database(db)
    if problem is not None:
        _say("serve.no_database", db=db, problem=problem)
        return 1
    try:
        claim, holder = claim_database(db)
    except OSError as error:
        _say("serve.no_database", db=db, problem=_reason(error))
        return 1
    if claim is None:
        _say("serve.db_in_use", db=db, pid=holder)
        return 1
    from tripeaks.store.migrations import NewerSchema, NotOurs

    try:
        app = create_app(db, allowed_hosts=names, hosting=settings)
    except (sqlite3.Error, OSError, NewerSchema, NotOurs) as error:
        claim.close()
        _say("serve.no_database", db=db, problem=_reason(error))
        return 1
    _listen(args, app, host, port, db)
    claim.close()  # the lock goes with it
    return 0


def _serve_shared(
    args: argparse.Namespace, url: str, host: str, port: int, settings: Hosting
) -> int:
    from tripeaks.store.core import Unavailable
    from tripeaks.store.postgres import redacted
    from tripeaks.web.app import create_app
    from tripeaks.web.hosting import to_workers

    hosts = allowed_hosts(host, args.allowed_host)
    from tripeaks.store.migrations import NewerSchema, NotOurs

    try:
        app = create_app(url, allowed_hosts=hosts, hosting=settings)
    except (Unavailable, NewerSchema, NotOurs) as error:
        _say("serve.no_database", db=redacted(url), problem=str(error).replace("\n", " "))
        return 1
    if args.workers > 1:  # each worker process makes its own app (and pool) from the environment
        import uvicorn

        from tripeaks.web.http import wire

        app.state.backend.store.close()  # it made the tables and proved the database is there
        app.state.backend.solvers.close()
        os.environ.update(to_workers(url, hosts, settings))
        share = _address_share(args)
        os.environ[wire.WORKER_LIMITS_VARIABLE] = (
            f"{args.read_timeout},{args.max_connections},{'' if share is None else share}"
        )
        _warn_of_an_undeclared_proxy(args)
        _say("serve.started", on_stdout=True, url=_url(host, port), db=redacted(url))
        uvicorn.run(
            "tripeaks.web.app:from_environment",
            factory=True,
            host=host,
            port=port,
            workers=args.workers,
            log_level="warning",
            access_log=False,
            http="tripeaks.web.http.wire:WorkerHttp",
            h11_max_incomplete_event_size=wire.MAX_HEAD,
            proxy_headers=args.behind_proxy,
            forwarded_allow_ips=args.forwarded_allow_ips,
            server_header=False,
        )
        return 0
    _listen(args, app, host, port, redacted(url))
    return 0


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _guarded(args: argparse.Namespace) -> Any:
    """The HTTP protocol with the head cap, the read deadline and the connection cap (wire.py)."""
    from tripeaks.web.http import wire

    return wire.GuardedHttp.limited(
        read_timeout=args.read_timeout,
        max_connections=args.max_connections,
        address_share=_address_share(args),
    )


def _address_share(args: argparse.Namespace) -> int | None:
    """Open connections one client may hold: a share of the cap when hosted (wire.py), none for
    the local app's one player."""
    from tripeaks.web.http import wire

    return wire.address_share(args.max_connections) if is_hosted(args) else None


def _warn_of_an_undeclared_proxy(args: argparse.Namespace) -> None:
    """Off loopback without ``--behind-proxy``, one line says what a proxy in front would cost:
    its connections all come from one address, so every player would share one client's share
    of the connections (wire.client_key counts loopback when hosted)."""
    if is_hosted(args) and not args.behind_proxy:
        _say("serve.no_proxy_declared", share=_address_share(args))


def _listen(args: argparse.Namespace, app: Any, host: str, port: int, db: object) -> None:
    import uvicorn

    from tripeaks.web.hosting import settle_the_heap
    from tripeaks.web.http import wire

    settle_the_heap()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,  # ours is accesslog.py
            http=_guarded(args),
            h11_max_incomplete_event_size=wire.MAX_HEAD,  # if h11 were ever used instead
            # Not uvicorn's limit_concurrency: it answers 503 only once a head is complete, which
            # a slow client never sends; the protocol closes connections over the cap at accept.
            proxy_headers=args.behind_proxy,
            forwarded_allow_ips=args.forwarded_allow_ips,
            server_header=False,
        )
    )
    url = _url(host, port)
    _warn_of_an_undeclared_proxy(args)
    _say("serve.started", on_stdout=True, url=url, db=db)
    if not args.no_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    server.run()


def _say(key: str, *, on_stdout: bool = False, **values: object) -> None:
    """A line for whoever started the server (stderr unless it is news), in the system's language."""
    out = sys.stdout if on_stdout else sys.stderr
    print(translator(system_language())(key, **values), file=out, flush=True)


def allowed_hosts(host: str, extra: list[str]) -> list[str]:
    """The host names to answer to: loopback's, the address listened on, and ``--allowed-host``."""
    from tripeaks.web.http import guard

    names = [*guard.DEFAULT_HOSTS, *map(guard.host_pattern, extra)]
    with contextlib.suppress(ValueError):  # not a host name: uvicorn says what is wrong
        names.append(guard.host_pattern(host))
    return list(dict.fromkeys(names))


def _host_name(text: str) -> str:
    from tripeaks.web.http import guard

    try:
        return guard.host_pattern(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def check_database(path: Path) -> str | None:
    """Why the server could not keep games in ``path`` (None when it can read and write there).

    Opens it as the store will, reads its schema and really writes (a table made and filled in a
    transaction that is rolled back), since on an existing database ``CREATE TABLE IF NOT EXISTS``
    writes nothing and a read-only file would only fail at the player's first move.
    """
    for folder in (path, *path.parents):
        if folder.exists():
            if folder is path and path.is_dir():
                return "it is a directory, not a database file"
            if folder is not path and not folder.is_dir():
                return f"{folder} is a file, not a directory"
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            db.execute("CREATE TABLE tripeaks_write_probe (x)")
            db.execute("INSERT INTO tripeaks_write_probe VALUES (1)")
            db.execute("ROLLBACK")
        finally:
            db.close()
    except (sqlite3.Error, OSError) as error:
        return _reason(error)
    return None


def claim_database(path: Path) -> tuple[TextIO | None, str]:
    """This server's claim on ``path``: an exclusive lock on ``PATH.lock``, held while it runs.

    Two servers on one SQLite file would each keep games in memory that the other changes, and fail
    each other's group commits. The lock is on a file of its own: SQLite's locks on the database
    itself are dropped when any other handle of the same process on that file closes. Returns the
    open lock file (keep it open), or None and the process id written by the server that holds it.
    """
    import fcntl

    handle = path.with_name(path.name + ".lock").open("a+", encoding="ascii")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "?"
        handle.close()
        return None, holder
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle, str(os.getpid())


def _reason(error: Exception) -> str:
    """One line saying what went wrong, without Python's class names."""
    if isinstance(error, OSError) and error.strerror:
        where = f" ({error.filename})" if error.filename else ""
        return f"{error.strerror}{where}".replace("\n", " ")
    return (str(error) or type(error).__name__).replace("\n", " ")


def _open_when_started(server: Any, url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)
