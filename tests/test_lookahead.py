"""The advisor looks ahead (issue 29): what a ship can still become, and a first rank that never
closes the ship in while another placement keeps it open; seeded piles welded at the first rank
grow a class II starter to 18 tiles or more, also on piles whose first tiles mostly have one
connector (seeds that walled the ship in before the look-ahead saw the next tile); the piles on
which it still walls the ship in (seeds 50 and 57), and the rollouts that play the next draws out."""

from __future__ import annotations

import json

import numpy as np
import pytest
from clikit import run

import shipcheck
from shipcheck.advice.growth import growth
from shipcheck.check.starter import starter_ship
from shipcheck.shipfile import catalogue, parse_ship

LONE = 'format = 1\nclass = "I"\n'
# the pilot cabin (7,7) of class I with a tile on each side whose only connector faces it
BOXED = LONE + "".join(f'[[tile]]\nat = [{c}, {r}]\nkind = "structural"\nsides = "{s}"\n'
                       for c, r, s in ((7, 6, "0010"), (8, 7, "0001"), (7, 8, "1000"), (6, 7, "0100")))


def test_a_lone_pilot_cabin_can_grow_on_every_side() -> None:
    ship = parse_ship(LONE)
    g = growth(ship)
    board = ship.board
    beside = [j for j in board.nb[board.start] if j >= 0 and board.buildable(j)]
    assert g.entrances == len(beside) == 4
    assert g.free == sum(1 for i in range(board.size) if board.buildable(i)) - 1
    assert g.room == g.free  # the board is one connected region
    assert not g.closed and 0 < g.fit <= 1 and g.options >= g.fit
    # every tile with a connector joins a universal one: the next tile fills one of the 4
    # entrances and opens at most 3 (a tile that fits nowhere leaves the 4)
    assert 3 <= g.after <= 6
    # the rollouts weld at most one tile a draw, and the same seeded orders give the same number
    assert g.future is None
    ahead = growth(ship, rollouts=8).future
    assert ahead is not None and 0 < ahead <= 24 and growth(ship, rollouts=8).future == ahead


def test_a_boxed_in_ship_is_closed() -> None:
    ship = parse_ship(BOXED)
    assert shipcheck.check(ship).legal
    g = growth(ship)
    assert (g.entrances, g.room, g.fit, g.options, g.after) == (0, 0, 0.0, 0.0, 0.0)
    assert growth(ship, rollouts=8).future == 0
    assert g.closed and g.free > 0
    a = shipcheck.advise(ship, "structural:1111", credits=False, exact=False)
    assert not a.placements and "no legal placement" in a.reason


def test_barrels_and_exhausts_take_room() -> None:
    # a cannon above the pilot cabin points at the square in front of it: that square is lost
    ship = parse_ship(LONE + '[[tile]]\nat = [7, 6]\nkind = "cannon"\nsides = "0333"\n')
    g, before = growth(ship), growth(parse_ship(LONE))
    front = ship.board.nb[ship.board.nb[ship.board.start][0]][0]
    assert ship.board.buildable(front)
    assert g.free == before.free - 1
    assert g.room <= g.free - 1


def _walk(seed: int, **kw: object) -> tuple[shipcheck.Ship, list[shipcheck.Advice]]:
    """Weld at the first rank every tile of a seeded shuffle of the 2007 catalogue (40 draws; a tile
    with no legal placement, a pilot cabin among them, is put back)."""
    ship = parse_ship(starter_ship("II"))
    ids = list(catalogue("2007"))
    seen = []
    for k in np.random.default_rng(seed).permutation(len(ids))[:40]:
        a = shipcheck.advise(ship, ids[k], credits=False, **kw)
        if a.placements:
            seen.append(a)
            ship = a.placements[0].ship
    return ship, seen


#: piles on which the first rank walled the ship in before ``after`` (ending with 16, 17, 12, 13 tiles)
WALLED = (20, 21, 32, 37)
#: piles on which it still does (17, 15 and 13 tiles; benchmarks/bench_piles.py --best searches them)
SHORT = (27, 50, 57)


@pytest.fixture(scope="module")
def walks() -> dict[int, tuple[shipcheck.Ship, list[shipcheck.Advice]]]:
    return {seed: _walk(seed) for seed in (0, *WALLED, *SHORT)}


