"""Crew in flight: freed aliens, waking after a crew loss, two-hull ships, crew changed between attacks.

Expectations are hand-derived fractions of 36 (2d6: P(sum s) = (6 - |s - 7|)/36).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipbuild import PILOT, ship, tile
from test_odds import random_ships

from shipcheck.cards import Attack
from shipcheck.flight.chain import ALIEN, DEFAULT_POLICY, FlightModel, State
from shipcheck.flight.odds import odds

P = {s: F(6 - abs(s - 7), 36) for s in range(2, 13)}

# pilot (7,7); a cabin with a purple alien to its right (8,7), its purple life support above it (8,6);
# a stasis chamber below the pilot (7,8)
ALIEN_SHIP = (PILOT + tile((8, 7), "cabin", "3003", crew="purple")
              + tile((8, 6), "life_support", "0030", color="purple") + tile((7, 8), "stasis_chamber", "3000"))


def test_initial_crew_tuple() -> None:
    m = FlightModel(ship(ALIEN_SHIP))
    mask, charges, crew = m.initial()
    kinds = [t.kind for t in m.tiles]
    assert crew is not None  # sleepers aboard: the crew is always in the state
    assert dict(zip(kinds, crew, strict=True)) == {
        "life_support": 0, "start_cabin": 2, "cabin": ALIEN, "stasis_chamber": 4}
    assert m.humans(m.initial()) == 2
    assert m.aliens(m.initial()) == {kinds.index("cabin"): "purple"}
    assert m.crew_count(m.initial()) == 3
    # without sleepers the crew follows from the mask unless asked for
    plain = ship(PILOT + tile((8, 7), "cabin", "0003"))
    assert FlightModel(plain).initial()[2] is None
    assert FlightModel(plain, track_crew=True).initial()[2] == (2, 2)


def test_lost_life_support_frees_the_alien_and_sleepers_wake_into_its_cabin() -> None:
    r = odds(ship(ALIEN_SHIP), ["heavy-shot:front", "heavy-shot:front"])
    # Only columns 7 (pilot, 6/36) and 8 (life support above the alien's cabin, 5/36) hold tiles.
    # Column 7 destroys the pilot: the pieces {alien cabin, life support} and {stasis} hold no human,
    # the larger is kept, and the flight is lost. Column 8 destroys the life support: the alien leaves
    # with it (a crew loss), 2 sleepers wake into its cabin, and from then on no hit can leave the
    # ship without a human. So the ship is lost on column 7 first (6/36), or on a miss (25/36) then
    # column 7 (6/36).
    assert r.p_survive == 1 - P[7] - F(25, 36) * P[7] == F(155, 216)


def test_alien_stays_while_another_life_support_of_its_colour_serves_it() -> None:
    # a second purple life support to the right of the cabin (9,7): losing one of the two frees no one
    s = ship(PILOT + tile((8, 7), "cabin", "3303", crew="purple")
             + tile((8, 6), "life_support", "0030", color="purple")
             + tile((9, 7), "life_support", "0003", color="purple") + tile((7, 8), "stasis_chamber", "3000"))
    m = FlightModel(s)
    cabin = next(k for k, t in enumerate(m.tiles) if t.kind == "cabin")
    atk = Attack("heavy", "front")
    outs, _ = m.outcomes(atk)
    col8 = next(i for i, o in enumerate(outs) if o.value == 8)
    after = m.step(m.initial(), atk, 0, col8, DEFAULT_POLICY)
    assert after[2] is not None and after[2][cabin] == ALIEN and m.aliens(after) == {cabin: "purple"}
    r = odds(s, ["heavy-shot:front", "heavy-shot:front"])
    # Column 7 destroys the pilot; while the alien holds its cabin no piece then has a human. The
    # alien leaves (and sleepers wake) only when both life supports, columns 8 and 9, are gone: that
    # takes both attacks, so the second never finds the cabin refilled. The ship is lost exactly when
    # column 7 comes up: first (6/36), or second after anything else (30/36 x 6/36).
    assert r.p_survive == 1 - P[7] - (1 - P[7]) * P[7] == F(25, 36)


def test_an_empty_cabin_destroyed_wakes_no_one() -> None:
    # pilot (7,7) with an empty cabin on each side (6,7), (8,7) and a stasis chamber below (7,8)
    s = ship(PILOT + tile((6, 7), "cabin", "0300", crew="empty") + tile((8, 7), "cabin", "0003", crew="empty")
             + tile((7, 8), "stasis_chamber", "3000"))
    r = odds(s, ["heavy-shot:right", "heavy-shot:front"])
    # The first shot destroys the empty cabin (8,7) (row 7) or the stasis chamber (row 8): neither is a
    # crew loss, so no one wakes and (6,7) stays empty. The second destroys the pilot on column 7,
    # leaving only crewless pieces: lost with probability 6/36 whatever came first.
    assert r.p_survive == 1 - P[7] == F(5, 6)
    m = FlightModel(s)
    atk = Attack("heavy", "right")
    row7 = next(i for i, o in enumerate(m.outcomes(atk)[0]) if o.value == 7)
    after = m.step(m.initial(), atk, 0, row7, DEFAULT_POLICY)
    # tiles in grid order: (6,7), (7,7), (8,7), (7,8): the pilot's 2 humans and 4 sleepers untouched
    assert after[2] == (0, 2, 0, 4)


def test_a_crew_loss_wakes_sleepers_into_empty_cabins() -> None:
    # a crewed cabin (6,7) and an empty cabin (8,7) beside the pilot, a stasis chamber below
    s = ship(PILOT + tile((6, 7), "cabin", "0300") + tile((8, 7), "cabin", "0003", crew="empty")
             + tile((7, 8), "stasis_chamber", "3000"))
    m = FlightModel(s)
    atk = Attack("heavy", "left")
    row7 = next(i for i, o in enumerate(m.outcomes(atk)[0]) if o.value == 7)
    after = m.step(m.initial(), atk, 0, row7, DEFAULT_POLICY)
    # row 7 from the left destroys (6,7) with its 2 humans: 2 sleepers wake into (8,7)
    # (tiles in grid order: (6,7), (7,7), (8,7), (7,8))
    assert after[2] == (0, 2, 2, 2)


# -- two hulls (class IIA) ----------------------------------------------------------------------
# hull A: a crewed cabin (4,6) over an empty cabin (4,7); hull B: a crewed cabin (9,6) over a stasis
# chamber (9,7). Column 4 (3/36) hits (4,6) first, column 9 (4/36) hits (9,6).
HULL_A = tile((4, 6), "cabin", "0030") + tile((4, 7), "cabin", "3030", crew="empty")
HULL_B = tile((9, 6), "cabin", "0030") + tile((9, 7), "stasis_chamber", "3000")


def test_two_hulls_sleepers_wake_only_into_their_own_hull() -> None:
    s = ship(HULL_A + HULL_B, "IIA")
    r = odds(s, ["heavy-shot:front", "heavy-shot:front"])
    # Column 4 first destroys (4,6): hull A keeps only the empty cabin; hull B's sleepers may not wake
    # into it, so column 9 next (destroying (9,6)) leaves no human. Column 9 first: hull B has no awake
    # human left, its sleepers stay asleep, and column 4 next leaves no human. Other orders survive.
    assert r.p_survive == 1 - F(3, 36) * F(4, 36) - F(4, 36) * F(3, 36) == F(53, 54)


def test_two_hulls_sleepers_wake_only_while_their_hull_holds_a_human() -> None:
    # a stasis chamber in hull A too, below its empty cabin (4,8)
    s = ship(HULL_A + tile((4, 8), "stasis_chamber", "3000")
             + HULL_B, "IIA")
    r = odds(s, ["heavy-shot:front", "heavy-shot:front"])
    # Column 9 first: a crew loss in hull B; hull A still holds its humans, so its own sleepers wake
    # into (4,7), and column 4 next leaves those two humans. Column 4 first: hull A has no awake
    # human, its sleepers stay asleep, and column 9 next leaves no human: lost with 3/36 x 4/36.
    assert r.p_survive == 1 - F(3, 36) * F(4, 36) == F(107, 108)


# -- crew changed between attacks (a round engine's use) ----------------------------------------
def _after(m: FlightModel, st: State, attack: Attack) -> dict[State, F]:
    outs, _ = m.outcomes(attack)
    out: dict[State, F] = {}
    for oi, o in enumerate(outs):
        nxt = m.step(st, attack, 0, oi, DEFAULT_POLICY)
        out[nxt] = out.get(nxt, F(0)) + o.prob
    return out


def test_crew_edited_in_the_state_is_read_by_every_rule() -> None:
    # cabins left (6,7) and right (8,7) of the pilot; column 7 destroys the pilot and splits them
    s = ship(PILOT + tile((6, 7), "cabin", "0300") + tile((8, 7), "cabin", "0003"))
    m = FlightModel(s, track_crew=True)
    mask, ch, crew = m.initial()
    assert crew == (2, 2, 2)
    heavy = Attack("heavy", "front")
    # as launched the tie (2 humans each, 1 tile each) goes to the first square, (6,7)
    col7 = next(i for i, o in enumerate(m.outcomes(heavy)[0]) if o.value == 7)
    assert m.step(m.initial(), heavy, 0, col7, DEFAULT_POLICY)[0] == 0b001
    # a card took one human from (6,7): now the piece with the most humans is (8,7)
    edited = (mask, ch, (1, 2, 2))
    nxt = m.step(edited, heavy, 0, col7, DEFAULT_POLICY)
    assert nxt == (0b100, (), (0, 0, 2)) and m.humans(nxt) == 2
    # a card emptied both side cabins: losing the pilot (6/36) now ends the flight
    bare = (mask, ch, (0, 2, 0))
    dist = _after(m, bare, heavy)
    assert sum(p for st_, p in dist.items() if m.humans(st_) == 0) == P[7]


def test_alien_given_away_leaves_an_empty_cabin_for_sleepers() -> None:
    m = FlightModel(ship(ALIEN_SHIP))
    mask, ch, crew = m.initial()
    assert crew is not None
    cabin = next(iter(m.aliens(m.initial())))
    given = tuple(0 if k == cabin else c for k, c in enumerate(crew))
    assert m.aliens((mask, ch, given)) == {}
    woken = m.wake(mask, given)  # the caller's crew loss: sleepers wake into the alien's cabin
    assert woken[cabin] == 2 and sum(woken) == sum(given)


@settings(max_examples=40, deadline=None)
@given(random_ships(), st.lists(st.tuples(st.sampled_from(["small-meteor", "large-meteor", "light-shot",
                                                            "heavy-shot"]),
                                          st.sampled_from(["front", "rear", "left", "right"])),
                                min_size=1, max_size=3))
def test_tracking_crew_changes_no_figure(text: str, atk: list[tuple[str, str]]) -> None:
    s = ship(text)
    attacks = [f"{k}:{d}" for k, d in atk]
    plain = odds(s, attacks)
    tracked = odds(s, attacks, model=FlightModel(s, track_crew=True))
    assert tracked.p_survive == plain.p_survive
    assert tracked.lost_distribution == plain.lost_distribution
    assert tracked.p_lost() == plain.p_lost()


@pytest.mark.parametrize("attacks", [["heavy-shot:front"] * 3, ["large-meteor:left", "small-meteor:front"]])
def test_alien_ship_probabilities_sum_to_one(attacks: list[str]) -> None:
    r = odds(ship(ALIEN_SHIP), attacks)
    assert sum(r.distribution.values()) == 1
