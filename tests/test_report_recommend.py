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


# -- the search, flown by the round engine ---------------------------------------------------------
# A class I ship whose only exposed connector is the front (N) single of the module A at (6,6), whose
# front square (6,5) is not part of the board, so no tile can ever cover it; every other outer side
# is smooth, so small meteors from the rear and the sides bounce off. The shield at (6,7) sits inside
# the ship (joined on all four sides, so every turn is legal) covering the rear and the left, where
# nothing can hurt. Card II-10 throws two small meteors from the front (and others that bounce): a
# roll of 6 destroys A, and a second one the shield behind it. Turned to cover the front, the shield
# (two charges in the battery at (5,7)) stops both: the best change. Removing or moving a tile opens
# a connector to the meteors, and no turn of A or B is legal (single, double and smooth sides);
# turning the shield to the right or the left side of the front is the same change for this card.
GUARDED = ship(
    tile((7, 7), "start_cabin", "3003")
    + tile((7, 6), "structural", "0031")
    + tile((6, 6), "structural", "2130")
    + tile((6, 7), "shield", "3333", rot=180)
    + tile((5, 7), "battery", "0100", cells=2)
    + tile((6, 8), "structural", "3000")
)


def test_the_guarded_ship_is_as_described() -> None:
    rep = check(GUARDED)
    assert rep.legal and rep.exposed_connectors == 1 and rep.exposed_by_side == (1, 0, 0, 0)
    shield = GUARDED.tile_at(GUARDED.board.nb[GUARDED.pilot.at][3])  # type: ignore[union-attr]
    assert shield is not None and shield.kind == "shield" and shield.covers == (2, 3)


@pytest.mark.slow
def test_the_search_finds_the_known_best_change() -> None:
    from shipcheck.report.recommend import recommend
    from shipcheck.round import simulate_round

    def fly(s, policy, runs, seed):  # type: ignore[no-untyped-def]
        return simulate_round(s, round=1, opponents=[], deck=["II-10"], runs=runs, seed=seed, policy=policy).players[0]

    rec = recommend(GUARDED, fly, runs=600, seed=3, screen_runs=150, top=5, policies=("default", "racing"))
    best = rec.effects[0]
    assert best.variant.kind == "shield" and "front" in best.variant.text
    assert best.credits_ci[0] > 0 and best.lost < 0
    # the other turn towards the front is the same change for this card, run by run
    assert rec.effects[1].variant.kind == "shield" and "front" in rec.effects[1].variant.text
    assert rec.effects[1].credits == best.credits
    assert all(e.credits < best.credits for e in rec.effects[2:])
    # flying another policy changes nothing against meteors alone: set apart as idle
    assert any(v.kind == "policy" for v in rec.idle)
    assert rec.screened == len(variants(GUARDED, policies=("default", "racing")))


def test_common_random_numbers_make_an_unchanged_ship_differ_by_nothing() -> None:
    from shipcheck.report.recommend import Variant, measure
    from shipcheck.round import simulate_round

    def fly(s, policy, runs, seed):  # type: ignore[no-untyped-def]
        return simulate_round(s, round=1, opponents=[], runs=runs, seed=seed, policy=policy).players[0]

    base = fly(GUARDED, "default", 200, 11)
    assert measure(fly, base, Variant("rotate", "the same ship", GUARDED), 200, 11) is None


def test_turns_a_flight_cannot_tell_apart_are_not_flown() -> None:
    from dataclasses import replace

    from shipcheck.report.recommend import flight_signature

    # the battery at (6,7) is joined on its E side only; turning it shows another universal side
    # to the open squares: a small meteor meets a connector either way, so nothing changes in flight
    s = ship(PILOT + tile((6, 7), "battery", "3333", cells=2))
    battery = s.tile_at(s.board.nb[s.pilot.at][3])  # type: ignore[union-attr]
    assert battery is not None
    turned = replace(s, tiles=tuple(replace(t, rot=1) if t is battery else t for t in s.tiles))
    assert flight_signature(turned) == flight_signature(s)
    assert all(v.kind != "rotate" for v in variants(s))
    # a shield's turn changes the sides it covers
    sh = ship(PILOT + tile((8, 7), "shield", "3333"))
    shield = sh.tile_at(sh.board.nb[sh.pilot.at][1])  # type: ignore[union-attr]
    turned = replace(sh, tiles=tuple(replace(t, rot=1) if t is shield else t for t in sh.tiles))
    assert flight_signature(turned) != flight_signature(sh)
