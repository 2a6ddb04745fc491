"""The default field (``tiles/field/<class>/``): legal catalogue ships from one pile per class, within the
bounds docs/rounds.md states, each with its style, and ships that finish their class's round."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

import shipcheck
from shipcheck.cards import load_cards
from shipcheck.check.rules import check
from shipcheck.flight.stats import stats
from shipcheck.round.field import FIELD_CLASSES, field_ships
from shipcheck.shipfile import catalogue

# the bounds docs/rounds.md gives for every ship of the class's field
MAX_EXPOSED = {"I": 2, "II": 3, "III": 6, "IIIa": 6}
MIN_ENGINE = {"I": 3, "II": 4, "III": 6, "IIIa": 6}  # without charges: what the default policy flies on
MIN_FIREPOWER = {"I": 2, "II": 3, "III": 4, "IIIa": 4}  # without charges
LEVEL = {"I": 1, "II": 2, "III": 3, "IIIa": 3}
ROUND = {"I": 1, "II": 2, "III": 3, "IIIa": "3a"}
EXAMPLE = {"I": "examples/class-I-scout.toml", "II": "examples/class-II-freighter.toml",
           "III": "examples/class-III-hauler.toml", "IIIa": "examples/class-IIIa-longboat.toml"}


def _stats(cls: str) -> list[dict]:
    return [stats(s).to_dict() for s in field_ships(cls)]


@pytest.mark.parametrize("cls", FIELD_CLASSES)
def test_field_ships_are_legal_catalogue_ships_with_the_pilot_cabin_implied(cls):
    ships = field_ships(cls)
    assert [s.name for s in ships] == [f"Trader {cls}", f"Racer {cls}", f"Fighter {cls}"]
    cat = catalogue("2007")
    for s in ships:
        report = check(s)
        assert s.board.name == cls and report.legal and not report.violations  # no warning either
        assert s.pilot is not None and s.pilot.implied
        for t in s.tiles:
            if not t.implied:
                entry = cat[t.id]
                assert (t.kind, t.sides, t.attrs) == (entry.kind, entry.sides, entry.attrs)


@pytest.mark.parametrize("cls", FIELD_CLASSES)
def test_no_physical_tile_is_in_two_ships_of_a_class(cls):
    used = Counter(t.id for s in field_ships(cls) for t in s.tiles if not t.implied)
    assert used and max(used.values()) == 1


@pytest.mark.parametrize("cls", FIELD_CLASSES)
def test_field_statistics_within_the_documented_bounds(cls):
    for d in _stats(cls):
        assert d["exposed_connectors"] <= MAX_EXPOSED[cls], d["name"]
        assert d["engine_power"]["min"] >= MIN_ENGINE[cls], d["name"]
        assert d["firepower"]["min"] >= MIN_FIREPOWER[cls], d["name"]
        assert all(d["shields"][side]["shields"] for side in ("front", "right", "rear", "left")), d["name"]


@pytest.mark.parametrize("cls", FIELD_CLASSES)
def test_crew_pays_the_dearest_abandoned_ship_and_survives_slavers(cls):
    """Humans for the class's dearest abandoned ship (the default policy takes one while a human
    stays aboard) and then its slavers' penalty, unless the ship's firepower at least ties them."""
    cards = [c for c in load_cards("2007") if c.level == LEVEL[cls]]
    cost = max(c.crew_cost for c in cards if c.type == "abandoned_ship")
    strength, penalty = max((c.strength, c.crew_penalty) for c in cards if c.type == "slavers")
    for d in _stats(cls):
        ties = d["firepower"]["max"] >= strength
        assert d["crew"]["humans"] >= cost + (0 if ties else penalty) + 1, d["name"]


@pytest.mark.parametrize("cls", FIELD_CLASSES)
def test_cannons_bear_on_front_large_meteors(cls):
    for s in field_ships(cls):
        assert stats(s).attack("large-meteor", "front").p_stoppable >= Fraction(12, 36), s.name


@pytest.mark.parametrize("cls", FIELD_CLASSES)
def test_each_ship_has_its_style(cls):
    trader, racer, fighter = _stats(cls)
    cargo = [d["cargo"]["normal"] + d["cargo"]["special"] for d in (trader, racer, fighter)]
    assert cargo[0] == max(cargo)
    assert racer["engine_power"]["min"] == max(d["engine_power"]["min"] for d in (trader, racer, fighter))
    assert racer["batteries"]["capacity"] >= trader["batteries"]["capacity"]
    assert fighter["firepower"]["max"] == max(d["firepower"]["max"] for d in (trader, racer, fighter))


@pytest.mark.parametrize("cls", FIELD_CLASSES)
def test_field_finishes_its_round_and_earns_like_the_example_ship(cls):
    """The example ship of the class in seat 1, the field behind it (as `simulate --round` flies
    it), then each field ship in seat 1 against the other two and the example: every field ship
    finishes at least 75 % of the rounds (docs/rounds.md: 82-100 % over 2000 rounds), and earns
    between half and three times what the example ship earns, the styles within a factor 2.5."""
    example = shipcheck.load_ship(EXAMPLE[cls])
    field = list(field_ships(cls))
    r = shipcheck.simulate_round(example, round=ROUND[cls], runs=1000, seed=5)
    base = r.players[0].credits_mean
    credits = []
    for p in r.players[1:]:
        assert p.p_finish >= 0.75, p
        assert 0.5 * base <= p.credits_mean <= 3 * base, (p, base)
        credits.append(p.credits_mean)
    assert max(credits) <= 2.5 * min(credits)
    for ship in field:
        others = [s for s in field if s is not ship] + [example]
        me = shipcheck.simulate_round(ship, round=ROUND[cls], opponents=others, runs=1000, seed=5).players[0]
        assert me.p_finish >= 0.75, me
