"""The bit-operation checker gives the very reports of the object-per-joint checker it replaced.

The previous implementation is kept in ``benchmarks/checker_baseline.py`` (the benchmark's in-process
baseline). On random ships of every built-in board (hypothesis, the generator of
``test_checker_properties``) and on dense full-board ships, both must return equal violations (code,
cells, message, in order), exposed counts, joins and pieces.
"""

from __future__ import annotations

import sys
from dataclasses import astuple
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from shipcheck.check.rules import Layout, check
from shipcheck.model import KINDS, Ship, Tile
from shipcheck.shipfile import load_ship, parse_ship
from shipcheck.topology import BUILTIN_CLASSES, builtin_board

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))
import checker_baseline as baseline  # noqa: E402  (benchmarks/ is not a package)
from test_checker_properties import ship_texts  # noqa: E402

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").rglob("*.toml"))


def assert_same(ship: Ship) -> None:
    # T1 (a catalogue tile named twice) came after the baseline: its own cases test it (tests/cases)
    new, old = check(ship, ignore={"T1"}), baseline.check(ship)
    assert [(v.code, v.cells, v.message) for v in new.violations] == \
        [(v.code, v.cells, v.message) for v in old.violations]
    assert (new.exposed_connectors, new.exposed_by_side) == (old.exposed_connectors, old.exposed_by_side)
    assert new.to_dict() == old.to_dict()
    lay, ref = Layout.of(ship), baseline.Layout.of(ship)
    assert {i: sorted(v) for i, v in lay.adj.items()} == {i: sorted(v) for i, v in ref.adj.items()}
    assert lay.pieces() == ref.pieces()
    assert [astuple(j) for j in lay.joints] == [astuple(j) for j in ref.joints]
    for sel in ({"C1", "S1"}, {"W1"}):
        assert check(ship, select=sel) == baseline.check(ship, select=sel)
        assert check(ship, ignore=sel | {"T1"}) == baseline.check(ship, ignore=sel)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ship_texts(max_tiles=16))
def test_random_ships(text: str) -> None:
    assert_same(parse_ship(text))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples(path: Path) -> None:
    assert_same(load_ship(path))


@pytest.mark.parametrize("cls", BUILTIN_CLASSES)
def test_every_square_filled(cls: str) -> None:
    """Every square of the grid holds a tile (B1 everywhere off the board; wraps, seams, hulls)."""
    import random

    board = builtin_board(cls)
    rng = random.Random(cls)
    kinds = sorted(KINDS)
    for _ in range(10):
        tiles = []
        for i in range(board.size):
            kind = rng.choice(kinds)
            info = KINDS[kind]
            func = set(info.barrels + info.exhausts)
            sides = "".join("0" if s in func else str(rng.randint(0, 3)) for s in range(4))
            attrs = tuple(sorted((a, v[0]) for a, v in info.attrs.items() if v))
            crew = rng.choice((None, "purple", "orange")) if info.crew else None
            tiles.append(Tile(at=i, kind=kind, sides=sides, rot=rng.randint(0, 3), attrs=attrs, crew=crew))
        assert_same(Ship(board=board, tiles=tuple(tiles), front="E" if board.choose_front else None))
