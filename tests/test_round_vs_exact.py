"""The meteor part of a round agrees with the exact engine card by card: a deck of one meteor
swarm gives survival and expected losses within 4 standard errors of ``odds`` for that card."""

from __future__ import annotations

import math

import pytest

import shipcheck
from shipcheck.cards import find_card
from shipcheck.shipfile import load_ship


@pytest.mark.parametrize("path,card,opponents", [
    ("examples/class-I-scout.toml", "I-09", []),
    ("examples/class-II-freighter.toml", "II-10", ["examples/blue-round1.toml"]),
    ("examples/class-III-hauler.toml", "III-10", ["examples/class-I-scout.toml", "examples/class-II-freighter.toml"]),
])
def test_one_meteor_swarm_matches_odds(path, card, opponents):
    ship = load_ship(path)
    c = find_card(card)
    assert c.type == "meteor_swarm"
    exact = shipcheck.odds(ship, c.attacks())
    r = shipcheck.simulate_round(ship, opponents=opponents, deck=[card], runs=20_000, seed=17)
    p = float(exact.p_survive)
    se = math.sqrt(max(p * (1 - p), 1e-12) / r.runs)
    assert abs(r.p_survive - p) <= 4 * se + 1e-12
    assert abs(r.expected_lost - float(exact.expected_lost)) <= 4 * r.expected_lost_se + 1e-12
