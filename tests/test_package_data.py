"""Every file the installed app reads is in the package: the .py files of its packages, and what
pyproject.toml's package-data names (the catalogs, the page, the solver's stubs, the migrations,
whose versions/ folder is no package). Moving a folder without its glob would ship a wheel that
cannot open a database; the editable install used by the other tests would never notice."""

from __future__ import annotations

import glob
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tripeaks"
SOURCES_ONLY = {".c"}
"""Built into extension modules, shipped in the source distribution, not read at run time."""


def tracked() -> set[str]:
    """The package's files under version control, relative to tripeaks/."""
    out = subprocess.run(
        ["git", "ls-files", "tripeaks"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return {line.removeprefix("tripeaks/") for line in out.splitlines() if line}


def shipped_data() -> set[str]:
    """What the package-data globs match, relative to tripeaks/."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["tripeaks"]
    matched: set[str] = set()
    for pattern in patterns:
        for path in glob.glob(str(PACKAGE / pattern), recursive=True):
            if Path(path).is_file():
                matched.add(str(Path(path).relative_to(PACKAGE)))
    return matched


def test_every_file_the_app_reads_is_shipped() -> None:
    data = shipped_data()
    missing = []
    for name in sorted(tracked()):
        path = PACKAGE / name
        if path.suffix in SOURCES_ONLY:
            continue
        in_a_package = path.suffix == ".py" and (path.parent / "__init__.py").exists()
        if not in_a_package and name not in data:
            missing.append(name)
    assert not missing, f"not in any package-data glob of pyproject.toml: {missing}"


def test_the_migrations_are_among_them() -> None:
    data = shipped_data()
    assert "store/migrations/script.py.mako" in data
    assert any(name.startswith("store/migrations/versions/0001") for name in data)
