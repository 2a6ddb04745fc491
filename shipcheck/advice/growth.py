"""What a ship can still become: the room it has to grow, the advisor's look-ahead.

A tile can only ever be welded on an empty buildable square that an open connector of the ship
faces and that no barrel or exhaust points at (an *entrance*). From the entrances a ship can grow
over the empty buildable squares joined to them, none in front of a barrel or behind an exhaust
(its *room*): an upper bound on the tiles it can still take. A ship with no entrance is *closed*:
nothing can be welded to it again, however much of the board is empty. ``fit`` is the share of
the edition's catalogue tiles (pilot cabins aside) that some entrance takes in some rotation, by
the rules of joints, exhausts and barrels: how likely the next tile drawn can be welded at all;
``options`` the entrances such a tile finds on average. ``after`` looks one tile further: the
entrances left once the next tile drawn is welded where it leaves the most, on average over the
catalogue's tiles not aboard (a tile that fits nowhere is put back): it prefers entrances that
tiles with one connector cannot take. ``future`` (on request) plays the next 24 draws out in fixed
seeded orders, each tile welded where it leaves the most entrances: the tiles taken on average.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from shipcheck.model import Ship, Tile, compatible
from shipcheck.topology import Board

__all__ = ["Growth", "growth"]

#: the rollouts of :func:`future`: how many by default, how many draws each, what a square shut costs
ROLLOUTS, DRAWS, SHUT = 32, 24, 0.3


@dataclass(frozen=True)
class Growth:
    """``entrances``: squares a tile could be welded on next; ``room``: empty squares reachable
    from them (a bound on the tiles the ship can still take); ``free``: empty buildable squares;
    ``fit``: the share of catalogue tiles some entrance takes; ``options``: the entrances a
    catalogue tile fits on, on average; ``after``: the entrances left once the next tile drawn
    is welded, on average (:func:`after`); ``future`` (when asked for): the tiles it takes from
    the next 24 drawn, on average over seeded rollouts (:func:`future`)."""

    entrances: int
    room: int
    free: int
    fit: float
    options: float
    after: float = 0.0
    future: float | None = None

    @property
    def closed(self) -> bool:
        """No tile can ever be welded again although the board has empty squares."""
        return self.entrances == 0 and self.free > 0


def growth(ship: Ship, *, rollouts: int = 0) -> Growth:
    """The ship's :class:`Growth`; ``future`` from ``rollouts`` rollouts (None without)."""
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
    fit, options = _fit(ship, sorted(entrances))
    ahead = future(ship, free, blocked, entrances, rollouts=rollouts) if rollouts > 0 else None
    if not entrances:
        return Growth(0, len(seen), len(free), fit, options, 0.0, ahead)
    return Growth(len(entrances), len(seen), len(free), fit, options, after(ship, free, blocked, entrances), ahead)


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
    rear = (2 + ship.front_side) % 4
    effs = {i: t.eff for i, t in ship.by_index.items()}
    spots = [_spot(ship.board, effs, j) for j in entrances]
    shapes = _shapes(ship.edition)
    if not shapes:
        return 0.0, 0.0
    copies = [n for _, n in _distinct(ship.edition)]
    fitting = [_fitting_shapes(ship.edition, spot, rear) for spot in spots]  # per entrance, the shapes it takes
    total = sum(copies[i] for f in fitting for i in f)
    good = sum(copies[i] for i in frozenset().union(*fitting))
    return good / len(shapes), total / len(shapes)


def _spot(board: Board, effs: Mapping[int, tuple[int, ...]], j: int) -> tuple[tuple[int | None, bool], ...]:
    """What empty square ``j`` meets: per side, the facing tile's connector (None: no tile there) and
    whether that side is a seam (``effs``: each tile's connectors, by square)."""
    nb, seam = board.nb[j], board.seam_side[j]
    return tuple((effs[n][(s + 2) % 4] if (n := nb[s]) in effs else None, bool(seam[s])) for s in range(4))


@functools.lru_cache(maxsize=4)
def _distinct(edition: str) -> tuple[tuple[tuple[_Shape, ...], int], ...]:
    """The catalogue's distinct shapes (:func:`_shapes`) and how many tiles have each, in first-seen order."""
    return tuple(Counter(_shapes(edition)).items())


@functools.lru_cache(maxsize=65536)
def _fitting_sides(edition: str, spot: tuple[tuple[int | None, bool], ...],
                   rear: int) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]:
    """Per distinct shape (:func:`_distinct`), its rotations that fit ``spot``, as what welding it
    there changes: the sides with a connector and the sides a barrel or an exhaust points to."""
    return tuple(tuple(dict.fromkeys((tuple(s for s in range(4) if eff[s]), tuple(sorted(barrels | exhausts)))
                                     for eff, barrels, exhausts in rots if _fits((eff, barrels, exhausts), spot, rear)))
                 for rots, _ in _distinct(edition))


def _fitting_shapes(edition: str, spot: tuple[tuple[int | None, bool], ...], rear: int) -> frozenset[int]:
    """The distinct shapes (indices into :func:`_distinct`) of which some rotation fits ``spot``."""
    return frozenset(i for i, fits in enumerate(_fitting_sides(edition, spot, rear)) if fits)


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


@functools.lru_cache(maxsize=4)
def _shapes_by_id(edition: str) -> tuple[tuple[str, tuple[tuple[tuple[int, ...], frozenset[int], frozenset[int]], ...]], ...]:
    """Each catalogue tile (pilot cabins aside) by id, as its distinct rotations (see :func:`_shapes`)."""
    from shipcheck.shipfile import catalogue

    tiles = [t for t in catalogue(edition).values() if t.kind != "start_cabin"]
    return tuple(zip((str(t.id) for t in tiles), _shapes(edition)))


