"""The exact odds (on the engine's rules) and the reduced optimal search against the oracle.

:mod:`oracle.reference` keeps the exact engine as it was: a Fraction forward pass whose rolls are
played through Situation, the policy's ``decide`` and ``apply`` of the oracle's flight model
(:mod:`oracle.flight`, the rules of flight written out in plain Python, apart from the engine), and
the optimal policy's search over every decision and every way of paying for it. On random small
ships (crew, aliens, stasis chambers, shields, boosters, charged cannons, several batteries; one
hull and two) the package must give the same distribution fraction for fraction, and the same
optimum.
"""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st
from oracle.flight import DEFAULT_POLICY as ORACLE_DEFAULT
from oracle.flight import FlightModel as OracleModel
from oracle.reference import UnreducedOptimal, forward_fractions
from shipbuild import PILOT, ship, tile

from shipcheck.cards import find_card
from shipcheck.flight.chain import DEFAULT_POLICY, FlightModel
from shipcheck.flight.odds import OptimalPolicy, odds
from shipcheck.shipfile import load_ship

SQUARES_I = [(c, r) for r, row in zip(range(5, 10), ["..#..", ".###.", "##S##", "#####", "##.##"])
             for c, ch in zip(range(5, 10), row) if ch == "#"]
HULL_A = [(4, 5), (5, 5), (3, 6), (4, 6), (5, 6), (6, 6), (4, 7), (5, 7), (3, 8), (4, 8), (5, 8), (6, 8)]
HULL_B = [(8, 5), (11, 5), (8, 6), (9, 6), (10, 6), (11, 6), (9, 7), (10, 7), (8, 8), (9, 8), (10, 8), (11, 8)]
KINDS = ["cabin", "cabin", "structural", "battery", "battery", "shield", "shield_booster", "cannon",
         "double_cannon", "bidirectional_cannon", "cannon_engine", "engine", "plating", "life_support",
         "stasis_chamber", "luxury_cabin"]
ATTACKS = st.tuples(st.sampled_from(["small-meteor", "large-meteor", "light-shot", "heavy-shot"]),
                    st.sampled_from(["front", "rear", "left", "right"])).map(lambda t: f"{t[0]}:{t[1]}")


@st.composite
def tiles_on(draw: st.DrawFn, squares: list[tuple[int, int]], max_size: int) -> str:
    text = ""
    for at in draw(st.lists(st.sampled_from(squares), unique=True, min_size=1, max_size=max_size)):
        kind = draw(st.sampled_from(KINDS))
        sides = list(draw(st.text(alphabet="0123", min_size=4, max_size=4)))
        kw: dict[str, object] = {}
        if kind in ("cannon", "double_cannon", "cannon_engine"):
            sides[0] = "0"
        if kind in ("engine", "cannon_engine"):
            sides[2] = "0"
        if kind == "bidirectional_cannon":
            sides[0] = sides[1] = "0"
        if kind == "battery":
            kw = {"cells": draw(st.sampled_from([2, 3]))}
            kw["charge"] = draw(st.integers(0, int(kw["cells"])))  # type: ignore[call-overload]
        if kind == "life_support":
            kw = {"color": draw(st.sampled_from(["purple", "orange"]))}
        if kind == "cabin":
            kw = {"crew": draw(st.sampled_from(["humans", "humans", "empty", "purple", "orange"]))}
        rot = 0 if kind in ("engine", "cannon_engine") else draw(st.sampled_from([0, 90, 180, 270]))
        text += tile(at, kind, "".join(sides), rot=rot, **kw)
    return text


def _same(s: object, attacks: list[str]) -> None:
    r = odds(s, attacks)  # type: ignore[arg-type]
    atk = [r.attacks[i] for i in range(len(attacks))]
    ref, expanded = forward_fractions(OracleModel(s), atk)  # type: ignore[arg-type]
    assert r.distribution == ref
    assert r.states_expanded == expanded
    # the package's flight model plays a roll at a time on the engine: the same
    assert forward_fractions(FlightModel(s), atk, DEFAULT_POLICY)[0] == ref  # type: ignore[arg-type]
    assert sum(r.distribution.values()) == 1


@settings(max_examples=150, deadline=None)
@given(tiles_on(SQUARES_I, 8), st.lists(ATTACKS, min_size=1, max_size=4))
def test_kernel_equals_the_fraction_engine(text: str, attacks: list[str]) -> None:
    _same(ship(PILOT + text), attacks)


@settings(max_examples=60, deadline=None)
@given(tiles_on(HULL_A, 5), tiles_on(HULL_B, 5), st.lists(ATTACKS, min_size=1, max_size=3))
def test_kernel_equals_the_fraction_engine_on_two_hulls(a: str, b: str, attacks: list[str]) -> None:
    _same(ship(a + b, "IIA"), attacks)


@settings(max_examples=40, deadline=None)
@given(tiles_on([(c, r) for c in range(4) for r in range(8)], 6), st.lists(ATTACKS, min_size=1, max_size=3))
def test_kernel_equals_the_fraction_engine_on_one_die_boards(text: str, attacks: list[str]) -> None:
    # IC: one die, front and rear rolls of 1 and 6 turned to the sides, rows sharing labels
    grid = text.replace("at = [", "at = {col = ").replace("]\nkind", "}\nkind")
    grid = grid.replace(", ", ", row = ")
    _same(ship(grid, "IC"), attacks)


