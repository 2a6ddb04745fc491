"""Every meteor-swarm card of levels I-III on every example ship: Monte Carlo agrees with the
exact engine within 4 standard errors (p_survive, expected losses, each square's loss)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from shipcheck.cards import load_cards
from shipcheck.flight.chain import FlightModel
from shipcheck.flight.montecarlo import simulate
from shipcheck.flight.odds import odds
from shipcheck.shipfile import load_ship

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.toml"))
SWARMS = [c for c in load_cards("2007") if c.type == "meteor_swarm"]


@pytest.mark.slow
@pytest.mark.parametrize("card", SWARMS, ids=lambda c: c.id)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_simulate_converges_to_odds(path: Path, card: object) -> None:
    ship = load_ship(path)
    atk = card.attacks()  # type: ignore[attr-defined]
    m = FlightModel(ship)
    ex = odds(ship, atk, model=m)
    mc = simulate(ship, atk, runs=60_000, seed=2026, model=m)
    n = mc.runs
    p = float(ex.p_survive)
    se_p = math.sqrt(max(p * (1 - p), 1 / n) / n)
    assert abs(mc.p_survive - p) <= 4 * se_p + 1e-12
    var = sum(float(q) * (k - float(ex.expected_lost)) ** 2 for k, q in ex.lost_distribution.items())
    se_l = math.sqrt(max(var, 1 / n) / n)
    assert abs(mc.expected_lost - float(ex.expected_lost)) <= 4 * se_l + 1e-12
    # each square (many comparisons at once: 4.5 standard errors)
    for k, (_, q) in enumerate(ex.p_lost()):
        q = float(q)
        se = math.sqrt(max(q * (1 - q), 1 / n) / n)
        assert abs(mc.p_lost[k] - q) <= 4.5 * se + 1e-12, (k, mc.p_lost[k], q)