@functools.lru_cache(maxsize=4)
def _shape_index(edition: str) -> dict[str, int]:
    """Each catalogue tile's id (pilot cabins aside) -> the index of its shape in :func:`_distinct`."""
    index = {rots: i for i, (rots, _) in enumerate(_distinct(edition))}
    return {tid: index[rots] for tid, rots in _shapes_by_id(edition)}


def after(ship: Ship, free: set[int], blocked: set[int], entrances: set[int]) -> float:
    """The entrances left once the next tile is welded, on average over the catalogue's tiles not
    aboard (each printed tile once, rule T1): each welded where it leaves the most, a tile that fits
    nowhere put back (the ship keeps its entrances). Joints, barrels and exhausts as in :func:`growth`.
    Worked out per distinct shape, each counted as often as the pool holds it."""
    b, rear = ship.board, (2 + ship.front_side) % 4
    index = _shape_index(ship.edition)
    counts = [n for _, n in _distinct(ship.edition)]
    for tid in {t.id for t in ship.tiles if t.id}:
        if tid in index:
            counts[index[tid]] -= 1
    pool = sum(counts)
    if not pool:
        return 0.0
    effs = {i: t.eff for i, t in ship.by_index.items()}
    nb = b.nb
    open_ = free - blocked
    best: list[int | None] = [None] * len(counts)
    for j in entrances:
        spot = _spot(b, effs, j)
        rest = entrances - {j}
        left_by: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        for i, fits in enumerate(_fitting_sides(ship.edition, spot, rear)):
            if not counts[i]:
                continue
            for sides in fits:
                left = left_by.get(sides)
                if left is None:
                    conn, block = sides
                    shut = {n for s in block if (n := nb[j][s]) in open_}
                    new = {n for s in conn if (n := nb[j][s]) in open_}
                    left = left_by[sides] = len((rest | new) - shut)
                if (m := best[i]) is None or left > m:
                    best[i] = left
    return sum(c * (len(entrances) if m is None else m) for c, m in zip(counts, best)) / pool


@functools.lru_cache(maxsize=16)
def _orders(n: int, rollouts: int, draws: int) -> tuple[tuple[int, ...], ...]:
    """The rollouts' draws from a pool of ``n`` tiles: fixed seeded orders, the same for every
    placement of a tile (common random numbers) and on every run."""
    import numpy as np

    return tuple(tuple(int(k) for k in np.random.default_rng([29, i]).permutation(n)[:draws]) for i in range(rollouts))


_Shape = tuple[tuple[int, ...], frozenset[int], frozenset[int]]
_FITTING: dict[tuple[str, int, int, int], tuple[_Shape, ...]] = {}


def _fitting(edition: str, k: int, spot: tuple[tuple[int | None, bool], ...], code: int, rear: int) -> tuple[_Shape, ...]:
    """The rotations of the ``k``-th catalogue tile that fit a square whose neighbours are ``spot``
    (``code`` numbers it), cached."""
    key = (edition, k, code, rear)
    out = _FITTING.get(key)
    if out is None:
        out = _FITTING[key] = tuple(r for r in _shapes_by_id(edition)[k][1] if _fits(r, spot, rear))
    return out


def future(ship: Ship, free: set[int], blocked: set[int], entrances: set[int], *, rollouts: int = ROLLOUTS,
           draws: int = DRAWS) -> float:
    """The tiles the ship takes from the next ``draws`` tiles drawn, on average over ``rollouts``
    seeded orders of the catalogue's tiles not aboard (:func:`_orders`): each tile welded where it
    leaves the most entrances, less :data:`SHUT` per free square its barrels or exhausts point at,
    a tile that fits nowhere put back. Joints, barrels and exhausts as in :func:`growth`."""
    b, rear, ed = ship.board, (2 + ship.front_side) % 4, ship.edition
    aboard = {t.id for t in ship.tiles if t.id}
    pool = [k for k, (tid, _) in enumerate(_shapes_by_id(ed)) if tid not in aboard]
    if not pool or rollouts <= 0 or not entrances:
        return 0.0
    nb = b.nb

    def spot_of(tiles: dict[int, tuple[int, ...]], j: int) -> tuple[tuple[tuple[int | None, bool], ...], int]:
        spot = _spot(b, tiles, j)
        code = 0
        for other, on_seam in spot:
            code = code * 10 + (4 if other is None else other) * 2 + on_seam
        return spot, code

    base: dict[int, tuple[int, ...]] = {i: t.eff for i, t in ship.by_index.items()}
    spots0 = {j: spot_of(base, j) for j in entrances}
    welded = 0
    for order in _orders(len(pool), rollouts, draws):
        tiles, open_, ent, spots = dict(base), free - blocked, set(entrances), dict(spots0)
        for k in order:
            best = None
            for j in sorted(ent):
                spot, code = spots[j]
                for eff, barrels, exhausts in _fitting(ed, pool[k], spot, code, rear):
                    shut = {n for s in (*barrels, *exhausts) if (n := nb[j][s]) in open_}
                    left = ((ent - {j}) | {n for s in range(4) if eff[s] and (n := nb[j][s]) in open_}) - shut
                    if best is None or len(left) - SHUT * len(shut) > best[0]:
                        best = (len(left) - SHUT * len(shut), left, j, eff, shut)
            if best is None:
                continue
            _, ent, j, tiles[j], shut = best
            open_ -= shut | {j}
            welded += 1
            if not ent:
                break
            for n in ent:
                if n in nb[j] or n not in spots:
                    spots[n] = spot_of(tiles, n)
    return welded / rollouts
