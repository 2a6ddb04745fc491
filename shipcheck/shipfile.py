"""Ship files (format 1): loading, the tile catalogues, and writing a ship back out."""

from __future__ import annotations

import datetime
import os
import re
import stat
import tomllib
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from shipcheck.data import data_path
from shipcheck.errors import (
    Collector,
    InputError,
    Locator,
    UnknownNameError,
    check_type,
    printable,
    read_text_file,
    read_toml,
    suggest,
)
from shipcheck.model import CREW_VALUES, GOODS, KIND_EXPECTED, KINDS, AsideTile, Ship, Tile
from shipcheck.topology import BOARD_BYTES, BUILTIN_CLASSES, Board, builtin_board, parse_board

EDITIONS = ("2007", "2021")
_SHIP_KEYS = {"format", "class", "board", "edition", "name", "front", "dice", "tile", "aside", "meta"}
_TILE_KEYS = {"at", "id", "kind", "sides", "rot", "crew", "charge", "goods", "cells", "slots",
              "special_slots", "color"}
_ATTR_KEYS = ("cells", "slots", "special_slots", "color")
TILE_ATTRS = _ATTR_KEYS  #: a tile's own attributes besides kind and sides (its load aside: crew, charge, goods)
_ASIDE_KEYS = ("id", "kind", "sides", *_ATTR_KEYS)
SHIP_BYTES = 2 * 1024 * 1024  # the largest ship file read
MAX_TILES = 4096  # [[tile]] entries (a 64 x 64 board has no more squares)
MAX_ASIDE = 256  # [[aside]] entries
MAX_NAME = 200  # characters of a ship's name


# -- catalogue ------------------------------------------------------------------------------------
def catalogue(edition: str = "2007") -> dict[str, AsideTile]:
    """The tile catalogue of an edition, by id (``"2007:64"``).

    Raises :class:`~shipcheck.errors.UnknownNameError` for an edition that is not 2007 or 2021.
    """
    if edition not in EDITIONS:
        raise UnknownNameError("unknown edition", key="edition", value=edition, expected='"2007" or "2021"',
                               hint=suggest(edition, EDITIONS))
    return _catalogue(edition)


@cache
def _catalogue(edition: str) -> dict[str, AsideTile]:
    path = data_path("catalogue", f"{edition}.toml")
    text = path.read_text(encoding="utf-8")
    doc = tomllib.loads(text)
    out: dict[str, AsideTile] = {}
    loc = Locator(text)
    for n, raw in enumerate(doc.get("tile", [])):
        tid = f"{edition}:{raw['id']}"
        kind, sides, attrs = _tile_body(raw, file=path, loc=loc, table="tile", index=n)
        out[tid] = AsideTile(kind=kind, sides=sides, attrs=attrs, id=tid)
    return out


def rotated(sides: str, rot: int) -> str:
    """A side string as the tile lies after ``rot`` clockwise quarter turns."""
    return "".join(sides[(j - rot) % 4] for j in range(4))


def find_tiles(sides: str, *, edition: str = "2007", any_rotation: bool = False) -> list[tuple[str, int]]:
    """Catalogue tiles that show ``sides`` (N E S W as the tile lies), with the ``rot`` in degrees to
    write for each: rotation 0 only, or every rotation with ``any_rotation``."""
    out = []
    for tid, t in catalogue(edition).items():
        for k in range(4 if any_rotation else 1):
            if rotated(t.sides, k) == sides:
                out.append((tid, k * 90))
                break
    return out


def catalogue_entries(edition: str) -> list[dict[str, Any]]:
    """Catalogue tiles as JSON objects, in id order."""
    rows = []
    for tid, t in catalogue(edition).items():
        d: dict[str, Any] = {"id": tid, "kind": t.kind, "sides": t.sides}
        d.update(dict(t.attrs))
        rows.append(d)
    return rows


def _a(kind: str) -> str:
    """The kind with its article: 'an engine', 'a cabin'."""
    return ("an " if kind[0] in "aeiou" else "a ") + kind


# -- parsing helpers ------------------------------------------------------------------------------
def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _maker(file: Any, loc: Locator, table: str, index: int) -> Any:
    """A maker of :class:`InputError` for keys of the ``index``-th ``[[table]]``."""

    def err(msg: str, key: str | None, value: Any = None, expected: str | None = None,
            hint: str | None = None) -> InputError:
        return InputError(f"[[{table}]] #{index + 1}: {msg}", file=file, line=loc.line_of(key, table, index),
                          key=key, value=value, expected=expected, hint=hint)

    return err


