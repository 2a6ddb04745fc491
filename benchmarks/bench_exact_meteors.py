"""Ten meteors in a row on a full class III ship, exactly: the integer kernel against the Fraction engine.

Row of issue #12: "exact odds, 10 meteors in a row on a full class III ship" (target: 0.1 s). Four
sequences: ten small meteors from the front, ten large ones from the front, the seven of card
III-10 then the first three of III-11, and ten meteors turning round the ship. The baseline is
``tests/oracle/reference.py``'s ``forward_fractions`` (the engine as it was), in the same process.

Columns: ``odds`` as a library call in a process that has used it before (large distributions go
to the engine's compiled pass, ``shipcheck.engine.exact.forward``, small ones stay in Python); the Python kernel
alone (``shipcheck.runtime.state.force = "plain"``); the Fraction engine. Then whole ``shipcheck odds``
processes on the largest case, where the first use of numba in a process costs its import and
start (about half a second).

    python benchmarks/bench_exact_meteors.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

from engine_timing import FULL_CLASS_III, ROOT, cpu, header
from oracle.reference import forward_fractions  # the slow reference lives in the tests

from shipcheck import runtime
from shipcheck.cards import find_card
from shipcheck.flight.chain import FlightModel, parse_attack
from shipcheck.flight.odds import odds
from shipcheck.shipfile import load_ship

SIDES = ("front", "right", "rear", "left")


def sequences() -> dict[str, list]:  # type: ignore[type-arg]
    return {
        "10 small front": [parse_attack("small-meteor:front")] * 10,
        "10 large front": [parse_attack("large-meteor:front")] * 10,
        "III-10 + III-11[:3]": list(find_card("III-10").attacks()) + list(find_card("III-11").attacks())[:3],
        "10 round the ship": [parse_attack(f"{'small' if i % 2 else 'large'}-meteor:{SIDES[i % 4]}")
                              for i in range(10)],
    }


def python_odds(ship, atk):  # type: ignore[no-untyped-def]
    runtime.state.force = "plain"
    try:
        return odds(ship, atk)
    finally:
        runtime.state.force = None


def process_cpu(engine: str, path: str, atk: list, repeat: int) -> float:  # type: ignore[type-arg]
    """Median CPU seconds of a whole ``shipcheck odds`` process (``engine``: "plain" sets SHIPCHECK_JIT=0)."""
    args = [sys.executable, "-m", "shipcheck", "odds", path, "--no-cache", "--format", "json"]
    for a in atk:
        args += ["-a", str(a)]
    env = {**os.environ, **({"SHIPCHECK_JIT": "0"} if engine == "plain" else {})}
    times = []
    for _ in range(repeat):
        before = os.times()
        subprocess.run(args, cwd=ROOT, env=env, check=True, capture_output=True)
        after = os.times()
        times.append(after.children_user - before.children_user + after.children_system - before.children_system)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    header("bench_exact_meteors")
    odds(load_ship(FULL_CLASS_III[0]), sequences()["10 round the ship"])  # numba's import, start and cache load
    print("| ship | meteors | final states | odds s | Python kernel s | Fraction engine s | odds vs Fraction "
          "| odds vs Python kernel |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for path in FULL_CLASS_III:
        ship = load_ship(path)
        for name, atk in sequences().items():
            tn, tp, tb = [], [], []
            for _ in range(args.repeat):  # interleaved, so all three see the same load
                t, r = cpu(lambda: odds(ship, atk))  # noqa: B023
                tn.append(t)
                t, rp = cpu(lambda: python_odds(ship, atk))  # noqa: B023
                tp.append(t)
                t, (ref, _) = cpu(lambda: forward_fractions(FlightModel(ship), atk))  # noqa: B023
                tb.append(t)
            assert r.weights == rp.weights and r.distribution == ref, "the engines disagree"
            n, p, b = (statistics.median(x) for x in (tn, tp, tb))
            worst = max(worst, n)
            print(f"| {path.stem} | {name} | {len(r.weights)} | {n:.4f} | {p:.4f} | {b:.4f} | {b / n:.1f}x "
                  f"| {p / n:.1f}x |")
    print()
    print(f"slowest odds call: {worst:.4f} s")
    print()
    atk = sequences()["10 round the ship"]
    path = str(FULL_CLASS_III[0].relative_to(ROOT))
    reps = max(3, args.repeat // 2)
    print(f"`shipcheck odds {path}` with the 10 meteors round the ship, whole process (CPU s, median of {reps}):")
    for engine in ("plain", "auto"):
        print(f"- {engine}: {process_cpu(engine, path, atk, reps):.3f}")


if __name__ == "__main__":
    main()
