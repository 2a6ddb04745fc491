"""Monte Carlo flights: agreement with the exact engine, reproducibility, and the result object."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from shipbuild import PILOT, ship, tile

from shipcheck.cards import find_card
from shipcheck.check.rules import check
from shipcheck.cli._common import progress_bar
from shipcheck.flight import montecarlo
from shipcheck.flight.chain import parse_attack
from shipcheck.flight.montecarlo import SimulationResult, simulate, simulate_naive
from shipcheck.flight.odds import odds
from shipcheck.shipfile import load_ship

ROOT = Path(__file__).resolve().parents[1]
HAVE_DASK = importlib.util.find_spec("distributed") is not None


LONE = ship(PILOT)
SHIELDED = ship(PILOT + tile((8, 7), "shield", "0003") + tile((6, 7), "battery", "0303", cells=2, charge=1))
CANNON = ship(PILOT + tile((7, 6), "cannon", "0030") + tile((6, 7), "structural", "0300")
              + tile((8, 7), "structural", "0003"))
# a leaf structural, a shield and one charge: whether to spend the charge on the leaf depends on
# what is still to come, so the optimal decision differs between two identical attacks
SAVER = ship(PILOT + tile((6, 7), "structural", "1100") + tile((8, 7), "shield", "0003")
             + tile((7, 8), "battery", "3000", cells=2, charge=1))

# a legal class II ship with cannons, a shield and a battery (fallback for examples/)
CLASS_II = ship("".join([
    tile((7, 4), "cannon", "0333"),
    tile((6, 5), "cannon", "0333"), tile((7, 5), "cabin", "3333"), tile((8, 5), "double_cannon", "0333"),
    tile((5, 6), "cannon", "0333"), tile((6, 6), "battery", "3333", cells=2), tile((7, 6), "shield", "3333"),
    tile((8, 6), "structural", "3333"), tile((9, 6), "cannon", "0333"),
    tile((5, 7), "structural", "3333"), tile((6, 7), "structural", "3333"), PILOT,
    tile((8, 7), "structural", "3333"), tile((9, 7), "cabin", "3333"),
    tile((4, 8), "engine", "3303"), tile((5, 8), "cargo", "3333", slots=2), tile((6, 8), "engine", "3303"),
    tile((7, 8), "structural", "3333"), tile((8, 8), "engine", "3303"), tile((9, 8), "cargo", "3333", slots=3),
    tile((10, 8), "engine", "3303"),
]), "II")


def swarm_ship() -> object:
    """A legal class II ship of examples/ with at most 30 tiles, else the inline one."""
    for path in sorted((ROOT / "examples").glob("*.toml")):
        s = load_ship(path)
        if s.board.name == "II" and len(s.tiles) <= 30 and not check(s).violations:
            return s
    return CLASS_II


def assert_agrees(res: SimulationResult, exact: object, k: float = 4.0) -> None:
    """Monte Carlo summaries within ``k`` standard errors of the exact ones (exact where the SE is 0)."""
    p, e = float(exact.p_survive), float(exact.expected_lost)
    if 0 < p < 1:
        se = np.sqrt(p * (1 - p) / res.runs)
        assert abs(res.p_survive - p) <= k * se, (res.p_survive, p, se)
    else:
        assert res.p_survive == p
    dist = exact.lost_distribution
    var = sum(float(q) * (j - e) ** 2 for j, q in dist.items())
    if var > 0:
        assert abs(res.expected_lost - e) <= k * np.sqrt(var / res.runs), (res.expected_lost, e)
    else:
        assert res.expected_lost == e
    assert set(res.lost_distribution) <= set(dist)
    for j, q in dist.items():
        q = float(q)
        assert abs(res.lost_distribution.get(j, 0.0) - q) <= k * np.sqrt(q * (1 - q) / res.runs) + 1e-12
    for (_, q), got in zip(exact.p_lost(), res.p_lost, strict=True):
        q = float(q)
        assert abs(got - q) <= k * np.sqrt(q * (1 - q) / res.runs) + 1e-12


# -- agreement with the exact engine ---------------------------------------------------------------
@pytest.mark.parametrize("s,attacks", [
    (LONE, ["small-meteor:front"]),
    (LONE, ["heavy-shot:left", "large-meteor:rear"]),
    (SHIELDED, ["small-meteor:front"]),
    (SHIELDED, ["small-meteor:front", "small-meteor:front", "small-meteor:right"]),
    (CANNON, ["large-meteor:front"]),
    (CANNON, ["large-meteor:front", "small-meteor:left", "heavy-shot:front"]),
], ids=["lone", "lone-2", "shield", "shield-3", "cannon", "cannon-3"])
def test_agrees_with_odds(s: object, attacks: list[str]) -> None:
    res = simulate(s, attacks, runs=40_000, seed=20260807)
    assert_agrees(res, odds(s, attacks))


def binomial_p_value(k: int, n: int, p: float) -> float:
    """The exact two-sided binomial test's p-value: the chance of ``n`` draws landing on a count no
    likelier than ``k`` (``scipy.stats.binomtest``'s, without scipy)."""
    def log_pmf(i: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p) + (n - i) * math.log1p(-p)

    top = log_pmf(k) + math.log1p(1e-7)  # scipy's relative tolerance for ties
    return min(1.0, math.fsum(math.exp(v) for i in range(n + 1) if (v := log_pmf(i)) <= top))


def test_the_binomial_p_value_by_hand() -> None:
    assert binomial_p_value(0, 10, 0.5) == pytest.approx(2 / 1024)  # 0 or 10 heads in ten tosses
    assert binomial_p_value(5, 10, 0.5) == pytest.approx(1.0)
    assert binomial_p_value(1, 6, 1 / 6) == pytest.approx(1.0)  # the likeliest count
    assert binomial_p_value(3, 3, 1 / 6) == pytest.approx((1 / 6) ** 3)  # nothing else is as rare


def test_binomtest_lone_pilot() -> None:
    res = simulate(LONE, ["small-meteor:front"], runs=30_000, seed=12345)
    # only a 7 on 2d6 (6/36) hits the pilot cabin's connector
    assert binomial_p_value(res.survivals, res.runs, 30 / 36) > 0.001


def test_naive_loop_agrees_with_odds() -> None:
    attacks = ["small-meteor:front", "small-meteor:front", "small-meteor:right"]
    res = simulate_naive(SHIELDED, attacks, runs=20_000, seed=3)
    assert_agrees(res, odds(SHIELDED, attacks))


def test_optimal_policy_depends_on_the_attack_index() -> None:
    attacks = ["small-meteor:front", "small-meteor:front"]
    exact = odds(SAVER, [parse_attack(a) for a in attacks], policy="optimal")
    res = simulate(SAVER, attacks, runs=60_000, seed=5, policy="optimal")
    assert res.policy == "optimal"
    assert_agrees(res, exact)


@pytest.mark.parametrize("card", [
    "I-09",
    pytest.param("II-09", marks=pytest.mark.slow),
    pytest.param("III-10", marks=pytest.mark.slow),
])
def test_meteor_swarms(card: str) -> None:
    s = swarm_ship()
    c = find_card(card)
    res = simulate(s, c, runs=100_000, seed=2007)
    assert res.attacks == c.attacks()
    assert_agrees(res, odds(s, c.attacks()))


# -- reproducibility -------------------------------------------------------------------------------
ATTACKS = ["small-meteor:front", "large-meteor:front", "small-meteor:left", "heavy-shot:front"]


def figures(r: SimulationResult) -> dict[str, object]:
    """The JSON object without what says how the run was asked for."""
    return {k: v for k, v in r.to_dict().items() if k not in ("precision", "notes")}


def same(a: SimulationResult, b: SimulationResult) -> bool:
    """The same counts and summaries, and the same per-run arrays where both kept them."""
    counts = (a.runs == b.runs and a.survivals == b.survivals and np.array_equal(a.lost_counts, b.lost_counts)
              and np.array_equal(a.tile_lost_counts, b.tile_lost_counts) and figures(a) == figures(b))
    if a.per_run is None or b.per_run is None:
        return counts
    return (counts and np.array_equal(a.survived, b.survived) and np.array_equal(a.lost, b.lost)
            and np.array_equal(a.final_masks, b.final_masks))


def test_same_seed_same_arrays_different_seeds_differ() -> None:
    a = simulate(CLASS_II, ATTACKS, runs=5_000, seed=1, keep_runs=True)
    b = simulate(CLASS_II, ATTACKS, runs=5_000, seed=1, keep_runs=True)
    c = simulate(CLASS_II, ATTACKS, runs=5_000, seed=2, keep_runs=True)
    assert same(a, b)
    assert not np.array_equal(a.lost, c.lost)
    # the counts alone are the same counts
    assert same(a, simulate(CLASS_II, ATTACKS, runs=5_000, seed=1))


def test_seed_forms() -> None:
    base = simulate(CLASS_II, ATTACKS, runs=3_000, seed=99, keep_runs=True)
    assert same(base, simulate(CLASS_II, ATTACKS, runs=3_000, rng=99, keep_runs=True))
    assert same(base, simulate(CLASS_II, ATTACKS, runs=3_000, rng=np.random.SeedSequence(99), keep_runs=True))
    # a Generator gives up 128 bits once; the result reports them as the seed, which repeats the run
    g = simulate(CLASS_II, ATTACKS, runs=3_000, rng=np.random.default_rng(4), keep_runs=True)
    g2 = simulate(CLASS_II, ATTACKS, runs=3_000, rng=np.random.default_rng(4), keep_runs=True)
    assert same(g, g2) and g.seed == g2.seed and g.seed >= 2**64
    assert same(g, simulate(CLASS_II, ATTACKS, runs=3_000, seed=g.seed, keep_runs=True))
    # fresh entropy: the reported seed repeats the run
    f = simulate(CLASS_II, ATTACKS, runs=3_000, keep_runs=True)
    assert same(f, simulate(CLASS_II, ATTACKS, runs=3_000, seed=f.seed, keep_runs=True))


def test_the_stream_depends_on_seed_and_batch_not_on_workers() -> None:
    one = simulate(CLASS_II, ATTACKS, runs=10_000, seed=8, batch=1_000, keep_runs=True)
    two = simulate(CLASS_II, ATTACKS, runs=10_000, seed=8, batch=1_000, workers=2, keep_runs=True)
    assert same(one, two)
    assert same(one, simulate(CLASS_II, ATTACKS, runs=10_000, seed=8, batch=1_000, workers=2))
    other_batch = simulate(CLASS_II, ATTACKS, runs=10_000, seed=8, batch=4_000, keep_runs=True)
    assert not np.array_equal(one.lost, other_batch.lost)
    # chunk i is the same whatever the number of runs: a longer run extends a shorter one
    longer = simulate(CLASS_II, ATTACKS, runs=12_500, seed=8, batch=1_000, keep_runs=True)
    assert np.array_equal(longer.lost[:10_000], one.lost)


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_DASK, reason="dask[distributed] not installed")
def test_dask_local_cluster_is_bit_identical() -> None:
    one = simulate(CLASS_II, ATTACKS, runs=20_000, seed=31, batch=4_000, keep_runs=True)
    dask = simulate(CLASS_II, ATTACKS, runs=20_000, seed=31, batch=4_000, scheduler="local", workers=2,
                    keep_runs=True)
    assert same(one, dask)
    assert same(one, simulate(CLASS_II, ATTACKS, runs=20_000, seed=31, batch=4_000, scheduler="local", workers=2))


