"""Each card type on small hand-checked situations (fixed decks, fixed or no dice).

Ships are those of ``tests/roundkit.py``; round 1 rules: arrival 4-3-2-1, best-looking +2, start
spacing 2 (the leader on 0, the next ship on -2), track 24. Credits are derived by hand in each
test: place reward + best-looking + goods - lost components.
"""

from __future__ import annotations

import numpy as np
import pytest

from shipcheck.round.chunks import CAUSES
from shipcheck.round.policy import DefaultPolicy
from tests.roundkit import A, B, C, D, E, fly, gunship, pair


def credits(chunk) -> list[int]:  # type: ignore[no-untyped-def]
    """Per player the credits, checked equal in every run."""
    c = chunk.credits
    assert (c == c[:, :1]).all(), "a deck without dice gives every run the same credits"
    return c[:, 0].tolist()


def test_open_space_moves_count_empty_spaces_only():
    # A (power 1) leads on 0 and moves to 1; B (power 3) from -2: -1, 0 (now empty), 1 is taken, 2
    out = fly(["I-05"], [A(), B()])
    assert out.days[:, 0].tolist() == [1, 4]  # A on 1; B on 2, four spaces ahead of its start (-2)
    assert out.place[:, 0].tolist() == [2, 1]
    # B first (4) and A second (3); both without exposed connectors share the best-looking bonus (2)
    assert credits(out) == [3 + 2, 4 + 2]


def test_open_space_without_engine_power_gives_up():
    from tests.shipbuild import ship, tile
    drifter = ship(tile((7, 7), "start_cabin", "0000"), extra='name = "drifter"\n')
    out = fly(["I-05"], [drifter, C()])
    assert out.gave_up[:, 0].tolist() == [CAUSES.index("no_engine_power"), 0]
    # the drifter gave up: no reward, no bonus, nothing to sell, nothing lost
    assert credits(out) == [0, 4 + 2]


def test_planets_land_on_the_best_planet_and_lose_days_rearmost_first():
    # I-13 (2 days): [red, red], [red, blue, blue], [yellow]. C (3 ordinary slots) leads: red needs a
    # special slot, so the planets are worth 0, 2 and 3: it lands on the yellow one. A has no hold
    # and passes. C moves back 2 empty spaces from 0: -1, then -2 is A's, then -3.
    out = fly(["I-13"], [C(), A()])
    assert out.days[:, 0].tolist() == [-3, 0]
    assert credits(out) == [3 + 2 + 3, 4 + 2]


def test_abandoned_ship_first_player_who_can_pay_and_keep_a_human():
    # I-18: crew 2, 3 credits, 1 day. D (4 crew) leads and accepts: its cabin (first in row-major
    # order) empties, +3 credits, back 1 to -1 (still ahead of A on -2).
    out = fly(["I-18"], [D(), A()])
    assert credits(out) == [3 + 4 + 2, 3 + 2]
    # A leading would be left without a human: it declines, and D (second) accepts, -2 -> -3
    out = fly(["I-18"], [A(), D()])
    assert credits(out) == [4 + 2, 3 + 3 + 2]


def test_abandoned_station_needs_the_crew_and_goods_that_fit():
    # I-19: crew 5, goods yellow + green, 1 day. C has crew 2: it cannot dock.
    out = fly(["I-19"], [C(), A()])
    assert credits(out) == [4 + 2, 3 + 2]


def test_stardust_one_day_per_exposed_connector_last_player_first():
    # E (2 exposed) leads on 0: back 2 empty spaces: -1, -2 is A's, -3. A (0 exposed) does not move.
    out = fly(["I-04"], [E(), A()])
    assert out.days[:, 0].tolist() == [-3, 0]
    # A first (4) and best-looking alone (0 exposed); E second (3)
    assert credits(out) == [3, 4 + 2]


def test_smugglers_take_the_most_valuable_goods():
    # I-02: strength 4, penalty 2 goods. C (firepower 0) loses yellow and green and keeps blue (1);
    # A has no goods and no charges: nothing to take.
    out = fly(["I-02"], [C(["yellow", "green", "blue"]), A()])
    assert credits(out) == [4 + 2 + 1, 3 + 2]


def test_smugglers_beaten_with_the_fewest_charges_reward_taken_with_its_days():
    # the gunship reaches 1, 3, 5 for 0, 1, 2 charges: 2 charges beat 4. It takes the reward (no
    # hold: nothing loads) and its day: 0 -> -1. The enemy is gone: A is not attacked.
    out = fly(["I-02"], [gunship(), A()])
    assert out.days[:, 0].tolist() == [-1, 0]
    assert credits(out) == [4 + 2, 3 + 2]


