"""Issue 18's rules corners in whole rounds, each hand-derived and flown on the engine compiled and
as plain Python (the custom-policy case: with a policy of one's own):

1. a ship left without a human leaves at once (the meteors, shots and moves after that miss it),
   except in a Combat Zone, where it leaves after the card;
3. an Epidemic strikes cabins ``adjacent`` to another occupied cabin (the rulebook) or only those
   ``joined`` to one (``[cards] epidemic`` of a rules file), and the output says which;
4. the pilot cabin a board does not use (class IIA) costs nothing; one never placed on a Latest
   Models board is a lost component, in ``check`` and in the round's penalty alike.

Ships (see ``roundkit``): ``A`` is a pilot cabin on (7,7) with an engine below (2 humans); ``D``
adds a cabin left of the pilot cabin (4 humans).
"""

from __future__ import annotations

import pytest
from roundkit import A, D, fly, pair
from shipbuild import PILOT, ship, tile

import shipcheck
from shipcheck import runtime
from shipcheck.check.rules import check
from shipcheck.round.chunks import CAUSES
from shipcheck.round.policy import DefaultPolicy

NO_HUMANS = CAUSES.index("no_humans")
U, CAN, ENG = "3333", "0333", "3303"


@pytest.fixture(params=["compiled", "plain"])
def engine(request, monkeypatch):  # type: ignore[no-untyped-def]
    """Every test here runs on the engine compiled and as plain Python."""
    if request.param == "plain":
        monkeypatch.setattr(runtime.state, "force", "plain")
    return request.param


def gun() -> object:
    """Three double cannons at the front (firepower 6 with the 3 charges of its battery), a 3-slot
    hold, two cabins: 6 humans."""
    return ship(PILOT + tile((6, 6), "double_cannon", CAN) + tile((7, 6), "double_cannon", CAN)
                + tile((8, 6), "double_cannon", CAN) + tile((6, 7), "battery", U, cells=3)
                + tile((8, 7), "cargo", U, slots=3) + tile((7, 8), "engine", ENG)
                + tile((6, 8), "cabin", U) + tile((8, 8), "cabin", U), extra='name = "gun"\n')


# -- 1. leaving at once ------------------------------------------------------------------------------
def test_a_meteor_swarm_stops_at_the_ship_it_left_without_humans(engine):
    # I-11: large, small, large meteors from the front. The first rolls 7: column 7's first tile is
    # A's pilot cabin (no cannon): destroyed, A keeps its engine and no human, and leaves at once.
    # The small meteor also rolls 7: it would have met the engine's open front connector and
    # destroyed it; it misses A now. D (its cabin on (6,7) keeps 2 humans) loses the pilot cabin and
    # the engine that falls off with it, then has nothing in column 7.
    out = fly(["I-11"], [A(), D()], rolls=[[pair(3, 4), pair(3, 4), pair(1, 1)]])
    assert out.lost[:, 0].tolist() == [1, 2]
    assert out.gave_up[:, 0].tolist() == [NO_HUMANS, 0]


def test_pirates_shots_stop_at_the_ship_they_left_without_humans(engine):
    # I-03 pirates (strength 5; light, heavy, light shots from the front), every shot rolling 7. A
    # (firepower 0) loses; the first light shot destroys its pilot cabin (no shield): A leaves at
    # once, and the heavy shot that would have destroyed its engine misses. One component lost.
    out = fly(["I-03"], [A()], rolls=[[pair(3, 4)] * 3])
    assert out.lost[0, 0] == 1 and out.gave_up[0, 0] == NO_HUMANS


def big() -> object:
    """Four double cannons at the front (2 each with a charge), two batteries of 3: firepower 8
    with 4 charges; 2 humans."""
    return ship(PILOT + tile((6, 6), "double_cannon", CAN) + tile((7, 6), "double_cannon", CAN)
                + tile((8, 6), "double_cannon", CAN) + tile((5, 7), "double_cannon", CAN)
                + tile((6, 7), "battery", U, cells=3) + tile((8, 7), "battery", U, cells=3)
                + tile((7, 8), "engine", ENG), extra='name = "big"\n')


