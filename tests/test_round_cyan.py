"""The cyan Techie and Diplomat and one IIA half in hyperspace, on hand-checked rounds (fixed decks,
fixed or no dice). Round 1 rules; ships alone start on 0, a second ship on -2.

Rules (rules digest §11.2, §11.5): the Techie makes the first charge spent on each card free, if
the ship (on IIA: his half) holds a charge; the Diplomat, once, cancels an effect that has hit the
ship (a lost fight: the enemy moves on; a combat-zone line: it hits nobody), then leaves; on IIA an
engine booster sends only its own half to hyperspace, for the card and the next.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from shipcheck.round.chunks import CAUSES
from shipcheck.round.policy import DefaultPolicy, View
from shipcheck.round.state import Firepower, ShipModel
from tests.roundkit import A, fly, pair
from tests.shipbuild import ship, tile

U, ENG, CAN = "3333", "3303", "0333"
CYAN_CABIN = tile((6, 7), "cabin", U, crew="cyan") + tile((5, 7), "life_support", U, color="cyan")


def cyan(spec: str) -> str:
    return f'[meta]\ncyan = "{spec}"\n' if spec else ""


def racer(spec: str, charge: int = 2):  # type: ignore[no-untyped-def]
    """Pilot cabin, a cyan alien, a battery (2 cells) and two double engines, no single engine:
    power 0, 2 or 4 for 0, 1 or 2 engines powered."""
    return ship(tile((7, 7), "start_cabin", U) + CYAN_CABIN + tile((8, 7), "battery", U, cells=2, charge=charge)
                + tile((7, 8), "double_engine", ENG) + tile((8, 8), "double_engine", ENG), extra=cyan(spec))


def test_techie_powers_one_engine_more_for_the_same_charges_in_open_space():
    # racing powers every engine it can. Techie: 2 charges + the free one power both engines (4 spaces)
    # for 1 charge, then again (1 charge left -> 0): 8 spaces; the third card finds no charge, so no
    # free one either: power 0, it gives up. Without him: 4 spaces for 2 charges, then power 0.
    deck = ["I-05", "I-06", "I-07"]
    out = fly(deck, [racer("techie")], policy="racing")
    assert out.days[0, 0] == 8 and out.gave_up[0, 0] == CAUSES.index("no_engine_power")
    out = fly(deck, [racer("")], policy="racing")
    assert out.days[0, 0] == 4 and out.gave_up[0, 0] == CAUSES.index("no_engine_power")


def test_techie_default_policy_counts_the_free_charge():
    # the default powers the fewest engines giving power >= 1: one, which costs the Techie nothing:
    # three cards of 2 spaces and both charges kept (no battery spent: finishes, 6 spaces). Without
    # him one charge a card: 2, 2, then no charge left: gives up on the third card.
    deck = ["I-05", "I-06", "I-07"]
    out = fly(deck, [racer("techie")])
    assert out.days[0, 0] == 6 and out.gave_up[0, 0] == 0
    out = fly(deck, [racer("")])
    assert out.days[0, 0] == 4 and out.gave_up[0, 0] == CAUSES.index("no_engine_power")
    # with no charge at all the Techie has nothing to make free
    out = fly(["I-05"], [racer("techie", charge=0)])
    assert out.gave_up[0, 0] == CAUSES.index("no_engine_power")


def gunner(spec: str, charge: int, goods: list[str] | None = None):  # type: ignore[no-untyped-def]
    """Two forward double cannons (2 each per charge) and a battery: firepower 0, 2, 4."""
    hold = tile((9, 7), "cargo", U, slots=2, goods=goods) if goods else ""
    return ship(tile((7, 7), "start_cabin", U) + CYAN_CABIN + tile((8, 7), "battery", U, cells=2, charge=charge)
                + tile((7, 6), "double_cannon", CAN) + tile((8, 6), "double_cannon", CAN)
                + tile((7, 8), "engine", ENG) + hold, extra=cyan(spec))


def test_techie_free_charge_in_a_fight_and_in_the_model():
    # one charge powers both cannons (firepower 4 = 8 half units); the free one is then used for
    # this card: with no charge left nothing more is powered
    m = ShipModel(gunner("techie", 1))
    st = m.initial()
    fp, after, _ = m.firepower(st, Firepower(2))  # type: ignore[misc]
    assert fp == 8 and m.charges_in(after) == 0 and after[6] == 1
    assert m.firepower(after, Firepower(1))[0] == 0  # type: ignore[index]
    assert m.usable_fire_charges(st) == 2 and m.usable_fire_charges(after) == 0
    plain = ShipModel(gunner("", 1))
    assert plain.usable_fire_charges(plain.initial()) == 1
    # the options the policies see count it: one cannon for nothing, two for one charge
    opts = View(m, st, {}).fire_options()
    assert (0, 4, Firepower(1)) in opts and (1, 8, Firepower(2)) in opts
    # against strength 4 (8 half units) the best is a tie: the Techie ship reaches it, the plain one
    # (one cannon at most) declares nothing
    assert DefaultPolicy().fight(View(m, st, {}), 4) == Firepower(2)
    assert DefaultPolicy().fight(View(plain, plain.initial(), {}), 4) == Firepower()
    # in a round, I-02 smugglers (strength 4, 2 goods penalty), each ship alone with two blue goods
    # (1 credit each): the Techie ship ties and keeps them, the plain one loses them
    techie = fly(["I-02"], [gunner("techie", 1, ["blue", "blue"])]).credits[0, 0]
    plain_ = fly(["I-02"], [gunner("", 1, ["blue", "blue"])]).credits[0, 0]
    assert techie - plain_ == 2


def test_techie_on_two_halves_helps_his_own_half_only():
    # class IIA: each half a cabin, a double engine and a battery holding 1 charge; the Techie in
    # half A; racing powers all it can. Card 1: both engines (A's charge free, B pays). Card 2: A's
    # charge is free again, B has none: B's power is 0, so B leaves (half of its yellow good's 3
    # credits: 2) and the ship moves by A's 2. Without the Techie both halves spend their charge on
    # card 1 and the ship gives up on card 2.
    def halves(spec: str):  # type: ignore[no-untyped-def]
        return ship(tile((4, 7), "cabin", U) + tile((4, 6), "cabin", U, crew="cyan")
                    + tile((3, 6), "life_support", U, color="cyan") + tile((4, 8), "double_engine", ENG)
                    + tile((5, 7), "battery", U, cells=2, charge=1)
                    + tile((9, 7), "cabin", U) + tile((9, 8), "double_engine", ENG) + tile((10, 7), "battery", U, cells=2, charge=1)
                    + tile((9, 6), "cargo", U, slots=1, goods=["yellow"]), "IIA", extra=cyan(spec))
    out = fly(["I-05", "I-06"], [halves("techie")], policy="racing")
    assert out.days[0, 0] == 4 and out.gave_up[0, 0] == 0 and out.card_credits[0, 0] == 2
    out = fly(["I-05", "I-06"], [halves("")], policy="racing")
    assert out.gave_up[0, 0] == CAUSES.index("no_engine_power")


def envoy(spec: str):  # type: ignore[no-untyped-def]
    """Pilot cabin (2 humans), a cyan alien, one engine: crew 3, power 1, firepower 0."""
    return ship(tile((7, 7), "start_cabin", U) + CYAN_CABIN + tile((7, 8), "engine", ENG), extra=cyan(spec))


def test_diplomat_against_slavers_keeps_the_crew_and_leaves():
    # I-01 slavers (strength 6, 3 crew): the envoy loses. The Diplomat saves its crew and it finishes;
    # without him the slavers take both humans and the alien: no humans, it gives up.
    out = fly(["I-01"], [envoy("diplomat")])
    assert out.gave_up[0, 0] == 0 and out.survived[0, 0]
    out = fly(["I-01"], [envoy("")])
    assert out.gave_up[0, 0] == CAUSES.index("no_humans")
    # single use: the second slavers card finds him gone and takes the 2 humans left
    out = fly(["I-01", "I-01"], [envoy("diplomat")])
    assert out.gave_up[0, 0] == CAUSES.index("no_humans")


def test_diplomat_against_pirates_no_shots_and_the_pirates_move_on():
    # I-03 pirates (strength 5; light, heavy, light shots from the front), every shot rolling 7:
    # column 7. The envoy leads and loses: its Diplomat sends them on, no shot is rolled at it; A
    # (firepower 0) loses next and its pilot cabin (7,7), first in column 7, is shot away by the
    # first shot: without humans, A leaves at once and the next shots miss its engine.
    seven = [[pair(3, 4)] * 3]
    out = fly(["I-03"], [envoy("diplomat"), A()], rolls=seven)
    assert out.lost[:, 0].tolist() == [0, 1] and out.gave_up[:, 0].tolist() == [0, CAUSES.index("no_humans")]
    # without the Diplomat the envoy's pilot cabin goes too (and the engine with it)
    out = fly(["I-03"], [envoy(""), A()], rolls=seven)
    assert out.lost[0, 0] >= 1 and out.gave_up[0, 0] == CAUSES.index("no_humans")


def test_diplomat_avoids_a_combat_zone_line_which_then_hits_nobody():
    # I-16 against A (crew 2, power 1, firepower 0); the envoy leads on 0, A on -2.
    # Line 1 (crew -> 3 days): A has fewer crew: -2 -> -5. Line 2 (engine power -> 2 crew): a tie at
    # 1, the envoy is ahead: hit, it uses the Diplomat (crew): nobody loses crew, A neither.
    # Line 3 (firepower -> shots from the rear): a tie at 0, the envoy is hit (dice 2: a miss).
    out = fly(["I-16"], [envoy("diplomat"), A()])
    assert out.days[:, 0].tolist() == [0, -3]
    assert out.gave_up[:, 0].tolist() == [0, 0] and out.survived[:, 0].all()
    # without him the envoy loses both humans on line 2 (the alien is kept last) and gives up
    out = fly(["I-16"], [envoy(""), A()])
    assert out.gave_up[:, 0].tolist() == [CAUSES.index("no_humans"), 0]


class HalfJumper(DefaultPolicy):
    """Jumps to hyperspace at every meteor swarm."""

    name = "half-jumper"

    def hyperspace(self, view, card):  # type: ignore[no-untyped-def]
        return card.type == "meteor_swarm"


def twins():  # type: ignore[no-untyped-def]
    """Class IIA. Half A: a cabin (4,7), a structural module above it (4,6), engines (4,8) and
    (5,8), an engine booster (5,7) joined to (5,8), a battery of 2 (5,6). Half B: a cabin (9,7),
    engines (9,8) and (10,8), structural modules (10,7), (10,6), (11,6). Power 2 each."""
    return ship(tile((4, 7), "cabin", U) + tile((4, 6), "structural", U) + tile((4, 8), "engine", ENG)
                + tile((5, 8), "engine", ENG) + tile((5, 7), "engine_booster", U) + tile((5, 6), "battery", U, cells=2)
                + tile((9, 7), "cabin", U) + tile((9, 8), "engine", ENG) + tile((10, 8), "engine", ENG)
                + tile((10, 7), "structural", U) + tile((10, 6), "structural", U) + tile((11, 6), "structural", U),
                "IIA", extra='name = "twins"\n')


def test_an_iia_booster_sends_its_half_to_hyperspace_and_the_other_half_takes_the_meteors():
    # I-10: small meteors front, rear, left, right. Front rolls 4: column 4 from the front meets
    # A's structural (4,6); rear rolls 11: column 11 from the rear meets B's (11,6); left and right
    # roll 2 (no row 2: misses). Then two open spaces.
    s = twins()
    rolls = [[pair(1, 3), pair(5, 6), 0, 0]]
    deck = ["I-10", "I-05", "I-06"]
    stay = fly(deck, [s], rolls=rolls)
    jump = fly(deck, [s], rolls=rolls, policy=HalfJumper())
    # staying: both halves hit (2 lost); 2 + 2 spaces
    assert stay.lost[0, 0] == 2 and stay.days[0, 0] == 4
    # jumping: half A is away for the swarm and the first open space; its boosted engine (5,8) is
    # destroyed, its structural is not hit; B is hit. Open space 1: B alone, 2 spaces; open space 2:
    # A is back with one engine: min(1, 2) = 1 space. Both halves finish.
    assert jump.lost[0, 0] == 2 and jump.days[0, 0] == 3 and jump.gave_up[0, 0] == 0
    lost_stay = {k for k, c in enumerate(stay.tile_lost[0]) if c}
    lost_jump = {k for k, c in enumerate(jump.tile_lost[0]) if c}
    assert len(lost_stay & lost_jump) == 1  # B's structural, in both
    assert lost_stay != lost_jump


def test_an_iia_half_jumping_on_the_last_card_leaves_the_flight():
    # the swarm is the last card: half A's jump means it leaves (its tiles go back, not lost, bar
    # the boosted engine); B takes the meteors and finishes alone
    s = twins()
    out = fly(["I-10"], [s], rolls=[[pair(1, 3), pair(5, 6), 0, 0]], policy=HalfJumper())
    assert out.gave_up[0, 0] == 0 and out.lost[0, 0] == 2 and out.place[0, 0] == 1
    assert np.all(out.credits[0] == out.credits[0, 0])


def test_the_output_says_the_diplomat_rule_is_provisional_and_no_cyan_gap_is_left(tmp_path):
    import shipcheck

    path = tmp_path / "envoy.toml"
    path.write_text(envoy("diplomat").to_toml())
    r = shipcheck.simulate_round(str(path), round=1, runs=20, seed=1, opponents=[])
    said = [n for n in r.notes if "diplomat" in n]
    assert said and "provisional" in said[0]
    path.write_text(racer("techie").to_toml())
    r = shipcheck.simulate_round(str(path), round=1, runs=20, seed=1, opponents=[])
    assert not any("not modelled" in n for n in r.notes)




def shielded(spec: str):  # type: ignore[no-untyped-def]
    """A shield over the front and the right, one charge, the cyan alien: I-10's four small meteors
    (front, rear, left, right) find the shield twice; the Techie makes the first charge free."""
    return ship(tile((7, 7), "start_cabin", U) + CYAN_CABIN + tile((8, 7), "battery", U, cells=2, charge=1)
                + tile((7, 6), "shield", U) + tile((7, 8), "engine", ENG) + tile((8, 8), "cabin", U), extra=cyan(spec))


def test_odds_and_simulate_count_the_techie_on_cards_and_say_where_they_cannot(tmp_path, capsys):
    """`--card` (default policy) on a Techie ship goes through the round model, which counts his free
    charge (I-10: fewer components lost than the same ship without him); attacks given one by one fly
    the single-ship flight model, which has no cards: the output says the Techie is not counted there.
    A ship without a Techie is flown as always and nothing is said."""
    import json

    import pytest

    from shipcheck.cards import find_card
    from shipcheck.cli import main
    from shipcheck.round.cardodds import card_odds

    def run(*args: str) -> str:
        with pytest.raises(SystemExit) as ei:
            main(list(args))
        assert ei.value.code in (0, None)
        return capsys.readouterr().out

    path = tmp_path / "s.toml"
    said = "Techie's free first charge"
    lost = {}
    for spec in ("techie", "", "diplomat"):
        path.write_text(shielded(spec).to_toml())
        d = json.loads(run("odds", str(path), "--card", "I-10", "--format", "json", "--no-cache"))
        lost[spec] = Fraction(d["fractions"]["expected_lost"] if "fractions" in d else d["expected_lost"])
        assert said not in run("odds", str(path), "--card", "I-10", "--no-cache")
        assert said not in run("simulate", str(path), "--card", "I-10", "--runs", "200")
        assert (said in run("odds", str(path), "--attack", "small-meteor:front", "--no-cache")) == (spec == "techie")
        assert (said in run("simulate", str(path), "--attack", "small-meteor:front", "--runs", "200")) == (
            spec == "techie")
    import shipcheck

    card = find_card("I-10")
    assert lost["techie"] == card_odds(shielded("techie"), [card]).expected_lost
    # without him the cards are the flight model's attacks, exactly; with him strictly fewer losses
    assert lost[""] == lost["diplomat"] == shipcheck.odds(shielded(""), list(card.attacks())).expected_lost
    assert lost["techie"] < lost[""]

def manager_halves(cyan_half: str):  # type: ignore[no-untyped-def]
    """Class IIA: an orange alien (with its life support) and a single engine in half A; in half B a
    cabin, a single engine and the cyan alien, or the cyan alien in half A next to the orange one."""
    a_cyan = cyan_half == "A"
    return ship(tile((4, 7), "cabin", U, crew="orange") + tile((5, 7), "life_support", U, color="orange")
                + tile((4, 8), "engine", ENG)
                + (tile((4, 6), "cabin", U, crew="cyan") + tile((3, 6), "life_support", U, color="cyan")
                   if a_cyan else tile((4, 6), "cabin", U))
                + tile((9, 7), "cabin", U) + tile((9, 8), "engine", ENG)
                + (tile((9, 6), "cabin", U) if a_cyan else
                   tile((9, 6), "cabin", U, crew="cyan") + tile((10, 6), "life_support", U, color="cyan")),
                "IIA", extra=cyan("manager"))


def test_the_managers_plus_one_counts_only_in_his_own_half_on_iia():
    # half A: engine 1 + orange 2 = 3, +1 more (3 in all for the orange) only with the Manager in A
    for where, expected in (("A", 4), ("B", 3)):
        m = ShipModel(manager_halves(where))
        power, _ = m.engine(m.initial(), 0)
        assert sorted(power.values()) == [1, expected], where


class PirateDodger(DefaultPolicy):
    """Jumps to hyperspace at every pirates card."""

    name = "pirate-dodger"

    def hyperspace(self, view, card):  # type: ignore[no-untyped-def]
        return card.type == "pirates"


def test_an_iia_half_in_hyperspace_is_safe_from_the_shots_after_the_other_half_leaves():
    # I-03 pirates (strength 5; light, heavy, light shots from the front), then I-05 open space.
    # Half A jumps (its engine (5,8) boosted and destroyed: 1 lost); half B, firepower 0, loses.
    # Shot 1 rolls 9: column 9 from the front meets B's only cabin (9,7): destroyed (2 lost), B has
    # no human and leaves (its other tiles go back, not lost). The ship is now half A, safe in
    # hyperspace for the rest of the card and the next (rules §11.2; BigExp 'Dínamos de Turbinas':
    # "as if only one half were in the flight for the rest of the card revealed and all of the
    # next"): shot 2 rolls 4, column 4 from the front, where A's structural (4,6) would be, and
    # misses. A sits out the open space, comes back and finishes: 2 lost, no day moved.
    s = twins()
    out = fly(["I-03", "I-05"], [s], rolls=[[pair(4, 5), pair(1, 3), 0]], policy=PirateDodger())
    b = s.board
    tiles = ShipModel(s).tiles
    lost = {(b.columns[t.at % b.width][0], b.rows[t.at // b.width][0])
            for t, c in zip(tiles, out.tile_lost[0]) if c}
    assert lost == {(5, 8), (9, 7)}
    assert out.lost[0].tolist() == [2, 2, 2] and out.days[0, 0] == 0 and out.gave_up[0, 0] == 0
    assert out.survived[0, 0] and out.place[0, 0] == 1
