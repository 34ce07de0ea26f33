"""The installed package, run from outside the checkout: `make test` runs it on the virtual
environment container/build.sh made from the wheel (as the image's build does), so that a file
missing from the wheel, a dependency missing from its metadata or a broken console script fails the
build, which the editable install of every other test would never notice.

    python tests/smoke_wheel.py VENV

It runs, from a temporary folder and without PYTHONPATH: ``tripeaks --version``, ``tripeaks solve
TP1-C-AAAAAAB --json``, and one served game (``tripeaks serve`` through the image's entrypoint on a
new SQLite file: migrations, the page, the catalogs, a new game, a play, a draw, the image's health
check), then stops the server. Standard library only; prints one line per step.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BOUND = 60.0
"""Seconds after which a step gives up: far more than any of them takes."""
CODE = "TP1-E-AAAAAAB"


def say(step: str) -> None:
    print(f"smoke: {step}", flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Smoke:
    def __init__(self, venv: Path, work: Path) -> None:
        self.bin = venv.resolve() / "bin"
        self.work = work
        self.env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("PYTHON", "TRIPEAKS_", "VIRTUAL_ENV"))
        }
        self.env["LC_ALL"] = "C.UTF-8"
        self.env["PATH"] = f"{self.bin}{os.pathsep}{self.env.get('PATH', '')}"

    def run(self, *argv: str, **environ: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / argv[0]), *argv[1:]],
            cwd=self.work,
            env={**self.env, **environ},
            capture_output=True,
            text=True,
            timeout=BOUND,
        )

    def check(self, *argv: str) -> str:
        done = self.run(*argv)
        assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stderr}"
        return done.stdout

    def the_package_is_the_installed_one(self) -> None:
        out = self.check(
            "python",
            "-c",
            "import tripeaks.solver, tripeaks.solver.streak, tripeaks.solver.explain;"
            "print(tripeaks.__file__); print(tripeaks.solver.COMPILED)",
        )
        where, compiled = out.split()
        assert Path(where).is_relative_to(self.bin.parent), f"tripeaks imported from {where}"
        assert not Path(where).is_relative_to(ROOT), f"tripeaks imported from {where}"
        assert compiled == "True", "the wheel holds no compiled search"
        say(f"tripeaks from {Path(where).parent}, compiled searches")

    def version(self) -> None:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        out = self.check("tripeaks", "--version")
        assert out == f"tripeaks {project['project']['version']}\n", out
        say(out.strip())

    def solve(self) -> None:
        result = json.loads(self.check("tripeaks", "solve", "TP1-C-AAAAAAB", "--json"))
        assert result["code"] == "TP1-C-AAAAAAB" and isinstance(result["winnable"], bool)
        assert len(result["line"]) == len(result["cards"]) > 0
        say(f"solve: winnable {result['winnable']}, {len(result['line'])} moves")

    def entrypoint_reads_secrets_from_files(self) -> None:
        """The image's entrypoint hands TRIPEAKS_DAILY_SECRET_FILE's content to the server: a
        short one stops it before anything is opened (exit 2, docs/deploy.md)."""
        short = self.work / "short-secret"
        short.write_text("too short\n", encoding="utf-8")
        done = self.run(
            "tripeaks-entrypoint",
            "serve",
            "--no-browser",
            "--db",
            str(self.work / "never.db"),
            TRIPEAKS_DAILY_SECRET_FILE=str(short),
        )
        assert done.returncode == 2, f"exit {done.returncode}: {done.stderr}"
        assert not (self.work / "never.db").exists()
        say("entrypoint: a secret from its file reached the server")

    def served_game(self) -> None:
        port = free_port()
        secret = self.work / "daily-secret"
        secret.write_text("a daily secret of the smoke test\n", encoding="utf-8")
        server = subprocess.Popen(
            [
                str(self.bin / "tripeaks-entrypoint"),
                "serve",
                "--no-browser",
                "--port",
                str(port),
                "--db",
                str(self.work / "x.db"),
            ],
            cwd=self.work,
            env={**self.env, "TRIPEAKS_DAILY_SECRET_FILE": str(secret)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            self._play(server, port)
        finally:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
            try:
                _, said = server.communicate(timeout=BOUND)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
                raise
        # uvicorn finishes in-flight requests on SIGTERM, then ends by the signal it caught.
        assert server.returncode in (0, -signal.SIGTERM), f"the server ended {server.returncode}"
        assert "Traceback" not in said, said
        done = self.run("tripeaks-healthcheck", TRIPEAKS_PORT=str(port))
        assert done.returncode == 1, "the health check passed a stopped server"
        say("the server stopped; the health check says so")

    def _play(self, server: subprocess.Popen[str], port: int) -> None:
        assert server.stdout is not None and server.stderr is not None
        line = server.stdout.readline()
        assert line.startswith(f"TriPeaks: http://127.0.0.1:{port}/"), line + server.stderr.read()
        base = f"http://127.0.0.1:{port}"
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

        def call(path: str, body: dict[str, Any] | None = None) -> tuple[int, bytes]:
            request = urllib.request.Request(
                base + path,
                data=None if body is None else json.dumps(body).encode(),
                headers={"Content-Type": "application/json"} if body is not None else {},
            )
            with opener.open(request, timeout=BOUND) as reply:
                return reply.status, reply.read()

        deadline = time.monotonic() + BOUND  # the line comes just before uvicorn listens
        while True:
            try:
                call("/healthz")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.05)
        done = self.run("tripeaks-healthcheck", TRIPEAKS_PORT=str(port))
        assert done.returncode == 0, done.stderr
        status, page = call("/")
        assert status == 200 and b"<html" in page
        status, script = call("/static/js/main.js")
        assert status == 200 and b"import" in script
        status, body = call("/api/games?lang=fi", {"rules": "easy", "code": CODE})
        state = json.loads(body)
        assert status == 201 and state["code"] == CODE and state["version"] == 0
        assert state["stock_label"].startswith("Nostopakka"), state["stock_label"]
        game = f"/api/games/{state['id']}"
        status, body = call(f"{game}/play", {"pos": state["playable"][0], "version": 0})
        played = json.loads(body)
        assert status == 200 and played["version"] == 1 and played["moves"] == 1
        status, body = call(f"{game}/draw", {"version": 1})
        drawn = json.loads(body)
        assert status == 200 and drawn["version"] == 2
        assert drawn["stock_size"] == state["stock_size"] - 1
        say(f"served a game on port {port}: new game (in Finnish), a play, a draw")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tripeaks-smoke-") as work:
        smoke = Smoke(Path(argv[1]), Path(work))
        smoke.the_package_is_the_installed_one()
        smoke.version()
        smoke.solve()
        smoke.entrypoint_reads_secrets_from_files()
        smoke.served_game()
    print("smoke: the installed package works")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
