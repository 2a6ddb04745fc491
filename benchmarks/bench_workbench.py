"""Server time of the workbench's answer to an edit, on class III ships (issue #20: within 50 ms).

Run from the repository root: ``python benchmarks/bench_workbench.py [--repeat N]``. After every edit
the page posts the ship to ``POST /api/analyze`` and draws the answer: the check (rule breaks,
exposed connectors), the ship's parameters (stats), the drawing, and the minimal repair when the
ship is illegal. This script times that request through the application in-process (Starlette's
test client: JSON decoding, the ship document turned into a ship file and parsed, the work, JSON
encoding), as wall-clock and CPU time, and the part the server reports itself (``ms`` in the
answer, the ``Server-Timing`` header: the work alone). For an illegal ship the page then asks
``POST /api/fix`` for the minimal repair (an integer program), and with a tile in hand
``POST /api/place`` (the advisor's quick ranking): both timed too. Median and 95th percentile of N runs
after one warm-up run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
import tomllib
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from shipcheck.serve.app import create_app  # noqa: E402
from shipcheck.serve.workspace import Workspace  # noqa: E402
from shipcheck.shipfile import dump_ship, load_ship  # noqa: E402

TOKEN = "bench"


def illegal_hauler() -> dict[str, Any]:
    """The hauler with four tiles turned a quarter: joints break, pieces fall off, the repair is needed."""
    s = load_ship(ROOT / "examples" / "class-III-hauler.toml")
    tiles = list(s.tiles)
    for k in (3, 9, 15, 21):
        tiles[k] = replace(tiles[k], rot=(tiles[k].rot + 1) % 4)
    return tomllib.loads(dump_ship(replace(s, tiles=tuple(tiles))))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def measure(client: TestClient, path: str, body: dict[str, Any], repeat: int) -> dict[str, Any]:
    client.post(path, json=body)  # warm-up
    wall, cpu, own = [], [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        r = client.post(path, json=body)
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        assert r.status_code == 200, r.text
        ms = r.json().get("ms")
        if ms is not None:
            own.append(float(ms))
    out = r.json()
    return {"wall": wall, "cpu": cpu, "own": own, "answer": out}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=100)
    args = ap.parse_args()
    ws = Workspace.start(ROOT)
    client = TestClient(create_app(ws, TOKEN, host="testserver"), headers={"Authorization": f"Bearer {TOKEN}"})
    hauler = tomllib.loads((ROOT / "examples" / "class-III-hauler.toml").read_text(encoding="utf-8"))
    half = tomllib.loads((ROOT / "examples" / "building" / "class-III-half.toml").read_text(encoding="utf-8"))
    longboat = tomllib.loads((ROOT / "examples" / "class-IIIa-longboat.toml").read_text(encoding="utf-8"))
    cases = [
        ("class III hauler (legal)", "/api/analyze", {"ship": hauler}),
        ("class III hauler, 4 tiles turned (illegal)", "/api/analyze", {"ship": illegal_hauler()}),
        ("... its minimal repair, asked next by the page", "/api/fix", {"ship": illegal_hauler()}),
        ("class IIIa longboat (legal)", "/api/analyze", {"ship": longboat}),
        ("class III half built, tile 2007:64 in hand (advisor, quick)", "/api/place", {"ship": half, "tile": "2007:64"}),
    ]
    print(f"date: {dt.datetime.now().astimezone().isoformat(timespec='seconds')}; machine: {platform.platform()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; python {platform.python_version()}")
    print(f"{args.repeat} requests each after one warm-up, in-process (Starlette test client); milliseconds")
    print()
    print("| request | tiles | violations | work (server's `ms`), median / p95 | whole request wall, median / p95 "
          "| whole request CPU, median |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, path, body in cases:
        m = measure(client, path, body, args.repeat)
        a = m["answer"]
        tiles = len(body["ship"].get("tile", []))
        viol = len(a["check"]["violations"]) if "check" in a else f"lost {a['lost']}" if "lost" in a else "–"
        own = f"{statistics.median(m['own']):.1f} / {pct(m['own'], 0.95):.1f}" if m["own"] else "–"
        print(f"| {name} | {tiles} | {viol} | {own} | {statistics.median(m['wall']):.1f} / {pct(m['wall'], 0.95):.1f} "
              f"| {statistics.median(m['cpu']):.1f} |")


if __name__ == "__main__":
    main()