def _tile_body(raw: dict[str, Any], *, file: Any, loc: Locator, table: str,
               index: int) -> tuple[str, str, tuple[tuple[str, Any], ...]]:
    """Validate kind, sides and attributes of an inline tile; every mistake is reported."""
    err = _maker(file, loc, table, index)
    col = Collector()
    kind: Any = raw.get("kind")
    info = None
    if kind is None:
        col.add(err("a tile needs `kind` and `sides`, or a catalogue `id`", "kind", None, "a tile kind"))
    elif not isinstance(kind, str) or kind not in KINDS:
        col.add(err("unknown tile kind", "kind", kind, KIND_EXPECTED, hint=suggest(kind, KINDS)))
    else:
        info = KINDS[kind]
    sides: Any = raw.get("sides")
    sides_ok = False
    if sides is None:
        col.add(err("missing `sides`", "sides", None, "4 digits 0-3 in the order N E S W"))
    elif not isinstance(sides, str) or len(sides) != 4 or any(ch not in "0123" for ch in sides):
        col.add(err("bad side string", "sides", sides, "4 digits 0-3 in the order N E S W, e.g. \"3102\""))
    else:
        sides_ok = True
    if info is not None and sides_ok:
        for s in info.barrels + info.exhausts:
            if sides[s] != "0":
                what = "barrel" if s in info.barrels else "exhaust"
                col.add(err(f"the {what} side ({'NESW'[s]}) of {_a(kind)} must be written 0", "sides", sides,
                            f"0 at position {s + 1}"))
                break
    attrs = []
    if info is not None:
        for a in _ATTR_KEYS:
            if a not in raw:
                continue
            v = raw[a]
            if a not in info.attrs:
                col.add(err(f"`{a}` does not apply to {_a(kind)}", a, v,
                            "attributes " + (", ".join(info.attrs) or "none") + f" for {kind}"))
                continue
            allowed = info.attrs[a]
            if allowed is None:
                if not isinstance(v, str) or not v or len(v) > MAX_NAME:
                    col.add(err(f"bad `{a}`", a, v, "a name"))
                    continue
            elif isinstance(v, bool) or v not in allowed or type(v) is not type(allowed[0]):
                col.add(err(f"bad `{a}` for {_a(kind)}", a, v, "one of " + ", ".join(map(str, allowed)),
                            hint=suggest(v, [str(x) for x in allowed])))
                continue
            attrs.append((a, v))
        for a in info.required:
            if a not in raw:
                col.add(err(f"{_a(kind)} needs `{a}`", a, None, "one of " + ", ".join(map(str, info.attrs[a] or ()))))
        got = dict(attrs)
        if kind == "mixed_cargo" and "slots" in got and "special_slots" in got and got["special_slots"] > got["slots"]:
            col.add(err("more special slots than slots", "special_slots", got["special_slots"],
                        f"at most {got['slots']}"))
    col.raise_any()
    assert isinstance(kind, str) and isinstance(sides, str)
    return kind, sides, tuple(sorted(attrs))


def _resolve_at(at: Any, board: Board, err: Any) -> int:
    if isinstance(at, list):
        if len(at) != 2 or not all(_int(x) for x in at):
            raise err("bad square", "at", at, "[column, row] labels or {col = i, row = j}")
        c_hits = [j for j, lab in enumerate(board.columns) if at[0] in lab]
        r_hits = [j for j, lab in enumerate(board.rows) if at[1] in lab]
        if not c_hits or not r_hits:
            raise err(f"square is not on the grid of board {board.name}", "at", at,
                      f"column labels {[list(x) if len(x) > 1 else x[0] for x in board.columns]}, "
                      f"row labels {[list(x) if len(x) > 1 else x[0] for x in board.rows]}")
        if len(c_hits) > 1 or len(r_hits) > 1:
            raise err(f"label names two lines of board {board.name}", "at", at,
                      "the line index form at = {col = i, row = j}")
        return r_hits[0] * board.width + c_hits[0]
    if isinstance(at, dict):
        if set(at) != {"col", "row"} or not all(_int(v) for v in at.values()):
            raise err("bad square", "at", at, "{col = i, row = j} with 0-based grid indices",
                      hint=next((h for k in at if k not in ("col", "row") for h in [suggest(k, ("col", "row"))] if h),
                                None))
        c, r = at["col"], at["row"]
        if not (0 <= c < board.width and 0 <= r < board.height):
            raise err(f"square is not on the grid of board {board.name}", "at", at,
                      f"col 0-{board.width - 1}, row 0-{board.height - 1}")
        return r * board.width + c
    raise err("missing or bad square", "at", at, "[column, row] labels or {col = i, row = j}")


