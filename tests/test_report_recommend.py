"""What-if variants: every legal single change, described in words, and only legal ones."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from shipbuild import PILOT, ship, tile

from shipcheck.check.rules import check
from shipcheck.report.recommend import paired, variants
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
        return simulate_round(s, round=1, opponents=[], deck=["II-10"], runs=runs, seed=seed, policy=policy, keep_runs=True).players[0]

    rec = recommend(GUARDED, fly, runs=600, seed=3, screen_runs=150, top=5, policies=("default", "racing"), pile=0)
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
        return simulate_round(s, round=1, opponents=[], runs=runs, seed=seed, policy=policy, keep_runs=True).players[0]

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


# -- tiles from the pile: additions and swaps -------------------------------------------------------
def _look(kind: str, sides: str, attrs: tuple, rot: int):  # type: ignore[no-untyped-def, type-arg]
    from shipcheck.model import Tile

    t = Tile(at=0, kind=kind, sides=sides, rot=rot, attrs=attrs)
    return (t.eff, tuple(sorted(t.barrels)), tuple(sorted(t.exhausts)), tuple(sorted(t.covers)))


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_the_pile_is_the_catalogue_by_type(edition: str) -> None:
    from shipcheck.advice.pile import pile_types
    from shipcheck.shipfile import catalogue

    types = pile_types(edition)
    pile = [t for t in catalogue(edition).values() if t.kind != "start_cabin"]
    assert sum(p.count for p in types) == len(pile)
    assert [p.count for p in types] == sorted((p.count for p in types), reverse=True)
    for p in types:
        mine = [t for t in pile if (t.kind, t.attrs) == (p.kind, p.attrs)]
        assert len(mine) == p.count
        # every copy looks like one of the patterns turned, and no two patterns look alike turned
        looks = [{_look(q.kind, q.sides, q.attrs, r) for r in range(4)} for q in p.patterns]
        assert all(any(_look(t.kind, t.sides, t.attrs, 0) in lk for lk in looks) for t in mine)
        assert all(a.isdisjoint(b) for i, a in enumerate(looks) for b in looks[i + 1:])


# a pilot cabin with a cabin above it: every side of both is universal, so tiles of any kind fit around
OPEN = ship(PILOT + tile((7, 6), "cabin", "3333"))


def test_additions_name_the_tile_and_its_square_and_are_legal() -> None:
    from shipcheck.advice.pile import pile_types
    from shipcheck.report.recommend import additions, flight_signature

    types = pile_types("2007")[:4]
    found = additions(OPEN, types, per_type=3)
    assert [pt for pt, _, _ in found] == list(types)
    for pt, vs, why in found:
        assert vs and not why and len({v.squares for v in vs}) <= 3
        # on each square every turn a round can tell apart, once, best score first
        for sq in {v.squares for v in vs}:
            here = [v for v in vs if v.squares == sq]
            assert len({flight_signature(v.ship) for v in here}) == len(here)
            assert [v.score for v in here] == sorted((v.score for v in here), reverse=True)
        for v in vs:
            assert v.kind == "add" and v.group == "build" and v.pile is pt
            assert check(v.ship).legal and len(v.ship.tiles) == len(OPEN.tiles) + 1
            new = v.ship.tile_at(v.squares[0])
            assert new is not None and (new.kind, new.attrs) == (pt.kind, pt.attrs) and new.id == v.tile
            assert v.text.startswith(("add a ", "add an ")) and f" {pt.name} at {OPEN.board.cell_text(v.squares[0])}" in v.text
            assert v.tile is not None and v.tile in v.text


# the ship: no shield, connectors open to the front, one free square (5,7) beside the cabin
# (6,7); the shield that scores best there (fewest open connectors) covers the rear and left
BARE = ship(PILOT + tile((6, 7), "cabin", "3333") + tile((8, 7), "cabin", "3333")
            + tile((6, 6), "structural", "3333") + tile((7, 6), "structural", "3333")
            + tile((8, 6), "structural", "3333") + tile((7, 5), "structural", "3333")
            + tile((7, 8), "engine", "1000") + tile((6, 8), "engine", "1000")
            + tile((8, 8), "battery", "1000", cells=3) + tile((9, 7), "cargo", "0003", slots=2))


def test_a_new_shield_is_turned_by_what_it_does_to_the_round() -> None:
    from shipcheck.advice.pile import pile_types
    from shipcheck.report.recommend import additions, recommend
    from shipcheck.round import simulate_round

    assert check(BARE).legal and check(BARE).exposed_by_side[0] == 3
    shield = [p for p in pile_types("2007") if p.kind == "shield"]
    (_, vs, _), = additions(BARE, shield)
    # every turn of every pattern is a candidate (the rear-and-left turn the old score picked among them)
    from shipcheck.check.fix import square_of

    assert {v.squares for v in vs} == {(square_of(BARE.board, (5, 7)),)}
    assert any("covering the rear and left" in v.text for v in vs) and any("covering the front" in v.text for v in vs)

    def fly(s, policy, runs, seed):  # type: ignore[no-untyped-def]
        # small meteors from the front, and from every side once: covering the front is what counts
        return simulate_round(s, round=1, opponents=[], deck=["I-11", "I-10", "I-11"], runs=runs, seed=seed,
                              policy=policy, keep_runs=True).players[0]

    rec = recommend(BARE, fly, runs=400, seed=2, screen_runs=100, candidates=[], pile=shield)
    (added,) = rec.additions
    assert added.effect is not None and "covering the front" in added.effect.variant.text
    assert added.effect.credits_ci[0] > 0 and added.tried == len(vs)


def test_additions_and_swaps_bring_a_copy_the_ship_does_not_hold() -> None:
    from shipcheck.advice.pile import pile_types
    from shipcheck.report.recommend import additions, swaps

    # the ship holds the first copy of a shield pattern already: another copy comes in (rule T1)
    held = ship(PILOT + '\n[[tile]]\nat = [7, 6]\nid = "2007:115"\n')
    assert check(held).legal
    types = [p for p in pile_types("2007") if p.kind in ("shield", "cabin")]
    found = [v for _, vs, _ in additions(held, types) for v in vs] + swaps(held, types)
    assert found and all(check(v.ship).legal and v.tile != "2007:115" for v in found)


def test_no_addition_on_a_full_board_says_why() -> None:
    from shipcheck.advice.pile import pile_types
    from shipcheck.report.recommend import additions

    full = load_ship("examples/class-II-freighter.toml")
    (_, vs, why), = additions(full, pile_types("2007")[:1])
    assert vs == [] and "every buildable square next to the ship is built" in why


def test_swaps_replace_one_tile_by_another_kind_legally() -> None:
    from shipcheck.advice.pile import pile_types
    from shipcheck.report.recommend import swaps

    s = load_ship("examples/blue-round1.toml")
    types = pile_types("2007")[:5]
    found = swaps(s, types, per_type=2)
    assert found
    for v in found:
        assert v.kind == "swap" and check(v.ship).legal and len(v.ship.tiles) == len(s.tiles)
        (sq,) = v.squares
        old, new = s.tile_at(sq), v.ship.tile_at(sq)
        assert old is not None and new is not None and old.kind != "start_cabin"
        assert (old.kind, old.attrs) != (new.kind, new.attrs) and v.pile is not None
        assert (new.kind, new.attrs) == (v.pile.kind, v.pile.attrs)
        # every other tile stays as it was
        assert [t for t in v.ship.tiles if t.at != sq] == [t for t in s.tiles if t.at != sq]
        assert v.text.startswith(f"swap the {old.kind.replace('_', ' ')} at {s.board.cell_text(sq)} for a")


@pytest.mark.slow
def test_the_search_brings_in_tiles_from_the_pile_and_groups_its_advice() -> None:
    from shipcheck.report.recommend import recommend
    from shipcheck.round import simulate_round

    def fly(s, policy, runs, seed):  # type: ignore[no-untyped-def]
        return simulate_round(s, round=1, opponents=[], runs=runs, seed=seed, policy=policy, keep_runs=True).players[0]

    rec = recommend(OPEN, fly, runs=200, seed=5, screen_runs=60, policies=("default", "racing"), pile=3)
    assert [a.pile.name for a in rec.additions] == ["cannon", "engine", "cabin"]
    placed = [a for a in rec.additions if a.effect is not None]
    assert placed
    for a in placed:
        e = a.effect
        assert e is not None and e.variant.kind == "add" and e.runs == 200 and a.pile.name in e.variant.text
        lo, hi = e.credits_ci
        assert lo <= e.credits <= hi
    assert all(e.variant.group == "build" for e in rec.build)
    assert all(e.variant.kind == "policy" for e in rec.flight)
    assert set(rec.effects) == set(rec.build) | set(rec.flight)
    doc = rec.to_dict(OPEN)
    assert {c["group"] for c in doc["changes"]} <= {"build", "flight"}
    assert all("same 200 rounds" in c["measured"] and c["verdict"] in ("gain", "loss", "unclear")
               for c in doc["changes"])
    assert [a["tile"] for a in doc["additions"]] == ["cannon", "engine", "cabin"]
    df = rec.to_frame()
    assert len(df) == len(rec.measured) and {"group", "credits_lo", "credits_hi"} <= set(df.columns)
    assert "\n" not in repr(rec) and len(repr(rec)) < 300


def _effect(text: str, kind: str, credits: float, half: float):  # type: ignore[no-untyped-def]
    from shipcheck.report.recommend import Effect, Variant

    return Effect(Variant(kind, text, GUARDED), 300, credits, (credits - half, credits + half), 0.1, (0.0, 0.2), 0.0,
                  seed=4)


def test_the_page_says_when_no_change_earns_more_and_shows_costs_as_such() -> None:
    from types import SimpleNamespace

    from shipcheck.report.html import _advice
    from shipcheck.report.recommend import Recommendations

    rec = Recommendations((_effect("remove the shield at (6,7)", "remove", -0.45, 0.1),
                           _effect("rotate the battery at (5,7) 90° clockwise", "rotate", -0.05, 0.2),
                           _effect("fly the racing policy", "policy", -2.0, 0.3)), 17, 300, 100, 4)
    assert rec.best is None and rec.gains == ()
    page = _advice({}, "", SimpleNamespace(advice=rec, name="Guarded"))  # type: ignore[arg-type]
    assert "No single change earns more" in page
    assert "costs 0.45" in page and "costs 2.00" in page  # sure losses read as costs
    assert "+0.45" not in page and "-0.05" in page  # an unclear effect keeps its sign
    assert "Next time you build" in page and "A welded ship cannot be changed" in page
    assert page.index("Next time you build") < page.index("remove the shield") < page.index("In flight")
    assert page.index("In flight") < page.index("fly the racing policy")
    assert "the same decks and dice, seed 4" in page and "95% interval" in page


def test_the_page_names_the_best_change_with_its_interval() -> None:
    from types import SimpleNamespace

    from shipcheck.report.html import _advice
    from shipcheck.report.recommend import Recommendations

    rec = Recommendations((_effect("turn the shield at (6,7) to cover the front and left", "shield", 1.25, 0.5),), 3,
                          300, 100, 4)
    page = _advice({}, "", SimpleNamespace(advice=rec, name="Guarded"))  # type: ignore[arg-type]
    assert "Best change:" in page and "+1.25 credits" in page and "(+0.75 to +1.75)" in page
    assert "for the next build" in page and "No single change" not in page


def test_a_change_that_takes_something_away_says_what_it_costs() -> None:
    from shipcheck.advice.pile import pile_types
    from shipcheck.report.recommend import costs, swaps

    # the freighter's purple alien in the cabin (6,6) gives 2 of its 6 firepower (rules §7: +2 to a
    # firepower above 0); swapping that cabin away loses the alien, and the sentence says so
    s = load_ship("examples/class-II-freighter.toml")
    shield = [p for p in pile_types("2007") if p.kind == "shield"]
    away = next(v for v in swaps(s, shield) if v.text.startswith("swap the cabin at (6,6)"))
    assert costs(s, away.ship) == "it costs the purple alien and with it 2 of the ship's 6 firepower"
    removed = next(v for v in variants(s, moves=False) if v.text == "remove the cargo at (9,7)")
    assert costs(s, removed.ship) == "it costs 2 of the ship's 12 cargo slots"
    assert costs(s, s) == ""
    # its two shields both cover the front and right: one swapped away leaves one there
    double = [p for p in pile_types("2007") if p.kind == "double_cannon"]
    shield_away = next(v for v in swaps(s, double) if v.text.startswith("swap the shield at (5,6)"))
    assert costs(s, shield_away.ship) == "it costs 1 of the 2 shields over the front and right"
    # the only battery: all of them
    lone = ship(PILOT + tile((8, 7), "battery", "0003", cells=2))
    gone = next(v for v in variants(lone, moves=False) if v.kind == "remove")
    assert costs(lone, gone.ship) == "it costs all the ship's battery cells (2)"
