"""Whole-round speed: rounds per second on one core, per class, against three opponents.

For each class a full example ship flies its round against the class's default field (three
opponents) with drawn decks, under the default policies. Three engines, each in this process and
timed in CPU seconds (best of ``--repeat``):

- the compiled fast path (what ``simulate_round`` uses for the built-in policies), after a warm-up
  call that loads (or compiles) the kernel;
- the memoised engine (``SHIPCHECK_ROUND_ENGINE=memo``: chunks of 4096 runs, each card resolved
  once per distinct player state), what custom policies fly on;
- the per-run baseline: the memoised engine with chunks of one run, so every card is resolved per
  run in Python (memo tables kept, as ``simulate_naive`` keeps the flight model's cache).

The three give the same numbers for the same seed and batch (``tests/test_round_fast.py``). Then
the kernel's one-time costs in fresh processes (``import numba``; compiling with an empty cache;
loading from the cache), and with ``--memory`` the peak RSS of 10^6 drawn level-III rounds.

    python benchmarks/bench_round.py [--runs 20000] [--memo-runs 2000] [--naive-runs 150] [--repeat 2] [--memory]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipcheck.round.fast import ENGINE_ENV  # noqa: E402

from shipcheck.round import simulate_round  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402

CASES = [
    ("I", "1", ROOT / "examples" / "class-I-scout.toml"),
    ("II", "2", ROOT / "examples" / "class-II-freighter.toml"),
    ("III", "3", ROOT / "examples" / "class-III-hauler.toml"),
    ("IIIa", "3a", ROOT / "examples" / "class-IIIa-longboat.toml"),
]


def rate(ship: object, rnd: str, runs: int, batch: int, repeat: int, engine: str = "") -> float:
    old = os.environ.pop(ENGINE_ENV, None)
    if engine:
        os.environ[ENGINE_ENV] = engine
    try:
        best = float("inf")
        for k in range(repeat):
            t0 = time.process_time()
            simulate_round(ship, round=rnd, runs=runs, seed=100 + k, batch=batch)  # type: ignore[arg-type]
            best = min(best, time.process_time() - t0)
    finally:
        os.environ.pop(ENGINE_ENV, None)
        if old is not None:
            os.environ[ENGINE_ENV] = old
    return runs / best


def child(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    return out.stdout.split()[-1]


FLY = """
import sys, time
t0 = time.process_time()
from shipcheck.round import simulate_round
from shipcheck.shipfile import load_ship
simulate_round(load_ship(sys.argv[1]), round="3", runs=20, seed=1)
print(round(time.process_time() - t0, 2))
"""

IMPORT = "import time; t0 = time.process_time(); import numba; print(round(time.process_time() - t0, 2))"

MEMORY = """
import resource, sys
from shipcheck.round import simulate_round
from shipcheck.shipfile import load_ship
simulate_round(load_ship(sys.argv[1]), round="3", runs=int(sys.argv[2]), seed=1)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20000)
    ap.add_argument("--memo-runs", type=int, default=2000)
    ap.add_argument("--naive-runs", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--memory", action="store_true", help="also measure the peak memory of 10^6 runs (slow)")
    a = ap.parse_args()
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    print("| class | round | ship | tiles | compiled (rounds/s) | memoised | per-run | vs memoised | vs per-run |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for cls, rnd, path in CASES:
        ship = load_ship(path)
        simulate_round(ship, round=rnd, runs=10, seed=1)  # loads (or compiles) the kernel
        fast = rate(ship, rnd, a.runs, 4096, a.repeat)
        memo = rate(ship, rnd, a.memo_runs, 4096, a.repeat, "memo")
        slow = rate(ship, rnd, a.naive_runs, 1, a.repeat, "memo")
        print(f"| {cls} | {rnd} | {path.name} | {len(ship.tiles)} | {fast:,.0f} | {memo:,.0f} | {slow:,.0f} "
              f"| {fast / memo:.0f}x | {fast / slow:.0f}x |", flush=True)
    hauler = str(CASES[2][2])
    print(f"CPU seconds in a fresh process: import numba {child(IMPORT)}; 20 class III rounds with the kernel "
          f"cached {child(FLY, hauler)}", flush=True)
    with tempfile.TemporaryDirectory() as cache:
        print(f"... and with an empty kernel cache (compiling): {child(FLY, hauler, env={'NUMBA_CACHE_DIR': cache})}",
              flush=True)
    if a.memory:
        print(f"peak RSS, 10^6 drawn class III rounds against the field: {child(MEMORY, hauler, '1000000')} MB")


if __name__ == "__main__":
    main()
