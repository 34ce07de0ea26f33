"""The engine is a pure rules library (issue 36): importing it, or the package's lazy exports, loads
no catalogs, no Babel and no solver; not even an engine error or a played game reaches for them."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import tripeaks.engine

HEAVY = ("babel", "tripeaks.i18n", "tripeaks.solver")
ROOT = Path(tripeaks.engine.__file__).parents[2]
"""The tree whose tripeaks this test imports: the fresh interpreters import the same one."""
ENGINE_MODULES = sorted(
    f"tripeaks.engine.{m.name}" for m in pkgutil.iter_modules(tripeaks.engine.__path__)
)


def loaded_after(code: str) -> list[str]:
    """The heavy modules in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    modules = json.loads(out.splitlines()[-1])
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_the_engine_has_the_modules_the_rules_need() -> None:
    names = {m.rsplit(".", 1)[1] for m in ENGINE_MODULES}
    assert {"cards", "codes", "game", "layout", "rules", "score", "variant"} <= names


def test_importing_every_engine_module_loads_no_catalog_or_solver() -> None:
    imports = "\n".join(f"import {m}" for m in ["tripeaks.engine", *ENGINE_MODULES])
    assert loaded_after(imports) == []


def test_importing_the_package_alone_loads_nothing_heavy() -> None:
    assert loaded_after("import tripeaks") == []


@pytest.mark.parametrize(
    "name", ["Game", "GameCode", "IllegalMove", "Reason", "Card", "Variant", "deal"]
)
def test_an_engine_name_of_the_package_loads_nothing_heavy(name: str) -> None:
    assert loaded_after(f"import tripeaks\ntripeaks.{name}") == []


def test_playing_and_being_refused_loads_nothing_heavy() -> None:
    """Every way to act, a refusal and its text, and a refused option: still no words loaded."""
    game = """
from tripeaks.engine.codes import GameCode, NotOffered
from tripeaks.engine.game import DRAW, UNDO, Game, IllegalMove
game = Game.new("TP1-E-AAAAAAB")
game.apply(DRAW); game.apply(UNDO); game.draw(); game.undo(); game.apply("draw")
for pos in game.playable_positions()[:1]:
    game.play(pos)
try:
    game.play(0)
except IllegalMove as refused:
    str(refused), repr(refused), refused.reason
try:
    code = GameCode.parse("TP1-E-AAAAAAB-JT")
    raise NotOffered(code.variant, code, "T")
except NotOffered as refused:
    str(refused), refused.without
repr(game)
"""
    assert loaded_after(game) == []


def test_the_exported_words_load_on_first_use() -> None:
    """The other side of the lazy exports: asking for the words loads the catalogs."""
    assert "tripeaks.i18n" in loaded_after("import tripeaks\ntripeaks.describe")