def test_a_ship_the_slavers_leave_without_humans_leaves_its_space_at_once(engine, tmp_path):
    # Five-player rules (the slavers must be beaten twice), ships 1 space apart: big (0), A (-1),
    # big (-2). I-01 slavers, strength 6, 3 crew, 5 credits, 1 day. The leader wins (8 > 6 with 4
    # charges: 5 credits); A (firepower 0) loses its 2 humans and leaves at once; the rear big wins
    # too (the second winner: 4 credits). The winners lose their day, rearmost first: -2 -> -3,
    # then the leader 0 -> -1, a space empty now that A has left (had A left only after the card,
    # the leader would have skipped it and stopped on -2).
    rules = tmp_path / "close.toml"
    rules.write_text("format = 1\n[round.1]\nstart_gaps = [1]\n")
    out = fly(["I-01"], [big(), A(), big()], five=True, rules=str(rules))
    assert out.gave_up[:, 0].tolist() == [0, NO_HUMANS, 0]
    assert out.card_credits[:, 0].tolist() == [5, 0, 4]
    assert out.days[:, 0].tolist() == [-1, 0, -1]


class Generous(DefaultPolicy):
    name = "generous"

    def abandoned_ship(self, view, card, crew_cost):  # type: ignore[no-untyped-def]
        return True


def test_a_ship_that_gives_its_last_humans_to_an_abandoned_ship_leaves_at_once():
    # I-18: 2 crew for 3 credits and 1 day. A gives both its humans (a policy that accepts anything):
    # it takes the credits and leaves at once, before the takers lose their days, so its marker
    # stays where it was (days 0; leaving after the card it would have moved back to -1 first).
    # It gave up: no arrival, no bonus; no goods, nothing lost: 3 credits, all from the card.
    out = fly(["I-18"], [A()], policy=Generous())
    assert out.gave_up[0, 0] == NO_HUMANS
    assert out.card_credits[0, 0] == 3 and out.credits[0, 0] == 3 and out.days[0, 0] == 0


def test_in_a_combat_zone_a_ship_leaves_only_after_the_card(engine):
    # I-16 against S (pilot cabin, a cannon above it, three engines: 2 humans, power 3, firepower
    # 1), S 2 spaces behind A. Line 1 (fewest crew, 3 days): 2 against 2, the ship ahead is hit: A
    # moves back 3 empty spaces, 0 -> -4 (skipping S on -2). Line 2 (lowest engine power, 2 crew):
    # A (1) loses its 2 humans, and stays for the rest of the card. Line 3 (lowest firepower,
    # shots light and heavy from the rear): A (0) is hit; both roll 7: the light shot destroys
    # its engine (7,8), the heavy one its pilot cabin. Then A leaves: 2 components lost.
    s = ship(PILOT + tile((7, 6), "cannon", CAN) + tile((6, 7), "structural", U) + tile((8, 7), "structural", U)
             + tile((6, 8), "engine", ENG) + tile((7, 8), "engine", ENG) + tile((8, 8), "engine", ENG),
             extra='name = "S"\n')
    out = fly(["I-16"], [A(), s], rolls=[[pair(3, 4), pair(3, 4)]])
    assert out.gave_up[:, 0].tolist() == [NO_HUMANS, 0]
    assert out.lost[:, 0].tolist() == [2, 0]
    assert out.days[0, 0] == -4


# -- 3. epidemic: adjacent or joined -------------------------------------------------------------------
def cabins() -> object:
    """The pilot cabin (7,7) above a cabin (7,8) joined to it; a cabin (6,8) beside (7,8) on smooth
    sides (adjacent, not joined) and joined to a structural module (6,7) that joins the pilot cabin.
    Three occupied cabins, 6 humans; no engine (the deck has no Open Space)."""
    return ship(PILOT + tile((7, 8), "cabin", "1000") + tile((6, 8), "cabin", "1000")
                + tile((6, 7), "structural", "0110"), extra='name = "cabins"\n')


@pytest.mark.parametrize("rule,humans_after,credits", [
    # joined: the pilot cabin and (7,8) are joined, each loses 1; (6,8) joins no occupied cabin:
    # 4 humans. The abandoned ship (3 crew for 4 credits) then leaves a human: taken.
    ("joined", 4, 4),
    # adjacent: (6,8) is next to (7,8) too: all three lose 1, 3 humans left; giving 3 crew would
    # leave none: declined.
    ("adjacent", 3, 0),
])
def test_epidemic_adjacent_or_joined(engine, tmp_path, rule, humans_after, credits):
    from shipcheck.round.rulebook import round_rules
    from shipcheck.round.state import ShipModel

    f = tmp_path / "epidemic.toml"
    f.write_text(f'format = 1\n[cards]\nepidemic = "{rule}"\n')
    m = ShipModel(cabins())
    assert m.humans(m.epidemic(m.initial(), round_rules(2, str(f)).epidemic)) == humans_after
    out = fly(["II-05", "I-17"], [cabins()], rules=str(f), round="2")
    assert out.card_credits[0, 0] == credits


