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

from shipcheck.check.rules import CheckReport, Layout, check, geometry
from shipcheck.model import AsideTile, Ship, Tile

__all__ = ["Candidate", "distinct_rotations", "legal_placements", "weld", "why_none"]


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
    placed = Tile(at=ship.board.squares[at], kind=tile.kind, sides=tile.sides, rot=rot, attrs=tile.attrs, id=tile.id)
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
    """Every (square, rotation) where welding ``tile`` adds no error to ``ship``, in grid order (none
    for a second pilot cabin: a ship file holds one)."""
    if _second_pilot(ship, tile):
        return []
    base = base or check(ship)
    before = _errors(base)
    out = []
    rots = distinct_rotations(tile)
    lay = Layout.of(ship)
    for at in candidate_squares(ship):
        for rot in rots:
            new = weld(ship, tile, at, rot)
            if Layout.welded(new, lay, at).breaks_at(at):  # a new connector error (C1-C3): no need to check the rest
                continue
            report = check(new)
            if _errors(report) <= before:
                out.append(Candidate(at, rot, new, report))
    return out


def _second_pilot(ship: Ship, tile: AsideTile | Tile) -> bool:
    return tile.kind == "start_cabin" and any(t.kind == "start_cabin" for t in ship.tiles)


_SIDES = ("N", "E", "S", "W")
_TYPES = {1: "single", 2: "double", 3: "universal"}


def _joins(a: int, b: int, seam: bool) -> bool:
    """Two connectors join: the same type, or a universal one (across a seam only the same type)."""
    return a == b or (not seam and 3 in (a, b))


def why_none(ship: Ship, tile: AsideTile | Tile, *, base: CheckReport | None = None) -> str:
    """Why ``tile`` has no legal placement on ``ship``, in a few words: the ship holds that printed
    tile already (T1), no open connector, none of a type the tile can join, every square beside one
    blocked by a barrel or an exhaust or off the board, or the rules the tile breaks there in every
    rotation."""
    from collections import Counter

    from shipcheck.check.rules import RULES

    b = ship.board
    base = base or check(ship)
    tiles = ship.by_index
    if _second_pilot(ship, tile):
        return "the ship has its pilot cabin already, and a ship holds one"
    if tile.id is not None and any(t.id == tile.id for t in ship.tiles):
        return (f"the ship holds {tile.id} already, and each printed tile exists once (rule T1): name another "
                "copy (`shipcheck tiles` lists them)")
    openings: list[tuple[int, int, int]] = []  # (empty square, side of the tile facing it, connector)
    off_board = 0
    for i, t in tiles.items():
        for s in range(4):
            c = t.eff[s]
            j = b.nb[i][s]
            if c and (j < 0 or j not in tiles):
                if j < 0 or not b.buildable(j, ship.dice):
                    off_board += 1
                else:
                    openings.append((j, s, c))
    if not openings:
        if off_board:
            return "every open connector of the ship faces a square off the board"
        return "the ship has no open connector (every outer side is smooth): nothing can be joined to it"
    hand = [c for c in Tile(at=0, kind=tile.kind, sides=tile.sides, attrs=tile.attrs).eff if c]
    if not hand:
        return "the tile has no connector: it can never be joined to the ship"
    types = sorted({c for _, _, c in openings})
    if not any(_joins(h, c, bool(b.seam_side[j][(s + 2) % 4])) for j, s, c in openings for h in hand):
        have = " and ".join(_TYPES[c] for c in types)
        want = " and ".join(_TYPES[c] for c in sorted(set(hand)))
        return f"no open connector of a type the tile joins: the ship's are {have}, the tile's {want}"
    before = {v.key() for v in base.errors}
    blocked: set[int] = set()
    codes: Counter[str] = Counter()
    squares = sorted({j for j, _, _ in openings})
    for j in squares:
        for rot in distinct_rotations(tile):
            new = [v for v in check(weld(ship, tile, j, rot)).errors if v.key() not in before]
            # in front of a barrel or behind an exhaust of the ship: the other tile's error names it first
            if any(v.code in ("K1", "E2") and v.cells[0] != j for v in new):
                blocked.add(j)
            codes.update({v.code for v in new})
    where = ", ".join(b.cell_text(j) for j in squares[:6]) + (", ..." if len(squares) > 6 else "")
    if len(blocked) == len(squares):
        return (f"every square beside an open connector ({where}) is in front of a barrel or behind an exhaust "
                "(K1, E2)")
    common = ", ".join(f"{c} {RULES[c].name}" for c, _ in codes.most_common(3))
    return f"at every square beside an open connector ({where}) each rotation breaks a rule: {common}"
