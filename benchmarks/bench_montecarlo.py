"""Monte Carlo speed: the vectorised engine against a per-run loop, worker scaling, and exact odds.

One level-III meteor swarm on a full class III ship. Prints runs per second of
``simulate`` on one core, its speed-up over ``simulate_naive`` (the same model, one run and one
roll at a time) measured in the same process, the scaling with worker processes, and the time of
the exact engine on the same card. Each timing is the best of ``--repeat`` (the machine may be
shared), and every run starts from a fresh flight model, as the CLI does.

    python benchmarks/bench_montecarlo.py [--runs 2000000] [--naive-runs 50000] [--card III-16]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from shipcheck.cards import find_card  # noqa: E402
from shipcheck.check.rules import check  # noqa: E402
from shipcheck.flight.montecarlo import simulate, simulate_naive  # noqa: E402
from shipcheck.flight.odds import odds  # noqa: E402
from shipcheck.shipfile import load_ship, parse_ship  # noqa: E402
from shipcheck.topology import builtin_board  # noqa: E402

HAULER = ROOT / "examples" / "class-III-hauler.toml"


def _tile(col: int, row: int, kind: str, sides: str, **kw: Any) -> str:
    extra = "".join(f"{k} = {json.dumps(v)}\n" for k, v in kw.items())
    return f'\n[[tile]]\nat = [{col}, {row}]\nkind = "{kind}"\nsides = "{sides}"\n{extra}'


def inline_hauler() -> Any:
    """Every square of class III: a cannon on top of each column, an engine at its foot, and
    cabins, a battery, a shield, cargo and structure between (all connectors universal)."""
    b = builtin_board("III")
    middle = {(7, 7): ("start_cabin", {}), (6, 7): ("cabin", {}), (8, 7): ("cabin", {}), (7, 5): ("cabin", {}),
              (11, 7): ("cabin", {}), (6, 6): ("battery", {"cells": 2}), (7, 6): ("shield", {})}
    out = ['format = 1\nclass = "III"\nname = "benchmark hauler"\n']
    for ci, (col,) in enumerate(b.columns):
        squares = [row for ri, (row,) in enumerate(b.rows) if b.cells[ri][ci] in "#S"]
        for j, row in enumerate(squares):
            if j == 0:
                out.append(_tile(col, row, "cannon" if ci % 2 == 0 else "double_cannon", "0333"))
            elif j == len(squares) - 1:
                out.append(_tile(col, row, "engine" if ci % 2 == 0 else "double_engine", "3303"))
            else:
                kind, kw = middle.get((col, row), ("structural", {}) if (col + row) % 2 else ("cargo", {"slots": 2}))
                out.append(_tile(col, row, kind, "3333", **kw))
    return parse_ship("".join(out))


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2_000_000)
    ap.add_argument("--naive-runs", type=int, default=50_000)
    ap.add_argument("--card", default="III-16")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=20070101)
    ap.add_argument("--dask", action="store_true", help="also time a 2-worker Dask LocalCluster (start-up included)")
    args = ap.parse_args()

    ship = load_ship(HAULER) if HAULER.exists() else inline_hauler()
    errors = [v.code for v in check(ship).violations if v.severity == "error"]
    card = find_card(args.card)
    atk = card.attacks()
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"# bench_montecarlo  {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"machine: {platform.platform()} {platform.machine()} cpus={os.cpu_count()} "
          f"python={platform.python_version()} numpy={np.__version__} load={load[0]:.2f}")
    print(f"ship: {HAULER.name if HAULER.exists() else 'inline class III'} ({len(ship.tiles)} tiles, "
          f"{'legal' if not errors else 'errors ' + ','.join(errors)}); card {card.full_id}: "
          f"{', '.join(str(a) for a in atk)}")
    print(f"runs={args.runs:,} naive runs={args.naive_runs:,} best of {args.repeat}")
    print()

    rows = []
    t_exact, exact = best(lambda: odds(ship, atk), args.repeat)
    t_naive, naive = best(lambda: simulate_naive(ship, atk, runs=args.naive_runs, seed=args.seed), args.repeat)
    naive_rate = args.naive_runs / t_naive
    rows.append(("simulate_naive (per-run loop)", 1, args.naive_runs, t_naive, naive_rate, naive))
    results = {}
    for w in (1, 2):
        t, r = best(lambda w=w: simulate(ship, atk, runs=args.runs, seed=args.seed, workers=w), args.repeat)
        results[w] = r
        rows.append((f"simulate, workers={w}", w, args.runs, t, args.runs / t, r))
    if args.dask:
        t, r = best(lambda: simulate(ship, atk, runs=args.runs, seed=args.seed, scheduler="local", workers=2), 1)
        results["dask"] = r
        rows.append(("simulate, Dask LocalCluster(2)", 2, args.runs, t, args.runs / t, r))
    one = rows[1][4]

    print("| engine | workers | runs | seconds | runs/s | vs naive | vs workers=1 | p_survive | E[lost] (± 1.96 SE) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, w, n, t, rate, r in rows:
        print(f"| {name} | {w} | {n:,} | {t:.3f} | {rate:,.0f} | {rate / naive_rate:.1f}x | {rate / one:.2f}x | "
              f"{r.p_survive:.6f} | {r.expected_lost:.5f} ± {1.96 * r.expected_lost_se:.5f} |")
    print(f"| odds (exact, {len(exact.distribution)} states) | 1 | - | {t_exact:.3f} | - | - | - | "
          f"{float(exact.p_survive):.6f} | {float(exact.expected_lost):.5f} |")
    print()
    identical = all(r.survivals == results[1].survivals and np.array_equal(r.lost_counts, results[1].lost_counts)
                    and np.array_equal(r.tile_lost_counts, results[1].tile_lost_counts) for r in results.values())
    print(f"same seed, every backend bit-identical: {identical}")
    print(f"exact odds took {t_exact:.3f} s; simulate({args.runs:,} runs, 1 worker) took "
          f"{args.runs / one:.3f} s ({(args.runs / one) / t_exact:.0f}x the exact time)")
    z = (results[1].expected_lost - float(exact.expected_lost)) / results[1].expected_lost_se
    print(f"Monte Carlo E[lost] is {z:+.2f} standard errors from the exact value")


if __name__ == "__main__":
    main()
