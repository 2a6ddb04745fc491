"""Benchmark `check` and `fix` on full ships, and the exact program against brute force.

Run from the repository root: ``python benchmarks/bench_check_fix.py``. Prints machine info and
markdown tables; the ships come from a seeded generator (plus the class III example), so every run
measures the same ships. The checker is timed against the previous implementation
(``benchmarks/checker_baseline.py``, one object per joint) in the same process, interleaved, best
of many short runs, so the ratio holds on a loaded machine.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import highspy
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout, not installed
sys.path.insert(0, str(ROOT / "benchmarks"))

import checker_baseline  # noqa: E402

from shipcheck.check.fix import brute_force_fix, construction_errors, fix  # noqa: E402
from shipcheck.check.rules import check  # noqa: E402
from shipcheck.model import KINDS, OPPOSITE, Ship, Tile, compatible  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402
from shipcheck.topology import builtin_board  # noqa: E402

SEED = 20240611
PLAIN = ("structural", "cabin", "cargo", "battery", "shield", "life_support")
ATTRS = {"cargo": (("slots", 2),), "battery": (("cells", 2),), "life_support": (("color", "purple"),)}


def messy_ship(board_name: str, rng: np.random.Generator, *, squares: list[int] | None = None,
               p_bad: float = 0.1, thrusters: int = 0) -> Ship:
    """A ship on every given square: joints mostly legal, a fraction ``p_bad`` broken.

    Engines go where nothing is behind them and cannons where nothing is in front, plus
    ``thrusters`` engines and cannons at random squares (blocked on a full torus).
    """
    board = builtin_board(board_name)
    if squares is None:
        squares = [i for i in range(board.size) if board.buildable(i)]
    on = set(squares)
    nb = board.nb
    kinds: dict[int, str] = {}
    for i in squares:
        kind = str(rng.choice(PLAIN))
        if nb[i][2] not in on and rng.random() < 0.5:
            kind = "engine"
        elif nb[i][0] not in on and rng.random() < 0.5:
            kind = "cannon"
        kinds[i] = kind
    for i in rng.choice(squares, size=min(thrusters, len(squares)), replace=False):
        kinds[int(i)] = str(rng.choice(("engine", "cannon")))
    if board.start is not None:
        kinds[board.start] = "start_cabin"
    eff = {i: [int(rng.integers(0, 4)) for _ in range(4)] for i in squares}
    for i in squares:
        info = KINDS[kinds[i]]
        for s in info.barrels + info.exhausts:
            eff[i][s] = 0
    good = [(a, b) for a in range(4) for b in range(4) if (a == b == 0) or compatible(a, b)]
    bad = [(a, b) for a in range(4) for b in range(4) if (a or b) and not compatible(a, b)]
    for i in squares:
        for s in range(4):
            j = nb[i][s]
            if j not in on or j < i or (j == i):
                continue
            o = OPPOSITE[s]
            fixed_i = s in _functional(kinds[i])
            fixed_j = o in _functional(kinds[j])
            pool = bad if rng.random() < p_bad else good
            a, b = pool[int(rng.integers(len(pool)))]
            eff[i][s] = 0 if fixed_i else a
            eff[j][o] = 0 if fixed_j else b
    tiles = []
    for i in squares:
        e = eff[i]
        tiles.append(Tile(at=i, kind=kinds[i], sides="".join(map(str, e)), attrs=ATTRS.get(kinds[i], ())))
    return Ship(board=board, tiles=tuple(tiles))


def cluster(board, start: int, size: int, rng: np.random.Generator) -> list[int]:
    """``size`` buildable squares grown at random from ``start``, each next to an earlier one."""
    got = [start]
    while len(got) < size:
        rim = sorted({j for i in got for j in board.nb[i]
                      if j >= 0 and j not in got and board.buildable(j)})
        got.append(int(rng.choice(rim)))
    return sorted(got)


def _functional(kind: str) -> tuple[int, ...]:
    info = KINDS[kind]
    return info.barrels + info.exhausts


def rate(fn, seconds: float = 1.0) -> float:
    """Calls per second of ``fn`` over about ``seconds``."""
    n, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        fn()
        n += 1
    return n / elapsed


def paired_rates(fns: list, rounds: int = 40, calls: int = 50) -> list[float]:
    """Calls per second of each function: best of ``rounds`` runs of ``calls`` calls, interleaved."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for k, fn in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            best[k] = min(best[k], (time.perf_counter() - t0) / calls)
    return [1.0 / b for b in best]


def median_time(fn, runs: int) -> float:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main() -> None:
    rng = np.random.default_rng(SEED)
    ships = {
        "III full (36 tiles)": messy_ship("III", rng),
        "IIIC full torus (36 tiles)": messy_ship("IIIC", rng, thrusters=3),
        "examples/class-III-hauler.toml": load_ship(ROOT / "examples" / "class-III-hauler.toml"),
    }
    print(f"date: {dt.datetime.now().astimezone().isoformat(timespec='seconds')}")
    print(f"machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs, "
          f"processor {platform.processor() or 'unknown'}; load average {os.getloadavg()[0]:.1f}")
    hv = f"{highspy.HIGHS_VERSION_MAJOR}.{highspy.HIGHS_VERSION_MINOR}.{highspy.HIGHS_VERSION_PATCH}"
    print(f"python {platform.python_version()}, numpy {np.__version__}, HiGHS {hv}; seed {SEED}")
    print()
    print("| ship | tiles | construction errors | checks/s | baseline checks/s | ratio | fix median (ms) | lost |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, s in ships.items():
        if check(s) != checker_baseline.check(s):
            raise SystemExit(f"{name}: the checker and its baseline disagree")
        n_err = len(construction_errors(check(s)))
        new, old = paired_rates([lambda s=s: check(s), lambda s=s: checker_baseline.check(s)])
        t = median_time(lambda s=s: fix(s), 7)
        r = fix(s)
        print(f"| {name} | {len(s.tiles)} | {n_err} | {new:,.0f} | {old:,.0f} | {new / old:.1f}x | "
              f"{t * 1000:.1f} | {r.lost} |")

    # brute force against the program on small class I ships (pilot plus 9, and plus 11)
    board = builtin_board("I")
    start = board.start
    assert start is not None
    print()
    print("| class I ship | construction errors | lost | brute force (ms) | ILP (ms) | brute / ILP |")
    print("|---|---:|---:|---:|---:|---:|")
    for size in (10, 12):
        small = messy_ship("I", rng, squares=cluster(board, start, size, rng), p_bad=0.2)
        n_err = len(construction_errors(check(small)))
        lost_bf = brute_force_fix(small, max_tiles=size)
        if lost_bf != fix(small).lost:
            raise SystemExit(f"brute force {lost_bf} and fix {fix(small).lost} disagree")
        t_bf = median_time(lambda s=small, k=size: brute_force_fix(s, max_tiles=k), 3)
        t_ilp = median_time(lambda s=small: fix(s), 7)
        print(f"| {size} tiles | {n_err} | {lost_bf} | {t_bf * 1000:.1f} | {t_ilp * 1000:.1f} | "
              f"{t_bf / t_ilp:.1f}x |")


if __name__ == "__main__":
    main()