# -- ships ----------------------------------------------------------------------------------------
def load_ship(path: str | Path, *, edition: str = "2007") -> Ship:
    """Read a ship file; raises :class:`InputError` on any format error.

    Only a regular file of at most :data:`SHIP_BYTES` bytes is read. The error lists every mistake
    found in the file in its ``errors`` (see :func:`parse_ship`). ``edition`` is the edition of a
    file that does not name one.
    """
    text = read_text_file(path, what="ship file", limit=SHIP_BYTES)
    p = Path(path)
    return parse_ship(text, file=p, base_dir=p.parent, edition=edition)


def parse_ship(text: str, *, file: str | Path | None = None, base_dir: str | Path | None = None,
               edition: str = "2007") -> Ship:
    """Parse ship-file text. ``base_dir`` resolves ``board = "..."`` paths; ``edition`` is the
    edition of a file that does not name one.

    Raises :class:`InputError`; its ``errors`` hold every mistake found, in file order, as far as
    the file can be read past the first (a tile whose square is wrong is still checked for its
    kind, sides and crew). A board reached through ``board = "..."`` is read as a file the user did
    not name: its errors show keys, never values.
    """
    loc = Locator(text if isinstance(text, str) else "")
    top = loc.top_error(file)
    doc = read_toml(text, file)
    col = Collector()
    for k in doc:
        if k not in _SHIP_KEYS:
            col.add(top("unknown top-level key (free-form data goes under [meta])", k, doc[k],
                        "one of " + ", ".join(sorted(_SHIP_KEYS)), hint=suggest(k, _SHIP_KEYS)))
    if "format" not in doc:
        col.add(top("missing `format`", "format", None, "format = 1"))
        col.raise_any()
    if doc["format"] != 1 or isinstance(doc["format"], bool):
        col.add(top("unsupported ship format", "format", doc["format"], "1"))
        col.raise_any()
    file_edition: Any = doc.get("edition", edition)
    ed: str | None = None
    if isinstance(file_edition, str) and file_edition in EDITIONS:
        ed = file_edition
    else:
        col.add(top("unknown edition", "edition", file_edition, '"2007" or "2021"',
                    hint=suggest(str(file_edition) if _int(file_edition) else file_edition, EDITIONS)))
    board, board_ref = _ship_board(doc, base_dir, ed or "2007", top, col)
    name = doc.get("name")
    if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME):
        col.add(top("bad name", "name", name, f"a string of at most {MAX_NAME} characters"))
        name = None
    front = doc.get("front")
    if front is not None and board is not None:
        if not board.choose_front:
            col.add(top(f"board {board.name} does not let the player choose the front", "front", front,
                        "no `front` key on this board"))
        elif front not in ("N", "E", "S", "W"):
            col.add(top("bad front", "front", front, '"N", "E", "S" or "W"', hint=suggest(front, "NESW")))
    dice = doc.get("dice")
    if dice is not None and board is not None:
        if not board.die_squares:
            col.add(top(f"board {board.name} has no die-unlocked squares", "dice", dice, "no `dice` key"))
        elif (not isinstance(dice, list) or not 1 <= len(dice) <= 2
                or not all(_int(x) and 1 <= x <= 6 for x in dice)):
            col.add(top("bad dice", "dice", dice, "the two rolls, e.g. dice = [2, 5]"))
    meta = doc.get("meta", {})
    if not isinstance(meta, dict):
        col.add(top("`meta` must be a table", "meta", meta, "[meta]"))

    tiles: list[Tile] = []
    seen: dict[int, int] = {}
    raw_tiles = doc.get("tile", [])
    if not isinstance(raw_tiles, list):
        col.add(top("`tile` must be an array of tables", "tile", None, "[[tile]] entries"))
    elif len(raw_tiles) > MAX_TILES:
        col.add(top(f"{len(raw_tiles)} tiles", "tile", None, f"at most {MAX_TILES} [[tile]] entries"))
    else:
        for n, raw in enumerate(raw_tiles):
            t = _parse_tile(raw, n, board, ed, file, loc, seen, col)
            if t is not None:
                tiles.append(t)
    starts = [t for t in tiles if t.kind == "start_cabin"]
    if len(starts) > 1:
        n = seen[starts[1].at]
        col.add(InputError("two pilot cabins (start_cabin) in one ship", file=file,
                           line=loc.line_of("kind", "tile", n), key="kind", value="start_cabin",
                           expected="at most one start_cabin"))
    if not starts and board is not None and board.start is not None and board.start not in seen:
        # the pilot cabin stands on the start square from the beginning (spec section 4)
        tiles.append(Tile(at=board.square(board.start), kind="start_cabin", sides="3333", implied=True))

    aside = []
    raw_aside = doc.get("aside", [])
    if not isinstance(raw_aside, list):
        col.add(top("`aside` must be an array of tables", "aside", None, "[[aside]] entries"))
    elif len(raw_aside) > MAX_ASIDE:
        col.add(top(f"{len(raw_aside)} tiles set aside", "aside", None, f"at most {MAX_ASIDE} [[aside]] entries"))
    else:
        for n, raw in enumerate(raw_aside):
            with col.guard():
                aside.append(_parse_aside(raw, n, ed, file, loc))
    col.raise_any()
    assert board is not None and ed is not None
    return Ship(
        board=board, tiles=tuple(tiles), edition=ed, name=name, front=front,
        dice=tuple(dice or ()), aside=tuple(aside), board_ref=board_ref,
        meta=tuple(sorted(meta.items())), source=str(file) if file else None,
    )


