"""What a ship can still become: the room it has to grow, the advisor's look-ahead.

A tile can only ever be welded on an empty buildable square that an open connector of the ship
faces and that no barrel or exhaust points at (an *entrance*). From the entrances a ship can grow
over the empty buildable squares joined to them, none in front of a barrel or behind an exhaust
(its *room*): an upper bound on the tiles it can still take. A ship with no entrance is *closed*:
nothing can be welded to it again, however much of the board is empty. ``fit`` is the share of
the edition's catalogue tiles (pilot cabins aside) that some entrance takes in some rotation, by
the rules of joints, exhausts and barrels: how likely the next tile drawn can be welded at all;
``options`` the entrances such a tile finds on average (a ship with several ways to take most
tiles stays open after a few tiles with one connector have filled some of them).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from shipcheck.model import Ship, Tile, compatible

__all__ = ["Growth", "growth"]


@dataclass(frozen=True)
class Growth:
    """``entrances``: squares a tile could be welded on next; ``room``: empty squares reachable
    from them (a bound on the tiles the ship can still take); ``free``: empty buildable squares;
    ``fit``: the share of catalogue tiles some entrance takes; ``options``: the entrances a
    catalogue tile fits on, on average."""

    entrances: int
    room: int
    free: int
    fit: float
    options: float

    @property
    def closed(self) -> bool:
        """No tile can ever be welded again although the board has empty squares."""
        return self.entrances == 0 and self.free > 0


def growth(ship: Ship) -> Growth:
    """The ship's :class:`Growth`."""
    b = ship.board
    tiles = ship.by_index
    free = {i for i in range(b.size) if i not in tiles and b.buildable(i, ship.dice)}
    blocked = set()
    for i, t in tiles.items():
        for side in t.barrels + t.exhausts:
            blocked.add(b.nb[i][side])
    open_ = free - blocked
    entrances = {j for i, t in tiles.items() for s in range(4) if t.eff[s] and (j := b.nb[i][s]) in open_}
    seen = set(entrances)
    todo = list(entrances)
    while todo:
        i = todo.pop()
        for j in b.nb[i]:
            if j in open_ and j not in seen:
                seen.add(j)
                todo.append(j)
    return Growth(len(entrances), len(seen), len(free), *_fit(ship, sorted(entrances)))


@functools.lru_cache(maxsize=4)
def _shapes(edition: str) -> tuple[tuple[tuple[tuple[int, ...], frozenset[int], frozenset[int]], ...], ...]:
    """Each catalogue tile (pilot cabins aside) as its distinct rotations: sides, barrels, exhausts."""
    from shipcheck.shipfile import catalogue

    out = []
    for t in catalogue(edition).values():
        if t.kind == "start_cabin":
            continue
        rots = {(p.eff, frozenset(p.barrels), frozenset(p.exhausts))
                for p in (Tile(at=0, kind=t.kind, sides=t.sides, rot=r, attrs=t.attrs) for r in range(4))}
        out.append(tuple(sorted(rots, key=repr)))
    return tuple(out)


def _fit(ship: Ship, entrances: list[int]) -> tuple[float, float]:
    """The share of catalogue tiles that fit on at least one entrance, and the entrances a tile fits
    on, on average (see the module docstring)."""
    b, tiles = ship.board, ship.by_index
    rear = (2 + ship.front_side) % 4
    # per entrance: per side, the facing tile's connector (None: no tile there) and whether it is a seam
    spots = [tuple((tiles[n].eff[(s + 2) % 4] if (n := b.nb[j][s]) in tiles else None, bool(b.seam_side[j][s]))
                   for s in range(4)) for j in entrances]
    shapes = _shapes(ship.edition)
    if not shapes:
        return 0.0, 0.0
    good = total = 0
    for rots in shapes:
        n = sum(1 for spot in spots if any(_fits(r, spot, rear) for r in rots))
        good += n > 0
        total += n
    return good / len(shapes), total / len(shapes)


def _fits(shape: tuple[tuple[int, ...], frozenset[int], frozenset[int]], spot: tuple[tuple[int | None, bool], ...],
          rear: int) -> bool:
    eff, barrels, exhausts = shape
    if any(s != rear for s in exhausts):
        return False
    joined = False
    for s in range(4):
        other, seam = spot[s]
        if other is None:
            continue
        if s in barrels or s in exhausts:
            return False
        mine = eff[s]
        if mine and other:
            if not compatible(mine, other, seam=seam):
                return False
            joined = True
        elif mine or other:
            return False
    return joined