def test_slavers_take_crew_humans_first_and_a_ship_without_humans_gives_up():
    # I-01: strength 6, 3 crew. D loses its cabin's 2 humans then 1 in the pilot cabin; A loses
    # both humans and gives up after the card: no reward, no bonus, nothing lost.
    out = fly(["I-01"], [D(), A()])
    assert out.gave_up[:, 0].tolist() == [0, CAUSES.index("no_humans")]
    assert out.survived[:, 0].tolist() == [True, False]
    assert credits(out) == [4 + 2, 0]


def test_epidemic_joined_occupied_cabins_lose_one_each():
    # II-?? epidemic, then I-01 slavers: D alone. The epidemic leaves D 1 + 1 humans; the slavers
    # then take 3: none left, D gives up. Without the epidemic D keeps one human and finishes.
    from shipcheck.cards import load_cards
    epidemic = next(c.id for c in load_cards("2007") if c.type == "epidemic")
    alone = fly([epidemic, "I-01"], [D()])
    assert alone.gave_up[0, 0] == CAUSES.index("no_humans")
    assert credits(alone) == [0]
    alone = fly(["I-01"], [D()])
    assert credits(alone) == [4 + 2]


def test_combat_zone_lines_ties_hit_the_ship_ahead_shots_rolled_by_the_ship_hit():
    # I-16: crew -> 3 days; engine power -> 2 crew; firepower -> light and heavy shots from the rear.
    # Line 1: A (crew 2) < D (crew 4): A 0 -> -4 (past D on -2). Line 2: both power 1, D is ahead:
    # D loses its cabin's 2 crew. Line 3: both firepower 0, D is ahead: the shots hit D.
    out = fly(["I-16"], [A(), D()])  # both shots roll a 2: no column 2 on class I, a miss
    assert out.days[:, 0].tolist() == [-4, 0]
    assert credits(out) == [3 + 2, 4 + 2]
    # the light shot rolls 7: column 7 from the rear first meets D's engine (7,8), destroyed (1
    # credit; D's pilot cabin now shows its rear connector, so A alone is best-looking)
    out = fly(["I-16"], [A(), D()], rolls=[[pair(1, 6), pair(1, 1)]])
    assert out.lost[:, 0].tolist() == [0, 1]
    assert credits(out) == [3 + 2, 4 - 1]


def test_sabotage_hits_the_fewest_crew_three_tries():
    sabotage = "III-04"
    from shipcheck.cards import find_card
    assert find_card(sabotage).type == "sabotage"
    # A (crew 2) is sabotaged: tries (2,2) and (3,3) name no square; (7,7) is its pilot cabin. The
    # engine is the whole ship left (one piece: nothing falls off) and no human is aboard: A gives
    # up and owes 1 credit for its lost component, but its purse is empty: it pays nothing (FAQ).
    rolls = [[pair(1, 1), pair(1, 1), pair(1, 2), pair(1, 2), pair(3, 4), pair(3, 4)]]
    out = fly([sabotage], [A(), D()], rolls=rolls)
    assert out.lost[:, 0].tolist() == [1, 0]
    assert out.gave_up[0, 0] == CAUSES.index("no_humans")
    assert credits(out) == [0, 4 + 2]
    # three misses: nothing happens
    out = fly([sabotage], [A(), D()])
    assert credits(out) == [4 + 2, 3 + 2]


def test_lone_player_ignores_combat_zone_and_sabotage():
    out = fly(["I-16", "III-04"], [A()], rolls=[[pair(1, 6)] * 2, [pair(3, 4)] * 6])
    assert credits(out) == [4 + 2]


def test_pirates_defeated_players_share_each_shot():
    # I-03: strength 5, shots light, heavy, light from the front. A and D both lose (firepower 0);
    # the heavy shot rolls 7: column 7 from the front first meets the pilot cabin of each. A keeps
    # its engine (the one piece left), without a human: it gives up, owing 1 from an empty purse
    # (pays 0). D splits into its cabin (2 humans, kept) and its engine (falls off): 2 lost, D
    # finishes alone.
    out = fly(["I-03"], [A(), D()], rolls=[[pair(1, 1), pair(2, 5), pair(1, 1)]])
    assert out.lost[:, 0].tolist() == [1, 2]
    assert out.gave_up[:, 0].tolist() == [CAUSES.index("no_humans"), 0]
    assert credits(out) == [0, 4 + 2 - 2]


