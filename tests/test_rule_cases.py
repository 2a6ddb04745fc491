"""Data-driven rule cases: one file per rule code in tests/cases/<CODE>.toml.

Each ``[[case]]`` names a small ship, says why it is (il)legal, and gives the expected result worked
out by hand from the contract (spec/contract.md §2): ``legal``, the number of ``exposed``
connectors, and ``expect``, the union of reported cells for every ERROR code (codes not listed must
not be reported). ``warnings`` (optional) does the same for warning codes; without it warnings are
not compared. ``board_toml`` (optional) is a custom board written next to the ship as board.toml.
``xfail = "reason"`` marks a case where the checker is believed to be wrong.

Cells are written as on the board: ``[column, row]`` labels, or ``{col = i, row = j}`` grid indices
(accepted on every board).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from shipcheck.check.rules import RULES, check
from shipcheck.shipfile import parse_ship
from shipcheck.topology import Board

CASES_DIR = Path(__file__).resolve().parent / "cases"
CASE_KEYS = {"name", "why", "legal", "exposed", "expect", "warnings", "ship", "board_toml", "xfail"}


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every case of every file, as (``<CODE>_<name>``, case)."""
    out = []
    for path in sorted(CASES_DIR.glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        for case in doc.get("case", []):
            out.append((f"{path.stem}_{case['name']}", case))
    return out


def cell_index(board: Board, cell: Any) -> int:
    """Grid index of a cell written as [column, row] labels or {col = i, row = j}."""
    if isinstance(cell, dict):
        return int(cell["row"]) * board.width + int(cell["col"])
    col, row = cell
    cs = [j for j, lab in enumerate(board.columns) if col in lab]
    rs = [j for j, lab in enumerate(board.rows) if row in lab]
    assert len(cs) == 1 and len(rs) == 1, f"cell {cell} is not a unique label pair on board {board.name}"
    return rs[0] * board.width + cs[0]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" in metafunc.fixturenames:
        params = []
        for case_id, case in load_cases():
            marks = [pytest.mark.xfail(reason=case["xfail"], strict=True)] if "xfail" in case else []
            params.append(pytest.param(case, id=case_id, marks=marks))
        metafunc.parametrize("case", params)


def _named(board: Board, cells: set[int]) -> list[str]:
    return sorted(board.cell_text(i) for i in cells)


def test_rule_case(case: dict[str, Any], tmp_path: Path) -> None:
    assert set(case) <= CASE_KEYS, f"unknown keys {set(case) - CASE_KEYS}"
    assert case.get("why"), "every case says why"
    base_dir = None
    if "board_toml" in case:
        (tmp_path / "board.toml").write_text(case["board_toml"], encoding="utf-8")
        base_dir = tmp_path
    ship = parse_ship(case["ship"], base_dir=base_dir)
    board = ship.board
    report = check(ship)
    got = report.codes()
    got_err = {c: cells for c, cells in got.items() if RULES[c].severity == "error"}
    got_warn = {c: cells for c, cells in got.items() if RULES[c].severity == "warning"}

    want_err = {c: {cell_index(board, x) for x in cells} for c, cells in case.get("expect", {}).items()}
    for c in want_err:
        assert RULES[c].severity == "error", f"{c} is not an error code; list it under `warnings`"
    shown = {c: _named(board, v) for c, v in got_err.items()}
    assert {c: _named(board, v) for c, v in want_err.items()} == shown, report.violations
    assert got_err == want_err
    if "warnings" in case:
        want_warn = {c: {cell_index(board, x) for x in cells} for c, cells in case["warnings"].items()}
        assert {c: _named(board, v) for c, v in want_warn.items()} == {
            c: _named(board, v) for c, v in got_warn.items()
        }, report.violations
    assert case["legal"] is (not want_err), "`legal` must agree with `expect`"
    assert report.legal is case["legal"]
    assert report.exposed_connectors == case["exposed"]
