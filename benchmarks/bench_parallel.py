"""The parallel backend against the ProcessPoolExecutor it replaced, on the same Monte Carlo chunks.

``shipcheck.parallel`` feeds its workers through one pipe each and reads their results in the
calling thread (so a killed worker can never leave a reader thread blocked). This script runs
``simulate(..., workers=2)`` with that pool and, in the same process, with a
``concurrent.futures.ProcessPoolExecutor`` behind the same interface, interleaved, and prints the
median times and their ratio. The machine is shared: the ratio is what to read.

    python benchmarks/bench_parallel.py [--runs 6000000] [--repeat 8] [--card III-10]
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from shipcheck import parallel  # noqa: E402
from shipcheck.cards import find_card  # noqa: E402
from shipcheck.montecarlo import simulate  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402


class ExecutorPool:
    """The baseline: a ProcessPoolExecutor with the same worker set-up and in-order window."""

    def __init__(self, procs: int, task: Any, blob: bytes, seed: int) -> None:
        self.ex = ProcessPoolExecutor(procs, mp_context=multiprocessing.get_context("fork"),
                                      initializer=parallel._worker_init, initargs=(os.getpid(),))
        self.task, self.blob, self.seed, self.procs = task, blob, seed, procs

    def run(self, plan: Any) -> Any:
        return parallel._in_order(lambda i, n: self.ex.submit(self.task, self.blob, self.seed, i, n), plan,
                                  2 * self.procs)

    def close(self, *, kill: bool) -> None:
        self.ex.shutdown(wait=True, cancel_futures=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=6_000_000)
    ap.add_argument("--repeat", type=int, default=8)
    ap.add_argument("--card", default="III-10")
    args = ap.parse_args()
    ship = load_ship(ROOT / "examples" / "class-III-hauler.toml")
    atk = find_card(args.card).attacks()
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"# bench_parallel  {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"machine: {platform.platform()} cpus={os.cpu_count()} python={platform.python_version()} "
          f"load={load[0]:.2f}; runs={args.runs:,}, workers=2, card {args.card}, {args.repeat} interleaved runs each")
    pools = {"shipcheck.parallel pool": parallel._Pool, "ProcessPoolExecutor": ExecutorPool}
    times: dict[str, list[float]] = {k: [] for k in pools}
    results = {}
    try:
        for i in range(args.repeat):
            for name in (list(pools) if i % 2 == 0 else list(reversed(pools))):
                parallel._Pool = pools[name]  # type: ignore[misc]
                t = time.perf_counter()
                results[name] = simulate(ship, atk, runs=args.runs, seed=5, workers=2)
                times[name].append(time.perf_counter() - t)
    finally:
        parallel._Pool = pools["shipcheck.parallel pool"]  # type: ignore[misc]
    a, b = (results[k] for k in pools)
    assert a.survivals == b.survivals and np.array_equal(a.lost_counts, b.lost_counts)
    assert np.array_equal(a.tile_lost_counts, b.tile_lost_counts)
    print()
    print("| pool | median s | min s | runs/s (median) |")
    print("|---|---|---|---|")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"| {name} | {med:.2f} | {min(ts):.2f} | {args.runs / med / 1e6:.1f} M |")
    ratio = statistics.median(times["shipcheck.parallel pool"]) / statistics.median(times["ProcessPoolExecutor"])
    print(f"\nratio parallel pool / ProcessPoolExecutor (medians): {ratio:.2f}; identical arrays: yes")


if __name__ == "__main__":
    main()
