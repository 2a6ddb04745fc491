"""Construction rules: one stable code per rule, violations returned as a list.

The checker never raises for an illegal ship; every rule reads the board's neighbour table, so
flat boards, wrap-around, seams, hulls and die squares need no special cases here.
"""

from __future__ import annotations

from collections.abc import Iterator, Set
from dataclasses import dataclass, field
from typing import Any

from .model import (
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

SIDE_LETTERS = "NESW"


@dataclass(frozen=True)
class Rule:
    """A construction rule: stable code, kebab-case name, severity and its documentation."""

    code: str
    name: str
    severity: str  # "error" or "warning"
    summary: str
    why: str
    bad: str  # a small ship file showing the violation
    good: str  # the same ship made legal
    fixable: bool = True  # whether `fix` mends it by removing components
    source: str = ""  # where the rulebooks say it (section titles as printed in the Portuguese editions)

    @property
    def doc(self) -> str:
        return f"{self.code} {self.name} ({self.severity})\n\n{self.summary}\n\nWhy: {self.why}"


@dataclass(frozen=True, repr=False)
class Violation:
    """One rule break: the code, the squares involved (grid indices) and a plain sentence."""

    code: str
    cells: tuple[int, ...]
    message: str

    @property
    def rule(self) -> Rule:
        return RULES[self.code]

    @property
    def severity(self) -> str:
        return self.rule.severity

    def key(self) -> tuple[str, tuple[int, ...]]:
        return (self.code, self.cells)

    def __repr__(self) -> str:
        return f"<Violation {self.code} {' '.join(map(repr, self.cells))}: {self.message}>"

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.rule.name,
            "severity": self.severity,
            "cells": [ship.board.cell_name(i) for i in self.cells],
            "message": self.message,
        }


@dataclass(frozen=True, repr=False)
class CheckReport:
    """What `check` found on one ship."""

    ship: Ship
    violations: tuple[Violation, ...]
    exposed_connectors: int
    exposed_by_side: tuple[int, int, int, int]
    notes: tuple[str, ...] = ()

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == "error")

    @property
    def warnings(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.severity == "warning")

    @property
    def legal(self) -> bool:
        return not self.errors

    def codes(self) -> dict[str, set[int]]:
        out: dict[str, set[int]] = {}
        for v in self.violations:
            out.setdefault(v.code, set()).update(v.cells)
        return out

    def summary(self) -> str:
        """``ILLEGAL: 2 errors (C1, S1), 0 warnings, 6 exposed connectors``."""
        ne, nw = len(self.errors), len(self.warnings)

        def codes(vs: tuple[Violation, ...]) -> str:
            return f" ({', '.join(dict.fromkeys(v.code for v in vs))})" if vs else ""

        e = self.exposed_connectors
        return (f"{'legal' if self.legal else 'ILLEGAL'}: {ne} error{'' if ne == 1 else 's'}{codes(self.errors)}, "
                f"{nw} warning{'' if nw == 1 else 's'}{codes(self.warnings)}, "
                f"{e} exposed connector{'' if e == 1 else 's'}")

    def __repr__(self) -> str:
        where = f" {self.ship.source}" if self.ship.source else ""
        return f"<CheckReport{where}: {self.summary()}>"

    def marks(self) -> dict[int, str]:
        """Offending squares and the code to tag each with (errors before warnings)."""
        out: dict[int, str] = {}
        for v in sorted(self.violations, key=lambda v: v.severity != "error"):
            for i in v.cells:
                out.setdefault(i, v.code)
        return out

    def _repr_html_(self) -> str:
        from html import escape

        from .render import render_ship

        items = "".join(f"<li><b>{v.code}</b> {escape(v.rule.name)}: {escape(v.message)}</li>"
                        for v in self.violations)
        return (f"<p>{escape(repr(self.ship))}<br><b>{escape(self.summary())}</b></p>"
                + render_ship(self.ship, marks=self.marks()).html() + (f"<ul>{items}</ul>" if items else ""))

    def __rich__(self) -> Any:
        from .render import render_ship

        text = render_ship(self.ship, marks=self.marks()).__rich__()
        for v in self.violations:
            text.append(f"\n{v.code} {v.rule.name}: {v.message}")
        text.append(f"\n{self.summary()}")
        return text

    def to_frame(self) -> Any:
        """One row per square a violation names: ``code``, ``name``, ``severity``, ``col``, ``row``
        (numeric; board labels, or grid indices on boards that name squares by them), ``square`` and
        ``message``. A legal ship without warnings gives an empty frame with these columns."""
        import pandas as pd

        b = self.ship.board
        rows = []
        for v in self.violations:
            for i in v.cells:
                col, row = _col_row(b, i)
                rows.append({"code": v.code, "name": v.rule.name, "severity": v.severity, "col": col, "row": row,
                             "square": b.cell_text(i), "message": v.message})
        cols = ["code", "name", "severity", "col", "row", "square", "message"]
        return pd.DataFrame(rows, columns=cols).astype({"col": "int64", "row": "int64"})

    def to_dict(self, path: str | None = None) -> dict[str, Any]:
        s = self.ship
        return {
            "ship": path if path is not None else s.source,
            "class": s.board.name,
            "legal": self.legal,
            "exposed_connectors": self.exposed_connectors,
            "violations": [v.to_dict(s) for v in self.violations],
            "exposed_by_side": dict(zip(("front", "right", "rear", "left"),
                                        _relative(self.exposed_by_side, s))),
            "board_verified": s.board.verified,
            "notes": list(self.notes),
        }


