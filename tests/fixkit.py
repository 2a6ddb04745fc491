"""A slow reference for `fix`: every removal set, fewest first, with `check` as the judge.

It lives in the tests (never in the package): the work doubles with every tile.
"""

from __future__ import annotations

from itertools import combinations

from shipcheck.check.fix import CONSTRUCTION
from shipcheck.check.rules import check
from shipcheck.model import Ship


def brute_force_fix(ship: Ship, max_tiles: int = 12) -> int | None:
    """The minimum lost over every removal set; ``None`` when no removal makes the ship legal (a
    pilot cabin off the start square, B2). On boards with a start square the pilot cabin stays
    (contract)."""
    if any(v.code == "B2" for v in check(ship).violations):
        return None
    squares = sorted(t.at for t in ship.tiles)
    if len(squares) > max_tiles:
        raise ValueError(f"{len(squares)} tiles: brute force is limited to {max_tiles}")
    pilot = ship.pilot
    must = pilot.at if ship.board.start is not None and pilot is not None and pilot.at == ship.board.start else None
    for lost in range(len(squares) + 1):
        for gone in combinations(squares, lost):
            if must is not None and must in gone:
                continue
            report = check(ship.without(set(gone)))
            if not any(v.code in CONSTRUCTION or v.code == "B2" for v in report.violations):
                return lost
    return None
