"""Construction rules: one stable code per rule, violations returned as a list.

The checker never raises for an illegal ship; every rule reads the board's neighbour table, so
flat boards, wrap-around, seams, hulls and die squares need no special cases here.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

from shipcheck.errors import InputError, check_type, suggest
from shipcheck.model import (
    ALIENS,
    BATTERY_KINDS,
    CANNON_KINDS,
    CONNECTOR_NAMES,
    ENGINE_KINDS,
    KINDS,
    OPPOSITE,
    SMOOTH,
    Ship,
    Tile,
    compatible,
)
from shipcheck.topology import Square, exposed_connectors

SIDE_LETTERS = "NESW"
_new = object.__new__


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


class Violation:
    """One rule break: the code, the squares involved (grid indices) and a plain sentence.

    A small frozen record, equal, hashed, pickled and shown by ``(code, cells, message)``. The
    checker hands the sentence over as a template and its arguments (:meth:`later`), built on
    first reading: callers that look only at codes and squares (``fix``, the round engine, the
    placement advisor) never pay for it.
    """

    __slots__ = ("code", "cells", "_message")
    __match_args__ = ("code", "cells", "message")

    code: str
    cells: tuple[int, ...]
    _message: str | tuple[Callable[..., str], tuple[Any, ...]]

    def __init__(self, code: str, cells: tuple[int, ...], message: str) -> None:
        _SET_CODE(self, code)
        _SET_CELLS(self, cells)
        _SET_MESSAGE(self, message)

    @classmethod
    def later(cls, code: str, cells: tuple[int, ...], say: Callable[..., str], *args: Any) -> Violation:
        """A violation whose message is ``say(*args)``, built when first read."""
        v = _new(cls)
        _SET_CODE(v, code)
        _SET_CELLS(v, cells)
        _SET_MESSAGE(v, (say, args))
        return v

    @property
    def message(self) -> str:
        m = self._message
        if not isinstance(m, str):
            say, args = m
            m = say(*args)
            _SET_MESSAGE(self, m)
        return m

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _fields(self) -> tuple[str, tuple[int, ...], str]:
        return (self.code, self.cells, self.message)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Violation)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Violation, self._fields())

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


# the slots' own setters: a violation's fields are set once, past its frozen __setattr__ (and
# faster than object.__setattr__, which the checker would pay on every violation)
_SET_CODE = vars(Violation)["code"].__set__
_SET_CELLS = vars(Violation)["cells"].__set__
_SET_MESSAGE = vars(Violation)["_message"].__set__


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

        from shipcheck.render import render_ship

        items = "".join(f"<li><b>{v.code}</b> {escape(v.rule.name)}: {escape(v.message)}</li>"
                        for v in self.violations)
        return (f"<p>{escape(repr(self.ship))}<br><b>{escape(self.summary())}</b></p>"
                + render_ship(self.ship, marks=self.marks()).html() + (f"<ul>{items}</ul>" if items else ""))

    def __rich__(self) -> Any:
        from shipcheck.render import render_ship

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
# Every square of a board is a bit of an int. A board's neighbour table becomes, per side, a few
# (mask, shift) pairs, so "the neighbour across side s of every square in M" is a handful of
# shifts; a ship's connectors become one mask per (side, connector). Facing pairs, joins, pieces
# and exposed connectors are then bit operations over the whole ship at once, and per-joint
# records (messages, :class:`Joint`) are built only for what is reported or asked for.

E, S, W, N = 1, 2, 3, 0


def _bits(m: int) -> Iterator[int]:
    """Indices of the set bits of ``m``, lowest first."""
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


class _Geometry:
    """A board's neighbour table as bit moves, computed once per board."""

    __slots__ = ("nb", "to", "back", "seam", "start_bit", "squares", "names", "lanes", "shifts", "full", "_build",
                 "_hull_masks")

    def __init__(self, board: Any) -> None:
        nb = board.nb
        self.nb = nb
        self.squares = board.squares  # what reports name squares by
        self.names = tuple(sq.label for sq in self.squares)  # and how messages write them
        to: list[tuple[tuple[int, int], ...]] = []
        back: list[tuple[tuple[int, int], ...]] = []
        for s in range(4):
            src: dict[int, int] = {}
            dst: dict[int, int] = {}
            for i, row in enumerate(nb):
                j = row[s]
                if j >= 0:
                    if nb[j][OPPOSITE[s]] != i:  # every table here is symmetric; the moves rely on it
                        raise ValueError(f"board {board.name}: neighbour table not symmetric at {i}")
                    src[j - i] = src.get(j - i, 0) | 1 << i
                    dst[j - i] = dst.get(j - i, 0) | 1 << j
            to.append(tuple(sorted(src.items())))
            back.append(tuple(sorted(dst.items())))
        self.to = tuple(to)  # square i -> its neighbour across side s
        self.back = tuple(back)  # square j -> the square whose side-s neighbour it is
        seam = [0, 0, 0, 0]
        for i, row in enumerate(board.seam_side):
            for s in range(4):
                if row[s]:
                    seam[s] |= 1 << i
        self.seam = tuple(seam)
        self.start_bit = 0 if board.start is None else 1 << board.start
        # a tile's connectors as one int of 16 lanes of a board's width, lane 4 s + c holding the
        # squares whose side s carries connector c: a layout ORs its tiles' lanes (Tile.eff_code)
        n = len(nb)
        self.shifts = tuple(range(0, 16 * n, n))
        self.full = (1 << n) - 1
        self.lanes = [sum(1 << (4 * s + (code >> 2 * s & 3)) * n for s in range(4)) for code in range(256)]
        self._build: dict[tuple[int, ...], int] = {}
        self._hull_masks: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}

    def move(self, m: int, s: int) -> int:
        """Squares across side ``s`` of the squares in ``m``."""
        out = 0
        for d, src in self.to[s]:
            x = m & src
            if x:
                out |= x << d if d > 0 else x >> -d
        return out

    def facing(self, m: int, s: int) -> int:
        """Squares whose side-``s`` neighbour is in ``m``."""
        out = 0
        for d, dst in self.back[s]:
            x = m & dst
            if x:
                out |= x >> d if d > 0 else x << -d
        return out

    def buildable(self, board: Any, dice: tuple[int, ...]) -> int:
        key = tuple(sorted(set(dice))) if board.die_squares else ()
        m = self._build.get(key)
        if m is None:
            m = sum(1 << i for i in range(board.size) if board.buildable(i, key))
            self._build[key] = m
        return m

    def hull_masks(self, board: Any, dice: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        """Squares of each hull group, and the squares of no hull."""
        key = tuple(sorted(set(dice))) if board.die_squares else ()
        hm = self._hull_masks.get(key)
        if hm is None:
            hulls = board.hulls(key)
            groups = [0] * (max((h for h in hulls if h is not None), default=-1) + 1)
            none = 0
            for i, h in enumerate(hulls):
                if h is None:
                    none |= 1 << i
                else:
                    groups[h] |= 1 << i
            hm = self._hull_masks[key] = (tuple(groups), none)
        return hm


def geometry(board: Any) -> _Geometry:
    """The bit moves of a board (cached on the board, like its hull groups)."""
    g = board.__dict__.get("_bit_geometry")
    if g is None:
        g = board.__dict__["_bit_geometry"] = _Geometry(board)
    return g


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


class Layout:
    """Facing pairs, joins and pieces of a set of tiles on a board, computed once as bitmasks.

    ``occ`` holds the occupied squares; ``pairs[d]``, ``joined[d]`` and ``bad[d][code]`` (d = 0 for
    the east-west edges, 1 for the north-south ones) hold the square on the west (north) side of each
    edge between two tiles, of each joined edge and of each edge breaking C1, C2 or C3.
    """

    __slots__ = ("board", "tiles", "geo", "occ", "conn", "beside", "pairs", "joined", "bad", "notable", "_adj",
                 "_joints", "_pieces")

    def __init__(self, ship: Ship, tiles: dict[int, Tile] | None = None) -> None:
        g = geometry(ship.board)
        lanes = g.lanes
        acc = 0  # the tiles' connectors, in lanes (_Geometry.lanes)
        by: dict[int, Tile] = {}
        notable = []  # tiles some rule beyond the joints looks at, in grid order
        for t in ship.tiles if tiles is None else tiles.values():
            i = t.at
            by[i] = t
            acc |= lanes[t.eff_code] << i
            if t.kind in _NOTABLE or t.crew is not None:
                notable.append(t)
        full = g.full
        c = [acc >> k & full for k in g.shifts]
        # conn[s][c]: squares whose side s carries connector c (index 0: smooth sides)
        self._derive(ship, by, (tuple(c[0:4]), tuple(c[4:8]), tuple(c[8:12]), tuple(c[12:16])), notable)

    @classmethod
    def welded(cls, ship: Ship, before: Layout, i: int) -> Layout:
        """The layout of ``ship``, ``before``'s ship with one tile more, on square ``i``: made from
        ``before``'s bitmasks (the advisor asks it of every candidate placement) and kept on ``ship``."""
        if before.occ >> i & 1:  # not a tile more: the whole layout
            return cls.of(ship)
        lay = cls.__new__(cls)
        tiles = ship.by_index
        t, b = tiles[i], 1 << i
        conn = []
        for side, c in zip(before.conn, t.eff):
            row = list(side)
            row[c] |= b
            conn.append(tuple(row))
        notable = before.notable
        if t.kind in _NOTABLE or t.crew is not None:
            notable = sorted([*notable, t], key=lambda x: x.at)
        lay._derive(ship, tiles, tuple(conn), notable)
        ship.__dict__["_layout"] = lay
        return lay

    def _derive(self, ship: Ship, tiles: dict[int, Tile], conn: tuple[tuple[int, ...], ...],
                notable: list[Tile]) -> None:
        """Everything else from the tiles' connectors by side (``conn``)."""
        # the board, not the ship: a layout kept on its ship (Layout.of) holds no reference back to it,
        # so the ship is freed when dropped, not left to the garbage collector's rounds
        self.board, self.tiles, self.conn, self.notable = ship.board, tiles, conn, notable
        g = self.geo = geometry(ship.board)
        cn_ = conn[0]
        self.occ = occ = cn_[0] | cn_[1] | cn_[2] | cn_[3]
        # beside[s]: squares whose side-s neighbour holds a tile (the joints, exhausts, barrels and
        # exposed connectors all ask)
        fo = g.facing
        self.beside = (fo(occ, 0), fo(occ, 1), fo(occ, 2), fo(occ, 3))
        pairs = []
        joined = []
        bad = []
        for near, far in ((E, W), (S, N)):
            an = self.conn[near]
            bf = self.conn[far]
            p = occ & self.beside[near]
            b1, b2, b3 = g.facing(bf[1], near), g.facing(bf[2], near), g.facing(bf[3], near)
            a_con = p & ~an[0]
            b_con = p & (b1 | b2 | b3)
            both = a_con & b_con
            seam = g.seam[near]
            same = (an[1] & b1) | (an[2] & b2) | (an[3] & b3)
            c1 = a_con ^ b_con
            c2 = both & ~seam & ((an[1] & b2) | (an[2] & b1))
            c3 = both & seam & ~same
            pairs.append(p)
            joined.append(both & ~c2 & ~c3)
            bad.append((c1, c2, c3))
        self.pairs = (pairs[0], pairs[1])
        self.joined = (joined[0], joined[1])
        self.bad = (bad[0], bad[1])
        self._adj: dict[int, list[int]] | None = None
        self._joints: list[Joint] | None = None
        self._pieces: list[int] | None = None

    @classmethod
    def of(cls, ship: Ship, tiles: dict[int, Tile] | None = None) -> Layout:
        """The layout of ``ship`` (made once and kept on the ship: the advisor asks it of each
        candidate twice), or of some of its ``tiles``."""
        if tiles is not None:
            return cls(ship, tiles)
        lay = ship.__dict__.get("_layout")
        if lay is None:
            lay = ship.__dict__["_layout"] = cls(ship)
        return lay  # type: ignore[no-any-return]

    def breaks_at(self, i: int) -> bool:
        """Whether an edge of square ``i`` breaks C1, C2 or C3 (a tile just placed there: an error the
        ship without it cannot have had)."""
        nb = self.geo.nb[i]
        ew = 1 << i | (1 << nb[W] if nb[W] >= 0 else 0)  # the east edge's bit is i's, the west's its neighbour's
        ns = 1 << i | (1 << nb[N] if nb[N] >= 0 else 0)
        return any(m & ew for m in self.bad[0]) or any(m & ns for m in self.bad[1])

    def _edge(self, x: int, d: int) -> tuple[int, int, int, int, int, bool]:
        """The joint on the east (d = 0) or south (d = 1) edge of square ``x``, as :class:`Joint` fields."""
        near = E if d == 0 else S
        y = self.geo.nb[x][near]
        seam = self.board.seam_side
        tx, ty = self.tiles[x], self.tiles[y]
        if x < y:
            return (x, near, y, tx.eff[near], ty.eff[OPPOSITE[near]], seam[x][near])
        far = OPPOSITE[near]
        return (y, far, x, ty.eff[far], tx.eff[near], seam[y][far])

    def bad_edges(self) -> list[tuple[int, int, int, str, int, int]]:
        """The joints breaking C1, C2 or C3, in the order of :attr:`joints`: ``(i, side, j, code, x, d)``,
        where ``i``, ``side``, ``j`` are the first :class:`Joint` fields and ``_edge(x, d)`` gives them all."""
        nb = self.geo.nb
        out = []
        for d, near in ((0, E), (1, S)):
            far = OPPOSITE[near]
            for code, m in zip(("C1", "C2", "C3"), self.bad[d]):
                for x in _bits(m):
                    y = nb[x][near]
                    out.append((x, near, y, code, x, d) if x < y else (y, far, x, code, x, d))
        out.sort()  # (i, side) names one edge, so the sort never looks further
        return out

    def joint_message(self, code: str, x: int, d: int) -> str:
        """The sentence for the joint on the east (d = 0) or south (d = 1) edge of ``x`` breaking ``code``."""
        return _joint_message(code, self._edge(x, d), self.geo.names)

    @property
    def joints(self) -> list[Joint]:
        """Every pair of facing tiles, by first square then side."""
        if self._joints is None:
            js = sorted(self._edge(x, d) for d in (0, 1) for x in _bits(self.pairs[d]))
            self._joints = [Joint(*e) for e in js]
        return self._joints

    @property
    def adj(self) -> dict[int, list[int]]:
        """Joined neighbours of every square (sorted)."""
        if self._adj is None:
            adj: dict[int, list[int]] = {i: [] for i in self.tiles}
            nb = self.geo.nb
            for d, near in ((0, E), (1, S)):
                for x in _bits(self.joined[d]):
                    y = nb[x][near]
                    adj[x].append(y)
                    adj[y].append(x)
            for v in adj.values():
                v.sort()
            self._adj = adj
        return self._adj

    def joined_to(self, i: int) -> int:
        """Bitmask of the squares joined to square ``i``."""
        je, js = self.joined
        row = self.geo.nb[i]
        m = 0
        if je >> i & 1:
            m |= 1 << row[E]
        if js >> i & 1:
            m |= 1 << row[S]
        j = row[W]
        if j >= 0 and je >> j & 1:  # the table is symmetric: j's east neighbour is i
            m |= 1 << j
        j = row[N]
        if j >= 0 and js >> j & 1:
            m |= 1 << j
        return m

    def join_shifts(self) -> list[tuple[int, int]]:
        """The joins as ``(d, m)`` pairs: square ``x`` in ``m`` is joined to square ``x + d`` (``d > 0``).

        One pair per shift of the board's neighbour table (two on a flat board); a wrap or a seam
        that joins ``x`` to ``x - d`` is written from the other end, so every shift is positive.
        """
        out = []
        for side, joined in ((E, self.joined[0]), (S, self.joined[1])):
            for d, src in self.geo.to[side]:
                m = joined & src
                if m:
                    out.append((d, m) if d > 0 else (-d, m >> -d))
        return out

    def spread(self, seed: int, shifts: list[tuple[int, int]] | None = None) -> int:
        """All squares reachable from ``seed`` over joins (``shifts``: :meth:`join_shifts`, if known)."""
        parts = self.join_shifts() if shifts is None else shifts
        comp = frontier = seed
        if len(parts) == 2:  # a flat board
            (d1, m1), (d2, m2) = parts
            while frontier:
                nxt = (frontier & m1) << d1 | (frontier >> d1) & m1 | (frontier & m2) << d2 | (frontier >> d2) & m2
                frontier = nxt & ~comp
                comp |= frontier
            return comp
        if len(parts) <= 4:  # wraps and seams of the built-in boards
            (d1, m1), (d2, m2), (d3, m3), (d4, m4) = parts + [(0, 0)] * (4 - len(parts))
            while frontier:
                nxt = ((frontier & m1) << d1 | (frontier >> d1) & m1 | (frontier & m2) << d2 | (frontier >> d2) & m2
                       | (frontier & m3) << d3 | (frontier >> d3) & m3 | (frontier & m4) << d4 | (frontier >> d4) & m4)
                frontier = nxt & ~comp
                comp |= frontier
            return comp
        while frontier:
            nxt = 0
            for d, m in parts:
                nxt |= (frontier & m) << d | (frontier >> d) & m
            frontier = nxt & ~comp
            comp |= frontier
        return comp

    def piece_masks(self) -> list[int]:
        """Connected pieces as bitmasks, in order of their first square."""
        if self._pieces is None:
            rest = self.occ
            shifts = self.join_shifts()
            # from the start square (mid-ship) the search takes fewer rounds than from a corner
            seed = self.geo.start_bit & rest or rest & -rest
            out: list[int] = []
            while rest:
                comp = self.spread(seed, shifts)
                out.append(comp)
                rest &= ~comp
                seed = rest & -rest
            if len(out) > 1:
                out.sort(key=lambda p: p & -p)
            self._pieces = out
        return self._pieces

    def pieces(self) -> list[list[int]]:
        """Connected pieces (by joins), each sorted, in order of their first square."""
        return [list(_bits(p)) for p in self.piece_masks()]

    def exposed(self) -> tuple[int, tuple[int, int, int, int]]:
        """Connectors facing no tile (an empty square or the edge of the board): total and per side."""
        occ, (cn, ce, cs, cw), (fn, fe, fs, fw) = self.occ, self.conn, self.beside
        by_side = (exposed_connectors(occ, occ & ~cn[0], fn).bit_count(),
                   exposed_connectors(occ, occ & ~ce[0], fe).bit_count(),
                   exposed_connectors(occ, occ & ~cs[0], fs).bit_count(),
                   exposed_connectors(occ, occ & ~cw[0], fw).bit_count())
        return sum(by_side), by_side


def kept_pieces(ship: Ship, pieces: list[list[int]], tiles: dict[int, Tile]) -> tuple[list[list[int]], list[list[int]]]:
    """Split pieces into the ship and the pieces not joined to it (S1).

    Per hull, the ship is the piece holding the pilot cabin, else the largest piece (ties: first
    square in row-major order); every other piece touching that hull is S1, and so is a piece
    standing on no hull at all (contract §2).
    """
    masks = [sum(1 << i for i in p) for p in pieces]
    pilot = next((i for i, t in tiles.items() if t.kind == "start_cabin"), None)
    kept, loose = _kept_masks(ship, masks, pilot)
    return [list(_bits(m)) for m in kept], [list(_bits(m)) for m in loose]


def _kept_masks(ship: Ship, pieces: list[int], pilot: int | None) -> tuple[list[int], list[int]]:
    """:func:`kept_pieces` on bitmask pieces (in order of their first square)."""
    groups, _ = geometry(ship.board).hull_masks(ship.board, ship.dice)
    if len(groups) == 1:  # one hull (most boards): the rule below, without the bookkeeping
        hm = groups[0]
        if len(pieces) == 1:
            p = pieces[0]
            return ([p], []) if p & hm else ([], [p])
        on = [p for p in pieces if p & hm]
        if not on:
            return [], list(pieces)
        pb = 0 if pilot is None else 1 << pilot
        ship_ = next((p for p in on if p & pb), None) if pb & hm else None
        if ship_ is None:
            ship_ = min(on, key=lambda p: (-p.bit_count(), p & -p))
        return [ship_], [p for p in pieces if p != ship_]
    pb = -1 if pilot is None else 1 << pilot
    chosen: dict[int, int] = {}
    for h, hm in enumerate(groups):
        cands = [k for k, p in enumerate(pieces) if p & hm]
        if not cands:
            continue
        if pb >= 0 and pb & hm:
            chosen[h] = next(k for k in cands if pieces[k] & pb)
        else:
            chosen[h] = min(cands, key=lambda k: (-pieces[k].bit_count(), pieces[k] & -pieces[k]))
    kept: list[int] = []
    loose: list[int] = []
    for k, p in enumerate(pieces):
        on = [h for h, hm in enumerate(groups) if p & hm]
        (kept if on and all(chosen[h] == k for h in on) else loose).append(p)
    return kept, loose


# -- the checker ----------------------------------------------------------------------------------
def _side_text(c: int) -> str:
    return CONNECTOR_NAMES[c]


def _joint_message(code: str, edge: tuple[int, int, int, int, int, bool], names: tuple[str, ...]) -> str:
    i, side, j, a, b, seam = edge
    name = names.__getitem__
    sl, o = SIDE_LETTERS[side], SIDE_LETTERS[OPPOSITE[side]]
    if code == "C1":
        if a == SMOOTH:
            msg = f"{_side_text(b)} connector of {name(j)} {o} meets the smooth {sl} side of {name(i)}"
        else:
            msg = f"{_side_text(a)} connector of {name(i)} {sl} meets the smooth {o} side of {name(j)}"
        if seam:
            msg += " across the seam"
        return msg
    if code == "C2":
        return f"{_side_text(a)} connector of {name(i)} {sl} meets the {_side_text(b)} {o} of {name(j)}"
    return (f"{_side_text(a)} {sl} of {name(i)} meets {_side_text(b)} {o} of {name(j)} across "
            "the seam, where only identical connectors join")


def _loose_message(cells: tuple[int, ...], names: tuple[str, ...]) -> str:
    return f"{len(cells)} component(s) not joined to the ship: {', '.join(names[i] for i in cells)}"


_SERVES = {
    "life_support": ("cabin", ("cabin",)),
    "shield_booster": ("shield", ("shield",)),
    "cannon_booster": ("cannon", CANNON_KINDS),
    "engine_booster": ("engine", ENGINE_KINDS),
    "reactor_furnace": ("battery", BATTERY_KINDS),
}
_NOTABLE = frozenset(("start_cabin", *ENGINE_KINDS, *CANNON_KINDS, *_SERVES))
_ORDER: dict[str, int] = {}  # code -> position in the registry (filled below RULES)


# kind -> per quarter turn, the board sides of its exhausts and of its barrels
_FUNCTIONAL = {
    k: tuple((tuple((x + r) % 4 for x in info.exhausts), tuple((x + r) % 4 for x in info.barrels)) for r in range(4))
    for k, info in KINDS.items() if info.exhausts or info.barrels
}


def _twice_message(tid: str, at: tuple[str, ...], aside: int) -> str:
    where_ = " and ".join(at) if len(at) <= 2 else ", ".join(at[:-1]) + " and " + at[-1]
    extra = f", and set aside {aside} time{'s' if aside > 1 else ''}" if aside else ""
    return (f"catalogue tile {tid} stands at {where_}{extra}: each printed tile exists once in the box "
            "(use another copy's id, or kind and sides)")


def _rule_codes(codes: Any, name: str) -> set[str] | None:
    """A set of known rule codes from a library argument (any case), or None."""
    if codes is None:
        return None
    if isinstance(codes, str):
        codes = [codes]
    try:
        items = list(codes)
    except TypeError:
        raise InputError(f"bad `{name}`", key=name, value=codes, expected="rule codes, e.g. {'C1', 'C2'}") from None
    out = set()
    for c in items:
        code = c.upper() if isinstance(c, str) else c
        if code not in RULES:
            raise InputError(f"unknown rule code in `{name}`", key=name, value=c,
                             expected="codes from shipcheck.RULES: " + ", ".join(RULES), hint=suggest(c, RULES))
        out.add(code)
    return out


def _joined_to_any(lay: Layout, i: int, kinds: Container[str], colour: str | None = None) -> bool:
    """Whether the tile on square ``i`` is joined to a tile of one of ``kinds`` (of ``colour``, if given)."""
    m, tiles = lay.joined_to(i), lay.tiles
    while m:
        low = m & -m
        t = tiles[low.bit_length() - 1]
        if t.kind in kinds and (colour is None or t.attr("color") == colour):
            return True
        m ^= low
    return False


def _alien_breaks(lay: Layout, aliens_at: list[Tile], sq: tuple[Square, ...],
                  names: tuple[str, ...]) -> list[Violation]:
    """A1, A2, A3: an alien without its life support, outside an ordinary cabin, or two of a colour."""
    later = Violation.later
    out: list[Violation] = []
    aliens: dict[str, list[int]] = {}
    for t in aliens_at:
        i, al = t.at, t.crew
        assert al is not None
        aliens.setdefault(al, []).append(i)
        if t.kind == "cabin":
            if not _joined_to_any(lay, i, ("life_support",), al):
                out.append(later("A1", (sq[i],), "{0} alien at {1} has no {0} life support joined to its cabin".format,
                                 al, names[i]))
        else:
            out.append(later("A2", (sq[i],), "{} alien in the {} at {}: aliens live only in ordinary cabins".format,
                             al, t.kind, names[i]))
    for al, where_ in sorted(aliens.items()):
        if len(where_) > 1:
            out.append(later("A3", tuple(sq[i] for i in where_), "{} {} aliens aboard; at most one per colour".format,
                             len(where_), al))
    return out


def _twice_breaks(ship: Ship, sq: tuple[Square, ...], names: tuple[str, ...]) -> list[Violation]:
    """T1: a catalogue tile named twice (each printed tile exists once in the box)."""
    ids = {t.id for t in ship.tiles}  # every id distinct, or none named: the usual case, said at a set's cost
    if (len(ids) == len(ship.tiles) or ids == {None}) and not (ship.aside and any(a.id in ids for a in ship.aside)):
        return []
    later = Violation.later
    out: list[Violation] = []
    named: dict[str, list[int]] = {}
    for t in ship.tiles:
        if t.id is not None:
            named.setdefault(t.id, []).append(t.at)
    for a in ship.aside:
        if a.id is not None and a.id in named:
            named[a.id].append(-1)  # set aside: named again, on no square
    for tid, where_ in named.items():
        if len(where_) > 1:
            on = sorted(i for i in where_ if i >= 0)
            out.append(later("T1", tuple(sq[i] for i in on), _twice_message, tid, tuple(names[i] for i in on),
                             len(where_) - len(on)))
    return out


def _idle_breaks(lay: Layout, servers: list[Tile], sq: tuple[Square, ...],
                 names: tuple[str, ...]) -> list[Violation]:
    """W1: components that serve nothing (a life support, booster or furnace joined to nothing it serves)."""
    later = Violation.later
    out: list[Violation] = []
    for t in servers:
        target, kinds = _SERVES[t.kind]
        if not _joined_to_any(lay, t.at, kinds):
            out.append(later("W1", (sq[t.at],), "{} at {} is joined to no {}: it does nothing".format,
                             t.kind, names[t.at], target))
    return out


def check(ship: Ship, *, select: Iterable[str] | None = None, ignore: Iterable[str] | None = None) -> CheckReport:
    """All rule breaks of a ship, in code order, and its exposed connectors.

    ``select`` keeps only the violations of these rule codes, ``ignore`` leaves these out; an
    unknown code is an :class:`~shipcheck.errors.InputError`.
    """
    check_type(ship, Ship, "ship", "a Ship (see load_ship)")
    select = _rule_codes(select, "select")
    ignore = _rule_codes(ignore, "ignore")
    b = ship.board
    lay = Layout.of(ship)
    tiles = lay.tiles
    g = lay.geo
    occ = lay.occ
    out: list[Violation] = []
    # cells are the board's squares; messages are templates and arguments, written when first read
    sq, names = g.squares, g.names
    later = Violation.later

    # B1: squares not buildable or not unlocked
    off = occ & ~g.buildable(b, ship.dice)
    for i in _bits(off) if off else ():
        what = "a locked die square" if b.char(i) in "123456" else "not part of the building area"
        out.append(later("B1", (sq[i],), "{} at {} stands on {}".format, tiles[i].kind, names[i], what))
    # B2: the start square holds the pilot cabin, and the pilot cabin stands there
    start = b.start
    pilot = None
    aliens_at: list[Tile] = []
    servers: list[Tile] = []
    exhaust = [0, 0, 0, 0]  # squares of exhausts (barrels) pointing to each side
    barrel = [0, 0, 0, 0]
    for t in lay.notable:  # grid order
        k = t.kind
        turned = _FUNCTIONAL.get(k)
        if turned is not None:
            exs, brs = turned[t.rot]
            bit = 1 << t.at
            for s in exs:
                exhaust[s] |= bit
            for s in brs:
                barrel[s] |= bit
        elif k == "start_cabin":
            if pilot is None:
                pilot = t
        elif k in _SERVES:
            servers.append(t)
        if t.crew in ALIENS:
            aliens_at.append(t)
    if start is not None:
        if pilot is not None and pilot.at != start:
            out.append(later("B2", (sq[start], sq[pilot.at]), "the pilot cabin is at {}, not on the start square {}".format,
                             names[pilot.at], names[start]))
        elif pilot is None and start in tiles:
            out.append(later("B2", (sq[start],), "the start square {} holds a {}, not the pilot cabin".format,
                             names[start], tiles[start].kind))
    # C1, C2, C3: facing connectors
    if any(lay.bad[0]) or any(lay.bad[1]):
        for i, _, j, code, x, d in lay.bad_edges():
            out.append(later(code, (sq[i], sq[j]), lay.joint_message, code, x, d))
    # E1, E2, K1: exhausts and barrels
    rear = (2 + ship.front_side) % 4
    nb = b.nb
    for s in range(4):
        if exhaust[s]:
            if s != rear:
                for i in _bits(exhaust[s]):
                    out.append(later("E1", (sq[i],), "{} at {} has its exhaust to the {}, not to the rear".format,
                                     tiles[i].kind, names[i], SIDE_LETTERS[s]))
            for i in _bits(exhaust[s] & lay.beside[s]):
                j = nb[i][s]
                out.append(later("E2", (sq[i], sq[j]), "{} at {} stands behind the exhaust of the {} at {}".format,
                                 tiles[j].kind, names[j], tiles[i].kind, names[i]))
        if barrel[s]:
            for i in _bits(barrel[s] & lay.beside[s]):
                j = nb[i][s]
                out.append(later("K1", (sq[i], sq[j]), "{} at {} stands in front of the barrel of the {} at {}".format,
                                 tiles[j].kind, names[j], tiles[i].kind, names[i]))
    # S1: pieces not joined to the ship
    pieces = lay.piece_masks()
    _, loose = _kept_masks(ship, pieces, None if pilot is None else pilot.at)
    for p in loose:
        cells = tuple(sq[i] for i in _bits(p))
        out.append(later("S1", cells, _loose_message, cells, names))
    # A1, A2, A3: aliens; T1: a catalogue tile named twice; W1: components that serve nothing
    if aliens_at:
        out += _alien_breaks(lay, aliens_at, sq, names)
    out += _twice_breaks(ship, sq, names)
    if servers:
        out += _idle_breaks(lay, servers, sq, names)

    if select:
        out = [v for v in out if v.code in select]
    if ignore:
        out = [v for v in out if v.code not in ignore]
    if len(out) > 1:
        out.sort(key=lambda v: (_ORDER[v.code], v.cells))
    total, by_side = lay.exposed()
    # what ship_notes would say, without its search when it has nothing to say
    quiet = b.verified and (start is not None or pilot is not None) and not ship.aside
    notes = () if quiet else tuple(ship_notes(ship, pilot_placed=pilot is not None))
    return CheckReport(ship, tuple(out), total, by_side, notes)


def ship_notes(ship: Ship, *, pilot_placed: bool | None = None) -> Iterator[str]:
    """Facts worth telling that are not rule breaks (``pilot_placed``: whether a pilot cabin stands
    aboard, when the caller knows)."""
    b = ship.board
    if not b.verified:
        yield (f"board {b.name} is provisional (verified = false): its geometry comes from secondary "
               "sources" + (f"; {b.note}" if b.note else ""))
    if pilot_placed is None:
        pilot_placed = ship.pilot is not None
    if b.start is None and not pilot_placed:
        if b.pilot_unused:
            yield ("the pilot cabin is not used on this board: set aside for the flight, it is no lost "
                   "component (The Big Expansion, class IIA)")
        else:
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
        Rule("T1", "tile-used-twice", "error",
             "The file names one catalogue tile (`id`) more than once: on several squares, or on a "
             "square and among the components set aside. Reported on every square holding it.",
             "Each printed tile exists once in the box, so a ship built from it cannot hold the same tile "
             "twice. Name another copy of the same kind (`shipcheck tiles` lists them), or give `kind` and "
             "`sides`. `fix` keeps one of the copies.",
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nid = "2007:1"\n'
                   '\n[[tile]]\nat = [6, 7]\nid = "2007:1"\nrot = 180\n'),
             _ship(_PILOT + '\n[[tile]]\nat = [8, 7]\nid = "2007:1"\n'
                   '\n[[tile]]\nat = [6, 7]\nid = "2007:2"\nrot = 180\n'),
             source="Base game rulebook, “CONSTRUIR NAVES” (ships are built from the one set of printed tiles in the box)."),
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

_ORDER.update({c: k for k, c in enumerate(RULES)})
