"""What a user feels, against a baseline installed beside the working tree (issue: one way to run the
engine). Each case runs as a whole process (or, for the in-process rates, in one process per tree),
both trees compiled and warm, no on-disk odds cache; prints the figures and the ratio now/baseline.

    python benchmarks/bench_runtime.py [--baseline 6c64870] [--repeat 3] [--only NAME ...] [--floor]

Both the baseline and the working tree's last commit are checked out with ``git worktree`` and
installed (as a user installs them, not editable) into venvs of their own under the user's cache
folder, once per commit; each command runs as its console script, from the repository (for the
example ships). ``--floor`` prints instead what a process pays before any work of ours (Python's start,
numpy's, Typer's and numba's imports, numba's first load of a cached function) against the baseline's
whole process in the cases that floor bounds. Figures go to stdout; record them in
benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HAULER = str(ROOT / "examples/class-III-hauler.toml")
HALF = str(ROOT / "examples/building/class-III-half.toml")
SIX = ["light-shot:right", "light-shot:left", "light-shot:front", "light-shot:front", "heavy-shot:rear",
       "heavy-shot:rear"]  # III-16's shots
SEVEN = ["large-meteor:front", "small-meteor:rear", "small-meteor:rear", "small-meteor:left", "small-meteor:left",
         "small-meteor:right", "small-meteor:right"]  # III-10's meteors
TWELVE = ["large-meteor:front", "small-meteor:left", "heavy-shot:front", "light-shot:right", "small-meteor:rear",
          "large-meteor:left", "light-shot:front", "small-meteor:right", "heavy-shot:left", "small-meteor:front",
          "large-meteor:right", "light-shot:rear"]

#: name -> (the shipcheck arguments, what is compared: "cpu", "wall" or "rss")
PROCESSES: dict[str, tuple[list[str], str]] = {
    "place (credits + exact loss)": (["place", HALF, "cannon:0111"], "wall"),
    "place --no-credits (exact loss)": (["place", HALF, "cannon:0111", "--no-credits"], "wall"),
    "odds --policy optimal, III-16's six shots": (
        ["odds", HAULER, *[x for a in SIX for x in ("--attack", a)], "--policy", "optimal", "--no-cache"], "cpu"),
    "odds --policy optimal, III-10": (
        ["odds", HAULER, *[x for a in SEVEN for x in ("--attack", a)], "--policy", "optimal", "--no-cache"], "cpu"),
    "odds, 12 attacks": (["odds", HAULER, *[x for a in TWELVE for x in ("--attack", a)], "--no-cache"], "wall"),
    "odds, 12 attacks (memory)": (["odds", HAULER, *[x for a in TWELVE for x in ("--attack", a)], "--no-cache"], "rss"),
    "small odds question": (["odds", str(ROOT / "examples/class-I-scout.toml"), "--attack", "small-meteor:front",
                             "--no-cache"], "cpu"),
    "check": (["check", str(ROOT / "examples/blue-round1.toml")], "cpu"),
    "odds --card III-16 --assume-weakest": (["odds", HAULER, "--card", "III-16", "--assume-weakest", "--no-cache"],
                                            "cpu"),
    "10,000-run class III round": (["simulate", HAULER, "--round", "3", "--runs", "10000", "--seed", "1"], "wall"),
}

INPROC = """
import time, shipcheck
from dataclasses import replace
from shipcheck import load_ship, odds, check
ship = load_ship("examples/class-III-hauler.toml")
t0 = time.perf_counter(); odds(ship, ["small-meteor:front"] * 4 + ["large-meteor:front"] * 3)
first = time.perf_counter() - t0
t0 = time.perf_counter(); odds(ship, ["small-meteor:left"] * 4 + ["large-meteor:left"] * 3)
second = time.perf_counter() - t0
ships = [load_ship(p) for p in ("examples/class-III-hauler.toml", "examples/class-IIIa-longboat.toml",
                                "examples/class-IIIC-torus.toml")]
n, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < 3:
    for s in ships:
        check(replace(s)); n += 1  # a fresh ship: a check keeps its layout on the ship it was given
rate = n / (time.perf_counter() - t0)
shipcheck.simulate_round(ship, round=3, runs=2000, seed=1)
t0 = time.perf_counter(); shipcheck.simulate_round(ship, round=3, runs=40000, seed=2)
rounds = 40000 / (time.perf_counter() - t0)
print(f"{first * 1000:.2f} {second * 1000:.2f} {rate:.0f} {rounds:.0f}")
"""

#: what a process pays before any work of ours (``--floor``): python's own start, the imports every
#: flying command needs, and numba's first load of a cached function (a one-loop sum)
FLOORS = {
    "python -c pass": "pass",
    "import numpy": "import numpy",
    "import numpy, typer": "import numpy, typer",
    "import numpy, typer, numba": "import numpy, typer, numba",
    "... and one cached function's first call": "import typer, numpy, tiny; tiny.f(numpy.arange(3))",
}
TINY = """import numba
@numba.njit(cache=True)
def f(a):
    s = 0
    for x in a:
        s += x
    return s
