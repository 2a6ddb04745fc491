"""The round's figures: their numbers from the round engine's results, by hand where dice play no part."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import shipcheck
from shipcheck.report import plots
from shipcheck.report.data import distribution, round_data, round_table, swarm_weights

ROOT = Path(__file__).resolve().parents[1]
BLUE = ROOT / "examples" / "blue-round1.toml"


def test_distribution_of_a_small_sample() -> None:
    d = distribution(np.array([5, 1, 2, 1]))
    assert d.values == (1, 2, 5) and d.shares == (0.5, 0.25, 0.25)
    assert d.mean == 2.25
    half = 1.959963984540054 * np.sqrt(10.75 / 3) / 2  # sample sd of 1, 1, 2, 5 over sqrt(4)
    assert d.ci == pytest.approx((2.25 - half, 2.25 + half))
    assert d.percentiles == ((5, 1), (50, 1), (95, 5))  # the smallest value whose share reaches the percent
    assert d.share(2) == 0.25 and d.share(3) == 0.0


def test_a_round_without_dice_earns_the_same_every_time() -> None:
    # alone, one Open Space card: the ship arrives first (4 credits in a level-I round) and is the
    # best-looking ship (2 credits, the only one to finish); nothing is lost
    r = shipcheck.simulate_round(BLUE, round=1, opponents=[], deck=["I-05"], runs=40, seed=1)
    v = round_data(r)
    assert v.credits.values == (6,) and v.credits.shares == (1.0,) and v.credits.ci == (6.0, 6.0)
    assert v.credits.percentiles == ((5, 6), (50, 6), (95, 6))
    assert v.lost.values == (0,) and v.p_finish == 1.0 and v.p_survive == 1.0 and v.gave_up == ()
    (row,) = v.by_type
    assert (row.type, row.drawn, row.lost, row.credits, row.gave_up) == ("open_space", 1.0, 0.0, 0.0, 0.0)
    (me,) = v.players
    assert me.ship and me.name == "Blue, round 1" and me.credits == 6.0
    assert v.deck == ["I-05"] and v.runs == 40 and v.seed == 1
    rows = dict(round_table(v).rows)
    assert rows["credits"].startswith("6.00 (95% interval 6.00 to 6.00)")
    assert rows["gives up"] == "never"


def test_the_field_and_the_ship_come_from_the_players() -> None:
    scout = ROOT / "examples" / "class-I-scout.toml"
    r = shipcheck.simulate_round(BLUE, round=1, opponents=[scout], runs=300, seed=2)
    v = round_data(r)
    assert [p.name for p in v.players] == [p.name for p in r.players]
    assert [p.ship for p in v.players] == [True, False]
    for row, p in zip(v.players, r.players, strict=True):
        assert row.credits == pytest.approx(float(np.mean(p.credits)))
        assert row.p_finish == float(np.mean(p.gave_up == 0))
    assert v.credits.mean == pytest.approx(float(np.mean(r.players[0].credits)))
    assert sum(v.credits.shares) == pytest.approx(1.0)
    # every figure draws from these numbers
    for make in (plots.credits_figure, plots.losses_figure, plots.card_types_figure, plots.field_figure):
        assert make(v).axes


def test_swarm_weights_follow_the_rounds_deck() -> None:
    from fractions import Fraction as F

    from shipcheck.round import build_deck, fixed_deck, round_rules

    r1 = swarm_weights(build_deck(round_rules(1), "2007"))
    assert [(c.id, w) for c, w in r1] == [("I-09", F(8, 20)), ("I-10", F(8, 20)), ("I-11", F(8, 20))]
    r3 = swarm_weights(build_deck(round_rules(3), "2007"))
    assert [(c.level, w) for c, w in r3] == [(1, F(4, 20))] * 3 + [(2, F(4, 20))] * 3 + [(3, F(8, 20))] * 3
    fixed = swarm_weights(fixed_deck(["I-09", "I-05", "I-09", "II-10"], "2007"))
    assert [(c.id, w) for c, w in fixed] == [("I-09", 2), ("II-10", 1)]
