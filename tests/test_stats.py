"""Ship statistics: hand-derived crew, power ladders, shields, exposure and attack odds (fractions of 36)."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from shipbuild import PILOT, ship, tile

from shipcheck.flight.stats import render_stats, stats

# 2d6: P(sum s) = (6 - |s - 7|)/36
P = {s: F(6 - abs(s - 7), 36) for s in range(2, 13)}



# forward cannon above the pilot, a cannon turned to the right, a forward double cannon on the left,
# a battery of 2 below
CANNONS = (PILOT + tile((7, 6), "cannon", "0030") + tile((8, 7), "cannon", "0030", rot=90)
           + tile((6, 7), "double_cannon", "0300") + tile((7, 8), "battery", "3000", cells=2))

# a double engine left of the pilot, a single engine below it, a cabin with an orange alien joined to an
# orange life support, a battery holding 1 charge above the pilot
ENGINES = (PILOT + tile((6, 7), "double_engine", "0300") + tile((7, 8), "engine", "3000")
           + tile((8, 7), "cabin", "0333", crew="orange") + tile((8, 8), "life_support", "3000", color="orange")
           + tile((7, 6), "battery", "0030", cells=2, charge=1))

# a shield right of the pilot joined to a shield booster, a battery of 2 below the pilot
BOOSTED = (PILOT + tile((8, 7), "shield", "0033") + tile((8, 8), "shield_booster", "3000")
           + tile((7, 8), "battery", "3000", cells=2))


# -- the lone pilot cabin ------------------------------------------------------------------------
def test_lone_pilot() -> None:
    s = stats(ship(PILOT))
    assert s.construction.legal
    assert (s.crew.humans, s.crew.total, s.crew.capacity, s.crew.sleepers) == (2, 2, 2, 0)
    assert s.engine.ladder == (0,) and s.cannon.ladder == (0,)
    # only column 7 holds a tile (sum 7); its N side is a universal connector
    sm = s.attack("small-meteor", "front")
    assert (sm.p_reach, sm.p_damage, sm.p_stoppable) == (F(6, 36), F(6, 36), 0)
    assert [(t.at, t.p_hit) for t in sm.targets] == [(s.ship.pilot.at, F(6, 36))]
    left = s.attack("small-meteor", "left")  # row 7 only
    assert (left.p_reach, left.p_damage) == (F(6, 36), F(6, 36))
    assert s.exposed == (1, 1, 1, 1) and s.exposed_total == 4
    assert all(not c.shields for c in s.shields)


# -- firepower -----------------------------------------------------------------------------------
def test_cannon_min_max() -> None:
    s = stats(ship(CANNONS))
    assert s.construction.legal, s.construction
    # free: forward cannon 1 + sideways cannon 1/2; a charge on the forward double adds 2
    assert s.cannon.min == F(3, 2) and s.cannon.max == F(7, 2)
    assert s.cannon.ladder == (F(3, 2), F(7, 2))
    assert s.to_dict()["firepower"]["min"] == 1.5 and s.to_dict()["firepower"]["max"] == 3.5
    assert "min 1.5, max 3.5" in render_stats(s)


def test_cannon_ladder_is_greedy() -> None:
    # a bi-directional cannon (barrels N+E: 1 + 1/2), a double cannon turned right (1), 3 charges
    t = (PILOT + tile((7, 6), "bidirectional_cannon", "0030") + tile((8, 7), "double_cannon", "0030", rot=90)
         + tile((7, 8), "battery", "3000", cells=3))
    s = stats(ship(t))
    assert s.construction.legal, s.construction
    # 0 charges: 0; first charge on the bi-directional (1.5), second on the double (1); the third is unused
    assert s.cannon.ladder == (0, F(3, 2), F(5, 2))
    assert s.cannon.max == F(5, 2)


def test_cannon_engine_is_a_free_single_cannon_and_engine() -> None:
    s = stats(ship(PILOT + tile((6, 7), "cannon_engine", "0300")))
    # OQ6: barrel N (forward) = 1, engine = 1, no charge needed
    assert s.cannon.ladder == (1,) and s.engine.ladder == (1,)


def test_purple_alien_needs_firepower() -> None:
    alien = tile((8, 7), "cabin", "0333", crew="purple") + tile((8, 8), "life_support", "3000", color="purple")
    assert stats(ship(PILOT + alien)).cannon.ladder == (0,)
    with_cannon = stats(ship(PILOT + alien + tile((7, 6), "cannon", "0030")))
    assert with_cannon.cannon.ladder == (3,)  # 1 + 2
    # a sideways double cannon with a charge: 0 without the charge (no bonus), 1 + 2 with it
    t = (PILOT + alien + tile((6, 7), "double_cannon", "0030", rot=270)
         + tile((7, 8), "battery", "3000", cells=2))
    s = stats(ship(t))
    assert s.cannon.ladder == (0, 3)


# -- engine power --------------------------------------------------------------------------------
def test_engines_with_orange_alien() -> None:
    s = stats(ship(ENGINES))
    assert s.construction.legal, s.construction
    # single 1 + orange 2 = 3; the one charge powers the double: 1 + 2 + 2 = 5
    assert s.engine.min == 3 and s.engine.max == 5
    assert s.engine.ladder == (3, 5)
    assert s.crew.humans == 2 and s.crew.by_colour["orange"] == 1 and s.crew.total == 3
    assert s.crew.capacity == 4


def test_orange_alien_adds_nothing_to_zero() -> None:
    alien = tile((8, 7), "cabin", "0333", crew="orange") + tile((8, 8), "life_support", "3000", color="orange")
    assert stats(ship(PILOT + alien)).engine.ladder == (0,)
    # a lone double engine: 0 without a charge (alien adds nothing), 2 + 2 with one
    t = PILOT + alien + tile((6, 7), "double_engine", "0300") + tile((7, 6), "battery", "0030", cells=2)
    assert stats(ship(t)).engine.ladder == (0, 4)


# a single engine below the pilot, an orange alien on the right and a cyan one on the left, each
# joined to a life support of its colour
MANAGED = (PILOT + tile((7, 8), "engine", "3000")
           + tile((8, 7), "cabin", "0333", crew="orange") + tile((8, 8), "life_support", "3000", color="orange")
           + tile((6, 7), "cabin", "0330", crew="cyan") + tile((6, 8), "life_support", "3000", color="cyan"))


@pytest.mark.parametrize("spec,ladder,bonus", [("manager", (4,), 3), ("techie", (3,), 2), ("", (3,), 2)])
def test_the_cyan_manager_raises_the_alien_bonus_as_the_engine_does(spec: str, ladder: tuple[int], bonus: int
                                                                     ) -> None:
    # the engine's ladder: 1 (the engine) + the orange alien's 2, 3 with the Manager (Latest Models)
    s = stats(ship(MANAGED, extra=f'[meta]\ncyan = "{spec}"\n' if spec else ""))
    assert s.engine.ladder == ladder and s.engine.manager == (spec == "manager")
    assert f"orange alien at (8,7): +{bonus} when" in render_stats(s)
    assert any("Manager raises" in n for n in s.notes) == (spec == "manager")
    assert any("Techie's free charge" in n for n in s.notes) == (spec == "techie")


def test_alien_without_life_support_gives_no_bonus() -> None:
    t = PILOT + tile((8, 7), "cabin", "0003", crew="orange") + tile((7, 8), "engine", "3000")
    s = stats(ship(t))
    assert "A1" in s.construction.errors and not s.construction.legal
    assert s.engine.ladder == (1,)
    assert s.crew.total == 3 and s.crew.idle_aliens == (s.ship.tiles[1].at,)  # the cabin at (8,7)
    assert any("A1/A2" in n for n in s.notes)


def test_engine_not_to_the_rear_is_counted_and_reported() -> None:
    s = stats(ship(PILOT + tile((8, 7), "engine", "3000", rot=270)))  # exhaust to the right
    assert "E1" in s.construction.errors
    assert s.engine.ladder == (1,)
    assert len(s.engine.problems) == 1
    assert any("E1" in n for n in s.notes)
    assert "ILLEGAL" in render_stats(s)


def test_engines_limited_by_charges() -> None:
    t = (PILOT + tile((6, 7), "double_engine", "0300") + tile((8, 7), "double_engine", "0003")
         + tile((7, 8), "double_engine", "3000") + tile((7, 6), "battery", "0030", cells=2))
    s = stats(ship(t))
    assert s.engine.ladder == (0, 2, 4)  # three doubles, two charges
    assert s.engine.best_possible == 6


# -- crew, batteries, cargo ----------------------------------------------------------------------
def test_crew_counts() -> None:
    t = (PILOT + tile((8, 7), "cabin", "3333") + tile((6, 7), "luxury_cabin", "3333")
         + tile((7, 8), "stasis_chamber", "3333") + tile((8, 8), "cabin", "3333", crew="empty")
         + tile((7, 6), "cabin", "3333", crew="purple") + tile((6, 6), "life_support", "3333", color="purple"))
    s = stats(ship(t))
    assert s.crew.humans == 2 + 2 + 1  # pilot, cabin, luxury
    assert s.crew.by_colour == {"purple": 1, "orange": 0, "cyan": 0}
    assert s.crew.sleepers == 4 and s.crew.stasis_places == 4
    assert s.crew.capacity == 2 + 2 + 1 + 2 + 2  # pilot, cabin, luxury, empty cabin, alien cabin
    assert s.crew.total == 6 and s.crew.passengers == 1


def test_batteries_and_cargo() -> None:
    t = (PILOT + tile((8, 7), "battery", "3333", cells=3, charge=1) + tile((6, 7), "battery", "3333", cells=2)
         + tile((7, 8), "cargo", "3333", slots=2, goods=["blue", "green"])
         + tile((8, 8), "special_cargo", "3333", slots=1, goods=["red"])
         + tile((6, 8), "mixed_cargo", "3333", slots=3, special_slots=1)
         + tile((7, 6), "battery_hold", "3333", slots=3, goods=["yellow"]))
    s = stats(ship(t))
    # charges: 1 + 2 + (3 slots - 1 good) = 5 of 3 + 2 + 3
    assert (s.charges, s.battery_capacity) == (5, 8)
    assert [(b.charges, b.capacity) for b in s.batteries] == [(2, 3), (2, 2), (1, 3)]
    assert (s.cargo.normal, s.cargo.special, s.cargo.shared) == (2 + 2 + 3, 1 + 1, 3)
    assert s.cargo.goods == {"red": 1, "yellow": 1, "green": 1, "blue": 1}
    assert s.cargo.value == 4 + 3 + 2 + 1
    d = s.to_dict()
    assert d["batteries"]["charges"] == 5 and d["cargo"]["shared_with_charges"] == 3


# -- shields and exposure ------------------------------------------------------------------------
@pytest.mark.parametrize("rot,sides,covered", [(0, "0003", {"front", "right"}), (180, "0300", {"rear", "left"}),
                                               (90, "0030", {"right", "rear"}), (270, "3000", {"left", "front"})])
def test_shield_cover(rot: int, sides: str, covered: set[str]) -> None:
    s = stats(ship(PILOT + tile((8, 7), "shield", sides, rot=rot)))
    assert s.construction.legal, s.construction
    assert {c.direction for c in s.shields if c.shields} == covered
    assert all(not c.boosted for c in s.shields)


def test_shield_cover_is_relative_to_the_chosen_front() -> None:
    # class IA, front = E: a shield at rot 0 covers board N and E, i.e. the ship's left and front
    t = tile({"col": 2, "row": 2}, "start_cabin", "3333") + tile({"col": 3, "row": 2}, "shield", "0003")
    s = stats(ship(t, "IA", 'front = "E"\n'))
    assert {c.direction for c in s.shields if c.shields} == {"front", "left"}
    # the shield's exposed N and E connectors? none: its sides are 0,0,0,3 -> the W joins the pilot;
    # the pilot's N, S, W are exposed: board N = ship left, S = right, W = rear
    assert s.exposed == (0, 1, 1, 1)
    assert s.to_dict()["front"] == "E"


def test_boosted_shield_and_heavy_shots() -> None:
    s = stats(ship(BOOSTED))
    assert s.construction.legal, s.construction
    pilot, shield = s.ship.pilot.at, s.ship.tiles[1].at
    assert s.shield("front").boosted == (shield,) and s.shield("right").boosted == (shield,)
    assert not s.shield("left").shields
    # heavy shot from the front: column 7 (pilot, 6/36) and column 8 (shield, 5/36) are hit; a boosted
    # shield and 2 charges stop both
    h = s.attack("heavy-shot", "front")
    assert (h.p_reach, h.p_damage, h.p_stoppable) == (F(11, 36), F(11, 36), F(11, 36))
    assert {(t.at, t.p_hit) for t in h.targets} == {(pilot, F(6, 36)), (shield, F(5, 36))}
    # from the left: rows 7 (pilot) and 8 (battery first), nothing covers the left
    h = s.attack("heavy-shot", "left")
    assert (h.p_damage, h.p_stoppable, h.p_unstoppable) == (F(11, 36), 0, F(11, 36))
    # a light shot from the right: rows 7 (shield) and 8 (booster): a shield with a charge stops it
    li = s.attack("light-shot", "right")
    assert (li.p_damage, li.p_stoppable) == (F(11, 36), F(11, 36))


def test_shield_without_charge_stops_nothing() -> None:
    s = stats(ship(PILOT + tile((8, 7), "shield", "0003")))
    sm = s.attack("small-meteor", "front")
    assert (sm.p_damage, sm.p_stoppable) == (F(6, 36), 0)  # column 8: the shield's N side is smooth


def test_exposed_by_side() -> None:
    s = stats(ship(PILOT + tile((8, 7), "structural", "3333")))
    # pilot: N, S, W exposed; structural: N, E, S exposed
    assert s.exposed == (2, 1, 2, 1) and s.exposed_total == 6
    assert s.to_dict()["exposed_by_side"] == {"front": 2, "right": 1, "rear": 2, "left": 1}


# -- attacks -------------------------------------------------------------------------------------
def test_large_meteors_and_cannons() -> None:
    s = stats(ship(CANNONS))
    b = s.ship.board
    dc, cn, side_cn = (b.width * 2 + 1, b.width * 1 + 2, b.width * 2 + 3)  # (6,7), (7,6), (8,7)
    lm = s.attack("large-meteor", "front")
    # columns 6 (double cannon, a charge: stopped), 7 (the forward cannon: stopped), 8 (the cannon turned
    # right: nothing bears from the front)
    assert (lm.p_reach, lm.p_damage, lm.p_stoppable) == (P[6] + P[7] + P[8],) * 2 + (P[6] + P[7],)
    assert {(t.at, t.p_hit) for t in lm.targets} == {(dc, P[6]), (cn, P[7]), (side_cn, P[8])}
    # from the right the right-pointing cannon in row 7 bears on rows 6, 7 and 8
    lm = s.attack("large-meteor", "right")
    assert (lm.p_damage, lm.p_stoppable) == (P[6] + P[7] + P[8],) * 2
    lm = s.attack("large-meteor", "left")
    assert (lm.p_damage, lm.p_stoppable) == (P[6] + P[7] + P[8], 0)
    # small meteors from the front meet barrels and a turned cannon's smooth side: no damage
    sm = s.attack("small-meteor", "front")
    assert (sm.p_reach, sm.p_damage) == (P[6] + P[7] + P[8], 0)
    assert all(t.p_damage == 0 for t in sm.targets)


def test_plating_smooth_side_takes_no_damage() -> None:
    s = stats(ship(PILOT + tile((7, 6), "plating", "0030")))
    for kind in ("small-meteor", "large-meteor", "light-shot", "heavy-shot"):
        a = s.attack(kind, "front")
        assert (a.p_reach, a.p_damage) == (P[7], 0), kind


def test_one_die_redirects_and_duplicates() -> None:
    # IC: columns 2-5, rows labelled 1,2,3,4,3,4,5,6. A at (c1, r2), B at (c1, r4) (both rows labelled 3),
    # a free cannon between them at (c1, r3) pointing left.
    a, c, b = {"col": 1, "row": 2}, {"col": 1, "row": 3}, {"col": 1, "row": 4}
    t = (tile(a, "structural", "3333") + tile(c, "cannon", "0303", rot=270) + tile(b, "structural", "3333"))
    s = stats(ship(t, "IC"))
    w = s.ship.board.width
    ia, ic, ib = 2 * w + 1, 3 * w + 1, 4 * w + 1
    # from the left, one die: 3 hits rows 2 and 4 at once (A and B), 4 hits rows 3 and 5 (the cannon)
    lm = s.attack("large-meteor", "left")
    assert lm.p_reach == F(12, 36) and lm.p_damage == F(12, 36)
    # one cannon cannot stop two meteors: only the roll of 4 is stoppable
    assert lm.p_stoppable == F(6, 36)
    assert {(x.at, x.p_hit) for x in lm.targets} == {(ia, F(6, 36)), (ib, F(6, 36)), (ic, F(6, 36))}
    # from the front: 3 names column 3 (A first); 1 and 6 redirect to the left/right, where the second
    # die's 3 or 4 finds the ship
    sm = s.attack("small-meteor", "front")
    assert sm.p_reach == F(6, 36) + 2 * F(2, 36)
    d = s.to_dict()
    assert d["attacks"][0]["targets"][0]["at"] == {"col": 1, "row": 2}
    json.dumps(d)


# -- reports -------------------------------------------------------------------------------------
def test_to_dict_is_json_and_uses_cell_names() -> None:
    s = stats(ship(ENGINES))
    d = json.loads(json.dumps(s.to_dict()))
    assert d["class"] == "I" and d["construction"]["legal"] is True
    assert d["engine_power"] == {**d["engine_power"], "min": 3, "max": 5, "ladder": [3, 5], "alien": [8, 7]}
    assert d["crew"]["aliens"]["orange"] == 1
    assert {a["kind"] for a in d["attacks"]} == {"small-meteor", "large-meteor", "light-shot", "heavy-shot"}
    assert len(d["attacks"]) == 16
    sm = next(a for a in d["attacks"] if a["kind"] == "small-meteor" and a["from"] == "front")
    assert sm["p_reach"] == float(P[6] + P[7] + P[8])


def test_attacks_frame() -> None:
    df = stats(ship(PILOT)).attacks_frame(exact=True)
    assert len(df) == 16
    row = df[(df["kind"] == "small-meteor") & (df["from"] == "front")].iloc[0]
    assert row["p_reach"] == F(6, 36) and row["targets"] == "(7,7)"
    assert stats(ship(PILOT)).attacks_frame()["p_reach"].dtype.kind == "f"


def test_to_frame_one_row_per_attack_and_square() -> None:
    df = stats(ship(PILOT)).to_frame(exact=True)
    # a lone pilot cabin at (7,7): every kind from every side can hit only it; 2d6 names 7 with 6/36
    assert len(df) == 16 and set(zip(df["col"], df["row"])) == {(7, 7)}
    assert (df["p_hit"] == F(6, 36)).all()
    assert df["col"].dtype.kind == "i" and stats(ship(PILOT)).to_frame()["p_hit"].dtype.kind == "f"


def test_render_text() -> None:
    text = render_stats(stats(ship(CANNONS)))
    assert "Construction: legal" in text
    assert "Firepower: min 1.5, max 3.5" in text
    assert "large-meteor  front" in text and "16/36" in text


def test_illegal_ship_is_flagged() -> None:
    s = stats(ship(PILOT + tile((8, 7), "cargo", "0000", slots=2)))  # C1 and S1
    assert not s.construction.legal
    assert s.construction.errors == ("C1", "S1")
    assert s.to_dict()["construction"]["errors"] == ["C1", "S1"]
    assert any("illegal" in n for n in s.notes)


# -- symmetry ------------------------------------------------------------------------------------
SWAP = {"front": "front", "rear": "rear", "left": "right", "right": "left"}


@pytest.mark.parametrize("tiles", [
    CANNONS, ENGINES, BOOSTED,
    PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2),
    PILOT + tile((7, 6), "bidirectional_cannon", "0030") + tile((6, 7), "cabin", "0101")
    + tile((5, 7), "structural", "1111") + tile((5, 8), "double_cannon", "0300", rot=270)
    + tile((7, 8), "battery", "3000", cells=3),
], ids=["cannons", "engines", "boosted", "shield", "mixed"])
def test_mirror_swaps_left_and_right(tiles: str) -> None:
    orig = ship(tiles)
    mirr = orig.mirrored()
    a, b = stats(orig), stats(mirr)
    w = orig.board.width

    def m(i: int) -> int:
        r, c = divmod(i, w)
        return r * w + (w - 1 - c)

    assert a.construction == b.construction
    assert a.engine.ladder == b.engine.ladder and a.cannon.ladder == b.cannon.ladder
    assert a.crew.total == b.crew.total and a.charges == b.charges
    f, r, re, le = a.exposed
    assert b.exposed == (f, le, re, r)
    for c in a.shields:
        mc = b.shield(SWAP[c.direction])
        assert mc.shields == tuple(sorted(m(i) for i in c.shields))
        assert mc.boosted == tuple(sorted(m(i) for i in c.boosted))
    for x in a.attacks:
        y = b.attack(x.kind, SWAP[x.direction])
        assert (x.p_reach, x.p_damage, x.p_stoppable) == (y.p_reach, y.p_damage, y.p_stoppable), (x.kind, x.direction)
        assert sorted((m(t.at), t.p_hit, t.p_damage) for t in x.targets) == [
            (t.at, t.p_hit, t.p_damage) for t in y.targets]


# -- two hulls (class IIA, rules §11.4) ----------------------------------------------------------
# hull A (columns 3-6): a cabin (4,6) over a single engine (4,7). Hull B (columns 8-11): a cabin
# (9,6) over a double engine (9,7), a battery of 2 to the cabin's right (10,6).
IIA_A = tile((4, 6), "cabin", "0030") + tile((4, 7), "engine", "1000")
IIA_B = tile((9, 6), "cabin", "0330") + tile((9, 7), "double_engine", "1000") + tile((10, 6), "battery", "0003", cells=2)


def test_two_hulls_engine_power_is_the_lower_half() -> None:
    s = stats(ship(IIA_A + IIA_B, "IIA"))
    assert s.construction.legal, s.construction
    # hull A: 1 whatever is spent (no charge there); hull B: 0, or 2 with a charge of its own battery.
    # The ship moves by the lower: 0 with no charge, 1 with one (B's 2 against A's 1)
    assert [h.ladder for h in s.engine.hulls] == [(1,), (0, 2)]
    assert s.engine.ladder == (0, 1) and s.engine.max == 1
    assert s.engine.best_possible == 1
    d = s.to_dict()["engine_power"]
    assert d["combine"] == "min" and [h["ladder"] for h in d["hulls"]] == [[1], [0, 2]]
    assert "the ship moves by the lower hull" in render_stats(s)


def test_two_hulls_batteries_power_only_their_own_doubles() -> None:
    # the double engine in hull A, the battery in hull B: the charge cannot reach it
    a = tile((4, 6), "cabin", "0030") + tile((4, 7), "double_engine", "1000")
    b = tile((9, 6), "cabin", "0330") + tile((9, 7), "engine", "1000") + tile((10, 6), "battery", "0003", cells=2)
    s = stats(ship(a + b, "IIA"))
    assert s.construction.legal, s.construction
    assert [h.ladder for h in s.engine.hulls] == [(0,), (1,)]
    assert s.engine.ladder == (0,)
    # firepower: a double cannon in hull A, the battery in hull B: no charge reaches it, 0 fire power
    a = tile((4, 6), "cabin", "3000") + tile((4, 5), "double_cannon", "0030")
    s = stats(ship(a + b, "IIA"))
    assert s.cannon.ladder == (0,) and s.cannon.best_possible == 2


def test_two_hulls_alien_bonus_counts_only_for_its_half() -> None:
    # hull A: an orange alien's cabin (4,6) with its life support (5,6), an engine below (4,7);
    # hull B: a cabin and an engine. A: 1 + 2 = 3; B: 1; the ship moves by 1 (summed it would be 4)
    a = (tile((4, 6), "cabin", "0130", crew="orange") + tile((5, 6), "life_support", "0003", color="orange")
         + tile((4, 7), "engine", "1000"))
    b = tile((9, 6), "cabin", "0030") + tile((9, 7), "engine", "1000")
    s = stats(ship(a + b, "IIA"))
    assert s.construction.legal, s.construction
    assert [h.ladder for h in s.engine.hulls] == [(3,), (1,)]
    assert s.engine.ladder == (1,)


def test_two_hulls_purple_alien_needs_its_own_halfs_firepower() -> None:
    # hull A: a purple alien with its life support and no cannon; hull B: a single forward cannon.
    # Firepower is the sum of the halves, 0 + 1; the alien's +2 would need fire power in hull A
    a = (tile((4, 6), "cabin", "0100", crew="purple") + tile((5, 6), "life_support", "0003", color="purple"))
    b = tile((8, 6), "cabin", "3000") + tile((8, 5), "cannon", "0030")
    s = stats(ship(a + b, "IIA"))
    assert s.construction.legal, s.construction
    assert s.cannon.ladder == (1,)
    # with a cannon in hull A too: A 1 + 2, B 1
    a2 = a.replace('sides = "0100"', 'sides = "3100"') + tile((4, 5), "cannon", "0030")
    s2 = stats(ship(a2 + b, "IIA"))
    assert s2.construction.legal, s2.construction
    assert [h.ladder for h in s2.cannon.hulls] == [(3,), (1,)] and s2.cannon.ladder == (4,)


def test_two_hulls_firepower_shares_charges_out_per_half() -> None:
    # a forward double cannon in each half; hull A has a battery of 2, hull B none
    a = tile((4, 6), "cabin", "3300") + tile((4, 5), "double_cannon", "0030") + tile((5, 6), "battery", "0003", cells=2)
    b = tile((8, 6), "cabin", "3000") + tile((8, 5), "double_cannon", "0030")
    s = stats(ship(a + b, "IIA"))
    assert s.construction.legal, s.construction
    # A's two charges: the first powers A's double (2), the second has nothing left to power in A
    assert s.cannon.ladder == (0, 2) and s.cannon.best_possible == 4


@pytest.mark.parametrize("width", [40, 50, 64, 80, 120])
def test_render_stats_folds_to_the_width(width: int) -> None:
    """Every line fits the terminal, and no square of the attack table loses its indentation (a narrow
    terminal puts the squares under their row instead of in a squeezed column)."""
    from pathlib import Path

    from shipcheck.shipfile import load_ship

    path = Path(__file__).resolve().parents[1] / "examples" / "class-III-hauler.toml"
    text = render_stats(stats(load_ship(path)), width=width)
    lines = text.splitlines()
    assert all(len(ln) <= width for ln in lines), max(lines, key=len)
    table = lines[next(k for k, ln in enumerate(lines) if ln.startswith("Attacks")):]
    assert all(ln.startswith(" ") for ln in table[2:] if ln and not ln.startswith("note:"))
    wide = render_stats(stats(load_ship(path))).splitlines()
    wide_table = wide[next(k for k, ln in enumerate(wide) if ln.startswith("Attacks")):]

    def squares(rows: list[str]) -> list[str]:
        return [w for ln in rows for w in ln.split() if w.startswith("(") and w[1].isdigit()]

    assert squares(table) == squares(wide_table) != []
