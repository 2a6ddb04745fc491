"""What-if variants: every legal single change, described in words, and only legal ones."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from shipbuild import PILOT, ship, tile

from shipcheck.report.recommend import paired, variants
from shipcheck.rules import check
from shipcheck.shipfile import load_ship


def test_turns_of_a_shield_and_its_removal() -> None:
    s = ship(PILOT + tile((8, 7), "shield", "3333"))
    texts = [v.text for v in variants(s) if v.kind in ("shield", "remove")]
    assert texts == [
        "turn the shield at (8,7) to cover the right and rear",
        "turn the shield at (8,7) to cover the rear and left",
        "turn the shield at (8,7) to cover the front and left",
        "remove the shield at (8,7)",
    ]


def test_moves_go_next_to_the_ship_in_every_legal_orientation() -> None:
    s = ship(PILOT + tile((8, 7), "shield", "3333"))
    moves = [v for v in variants(s) if v.kind == "move"]
    # the shield may go to the three other squares next to the pilot cabin, each in 4 orientations
    assert Counter(v.squares[1] for v in moves) == {s.board.nb[s.pilot.at][k]: 4 for k in (0, 2, 3)}  # type: ignore[union-attr]
    assert moves[0].text == "move the shield from (8,7) to (7,6)"
    assert moves[1].text == "move the shield from (8,7) to (7,6), turned 90°"


def test_a_symmetric_tile_is_not_turned_and_illegal_turns_are_dropped() -> None:
    # the structural module is universal on every side: turning it changes nothing; the cargo joins
    # the pilot cabin with its W connector only, so any turn breaks C1 or leaves it loose
    s = ship(PILOT + tile((7, 8), "structural", "3333") + tile((8, 7), "cargo", "0001", slots=2))
    vs = variants(s, moves=False)
    assert vs and all(v.kind != "rotate" for v in vs)


def test_every_variant_is_legal_and_differs_from_the_ship() -> None:
    s = load_ship("examples/blue-round1.toml")
    vs = variants(s, policies=["default", "racing"])
    assert vs and all(check(v.ship).legal for v in vs)
    assert all(v.ship != s for v in vs if v.kind != "policy")
    assert [v.text for v in vs if v.kind == "policy"] == ["fly the racing policy"]
    assert len({v.text for v in vs}) == len(vs)


def test_placing_a_set_aside_component_that_covers_connectors() -> None:
    s = ship(PILOT + '\n[[aside]]\nkind = "structural"\nsides = "3333"\n')
    vs = variants(s)
    cover = [v for v in vs if v.kind == "cover"]
    # a universal structural module beside the lone pilot cabin covers the cabin's connector on that
    # side and shows three of its own: 4 exposed before, 6 after -- so it covers nothing net
    assert cover == []
    placed = [v for v in vs if v.kind == "aside"]
    assert {v.squares[0] for v in placed} == set(s.board.nb[s.pilot.at]) - {-1}  # type: ignore[union-attr]
    assert all(v.ship.aside == () for v in placed)


def test_a_move_that_covers_exposed_connectors_says_so() -> None:
    # B at (6,7) shows a connector to the S; moved to (8,7) and turned, it joins the pilot cabin's
    # E side and the N side of the module at (8,8): 4 exposed connectors before, 2 after (the
    # cabin's W side is open now)
    s = ship(PILOT + tile((7, 8), "structural", "3100") + tile((8, 8), "structural", "1001")
             + tile((6, 7), "structural", "0110"))
    assert check(s).exposed_connectors == 4
    cover = [v for v in variants(s) if v.kind == "cover"]
    texts = [v.text for v in cover]
    assert "move the structural from (6,7) to (8,7), turned 90°, covering 2 exposed connectors" in texts
    assert all(check(v.ship).exposed_connectors < 4 for v in cover)


def test_paired_differences() -> None:
    a = np.array([3, 5, 7, 9])
    b = np.array([1, 4, 6, 5])
    m, (lo, hi) = paired(a, b)
    d = a - b
    assert m == pytest.approx(2.0)
    half = 1.959963984540054 * d.std(ddof=1) / 2
    assert (lo, hi) == pytest.approx((2 - half, 2 + half))
