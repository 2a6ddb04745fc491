"""How good is `shipcheck design` (issue 29): the designed ship against the field and the example.

Run from the repository root::

    python benchmarks/bench_design.py                       # class II, seed 7, the default budget
    python benchmarks/bench_design.py --class III --seed 1 --budget 1200 --workers 2
    python benchmarks/bench_design.py --scaling --budget 600  # 1 and 2 local workers, a Dask LocalCluster

It designs the ship (timed, wall clock and CPU of this process), then re-flies it independently:
``--runs`` rounds (default 20,000) on another seed (``--fly-seed``), against the class's default
field, as ``shipcheck simulate SHIP --round`` flies it; every field ship and the class's example
ship are flown the same way (each in seat 1, the default field behind it). It prints the credits
(mean, 95 % interval, by source), the ratios the issue's target names and the search's
convergence, as Markdown for benchmarks/RESULTS.md. ``--scaling`` designs the same ship on one worker,
two local workers and a two-worker Dask ``LocalCluster`` instead, and prints the speed of each
(candidates a second of wall time) and whether the ships are the same.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import shipcheck  # noqa: E402
from shipcheck.design import BUDGET, design  # noqa: E402
from shipcheck.round import simulate_round  # noqa: E402
from shipcheck.round.field import field_ships  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402

EXAMPLES = {"I": "class-I-scout.toml", "II": "class-II-freighter.toml", "III": "class-III-hauler.toml",
            "IIIa": "class-IIIa-longboat.toml"}


def fly(ship: shipcheck.Ship, runs: int, seed: int, workers: int) -> tuple[float, tuple[float, float], dict]:
    r = simulate_round(ship, runs=runs, seed=seed, workers=workers).ship_result
    return r.credits_mean, r.credits_ci, r.by_source


def scaling(cls: str, seed: int, budget: int) -> None:
    """The same design on 1 and 2 local workers and on a Dask LocalCluster: speed and sameness."""
    from dask.distributed import LocalCluster

    ships = {}
    print("| where the flights go | wall s | CPU s (this process) | candidates | candidates / s | same ship |")
    print("|---|--:|--:|--:|--:|---|")
    for where in ("1 worker", "2 local workers", "Dask LocalCluster, 2 workers"):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1) if where.startswith("Dask") else None
        try:
            t0, c0 = time.monotonic(), time.process_time()
            r = design(cls, seed=seed, budget=budget, workers=2 if where.startswith("2") else None,
                       scheduler=cluster.scheduler_address if cluster else None)
            wall, cpu = time.monotonic() - t0, time.process_time() - c0
        finally:
            if cluster is not None:
                cluster.close()
        ships[where] = shipcheck.dump_ship(r.ship)
        same = "yes" if ships[where] == ships["1 worker"] else "NO"
        print(f"| {where} | {wall:.1f} | {cpu:.1f} | {r.evaluations} | {r.evaluations / wall:.1f} | {same} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--class", dest="cls", default="II")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--budget", type=int, default=BUDGET)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--runs", type=int, default=20_000)
    ap.add_argument("--fly-seed", type=int, default=2029)
    ap.add_argument("--out", type=Path, default=None, help="also write the designed ship here")
    ap.add_argument("--scaling", action="store_true", help="1 and 2 workers and a Dask LocalCluster instead")
    a = ap.parse_args()
    load = os.getloadavg()[0]
    if a.scaling:
        print(f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} CPUs, "
              f"Python {platform.python_version()}, load {load:.1f} at the start; design --class {a.cls} "
              f"--seed {a.seed} --budget {a.budget}\n")
        scaling(a.cls, a.seed, a.budget)
        return
    t0, c0 = time.monotonic(), time.process_time()
    r = design(a.cls, seed=a.seed, budget=a.budget, workers=a.workers)
    wall, cpu = time.monotonic() - t0, time.process_time() - c0
    if a.out:
        a.out.write_text(shipcheck.dump_ship(r.ship), encoding="utf-8")
    print(f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}, load {load:.1f} at the start")
    print(f"design --class {a.cls} --seed {a.seed} --budget {a.budget} --workers {a.workers or 1}: {wall:.0f} s wall "
          f"({cpu:.0f} s CPU in this process), {r.evaluations} candidates, {len(r.ship.tiles)} tiles, "
          f"legal {shipcheck.check(r.ship).legal}")
    print(f"\nre-flown: {a.runs:,} rounds, seed {a.fly_seed}, the default field behind each ship\n")
    print("| ship | credits | 95 % CI | cards | goods | arrival | best looking | penalty |")
    print("|---|--:|---|--:|--:|--:|--:|--:|")
    rows = [("designed", r.ship)] + [(s.name or "?", s) for s in field_ships(a.cls)]
    if a.cls in EXAMPLES:
        rows.append((f"*{EXAMPLES[a.cls]}*", load_ship(ROOT / "examples" / EXAMPLES[a.cls])))
    means = {}
    for name, s in rows:
        m, (lo, hi), src = fly(s, a.runs, a.fly_seed, a.workers or 1)
        means[name] = m
        print(f"| {name} | {m:.2f} | {lo:.2f}-{hi:.2f} | " + " | ".join(f"{src[k]:.2f}" for k in
              ("cards", "goods", "arrival", "best_looking", "penalty")) + " |")
    best_field = max(means[s.name or "?"] for s in field_ships(a.cls))
    print(f"\ndesigned / best field ship: {means['designed'] / best_field:.3f}")
    print("\nconvergence (candidates flown, best mean so far over the search's rounds): "
          + ", ".join(f"{e}: {m:.2f}" for e, m in r.history[:: max(1, len(r.history) // 12)]))


if __name__ == "__main__":
    main()
