"""The building bot of examples/build_bot.py: every ship it welds from a seeded tile stream is legal."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

from shipcheck.check.rules import check
from shipcheck.model import Ship

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
import build_bot  # noqa: E402  (examples/ is not a package; a broken example must fail here)


def test_bot_builds_a_legal_class_i_ship_with_exact_loss() -> None:
    ship, done = build_bot.build("I", seed=7)
    assert check(ship).legal
    assert done["welded"] == len(ship.tiles) - 1 and done["drawn"] == 140  # the pilot cabin stood there


@cache
def _built(cls: str, seed: int) -> tuple[Ship, dict[str, int]]:
    """The bot's ship (no exact loss) and what it did, built once for the tests that read it."""
    return build_bot.build(cls, seed=seed, exact=False)


@pytest.mark.parametrize("cls, seed", [("III", 1), ("II", 2), ("IIIC", 3), ("IA", 4), ("IIA", 5)])
def test_bot_ships_are_legal(cls: str, seed: int) -> None:
    ship, done = _built(cls, seed)
    report = check(ship)
    assert report.legal, [(v.code, v.message) for v in report.errors]
    assert done["welded"] >= 8


def test_same_seed_same_ship() -> None:
    # the whole stream of 140 tiles on the quickest board: 140 rankings, each the same again
    a, _ = build_bot.build("IA", seed=4, exact=False)
    assert a == _built("IA", 4)[0]