def test_missing_dask_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r"shipcheck\[dask\]"):
        simulate(LONE, ["small-meteor:front"], runs=10, seed=1, scheduler="local")


def test_adaptive_precision() -> None:
    res = simulate(SHIELDED, ["small-meteor:front", "small-meteor:front"], seed=3, batch=2_000,
                   precision=0.005, max_runs=1_000_000, keep_runs=True)
    lo, hi = res.p_survive_ci
    assert hi - lo <= 0.005
    assert res.runs % 2_000 == 0 and 2_000 < res.runs < 1_000_000
    # stopping after k chunks gives exactly the first k chunks of a fixed-size run
    fixed = simulate(SHIELDED, ["small-meteor:front", "small-meteor:front"], seed=3, batch=2_000, runs=res.runs,
                     keep_runs=True)
    assert same(res, fixed)
    two = simulate(SHIELDED, ["small-meteor:front", "small-meteor:front"], seed=3, batch=2_000,
                   precision=0.005, max_runs=1_000_000, workers=2)
    assert same(res, two)
    # ... and the previous chunk count had not reached the precision
    prev = simulate(SHIELDED, ["small-meteor:front", "small-meteor:front"], seed=3, batch=2_000,
                    runs=res.runs - 2_000)
    lo, hi = prev.p_survive_ci
    assert hi - lo > 0.005