def test_the_output_says_which_epidemic_rule_flew(tmp_path):
    r = shipcheck.simulate_round(cabins(), round=2, opponents=[], deck=["II-05"], runs=10, seed=1)
    assert any(n.startswith('epidemic = "adjacent"') and "OQ14" in n for n in r.notes)
    assert r.to_dict()["rules"]["epidemic"] == "adjacent"
    f = tmp_path / "joined.toml"
    f.write_text('format = 1\n[cards]\nepidemic = "joined"\n')
    r = shipcheck.simulate_round(cabins(), round=2, opponents=[], deck=["II-05"], runs=10, seed=1, rules=f)
    assert any(n.startswith('epidemic = "joined"') and str(f) in n for n in r.notes)
    # a deck without an epidemic says nothing about it
    r = shipcheck.simulate_round(cabins(), round=2, opponents=[], deck=["I-05"], runs=10, seed=1)
    assert not any("epidemic" in n for n in r.notes)


def test_a_bad_epidemic_rule_is_an_input_error(tmp_path):
    from shipcheck.errors import InputError
    from shipcheck.round.rulebook import round_rules

    f = tmp_path / "bad.toml"
    f.write_text('format = 1\n[cards]\nepidemic = "touching"\n')
    with pytest.raises(InputError, match="epidemic"):
        round_rules(2, str(f))


# -- 4. the pilot cabin a board does not use ---------------------------------------------------------
def twins() -> object:
    """Class IIA, a cabin and an engine in each half."""
    tiles = (tile((4, 7), "cabin", U) + tile((4, 8), "engine", ENG)
             + tile((9, 7), "cabin", U) + tile((9, 8), "engine", ENG))
    return ship(tiles, "IIA", extra='name = "twins"\n')


def seamer(pilot: bool) -> object:
    """Class IC: a cabin and an engine, and the pilot cabin above the cabin or never placed."""
    tiles = tile({"col": 1, "row": 2}, "cabin", U) + tile({"col": 1, "row": 3}, "engine", ENG)
    if pilot:
        tiles += tile({"col": 1, "row": 1}, "start_cabin", U)
    return ship(tiles, "IC", extra='name = "seamer"\n')


def test_the_big_expansion_decides_class_iias_pilot_cabin():
    # "Como pode perceber, nenhuma das Metades tem um espaço para você colocar o seu Componente
    # Inicial. Coloque-o de lado, você não irá usá-lo nesta Viagem." (The Big Expansion, NAVES DE
    # CLASSE IIA): put aside and not used in the flight: no lost component, and check says so.
    notes = check(twins()).notes
    assert any("not used on this board" in n and "no lost" in n for n in notes)
    assert not any("counts as a lost component" in n for n in notes)
    assert not twins().pilot_lost


def test_latest_models_charge_a_pilot_cabin_never_placed(engine):
    # "Se você não a adicionar à sua nave, ela permanece na sua pilha de descarte e conta como um
    # componente perdido durante o voo." (Latest Models): check says so, and the round charges it.
    assert any("counts as a lost component" in n for n in check(seamer(False)).notes)
    assert seamer(False).pilot_lost and not seamer(True).pilot_lost
    # alone through one Open Space: first (4) and best-looking (2); the unplaced cabin costs 1
    # (IC has no cap), a placed one nothing
    out = fly(["I-05"], [seamer(False)], purse=(10,))
    placed = fly(["I-05"], [seamer(True)], purse=(10,))
    assert out.lost[0, 0] == 0 and out.gave_up[0, 0] == 0
    assert placed.credits[0, 0] - out.credits[0, 0] == 1
    assert out.sources[0, 0].tolist()[-1] == -1 and placed.sources[0, 0].tolist()[-1] == 0


def test_class_iia_pays_nothing_for_its_pilot_cabin(engine):
    # alone through one Open Space, both halves moving: first (4), best-looking (2), nothing lost
    out = fly(["I-05"], [twins()], round="2", purse=(10,))
    assert out.gave_up[0, 0] == 0 and out.sources[0, 0].tolist()[-1] == 0
