"""Boards: the grid, its labels, and its topology as neighbour tables computed once.

Every rule, the fixer and the flight engines ask the board who is next to a square; wrap-around
edges, seams, hulls and die-unlocked squares live here and nowhere else.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from shipcheck.data import data_path
from shipcheck.errors import Collector, Locator, UnknownNameError, read_text_file, read_toml, short_repr, suggest


class Side(IntEnum):
    """A side of a square or tile; clockwise from the front."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Side:
        return Side((self + 2) % 4)

    @property
    def word(self) -> str:
        return ("front", "right", "rear", "left")[self]


SIDES = (Side.N, Side.E, Side.S, Side.W)
OPPOSITE = (2, 3, 0, 1)
# Attack origins in the contract's words, as board sides.
DIRECTION_SIDE = {"front": Side.N, "right": Side.E, "rear": Side.S, "left": Side.W}


def exposed_connectors(present, connectors, faced):  # type: ignore[no-untyped-def]
    """Exposed connectors on one side of a ship (the best-looking ship, stardust, the checker's
    count): of the tiles ``present``, those carrying a connector on that side (``connectors``: not a
    smooth side) with no tile across it (not in ``faced``, the tiles whose neighbour across that
    side is present); an empty square or the edge of the board leaves a connector exposed. Bitmasks
    in, a bitmask out: a bit per tile with an exposed connector on that side.

    The one home of the rule: the checker (:meth:`shipcheck.check.rules.Layout.exposed`, masks over
    squares) and the flight engine (:func:`shipcheck.engine.hull.exposed`, masks over a ship's tiles,
    compiled with it) both ask it. Written in the subset of Python numba compiles."""
    return present & connectors & ~faced


HULL_CHARS = "ABCDEFGH"
DIE_CHARS = "123456"
CELL_CHARS = "#S." + HULL_CHARS + DIE_CHARS
DIRECTIONS = ("front", "right", "rear", "left")

Label = tuple[int, ...]


class Square(int):
    """A square of a board: its grid index (an ``int``, as every table here uses it) that shows
    itself by the board's label, ``(7,8)`` or ``{col=1,row=2}``, so results never print grid indices.

    ``str()`` and f-strings still give the number; ``repr()`` gives the label.
    """

    label: str

    def __new__(cls, index: int, label: str) -> Square:
        obj = int.__new__(cls, index)
        obj.label = label
        return obj

    def __repr__(self) -> str:
        return self.label

    __str__ = int.__repr__

    def __reduce__(self) -> tuple[Any, ...]:
        return (Square, (int(self), self.label))


