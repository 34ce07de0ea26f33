"""The container image's files read against the app: every variable compose.yaml and the
Dockerfile set is one the app (or the image's entrypoint) reads, with a value the app takes.

No container engine runs here: container/build.sh, the image's build steps, runs in `make test`
instead (tests/smoke_wheel.py), and the entrypoint runs below with a stand-in for tripeaks.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tripeaks import daily
from tripeaks.cli import serve
from tripeaks.cli.main import build_parser

ROOT = Path(__file__).resolve().parent.parent
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
ENTRYPOINT = ROOT / "container" / "entrypoint.sh"
APP_VARIABLES = {*serve.ENVIRONMENT.values(), daily.SECRET_VARIABLE}
"""What an operator configures the app with (docs/deploy.md "Running it")."""


def from_files() -> set[str]:
    """The variables the entrypoint also takes as NAME_FILE, the path of a file holding it."""
    found = re.search(r"^for name in ([A-Z_ ]+); do$", ENTRYPOINT.read_text(), re.MULTILINE)
    assert found, "the entrypoint's list of variables"
    return set(found[1].split())


READ = APP_VARIABLES | {f"{name}_FILE" for name in from_files()}


def app_services() -> dict[str, dict[str, Any]]:
    """The services that run the image built here."""
    services: dict[str, dict[str, Any]] = COMPOSE["services"]
    return {name: s for name, s in services.items() if s.get("build") == "."}


def interpolated(value: object) -> str:
    """A value as compose makes it without a .env file: ``${NAME:-default}`` is the default."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))


def test_compose_runs_the_app_and_its_migrations_beside_postgres() -> None:
    services = COMPOSE["services"]
    assert set(app_services()) == {"app", "migrate"}
    assert services["db"]["image"].startswith("postgres:")
    assert services["db"]["healthcheck"]["test"][1].startswith("pg_isready")
    assert services["migrate"]["command"] == ["migrate"]
    assert services["app"]["depends_on"] == {
        "db": {"condition": "service_healthy"},
        "migrate": {"condition": "service_completed_successfully"},
    }
    assert services["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert "TRIPEAKS_WORKERS" in services["app"]["environment"]


def test_every_variable_compose_sets_is_one_the_app_reads() -> None:
    for name, service in app_services().items():
        unknown = set(service["environment"]) - READ
        assert unknown == set(), f"{name} sets what nothing reads"


def test_the_secrets_are_files_outside_the_image() -> None:
    declared = COMPOSE["secrets"]
    assert all(set(secret) == {"file"} for secret in declared.values())
    db = COMPOSE["services"]["db"]
    for service in [db, *app_services().values()]:
        for variable, value in service["environment"].items():
            if variable.endswith("_FILE"):
                assert value.startswith("/run/secrets/")
                assert value.removeprefix("/run/secrets/") in service["secrets"]
            assert "PASSWORD" not in variable or variable.endswith("_FILE"), variable
        assert set(service["secrets"]) <= set(declared)
    app = COMPOSE["services"]["app"]["environment"]
    assert urlsplit(app["TRIPEAKS_DB"]).password is None  # libpq's PGPASSWORD, from the file
    assert daily.SECRET_VARIABLE + "_FILE" in app and daily.SECRET_VARIABLE not in app
    baked = re.findall(r"^(?:ENV|ARG) .*(?:SECRET|PASSWORD|TOKEN)", DOCKERFILE, re.MULTILINE)
    assert baked == []


def served(environ: dict[str, str]) -> argparse.Namespace:
    """``tripeaks serve``'s options with this environment, as the app reads it."""
    commands = build_parser()._subparsers._group_actions[0]  # type: ignore[union-attr]
    parser: argparse.ArgumentParser = commands.choices["serve"]  # type: ignore[index]
    parser.set_defaults(**serve.environment_defaults(environ))
    return parser.parse_args([])  # argparse converts string defaults as if typed


def test_the_app_takes_the_values_compose_gives_it() -> None:
    environ = {
        name: interpolated(value)
        for name, value in COMPOSE["services"]["app"]["environment"].items()
    }
    args = served(environ)
    assert args.host == "0.0.0.0" and int(args.port) == 8000 and int(args.workers) >= 2
    assert isinstance(args.db, str) and args.db.startswith("postgresql://")
    assert args.behind_proxy is True
    settings = serve.hosting(args)  # ValueError for anything it would refuse at start
    assert settings.hosted
    for network in args.forwarded_allow_ips.split(","):
        assert ipaddress.ip_network(network).is_private


def dockerfile_env() -> dict[str, str]:
    """The runtime stage's ENV, continuation lines joined."""
    joined = DOCKERFILE.replace("\\\n", " ")
    pairs: dict[str, str] = {}
    for line in re.findall(r"^ENV (.+)$", joined.split("\nFROM ")[-1], re.MULTILINE):
        pairs.update(re.findall(r"([A-Z_]+)=(\S+)", line))
    return pairs


def test_every_variable_the_dockerfile_sets_is_one_the_app_reads() -> None:
    env = dockerfile_env()
    ours = {name for name in env if name.startswith("TRIPEAKS_")}
    assert ours and ours <= APP_VARIABLES
    args = served({name: env[name] for name in ours})
    assert args.host == "0.0.0.0" and args.no_browser is True
    assert Path(args.db).parent == Path(re.findall(r"^VOLUME (\S+)$", DOCKERFILE, re.M)[0])


def test_the_dockerfile_builds_with_the_steps_make_test_runs() -> None:
    assert len(re.findall(r"^FROM ", DOCKERFILE, re.MULTILINE)) == 2  # build, then slim
    assert "sh container/build.sh dist /src /dist" in DOCKERFILE
    assert "sh container/build.sh install /dist /opt/tripeaks" in DOCKERFILE
    runtime = DOCKERFILE.split("\nFROM ")[-1]
    assert runtime.startswith("python:3.11-slim")
    assert re.search(r"^USER tripeaks$", runtime, re.MULTILINE)
    assert re.search(r'^HEALTHCHECK .* CMD \["tripeaks-healthcheck"\]$', runtime, re.M)
    assert re.search(r'^ENTRYPOINT \["tripeaks-entrypoint"\]$', runtime, re.MULTILINE)
    for copied in re.findall(r"^COPY (?!--)(.+) \S+$", DOCKERFILE, re.MULTILINE):
        for name in copied.split():
            assert (ROOT / name).exists(), f"the Dockerfile copies {name}, which is not here"


@pytest.mark.parametrize("name", sorted(from_files()))
def test_the_entrypoint_reads_a_secret_from_its_file(name: str, tmp_path: Path) -> None:
    shutil.copy(ENTRYPOINT, tmp_path / "entrypoint.sh")
    stand_in = tmp_path / "tripeaks"  # says what the real one would get
    stand_in.write_text(f'#!/bin/sh\necho "$*|${{{name}}}|${{{name}_FILE:-unset}}"\n')
    stand_in.chmod(0o755)
    secret = tmp_path / "secret"
    secret.write_text("s3cret value\n")
    done = subprocess.run(
        ["sh", str(tmp_path / "entrypoint.sh"), "serve", "--no-browser"],
        env={"PATH": os.environ["PATH"], f"{name}_FILE": str(secret)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout == "serve --no-browser|s3cret value|unset\n"