def test_adaptive_stops_at_max_runs() -> None:
    res = simulate(SHIELDED, ["small-meteor:front"], seed=3, batch=1_000, precision=1e-4, max_runs=2_500)
    assert res.runs == 2_500
    assert any("max_runs" in n for n in res.notes)


# -- the result ------------------------------------------------------------------------------------
def test_result_invariants() -> None:
    res = simulate(CLASS_II, ATTACKS, runs=7_000, seed=11, batch=3_000, keep_runs=True)
    n_tiles = len(CLASS_II.tiles)
    # the counts are the per-run arrays counted
    assert res.survivals == np.count_nonzero(res.survived)
    assert np.array_equal(res.lost_counts, np.bincount(res.lost, minlength=len(res.lost_counts)))
    assert res.lost_counts.sum() == res.runs and res.lost_counts[-1] > 0
    assert sum(res.lost_distribution.values()) == pytest.approx(1.0)
    assert all(0 <= k <= n_tiles for k in res.lost_distribution)
    assert res.final_masks is not None and res.final_masks.shape == (7_000, n_tiles)
    assert np.array_equal(n_tiles - res.final_masks.sum(axis=1), res.lost)
    assert np.array_equal((~res.final_masks).sum(axis=0), res.tile_lost_counts)
    assert res.survived.dtype == bool and not res.survived.flags.writeable
    lo, hi = res.p_survive_ci
    assert lo <= res.p_survive <= hi
    lo, hi = res.expected_lost_ci
    assert lo <= res.expected_lost <= hi
    ci = res.p_lost_ci
    assert ci.shape == (n_tiles, 2) and np.all(ci[:, 0] <= res.p_lost) and np.all(res.p_lost <= ci[:, 1])
    assert res.p_lost_se.shape == (n_tiles,)


