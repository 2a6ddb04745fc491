"""The checker against the checker of an earlier commit, in one process, interleaved.

Run from the repository root: ``python benchmarks/bench_check_revision.py [REV]`` (default
``HEAD``; a clean tree makes that the checker itself). ``shipcheck/check/rules.py`` as it stood at REV is
loaded as a second module of the package (the rest of the package is today's) and timed side by
side with today's on the ships of ``bench_check_fix.py``: best of many short runs, so the ratio holds
on a loaded machine. Both must give the same violations, messages included.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout, not installed
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_check_fix import SEED, messy_ship, paired_rates  # noqa: E402

from shipcheck.check.rules import check  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402


def rules_at(rev: str) -> ModuleType:
    """``shipcheck/check/rules.py`` at ``rev``, as the module ``shipcheck._rules_at_rev``."""
    text = subprocess.run(["git", "show", f"{rev}:shipcheck/check/rules.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rules.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location("shipcheck._rules_at_rev", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    return mod


def main() -> None:
    rev = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    old = rules_at(rev)
    rng = np.random.default_rng(SEED)
    ships = {
        "III full, messy": messy_ship("III", rng),
        "IIIC full torus, messy": messy_ship("IIIC", rng, thrusters=3),
        "examples/class-III-hauler.toml": load_ship(ROOT / "examples" / "class-III-hauler.toml"),
    }
    print(f"date: {dt.datetime.now().astimezone().isoformat(timespec='seconds')}; "
          f"load average {os.getloadavg()[0]:.1f}; checker at {rev} vs the working tree")
    print()
    print(f"| ship | violations | checks/s at {rev} | checks/s now | ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, s in ships.items():
        new_v, old_v = check(s).violations, old.check(s).violations
        if [(v.code, v.cells, v.message) for v in new_v] != [(v.code, v.cells, v.message) for v in old_v]:
            raise SystemExit(f"{name}: the two checkers disagree")
        then, now = paired_rates([lambda s=s: old.check(s), lambda s=s: check(s)], rounds=60)
        print(f"| {name} | {len(new_v)} | {then:,.0f} | {now:,.0f} | {now / then:.2f}x |")
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
