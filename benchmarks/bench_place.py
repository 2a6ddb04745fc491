"""Time to rank every placement of a tile on a half-built class III ship by exposure and exact loss.

Run from the repository root: ``python benchmarks/bench_place.py``. The ship is
``examples/building/class-III-half.toml`` (20 tiles); the tiles are 2007 catalogue tiles of several
kinds. For each, :func:`shipcheck.advise` (round 3: 15 attack cards, exact engine) is timed against
a from-scratch ranking in the same process: every square and every rotation welded and checked in
full, and every legal placement flown through every card with a fresh flight model and the ship
before recomputed each time. Both must give the same numbers (asserted). One core, median of runs.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipcheck.advice import advise, parse_tile  # noqa: E402
from shipcheck.advice.legal import weld  # noqa: E402
from shipcheck.advice.roundcards import round_cards  # noqa: E402
from shipcheck.check.rules import check  # noqa: E402
from shipcheck.flight.odds import odds  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402

SHIP = ROOT / "examples" / "building" / "class-III-half.toml"
TILES = ("2007:5", "2007:16", "2007:35", "2007:49", "2007:64", "2007:90", "2007:115", "2007:123")


def from_scratch(ship, spec: str) -> list[tuple[int, int, Fraction, int]]:
    """(square, rot, Δloss, Δexposed) of every legal placement, recomputing everything each time."""
    hand = parse_tile(spec)
    rc = round_cards("3")
    out = []
    for at in range(ship.board.size):
        if ship.tile_at(at) is not None:
            continue
        seen = set()
        for rot in range(4):
            new = weld(ship, hand, at, rot)
            t = new.tile_at(at)
            key = (t.eff, tuple(sorted(t.barrels)), tuple(sorted(t.exhausts)), tuple(sorted(t.covers)))
            before = check(ship)
            after = check(new)
            if key in seen or not {v.key() for v in after.errors} <= {v.key() for v in before.errors}:
                continue
            seen.add(key)
            loss0 = sum((w * odds(ship, c.attacks()).expected_lost for c, w in rc.cards), Fraction(0))
            loss1 = sum((w * odds(new, c.attacks()).expected_lost for c, w in rc.cards), Fraction(0))
            out.append((at, rot, loss1 - loss0, after.exposed_connectors - before.exposed_connectors))
    return out


def timed(fn, runs: int) -> tuple[float, object]:
    times, res = [], None
    for _ in range(runs):
        t0 = time.process_time()
        res = fn()
        times.append(time.process_time() - t0)
    return statistics.median(times), res


def main() -> None:
    ship = load_ship(SHIP)
    print(f"date: {dt.datetime.now().astimezone().isoformat(timespec='seconds')}; machine: {platform.platform()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; python {platform.python_version()}")
    print(f"ship: {SHIP.relative_to(ROOT)} ({len(ship.tiles)} tiles), round 3 ({len(round_cards('3').cards)} attack "
          "cards); CPU seconds, median of 3 (from scratch: 1 run)")
    print()
    print("| tile | kind | legal placements | flown | advise (s) | from scratch (s) | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for spec in TILES:
        hand = parse_tile(spec)
        t_inc, a = timed(lambda spec=spec: advise(ship, spec, round=3, credits=False), 3)
        t_raw, raw = timed(lambda spec=spec: from_scratch(ship, spec), 1)
        got = sorted((p.index, p.turns, p.loss, p.exposed) for p in a.placements)  # type: ignore[attr-defined]
        if got != sorted(raw):  # type: ignore[arg-type]
            raise SystemExit(f"{spec}: advise and the from-scratch ranking disagree")
        flown = len({(p.index, p.loss, p.own) for p in a.placements})  # type: ignore[attr-defined]
        print(f"| {spec} | {hand.kind} | {len(got)} | {flown} | {t_inc:.2f} | {t_raw:.2f} | {t_raw / t_inc:.1f}x |")


if __name__ == "__main__":
    main()