def test_to_dict_has_the_contract_keys() -> None:
    res = simulate(CANNON, ["large-meteor:front"], runs=2_000, seed=4)
    d = json.loads(json.dumps(res.to_dict()))
    for key in ("exact", "attacks", "policy", "runs", "seed", "p_survive", "p_survive_ci", "expected_lost",
                "expected_lost_ci", "lost_distribution", "tiles"):
        assert key in d
    assert d["exact"] is False and d["runs"] == 2_000 and d["seed"] == 4 and d["policy"] == "default"
    assert d["attacks"] == ["large-meteor:front"]
    assert all(isinstance(k, str) for k in d["lost_distribution"])
    assert [t["at"] for t in d["tiles"]] == [[7, 6], [6, 7], [7, 7], [8, 7]]  # grid order
    assert all(len(t["ci"]) == 2 and t["ci"][0] <= t["p_lost"] <= t["ci"][1] for t in d["tiles"])


def test_to_frame() -> None:
    res = simulate(LONE, ["small-meteor:front"], runs=500, seed=1, keep_runs=True)
    df = res.runs_frame()
    assert list(df.columns) == ["survived", "lost"] and len(df) == 500
    assert df["lost"].mean() == pytest.approx(res.expected_lost)
    tiles = res.to_frame()  # one row per tile, as the exact engine's
    assert list(tiles[["col", "row"]].itertuples(index=False, name=None)) == [(7, 7)]
    assert (tiles["p_lost_lo"] <= tiles["p_lost"]).all() and (tiles["p_lost"] <= tiles["p_lost_hi"]).all()
    assert tiles["p_lost"].iloc[0] == pytest.approx(1 - res.p_survive)


def test_masks_dropped_when_too_big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(montecarlo, "MASK_LIMIT_BYTES", 100)
    res = simulate(CANNON, ["large-meteor:front"], runs=1_000, seed=1, keep_runs=True)
    assert res.final_masks is None
    assert any("final_masks" in n for n in res.notes)
    assert res.tile_lost_counts.sum() == res.lost.sum()


def test_progress_callback() -> None:
    calls: list[tuple[int, int]] = []
    simulate(LONE, ["small-meteor:front"], runs=2_500, seed=1, batch=1_000, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1_000, 2_500), (2_000, 2_500), (2_500, 2_500)]
    with progress_bar(delay=0.0) as bar:
        simulate(LONE, ["small-meteor:front"], runs=2_000, seed=1, batch=1_000, progress=bar)


