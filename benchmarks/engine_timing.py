"""Shared by the exact-engine benchmarks: the machine line, and paired timings.

Times are CPU seconds of this process (``time.process_time``), so other load on a shared machine
inflates them less than wall time; each figure is the median of ``repeat`` runs, the new engine and
its baseline interleaved so both see the same load.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "tests"))  # the slow references (tests/oracle) the figures compare with
FULL_CLASS_III = (ROOT / "examples" / "class-III-hauler.toml", ROOT / "examples" / "class-IIIa-longboat.toml")


def header(name: str) -> None:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"# {name}  {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"machine: {platform.platform()} cpus={os.cpu_count()} python={platform.python_version()} "
          f"load={load[0]:.2f} (CPU seconds, medians)")
    print()


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def paired(new: Callable[[], Any], base: Callable[[], Any], repeat: int) -> tuple[float, float, Any, Any]:
    """Median CPU seconds of ``new`` and ``base`` run alternately ``repeat`` times, and their results."""
    tn, tb = [], []
    out_n = out_b = None
    for _ in range(repeat):
        t, out_n = cpu(new)
        tn.append(t)
        t, out_b = cpu(base)
        tb.append(t)
    return statistics.median(tn), statistics.median(tb), out_n, out_b


def exact_vs_fractions(ship: Any, attacks: Any, repeat: int) -> tuple[float, float, Any]:
    """Median CPU seconds of ``odds`` (the integer kernel) and of the Fraction engine it replaced on
    a fresh flight model, and the kernel's result; asserts they agree fraction for fraction."""
    from oracle.reference import forward_fractions  # the slow reference lives in the tests

    from shipcheck.flight.chain import FlightModel
    from shipcheck.flight.odds import odds

    tn, tb, r, (ref, _) = paired(lambda: odds(ship, attacks), lambda: forward_fractions(FlightModel(ship), attacks),
                                 repeat)
    assert r.distribution == ref, "the kernel and the Fraction engine disagree"
    return tn, tb, r
