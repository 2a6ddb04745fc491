"""Whole-process cost of `shipcheck fix`, and what the solver's import costs.

Run from the repository root: ``python benchmarks/bench_fix_process.py [--runs N]``. Every figure is
the CPU time (user + system) of a fresh Python process, median of ``--runs`` runs:

- bare interpreter, ``import highspy`` (the solver now) and ``import scipy.optimize`` (the solver
  before, when scipy is installed), so the import saving is seen on its own;
- ``shipcheck fix`` on a ship that needs repair, as a user runs it (the installed entry point);
- the same repair through the library in a fresh process (``load_ship`` + ``fix`` + JSON), which
  is what the command costs once its own start-up is out of the way.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIP = ROOT / "examples" / "mistakes" / "loose-piece.toml"
LIBRARY_FIX = (
    "import json\n"
    "from shipcheck.shipfile import load_ship\n"
    "from shipcheck.check.fix import fix\n"
    f"print(json.dumps(fix(load_ship({str(SHIP)!r})).to_dict()))\n"
)


def cpu(cmd: list[str]) -> float:
    """User + system CPU seconds of one run of ``cmd`` (a child process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median_cpu(cmd: list[str], runs: int) -> float:
    return statistics.median(cpu(cmd) for _ in range(runs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    runs = ap.parse_args().runs
    py = sys.executable
    exe = shutil.which("shipcheck", path=str(Path(py).parent)) or shutil.which("shipcheck")
    print(f"machine: {platform.platform()}, {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}; "
          f"python {platform.python_version()}; median of {runs} runs, CPU seconds (user + system)")
    print()
    print("| process | CPU s |")
    print("|---|---:|")
    rows = [("python -c pass", [py, "-c", "pass"]),
            ("python -c 'import highspy'", [py, "-c", "import highspy"])]
    try:
        import scipy  # noqa: F401

        rows.append(("python -c 'import scipy.optimize' (the solver before)", [py, "-c", "import scipy.optimize"]))
    except ImportError:
        pass
    if exe:
        rows.append((f"shipcheck fix {SHIP.relative_to(ROOT)}", [exe, "fix", str(SHIP)]))
    rows.append(("library: load_ship + fix + JSON", [py, "-c", LIBRARY_FIX]))
    for label, cmd in rows:
        print(f"| {label} | {median_cpu(cmd, runs):.3f} |")


if __name__ == "__main__":
    main()