def _col_row(board: Any, i: int) -> tuple[int, int]:
    """Numeric column and row of a square: its labels, or grid indices where labels do not name it."""
    name = board.cell_name(i)
    return (name["col"], name["row"]) if isinstance(name, dict) else (name[0], name[1])


def _relative(by_board_side: tuple[int, int, int, int], ship: Ship) -> list[int]:
    f = ship.front_side
    return [by_board_side[(k + f) % 4] for k in range(4)]


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


def check(ship: Ship, *, select: Set[str] | None = None, ignore: Set[str] | None = None) -> CheckReport:
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

    sq = b.squares
    out = [Violation(v.code, tuple(sq[i] for i in v.cells), v.message) for v in out]
    if select:
        out = [v for v in out if v.code in select]
    if ignore:
        out = [v for v in out if v.code not in ignore]
    order = {c: k for k, c in enumerate(RULES)}
    out.sort(key=lambda v: (order[v.code], v.cells))
    total, by_side = lay.exposed()
    return CheckReport(ship, tuple(out), total, by_side, tuple(ship_notes(ship)))


def ship_notes(ship: Ship) -> Iterator[str]:
    """Facts worth telling that are not rule breaks."""
    b = ship.board
    if not b.verified:
        yield (f"board {b.name} is provisional (verified = false): its geometry comes from secondary "
               "sources" + (f"; {b.note}" if b.note else ""))
    if b.start is None and ship.pilot is None:
        yield ("the pilot cabin is not placed: legal on this board, but it counts as a lost component "
               "at the end of the flight")
    if ship.aside:
        yield f"{len(ship.aside)} component(s) set aside: each costs 1 credit at the end of the flight"


# -- the registry ---------------------------------------------------------------------------------
def _ship(tiles: str, cls: str = "I", extra: str = "") -> str:
    return f'format = 1\nclass = "{cls}"\n{extra}' + tiles


_PILOT = '\n[[tile]]\nat = [7, 7]\nkind = "start_cabin"\nsides = "3333"\n'

