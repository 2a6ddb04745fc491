"""How far the advisor's first rank builds a ship from seeded piles (issue 29, point 2).

Run from the repository root: ``python benchmarks/bench_piles.py --seeds 0-199``. For each seed, as
`tests/test_lookahead.py` walks it: from ``shipcheck new --class II``, the 2007 catalogue shuffled
by ``numpy.random.default_rng(seed).permutation``, 40 draws, each welded at the first rank of
:func:`shipcheck.advise` (``credits=False``; the exact loss on unless ``--no-exact``; ``--rollouts N``), a tile with
no legal placement put back. Prints one line per seed (tiles, legal, seconds) and the distribution
of the final tile counts; ``--verbose`` prints every draw's ranks and the ship after each weld.
``--best SECONDS`` instead searches every legal placement of every draw (depth first, the same
ship reached at the same draw searched once) for a ship of :data:`GOAL` tiles: the most tiles any
ranking can reach on the pile when the search ends before the time limit ("exhausted").
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import shipcheck  # noqa: E402
from shipcheck.check.starter import starter_ship  # noqa: E402
from shipcheck.render import render_ship_text  # noqa: E402
from shipcheck.shipfile import catalogue, parse_ship  # noqa: E402

DRAWS = 40
GOAL = 18


def walk(seed: int, *, exact: bool = True, rollouts: int = 0, verbose: bool = False) -> shipcheck.Ship:
    """The ship after :data:`DRAWS` draws of the pile ``seed``, each welded at the first rank."""
    ship = parse_ship(starter_ship("II"))
    cat = catalogue("2007")
    ids = list(cat)
    for n, k in enumerate(np.random.default_rng(seed).permutation(len(ids))[:DRAWS]):
        a = shipcheck.advise(ship, ids[k], credits=False, exact=exact, rollouts=rollouts)
        if verbose:
            t = cat[ids[k]]
            print(f"draw {n}: {ids[k]} {t.kind} {t.sides}: {len(a.placements)} placements")
            for p in a.placements:
                g = p.growth
                assert g is not None
                print(f"  {p.rank:2d} {p.square} rot {p.rot:3d} value {p.value:6.1f} score {p.score:+.2f} "
                      f"room {g.room} entrances {g.entrances} fit {g.fit:.2f} options {g.options:.2f} "
                      f"after {g.after:.2f} future {g.future}{' closed' if g.closed else ''}")
        if a.placements:
            ship = a.placements[0].ship
            if verbose:
                print(render_ship_text(ship))
    return ship


def best(seed: int, *, seconds: float) -> tuple[int, bool]:
    """The most tiles found by welding each drawn tile at any of its legal placements (a tile with
    one must be welded, as in :func:`walk`), and whether the search was exhausted below :data:`GOAL`."""
    from shipcheck.advice.legal import legal_placements

    cat = catalogue("2007")
    ids = list(cat)
    pile = [cat[ids[k]] for k in np.random.default_rng(seed).permutation(len(ids))[:DRAWS]]
    seen: set[tuple[int, frozenset[tuple[int, int, str | None]]]] = set()
    most = [0]
    end = time.monotonic() + seconds

    def search(ship: shipcheck.Ship, d: int) -> bool:
        n = len(ship.tiles)
        most[0] = max(most[0], n)
        if n >= GOAL or time.monotonic() > end:
            return True
        key = (d, frozenset((int(t.at), t.rot, t.id) for t in ship.tiles))
        if n + DRAWS - d < GOAL or key in seen:
            return False
        seen.add(key)
        cands = legal_placements(ship, pile[d])
        if not cands:
            return search(ship, d + 1)
        return any(search(c.ship, d + 1) for c in sorted(cands, key=lambda c: -c.report.exposed_connectors))

    search(parse_ship(starter_ship("II")), 0)
    return most[0], most[0] < GOAL and time.monotonic() <= end


def seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0-199", help="seeds, e.g. 0-199 or 50,57")
    ap.add_argument("--no-exact", dest="exact", action="store_false", help="rank without the exact loss")
    ap.add_argument("--rollouts", type=int, default=0, help="the advisor's rollouts (default 0, as place)")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--best", type=float, metavar="SECONDS", help="search every placement instead (time limit a seed)")
    args = ap.parse_args()
    if args.best is not None:
        for seed in seeds(args.seeds):
            most, done = best(seed, seconds=args.best)
            print(f"seed {seed}: {most} tiles at most" if done else f"seed {seed}: {most} tiles found", flush=True)
        return
    counts: collections.Counter[int] = collections.Counter()
    short = []
    for seed in seeds(args.seeds):
        t0 = time.process_time()
        ship = walk(seed, exact=args.exact, rollouts=args.rollouts, verbose=args.verbose)
        n, legal = len(ship.tiles), shipcheck.check(ship).legal
        counts[n] += 1
        if n < GOAL or not legal:
            short.append(seed)
        print(f"seed {seed}: {n} tiles, {'legal' if legal else 'ILLEGAL'}, {time.process_time() - t0:.1f} s CPU",
              flush=True)
    total = sum(counts.values())
    print("tiles: " + ", ".join(f"{n}: {c}" for n, c in sorted(counts.items())))
    print(f"{total - len(short)} of {total} seeds reach {GOAL} tiles legally, mean "
          f"{sum(n * c for n, c in counts.items()) / total:.1f}; short: {short or 'none'}")


if __name__ == "__main__":
    main()