@pytest.mark.parametrize("seed", [0, *WALLED])
def test_forty_draws_build_a_legal_ship_of_eighteen_tiles(seed: int, walks) -> None:
    ship, seen = walks[seed]
    assert shipcheck.check(ship).legal
    assert len(ship.tiles) >= 18
    for a in seen:
        if any(not p.growth.closed for p in a.placements):
            assert not a.placements[0].growth.closed


def test_the_next_tile_fills_one_entrance_and_opens_at_most_three(walks) -> None:
    for _, seen in walks.values():
        for a in seen:
            for p in a.placements:
                g = p.growth
                # a barrel or an exhaust shuts at most one more
                assert max(0, g.entrances - 2) <= g.after <= g.entrances + 2


def test_never_first_a_placement_that_closes_in_even_when_its_value_is_higher() -> None:
    from dataclasses import replace

    from shipcheck.advice import _look_ahead

    _, seen = _walk(64, exact=False, weigh="outlook=0,exposed=100")
    mixed = [a for a in seen if len({p.growth.closed for p in a.placements}) == 2]
    assert mixed, "no draw offered both kinds of placement"
    for a in mixed:
        assert not a.placements[0].growth.closed
        # the closing placements made the most valuable by far: still ranked after the open ones
        dear = [replace(p, score=1000.0) if p.growth.closed else p for p in a.placements]
        for outlook in (0.0, 1.0):
            ranked, _ = _look_ahead(dear, outlook, False)
            assert not ranked[0].growth.closed
            assert [p.growth.closed for p in ranked] == sorted(p.growth.closed for p in ranked)


def test_place_says_how_the_rank_was_formed(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    f = tmp_path / "start.toml"
    f.write_text(starter_ship("II"))
    code, out, _ = run(capsys, "place", str(f), "2007:80", "--no-credits", "--no-exact", "--format", "json")
    d = json.loads(out)
    assert code == 0 and "look-ahead" in d["ranking"] and "closes the ship in" in d["ranking"]
    values = [p["value"] for p in d["placements"]]
    assert values == sorted(values, reverse=True)
    assert "rollouts" not in d["ranking"] and "future" not in d["placements"][0]
    assert {"room", "entrances", "fit", "options", "after", "closes_in"} <= set(d["placements"][0])
    for p in d["placements"]:
        look = p["room"] + 6 * p["options"] + 10 * p["fit"] + 20 * p["after"]
        assert p["value"] == pytest.approx(look + 0.3 * p["score"])
    code, out, _ = run(capsys, "place", str(f), "2007:80", "--no-credits", "--no-exact")
    assert code == 0 and "ranked by: value" in out



@pytest.mark.parametrize("seed", SHORT)
def test_the_piles_that_still_wall_the_ship_in(seed: int, walks) -> None:
    # the ship is legal and the first rank kept it open while any placement did, yet it ends short
    ship, seen = walks[seed]
    assert shipcheck.check(ship).legal and len(ship.tiles) == {27: 17, 50: 15, 57: 13}[seed]
    assert seen[-1].placements[0].growth.closed
    for a in seen:
        if any(not p.growth.closed for p in a.placements):
            assert not a.placements[0].growth.closed


def test_rollouts_join_the_value_and_say_so(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    f = tmp_path / "start.toml"
    f.write_text(starter_ship("II"))
    code, out, _ = run(capsys, "place", str(f), "2007:80", "--no-credits", "--no-exact", "--rollouts", "16",
                       "--format", "json")
    d = json.loads(out)
    assert code == 0 and "mean of 16 seeded rollouts" in d["ranking"]
    values = [p["value"] for p in d["placements"]]
    assert values == sorted(values, reverse=True)
    for p in d["placements"]:
        assert 0 <= p["future"] <= 24
        look = p["room"] + 6 * p["options"] + 10 * p["fit"] + 20 * p["after"] + 20 * p["future"]
        assert p["value"] == pytest.approx(look + 0.3 * p["score"])
    # the same ship and tile, the same rollouts: the same ranking, on any run
    again = json.loads(run(capsys, "place", str(f), "2007:80", "--no-credits", "--no-exact", "--rollouts", "16",
                           "--format", "json")[1])
    assert again == d


def test_rollouts_keep_seed_27_open() -> None:
    # a pile that walls the one-step look-ahead in at 17 tiles: played out 32 times a draw, 20
    ship, seen = _walk(27, exact=False, rollouts=32)
    assert shipcheck.check(ship).legal and len(ship.tiles) >= 18
    assert all(a.placements[0].growth.future is not None for a in seen)