def test_meteors_hit_every_ship_with_one_roll():
    # I-11: large, small, large from the front. Roll 7 for the first large meteor destroys the pilot
    # cabins of A and D (first in column 7). A keeps its engine, without humans, and gives up; D
    # keeps its cabin (the piece with most humans) and loses its engine too. The others roll 2: miss.
    out = fly(["I-11"], [A(), D()], rolls=[[pair(3, 4), pair(1, 1), pair(1, 1)]])
    assert out.lost[:, 0].tolist() == [1, 2]
    assert out.gave_up[:, 0].tolist() == [CAUSES.index("no_humans"), 0]
    # D finishes alone: place 1 (4), best-looking alone although its cabin's connector is exposed (2);
    # A owes 1 from an empty purse and pays nothing
    assert credits(out) == [0, 4 + 2 - 2]


@pytest.mark.parametrize("policy", ["default", "racing"])
def test_no_dice_deck_same_credits_every_run(policy):
    out = fly(["I-05", "I-13", "I-04", "I-18", "I-02"], [C(), A(), D(), B()], runs=4, policy=policy)
    credits(out)
    assert np.array_equal(out.credits[:, 0], out.credits[:, 3])


def test_enemy_tie_nothing_happens_and_the_enemy_moves_on():
    # I-03 pirates, strength 5: the gunship reaches exactly 5 with both charges (a tie: no penalty);
    # A behind it loses, and the heavy shot (roll 7) destroys its pilot cabin (A owes 1 from an
    # empty purse: it pays nothing).
    out = fly(["I-03"], [gunship(), A()], rolls=[[pair(1, 1), pair(3, 4), pair(1, 1)]])
    assert out.lost[:, 0].tolist() == [0, 1]
    assert credits(out) == [4 + 2, 0]


def test_lapped_ship_gives_up(tmp_path):
    # a 4-space track: B (power 3) from 0 moves through 1, skips 2 (A's marker on -2), 3, 4; A from -2
    # moves to -1; the leader is 5 > 4 spaces ahead: A is lapped.
    f = tmp_path / "short.toml"
    f.write_text("format = 1\n[round.1]\ntrack = 4\n")
    out = fly(["I-05"], [B(), A()], rules=str(f))
    assert out.days[:, 0].tolist() == [4, 1]
    assert out.gave_up[:, 0].tolist() == [0, CAUSES.index("lapped")]
    assert credits(out) == [4 + 2, 0]


class Jumper(DefaultPolicy):
    name = "jumper"

    def hyperspace(self, view, card):  # type: ignore[no-untyped-def]
        return True


def test_hyperspace_sits_out_two_cards_and_on_the_last_card_means_giving_up():
    from tests.roundkit import hopper
    # H jumps at the first Open Space (its booster's engine destroyed, 1 charge) and sits out both
    # cards; its marker stays on 0, so A moves -2 -> -1, then skips 0 to 1. H arrives second; its
    # booster now shows an exposed connector: A alone is best-looking.
    out = fly(["I-05", "I-05"], [hopper(), A()], policy=Jumper())
    assert out.days[:, 0].tolist() == [0, 3]
    assert out.lost[:, 0].tolist() == [1, 0]
    assert credits(out) == [3 - 1, 4 + 2]
    # jumping on the last card is not arriving: H gives up, owing its engine (an empty purse pays 0)
    out = fly(["I-05"], [hopper(), A()], policy=Jumper())
    assert out.gave_up[0, 0] == CAUSES.index("hyperspace_last_card")
    assert credits(out) == [0, 4 + 2]


class Quitter(DefaultPolicy):
    name = "quitter"

    def give_up(self, view):  # type: ignore[no-untyped-def]
        return view.model.goods_list(view.state) != []


def test_voluntary_giving_up_before_a_card_sells_goods_at_half():
    # C with yellow+green+blue (6) gives up before the first card: half of 6 = 3; A flies on alone.
    out = fly(["I-05"], [C(["yellow", "green", "blue"]), A()], policy=Quitter())
    assert out.gave_up[:, 0].tolist() == [CAUSES.index("voluntary"), 0]
    assert credits(out) == [3, 4 + 2]
    # an odd total rounds up: yellow + green = 5 -> 3
    out = fly(["I-05"], [C(["yellow", "green"]), A()], policy=Quitter())
    assert credits(out) == [3, 4 + 2]
