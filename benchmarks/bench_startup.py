"""Whole-process time of each command, as a user feels it (start-up included).

Runs every command as a fresh process several times and prints the median CPU time (user + system,
of the child) and wall time, next to the floor of an empty Python process and to ``python -c
"import typer"`` (issue 17's budget: `check` at most 2x the CPU of importing Typer). Bytecode caching is on
(``PYTHONDONTWRITEBYTECODE`` is dropped from the children's environment, and one unmeasured run per
command writes the ``.pyc`` files first), as on a user's machine; ``--no-bytecode`` measures the
other case. Usage::

    python benchmarks/bench_startup.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLUE = "examples/blue-round1.toml"
HAULER = "examples/class-III-hauler.toml"
COMMANDS = {
    "python -c pass (floor)": [sys.executable, "-c", "pass"],
    "import typer (budget unit)": [sys.executable, "-c", "import typer"],
    "import shipcheck": [sys.executable, "-c", "import shipcheck"],
    "check": ["-m", "shipcheck", "check", BLUE],
    "check --format json": ["-m", "shipcheck", "check", "--format", "json", BLUE],
    "show": ["-m", "shipcheck", "show", BLUE],
    "rules C1": ["-m", "shipcheck", "rules", "C1"],
    "odds --card I-09 (answer cached)": ["-m", "shipcheck", "odds", BLUE, "--card", "I-09"],
    "odds --card I-09 --no-cache": ["-m", "shipcheck", "odds", BLUE, "--card", "I-09", "--no-cache"],
    "stats": ["-m", "shipcheck", "stats", BLUE],
    "fix": ["-m", "shipcheck", "fix", "examples/mistakes/loose-piece.toml"],
    "simulate --card I-09 -n 10000": ["-m", "shipcheck", "simulate", BLUE, "--card", "I-09", "-n", "10000",
                                      "--seed", "1"],
    "simulate --round 1 -n 2000": ["-m", "shipcheck", "simulate", BLUE, "--round", "1", "-n", "2000", "--seed", "1"],
    "place --no-credits (class I)": ["-m", "shipcheck", "place", "examples/building/class-I-start.toml", "cannon:0111",
                                     "--no-credits"],
    "place (credits, class I)": ["-m", "shipcheck", "place", "examples/building/class-I-start.toml", "cannon:0111"],
    "tiles": ["-m", "shipcheck", "tiles"],
    "check (class III)": ["-m", "shipcheck", "check", HAULER],
}


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of the command."""
    argv = args if args[0] == sys.executable else [sys.executable, *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--no-bytecode", action="store_true", help="measure with PYTHONDONTWRITEBYTECODE=1")
    ap.add_argument("--only", nargs="*", help="only the rows whose names start with these words")
    opts = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["NO_COLOR"] = "1"
    if opts.no_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    floor = None
    typer_cpu = None
    print(f"{'command':34} {'CPU median':>11} {'wall median':>12} {'x floor':>8} {'x typer':>8}")
    for name, args in COMMANDS.items():
        if opts.only and not name.startswith(("python", "import typer", *opts.only)):
            continue
        measure(args, env)  # warm-up: writes the bytecode cache, loads the odds cache, compiles numba
        runs = [measure(args, env) for _ in range(opts.repeat)]
        cpu = statistics.median(r[0] for r in runs)
        wall = statistics.median(r[1] for r in runs)
        if floor is None:
            floor = cpu or 1e-9
        if name.startswith("import typer"):
            typer_cpu = cpu or 1e-9
        ratio = f"{cpu / typer_cpu:8.2f}" if typer_cpu else f"{'':8}"
        print(f"{name:34} {cpu * 1000:9.0f} ms {wall * 1000:10.0f} ms {cpu / floor:8.1f} {ratio}")


if __name__ == "__main__":
    main()