@dataclass(frozen=True)
class Board:
    """A ship board (format 1)."""

    name: str
    level: int
    dice: str
    columns: tuple[Label, ...]
    rows: tuple[Label, ...]
    cells: tuple[str, ...]
    max_penalty: int | None = None
    wrap: bool = False
    seams: tuple[tuple[int, int], ...] = ()
    choose_front: bool = False
    redirect: tuple[tuple[str, tuple[tuple[int, str], ...]], ...] = ()
    verified: bool = True
    note: str = ""
    edition: str | None = None
    source: str | None = field(default=None, compare=False)
    # derived tables (not part of equality)
    width: int = field(init=False, compare=False)
    height: int = field(init=False, compare=False)
    nb: tuple[tuple[int, int, int, int], ...] = field(init=False, repr=False, compare=False)
    seam_side: tuple[tuple[bool, bool, bool, bool], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        h, w = len(self.cells), len(self.cells[0])
        object.__setattr__(self, "width", w)
        object.__setattr__(self, "height", h)
        seam_pairs = set()
        for a, b in self.seams:
            ca = self.column_of_label(a)
            cb = self.column_of_label(b)
            if ca is not None and cb is not None:
                seam_pairs.add(frozenset((ca, cb)))
        nb = []
        seam = []
        for i in range(h * w):
            r, c = divmod(i, w)
            row = []
            srow = []
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                rr, cc = r + dr, c + dc
                if self.wrap:
                    rr %= h
                    cc %= w
                if 0 <= rr < h and 0 <= cc < w and (rr, cc) != (r, c):
                    row.append(rr * w + cc)
                    srow.append(dc != 0 and frozenset((c, cc)) in seam_pairs)
                else:
                    row.append(-1)
                    srow.append(False)
            nb.append(tuple(row))
            seam.append(tuple(srow))
        object.__setattr__(self, "nb", tuple(nb))
        object.__setattr__(self, "seam_side", tuple(seam))

    # -- squares -------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.width * self.height

    def char(self, i: int) -> str:
        r, c = divmod(i, self.width)
        return self.cells[r][c]

    @cached_property
    def start(self) -> int | None:
        """Grid index of the start square, if the board has one."""
        for i in range(self.size):
            if self.char(i) == "S":
                return i
        return None

    @cached_property
    def has_hulls(self) -> bool:
        return any(ch in HULL_CHARS for row in self.cells for ch in row)

    @cached_property
    def die_squares(self) -> bool:
        return any(ch in DIE_CHARS for row in self.cells for ch in row)

    @cached_property
    def pilot_unused(self) -> bool:
        """A board of separate hulls that never join and no start square (class IIA, a pair of
        ships): the pilot cabin is set aside and not used in the flight, so it is no lost component
        (The Big Expansion, "NAVES DE CLASSE IIA": "Coloque-o de lado, você não irá usá-lo nesta
        Viagem"). Other boards without a start square (the Latest Models classes) count a pilot
        cabin never placed as a lost component (:attr:`Ship.pilot_lost <shipcheck.model.Ship.pilot_lost>`)."""
        return self.start is None and self.has_hulls and not self.die_squares

    def unlocked(self, i: int, dice: tuple[int, ...] = ()) -> bool:
        ch = self.char(i)
        return ch in DIE_CHARS and int(ch) in dice

    def buildable(self, i: int, dice: tuple[int, ...] = ()) -> bool:
        """Whether a tile may stand on square ``i`` (B1 otherwise)."""
        ch = self.char(i)
        if ch in DIE_CHARS:
            return int(ch) in dice
        return ch != "."

    def hulls(self, dice: tuple[int, ...] = ()) -> tuple[int | None, ...]:
        """Hull group of every square (see :meth:`_hulls`), computed once per dice roll."""
        key = tuple(sorted(set(dice))) if self.die_squares else ()
        cache = self.__dict__.setdefault("_hull_cache", {})
        if key not in cache:
            cache[key] = self._hulls(key)
        return cache[key]

    def _hulls(self, dice: tuple[int, ...]) -> tuple[int | None, ...]:
        """Hull group of every square; ``None`` for squares of no hull.

        Without hull letters the whole grid is one hull (0). With letters, ``#``/``S`` squares form
        a hull of their own, unlocked die squares join (and merge) the hulls they touch, and
        ``.`` and locked squares belong to none.
        """
        n = self.size
        if not self.has_hulls:
            return tuple(0 for _ in range(n))
        parent = list(range(n))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        key: dict[str, int] = {}
        base: list[int | None] = [None] * n
        for i in range(n):
            ch = self.char(i)
            if ch in HULL_CHARS or ch in "#S":
                k = "#" if ch in "#S" else ch
                if k not in key:
                    key[k] = i
                base[i] = key[k]
                parent[find(i)] = find(key[k])
        for i in range(n):
            if self.unlocked(i, dice):
                for j in self.nb[i]:
                    if j >= 0 and base[j] is not None:
                        parent[find(j)] = find(i)
                base[i] = i
        roots: dict[int, int] = {}
        out: list[int | None] = []
        for i in range(n):
            if base[i] is None:
                out.append(None)
            else:
                out.append(roots.setdefault(find(i), len(roots)))
        return tuple(out)

    # -- labels --------------------------------------------------------------------------------
    def column_of_label(self, v: int) -> int | None:
        hits = [j for j, lab in enumerate(self.columns) if v in lab]
        return hits[0] if len(hits) == 1 else None

    def lines_for(self, side: Side, value: int) -> tuple[int, ...]:
        """Grid lines an attack from board ``side`` hits on roll ``value`` (columns for N/S)."""
        labels = self.columns if side in (Side.N, Side.S) else self.rows
        return tuple(j for j, lab in enumerate(labels) if value in lab)

    @cached_property
    def index_cells(self) -> bool:
        """Whether cells are written as grid indices (a line with several labels, or shared labels)."""
        for labels in (self.columns, self.rows):
            seen: set[int] = set()
            for lab in labels:
                if len(lab) != 1 or lab[0] in seen:
                    return True
                seen.add(lab[0])
        return False

    @cached_property
    def squares(self) -> tuple[Square, ...]:
        """Every square of the grid as a :class:`Square`, in grid order."""
        return tuple(Square(i, self.cell_text(i)) for i in range(self.size))

    def square(self, i: int) -> Square:
        """Grid index ``i`` as a :class:`Square` (shows its label)."""
        return self.squares[i]

    def cell_name(self, i: int) -> Any:
        """The JSON form of a square: ``[col, row]`` labels, or ``{"col": i, "row": j}``."""
        r, c = divmod(i, self.width)
        if self.index_cells:
            return {"col": c, "row": r}
        return [self.columns[c][0], self.rows[r][0]]

    def cell_text(self, i: int) -> str:
        r, c = divmod(i, self.width)
        if self.index_cells:
            return f"{{col={c},row={r}}}"
        return f"({self.columns[c][0]},{self.rows[r][0]})"

    def redirect_map(self) -> dict[str, dict[int, str]]:
        return {d: dict(m) for d, m in self.redirect}

    def features(self) -> list[str]:
        """Its topology in words: wrap-around, seams, chosen front, hulls, die squares."""
        out = []
        if self.wrap:
            out.append("wrap-around")
        if self.seams:
            out.append("seam " + ", ".join(f"{a}|{b}" for a, b in self.seams))
        if self.choose_front:
            out.append("front chosen by the player")
        if self.has_hulls:
            out.append("several hulls")
        if self.die_squares:
            out.append("die squares")
        return out

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        def lab(x: Label) -> Any:
            return x[0] if len(x) == 1 else list(x)

        return {
            "name": self.name,
            "level": self.level,
            "dice": self.dice,
            "columns": [lab(x) for x in self.columns],
            "rows": [lab(x) for x in self.rows],
            "cells": list(self.cells),
            "max_penalty": self.max_penalty,
            "wrap": self.wrap,
            "seams": [list(s) for s in self.seams],
            "choose_front": self.choose_front,
            "redirect": {d: {str(k): v for k, v in m} for d, m in self.redirect},
            "verified": self.verified,
            "edition": self.edition,
            "note": self.note,
            "start": self.cell_name(self.start) if self.start is not None else None,
            "squares": sum(1 for i in range(self.size) if self.char(i) != "."),
        }


_BOARD_KEYS = {
    "format", "name", "level", "dice", "columns", "rows", "cells", "max_penalty", "wrap", "seams",
    "choose_front", "redirect", "verified", "note", "edition",
}
MAX_SIDE = 64  # squares along either side of a board
MAX_LABEL = 999  # line labels are dice values; anything far past them is a mistake
MAX_LINES_HIT = 2  #: grid lines one roll may hit on one axis (a label on two lines: both are hit)
BOARD_BYTES = 256 * 1024  # the largest board file read


def load_board(path: str | Path, *, private: bool = False) -> Board:
    """Read a board file; raises :class:`InputError` (listing every mistake found) on any format error.

    Only a regular file of at most :data:`BOARD_BYTES` bytes is read. ``private=True`` is for a
    file the user did not name (a board reached through a ship): its errors show keys, never values.
    """
    text = read_text_file(path, what="board file", limit=BOARD_BYTES, private=private)
    return parse_board(text, file=path, private=private)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_board(text: str, *, file: str | Path | None = None, private: bool = False) -> Board:
    """Parse board-file text; raises :class:`InputError` whose ``errors`` list every mistake found."""
    err = Locator(text if isinstance(text, str) else "").top_error(file, private=private)
    doc = read_toml(text, file, private=private)
    col = Collector()
    for k in doc:
        if k not in _BOARD_KEYS:
            col.add(err("unknown key in board file", k, doc[k], "one of " + ", ".join(sorted(_BOARD_KEYS)),
                        hint=suggest(k, _BOARD_KEYS)))
    fmt = doc.get("format", 1)
    if fmt != 1 or isinstance(fmt, bool):
        col.add(err("unsupported board format", "format", fmt, "1"))
        col.raise_any()
    for k in ("name", "cells", "columns", "rows"):
        if k not in doc:
            col.add(err("missing key", k, None, "a value"))
    name = doc.get("name")
    if "name" in doc and (not isinstance(name, str) or not name or len(name) > 100):
        col.add(err("bad board name", "name", name, "a non-empty string of at most 100 characters"))

    cells: Any = doc.get("cells")
    cells_ok = False
    if "cells" in doc:
        with col.guard():
            cells_ok = _check_cells(cells, err)

    def labels(key: str, n: int | None) -> tuple[Label, ...] | None:
        if key not in doc:
            return None
        val = doc[key]
        if not isinstance(val, list) or (n is not None and len(val) != n):
            col.add(err(f"`{key}` must list one label per grid line", key, val,
                        f"{n} labels" if n is not None else "a list of labels"))
            return None
        out = []
        for x in val:
            if _is_int(x) and 0 <= x <= MAX_LABEL:
                out.append((x,))
            elif (isinstance(x, list) and 0 < len(x) <= 12
                  and all(_is_int(y) and 0 <= y <= MAX_LABEL for y in x)):
                out.append(tuple(x))
            else:
                col.add(err(f"bad label in `{key}`", key, x, f"an integer 0-{MAX_LABEL} or a list of them"))
                return None
        return tuple(out)

    columns = labels("columns", len(cells[0]) if cells_ok else None)
    rows = labels("rows", len(cells) if cells_ok else None)
    for key, labs in (("columns", columns), ("rows", rows)):
        named = Counter(v for lab in labs or () for v in set(lab))
        many = sorted(v for v, n in named.items() if n > MAX_LINES_HIT)
        if many:  # the engine flies a roll down one line or two (boards whose labels repeat)
            col.add(err(f"a label names more than {MAX_LINES_HIT} {key}", key, many[0],
                        f"each label on at most {MAX_LINES_HIT} {key}: a roll hits one line or two"))
    level = doc.get("level", 1)
    if not _is_int(level) or not 1 <= level <= 9:
        col.add(err("bad level", "level", level, "a flight level 1-9"))
    dice = doc.get("dice", "2d6")
    if dice not in ("2d6", "1d6"):
        col.add(err("bad dice", "dice", dice, '"2d6" or "1d6"', hint=suggest(dice, ("2d6", "1d6"))))
    mp = doc.get("max_penalty")
    if mp is not None and (not _is_int(mp) or not 0 <= mp <= 10**6):
        col.add(err("bad max_penalty", "max_penalty", mp, "a non-negative integer, or omit it for no cap"))
    for k in ("wrap", "choose_front", "verified"):
        if k in doc and not isinstance(doc[k], bool):
            col.add(err(f"`{k}` must be true or false", k, doc[k], "a boolean"))
    seams = _seams(doc.get("seams", []), columns, err, col)
    redirect = _redirect(doc.get("redirect", {}), err, col)
    for k in ("note", "edition"):
        if k in doc and not isinstance(doc[k], str):
            col.add(err(f"`{k}` must be a string", k, doc[k], "a string"))
    col.raise_any()
    assert columns is not None and rows is not None and isinstance(name, str)
    return Board(
        name=name, level=level, dice=dice, columns=columns, rows=rows, cells=tuple(cells),
        max_penalty=mp, wrap=doc.get("wrap", False), seams=tuple(seams),
        choose_front=doc.get("choose_front", False), redirect=tuple(redirect),
        verified=doc.get("verified", True), note=doc.get("note", ""), edition=doc.get("edition"),
        source=str(file) if file else None,
    )


def _check_cells(cells: Any, err: Any) -> bool:
    """Whether ``cells`` is a rectangular grid of known characters within the size bounds."""
    if not isinstance(cells, list) or not cells or not all(isinstance(r, str) for r in cells):
        raise err("`cells` must be a list of strings", "cells", cells, "rows of the grid")
    w = len(cells[0])
    if len(cells) > MAX_SIDE or w > MAX_SIDE:
        raise err(f"board of {w} x {len(cells)} squares is too large", "cells", None,
                  f"at most {MAX_SIDE} x {MAX_SIDE} squares")
    if w == 0 or any(len(r) != w for r in cells):
        raise err("rows of `cells` differ in length", "cells", cells, f"every row {w} characters")
    for r in cells:
        for ch in r:
            if ch not in CELL_CHARS:
                raise err("bad cell character", "cells", ch, "one of # S . A-H 1-6")
    if sum(r.count("S") for r in cells) > 1:
        raise err("more than one start square", "cells", None, "at most one S")
    return True


def _seams(raw: Any, columns: tuple[Label, ...] | None, err: Any, col: Collector) -> list[tuple[int, int]]:
    seams: list[tuple[int, int]] = []
    if not isinstance(raw, list):
        col.add(err("bad seams", "seams", raw, "a list of [label, label] pairs"))
        return seams
    for s in raw:
        if not isinstance(s, list) or len(s) != 2 or not all(_is_int(x) for x in s):
            col.add(err("bad seam", "seams", s, "a pair of column labels, e.g. [3, 4]"))
            continue
        if columns is None:
            continue
        ca = [j for j, lab in enumerate(columns) if s[0] in lab]
        cb = [j for j, lab in enumerate(columns) if s[1] in lab]
        if len(ca) != 1 or len(cb) != 1 or abs(ca[0] - cb[0]) != 1:
            col.add(err("a seam must name two neighbouring columns by their labels", "seams", s,
                        "labels of two adjacent columns"))
            continue
        seams.append((s[0], s[1]))
    return seams


def _redirect(raw: Any, err: Any, col: Collector) -> list[tuple[str, tuple[tuple[int, str], ...]]]:
    redirect: list[tuple[str, tuple[tuple[int, str], ...]]] = []
    if not isinstance(raw, dict):
        col.add(err("bad redirect", "redirect", raw, 'a table like { front = { 1 = "left" } }'))
        return redirect
    for d, m in raw.items():
        if d not in DIRECTIONS or not isinstance(m, dict):
            col.add(err("bad redirect entry", "redirect", d, "front, rear, left or right mapping rolls to sides",
                        hint=suggest(d, DIRECTIONS)))
            continue
        items = []
        for k, v in m.items():
            # "²".isdigit() is true and int("²") fails: only ASCII digits name a roll
            if not (k.isascii() and k.isdigit() and len(k) <= 2 and 1 <= int(k) <= 12):
                col.add(err(f"bad redirect roll {d}.{short_repr(k)}", "redirect", None,
                            "a roll 1-12 (ASCII digits) mapped to front, rear, left or right"))
                continue
            if not isinstance(v, str) or v not in DIRECTIONS:
                col.add(err(f"bad redirect side for {d}.{k}", "redirect", v, "front, rear, left or right",
                            hint=suggest(v, DIRECTIONS)))
                continue
            items.append((int(k), v))
        redirect.append((d, tuple(sorted(items))))
    return redirect


# Built-in boards: file names under tiles/boards; the 2021 edition has its own class II.
BUILTIN_CLASSES = ("I", "II", "III", "IIIa", "IA", "IIA", "IC", "IIC", "IIIC", "IVC")
_EDITION_FILES = {("II", "2021"): "II-2021"}


def builtin_names() -> list[str]:
    return list(BUILTIN_CLASSES) + ["II-2021"]


def builtin_board(name: str, edition: str = "2007") -> Board:
    """A board shipped with the tool: a class name, and the edition where the boards differ.

    Raises :class:`~shipcheck.errors.UnknownNameError` (an InputError and a KeyError) for a name
    that is not a built-in board.
    """
    if not isinstance(name, str) or (name not in BUILTIN_CLASSES and name != "II-2021"):
        raise UnknownNameError("no such built-in board", key="class", value=name,
                               expected="one of " + ", ".join(builtin_names()),
                               hint=suggest(name, builtin_names()))
    if edition not in ("2007", "2021"):
        raise UnknownNameError("unknown edition", key="edition", value=edition, expected='"2007" or "2021"')
    return _builtin_board(_EDITION_FILES.get((name, edition), name))


@cache
def _builtin_board(key: str) -> Board:
    return load_board(data_path("boards", f"{key}.toml"))
