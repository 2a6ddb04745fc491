"""Where a tile may be welded: every square and rotation that adds no rule break to the ship.

The ship being built may be incomplete or already illegal; a placement is legal when the ship with
the tile welded has no error the ship did not have before (same code on the same squares). That
covers every rule the issue names: the square is on the board (B1), the tile is joined to the ship
by a legal connector (else it is a loose piece, S1), it breaks no joint (C1, C2, C3), its exhaust
points to the rear and is free (E1, E2), its barrels are free (K1), and it does not stand behind an
existing exhaust or in front of an existing barrel (E2, K1). Candidate squares are the empty ones
beside a tile (or anywhere in a hull with no tile yet); each is judged by the checker itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..model import AsideTile, Ship, Tile
from ..rules import CheckReport, Layout, check, geometry

__all__ = ["Candidate", "distinct_rotations", "legal_placements", "weld"]


def distinct_rotations(tile: AsideTile | Tile) -> tuple[int, ...]:
    """Quarter turns giving different tiles (sides, barrels, exhausts and shield cover): a tile the
    same after a half turn is listed once, at the smaller turn."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for rot in range(4):
        t = Tile(at=0, kind=tile.kind, sides=tile.sides, rot=rot, attrs=tile.attrs)
        key = (t.eff, tuple(sorted(t.barrels)), tuple(sorted(t.exhausts)), tuple(sorted(t.covers)))
        if key not in seen:
            seen.add(key)
            out.append(rot)
    return tuple(out)


def weld(ship: Ship, tile: AsideTile | Tile, at: int, rot: int) -> Ship:
    """The ship with ``tile`` placed on square ``at`` turned ``rot`` quarter turns clockwise."""
    placed = Tile(at=at, kind=tile.kind, sides=tile.sides, rot=rot, attrs=tile.attrs, id=tile.id)
    return replace(ship, tiles=ship.tiles + (placed,), source=ship.source)


@dataclass(frozen=True)
class Candidate:
    """A legal placement: the square, the quarter turns, and the ship with the tile welded."""

    at: int
    rot: int
    ship: Ship
    report: CheckReport

    @property
    def tile(self) -> Tile:
        t = self.ship.tile_at(self.at)
        assert t is not None
        return t


def _errors(report: CheckReport) -> set[tuple[str, tuple[int, ...]]]:
    return {v.key() for v in report.errors}


def candidate_squares(ship: Ship) -> list[int]:
    """Empty buildable squares beside a tile, and every buildable square of a hull with no tile."""
    b = ship.board
    lay = Layout.of(ship)
    g = geometry(b)
    occ = lay.occ
    near = 0
    for s in range(4):
        near |= g.move(occ, s)
    buildable = g.buildable(b, ship.dice)
    groups, _ = g.hull_masks(b, ship.dice)
    for hm in groups:
        if not hm & occ:
            near |= hm
    free = near & buildable & ~occ
    return [i for i in range(b.size) if free >> i & 1]


def legal_placements(ship: Ship, tile: AsideTile | Tile, *, base: CheckReport | None = None) -> list[Candidate]:
    """Every (square, rotation) where welding ``tile`` adds no error to ``ship``, in grid order."""
    base = base or check(ship)
    before = _errors(base)
    out = []
    rots = distinct_rotations(tile)
    for at in candidate_squares(ship):
        for rot in rots:
            new = weld(ship, tile, at, rot)
            report = check(new)
            if _errors(report) <= before:
                out.append(Candidate(at, rot, new, report))
    return out
