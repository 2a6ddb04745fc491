"""Exact odds: hand-derived fractions of 36 on small ships, and invariants on random ones."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipbuild import PILOT, ship, tile

from shipcheck.flight.chain import Decision, DefaultPolicy, Policy
from shipcheck.flight.odds import odds
from shipcheck.shipfile import parse_ship


def test_lone_pilot_small_meteor_front() -> None:
    r = odds(ship(PILOT), ["small-meteor:front"])
    # only column 7 holds a tile: P(sum 7) = 6/36, and its N side is a universal connector
    assert r.p_survive == F(30, 36)
    assert r.lost_distribution == {0: F(30, 36), 1: F(6, 36)}


@pytest.mark.parametrize("charge,survive,lost", [(2, F(1), F(0)), (0, F(30, 36), F(6, 36) * 2)])
def test_shield_with_and_without_a_charge(charge: int, survive: F, lost: F) -> None:
    s = ship(PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2, charge=charge))
    r = odds(s, ["small-meteor:front"])
    # columns 6 and 8 meet smooth N sides (battery, shield): the meteor bounces. Column 7 (6/36) hits the
    # pilot cabin's connector: the shield covers N if a charge is left; otherwise the cabin goes and both
    # leaves fall off (no humans on either; the battery's square comes first, so the shield is lost too).
    assert r.p_survive == survive
    assert r.expected_lost == lost


def test_shield_does_not_cover_the_left() -> None:
    s = ship(PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2))
    r = odds(s, ["small-meteor:left"])
    # row 7 (6/36): the battery's W universal is hit; the shield covers N and E only
    assert r.lost_distribution == {0: F(30, 36), 1: F(6, 36)}
    assert r.p_survive == 1


@pytest.mark.parametrize("kind,extra,lost", [
    ("cannon", "", F(0)),
    ("double_cannon", tile((7, 8), "battery", "3000", cells=2), F(0)),
    # no charge: the double cannon cannot fire; column 7 (6/36) destroys the cannon, the first tile
    ("double_cannon", "", F(6, 36)),
])
def test_large_meteor_from_the_front(kind: str, extra: str, lost: F) -> None:
    s = ship(PILOT + tile((7, 6), kind, "0030") + extra)
    r = odds(s, ["large-meteor:front"])
    assert r.expected_lost == lost
    assert r.p_survive == 1


@pytest.mark.parametrize("kind,lost", [("cannon", F(0)), ("double_cannon", F(6 + 5, 36))])
def test_large_meteor_from_the_side_same_or_adjacent_row(kind: str, lost: F) -> None:
    # cannon at (6,7) turned to point left; a structural hangs below the cabin in row 8
    s = ship(PILOT + tile((6, 7), kind, "0030", rot=270) + tile((7, 8), "structural", "3000"))
    r = odds(s, ["large-meteor:left"])
    # row 7 (6/36) and row 8 (5/36) are within a row of the cannon; without a charge the double
    # cannon cannot fire and each hit destroys one leaf component
    assert r.expected_lost == lost
    assert r.p_survive == 1


def test_large_meteor_sideways_cannon_does_not_bear_from_the_front() -> None:
    s = ship(PILOT + tile((6, 7), "cannon", "0030", rot=270))
    r = odds(s, ["large-meteor:front"])
    # column 6 (5/36) destroys the cannon; column 7 (6/36) the pilot cabin, and the cannon, the one
    # piece left, stays aboard a crewless ship
    assert r.lost_distribution == {0: F(25, 36), 1: F(11, 36)}
    assert r.p_survive == F(30, 36)


def test_heavy_shot_cannot_be_stopped_but_light_shot_can() -> None:
    s = ship(PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2))
    heavy = odds(s, ["heavy-shot:front"])
    # column 7 (6/36): cabin destroyed, the ship splits into two crewless leaves; the battery's comes
    # first in row-major order, so the shield falls off (lost 2). Columns 6 and 8 (5/36 each): one leaf
    assert heavy.lost_distribution == {0: F(20, 36), 1: F(10, 36), 2: F(6, 36)}
    light = odds(s, ["light-shot:front"])
    assert light.lost_distribution == {0: F(1)}


def test_split_keeps_the_piece_with_most_humans() -> None:
    s = ship(tile((5, 7), "cabin", "0330") + tile((6, 7), "structural", "0303") + PILOT
             + tile((5, 8), "cabin", "3000"))
    r = odds(s, ["heavy-shot:front"])
    assert r.lost_distribution == {0: F(21, 36), 1: F(6, 36), 2: F(9, 36)}
    assert r.p_survive == 1


def test_sleepers_wake_into_an_empty_cabin() -> None:
    # pilot cabin, an empty cabin to its right, a stasis chamber below it, a crewed cabin to the left
    s = ship(PILOT + tile((8, 7), "cabin", "0003", crew="empty") + tile((7, 8), "stasis_chamber", "3000")
             + tile((6, 7), "cabin", "0300"))
    # left shot on row 7 (6/36) destroys the left cabin: sleepers wake into the empty cabin (2 places).
    # then a front heavy shot on column 7 destroys the pilot cabin; the ship splits into {8,7} (2 woken
    # humans) and {7,8} (sleepers, not humans): the woken crew keeps the ship alive.
    r = odds(s, ["heavy-shot:left", "heavy-shot:front"])
    no_stasis = ship(PILOT + tile((8, 7), "cabin", "0003", crew="empty") + tile((6, 7), "cabin", "0300"))
    r0 = odds(no_stasis, ["heavy-shot:left", "heavy-shot:front"])
    assert r.p_survive > r0.p_survive
    # without sleepers: death needs the pilot cabin gone (column 7, 6/36) after the left cabin went
    # (row 7, 6/36), or the pilot cabin gone with the crewed left cabin falling off... which cannot
    # happen (it keeps the piece with more humans). So P(death) = P(row 7) * P(col 7) = 1/36.
    assert r0.p_survive == 1 - F(6, 36) * F(6, 36)
    assert r.p_survive == 1


def test_ic_redirect_and_duplicated_rows() -> None:
    # a lone cabin on IIC; row index 2 carries label 3 (as does row index 4)
    s = parse_ship('format = 1\nclass = "IIC"\n\n[[tile]]\nat = {col = 1, row = 2}\nkind = "start_cabin"\n'
                   'sides = "3333"\n')
    r = odds(s, ["small-meteor:front"])
    # front roll: column label 3 on a 3 (1/6); a 1 turns it into a left attack (1/6), then a 3 hits rows
    # labelled 3 (the cabin's row among them): 1/6 * 1/6; a 6 turns it into a right attack: same
    assert r.lost_distribution[1] == F(1, 6) + 2 * F(1, 36)


# -- policies -------------------------------------------------------------------------------------
class NeverDefend(Policy):
    name = "never"

    def decide(self, sit):  # type: ignore[no-untyped-def]
        return Decision(cannons=(-1,) * len(sit.hits))


def test_custom_policy_object() -> None:
    s = ship(PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2))
    assert odds(s, ["small-meteor:front"], policy=NeverDefend()).p_survive == F(30, 36)
    assert odds(s, ["small-meteor:front"], policy=DefaultPolicy()).p_survive == 1


def test_optimal_saves_the_charge_for_the_large_meteor() -> None:
    # one charge; a small meteor from the front, then a large one. The shield would stop the small
    # meteor on the cabin's N connector; the double cannon needs the charge for the large meteor.
    s = ship(PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2, charge=1)
             + tile((7, 6), "double_cannon", "0030") + tile((7, 8), "structural", "3000"))
    atk = ["small-meteor:right", "large-meteor:front"]
    d = odds(s, atk)
    o = odds(s, atk, policy="optimal")
    assert (o.p_survive, -o.expected_lost) >= (d.p_survive, -d.expected_lost)
    assert sum(o.lost_distribution.values()) == 1


# -- invariants -----------------------------------------------------------------------------------
KINDS_ = ["cabin", "structural", "battery", "shield", "cannon", "double_cannon", "engine", "plating"]
SQUARES_I = [(c, r) for r, row in zip(range(5, 10), ["..#..", ".###.", "##S##", "#####", "##.##"])
             for c, ch in zip(range(5, 10), row) if ch in "#"]


@st.composite
def random_ships(draw: st.DrawFn) -> str:
    squares = draw(st.lists(st.sampled_from(SQUARES_I), unique=True, min_size=0, max_size=7))
    text = PILOT
    for at in squares:
        kind = draw(st.sampled_from(KINDS_))
        sides = list(draw(st.text(alphabet="0123", min_size=4, max_size=4)))
        if kind in ("cannon", "double_cannon"):
            sides[0] = "0"
        if kind == "engine":
            sides[2] = "0"
        kw = {"cells": 2} if kind == "battery" else {}
        rot = draw(st.sampled_from([0, 90, 180, 270])) if kind != "engine" else 0
        text += tile(at, kind, "".join(sides), rot=rot, **kw)
    return text


ATTACKS = st.sampled_from(["small-meteor", "large-meteor", "light-shot", "heavy-shot"])
DIRS = st.sampled_from(["front", "rear", "left", "right"])


@settings(max_examples=60, deadline=None)
@given(random_ships(), st.lists(st.tuples(ATTACKS, DIRS), min_size=1, max_size=3))
def test_probabilities_sum_to_one_and_optimal_is_never_worse(text: str, atk: list[tuple[str, str]]) -> None:
    s = ship(text)
    attacks = [f"{k}:{d}" for k, d in atk]
    r = odds(s, attacks)
    assert sum(r.lost_distribution.values()) == 1
    assert sum(r.distribution.values()) == 1
    assert 0 <= r.p_survive <= 1
    assert all(0 <= p <= 1 for _, p in r.p_lost())
    assert sum(p for _, p in r.p_lost()) == r.expected_lost
    o = odds(s, attacks, policy="optimal")
    assert (o.p_survive, -o.expected_lost) >= (r.p_survive, -r.expected_lost)


@settings(max_examples=60, deadline=None)
@given(random_ships(), ATTACKS, DIRS)
def test_mirroring_swaps_left_and_right(text: str, kind: str, d: str) -> None:
    s = ship(text)
    m = s.mirrored()
    swap = {"left": "right", "right": "left"}.get(d, d)
    a, b = odds(s, [f"{kind}:{d}"]), odds(m, [f"{kind}:{swap}"])
    assert a.p_survive == b.p_survive
    assert a.lost_distribution == b.lost_distribution


# -- expansion components and boards -------------------------------------------------------------
def test_plating_shrugs_off_shots_on_its_smooth_sides() -> None:
    # plating to the right of the cabin, joined by its W universal; its E side is plated (smooth)
    s = ship(PILOT + tile((8, 7), "plating", "0003"))
    heavy = odds(s, ["heavy-shot:right"])
    # row 7 (6/36): the plating's E side is smooth: no effect; nothing else is in reach from the right
    assert heavy.lost_distribution == {0: F(1)}
    front = odds(s, ["heavy-shot:front"])
    # from the front, column 8 (5/36) meets the plating's smooth N: no effect; column 7 (6/36) kills
    # the cabin (the plating stays, the only piece left)
    assert front.lost_distribution == {0: F(30, 36), 1: F(6, 36)}


def test_bidirectional_cannon_costs_a_charge_and_bears_with_either_barrel() -> None:
    # barrels N and E at rot 0; joined to the cabin by its W universal
    base = PILOT + tile((8, 7), "bidirectional_cannon", "0003")
    charged = ship(base + tile((6, 7), "battery", "0303", cells=2))
    empty = ship(base + tile((6, 7), "battery", "0303", cells=2, charge=0))
    # from the right, rows 6-8 are within a row of the cannon's E barrel; row 7 (6/36) is the only
    # row with a tile: the cannon itself is first from the right
    assert odds(charged, ["large-meteor:right"]).expected_lost == 0
    assert odds(empty, ["large-meteor:right"]).expected_lost == F(6, 36)
    # from the front only column 8 is covered by the N barrel (5/36 saved with a charge); column 6
    # (5/36) destroys the battery; column 7 (6/36) the cabin, leaving two crewless one-tile pieces:
    # the battery's square comes first, so the cannon falls off too
    assert odds(charged, ["large-meteor:front"]).lost_distribution == {0: F(25, 36), 1: F(5, 36), 2: F(6, 36)}


def test_cannon_engine_fires_for_free() -> None:
    # barrel N and exhaust S: it joins the cabin by its W universal
    s = ship(PILOT + tile((8, 7), "cannon_engine", "0003"))
    # column 8 (5/36) is shot down without a battery; column 7 (6/36) destroys the cabin
    assert odds(s, ["large-meteor:front"]).lost_distribution == {0: F(30, 36), 1: F(6, 36)}


def test_boosted_shield_stops_a_heavy_shot_for_two_charges() -> None:
    # shield (8,7) joined to the cabin and, by its S universal, to a shield booster below it
    s = ship(PILOT + tile((8, 7), "shield", "0033") + tile((8, 8), "shield_booster", "3000")
             + tile((6, 7), "battery", "0303", cells=3))
    r = odds(s, ["heavy-shot:front", "heavy-shot:front"])
    # each hit in column 7 (6/36) or 8 (5/36: the shield) or 6 (5/36: the battery) is stopped while
    # two charges are left: the first attack always, the second only if the first cost nothing
    assert r.p_survive > odds(ship(PILOT + tile((6, 7), "battery", "0303", cells=3)),
                              ["heavy-shot:front", "heavy-shot:front"]).p_survive
    one = odds(s, ["heavy-shot:front"])
    assert one.lost_distribution == {0: F(1)}


def test_ia_front_turns_the_attacks() -> None:
    # class IA with the front to the E: a lone pilot cabin (start square) is hit from the front by
    # rolls naming its row (labels 6, 7, 8: 16/36)
    s = parse_ship('format = 1\nclass = "IA"\nfront = "E"\n')
    r = odds(s, ["small-meteor:front"])
    assert r.lost_distribution[1] == F(5 + 6 + 5, 36)
    # an engine must point to the chosen rear (W), which is E1-free with rot 90
    e = parse_ship('format = 1\nclass = "IA"\nfront = "E"\n\n[[tile]]\nat = {col = 1, row = 2}\n'
                   'kind = "engine"\nsides = "0300"\nrot = 90\n')
    from shipcheck.check.rules import check
    assert "E1" not in check(e).codes()


@pytest.mark.parametrize("n", [3, 12, 13])  # 36^12 < 2^63 < 36^13: the summaries then add Python ints
def test_summaries_equal_the_states_read_one_by_one(n: int) -> None:
    # the summaries work per set of tiles aboard at once; here each final state is read on its own
    s = ship(PILOT + tile((7, 6), "cabin", "3333") + tile((8, 7), "battery", "3333", cells=2)
             + tile((6, 7), "cannon", "0333") + tile((7, 8), "shield", "3033"))
    attacks = ["small-meteor:left", "large-meteor:front", "light-shot:right"] * (n // 3)
    r = odds(s, attacks + ["small-meteor:rear"] * (n % 3))
    k, d = r.model.kernel, r.denominator
    lost: dict[int, int] = {}
    tiles = [0] * r.model.n
    for p, w in r.weights.items():
        lost[k.lost(p)] = lost.get(k.lost(p), 0) + w
        for t in range(r.model.n):
            tiles[t] += w * (k.lost_tiles(p) >> t & 1)
    assert r.lost_distribution == {c: F(w, d) for c, w in sorted(lost.items())}
    assert r.expected_lost == sum(c * F(w, d) for c, w in lost.items())
    assert [p for _, p in r.p_lost()] == [F(w, d) for w in tiles]
    assert r.p_survive == F(sum(w for p, w in r.weights.items() if k.humans(p) > 0), d)
    assert sum(lost.values()) == d and len(lost) > 1
