"""The first whole round after installing: ``shipcheck simulate SHIP --round R`` (10,000 runs) with an
empty compiled cache (a fresh install: it compiles the round engine first, with its bar), then the
same command again (loaded from the cache), and ``shipcheck compile`` with an empty cache; wall and
CPU seconds of each whole process, and the compile's seconds per entry point (the cache's marks).

    python benchmarks/bench_first_round.py [--classes II,III]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPS = {"I": ("examples/class-I-scout.toml", "1"), "II": ("examples/class-II-freighter.toml", "2"),
         "III": ("examples/class-III-hauler.toml", "3")}


def timed(args: list[str], cache: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``shipcheck ARGS`` with numba's cache in ``cache``."""
    env = {k: v for k, v in os.environ.items() if k != "SHIPCHECK_JIT"}
    env["NUMBA_CACHE_DIR"] = cache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "shipcheck", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", default="II,III")
    a = ap.parse_args()
    print(f"# bench_first_round {datetime.datetime.now():%Y-%m-%d %H:%M}, {platform.platform()}, "
          f"{os.cpu_count()} CPUs, python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    for cls in a.classes.split(","):
        ship, rnd = SHIPS[cls]
        args = ["simulate", ship, "--round", rnd, "--seed", "1", "-q"]
        with tempfile.TemporaryDirectory() as cache:
            fw, fc = timed(args, cache)
            ww, wc = timed(args, cache)
        print(f"class {cls}: first round {fw:.1f} s wall ({fc:.1f} s CPU); the next {ww:.1f} s wall ({wc:.1f} s CPU)",
              flush=True)
    with tempfile.TemporaryDirectory() as cache:
        w, c = timed(["compile"], cache)
        parts = {p.stem: float(p.read_text()) for p in Path(cache).glob("numba-*/*.done")}
    print(f"shipcheck compile, empty cache: {w:.1f} s wall ({c:.1f} s CPU); per entry point (s): {parts}")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