"""


def installed(rev: str) -> Path:
    """The Python of a venv holding ``rev`` installed (made once, under the user's cache folder)."""
    from platformdirs import user_cache_dir

    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], capture_output=True, text=True,
                         check=True).stdout.strip()
    home = Path(user_cache_dir("shipcheck", appauthor=False)) / f"bench-{rev}"
    tree, venv = home / "tree", home / "venv"
    if not (venv / "bin" / "shipcheck").exists():
        home.mkdir(parents=True, exist_ok=True)
        if not tree.exists():
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(tree)], check=True)
    return venv / "bin" / "python"


def run(python: Path, args: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(wall s, CPU s, max RSS MB) of ``python -m shipcheck ARGS`` as a process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # GNU time reports this command's own peak memory (getrusage's is the largest child of the run)
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", str(python.with_name("shipcheck")), *args], cwd=ROOT, env=env,
                          capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{python} shipcheck {' '.join(args)}: exit {proc.returncode}\n{proc.stderr.decode()[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, int(proc.stderr.decode().strip().splitlines()[-1]) / 1024


def floors(python: Path, baseline: Path, repeat: int) -> None:
    """The CPU a process pays before any work (:data:`FLOORS`), against the baseline's whole process
    in the cases a numpy (or numba) process cannot reach: the least ratio any tree can have on them.
    Interleaved, each a median of ``repeat`` runs (this machine's speed drifts within minutes)."""
    import tempfile

    cases = {"small odds question": "import numpy, typer", "odds --policy optimal, III-10": "import numpy, typer",
             "place --no-credits (exact loss)": "... and one cached function's first call",
             "odds --policy optimal, III-16's six shots": "... and one cached function's first call"}
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "tiny.py").write_text(TINY)
        env = {**os.environ, "NUMBA_CACHE_DIR": tmp, "PYTHONPATH": tmp, "OPENBLAS_NUM_THREADS": "1"}  # as the CLI
        cmds = {name: ([str(python), "-c", code], env) for name, code in FLOORS.items()}
        cmds |= {case: ([str(baseline.with_name("shipcheck")), *PROCESSES[case][0]],
                        {**os.environ, "SHIPCHECK_NO_CACHE": "1"}) for case in cases}
        got: dict[str, list[float]] = {name: [] for name in cmds}
        for i in range(repeat + 1):  # the first round compiles and caches, untimed
            for name, (argv, e) in cmds.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run(argv, env=e, cwd=ROOT, check=False, capture_output=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if i:
                    got[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    cpu = {name: statistics.median(v) for name, v in got.items()}
    for name in FLOORS:
        print(f"{name:44} {cpu[name]:6.3f}s CPU")
    for case, floor in cases.items():
        print(f"{case:44} baseline {cpu[case]:.3f}s CPU; floor ({floor}) / baseline {cpu[floor] / cpu[case]:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", default="6c64870")
    ap.add_argument("--now", default="HEAD", help="the commit measured as the working tree (installed)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--floor", action="store_true", help="only what a process pays before any work (FLOORS)")
    a = ap.parse_args()
    trees = {"baseline": installed(a.baseline), "now": installed(a.now)}
    if a.floor:
        return floors(trees["now"], trees["baseline"], a.repeat)
    env = {**os.environ, "SHIPCHECK_NO_CACHE": "1", "OPENBLAS_NUM_THREADS": "1"}
    print(f"# bench_runtime {datetime.datetime.now().isoformat(timespec='seconds')} on {platform.node()} "
          f"({os.cpu_count()} CPUs, {platform.python_version()}), load {os.getloadavg()[0]:.2f}; "
          f"baseline {a.baseline}")
    for python in trees.values():  # compiled and warm: every case once, untimed
        subprocess.run([str(python.with_name("shipcheck")), "compile"], cwd=ROOT, env=env, capture_output=True)
        for args, _ in PROCESSES.values():
            run(python, args, env)
    print(f"{'case':40} {'what':5} {'baseline':>10} {'now':>10} {'now/base':>9}")
    for name, (args, what) in PROCESSES.items():
        if a.only and not any(o in name for o in a.only):
            continue
        got: dict[str, list[float]] = {k: [] for k in trees}
        for _ in range(a.repeat):
            for k, python in trees.items():  # interleaved: a busy minute weighs on both
                wall, cpu, rss = run(python, args, env)
                got[k].append({"wall": wall, "cpu": cpu, "rss": rss}[what])
        b, n = statistics.median(got["baseline"]), statistics.median(got["now"])
        unit = "MB" if what == "rss" else "s"
        print(f"{name:40} {what:5} {b:9.2f}{unit[0]} {n:9.2f}{unit[0]} {n / b:8.2f}x")
    if not a.only:
        rows = {}
        for k, python in trees.items():
            out = subprocess.run([str(python), "-I", "-c", INPROC.replace("examples/", str(ROOT / "examples") + "/")],
                                 cwd=ROOT, env=env, capture_output=True, text=True)
            rows[k] = [float(x) for x in out.stdout.split()] if out.returncode == 0 else None
        labels = ("7-meteor odds, first call (ms)", "7-meteor odds, second call (ms)", "checker, class III ships/s",
                  "class III rounds/s in-process")
        for i, label in enumerate(labels):
            b, n = (rows[k][i] if rows[k] else float("nan") for k in ("baseline", "now"))
            print(f"{label:40} {'':5} {b:10.1f} {n:10.1f} {n / b:8.2f}x")


if __name__ == "__main__":
    main()
