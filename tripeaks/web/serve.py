"""``tripeaks serve`` (and plain ``tripeaks``): the app on loopback, opened in the default browser."""

from __future__ import annotations

import argparse
import socket
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
PORT_TRIES = 100
GC_THRESHOLDS = (10_000, 10, 100)
"""Python's default (700, 10, 10) runs a young collection every 700 new objects, ~25 times a
second under load, and a full one every few seconds as cached games pile up (tens of ms each)."""
SWITCH_INTERVAL = 0.0005
"""Seconds a busy thread may hold the GIL while another wants it (Python's default is 0.005).

The commit thread hands the GIL back and forth around every SQLite call; with the default, each
hand-off can wait 5 ms for a busy event loop, and a commit makes several.
"""


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
    cmd = subparsers.add_parser("serve", help="play in the browser (the default command)")
    cmd.add_argument("--host", default=DEFAULT_HOST, help="address to listen on (127.0.0.1)")
    cmd.add_argument("--port", type=int, default=None, help="port (8000 or the next free one)")
    cmd.add_argument("--no-browser", action="store_true", help="do not open the browser")
    cmd.add_argument("--db", type=Path, default=None, help="SQLite file of games and statistics")
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from tripeaks.web.app import create_app

    host: str = args.host
    port: int = args.port if args.port is not None else free_port(host)
    db: Path = args.db if args.db is not None else default_db()
    app = create_app(db)
    _settle_the_heap()
    server = uvicorn.Server(
        uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    )
    url = f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
    print(f"TriPeaks: {url}  (games in {db}; Ctrl+C stops)", flush=True)
    if not args.no_browser:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    server.run()
    return 0


def _settle_the_heap() -> None:
    """Load what every request needs, then keep the garbage collector off it for good.

    The app's own objects (FastAPI, pydantic, the catalogs) are some 60,000; a full collection
    walks them all and holds the GIL for tens of milliseconds, stalling every request and the
    commit thread. Frozen, they are never walked again; only request-made objects are, and
    less often (GC_THRESHOLDS).
    """
    import gc
    import sys

    from tripeaks.i18n import LANGUAGES, translator

    for lang in LANGUAGES:
        translator(lang)
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _open_when_started(server: Any, url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)
