"""Whole-round speed: rounds per second on one core, per class, against three opponents.

For each class a full example ship flies its round against the class's default field (three
opponents) with a drawn deck. The vectorised engine plays chunks of runs at once; the baseline is
the same model played one run at a time (the same engine with chunks of one run, so every card is
resolved per run in Python; memo tables are kept, as ``simulate_naive`` keeps the flight model's
transition cache). Both start from fresh tables and run in this process; each figure is the best
of ``--repeat``. Memory: the peak RSS of 10^6 runs of a deck without dice (states shared, so it
runs fast) plus the bounded state tables (``MAX_STATES``), measured in subprocesses.

    python benchmarks/bench_round.py [--runs 4000] [--naive-runs 150] [--repeat 2] [--memory]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipcheck.round import simulate_round  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402

CASES = [
    ("I", "1", ROOT / "examples" / "class-I-scout.toml"),
    ("II", "2", ROOT / "examples" / "class-II-freighter.toml"),
    ("III", "3", ROOT / "examples" / "class-III-hauler.toml"),
    ("IIIa", "3a", ROOT / "examples" / "class-IIIa-longboat.toml"),
]


def rate(ship: object, rnd: str, runs: int, batch: int, repeat: int) -> float:
    best = float("inf")
    for k in range(repeat):
        t0 = time.process_time()
        simulate_round(ship, round=rnd, runs=runs, seed=100 + k, batch=batch)  # type: ignore[arg-type]
        best = min(best, time.process_time() - t0)
    return runs / best


MEMORY_SNIPPET = """
import resource, sys
from shipcheck.round import simulate_round
from shipcheck.shipfile import load_ship
ship = load_ship(sys.argv[1])
simulate_round(ship, round=sys.argv[2], runs=int(sys.argv[3]), seed=1, deck=sys.argv[4].split(",") or None)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""

TABLE_SNIPPET = """
import resource, sys
from shipcheck.round import simulate_round
from shipcheck.shipfile import load_ship
simulate_round(load_ship(sys.argv[1]), round=sys.argv[2], runs=int(sys.argv[3]), seed=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def peak_mb(snippet: str, *args: str) -> int:
    out = subprocess.run([sys.executable, "-c", snippet, *args], capture_output=True, text=True, check=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return int(out.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=4000)
    ap.add_argument("--naive-runs", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--memory", action="store_true", help="also measure peak memory (slow)")
    a = ap.parse_args()
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print("| class | round | ship | tiles | rounds/s (CPU) | per-run baseline | ratio |")
    print("|---|---|---|---:|---:|---:|---:|")
    for cls, rnd, path in CASES:
        ship = load_ship(path)
        fast = rate(ship, rnd, a.runs, 4096, a.repeat)
        slow = rate(ship, rnd, a.naive_runs, 1, a.repeat)
        print(f"| {cls} | {rnd} | {path.name} | {len(ship.tiles)} | {fast:,.0f} | {slow:,.0f} | {fast / slow:.1f}x |",
              flush=True)
    if a.memory:
        ship = str(CASES[2][2])
        no_dice = "III-06,III-12,III-02,III-18,III-19,III-07,III-01,III-13,II-04,III-05,III-08,III-14"
        print(f"peak RSS, 10^6 runs, class III vs the field, deck without dice: "
              f"{peak_mb(MEMORY_SNIPPET, ship, '3', '1000000', no_dice)} MB")
        print(f"peak RSS, 20,000 drawn level-III rounds (state tables filled to their bound): "
              f"{peak_mb(TABLE_SNIPPET, ship, '3', '20000')} MB")


if __name__ == "__main__":
    main()