def _ship_board(doc: dict[str, Any], base_dir: str | Path | None, edition: str, top: Any,
                col: Collector) -> tuple[Board | None, str | None]:
    """The ship's board, from `class` or from a board file; None (with the errors noted) when neither works."""
    if ("class" in doc) == ("board" in doc):
        col.add(top("give exactly one of `class` and `board`", "class" if "class" in doc else None,
                    None, 'class = "I" (a built-in board) or board = "path/to/board.toml"'))
        return None, None
    if "class" in doc:
        cls = doc["class"]
        if cls not in BUILTIN_CLASSES:
            col.add(top("unknown ship class", "class", cls, "one of " + ", ".join(BUILTIN_CLASSES),
                        hint=suggest(cls, BUILTIN_CLASSES)))
            return None, None
        return builtin_board(cls, edition), cls
    ref = doc["board"]
    if not isinstance(ref, str) or not ref or len(ref) > 4096:
        col.add(top("bad board path", "board", ref, "a path to a board file"))
        return None, None
    bpath = Path(base_dir or ".") / ref
    try:
        text = read_text_file(bpath, what="the board file", limit=BOARD_BYTES, private=True)
    except InputError as exc:
        at_line = f" (line {exc.line})" if exc.line else ""
        where = "a path without NUL bytes" if "\x00" in ref else f"a board file at {printable(str(bpath))}"
        col.add(top(exc.message + at_line, "board", ref, where))
        return None, None
    with col.guard():
        return parse_board(text, file=bpath, private=True), ref
    return None, None


def _catalogue_tile(tid: Any, edition: str, err: Any) -> AsideTile:
    if not isinstance(tid, str) or ":" not in tid:
        raise err("bad catalogue id", "id", tid, '"<edition>:<number>", e.g. "2007:64"')
    ed = tid.split(":", 1)[0]
    if ed != edition:
        raise err(f"catalogue id of another edition than the ship's ({edition})", "id", tid,
                  f'an id "{edition}:<number>"')
    entry = catalogue(edition).get(tid)
    if entry is None:
        n = len(catalogue(edition))
        raise err("no such tile in the catalogue", "id", tid, f"{edition}:1 to {edition}:{n}")
    return entry


def _parse_aside(raw: Any, n: int, edition: str | None, file: Any, loc: Locator) -> AsideTile:
    err = _maker(file, loc, "aside", n)
    if not isinstance(raw, dict):
        raise err("not a table", None)
    col = Collector()
    for k in raw:
        if k not in _ASIDE_KEYS:
            col.add(err("unknown key", k, raw[k], "id, or kind + sides and the kind's attributes",
                        hint=suggest(k, _ASIDE_KEYS)))
    entry = None
    if "id" in raw:
        if "kind" in raw or "sides" in raw:
            col.add(err("give either `id` or `kind` + `sides`", "id", raw["id"], "one of the two forms"))
        elif edition is not None:
            with col.guard():
                entry = _catalogue_tile(raw["id"], edition, err)
    else:
        with col.guard():
            kind, sides, attrs = _tile_body(raw, file=file, loc=loc, table="aside", index=n)
            entry = AsideTile(kind=kind, sides=sides, attrs=attrs)
    col.raise_any()
    assert entry is not None
    return entry