def test_kernel_on_every_example_ship_and_card() -> None:
    from pathlib import Path

    cards = [find_card(c) for c in ("I-09", "II-16", "III-10")]
    for path in sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.toml")):
        s = load_ship(path)
        for c in cards:
            _same(s, [str(a) for a in c.attacks()])


# -- the optimal policy -------------------------------------------------------------------------
def _optimum(s: object, attacks: list[str]) -> tuple[F, F, int, int]:
    m = OracleModel(s)  # type: ignore[arg-type]
    atk = odds(s, attacks).attacks  # type: ignore[arg-type]
    full = UnreducedOptimal(m, atk)
    want = full.value(0, m.initial())
    reduced = OptimalPolicy(FlightModel(s), atk)  # type: ignore[arg-type]
    got = reduced.value(0, m.initial())
    assert got == want
    r = odds(s, attacks, policy="optimal")  # type: ignore[arg-type]
    assert (r.p_survive, -r.expected_lost) == want
    assert sum(r.distribution.values()) == 1
    return want[0], want[1], full.states, reduced.states


@settings(max_examples=120, deadline=None)
@given(tiles_on(SQUARES_I, 6), st.lists(ATTACKS, min_size=1, max_size=3))
def test_reduced_optimum_equals_the_unreduced_search(text: str, attacks: list[str]) -> None:
    s = ship(PILOT + text)
    _, _, full, reduced = _optimum(s, attacks)
    assert reduced <= full
    d = odds(s, attacks)
    o = odds(s, attacks, policy="optimal")
    assert (o.p_survive, -o.expected_lost) >= (d.p_survive, -d.expected_lost)


@settings(max_examples=40, deadline=None)
@given(tiles_on(HULL_A, 4), tiles_on(HULL_B, 4), st.lists(ATTACKS, min_size=1, max_size=3))
def test_reduced_optimum_equals_the_unreduced_search_on_two_hulls(a: str, b: str, attacks: list[str]) -> None:
    _optimum(ship(a + b, "IIA"), attacks)


# batteries spread over the ship, a shield covering the front and right, a double cannon: every
# shield and cannon can be paid from any of four batteries, which the unreduced search tries one by one
MANY_BATTERIES = (PILOT + tile((8, 7), "shield", "0333") + tile((6, 7), "battery", "3333", cells=2)
                  + tile((7, 8), "battery", "3333", cells=2) + tile((7, 6), "double_cannon", "0333")
                  + tile((8, 8), "battery", "3333", cells=3) + tile((6, 8), "battery", "3333", cells=2)
                  + tile((6, 6), "structural", "3333"))


def test_reduced_search_explores_fewer_states_for_the_same_optimum() -> None:
    attacks = ["light-shot:front", "large-meteor:front", "light-shot:right", "small-meteor:front"]
    surv, neg, full, reduced = _optimum(ship(MANY_BATTERIES), attacks)
    assert reduced < full / 3, (reduced, full)
    assert 0 < surv <= 1 and neg <= 0


def test_optimal_decisions_are_legal_when_replayed() -> None:
    # the policy's decisions, played through Situation and apply (which checks them), give the
    # distribution the search reports
    s = ship(MANY_BATTERIES)
    attacks = ["light-shot:front", "large-meteor:front", "light-shot:right"]
    r = odds(s, attacks, policy="optimal")
    pol = OptimalPolicy(FlightModel(s), r.attacks)
    for m, default in ((OracleModel(s), ORACLE_DEFAULT), (FlightModel(s), DEFAULT_POLICY)):
        replay, _ = forward_fractions(m, r.attacks, pol)  # type: ignore[arg-type]
        assert replay == r.distribution
        assert replay != forward_fractions(m, r.attacks, default)[0] or not r.differences  # type: ignore[arg-type]


def test_which_battery_pays_matters_when_one_is_exposed() -> None:
    # battery B (7,6) above the pilot, sheltered from the left by a structural (6,6); battery A (7,8)
    # below the pilot, the first tile from the left in row 8. One charge each; a shield (8,7) covers
    # the front. A light shot from the front needs a charge; a heavy shot from the left destroys A on
    # row 8 (5/36); a second light shot from the front needs a charge again. Paying the first from A
    # keeps B's charge whatever happens; the default policy pays from B (first in row-major order).
    s = ship(PILOT + tile((8, 7), "shield", "0003") + tile((7, 6), "battery", "3333", cells=2, charge=1)
             + tile((6, 6), "structural", "0300") + tile((7, 8), "battery", "3000", cells=2, charge=1))
    attacks = ["light-shot:front", "heavy-shot:left", "light-shot:front"]
    _optimum(s, attacks)
    d = odds(s, attacks)
    o = odds(s, attacks, policy="optimal")
    assert o.p_survive == d.p_survive  # row 7 from the left kills the pilot whatever the batteries do
    assert o.expected_lost < d.expected_lost
    assert any("charges from (7,8)" in x["optimal"] for x in o.differences)