@pytest.mark.parametrize("kw,match", [
    ({"runs": 0}, r"bad `runs`.*value 0 \(expected an integer >= 1\)"),
    ({"batch": -1}, r"bad `batch`.*value -1 \(expected an integer >= 1\)"),
    ({"seed": 1, "rng": 2}, "not both"),
    ({"seed": -3}, r"bad `seed`.*value -3 \(expected an integer >= 0\)"),
    ({"policy": "reckless"}, "`policy`"),
    ({"precision": 2.0}, "`precision`"),
])
def test_bad_arguments(kw: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        simulate(LONE, ["small-meteor:front"], **kw)


def test_optimal_policy_asked_before_any_value() -> None:
    # the Monte Carlo engine asks the optimal policy to decide before any value is worked out (here
    # at the last attack, whose values need no search): it must set itself up then too
    res = simulate(SHIELDED, ["small-meteor:front"], runs=3_000, seed=2, policy="optimal")
    assert_agrees(res, odds(SHIELDED, ["small-meteor:front"], policy="optimal"))


# -- memory: counts streamed per chunk, per-run arrays on request ---------------------------------------
def test_summaries_from_counts_are_the_per_run_ones() -> None:
    res = simulate(CLASS_II, ATTACKS, runs=30_000, seed=21, batch=7_000, keep_runs=True)
    lost = res.lost.astype(np.int64)
    assert res.expected_lost == float(np.mean(lost, dtype=np.float64))
    assert res.expected_lost_se == pytest.approx(montecarlo.mean_se(lost), rel=1e-12)
    assert res.expected_lost_ci == pytest.approx(montecarlo.mean_ci(lost)[1], rel=1e-12)
    counts = np.bincount(lost)
    assert res.lost_distribution == {k: c / res.runs for k, c in enumerate(counts.tolist()) if c}
    assert res.p_survive == np.count_nonzero(res.survived) / res.runs


def test_per_run_arrays_only_on_request() -> None:
    res = simulate(CLASS_II, ATTACKS, runs=3_000, seed=5)
    assert res.per_run is None
    for name in ("survived", "lost", "final_masks"):
        with pytest.raises(montecarlo.RunsNotKept, match="keep_runs=True"):
            getattr(res, name)
    with pytest.raises(montecarlo.RunsNotKept, match="keep_runs=True"):
        res.runs_frame()
    assert not hasattr(res, "lost")
    assert len(res.to_frame()) == len(CLASS_II.tiles)  # per tile, from the counts
    d = res.to_dict()
    assert d["survivals"] == res.survivals
    assert sum(d["lost_counts"].values()) == 3_000
    assert {k: c / 3_000 for k, c in d["lost_counts"].items()} == d["lost_distribution"]
    with pytest.raises(ValueError, match="keep_runs"):
        simulate(CLASS_II, ATTACKS, runs=10, seed=5, keep_runs="yes")


def test_memory_does_not_grow_with_runs() -> None:
    import tracemalloc

    def peak(runs: int) -> int:
        simulate(CLASS_II, ATTACKS, runs=2_000, seed=1, batch=2_000)  # the model's tables, worked out before
        tracemalloc.start()
        try:
            simulate(CLASS_II, ATTACKS, runs=runs, seed=1, batch=2_000)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, big = peak(10_000), peak(400_000)
    # 40 times the runs: the same chunks in flight; a per-run array alone would add >= 400 kB
    assert big < small + 200_000, (small, big)


@given(st.lists(st.integers(min_value=-50, max_value=400), min_size=0, max_size=300))
def test_sums_give_the_mean_and_its_interval(xs: list[int]) -> None:
    """The streamed estimate (sum and sum of squares) is the array's, to rounding."""
    if not xs:
        return
    a = np.array(xs, dtype=np.int64)
    m, (lo, hi) = montecarlo.sums_mean_ci(len(xs), sum(xs), sum(x * x for x in xs))
    m2, (lo2, hi2) = montecarlo.mean_ci(a)
    assert m == m2
    assert montecarlo.sums_mean_se(len(xs), sum(xs), sum(x * x for x in xs)) == pytest.approx(
        montecarlo.mean_se(a), rel=1e-12, abs=1e-15)
    assert (lo, hi) == pytest.approx((lo2, hi2), rel=1e-12, abs=1e-12)
