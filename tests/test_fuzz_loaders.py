"""Fuzzing the ship and board loaders: structural mutations of the shipped files give a loaded
ship (or board) or an InputError, nothing else; a loaded ship can be checked and written back."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipcheck.check.rules import check
from shipcheck.errors import InputError
from shipcheck.model import Ship
from shipcheck.shipfile import dump_ship, parse_ship
from shipcheck.topology import Board, parse_board

ROOT = Path(__file__).resolve().parents[1]
SHIPS = sorted((ROOT / "examples").rglob("*.toml"))
BOARDS = sorted((ROOT / "tiles" / "boards").glob("*.toml"))
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = ["format", "class", "board", "edition", "name", "front", "dice", "tile", "aside", "meta", "at", "id",
         "kind", "sides", "rot", "crew", "charge", "goods", "cells", "slots", "special_slots", "color", "col",
         "row", "columns", "rows", "level", "seams", "redirect", "wrap", "choose_front", "verified", "note",
         "max_penalty", "cabin", "3333", "purple", "2007:5", "II", "boards/x.toml", "front", "²", ""]
SCALARS = st.one_of(
    st.integers(-(2**70), 2**70), st.sampled_from([0, 1, 7, 90, 10**300, -1]), st.floats(allow_nan=True),
    st.booleans(), st.text(max_size=12), st.sampled_from(WORDS),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)),
                      max_leaves=8)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a document."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for p in path[:-1]:
        doc = doc[p]
    return doc


@st.composite
def mutated(draw: st.DrawFn, files: list[Path]) -> tuple[Path, str]:
    """A shipped file, changed by a few structural mutations, as TOML text."""
    path = draw(st.sampled_from(files))
    doc = copy.deepcopy(tomllib.loads(path.read_text(encoding="utf-8")))
    for _ in range(draw(st.integers(1, 4))):
        paths = [p for p in _paths(doc) if p]
        op = draw(st.sampled_from(["delete", "replace", "add", "wrap", "duplicate"]))
        if op == "add" or not paths:
            tables = [p for p in _paths(doc) if isinstance(_parent(doc, p + ("x",)), dict)]
            where = draw(st.sampled_from(tables))
            _parent(doc, where + ("x",))[draw(st.sampled_from(WORDS))] = draw(VALUES)
            continue
        p = draw(st.sampled_from(paths))
        parent = _parent(doc, p)
        if op == "delete":
            del parent[p[-1]]
        elif op == "replace":
            parent[p[-1]] = draw(VALUES)
        elif op == "wrap":
            parent[p[-1]] = draw(st.sampled_from([[parent[p[-1]]], {"a": parent[p[-1]]}]))
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[p[-1]]))
    try:
        text = tomlkit.dumps(doc)
    except Exception:  # a document TOML cannot hold (tomlkit refuses some float/key mixes)
        text = path.read_text(encoding="utf-8")
    if draw(st.booleans()):  # and sometimes a line dropped, doubled or cut
        lines = text.splitlines()
        if lines:
            i = draw(st.integers(0, len(lines) - 1))
            how = draw(st.sampled_from(["drop", "double", "cut"]))
            if how == "drop":
                del lines[i]
            elif how == "double":
                lines.insert(i, lines[i])
            else:
                lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
            text = "\n".join(lines) + "\n"
    return path, text


@FUZZ
@given(mutated(SHIPS))
def test_mutated_ships_load_or_raise_input_error(case: tuple[Path, str]) -> None:
    path, text = case
    try:
        ship = parse_ship(text, file=path.name, base_dir=path.parent)
    except InputError as exc:
        assert exc.errors and all(isinstance(e, InputError) for e in exc.errors)
        assert all("\n" not in e.text for e in exc.errors)
        return
    assert isinstance(ship, Ship)
    check(ship)  # a loaded ship can be checked ...
    again = parse_ship(dump_ship(ship), base_dir=path.parent)  # ... and written back as it is
    assert again.tiles == ship.tiles


@FUZZ
@given(mutated(BOARDS))
def test_mutated_boards_load_or_raise_input_error(case: tuple[Path, str]) -> None:
    path, text = case
    try:
        board = parse_board(text, file=path.name)
    except InputError as exc:
        assert exc.errors and all(isinstance(e, InputError) for e in exc.errors)
        return
    assert isinstance(board, Board)
    check(Ship(board=board, tiles=()))


@pytest.mark.parametrize("private", [False, True])
def test_private_board_errors_never_show_values(private: bool) -> None:
    text = 'format = 1\nname = "b"\ncolumns = "s3cr3t"\nrows = [1]\ncells = ["S"]\ntoken = "s3cr3t"\n'
    with pytest.raises(InputError) as ei:
        parse_board(text, file="b.toml", private=private)
    shown = " ".join(e.text for e in ei.value.errors)
    assert ("s3cr3t" in shown) is not private
    assert "token" in shown and "columns" in shown
