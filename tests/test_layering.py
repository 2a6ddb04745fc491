"""Layering: the core imports no front end (click, matplotlib), and no heavy module at import time.

The CLI (``shipcheck/cli/``), the workbench (``shipcheck/serve/``) and the report's drawing layer
(``shipcheck/report/``) sit on top; every other module is core. The workbench stands beside the CLI,
on the library: neither imports the other (the CLI's `serve` command only starts it). Core modules may import rich inside a function (``__rich__`` for notebooks),
never at module level, so ``import shipcheck`` and ``shipcheck check`` stay fast.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "shipcheck"
TOP_LAYERS = {"cli", "report", "serve"}
CORE = sorted(p for p in PACKAGE.rglob("*.py")
              if p.name != "__main__.py" and not TOP_LAYERS & set(p.relative_to(PACKAGE).parts[:-1]))


def _runs(tree: ast.Module) -> ast.Module:
    """The module without its ``if TYPE_CHECKING:`` blocks (imports for type checkers never run)."""
    tree.body = [n for n in tree.body if not (isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")]
    return tree


@functools.cache
def imported(path: Path, *, top_level_only: bool = False) -> frozenset[str]:
    """The top-level names ``path`` imports (read once per test process)."""
    tree = _runs(ast.parse(path.read_text(encoding="utf-8")))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level >= 1 and node.module:
            out.add("shipcheck." + node.module.split(".")[0])
    return frozenset(out)


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_imports_no_front_end(path: Path) -> None:
    bad = imported(path) & {"typer", "matplotlib", "click", "shipcheck.cli", "shipcheck.report", "shipcheck.serve",
                            "starlette", "uvicorn"}
    assert not bad, f"{path.name} imports {sorted(bad)}"
    assert "rich" not in imported(path, top_level_only=True), f"{path.name} imports rich at module level"


def test_the_workbench_imports_no_command_line() -> None:
    for p in (PACKAGE / "serve").rglob("*.py"):
        bad = imported(p) & {"typer", "click", "shipcheck.cli", "rich"}
        assert not bad, f"{p.name} imports {sorted(bad)}"


def test_only_the_cli_imports_typer_and_nothing_imports_click() -> None:
    """The command line is Typer (which carries its own click); nothing imports click itself, so no
    second copy of click is loaded."""
    users = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if "typer" in imported(p)]
    assert users and all(u.startswith("cli/") for u in users)
    assert not [p.name for p in PACKAGE.rglob("*.py") if "click" in imported(p)]
