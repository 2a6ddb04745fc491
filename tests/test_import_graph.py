"""Imports flow one way: the package's import graph has no circle (docs/architecture.md).

The graph is read from the source with :mod:`ast`, one node a module. An edge is an import: at
module level (``if``/``try`` blocks included, and ``if TYPE_CHECKING:``, for a type names the module
that defines it: a type a lower module needs is defined below it) and, in the second graph, inside
functions too (deferred imports, kept for start-up time, still make one module depend on another).
``from .pkg import name`` is an edge to the submodule ``pkg.name`` when there is one, else to ``pkg``.

One kind of deferred import may point up: a method that shows a value (its repr, its notebook or
rich display, its TOML text) may import the writer that draws it (``Ship._repr_html_`` imports
:mod:`shipcheck.render`), as python-chess's board imports its SVG writer only to show itself.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "shipcheck"

#: methods that only show a value: their imports may point up (see the module docstring)
SHOWING = frozenset({"__repr__", "__str__", "__rich__", "_repr_html_", "_repr_markdown_", "_repr_pretty_",
                     "to_toml"})

#: imports known to close a circle, as (importer, imported) patterns, each with its owner. The
#: owner's work removes the circle and its line here; a line whose import is gone fails the test.
KNOWN: list[tuple[str, str, str]] = []


def _modules() -> dict[str, Path]:
    out = {}
    for p in PACKAGE.rglob("*.py"):
        parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def _imports(body: list[ast.stmt], *, deferred: bool, showing: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    """(import statement, inside a showing method) for the statements of ``body`` that run."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, showing
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if deferred:
                yield from _imports(node.body, deferred=True, showing=showing or node.name in SHOWING)
        elif isinstance(node, ast.ClassDef):
            yield from _imports(node.body, deferred=deferred, showing=showing)
        else:  # if / try / with / for blocks at any depth
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    for item in inner:
                        if isinstance(item, ast.ExceptHandler):
                            yield from _imports(item.body, deferred=deferred, showing=showing)
                    yield from _imports([n for n in inner if isinstance(n, ast.stmt)], deferred=deferred,
                                        showing=showing)


def _targets(module: str, node: ast.stmt) -> set[str]:
    """The package modules an import statement of ``module`` loads."""
    out = set()
    if isinstance(node, ast.Import):
        out = {a.name for a in node.names}
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = module.split(".")
            if not MODULES[module].name == "__init__.py":
                base = base[:-1]
            base = base[:len(base) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        for a in node.names:
            sub = f"{target}.{a.name}"
            out.add(sub if sub in MODULES else target)
    return {t for t in out if t in MODULES and t != module}


@functools.cache
def graph(*, deferred: bool) -> dict[str, frozenset[str]]:
    """module -> the package modules it imports (see the module docstring); read once per test process."""
    g: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, showing in _imports(tree.body, deferred=deferred):
            if not showing:
                g[m] |= _targets(m, node)
    return {m: frozenset(v) for m, v in g.items()}


def _known(a: str, b: str) -> bool:
    return any(fnmatch.fnmatchcase(a, x) and fnmatch.fnmatchcase(b, y) for x, y, _ in KNOWN)


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def _without_known(g: dict[str, frozenset[str]]) -> dict[str, set[str]]:
    return {a: {b for b in bs if not _known(a, b)} for a, bs in g.items()}


def _describe(g: dict[str, set[str]], comp: list[str]) -> str:
    inside = set(comp)
    return "; ".join(f"{a} -> {', '.join(sorted(g[a] & inside))}" for a in comp)


@pytest.mark.parametrize("deferred", [False, True], ids=["module-level", "with-deferred"])
def test_no_import_circle(deferred: bool) -> None:
    g = _without_known(graph(deferred=deferred))
    found = cycles(g)
    assert not found, "import circles: " + " | ".join(_describe(g, c) for c in found)


def test_known_circles_still_exist() -> None:
    """A known circle's import that is gone must leave :data:`KNOWN` too (its owner removes the line)."""
    g = graph(deferred=True)
    edges = [(a, b) for a, bs in g.items() for b in bs]
    stale = [(x, y, who) for x, y, who in KNOWN
             if not any(fnmatch.fnmatchcase(a, x) and fnmatch.fnmatchcase(b, y) for a, b in edges)]
    assert not stale, f"no longer imported, remove from KNOWN: {stale}"


def test_the_graph_sees_what_it_should() -> None:
    """The reader itself: edges it must find and ones it must leave out, on modules that exist."""
    top = graph(deferred=False)
    everything = graph(deferred=True)
    assert "shipcheck.topology" in top["shipcheck.model"]  # module level
    assert "shipcheck.cli._common" in top["shipcheck.cli.fly"]  # relative, from a package's module
    assert "shipcheck.flight.odds" not in top["shipcheck.cli.fly"]  # deferred: inside odds_cmd ...
    assert "shipcheck.flight.odds" in everything["shipcheck.cli.fly"]  # ... and seen with deferred imports
    assert "shipcheck.render" not in everything["shipcheck.model"]  # only in Ship's showing methods
    assert "shipcheck.model" in top["shipcheck.flight.kernel"]  # under TYPE_CHECKING (Ship, Tile) at module level
    # a circle is found where there is one
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# -- the documented layers -------------------------------------------------------------------------
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"
LAYER_ROW = re.compile(r"^\|\s*(\d+)\.[^|]*\|(?P<mods>[^|]*)\|\s*$")


def layers() -> dict[str, int]:
    """Module-name pattern -> layer, from the table of docs/architecture.md."""
    out: dict[str, int] = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        m = LAYER_ROW.match(line)
        if m:
            for name in re.findall(r"`([^`]+)`", m["mods"]):
                out["shipcheck" if name == "shipcheck" else f"shipcheck.{name}"] = int(m[1])
    return out


def layer_of(module: str, table: dict[str, int]) -> int | None:
    """The layer of the longest pattern matching ``module`` (None when none does)."""
    hits = [p for p in table if fnmatch.fnmatchcase(module, p)]
    return table[max(hits, key=len)] if hits else None


def test_every_module_has_a_documented_layer() -> None:
    table = layers()
    assert len(set(table.values())) >= 8, "the layer table of docs/architecture.md was not found"
    missing = sorted(m for m in MODULES if layer_of(m, table) is None)
    assert not missing, f"add these modules to the layer table of docs/architecture.md: {missing}"


@pytest.mark.parametrize("deferred", [False, True], ids=["module-level", "with-deferred"])
def test_imports_flow_down_the_documented_layers(deferred: bool) -> None:
    table = layers()
    g = _without_known(graph(deferred=deferred))
    up = sorted(f"{a} ({layer_of(a, table)}) imports {b} ({layer_of(b, table)})"
                for a, bs in g.items() for b in bs
                if (layer_of(a, table) or 0) < (layer_of(b, table) or 0))
    assert not up, "imports pointing up the layers of docs/architecture.md: " + "; ".join(up)