def _parse_tile(raw: Any, n: int, board: Board | None, edition: str | None, file: Any, loc: Locator,
                seen: dict[int, int], col: Collector) -> Tile | None:
    """One [[tile]]: its mistakes go to ``col`` (as many as can be found) and None is returned."""
    err = _maker(file, loc, "tile", n)
    if not isinstance(raw, dict):
        col.add(err("not a table", None))
        return None
    before = len(col)
    for k in raw:
        if k not in _TILE_KEYS:
            col.add(err("unknown key in a tile", k, raw[k], "one of " + ", ".join(sorted(_TILE_KEYS)),
                        hint=suggest(k, _TILE_KEYS)))
    at = None
    if "at" not in raw:
        col.add(err("missing `at`", "at", None, "[column, row] labels or {col = i, row = j}"))
    elif board is not None:
        with col.guard():
            at = board.square(_resolve_at(raw["at"], board, err))
            if at in seen:
                bad = at
                at = None
                raise err(f"two tiles on one square (also [[tile]] #{seen[bad] + 1})", "at", raw["at"],
                          "one tile per square")
            seen[at] = n
    rot_deg = raw.get("rot", 0)
    rot = 0
    if not _int(rot_deg) or rot_deg % 90 != 0:
        col.add(err("rotation is not a multiple of 90", "rot", rot_deg, "0, 90, 180 or 270"))
    else:
        rot = (rot_deg // 90) % 4
    tid = None
    kind: str | None = None
    sides: str = ""
    attrs: tuple[tuple[str, Any], ...] = ()
    if "id" in raw:
        if "kind" in raw or "sides" in raw:
            col.add(err("give either `id` or `kind` + `sides`", "id", raw["id"], "one of the two forms"))
        for a in _ATTR_KEYS:
            if a in raw:
                col.add(err(f"`{a}` comes from the catalogue for a catalogue tile", a, raw[a],
                            "no attributes beside `id`"))
        if edition is not None and "kind" not in raw and "sides" not in raw:
            with col.guard():
                entry = _catalogue_tile(raw["id"], edition, err)
                kind, sides, attrs, tid = entry.kind, entry.sides, entry.attrs, entry.id
    else:
        with col.guard():
            kind, sides, attrs = _tile_body(raw, file=file, loc=loc, table="tile", index=n)
        if kind is None and isinstance(raw.get("kind"), str) and raw["kind"] in KINDS:
            kind = raw["kind"]  # sides or attributes were wrong: the crew, charge and goods can still be checked
    crew = raw.get("crew")
    charge = raw.get("charge")
    goods = raw.get("goods", [])
    if kind is not None:
        _check_load(raw, kind, dict(attrs), err, col)
    if len(col) > before or kind is None or at is None:
        return None
    return Tile(at=at, kind=kind, sides=sides, rot=rot, attrs=attrs, id=tid, crew=crew, charge=charge,
                goods=tuple(goods))


def _check_load(raw: dict[str, Any], kind: str, attr: dict[str, Any], err: Any, col: Collector) -> None:
    """A tile's crew, charge and goods against its kind and capacity."""
    info = KINDS[kind]
    crew = raw.get("crew")
    if crew is not None:
        if not info.crew:
            col.add(err(f"`crew` is not allowed on {_a(kind)}", "crew", crew,
                        "crew only on start_cabin, cabin, luxury_cabin, stasis_chamber"))
        elif crew not in CREW_VALUES or not isinstance(crew, str):
            col.add(err("bad crew", "crew", crew, "one of " + ", ".join(CREW_VALUES), hint=suggest(crew, CREW_VALUES)))
    charge = raw.get("charge")
    if charge is not None:
        if not info.charge:
            col.add(err(f"`charge` is not allowed on {_a(kind)}", "charge", charge,
                        "charge only on battery and battery_hold"))
            charge = None
        else:
            cap = attr.get("cells", attr.get("slots", 0))
            if not _int(charge) or not 0 <= charge <= cap:
                col.add(err("bad charge", "charge", charge, f"0 to {cap}"))
                charge = None
    if "goods" in raw:
        goods = raw["goods"]
        if not info.goods:
            col.add(err(f"`goods` is not allowed on {_a(kind)}", "goods", goods,
                        "goods only on cargo, special_cargo, mixed_cargo and battery_hold"))
            return
        if not isinstance(goods, list) or not all(isinstance(g, str) and g in GOODS for g in goods):
            bad = next((g for g in goods if g not in GOODS), None) if isinstance(goods, list) else None
            col.add(err("bad goods", "goods", goods, "a list of " + ", ".join(GOODS), hint=suggest(bad, GOODS)))
            return
        slots = attr.get("slots", 0)
        used = len(goods) + (charge or 0 if kind == "battery_hold" else 0)
        if used > slots:
            col.add(err(f"more goods than the hold's {slots} slots", "goods", goods, f"at most {slots}"))
        reds = goods.count("red")
        red_room = {"special_cargo": slots, "mixed_cargo": attr.get("special_slots", 0)}.get(kind, 0)
        if reds > red_room:
            col.add(err("red goods need special slots", "goods", goods, f"at most {red_room} red"))


# -- writing --------------------------------------------------------------------------------------
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _toml_string(k)


def _toml_string(v: str) -> str:
    out = []
    for ch in v:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def toml_text(doc: dict[str, Any]) -> str:
    """TOML text of a document shaped like a ship file: top-level values, arrays of tables
    (``[[tile]]``), and tables one level deep (``[meta]``); deeper tables are written inline.

    Raises :class:`InputError` for a value TOML cannot hold (None, a non-string key).
    """
    head: list[str] = []
    body: list[str] = []
    try:
        for k, v in doc.items():
            if not isinstance(k, str):
                raise TypeError(type(k))
            if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
                for table in v:
                    body += ["", f"[[{_toml_key(k)}]]", *(f"{_toml_key(a)} = {_toml_value(b)}" for a, b in table.items())]
            elif isinstance(v, dict):
                body += ["", f"[{_toml_key(k)}]", *(f"{_toml_key(a)} = {_toml_value(b)}" for a, b in v.items())]
            else:
                head.append(f"{_toml_key(k)} = {_toml_value(v)}")
    except (TypeError, AttributeError, RecursionError) as exc:
        raise InputError("a value TOML cannot hold", value=str(exc),
                         expected="strings, numbers, booleans, lists and tables (no null)") from None
    return "\n".join(head + body) + "\n"


def _dump_body(t: Tile | AsideTile) -> list[str]:
    """A tile's identity: its catalogue id, or its kind, sides and attributes."""
    if t.id:
        return [f"id = {_toml_value(t.id)}"]
    return [f"kind = {_toml_value(t.kind)}", f"sides = {_toml_value(t.sides)}",
            *(f"{k} = {_toml_value(v)}" for k, v in t.attrs)]


def dump_ship(ship: Ship, *, comment: str | None = None) -> str:
    """Format-1 text of a ship; loading it gives an equal ship."""
    check_type(ship, Ship, "ship", "a Ship (see load_ship)")
    if comment is not None:
        check_type(comment, str, "comment", "None or a string (its lines become # comments)")
    b = ship.board
    out = []
    if comment:
        out += [f"# {line}" for line in comment.splitlines()]
    out.append("format = 1")
    ref = ship.board_ref
    if ref is None and b.source and Path(b.source).parent == data_path("boards"):
        ref = "II" if b.name == "II-2021" else b.name  # a built-in board built in code
    if ref and ref in BUILTIN_CLASSES:
        out.append(f"class = {_toml_value(ref)}")
    else:
        out.append(f"board = {_toml_value(ship.board_ref or b.source or b.name)}")
    if ship.edition != "2007":
        out.append(f"edition = {_toml_value(ship.edition)}")
    if ship.name is not None:
        out.append(f"name = {_toml_value(ship.name)}")
    if ship.front is not None:
        out.append(f"front = {_toml_value(ship.front)}")
    if ship.dice:
        out.append(f"dice = {_toml_value(list(ship.dice))}")
    for t in ship.tiles:
        if t.implied:
            continue
        out.append("")
        out.append("[[tile]]")
        out.append(f"at = {_toml_value(b.cell_name(t.at))}")
        out += _dump_body(t)
        if t.rot:
            out.append(f"rot = {t.rot * 90}")
        if t.crew is not None:
            out.append(f"crew = {_toml_value(t.crew)}")
        if t.charge is not None:
            out.append(f"charge = {t.charge}")
        if t.goods:
            out.append(f"goods = {_toml_value(list(t.goods))}")
    for a in ship.aside:
        out.append("")
        out.append("[[aside]]")
        out += _dump_body(a)
    if ship.meta:
        out.append("")
        out.append("[meta]")
        for k, v in ship.meta:
            out.append(f"{_toml_key(k)} = {_toml_value(v)}")
    return "\n".join(out) + "\n"


# -- editing and saving ---------------------------------------------------------------------------
def edit_ship_text(text: str, ship: Ship, removed: Iterable[int], *, board_ref: str | None = None,
                   base_dir: str | Path | None = None) -> str:
    """The ship file ``text`` (of ``ship``) with the tiles on the squares ``removed`` taken out and,
    when given, `board` set to ``board_ref``; comments, key order and layout kept (see
    :func:`rewrite_ship_text`)."""
    expected = ship.without(set(removed))
    if board_ref is not None:
        expected = replace(expected, board_ref=board_ref)
    return rewrite_ship_text(text, expected, base_dir=base_dir)


def _tile_keys(t: Tile | AsideTile, board: Board | None) -> dict[str, Any]:
    """The keys of a tile's table, in the order :func:`dump_ship` writes them (plain values)."""
    d: dict[str, Any] = {}
    if isinstance(t, Tile) and board is not None:
        d["at"] = board.cell_name(t.at)
    if t.id:
        d["id"] = t.id
    else:
        d.update({"kind": t.kind, "sides": t.sides, **dict(t.attrs)})
    if isinstance(t, Tile):
        if t.rot:
            d["rot"] = t.rot * 90
        if t.crew is not None:
            d["crew"] = t.crew
        if t.charge is not None:
            d["charge"] = t.charge
        if t.goods:
            d["goods"] = list(t.goods)
    return d


def _set_keys(table: Any, want: dict[str, Any]) -> None:
    """Make a tomlkit table hold exactly ``want``: equal values stay as written (with their comments),
    changed ones are replaced in place, missing ones appended, others removed (``rot = 0`` stays)."""
    import tomlkit

    for k in [k for k in table if k not in want]:
        if not (k == "rot" and table[k] == 0 and "rot" not in want):
            del table[k]
    for k, v in want.items():
        old = table.get(k)
        if old is not None and (old.unwrap() if hasattr(old, "unwrap") else old) == v:
            continue
        if isinstance(v, dict):
            inline = tomlkit.inline_table()
            inline.update(v)
            table[k] = inline
        else:
            table[k] = v


def _identity(t: Tile) -> tuple[Any, ...]:
    """What a tile is, wherever it stands and however it is turned."""
    return (t.id, t.kind, t.sides, t.attrs)


def _no_square(*_args: Any, **_kw: Any) -> Exception:
    return ValueError("square")


def rewrite_ship_text(text: str, ship: Ship, *, base_dir: str | Path | None = None) -> str:
    """The ship file ``text`` rewritten to hold ``ship``, keeping the comments, key order and layout of
    everything that did not change (tomlkit).

    Each ``[[tile]]`` table of the text is matched to a tile of ``ship`` by its square: an equal tile
    keeps its table as it is, a changed one has its changed keys rewritten in place, and a tile that
    moved keeps its table with a new ``at`` (matched by what the tile is). Tiles no longer on the ship
    lose their tables; new ones are appended. Top-level keys are set, added or removed as ``ship``
    says, and ``[[aside]]`` and ``[meta]`` rewritten when they differ.

    The result is parsed back (resolving a board path from ``base_dir``, where it will be saved) and
    must equal ``ship``; when it does not (a text that does not parse, an unusual layout), the ship
    is written anew by :func:`dump_ship` instead, which loses the comments but never the meaning.
    """
    try:
        out = _rewrite(text, ship, base_dir)
        if out is not None and parse_ship(out, base_dir=base_dir, edition=ship.edition) == ship:
            return out
    except Exception:  # any surprise in the edit: the plain writer below is always right
        pass
    return dump_ship(ship)


def _rewrite(text: str, ship: Ship, base_dir: str | Path | None) -> str | None:
    import tomlkit

    old = parse_ship(text, base_dir=base_dir, edition=ship.edition)
    if old.board != ship.board:
        return None
    b = ship.board
    doc = tomlkit.parse(text)
    top: dict[str, Any] = {"format": 1}
    ref = ship.board_ref or old.board_ref
    top["class" if ref in BUILTIN_CLASSES else "board"] = ref
    if ship.edition != "2007" or "edition" in doc:
        top["edition"] = ship.edition
    for key, value in (("name", ship.name), ("front", ship.front), ("dice", list(ship.dice) or None)):
        if value is not None:
            top[key] = value
    for k in ("name", "front", "dice", "edition", "class", "board"):
        if k in doc and k not in top:
            del doc[k]
    for k, v in top.items():
        if k not in doc or doc[k] != v:
            doc[k] = v

    wanted = {t.at: t for t in ship.tiles if not t.implied}
    before = {t.at: t for t in old.tiles if not t.implied}
    tables = doc.get("tile")
    placed: set[int] = set()
    if tables is not None:
        squares = [_resolve_at(raw.unwrap().get("at") if hasattr(raw, "unwrap") else raw.get("at"), b, _no_square)
                   for raw in tables]
        # a table stays on its square while a tile of the same kind stands there (edited in place)
        target: dict[int, int | None] = {
            n: sq if sq in wanted and wanted[sq].kind == before[sq].kind else None for n, sq in enumerate(squares)}
        placed = {sq for sq in target.values() if sq is not None}
        for n, sq in target.items():
            if sq is None:  # its tile left the square: follow the same tile to a square it now stands on
                ident = _identity(before[squares[n]])
                dest = next((x for x, t in wanted.items() if x not in placed and _identity(t) == ident), None)
                if dest is not None:
                    target[n] = dest
                    placed.add(dest)
        for n, sq in target.items():
            if sq is not None:
                _set_keys(tables[n], _tile_keys(wanted[sq], b))
        for n in sorted((n for n, sq in target.items() if sq is None), reverse=True):
            del tables[n]
        if not len(tables):
            del doc["tile"]
    new_tiles = [t for sq, t in sorted(wanted.items()) if sq not in placed]
    if new_tiles:
        if "tile" not in doc:
            doc.append("tile", tomlkit.aot())
        for t in new_tiles:
            table = tomlkit.table()
            _set_keys(table, _tile_keys(t, b))
            table.add(tomlkit.nl())  # a blank line before whatever follows
            doc["tile"].append(table)

    if old.aside != ship.aside:
        if "aside" in doc:
            del doc["aside"]
        if ship.aside:
            aot = tomlkit.aot()
            for a in ship.aside:
                table = tomlkit.table()
                _set_keys(table, _tile_keys(a, None))
                aot.append(table)
            doc.append("aside", aot)
    if old.meta != ship.meta:
        if "meta" in doc:
            del doc["meta"]
        if ship.meta:
            doc.append("meta", dict(ship.meta))
    return tomlkit.dumps(doc).rstrip("\n") + "\n"


def board_from(ship: Ship, folder: str | Path) -> Ship:
    """``ship`` with its `board = "path"` naming the same board file from ``folder`` (where its ship
    file is written); a ship of a built-in class as it is."""
    if ship.board_ref is None or ship.board_ref in BUILTIN_CLASSES or not ship.board.source:
        return ship
    new = os.path.relpath(Path(ship.board.source).resolve(), Path(folder).resolve())
    return replace(ship, board_ref=Path(new).as_posix())


def save_text(path: str | Path, text: str | bytes, *, overwrite: bool = False) -> None:
    """Write ``text`` (UTF-8, or bytes as they are) to ``path`` atomically; raises :class:`InputError`.

    The text goes to a temporary file in the same folder, which then takes the name in one step,
    so a full disk or a crash never leaves a cut-off file in place of a good one. Without
    ``overwrite`` nothing that exists at the moment of writing is created over or replaced (a hard
    link makes the name exclusively); with it, a symlink at ``path`` is replaced by the file, never
    followed to write elsewhere.
    """
    p = Path(path)
    shown = printable(str(p))
    if "\x00" in str(p):
        raise InputError("cannot write there (the path holds a NUL byte)", file=shown.replace("\x00", ""))
    if not overwrite and os.path.lexists(p):
        raise InputError("output file exists (give overwrite=True, or --force, to replace it)", file=shown,
                         expected="a new file name")
    if p.is_dir() and not p.is_symlink():
        raise InputError("cannot write there (a folder)", file=shown, expected="a file name")
    try:
        st: os.stat_result | None = os.lstat(p)
    except OSError:
        st = None
    # a device, a pipe or a socket is never replaced by a file (--force on /dev/null, as root)
    if st is not None and not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
        raise InputError("cannot write there (not a regular file: a device, a pipe or a socket)", file=shown,
                         expected="a file name")
    import tempfile

    folder = p.parent
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write there ({exc.strerror or exc})", file=shown) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text if isinstance(text, bytes) else text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        mode = _new_file_mode()
        if overwrite and st is not None and stat.S_ISREG(st.st_mode):
            mode = stat.S_IMODE(st.st_mode)  # a file replaced keeps its permissions
        os.chmod(tmp, mode)
        if overwrite:
            os.replace(tmp, p)
            return
        try:
            os.link(tmp, p)  # fails if the name exists now, whatever it is (a dangling symlink too)
        except FileExistsError:
            raise InputError("output file exists (it appeared while shipcheck worked; nothing was written)",
                             file=shown, expected="a new file name") from None
        except OSError:  # a file system without hard links: exclusive creation, then the text
            _write_exclusive(p, text, mode)
        os.unlink(tmp)
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", file=shown) from None
    except UnicodeEncodeError as exc:
        raise InputError(f"cannot write the file (text not encodable as UTF-8: {exc.reason})", file=shown) from None
    finally:
        try:
            os.unlink(tmp)  # gone already when all went well
        except OSError:
            pass


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _write_exclusive(p: Path, text: str | bytes, mode: int) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(p, flags, mode)
    except FileExistsError:
        raise InputError("output file exists (it appeared while shipcheck worked; nothing was written)",
                         file=printable(str(p)), expected="a new file name") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(text if isinstance(text, bytes) else text.encode("utf-8"))


def tile_lines(text: str, board: Board) -> dict[int, int]:
    """The line of the ``[[tile]]`` header of each square's tile in a ship file's text (for
    ``file:line`` in reports); squares whose tile is not written (an implied pilot cabin) are absent."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}
    loc = Locator(text)
    out: dict[int, int] = {}

    def err(*_args: Any, **_kw: Any) -> InputError:
        return InputError("bad square")

    for n, raw in enumerate(doc.get("tile", []) if isinstance(doc.get("tile"), list) else []):
        if not isinstance(raw, dict) or "at" not in raw:
            continue
        try:
            at = _resolve_at(raw["at"], board, err)
        except InputError:
            continue
        line = loc.line_of(None, "tile", n)
        if line is not None:
            out.setdefault(at, line)
    return out
