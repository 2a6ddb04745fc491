"""Time of a strategy report for a class III ship on one core, stage by stage.

    python benchmarks/bench_report.py [--ship examples/class-III-hauler.toml] [--runs 2000] [--repeat 3]

Pins the process to one CPU, then times `shipcheck.report(...)` (check, exact meteor odds, the
round flown, the search for better variants) and `Report.write` (every figure drawn as PNG and
SVG, the page). Two ratios against baselines measured in the same process:

- saving a figure the ordinary matplotlib way (constrained layout, tight bounding box: the figure
  is drawn two to three times) against the report's hand-laid figures (drawn once);
- common random numbers: the variance of a change's run-by-run credit differences against the
  variance the same difference would have if the change flew its own decks and dice. Their ratio is
  how many times more rounds an unpaired comparison would need for the same interval.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ship", default=str(ROOT / "examples" / "class-III-hauler.toml"))
    ap.add_argument("--runs", type=int, default=None, help="rounds flown (default: the report's default)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    import numpy as np

    import shipcheck
    from shipcheck.report import RUNS, plots
    from shipcheck.report.output import DPI, render

    runs = args.runs or RUNS
    print(f"# bench_report  {datetime.date.today()}  {platform.platform()}  cpus used=1 of {os.cpu_count()} "
          f"python={platform.python_version()} numpy={np.__version__}")
    print(f"ship {Path(args.ship).name}, runs {runs}, seed {args.seed}")
    totals, writes, stages_all = [], [], []
    rep = None

    def now() -> tuple[float, float]:
        return time.perf_counter(), time.process_time()  # wall and CPU: the machine may be shared

    for _ in range(args.repeat):
        marks: list[tuple[str, tuple[float, float]]] = []
        stamp = marks.append
        t0 = now()
        rep = shipcheck.report(args.ship, runs=runs, seed=args.seed,
                               progress=lambda stage, stamp=stamp: stamp((stage, now())))
        t1 = now()
        with tempfile.TemporaryDirectory() as d:
            rep.write(Path(d) / "r")
        t2 = now()
        totals.append((t2[0] - t0[0], t2[1] - t0[1]))
        writes.append((t2[0] - t1[0], t2[1] - t1[1]))
        ends = [t for _, t in marks[1:]] + [t1]
        stages_all.append({name: (end[0] - start[0], end[1] - start[1])
                           for (name, start), end in zip(marks, ends, strict=True)})
    assert rep is not None

    def med(xs: list[tuple[float, float]]) -> str:
        return f"{statistics.median(x[0] for x in xs):9.2f} {statistics.median(x[1] for x in xs):9.2f}"

    print(f"{'stage':<40} {'wall s':>9} {'CPU s':>9}  (medians)")
    for name in stages_all[0]:
        print(f"{name:<40} {med([st[name] for st in stages_all])}")
    print(f"{'drawing and writing the files':<40} {med(writes)}")
    print(f"{'whole report':<40} {med(totals)}")
    s = rep.ships[0]
    if s.advice is not None:
        print(f"variants screened {s.advice.screened}, measured {len(s.advice.effects)}, "
              f"screen runs {s.advice.screen_runs}, final runs {s.advice.runs}")

    # baseline 1: figures laid out and saved the ordinary way
    def ordinary(view) -> float:  # type: ignore[no-untyped-def]
        from matplotlib.figure import Figure

        fig = Figure(figsize=plots.ship_figure(view).get_size_inches(), layout="constrained")
        plots.plot_ship(view, ax=fig.add_subplot())
        t = time.perf_counter()
        fig.savefig(io.BytesIO(), format="png", dpi=DPI, bbox_inches="tight")
        return time.perf_counter() - t

    def ours(fig) -> float:  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        render(fig, "png")
        return time.perf_counter() - t

    a = statistics.median(ordinary(s.view) for _ in range(5))
    b = statistics.median(ours(plots.ship_figure(s.view)) for _ in range(5))
    print(f"ship figure PNG: ordinary {a * 1000:.0f} ms, hand-laid {b * 1000:.0f} ms, ratio {a / b:.1f}x")

    # baseline 2: common random numbers against independent streams
    if s.advice is not None and s.advice.effects:
        from shipcheck import simulate_round

        e = s.advice.effects[0]
        n = s.advice.runs
        base = simulate_round(s.flown, round=rep.round, runs=n, seed=s.advice.seed).players[0]
        var = simulate_round(e.variant.ship, round=rep.round, runs=n, seed=s.advice.seed,
                             policy=e.variant.policy).players[0]
        paired = np.var(var.credits.astype(float) - base.credits, ddof=1)
        unpaired = np.var(var.credits.astype(float), ddof=1) + np.var(base.credits.astype(float), ddof=1)
        print(f"best change '{e.variant.text}': variance of paired differences {paired:.2f}, unpaired {unpaired:.2f}, "
              f"ratio {unpaired / max(paired, 1e-12):.1f}x fewer rounds for the same interval")


if __name__ == "__main__":
    main()
