"""The wheel and the sdist that ``python -m build`` makes, read file by file.

``make test`` builds them as the image does (container/build.sh) and names their folder in
TRIPEAKS_TEST_DIST; tests/smoke_wheel.py has run the wheel from a fresh virtual environment by then.
A run without it builds them here once (about ten seconds). Every other test imports the checkout
(an editable install), which would never notice a file the wheel lacks.
"""

from __future__ import annotations

import email
import email.message
import os
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_package_data import tracked

from tripeaks.cli.main import main, version

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
NAME = f"{PROJECT['name']}-{PROJECT['version']}"
DIST_VARIABLE = "TRIPEAKS_TEST_DIST"
EXTENSIONS = ("_search", "_streak", "_strategy")
"""The compiled searches (setup.py): each must be in a wheel built where a compiler is."""


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    named = os.environ.get(DIST_VARIABLE)
    if named:
        yield Path(named)
        return
    if os.environ.get("CI") == "true":
        raise pytest.UsageError(f"CI=true but {DIST_VARIABLE} is not set: `make test` builds them.")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        ["sh", str(ROOT / "container" / "build.sh"), "dist", str(ROOT), str(out)],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        check=True,
    )
    yield out


def only(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"expected one {pattern} in {folder}, found {found}"
    return found[0]


def wheel_names(dist: Path) -> set[str]:
    with zipfile.ZipFile(only(dist, f"{NAME}-*.whl")) as wheel:
        return set(wheel.namelist())


def sdist_names(dist: Path) -> set[str]:
    with tarfile.open(only(dist, f"{NAME}.tar.gz")) as sdist:
        return {member.name.removeprefix(f"{NAME}/") for member in sdist.getmembers()}


def metadata(dist: Path) -> email.message.Message:
    with zipfile.ZipFile(only(dist, f"{NAME}-*.whl")) as wheel:
        return email.message_from_bytes(wheel.read(f"{NAME}.dist-info/METADATA"))


def test_the_wheel_holds_every_file_the_app_reads_and_the_compiled_searches(dist: Path) -> None:
    names = wheel_names(dist)
    package = {f"tripeaks/{name}" for name in tracked() if not name.endswith(".c")}
    assert package - names == set(), "missing from the wheel"
    kinds = {
        "catalogs": ".po",
        "stubs": ".pyi",
        "page": "tripeaks/web/static/",
        "migrations": "tripeaks/store/migrations/versions/",
        "journey": "tripeaks/journey/levels.json",
    }
    for kind, mark in kinds.items():
        assert any(mark in name for name in package), f"no {kind} in the package?"
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for extension in EXTENSIONS:
        assert f"tripeaks/solver/{extension}{suffix}" in names, f"{extension} not compiled"
    extra = {
        name
        for name in names - package
        if not name.startswith(f"{NAME}.dist-info/") and not name.endswith(suffix)
    }
    assert extra == set(), "untracked files would ship: git add them, or remove them"
    assert not any(name.endswith(".c") or "__pycache__" in name for name in names)


def test_the_sdist_holds_what_builds_the_wheel_and_no_tests(dist: Path) -> None:
    names = sdist_names(dist)
    package = {f"tripeaks/{name}" for name in tracked()}
    assert package - names == set(), "missing from the sdist"
    assert {"pyproject.toml", "setup.py", "README.md", "LICENSE", "CHANGELOG.md"} <= names
    assert not any(name.startswith("tests/") or name.endswith(".so") for name in names)


def test_the_metadata_is_what_an_index_wants(dist: Path) -> None:
    meta = metadata(dist)
    assert (meta["Name"], meta["Version"]) == (PROJECT["name"], PROJECT["version"])
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().startswith("# TriPeaks")  # the README, as the index shows it
    assert meta["Requires-Python"] == ">=3.11"
    classifiers = meta.get_all("Classifier") or []
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # the expression says it
    requires = [r for r in meta.get_all("Requires-Dist") or [] if "extra ==" not in r]
    assert len(requires) == len(PROJECT["dependencies"])
    with zipfile.ZipFile(only(dist, f"{NAME}-*.whl")) as wheel:
        scripts = wheel.read(f"{NAME}.dist-info/entry_points.txt").decode()
    assert "tripeaks = tripeaks.cli.main:main" in scripts


def test_twine_accepts_both(dist: Path) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


def test_the_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"tripeaks {version()}\n"
    assert version() == PROJECT["version"]
