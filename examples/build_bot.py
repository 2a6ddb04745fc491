"""A building bot: welds a whole ship from a random (seeded) stream of catalogue tiles, each where the
placement advisor ranks it best, and puts a tile back when the advisor says to set it aside.

Run from the repository root::

    python examples/build_bot.py --class I --seed 7
    python examples/build_bot.py --class III --seed 1 --no-exact --out /tmp/bot.toml

It prints the finished ship as a ship file (or writes it with ``--out``) and a summary on stderr. The
same seed gives the same stream, so the same ship. ``--no-exact`` ranks without the exact loss (fast).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

import shipcheck
from shipcheck.model import Ship
from shipcheck.shipfile import catalogue, dump_ship, parse_ship

#: weights while building the first three quarters: reward open connectors, spare free squares
EARLY = "exposed=-1.5,weld=0.5,blocked=1"


def tile_stream(edition: str, seed: int) -> list[str]:
    """The edition's catalogue tiles (no pilot cabins) in a random order drawn from ``seed``."""
    ids = [tid for tid, t in catalogue(edition).items() if t.kind != "start_cabin"]
    order = np.random.default_rng(seed).permutation(len(ids))
    return [ids[i] for i in order]


def build(cls: str = "I", *, seed: int = 0, tiles: int = 140, exact: bool = True, round: str | None = None,
          weigh: str | None = None, edition: str = "2007") -> tuple[Ship, dict[str, int]]:
    """The ship the bot builds from the first ``tiles`` tiles of the stream, and what it did.

    While most of the board is empty an open connector is where a later tile joins, not a flaw, and a
    square a barrel points at is lost for good: until three quarters of the buildable squares are used
    the bot weighs :data:`EARLY` over the advisor's weights (or ``weigh``), then those alone.
    """
    ship = parse_ship(f'format = 1\nclass = "{cls}"\n' + (f'edition = "{edition}"\n' if edition != "2007" else ""))
    ship = replace(ship, name=f"bot, seed {seed}")
    board = ship.board
    squares = sum(1 for i in range(board.size) if board.buildable(i, ship.dice))
    done = {"drawn": 0, "welded": 0, "put back": 0}
    for tid in tile_stream(edition, seed)[:tiles]:
        done["drawn"] += 1
        early = len(ship.tiles) < 0.75 * squares
        w = (EARLY + ("," + weigh if weigh else "")) if early else weigh
        advice = shipcheck.advise(ship, tid, round=round, weigh=w, exact=exact, credits=False, top=1)
        if advice.set_aside:
            done["put back"] += 1
            continue
        ship = advice.placements[0].ship
        done["welded"] += 1
    return ship, done


def main() -> None:
    ap = argparse.ArgumentParser(description="Build a ship from a seeded random tile stream with the advisor.")
    ap.add_argument("--class", dest="cls", default="I", help="ship class (a built-in board), default I")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tiles", type=int, default=140, help="tiles drawn from the stream (default: all 140)")
    ap.add_argument("--round", default=None, help="round whose cards weigh the loss (default: the class's)")
    ap.add_argument("--weigh", default=None, help="score weights, e.g. loss=3,exposed=1")
    ap.add_argument("--no-exact", dest="exact", action="store_false", help="rank without the exact loss")
    ap.add_argument("--out", type=Path, help="write the ship here instead of printing it")
    args = ap.parse_args()
    ship, done = build(args.cls, seed=args.seed, tiles=args.tiles, exact=args.exact, round=args.round,
                       weigh=args.weigh)
    report = shipcheck.check(ship)
    text = dump_ship(ship, comment=f"built by examples/build_bot.py --class {args.cls} --seed {args.seed} "
                                   f"--tiles {args.tiles}")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    sys.stderr.write(f"{done['drawn']} drawn, {done['welded']} welded, {done['put back']} put back; "
                     f"{'legal' if report.legal else 'ILLEGAL'}, {report.exposed_connectors} exposed connectors\n")


if __name__ == "__main__":
    main()
