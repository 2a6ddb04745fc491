"""Imports flow one way: the package's import graph has no circle (docs/architecture.md draws it).

Every import of a ``shipcheck`` module by another counts, at the top of a module or inside a
function (a lazy import is still a dependency), except those only a type checker runs (``if
TYPE_CHECKING:``). ``from pkg import name`` counts as importing the module ``pkg.name`` when there is
one, else ``pkg``. The engine's plain copy (``shipcheck.engine_plain``, loaded by
:func:`shipcheck.jit.plain_package`) is the same files and is not a module of its own here.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "shipcheck"


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """The nodes that run: ``if TYPE_CHECKING:`` blocks (anywhere) left out."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            todo.extend(node.orelse)
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def imports(name: str) -> set[str]:
    """The package's modules that module ``name`` imports (at any depth of its code)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("shipcheck")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.startswith("shipcheck"):
                out |= {f"{mod}.{a.name}" if f"{mod}.{a.name}" in MODULES else mod for a in node.names}
    return {m for m in out if m in MODULES and m != name}


GRAPH = {m: imports(m) for m in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
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
        for w in sorted(graph[v]):
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

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_import_graph_has_no_circle() -> None:
    found = cycles(GRAPH)
    detail = "; ".join(" <-> ".join(c) for c in found)
    assert not found, f"import circles: {detail}"


def test_the_rules_sit_below_everything_that_uses_them() -> None:
    # the rules import nothing of the package but the jit shim; their tables (engine.layout) are
    # built from the ship model, the board and the cards
    allowed = {"shipcheck.jit", "shipcheck.cards", "shipcheck.model", "shipcheck.topology"}
    for m, deps in GRAPH.items():
        if m.startswith("shipcheck.engine"):
            outside = {d for d in deps if not d.startswith("shipcheck.engine")} - allowed
            assert not outside, f"{m} imports {sorted(outside)}"
    users = {m for m, deps in GRAPH.items() if any(d.startswith("shipcheck.engine") for d in deps)}
    for front in ("shipcheck.cli", "shipcheck.report", "shipcheck.advice"):
        assert not {u for u in users if u.startswith(front)}, f"{front} reaches into the engine"


def test_the_checker_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
