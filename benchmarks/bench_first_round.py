"""The first whole round after installing: how long ``shipcheck simulate SHIP --round R`` (10,000
runs) takes as the very first command of an install, as the command right after it, and once the
compiled engine is built; and how fast the plain engine flies a round on int64 tables and on Python
ints (``engine.python_ints``).

A fresh install is stood in for by an empty ``NUMBA_CACHE_DIR`` of the benchmark's own (the stamp
and numba's cache of the engine live there): nothing is built, no builder is at work. Wall time
of each command, and its CPU with its worker processes (not the builder it leaves running, which
has its own session). Between repeats the benchmark waits for that builder, and times the command
once more with the engine built.

Usage: ``python benchmarks/bench_first_round.py [--repeat 2] [--classes II,III] [--runs 300]``
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPS = {"I": ("examples/class-I-scout.toml", "1"), "II": ("examples/class-II-freighter.toml", "2"),
         "III": ("examples/class-III-hauler.toml", "3")}


def command(ship: str, rnd: str, cache: str) -> tuple[float, float]:
    """Wall and CPU seconds of one ``simulate --round`` command with numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    for k in ("SHIPCHECK_JIT", "SHIPCHECK_ROUND_ENGINE", "SHIPCHECK_ENGINE_BUILDER"):
        env.pop(k, None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "shipcheck", "simulate", ship, "--round", rnd, "--seed", "1", "-q"],
                   cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def wait_for_builder(cache: str) -> float:
    """Seconds until the builder started in ``cache`` has left its stamp (or gone)."""
    t0 = time.perf_counter()
    folder = Path(cache)
    while list(folder.glob("engine-*.building")) and time.perf_counter() - t0 < 600:
        time.sleep(0.5)
    return time.perf_counter() - t0


def plain_rates(cls: str, runs: int) -> tuple[float, float]:
    """Plain-engine rounds a CPU second on int64 tables and on Python ints."""
    import numpy as np

    from shipcheck import engine
    from shipcheck.round.deck import build_deck
    from shipcheck.round.engine import ACCOUNT, ROLLS, SOURCES, TYPES, Job, build_table
    from shipcheck.round.field import default_field
    from shipcheck.round.policy import DefaultPolicy
    from shipcheck.round.rulebook import round_rules
    from shipcheck.shipfile import load_ship

    path, rnd = SHIPS[cls]
    me = load_ship(str(ROOT / path))
    rules = round_rules(rnd)
    others, _ = default_field(me, rules.level)
    deck = build_deck(rules, me.edition)
    table = build_table(Job((me, *others), (DefaultPolicy(),) * (1 + len(others)), rules, deck, False))
    t = table.tables(deck.cards)
    g = np.random.default_rng(1)
    decks = deck.draw(g, runs).astype(np.int64)
    rolls = g.integers(0, 36, size=(runs, decks.shape[1], ROLLS)).astype(np.int64)
    slow = engine._run_module(True)
    out = engine.Outputs(table.P, runs, len(TYPES), len(ACCOUNT), len(SOURCES), max(m.n for m in table.models))
    rates = []
    for ints in (False, True):
        c0 = time.process_time()
        if ints:
            engine._call(slow, engine.python_ints(t), decks.astype(object), rolls.astype(object), out.part(0, runs))
        else:
            with np.errstate(over="ignore"):
                engine._call(slow, t, decks, rolls, out.part(0, runs))
        rates.append(runs / (time.process_time() - c0))
    return rates[0], rates[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--classes", default="II,III")
    ap.add_argument("--runs", type=int, default=300, help="runs for the plain rates")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    for cls in args.classes.split(","):
        a, b = plain_rates(cls, args.runs)
        print(f"class {cls}: plain engine {a:,.0f} rounds/CPU-s on int64 tables, {b:,.0f} on Python ints "
              f"({b / a:.2f}x)")
    for cls in args.classes.split(","):
        ship, rnd = SHIPS[cls]
        for i in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="shipcheck-first-") as cache:
                load = os.getloadavg()[0]
                w1, c1 = command(ship, rnd, cache)
                w2, c2 = command(ship, rnd, cache)
                waited = wait_for_builder(cache)
                w3, c3 = command(ship, rnd, cache)
                print(f"class {cls} #{i + 1} (load {load:.2f}): very first command {w1:.1f} s wall / {c1:.1f} s CPU; "
                      f"right after it {w2:.1f} s / {c2:.1f} s; builder done {waited:.0f} s later; "
                      f"then {w3:.1f} s / {c3:.1f} s")


if __name__ == "__main__":
    main()
