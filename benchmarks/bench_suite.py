"""The README's test command as a newcomer meets it: wall time and the CPU of every process.

    python benchmarks/bench_suite.py [--cold] [--workers N]

Runs ``python -m pytest -n N -q -p no:cacheprovider`` in this checkout (N: ``auto``, every core) and
prints the wall time, the CPU time of the test processes and their children (user + system), the
load average before and after, and the machine's CPU count. ``--cold`` first deletes numba's disk
cache of this checkout (``*.nbi``/``*.nbc`` under ``shipcheck/``), as after a fresh install, so the
round engine and the compiled flight pass are compiled again during the run. On a shared machine
the wall time follows the load; the CPU time is the figure to compare.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cold", action="store_true", help="delete numba's disk cache first (a fresh install)")
    ap.add_argument("--workers", default="auto", help="pytest-xdist workers (-n); default auto")
    args = ap.parse_args()
    if args.cold:
        gone = [p for p in (ROOT / "shipcheck").rglob("*.nb[ic]")]
        for p in gone:
            p.unlink()
        print(f"cold: {len(gone)} numba cache files deleted")
    load0 = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", args.workers, "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "(no output)"
    print(f"pytest -n {args.workers}: {summary}")
    print(f"wall {wall:.0f} s, CPU {cpu:.0f} s (user + system, every process); CPUs {os.cpu_count()}")
    print(f"load average before {load0[0]:.1f}, after {os.getloadavg()[0]:.1f}")
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
