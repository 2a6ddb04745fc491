"""Legal ships and their neighbours: greedy construction and the local search's moves.

Every ship made here passes the checker (no error; warnings allowed) and holds each pool tile at
most once. :func:`construct` welds tiles in a random order, each where the look-ahead advisor ranks
it first (``shipcheck.advise`` without flying rounds), passing the pile until nothing more fits.
:func:`neighbour` changes one thing: welds a free tile, removes one, exchanges one for a free tile,
turns one, moves one, or boards an alien into a cabin joined to a life support (or lands it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from shipcheck.advice import advise
from shipcheck.advice.legal import legal_placements, weld
from shipcheck.check.rules import Layout, check
from shipcheck.design.tiles import Pool
from shipcheck.model import AsideTile, Ship, Tile

__all__ = ["construct", "neighbour"]

MOVES = ("add", "remove", "swap", "turn", "move", "crew")
WEIGHTS = np.array([0.25, 0.15, 0.25, 0.15, 0.15, 0.05])


def construct(start: Ship, pool: Pool, rng: np.random.Generator, *, fixed: frozenset[int] = frozenset(),
              passes: int = 3) -> Ship:
    """``start`` grown from the pool's free tiles, drawn in a random order, each welded at the
    advisor's first rank (by score, with the look-ahead) unless it advises to set the tile aside."""
    ship = start
    for _ in range(passes):
        free = pool.free(ship, fixed)
        grew = False
        for k in rng.permutation(len(free)):
            a = advise(ship, free[k], exact=False, credits=False, top=1)
            if a.placements and not a.set_aside:
                ship, grew = a.placements[0].ship, True
        if not grew:
            break
    return ship


def _legal(ship: Ship) -> bool:
    return check(ship).legal


def _as_aside(t: Tile) -> AsideTile:
    return AsideTile(kind=t.kind, sides=t.sides, attrs=t.attrs, id=t.id)


def _movable(ship: Ship, fixed: frozenset[int]) -> list[Tile]:
    return [t for t in ship.tiles if t.kind != "start_cabin" and int(t.at) not in fixed]


def neighbour(ship: Ship, pool: Pool, rng: np.random.Generator, *, fixed: frozenset[int] = frozenset(),
              tries: int = 20) -> Ship | None:
    """A legal ship one move away from ``ship`` (None when ``tries`` random moves all fail)."""
    for _ in range(tries):
        move = MOVES[int(rng.choice(len(MOVES), p=WEIGHTS / WEIGHTS.sum()))]
        new = _MOVES[move](ship, pool, rng, fixed)
        if new is not None and new != ship:
            return new
    return None


def _pick(rng: np.random.Generator, items: list[Any]) -> Any:
    return items[int(rng.integers(len(items)))] if items else None


def _add(ship: Ship, pool: Pool, rng: np.random.Generator, fixed: frozenset[int]) -> Ship | None:
    tile = _pick(rng, pool.free(ship, fixed))
    if tile is None:
        return None
    c = _pick(rng, legal_placements(ship, tile))
    return None if c is None or not c.report.legal else c.ship


def _remove(ship: Ship, pool: Pool, rng: np.random.Generator, fixed: frozenset[int]) -> Ship | None:
    t = _pick(rng, _movable(ship, fixed))
    if t is None:
        return None
    new = ship.without({t.at})
    return new if _legal(new) else None


def _swap(ship: Ship, pool: Pool, rng: np.random.Generator, fixed: frozenset[int]) -> Ship | None:
    t = _pick(rng, _movable(ship, fixed))
    tile = _pick(rng, pool.free(ship, fixed))
    if t is None or tile is None:
        return None
    rest = ship.without({t.at})
    ships = [s for r in range(4) if _legal(s := weld(rest, tile, int(t.at), r))]
    return _pick(rng, ships)


def _turn(ship: Ship, pool: Pool, rng: np.random.Generator, fixed: frozenset[int]) -> Ship | None:
    t = _pick(rng, _movable(ship, fixed))
    if t is None:
        return None
    rest = ship.without({t.at})
    ships = [s for r in range(4) if r != t.rot
             and _legal(s := replace(rest, tiles=rest.tiles + (replace(t, rot=r, at=int(t.at)),)))]
    return _pick(rng, ships)


def _move(ship: Ship, pool: Pool, rng: np.random.Generator, fixed: frozenset[int]) -> Ship | None:
    t = _pick(rng, _movable(ship, fixed))
    if t is None:
        return None
    rest = ship.without({t.at})
    if not _legal(rest):
        return None
    c = _pick(rng, [c for c in legal_placements(rest, _as_aside(t)) if c.at != int(t.at)])
    return None if c is None or not c.report.legal else _keep_crew(c.ship, c.at, t)


def _keep_crew(ship: Ship, at: int, t: Tile) -> Ship:
    """The moved tile keeps its crew when it still may (else it flies with the default crew)."""
    if t.crew is None:
        return ship
    moved = replace(ship, tiles=tuple(replace(x, crew=t.crew) if int(x.at) == at else x for x in ship.tiles))
    return moved if _legal(moved) else ship


def _crew(ship: Ship, pool: Pool, rng: np.random.Generator, fixed: frozenset[int]) -> Ship | None:
    tiles = ship.by_index
    adj = Layout.of(ship).adj
    options = []
    for i, t in tiles.items():
        if t.kind != "cabin" or i in fixed:
            continue
        colours = {tiles[j].attr("color") for j in adj[i] if tiles[j].kind == "life_support"}
        options += [(i, c) for c in sorted(colours - {t.crew, None})]
        if t.crew is not None:
            options.append((i, None))
    pick = _pick(rng, options)
    if pick is None:
        return None
    i, colour = pick
    new = replace(ship, tiles=tuple(replace(x, crew=colour) if int(x.at) == i else x for x in ship.tiles))
    return new if _legal(new) else None


_MOVES = {"add": _add, "remove": _remove, "swap": _swap, "turn": _turn, "move": _move, "crew": _crew}
