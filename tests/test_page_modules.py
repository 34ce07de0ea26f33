"""The page's ES modules import in layers: no circle among them, static or fetched later.

Reads ``tripeaks/web/static/js/*.js`` for ``import ... from "./x.js"``, ``import("./x.js")`` and any
other "./x.js" a module names (main.js hands its windows' paths to ``import(path)``); a circle is a
module that reaches itself through them. ``python tests/test_page_modules.py`` prints the
imports and any circle.
"""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[1] / "tripeaks" / "web" / "static" / "js"

# `import { a, b } from "./x.js";` (over several lines too), `import * as x from "./x.js"` and a bare
# `import "./x.js"`; then any other "./x.js" named outside a comment: `import("./x.js")`, a path kept
STATIC = re.compile(
    r"^\s*import\s+(?:[^;'\"]*?\s+from\s+)?[\"']\./([\w.-]+\.js)[\"']", re.MULTILINE
)
NAMED = re.compile(r"[\"']\./([\w.-]+\.js)[\"']")
COMMENT = re.compile(r"^\s*(?://|/?\*).*$", re.MULTILINE)


def imports(folder: Path = JS) -> dict[str, list[str]]:
    """Each module's imports of the others, in the order written (static ones, then fetched ones)."""
    graph: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.js")):
        text = COMMENT.sub("", path.read_text(encoding="utf-8"))
        targets = STATIC.findall(text) + NAMED.findall(text)
        graph[path.name] = list(dict.fromkeys(targets))
    return graph


def cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Every elementary circle once, as the modules along it (the first repeated at the end)."""
    found: list[list[str]] = []
    names = sorted(graph)
    for start in names:
        # only circles whose smallest name is ``start``: each circle is reported once
        allowed = {n for n in names if n >= start}
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, []):
                if nxt == start:
                    found.append([*path, start])
                elif nxt in allowed and nxt not in path:
                    stack.append((nxt, [*path, nxt]))
    return sorted(found)


def test_every_import_names_a_module_that_exists() -> None:
    graph = imports()
    assert "main.js" in graph and "board.js" in graph
    missing = {f"{m} -> {t}" for m, targets in graph.items() for t in targets if t not in graph}
    assert not missing


def test_the_page_modules_import_in_no_circle() -> None:
    found = cycles(imports())
    assert not found, "import circles: " + "; ".join(" -> ".join(c) for c in found)


def test_a_circle_is_found() -> None:
    """The check itself: a circle through three modules, and one module importing itself."""
    graph = {"a.js": ["b.js"], "b.js": ["c.js"], "c.js": ["a.js", "d.js"], "d.js": ["d.js"]}
    assert cycles(graph) == [["a.js", "b.js", "c.js", "a.js"], ["d.js", "d.js"]]


def test_the_imports_are_read_in_every_form(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text(
        'import { x,\n  y } from "./b.js";\nimport * as c from "./c.js";\nimport "./d.js";\n'
        'const later = () => import("./e.js");\nopen("./f.js", "show");\n'
        '// import nothing from "./g.js"\n/* nor "./h.js"\n * "./i.js" */\n',
        encoding="utf-8",
    )
    assert imports(tmp_path) == {"a.js": ["b.js", "c.js", "d.js", "e.js", "f.js"]}


if __name__ == "__main__":
    graph = imports()
    for module, targets in graph.items():
        print(f"{module:14} -> {', '.join(targets) or '-'}")
    found = cycles(graph)
    print(f"{len(found)} import circle(s)")
    for circle in found:
        print("  " + " -> ".join(circle))
