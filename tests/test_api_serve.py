"""The ``tripeaks serve`` command: the default command, its options and its port choice."""

from __future__ import annotations

import argparse
import gc
import socket
import sys
from pathlib import Path

import pytest

from tripeaks import cli
from tripeaks.i18n import LANGUAGES, translator
from tripeaks.web import serve


def captured(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> argparse.Namespace:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(serve, "run", lambda args: seen.append(args) or 0)
    # build_parser binds serve.run when it registers the command, so patch before building.
    assert cli.main(argv) == 0
    return seen[0]


def test_no_argument_serves_on_loopback_and_opens_the_browser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = captured(monkeypatch, [])
    assert args.command == "serve" and args.host == "127.0.0.1"
    assert args.port is None and args.db is None and not args.no_browser


def test_options_reach_the_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    argv = ["serve", "--port", "8123", "--no-browser", "--db", str(tmp_path / "x.db")]
    args = captured(monkeypatch, argv)
    assert (args.port, args.no_browser, args.db) == (8123, True, tmp_path / "x.db")
    assert captured(monkeypatch, ["--no-browser"]).no_browser


def test_a_busy_port_is_skipped() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        assert serve.free_port("127.0.0.1", taken, 20) != taken


def test_the_default_database_is_in_the_user_data_directory() -> None:
    path = serve.default_db()
    assert path.name == "tripeaks.db" and "tripeaks" in path.parent.parts[-1]


def test_the_served_heap_is_settled_before_the_first_request() -> None:
    """Start-up objects leave the garbage collector's care; commits get the GIL back quickly."""
    switch, thresholds = sys.getswitchinterval(), gc.get_threshold()
    try:
        serve._settle_the_heap()
        assert gc.get_freeze_count() > 10_000
        assert gc.get_threshold() == serve.GC_THRESHOLDS
        assert sys.getswitchinterval() == pytest.approx(serve.SWITCH_INTERVAL)
        assert all(translator(lang) for lang in LANGUAGES)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(switch)
