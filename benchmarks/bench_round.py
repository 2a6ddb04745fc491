"""Whole-round speed: rounds per second on one core, per class, against three opponents.

For each class a full example ship flies its round against the class's default field (three
opponents) with drawn decks. Timed in this process, in CPU seconds (median of ``--repeat``), each
after a warm-up call:

- ``compiled``: the one round engine (:mod:`shipcheck.engine`) compiled, built-in policies;
- ``own policy``: the same engine with a policy of one's own in Python (a ``DefaultPolicy``
  subclass overriding ``take_reward``, as docs/rounds.md shows), asked at its decisions;
- ``plain``: the same engine as plain Python (``shipcheck.runtime.state.force = "plain"``).

Then the fixed costs of a whole-round process, in fresh processes (CPU seconds, medians of
``--procs``): ``import numpy, numba``; the engine loaded from numba's cache with a round's imports;
the CPU a ``shipcheck simulate SHIP --round 3 --runs 1`` process has spent when its engine's first
run starts, and the whole of that process; and with ``--cold`` the compile with an empty cache.

    python benchmarks/bench_round.py [--runs 20000] [--own-runs 4000] [--plain-runs 300] [--repeat 3] [--procs 5] [--cold]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipcheck import engine, runtime  # noqa: E402
from shipcheck.round import DefaultPolicy, simulate_round  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402

CASES = [
    ("I", "1", ROOT / "examples" / "class-I-scout.toml"),
    ("II", "2", ROOT / "examples" / "class-II-freighter.toml"),
    ("III", "3", ROOT / "examples" / "class-III-hauler.toml"),
    ("IIIa", "3a", ROOT / "examples" / "class-IIIa-longboat.toml"),
]
TARGET_III = 35_000
TARGET_OWN = 2_000


class Careful(DefaultPolicy):
    """docs/rounds.md's example: a user's own policy overriding one decision."""

    name = "careful"

    def take_reward(self, view, card):  # type: ignore[no-untyped-def]
        return (card.days or 0) <= 1


def rate(ship: object, rnd: str, runs: int, repeat: int, *, policy: object = "default", plain: bool = False) -> float:
    runtime.state.force = "plain" if plain else None
    try:
        simulate_round(ship, round=rnd, runs=min(runs, 64), seed=99, policy=policy)  # type: ignore[arg-type]
        times = []
        for k in range(repeat):
            t0 = time.process_time()
            simulate_round(ship, round=rnd, runs=runs, seed=100 + k, policy=policy)  # type: ignore[arg-type]
            times.append(time.process_time() - t0)
    finally:
        runtime.state.force = None
    return runs / statistics.median(times)


# children read and write bytecode caches as an installed package has them (a shell with
# PYTHONDONTWRITEBYTECODE=1 would make every child compile the package's sources again)
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def child(code: str, *args: str, env: dict[str, str] | None = None) -> float:
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={**CHILD_ENV, "PYTHONPATH": str(ROOT), **(env or {})})
    return float(out.stdout.split()[-1])


def process_cpu(cmd: list[str]) -> float:
    """User + system CPU seconds of a whole child process."""
    before = os.times()
    subprocess.run(cmd, capture_output=True, check=True, cwd=ROOT, env=CHILD_ENV)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


IMPORT = "import time; t0 = time.process_time(); import numpy, numba; print(time.process_time() - t0)"

# the command line's process, its CPU when the engine's first run starts (then it stops); the engine
# is wrapped as the command imports it, so nothing is imported before the command line's own start
# (numpy imported first would start OpenBLAS's threads, which the command line keeps to one)
FIRST_RUN = """
import importlib.abc, importlib.machinery, os, sys, time
sys.argv = ["shipcheck", "simulate", sys.argv[1], "--round", "3", "--runs", "1", "--seed", "1", "-f", "json"]
def wrap(E):
    call = E._call
    def first(mod, t, decks, rolls, out):
        if decks.shape[0] > 0:
            print(time.process_time())
            sys.stdout.flush()
            os._exit(0)
        return call(mod, t, decks, rolls, out)
    E._call = first
class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "shipcheck.engine":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module
        def exec_module(m):
            run(m)
            wrap(m)
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, Hook())
from shipcheck.cli import main
main()
"""

# the engine loaded from numba's cache, and everything a round needs imported, before any run flies
LOAD = """
import time
t0 = time.process_time()
from shipcheck import engine
from shipcheck.round import simulate_round
assert engine.ready()
print(time.process_time() - t0)
"""


def med(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f} (min {min(xs):.2f}, max {max(xs):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20000)
    ap.add_argument("--own-runs", type=int, default=4000)
    ap.add_argument("--plain-runs", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--procs", type=int, default=5)
    ap.add_argument("--classes", default="I,II,III,IIIa")
    ap.add_argument("--cold", action="store_true", help="also time the compile with an empty cache (~40 s of CPU)")
    a = ap.parse_args()
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {platform.platform()}, {os.cpu_count()} CPUs, "
          f"python {platform.python_version()}, load {os.getloadavg()[0]:.1f} (CPU seconds, medians)")
    assert engine.ready(), "the compiled engine did not load"
    print("| class | round | ship | compiled (rounds/s) | own policy | plain | compiled / own | compiled / plain |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    wanted = a.classes.split(",")
    for cls, rnd, path in CASES:
        if cls not in wanted:
            continue
        ship = load_ship(path)
        fast = rate(ship, rnd, a.runs, a.repeat)
        own = rate(ship, rnd, a.own_runs, a.repeat, policy=Careful())
        slow = rate(ship, rnd, a.plain_runs, a.repeat, plain=True)
        print(f"| {cls} | {rnd} | {path.name} | {fast:,.0f} | {own:,.0f} | {slow:,.0f} | {fast / own:.1f}x "
              f"| {fast / slow:.0f}x |", flush=True)
        if cls == "III":
            print(f"  class III targets: compiled >= {TARGET_III:,} ({'met' if fast >= TARGET_III else 'missed'}), "
                  f"own policy >= {TARGET_OWN:,} ({'met' if own >= TARGET_OWN else 'missed'})", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")
    hauler = str(CASES[2][2])
    child(LOAD)  # writes the bytecode caches
    imp, load, first, whole = [], [], [], []
    exe = Path(sys.executable).with_name("shipcheck")
    for _ in range(a.procs):  # interleaved, so that a slow minute weighs on every figure alike
        imp.append(child(IMPORT))
        load.append(child(LOAD))
        first.append(child(FIRST_RUN, hauler))
        whole.append(process_cpu([str(exe), "simulate", hauler, "--round", "3", "--runs", "1", "--seed", "1"]))
    print(f"fresh processes, CPU s, median of {a.procs}: import numpy, numba {med(imp)}; engine loaded from the "
          f"cache with the round's imports {med(load)}; `shipcheck simulate class-III-hauler --round 3 --runs 1` "
          f"at its first run {med(first)}, {statistics.median(first) / statistics.median(imp):.2f}x the import; "
          f"the whole process {med(whole)}", flush=True)
    if a.cold:
        with tempfile.TemporaryDirectory() as cache:
            cold = child(LOAD, env={"NUMBA_CACHE_DIR": cache})
        print(f"compiling the engine with an empty cache: {cold:.1f} s of CPU")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