RULES: dict[str, Rule] = {
    r.code: r
    for r in (
        Rule("B1", "off-board", "error",
             "A component stands on a square that is not part of the building area, or on a die square "
             "that is still locked.",
             "Only the squares drawn on the board are buildable; a component outside them must be "
             "removed at the inspection.",
             _ship(_PILOT + '\n[[tile]]\nat = [7, 8]\nkind = "structural"\nsides = "3030"\n'
                   '\n[[tile]]\nat = [7, 9]\nkind = "cargo"\nsides = "1000"\nslots = 2\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [7, 8]\nkind = "structural"\nsides = "3003"\n'
                   '\n[[tile]]\nat = [6, 8]\nkind = "cargo"\nsides = "0100"\nslots = 2\n'),
             source="Base game rulebook, “CONSTRUIR NAVES” and “FINALIZANDO SUA NAVE” (only marked squares are built on); Latest Models, “Classe IVC” (die squares)."),
        Rule("B2", "start-square", "error",
             "The start square holds something other than the pilot cabin, or the pilot cabin stands "
             "elsewhere.",
             "On boards with a start square the pilot cabin stands there from the beginning and never "
             "moves. Removing components cannot mend this, so `fix` gives up on it.",
             _ship('\n[[tile]]\nat = [7, 8]\nkind = "start_cabin"\nsides = "3333"\n'
                   '\n[[tile]]\nat = [7, 7]\nkind = "structural"\nsides = "3333"\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [7, 8]\nkind = "structural"\nsides = "3333"\n'),
             fixable=False,
             source="Base game rulebook, “PREPARAÇÃO” (the pilot cabin starts on the square marked with the class number)."),
        Rule("C1", "connector-vs-smooth", "error",
             "A connector faces a smooth side (barrels and exhausts count as smooth).",
             "A smooth side cannot be joined to any connector; the pair is a construction "
             "error even when both tiles are held by other joints. Across a seam it is C1 as well.",
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "cargo"\nsides = "0000"\nslots = 2\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "cargo"\nsides = "0001"\nslots = 2\n'),
             source="Base game rulebook, “CONSTRUIR NAVES” (a smooth side cannot join a connector)."),
        Rule("C2", "single-vs-double", "error",
             "A single connector faces a double connector.",
             "Single joins single or universal, double joins double or universal.",
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "structural"\nsides = "0103"\n'
                   '\n[[tile]]\nat = [9, 7]\nkind = "cargo"\nsides = "0002"\nslots = 2\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "structural"\nsides = "0203"\n'
                   '\n[[tile]]\nat = [9, 7]\nkind = "cargo"\nsides = "0002"\nslots = 2\n'),
             source="Base game rulebook, “CONSTRUIR NAVES” (a single connector does not join a double one)."),
        Rule("C3", "seam-mismatch", "error",
             "Two different connector types meet across a transdimensional seam (IC/IIC).",
             "Across the seam only identical connectors join: universal joins only universal there. "
             "Never reported as C2 as well.",
             'format = 1\nclass = "IIC"\n\n[[tile]]\nat = {col = 1, row = 2}\nkind = "start_cabin"\n'
             'sides = "3333"\n\n[[tile]]\nat = {col = 2, row = 2}\nkind = "structural"\nsides = "0001"\n',
             'format = 1\nclass = "IIC"\n\n[[tile]]\nat = {col = 1, row = 2}\nkind = "start_cabin"\n'
             'sides = "3333"\n\n[[tile]]\nat = {col = 2, row = 2}\nkind = "structural"\nsides = "0003"\n',
             source="Latest Models, “Classes IC e IIC” (the transdimensional seam)."),
        Rule("E1", "engine-not-rear", "error",
             "An engine's exhaust does not point to the rear (the chosen rear on class IA).",
             "Every engine must push the ship forward; a turned engine is a construction "
             "error and goes to the discard pile.",
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "engine"\nsides = "3000"\nrot = 270\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [7, 8]\nkind = "engine"\nsides = "3000"\n'),
             source="Base game rulebook, “Turbinas” (engines point to the rear); The Big Expansion, “Canhão Turbinado”."),
        Rule("E2", "engine-blocked", "error",
             "A component stands on the square the exhaust points to.",
             "The square behind an engine must stay empty; on a wrap board that square may "
             "be across the edge.",
             _ship(_PILOT + '\n[[tile]]\nat = [6, 7]\nkind = "structural"\nsides = "0333"\n'
                   '\n[[tile]]\nat = [6, 8]\nkind = "engine"\nsides = "3000"\n'
                   '\n[[tile]]\nat = [5, 7]\nkind = "structural"\nsides = "0330"\n'
                   '\n[[tile]]\nat = [5, 8]\nkind = "structural"\nsides = "3030"\n'
                   '\n[[tile]]\nat = [5, 9]\nkind = "structural"\nsides = "3300"\n'
                   '\n[[tile]]\nat = [6, 9]\nkind = "cargo"\nsides = "0003"\nslots = 2\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [6, 7]\nkind = "structural"\nsides = "0333"\n'
                   '\n[[tile]]\nat = [6, 8]\nkind = "engine"\nsides = "3000"\n'
                   '\n[[tile]]\nat = [5, 7]\nkind = "structural"\nsides = "0330"\n'
                   '\n[[tile]]\nat = [5, 8]\nkind = "structural"\nsides = "3030"\n'
                   '\n[[tile]]\nat = [5, 9]\nkind = "cargo"\nsides = "3000"\nslots = 2\n'),
             source="Base game rulebook, “Turbinas” (nothing behind an engine); The Big Expansion, “Canhão Turbinado”."),
        Rule("K1", "cannon-blocked", "error",
             "A component stands on the square in front of a cannon's barrel (each barrel of a "
             "bi-directional cannon, the cannon of a cannon engine).",
             "A barrel needs an empty square in front of it; a barrel pointing off the board "
             "or at a hole inside the ship is legal.",
             _ship(_PILOT + '\n[[tile]]\nat = [6, 7]\nkind = "cannon"\nsides = "0300"\n'
                   '\n[[tile]]\nat = [7, 6]\nkind = "cabin"\nsides = "0013"\n'
                   '\n[[tile]]\nat = [6, 6]\nkind = "cargo"\nsides = "0300"\nslots = 2\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [6, 7]\nkind = "cannon"\nsides = "0300"\n'
                   '\n[[tile]]\nat = [7, 6]\nkind = "cabin"\nsides = "0013"\n'),
             source="Base game rulebook, “Canhões” and “PERGUNTAS FREQUENTES”; The Big Expansion, “Canhão Bi-Direcional” and “Canhão Turbinado”."),
        Rule("S1", "disconnected", "error",
             "A piece is not joined to the ship: the piece holding the pilot cabin (or, in a hull "
             "without one, the largest piece). Joins follow legal connector pairs only.",
             "Every component must be joined to the rest of the ship; smooth beside smooth "
             "touches but does not join, and an illegal joint does not join either.",
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "structural"\nsides = "0003"\n'
                   '\n[[tile]]\nat = [9, 7]\nkind = "cargo"\nsides = "1000"\nslots = 2\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "structural"\nsides = "0103"\n'
                   '\n[[tile]]\nat = [9, 7]\nkind = "cargo"\nsides = "1001"\nslots = 2\n'),
             source="Base game rulebook, “CONSTRUIR NAVES” (every component joined to the ship); The Big Expansion, “NAVES DE CLASSE IIA” (two halves)."),
        Rule("A1", "alien-without-support", "error",
             "An alien in an ordinary cabin has no life support of its colour joined to that cabin.",
             "An alien may board only a cabin joined (by a legal joint, not mere adjacency) to a life "
             "support of its colour. Mended by placing the crew differently, not by `fix`.",
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "cabin"\nsides = "0003"\ncrew = "purple"\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "cabin"\nsides = "0033"\ncrew = "purple"\n'
                   '\n[[tile]]\nat = [8, 8]\nkind = "life_support"\nsides = "3000"\ncolor = "purple"\n'),
             fixable=False,
             source="Base game rulebook, “ALIENÍGENAS” (the life support must be attached to the cabin); the official FAQ."),
        Rule("A2", "alien-not-allowed", "error",
             "An alien in the pilot cabin, a luxury cabin or a stasis chamber.",
             "Aliens never board the pilot cabin, a luxury cabin or a stasis chamber.",
             'format = 1\nclass = "I"\n\n[[tile]]\nat = [7, 7]\nkind = "start_cabin"\nsides = "3333"\n'
             'crew = "purple"\n\n[[tile]]\nat = [8, 7]\nkind = "life_support"\nsides = "0003"\n'
             'color = "purple"\n',
             'format = 1\nclass = "I"\n\n[[tile]]\nat = [7, 7]\nkind = "start_cabin"\nsides = "3333"\n'
             '\n[[tile]]\nat = [8, 7]\nkind = "life_support"\nsides = "0033"\ncolor = "purple"\n'
             '\n[[tile]]\nat = [8, 8]\nkind = "cabin"\nsides = "3000"\ncrew = "purple"\n',
             fixable=False,
             source="Base game rulebook, “ALIENÍGENAS” (never in the pilot cabin); The Big Expansion, “Módulo de Suporte de Vida Azul”."),
        Rule("A3", "duplicate-alien", "error",
             "The ship holds two aliens of one colour.",
             "At most one alien of each colour per ship, across both halves on class IIA.",
             'format = 1\nclass = "I"\n' + _PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "cabin"\nsides = "0033"\n'
             'crew = "orange"\n\n[[tile]]\nat = [8, 8]\nkind = "life_support"\nsides = "3033"\ncolor = "orange"\n'
             '\n[[tile]]\nat = [7, 8]\nkind = "cabin"\nsides = "3100"\ncrew = "orange"\n',
             'format = 1\nclass = "I"\n' + _PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "cabin"\nsides = "0033"\n'
             'crew = "orange"\n\n[[tile]]\nat = [8, 8]\nkind = "life_support"\nsides = "3033"\ncolor = "orange"\n'
             '\n[[tile]]\nat = [7, 8]\nkind = "cabin"\nsides = "3100"\n',
             fixable=False,
             source="Base game rulebook, “Disposição da Tripulação”; The Big Expansion, “ALIENÍGENAS AZUIS” and “NAVES DE CLASSE IIA”."),
        Rule("W1", "idle-component", "warning",
             "A life support, booster or reactor furnace is joined to nothing it can serve.",
             "Legal, but it does nothing: life support serves an ordinary cabin, boosters their shield, "
             "cannon or engine, the furnace a battery — each only through a legal joint.",
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "life_support"\nsides = "0003"\ncolor = "orange"\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nkind = "life_support"\nsides = "0033"\ncolor = "orange"\n'
                   '\n[[tile]]\nat = [8, 8]\nkind = "cabin"\nsides = "3000"\n'),
             fixable=False,
             source="The Big Expansion, “Dínamo de Escudos”, “Dínamo de Canhões”, “Dínamo de Turbinas”, “Fornalha do Reator”; base game rulebook, “ALIENÍGENAS”. Reading “directly connected” as a legal joint is this project's choice for the boosters and the furnace."),
    )
}

FIXABLE = frozenset(c for c, r in RULES.items() if r.fixable and r.severity == "error")
