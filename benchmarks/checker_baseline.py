"""The checker as it was before joints became bit operations (commit a33b830), kept as the baseline.

``benchmarks/bench_check_fix.py`` times it against :func:`shipcheck.check.rules.check` in the same process,
and ``tests/test_checker_baseline.py`` asserts both give identical reports on random ships.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shipcheck.check.rules import RULES, SIDE_LETTERS, CheckReport, Violation, ship_notes
from shipcheck.model import (
    BATTERY_KINDS,
    CANNON_KINDS,
    CONNECTOR_NAMES,
    ENGINE_KINDS,
    OPPOSITE,
    SMOOTH,
    Ship,
    Tile,
    compatible,
)


# -- the geometry every rule shares ---------------------------------------------------------------
@dataclass(frozen=True)
class Joint:
    """Two tiles facing each other: ``a`` on side ``side`` of square ``i``, ``b`` on square ``j``."""

    i: int
    side: int
    j: int
    a: int
    b: int
    seam: bool

    @property
    def joined(self) -> bool:
        return compatible(self.a, self.b, seam=self.seam)

    @property
    def code(self) -> str | None:
        """Rule broken by this joint, if any."""
        a, b = self.a, self.b
        if a == SMOOTH and b == SMOOTH:
            return None
        if a == SMOOTH or b == SMOOTH:
            return "C1"
        if self.seam:
            return None if a == b else "C3"
        if {a, b} == {1, 2}:
            return "C2"
        return None


@dataclass
class Layout:
    """Facing pairs, joins and pieces of a set of tiles on a board, computed once."""

    ship: Ship
    tiles: dict[int, Tile]
    joints: list[Joint] = field(default_factory=list)
    adj: dict[int, list[int]] = field(default_factory=dict)  # joined neighbours

    @classmethod
    def of(cls, ship: Ship, tiles: dict[int, Tile] | None = None) -> Layout:
        tiles = ship.by_index if tiles is None else tiles
        nb = ship.board.nb
        seam = ship.board.seam_side
        lay = cls(ship, tiles)
        adj: dict[int, list[int]] = {i: [] for i in tiles}
        seen: set[tuple[int, int]] = set()
        for i, t in tiles.items():
            for s in range(4):
                j = nb[i][s]
                if j < 0 or j not in tiles or (j, OPPOSITE[s]) in seen:
                    continue
                seen.add((i, s))
                jt = Joint(i, s, j, t.eff[s], tiles[j].eff[OPPOSITE[s]], seam[i][s])
                lay.joints.append(jt)
                if jt.joined:
                    adj[i].append(j)
                    adj[j].append(i)
        lay.adj = adj
        return lay

    def pieces(self) -> list[list[int]]:
        """Connected pieces (by joins), each sorted, in order of their first square."""
        seen: set[int] = set()
        out = []
        for start in sorted(self.tiles):
            if start in seen:
                continue
            comp = [start]
            seen.add(start)
            k = 0
            while k < len(comp):
                for j in self.adj[comp[k]]:
                    if j not in seen:
                        seen.add(j)
                        comp.append(j)
                k += 1
            out.append(sorted(comp))
        return out

    def exposed(self) -> tuple[int, tuple[int, int, int, int]]:
        nb = self.ship.board.nb
        by_side = [0, 0, 0, 0]
        for i, t in self.tiles.items():
            for s in range(4):
                if t.eff[s] and (nb[i][s] < 0 or nb[i][s] not in self.tiles):
                    by_side[s] += 1
        return sum(by_side), (by_side[0], by_side[1], by_side[2], by_side[3])


def kept_pieces(ship: Ship, pieces: list[list[int]], tiles: dict[int, Tile]) -> tuple[list[list[int]], list[list[int]]]:
    """Split pieces into the ship and the pieces not joined to it (S1).

    Per hull, the ship is the piece holding the pilot cabin, else the largest piece (ties: first
    square in row-major order); every other piece touching that hull is S1, and so is a piece
    standing on no hull at all (contract §2).
    """
    hulls = ship.board.hulls(ship.dice)
    pilot = next((i for i, t in tiles.items() if t.kind == "start_cabin"), None)
    piece_hulls: list[set[int]] = [{h for i in p if (h := hulls[i]) is not None} for p in pieces]
    chosen: dict[int, int] = {}
    for h in sorted({h for ph in piece_hulls for h in ph}):
        cands = [k for k, ph in enumerate(piece_hulls) if h in ph]
        if pilot is not None and hulls[pilot] == h:
            chosen[h] = next(k for k in cands if pilot in pieces[k])
        else:
            chosen[h] = min(cands, key=lambda k: (-len(pieces[k]), pieces[k][0]))
    kept: list[list[int]] = []
    loose: list[list[int]] = []
    for k, p in enumerate(pieces):
        ok = bool(piece_hulls[k]) and all(chosen[h] == k for h in piece_hulls[k])
        (kept if ok else loose).append(p)
    return kept, loose


# -- the checker ----------------------------------------------------------------------------------
def _side_text(c: int) -> str:
    return CONNECTOR_NAMES[c]


def check(ship: Ship, *, select: set[str] | None = None, ignore: set[str] | None = None) -> CheckReport:
    """All rule breaks of a ship, in code order, and its exposed connectors."""
    b = ship.board
    tiles = ship.by_index
    lay = Layout.of(ship, tiles)
    out: list[Violation] = []
    name = b.cell_text

    # B1: squares not buildable or not unlocked
    for i in tiles:
        if not b.buildable(i, ship.dice):
            what = "a locked die square" if b.char(i) in "123456" else "not part of the building area"
            out.append(Violation("B1", (i,), f"{tiles[i].kind} at {name(i)} stands on {what}"))
    # B2: the start square holds the pilot cabin, and the pilot cabin stands there
    start = b.start
    if start is not None:
        pilot = ship.pilot
        if pilot is not None and pilot.at != start:
            out.append(Violation("B2", (start, pilot.at),
                                 f"the pilot cabin is at {name(pilot.at)}, not on the start square {name(start)}"))
        elif pilot is None and start in tiles:
            out.append(Violation("B2", (start,),
                                 f"the start square {name(start)} holds a {tiles[start].kind}, not the pilot cabin"))
    # C1, C2, C3: facing connectors
    for jt in lay.joints:
        code = jt.code
        if code is None:
            continue
        sl, o = SIDE_LETTERS[jt.side], SIDE_LETTERS[OPPOSITE[jt.side]]
        if code == "C1":
            if jt.a == SMOOTH:
                msg = (f"{_side_text(jt.b)} connector of {name(jt.j)} {o} meets the smooth {sl} side of "
                       f"{name(jt.i)}")
            else:
                msg = f"{_side_text(jt.a)} connector of {name(jt.i)} {sl} meets the smooth {o} side of {name(jt.j)}"
            if jt.seam:
                msg += " across the seam"
        elif code == "C2":
            msg = f"{_side_text(jt.a)} connector of {name(jt.i)} {sl} meets the {_side_text(jt.b)} {o} of {name(jt.j)}"
        else:
            msg = (f"{_side_text(jt.a)} {sl} of {name(jt.i)} meets {_side_text(jt.b)} {o} of {name(jt.j)} across "
                   "the seam, where only identical connectors join")
        out.append(Violation(code, (jt.i, jt.j), msg))
    # E1, E2, K1: exhausts and barrels
    rear = ship.ship_side("rear")
    nb = b.nb
    for i, t in tiles.items():
        if t.kind in ENGINE_KINDS:
            for s in t.exhausts:
                if s != rear:
                    out.append(Violation("E1", (i,), f"{t.kind} at {name(i)} has its exhaust to the "
                                         f"{'NESW'[s]}, not to the rear"))
                j = nb[i][s]
                if j >= 0 and j in tiles:
                    out.append(Violation("E2", (i, j), f"{tiles[j].kind} at {name(j)} stands behind the "
                                         f"exhaust of the {t.kind} at {name(i)}"))
        if t.kind in CANNON_KINDS:
            for s in t.barrels:
                j = nb[i][s]
                if j >= 0 and j in tiles:
                    out.append(Violation("K1", (i, j), f"{tiles[j].kind} at {name(j)} stands in front of the "
                                         f"barrel of the {t.kind} at {name(i)}"))
    # S1: pieces not joined to the ship
    pieces = lay.pieces()
    _, loose = kept_pieces(ship, pieces, tiles)
    for p in loose:
        where = ", ".join(name(i) for i in p)
        out.append(Violation("S1", tuple(p), f"{len(p)} component(s) not joined to the ship: {where}"))
    # A1, A2, A3: aliens
    aliens: dict[str, list[int]] = {}
    for i, t in tiles.items():
        al = t.alien
        if al is None:
            continue
        aliens.setdefault(al, []).append(i)
        if t.kind == "cabin":
            if not any(tiles[j].kind == "life_support" and tiles[j].attr("color") == al for j in lay.adj[i]):
                out.append(Violation("A1", (i,), f"{al} alien at {name(i)} has no {al} life support joined "
                                     "to its cabin"))
        else:
            out.append(Violation("A2", (i,), f"{al} alien in the {t.kind} at {name(i)}: aliens live only in "
                                 "ordinary cabins"))
    for al, where_ in sorted(aliens.items()):
        if len(where_) > 1:
            out.append(Violation("A3", tuple(where_), f"{len(where_)} {al} aliens aboard; at most one per colour"))
    # W1: components that serve nothing
    serves = {
        "life_support": lambda t: t.kind == "cabin",
        "shield_booster": lambda t: t.kind == "shield",
        "cannon_booster": lambda t: t.kind in CANNON_KINDS,
        "engine_booster": lambda t: t.kind in ENGINE_KINDS,
        "reactor_furnace": lambda t: t.kind in BATTERY_KINDS,
    }
    for i, t in tiles.items():
        f = serves.get(t.kind)
        if f is not None and not any(f(tiles[j]) for j in lay.adj[i]):
            target = {"life_support": "cabin", "shield_booster": "shield", "cannon_booster": "cannon",
                      "engine_booster": "engine", "reactor_furnace": "battery"}[t.kind]
            out.append(Violation("W1", (i,), f"{t.kind} at {name(i)} is joined to no {target}: it does nothing"))

    if select:
        out = [v for v in out if v.code in select]
    if ignore:
        out = [v for v in out if v.code not in ignore]
    order = {c: k for k, c in enumerate(RULES)}
    out.sort(key=lambda v: (order[v.code], v.cells))
    total, by_side = lay.exposed()
    return CheckReport(ship, tuple(out), total, by_side, tuple(ship_notes(ship)))
