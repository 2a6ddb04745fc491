"""Layering: the core modules import neither typer nor matplotlib (the CLI is a thin layer)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "shipcheck"
FRONT_ENDS = {"cli.py", "__main__.py"}
CORE = sorted(p for p in PACKAGE.glob("*.py") if p.name not in FRONT_ENDS)


def imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            out.add("shipcheck." + node.module.split(".")[0])
    return out


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_core_module_imports_no_front_end(path: Path) -> None:
    bad = imported(path) & {"typer", "matplotlib", "click", "shipcheck.cli"}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_ship_repr_pastes_back() -> None:
    from shipcheck import parse_ship  # noqa: F401  (used by eval)
    from shipcheck.shipfile import load_ship

    ship = load_ship(Path(__file__).resolve().parents[1] / "examples" / "class-II-freighter.toml")
    assert eval(repr(ship)) == ship
