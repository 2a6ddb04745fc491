"""The numbers each figure and table of a report shows, by hand on small ships."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from shipbuild import PILOT, ship, tile

from shipcheck.cards import Attack, Card
from shipcheck.check.fix import fix
from shipcheck.check.rules import check
from shipcheck.flight.stats import stats
from shipcheck.report.figures import (
    EMPTY,
    OFF,
    START,
    TILE,
    check_table,
    fix_table,
    meteor_data,
    pct,
    ship_data,
    stats_table,
    swarm_table,
    swarm_weights,
)

N, E, S, W = 0, 1, 2, 3


def swarm(index: int, *meteors: str) -> Card:
    return Card("2007", f"I-{index:02d}", 1, index, "meteor_swarm",
                meteors=tuple(Attack.parse(m) for m in meteors))


def sq(col_label: int, row_label: int) -> int:
    """Grid index of a class I square given by its printed labels (columns and rows 5-9)."""
    return (row_label - 5) * 5 + (col_label - 5)


# -- the ship drawing ------------------------------------------------------------------------------
def test_ship_view_of_a_pilot_and_a_cannon() -> None:
    s = ship(PILOT + tile((7, 6), "cannon", "0030"))
    v = ship_data(s, check(s))
    assert (v.width, v.height, v.board) == (5, 5, "I")
    assert v.columns == ("5", "6", "7", "8", "9") and v.rows == ("5", "6", "7", "8", "9")
    cannon, pilot = v.tiles  # grid order: row 6 before row 7
    assert (cannon.at, cannon.row, cannon.col) == (sq(7, 6), 1, 2)
    assert cannon.barrels == (N,) and cannon.connectors == (0, 0, 3, 0)
    assert cannon.exposed == ()  # its only connector (S) is joined to the pilot cabin
    assert pilot.connectors == (3, 3, 3, 3) and pilot.exposed == (E, S, W)
    assert v.exposed == 3 and v.legal and v.violations == ()
    assert v.squares[sq(7, 7)] == TILE and v.squares[sq(8, 7)] == EMPTY
    assert v.squares[sq(5, 5)] == OFF  # the class I board's corner is not buildable
    assert v.front == N


def test_ship_view_marks_every_square_a_rule_names() -> None:
    # a cannon at (6,7) turned so that its barrel points E into the pilot cabin: the barrel (smooth)
    # faces a universal connector (C1), the cabin stands in front of the barrel (K1), and the cannon
    # joins nothing, so it is a loose piece (S1): it falls off at the inspection; its W universal
    # connector is exposed
    s = ship(PILOT + tile((6, 7), "cannon", "0030", rot=90))
    v = ship_data(s, check(s))
    cannon = v.tile_at(sq(6, 7))
    pilot = v.tile_at(sq(7, 7))
    assert cannon is not None and pilot is not None
    assert cannon.barrels == (E,) and cannon.connectors == (0, 0, 0, 3) and cannon.exposed == (W,)
    assert cannon.codes == ("C1", "K1", "S1")
    assert pilot.codes == ("C1", "K1")
    assert pilot.exposed == (N, E, S)  # W faces the barrel: a tile stands there, so not exposed
    assert not v.legal and [c for c, _, _ in v.violations] == ["C1", "K1", "S1"]


def test_ship_view_hints_and_empty_start() -> None:
    # the pilot cabin away from the start square (B2): the start square shows empty
    s = ship(tile((7, 8), "start_cabin", "3333") + tile((8, 8), "battery", "0003", cells=3, charge=1)
             + tile((7, 9), "engine", "3000"))
    v = ship_data(s, check(s))
    assert v.squares[sq(7, 7)] == START
    assert v.tile_at(sq(7, 8)).codes == ("B2",)  # type: ignore[union-attr]
    battery = v.tile_at(sq(8, 8))
    assert battery is not None and battery.hint == "1/3"
    engine = v.tile_at(sq(7, 9))
    assert engine is not None and engine.exhausts == (S,) and engine.hint == ""


# -- heat maps and swarm odds (exact engine) -------------------------------------------------------
def test_heat_maps_of_one_swarm_on_a_lone_pilot() -> None:
    # the pilot cabin alone at (7,7): a meteor hits it when the roll names column / row 7 (6/36),
    # and every side is a connector, so any meteor that hits destroys it
    s = ship(PILOT)
    m = meteor_data(s, round=1, cards=[(swarm(99, "small:front", "large:left"), F(1))])
    at = sq(7, 7)
    assert m.map("front").p_lost == ((at, F(1, 6)),)
    assert m.map("left").p_lost == ((at, F(1, 6)),)
    assert m.map("right").p_lost == ((at, F(0)),) and m.map("rear").p_lost == ((at, F(0)),)
    assert m.map("all").p_lost == ((at, 1 - F(5, 6) ** 2),)
    assert [mp.meteors for mp in m.maps] == [1, 0, 0, 1, 2]
    (row,) = m.swarms
    assert (row.card, row.p_survive, row.expected_lost) == ("2007:I-99", F(25, 36), F(11, 36))
    assert row.lost_distribution == ((0, F(25, 36)), (1, F(11, 36)))


def test_heat_maps_weigh_cards_by_their_chance_of_being_in_the_deck() -> None:
    s = ship(PILOT)
    a = swarm(98, "small:front")
    b = swarm(99, "small:left", "small:left")
    m = meteor_data(s, round=1, cards=[(a, F(2, 5)), (b, F(1, 5))])  # shares 2/3 and 1/3
    at = sq(7, 7)
    assert m.map("front").get(at) == F(2, 3) * F(1, 6)
    assert m.map("left").get(at) == F(1, 3) * (1 - F(5, 6) ** 2)
    assert m.map("all").get(at) == F(23, 108)
    assert m.map("all").meteors == F(4, 3) and m.map("front").meteors == F(2, 3)
    assert m.p_survive == F(2, 3) * F(5, 6) + F(1, 3) * F(25, 36)
    assert m.expected_lost == 1 - m.p_survive  # one component: lost exactly when the ship is


def test_a_shield_with_a_charge_keeps_small_meteors_off() -> None:
    s = ship(PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2))
    m = meteor_data(s, round=1, cards=[(swarm(99, "small:front"), F(1))])
    # columns 6 and 8 show smooth N sides; column 7 hits the pilot's connector and the shield covers N
    assert m.map("all").max == 0
    assert m.swarms[0].p_survive == 1


def test_meteor_data_of_a_real_round_is_a_probability_everywhere() -> None:
    from shipcheck.round import build_deck, round_rules
    from shipcheck.shipfile import load_ship

    s = load_ship("examples/class-II-freighter.toml")
    m = meteor_data(s, round=2, cards=swarm_weights(build_deck(round_rules(2), "2007")))
    assert [sw.card for sw in m.swarms] == [f"2007:{c}" for c in ("I-09", "I-10", "I-11", "II-09", "II-10", "II-11")]
    for mp in m.maps:
        assert all(0 <= p <= 1 for _, p in mp.p_lost)
        assert [sq_ for sq_, _ in mp.p_lost] == [t.at for t in s.tiles]
    # a square is lost to whole swarms at least as often as to the meteors of any one side
    for k, (_, p_all) in enumerate(m.map("all").p_lost):
        assert all(p_all >= m.map(d).p_lost[k][1] for d in ("front", "right", "rear", "left"))
    assert m.map("all").meteors == sum(m.map(d).meteors for d in ("front", "right", "rear", "left"))


# -- tables ----------------------------------------------------------------------------------------
def test_check_and_fix_tables() -> None:
    s = ship(PILOT + tile((6, 7), "cannon", "0030", rot=90))
    rep = check(s)
    t = check_table(rep)
    assert [r[0] for r in t.rows] == ["C1", "K1", "S1"]
    assert t.rows[1][:4] == ("K1", "cannon-blocked", "error", "(6,7) (7,7)")
    assert t.notes[0] == "ILLEGAL: 3 error(s); 4 exposed connector(s)"
    ft = fix_table(fix(s))
    assert ft.rows == (("(6,7)", "cannon", "falls off", "C1 K1 S1"),)
    assert ft.notes[0].startswith("1 component(s) lost at the inspection")


def test_check_table_of_a_legal_ship() -> None:
    t = check_table(check(ship(PILOT)))
    assert t.rows == ()
    assert t.notes[0] == "legal; 4 exposed connector(s)"


def test_stats_table() -> None:
    s = ship(PILOT + tile((7, 8), "engine", "3000") + tile((7, 6), "double_cannon", "0030")
             + tile((8, 7), "battery", "0003", cells=2))
    rows = dict(stats_table(stats(s)).rows)
    assert rows["crew"] == "2 (2 humans, aliens: none)"
    assert rows["engine power"] == "1 to 1  (by charges spent: 1)"
    assert rows["firepower"] == "0 to 2  (by charges spent: 0 / 2)"
    assert rows["batteries"] == "2 of 2 charges in 1 component(s)"
    assert rows["exposed connectors"] == "1 (front 0, right 0, rear 0, left 1)"


def test_swarm_table_rows() -> None:
    m = meteor_data(ship(PILOT), round=1, cards=[(swarm(99, "small:front", "large:left"), F(2, 5))])
    t = swarm_table(m)
    assert t.rows == (("2007:I-99", "s front, L left", "40%", "69%", "0.31", "0:69% 1:31%"),)
    assert not any("Techie" in n for n in t.notes)


def test_swarm_table_says_the_techie_is_not_counted() -> None:
    """The heat maps fly the single-ship flight model (no cards, so no Techie's free charge): said for a
    Techie ship, not for another cyan specialisation."""
    cyan = tile((6, 7), "cabin", "3333", crew="cyan") + tile((5, 7), "life_support", "3333", color="cyan")
    for spec, said in (("techie", True), ("lawyer", False)):
        s = ship(PILOT + cyan, extra=f'[meta]\ncyan = "{spec}"\n')
        t = swarm_table(meteor_data(s, round=1, cards=[(swarm(99, "small:front"), F(1))]))
        assert any("Techie" in n for n in t.notes) == said


@pytest.mark.parametrize("p,text", [(F(0), "0%"), (F(1, 1000), "<1%"), (F(1, 6), "17%"), (F(999, 1000), ">99%"),
                                    (F(1), "100%")])
def test_pct(p: F, text: str) -> None:
    assert pct(p) == text


def test_ship_view_names_grid_indices_where_squares_are_written_by_index() -> None:
    from shipcheck.shipfile import load_ship

    s = load_ship("examples/class-IA-sidewinder.toml")  # class IA: a line carries several labels
    v = ship_data(s, check(s))
    assert v.columns[0] == "2/3\nc0" and v.rows[2] == "6-8\nr2"
    assert v.front == E  # the file chooses the right side as the front
