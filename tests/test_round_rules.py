"""Five-player rules, class IIA halves, luxury cabins and cyan specialisations in a round: small
hand-derived situations (see ``tests/roundkit.py`` for the ships)."""

from __future__ import annotations

import dataclasses

from shipcheck.check.rules import check
from shipcheck.shipfile import load_ship
from tests.roundkit import ENGINE, C, fly
from tests.shipbuild import ship, tile


def credits(out) -> list[int]:  # type: ignore[no-untyped-def]
    assert (out.credits == out.credits[:, :1]).all()
    return out.credits[:, 0].tolist()


def test_five_players_share_a_planet_and_arrival_rewards_shift():
    # I-13 (2 days): [red, red], [red, blue, blue], [yellow]; five C ships (3 ordinary slots) on 0, -2,
    # -4, -6, -8. 1st: yellow (3). 2nd: [red, blue, blue] (2; red does not fit). 3rd: nothing free
    # is worth anything, so it shares the second planet with one good fewer (the least valuable
    # blue): red does not fit, a blue (1). 4th and 5th: the share is used, nothing free: they pass.
    # Landers lose 2 days rearmost first: 3rd -4 -> -5, -6 taken, -7; 2nd -2 -> -4; 1st 0 -> -2.
    # Places: 1st, 2nd, 4th, 3rd, 5th; five-player arrival 4, 4, 3, 2, 1; all best-looking (0 exposed).
    out = fly(["I-13"], [C() for _ in range(5)])
    assert out.days[:, 0].tolist() == [-2, -2, -3, 0, 0]
    assert credits(out) == [4 + 2 + 3, 4 + 2 + 2, 2 + 2 + 1, 3 + 2, 1 + 2]


def _twins(goods: bool, engines_a: bool) -> object:
    s = load_ship("examples/class-IIA-twins.toml")
    b = s.board

    def at(col: int, row: int) -> int:
        return b.rows.index((row,)) * b.width + b.columns.index((col,))

    gone = set() if engines_a else {at(4, 9), at(5, 9)}
    tiles = tuple(dataclasses.replace(t, goods=("yellow", "yellow")) if goods and t.at == at(3, 8) else t
                  for t in s.tiles if t.at not in gone)
    out = dataclasses.replace(s, tiles=tiles)
    assert check(out).legal
    return out


def test_iia_half_without_engine_power_leaves_in_open_space_with_half_its_goods():
    # Twins flies round 2 alone through II-06 (open space). With its engines, both halves move 2 and
    # finish: place 1 (8), best-looking (4), two yellow goods in half A (6): 18. Without half A's
    # engines, half A leaves at the card: half of its goods' 6 credits at once (3); its tiles go back
    # to the table (not lost); half B moves by its own power and finishes: 3 + 8 + 4 = 15.
    whole = fly(["II-06"], [_twins(True, True)], round="2")
    assert credits(whole) == [8 + 4 + 6]
    half = fly(["II-06"], [_twins(True, False)], round="2")
    assert half.lost[0, 0] == 0 and half.days[0, 0] == 2 and half.gave_up[0, 0] == 0
    assert credits(half) == [3 + 8 + 4]


def _luxury(meta: str = "", cyan: bool = False) -> object:
    body = tile((7, 7), "start_cabin", "0111") + ENGINE + tile((8, 7), "cargo", "0001", slots=3, goods=["yellow"])
    if cyan:
        body += tile((6, 7), "cabin", "0110", crew="cyan") + tile((6, 8), "life_support", "1000", color="cyan")
    else:
        body += tile((6, 7), "luxury_cabin", "0100")
    return ship(body, extra=meta)


def test_luxury_cabin_pays_after_a_completed_flight():
    # alone through I-05: place 1 (4), best-looking (2), a yellow (3), one luxury passenger (+1)
    assert credits(fly(["I-05"], [_luxury()])) == [4 + 2 + 3 + 1]


def test_cyan_merchant_and_manager():
    # a cyan alien with no specialisation does nothing: 4 + 2 + 3
    assert credits(fly(["I-05"], [_luxury(cyan=True)])) == [4 + 2 + 3]
    # the Merchant adds 1 per red and yellow good; the Manager 1 when it is the only alien aboard
    assert credits(fly(["I-05"], [_luxury('[meta]\ncyan = "merchant"\n', cyan=True)])) == [4 + 2 + 3 + 1]
    assert credits(fly(["I-05"], [_luxury('[meta]\ncyan = "manager"\n', cyan=True)])) == [4 + 2 + 3 + 1]


def test_cannon_booster_used_to_tie_and_the_boosted_cannon_is_lost():
    # one forward cannon (firepower 1) joined to a cannon booster, a battery for its charge. Against
    # I-02 smugglers (strength 4) nothing beats; the booster (+3 for one charge) ties: no penalty,
    # and the boosted cannon is destroyed (1 lost). Its loss leaves the pilot cabin's front and the
    # booster's right connectors exposed: A, behind, alone is best-looking.
    k = ship(tile((7, 7), "start_cabin", "3333") + tile((7, 6), "cannon", "0011")
             + tile((6, 6), "cannon_booster", "0110") + tile((6, 7), "battery", "1100", cells=2) + ENGINE)
    assert check(k).legal
    from tests.roundkit import A
    out = fly(["I-02"], [k, A()])
    assert out.lost[:, 0].tolist() == [1, 0]
    assert credits(out) == [4 - 1, 3 + 2]


def test_reactor_furnace_burns_a_good_left_over_to_recharge_a_battery():
    # a double engine and an empty battery: on I-12 the ship lands on [red, yellow, blue] (its one
    # slot takes the yellow); with a furnace joined to the battery, the blue left over recharges it
    # and the ship can fly the Open Space that follows; without one it has no engine power and gives up.
    def fuelled(furnace: bool) -> object:
        return ship(tile((7, 7), "start_cabin", "0111") + tile((7, 8), "double_engine", "1000")
                    + tile((8, 7), "cargo", "0001", slots=1) + tile((6, 7), "battery", "0110", cells=2, charge=0)
                    + tile((6, 8), "reactor_furnace" if furnace else "structural", "1000"))
    from shipcheck.round.chunks import CAUSES
    assert fly(["I-12", "I-05"], [fuelled(True)]).gave_up[0, 0] == 0
    assert fly(["I-12", "I-05"], [fuelled(False)]).gave_up[0, 0] == CAUSES.index("no_engine_power")
