"""simulate_round: the default field, results, JSON keys (contract §5), reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

import shipcheck
from shipcheck.errors import InputError
from shipcheck.round import CAUSES, round_rules
from shipcheck.round.field import field_ships
from shipcheck.shipfile import load_ship
from tests.roundkit import A, C, D

SCOUT = "examples/class-I-scout.toml"


def test_without_opponents_the_class_field_flies_and_the_output_says_so():
    r = shipcheck.simulate_round(load_ship(SCOUT), runs=200, seed=3, keep_runs=True)
    assert [p.name for p in r.players[1:]] == [s.name for s in field_ships("I")]
    assert any("default class I field" in n for n in r.notes)


def test_json_keys_of_the_contract():
    r = shipcheck.simulate_round(SCOUT, round=1, opponents=[A(), D()], runs=300, seed=5, keep_runs=True)
    d = r.to_dict()
    for key in ("exact", "runs", "seed", "p_survive", "p_survive_ci", "expected_lost", "expected_lost_ci",
                "lost_distribution", "round", "deck", "p_finish", "credits", "by_card_type", "opponents"):
        assert key in d
    assert d["exact"] is False and d["round"] == 1 and d["deck"] == "drawn"
    assert set(d["credits"]) >= {"mean", "ci", "percentiles", "distribution"}
    assert set(d["credits"]["percentiles"]) >= {"5", "50", "95"}
    assert abs(sum(d["credits"]["distribution"].values()) - 1) < 1e-9
    assert all(isinstance(int(k), int) for k in d["credits"]["distribution"])
    assert len(d["opponents"]) == 2
    for o in d["opponents"]:
        assert {"ship", "p_survive", "p_finish", "credits"} <= set(o) and "mean" in o["credits"]
    assert "meteor_swarm" in d["by_card_type"] and "expected_lost" in d["by_card_type"]["meteor_swarm"]


def test_deck_key_lists_a_fixed_deck():
    r = shipcheck.simulate_round(A(), opponents=[D()], deck=["I-05", "I-13"], runs=10, seed=1, keep_runs=True)
    assert r.to_dict()["deck"] == ["I-05", "I-13"]
    assert len(r.to_dict()["credits"]["distribution"]) == 1  # no dice: one amount


def test_to_frame_one_row_per_run_and_player():
    r = shipcheck.simulate_round(A(), opponents=[D(), C()], runs=50, seed=2, keep_runs=True)
    f = r.to_frame()
    # the ships by name, as by_source names them, in launch order; one set of credit columns
    names = [p.name for p in r.players]
    assert len(f) == 150 and list(f["ship"].cat.categories) == names == list(r.by_source.index)
    assert {"credits", "lost", "days", "gave_up", "finished", "survived", "place"} <= set(f.columns)
    assert "player" not in f.columns and "card_credits" not in f.columns
    assert set(f["gave_up"].cat.categories) == set(CAUSES)
    mine = f[f["ship"] == r.ship_result.name]
    assert np.array_equal(mine["credits"].to_numpy(), r.credits)
    means = f.groupby("ship", observed=True)[list(r.by_source.columns)].mean()
    assert np.allclose(means.to_numpy(), r.by_source.to_numpy())


def test_same_seed_same_numbers_other_batch_other_stream():
    a = shipcheck.simulate_round(A(), opponents=[D()], runs=700, seed=11, batch=300, keep_runs=True)
    b = shipcheck.simulate_round(A(), opponents=[D()], runs=700, seed=11, batch=300, keep_runs=True)
    assert np.array_equal(a.credits, b.credits) and np.array_equal(a.players[1].lost, b.players[1].lost)


@pytest.mark.slow
def test_same_seed_same_numbers_on_workers_and_dask():
    kw = dict(round=1, opponents=[D(), C()], runs=1500, seed=8, batch=400)
    one = shipcheck.simulate_round(A(), **kw, keep_runs=True)
    two = shipcheck.simulate_round(A(), workers=2, **kw, keep_runs=True)
    for p, q in zip(one.players, two.players):
        assert np.array_equal(p.credits, q.credits) and np.array_equal(p.lost, q.lost)
        assert np.array_equal(p.by_type, q.by_type) and np.array_equal(p.tile_lost, q.tile_lost)
    pytest.importorskip("distributed")
    dask = shipcheck.simulate_round(A(), scheduler="local", workers=2, **kw, keep_runs=True)
    assert np.array_equal(one.credits, dask.credits)


def test_racing_policy_is_named_and_differs():
    a = shipcheck.simulate_round(SCOUT, opponents=[A()], runs=400, seed=1, policy="racing", keep_runs=True)
    assert a.ship_result.policy == "racing" and a.players[1].policy == "default"
    b = shipcheck.simulate_round(SCOUT, opponents=[A()], runs=400, seed=1, keep_runs=True)
    assert a.credits_mean != b.credits_mean


def test_bad_arguments():
    with pytest.raises(ValueError, match="round"):
        shipcheck.simulate_round(A(), round=4, runs=1)
    with pytest.raises(InputError, match="opponents"):
        shipcheck.simulate_round(A(), opponents=[A()] * 5, runs=1)
    with pytest.raises(ValueError, match="policy"):
        shipcheck.simulate_round(A(), opponents=[], runs=1, policy="reckless")


def test_provisional_values_are_named_and_a_rules_file_overrides_them(tmp_path):
    r = shipcheck.simulate_round(load_ship("examples/class-III-hauler.toml"), round=3, opponents=[], runs=20, seed=1, keep_runs=True)
    text = " ".join(r.notes)
    for key in ("track", "start_gaps", "arrival", "best_looking", "cap"):
        assert f"provisional {key}" in text
    f = tmp_path / "mine.toml"
    f.write_text("format = 1\n[round.3]\narrival = [10, 8, 6, 4]\n[caps]\nIII = 11\n")
    rr = round_rules("3", f)
    assert rr.arrival == (10, 8, 6, 4) and "arrival" not in rr.provisional and "track" in rr.provisional
    assert rr.cap_for("III", None) == (11, None)


@pytest.mark.parametrize("path,rnd,edition", [
    ("examples/class-I-scout.toml", "learning", "2007"),
    ("examples/class-I-scout.toml", "1", "2021"),
    ("examples/class-II-freighter.toml", "2", "2021"),
    ("examples/class-IIIa-longboat.toml", "3a", "2007"),
    ("examples/class-IIA-twins.toml", "2", "2007"),
])
def test_every_round_and_edition_flies(path, rnd, edition):
    r = shipcheck.simulate_round(path, round=rnd, edition=edition, runs=60, seed=1, keep_runs=True)
    assert r.deck.edition == edition and len(r.players) == 4
    assert abs(sum(r.credits_distribution.values()) - 1) < 1e-9
    from shipcheck.cards import CARD_TYPES
    assert set(r.to_dict()["by_card_type"]) <= set(CARD_TYPES)


def test_summaries_stream_the_same_numbers_without_the_per_run_arrays():
    """Without keep_runs every summary is an exact count: the JSON is the same to the last digit,
    and reading a per-run array says how to keep them."""
    kw = dict(round=1, opponents=[A(), D()], runs=700, seed=13, batch=300)
    streamed = shipcheck.simulate_round(SCOUT, **kw)
    kept = shipcheck.simulate_round(SCOUT, keep_runs=True, **kw)
    assert streamed.to_dict() == kept.to_dict()
    assert streamed.by_source.equals(kept.by_source)
    assert kept.credits_mean == pytest.approx(float(np.mean(kept.credits)))
    with pytest.raises(shipcheck.flight.montecarlo.RunsNotKept, match="keep_runs=True"):
        _ = streamed.credits
    with pytest.raises(shipcheck.flight.montecarlo.RunsNotKept, match="keep_runs=True"):
        streamed.to_frame()
    assert len(kept.to_frame()) == 700 * 3
