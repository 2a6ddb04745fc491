"""Ship files (format 1): loading, the tile catalogues, and writing a ship back out."""

from __future__ import annotations

import datetime
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from .data import data_path
from .errors import InputError, Locator, read_toml
from .model import (
    CREW_VALUES,
    GOODS,
    KINDS,
    AsideTile,
    Ship,
    Tile,
)
from .topology import BUILTIN_CLASSES, Board, builtin_board, load_board

EDITIONS = ("2007", "2021")
_SHIP_KEYS = {"format", "class", "board", "edition", "name", "front", "dice", "tile", "aside", "meta"}
_TILE_KEYS = {"at", "id", "kind", "sides", "rot", "crew", "charge", "goods", "cells", "slots",
              "special_slots", "color"}
_ATTR_KEYS = ("cells", "slots", "special_slots", "color")


# -- catalogue ------------------------------------------------------------------------------------
@cache
def catalogue(edition: str = "2007") -> dict[str, AsideTile]:
    """The tile catalogue of an edition, by id (``"2007:64"``)."""
    if edition not in EDITIONS:
        raise KeyError(edition)
    path = data_path("catalogue", f"{edition}.toml")
    text = path.read_text(encoding="utf-8")
    doc = tomllib.loads(text)
    out: dict[str, AsideTile] = {}
    loc = Locator(text)
    for n, raw in enumerate(doc.get("tile", [])):
        tid = f"{edition}:{raw['id']}"
        kind, sides, attrs = _tile_body(raw, file=path, loc=loc, table="tile", index=n, inline=True)
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


def _tile_body(
    raw: dict[str, Any], *, file: Any, loc: Locator, table: str, index: int, inline: bool
) -> tuple[str, str, tuple[tuple[str, Any], ...]]:
    """Validate kind, sides and attributes of an inline tile."""

    def err(msg: str, key: str | None, value: Any = None, expected: str | None = None) -> InputError:
        return InputError(f"[[{table}]] #{index + 1}: {msg}", file=file,
                          line=loc.line_of(key, table, index), key=key, value=value, expected=expected)

    kind = raw.get("kind")
    if kind is None:
        raise err("a tile needs `kind` and `sides`, or a catalogue `id`", "kind", None, "a tile kind")
    if kind not in KINDS:
        raise err("unknown tile kind", "kind", kind, "one of " + ", ".join(KINDS))
    info = KINDS[kind]
    sides = raw.get("sides")
    if sides is None:
        raise err("missing `sides`", "sides", None, "4 digits 0-3 in the order N E S W")
    if not isinstance(sides, str) or len(sides) != 4 or any(ch not in "0123" for ch in sides):
        raise err("bad side string", "sides", sides, "4 digits 0-3 in the order N E S W, e.g. \"3102\"")
    for s in info.barrels + info.exhausts:
        if sides[s] != "0":
            what = "barrel" if s in info.barrels else "exhaust"
            raise err(f"the {what} side ({'NESW'[s]}) of {_a(kind)} must be written 0", "sides", sides,
                      f"0 at position {s + 1}")
    attrs = []
    for a in _ATTR_KEYS:
        if a in raw:
            if a not in info.attrs:
                raise err(f"`{a}` does not apply to {_a(kind)}", a, raw[a],
                          "attributes " + (", ".join(info.attrs) or "none") + f" for {kind}")
            allowed = info.attrs[a]
            v = raw[a]
            if allowed is None:
                if not isinstance(v, str) or not v:
                    raise err(f"bad `{a}`", a, v, "a name")
            elif v not in allowed or isinstance(v, bool) or type(v) is not type(allowed[0]):
                raise err(f"bad `{a}` for {_a(kind)}", a, v, "one of " + ", ".join(map(str, allowed)))
            attrs.append((a, v))
    for a in info.required:
        if a not in raw:
            raise err(f"{_a(kind)} needs `{a}`", a, None, "one of " + ", ".join(map(str, info.attrs[a] or ())))
    if kind == "mixed_cargo" and raw["special_slots"] > raw["slots"]:
        raise err("more special slots than slots", "special_slots", raw["special_slots"],
                  f"at most {raw['slots']}")
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
            raise err("bad square", "at", at, "{col = i, row = j} with 0-based grid indices")
        c, r = at["col"], at["row"]
        if not (0 <= c < board.width and 0 <= r < board.height):
            raise err(f"square is not on the grid of board {board.name}", "at", at,
                      f"col 0-{board.width - 1}, row 0-{board.height - 1}")
        return r * board.width + c
    raise err("missing or bad square", "at", at, "[column, row] labels or {col = i, row = j}")


# -- ships ----------------------------------------------------------------------------------------
def load_ship(path: str | Path, *, edition: str = "2007") -> Ship:
    """Read a ship file; raises :class:`InputError` on any format error. ``edition`` is the edition
    of a file that does not name one."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read ship file ({exc.strerror or exc})", file=p) from None
    except UnicodeDecodeError:
        raise InputError("ship file is not UTF-8 text", file=p) from None
    return parse_ship(text, file=p, base_dir=p.parent, edition=edition)


def parse_ship(text: str, *, file: str | Path | None = None, base_dir: str | Path | None = None,
               edition: str = "2007") -> Ship:
    """Parse ship-file text. ``base_dir`` resolves ``board = "..."`` paths; ``edition`` is the
    edition of a file that does not name one."""
    loc = Locator(text)
    top_err = loc.top_error(file)
    doc = read_toml(text, file)
    for k in doc:
        if k not in _SHIP_KEYS:
            raise top_err("unknown top-level key (free-form data goes under [meta])", k, doc[k],
                          "one of " + ", ".join(sorted(_SHIP_KEYS)))
    if "format" not in doc:
        raise top_err("missing `format`", "format", None, "format = 1")
    if doc["format"] != 1 or isinstance(doc["format"], bool):
        raise top_err("unsupported ship format", "format", doc["format"], "1")
    edition = doc.get("edition", edition)
    if edition not in EDITIONS:
        raise top_err("unknown edition", "edition", edition, '"2007" or "2021"')
    if ("class" in doc) == ("board" in doc):
        raise top_err("give exactly one of `class` and `board`", "class" if "class" in doc else None,
                      None, 'class = "I" (a built-in board) or board = "path/to/board.toml"')
    if "class" in doc:
        cls = doc["class"]
        if cls not in BUILTIN_CLASSES:
            raise top_err("unknown ship class", "class", cls, "one of " + ", ".join(BUILTIN_CLASSES))
        board = builtin_board(cls, edition)
        board_ref = cls
    else:
        ref = doc["board"]
        if not isinstance(ref, str) or not ref:
            raise top_err("bad board path", "board", ref, "a path to a board file")
        bpath = Path(base_dir or ".") / ref
        try:
            board = load_board(bpath)
        except InputError as exc:
            if exc.message.startswith("cannot read"):
                raise top_err("cannot read the board file", "board", ref,
                              f"a board file at {bpath}") from None
            raise
        board_ref = ref
    name = doc.get("name")
    if name is not None and not isinstance(name, str):
        raise top_err("bad name", "name", name, "a string")
    front = doc.get("front")
    if front is not None:
        if not board.choose_front:
            raise top_err(f"board {board.name} does not let the player choose the front", "front", front,
                          "no `front` key on this board")
        if front not in ("N", "E", "S", "W"):
            raise top_err("bad front", "front", front, '"N", "E", "S" or "W"')
    dice = doc.get("dice")
    if dice is not None:
        if not board.die_squares:
            raise top_err(f"board {board.name} has no die-unlocked squares", "dice", dice, "no `dice` key")
        if (not isinstance(dice, list) or not 1 <= len(dice) <= 2
                or not all(_int(x) and 1 <= x <= 6 for x in dice)):
            raise top_err("bad dice", "dice", dice, "the two rolls, e.g. dice = [2, 5]")
    meta = doc.get("meta", {})
    if not isinstance(meta, dict):
        raise top_err("`meta` must be a table", "meta", meta, "[meta]")

    raw_tiles = doc.get("tile", [])
    if not isinstance(raw_tiles, list):
        raise top_err("`tile` must be an array of tables", "tile", None, "[[tile]] entries")
    tiles: list[Tile] = []
    seen: dict[int, int] = {}
    for n, raw in enumerate(raw_tiles):
        tiles.append(_parse_tile(raw, n, board, edition, file, loc, seen))
    starts = [t for t in tiles if t.kind == "start_cabin"]
    if len(starts) > 1:
        n = next(i for i, t in enumerate(tiles) if t is starts[1])
        raise InputError("two pilot cabins (start_cabin) in one ship", file=file,
                         line=loc.line_of("kind", "tile", n), key="kind", value="start_cabin",
                         expected="at most one start_cabin")
    if not starts and board.start is not None and board.start not in seen:
        # the pilot cabin stands on the start square from the beginning (spec section 4)
        tiles.append(Tile(at=board.square(board.start), kind="start_cabin", sides="3333", implied=True))

    aside = []
    raw_aside = doc.get("aside", [])
    if not isinstance(raw_aside, list):
        raise top_err("`aside` must be an array of tables", "aside", None, "[[aside]] entries")
    for n, raw in enumerate(raw_aside):
        aside.append(_parse_aside(raw, n, edition, file, loc))
    return Ship(
        board=board, tiles=tuple(tiles), edition=edition, name=name, front=front,
        dice=tuple(dice or ()), aside=tuple(aside), board_ref=board_ref,
        meta=tuple(sorted(meta.items())), source=str(file) if file else None,
    )


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


def _parse_aside(raw: Any, n: int, edition: str, file: Any, loc: Locator) -> AsideTile:
    def err(msg: str, key: str | None, value: Any = None, expected: str | None = None) -> InputError:
        return InputError(f"[[aside]] #{n + 1}: {msg}", file=file, line=loc.line_of(key, "aside", n),
                          key=key, value=value, expected=expected)

    if not isinstance(raw, dict):
        raise err("not a table", None)
    for k in raw:
        if k not in ("id", "kind", "sides", *_ATTR_KEYS):
            raise err("unknown key", k, raw[k], "id, or kind + sides and the kind's attributes")
    if "id" in raw:
        if "kind" in raw or "sides" in raw:
            raise err("give either `id` or `kind` + `sides`", "id", raw["id"], "one of the two forms")
        return _catalogue_tile(raw["id"], edition, err)
    kind, sides, attrs = _tile_body(raw, file=file, loc=loc, table="aside", index=n, inline=True)
    return AsideTile(kind=kind, sides=sides, attrs=attrs)


def _parse_tile(raw: Any, n: int, board: Board, edition: str, file: Any, loc: Locator,
                seen: dict[int, int]) -> Tile:
    def err(msg: str, key: str | None, value: Any = None, expected: str | None = None) -> InputError:
        return InputError(f"[[tile]] #{n + 1}: {msg}", file=file, line=loc.line_of(key, "tile", n),
                          key=key, value=value, expected=expected)

    if not isinstance(raw, dict):
        raise err("not a table", None)
    for k in raw:
        if k not in _TILE_KEYS:
            raise err("unknown key in a tile", k, raw[k], "one of " + ", ".join(sorted(_TILE_KEYS)))
    if "at" not in raw:
        raise err("missing `at`", "at", None, "[column, row] labels or {col = i, row = j}")
    at = board.square(_resolve_at(raw["at"], board, err))
    if at in seen:
        raise err(f"two tiles on one square (also [[tile]] #{seen[at] + 1})", "at", raw["at"],
                  "one tile per square")
    seen[at] = n
    rot_deg = raw.get("rot", 0)
    if not _int(rot_deg) or rot_deg % 90 != 0:
        raise err("rotation is not a multiple of 90", "rot", rot_deg, "0, 90, 180 or 270")
    rot = (rot_deg // 90) % 4
    tid = None
    if "id" in raw:
        if "kind" in raw or "sides" in raw:
            raise err("give either `id` or `kind` + `sides`", "id", raw["id"], "one of the two forms")
        for a in _ATTR_KEYS:
            if a in raw:
                raise err(f"`{a}` comes from the catalogue for a catalogue tile", a, raw[a],
                          "no attributes beside `id`")
        entry = _catalogue_tile(raw["id"], edition, err)
        kind, sides, attrs, tid = entry.kind, entry.sides, entry.attrs, entry.id
    else:
        kind, sides, attrs = _tile_body(raw, file=file, loc=loc, table="tile", index=n, inline=False)
    info = KINDS[kind]
    crew = raw.get("crew")
    if crew is not None:
        if not info.crew:
            raise err(f"`crew` is not allowed on {_a(kind)}", "crew", crew,
                      "crew only on start_cabin, cabin, luxury_cabin, stasis_chamber")
        if crew not in CREW_VALUES:
            raise err("bad crew", "crew", crew, "one of " + ", ".join(CREW_VALUES))
    charge = raw.get("charge")
    attr = dict(attrs)
    if charge is not None:
        if not info.charge:
            raise err(f"`charge` is not allowed on {_a(kind)}", "charge", charge,
                      "charge only on battery and battery_hold")
        cap = attr.get("cells", attr.get("slots", 0))
        if not _int(charge) or not 0 <= charge <= cap:
            raise err("bad charge", "charge", charge, f"0 to {cap}")
    goods = raw.get("goods", [])
    if "goods" in raw:
        if not info.goods:
            raise err(f"`goods` is not allowed on {_a(kind)}", "goods", goods,
                      "goods only on cargo, special_cargo, mixed_cargo and battery_hold")
        if not isinstance(goods, list) or not all(g in GOODS for g in goods):
            raise err("bad goods", "goods", goods, "a list of " + ", ".join(GOODS))
        slots = attr.get("slots", 0)
        used = len(goods) + (charge or 0 if kind == "battery_hold" else 0)
        if used > slots:
            raise err(f"more goods than the hold's {slots} slots", "goods", goods, f"at most {slots}")
        reds = goods.count("red")
        red_room = {"special_cargo": slots, "mixed_cargo": attr.get("special_slots", 0)}.get(kind, 0)
        if reds > red_room:
            raise err("red goods need special slots", "goods", goods, f"at most {red_room} red")
    return Tile(at=at, kind=kind, sides=sides, rot=rot, attrs=attrs, id=tid, crew=crew, charge=charge,
                goods=tuple(goods))


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


def _dump_body(t: Tile | AsideTile) -> list[str]:
    """A tile's identity: its catalogue id, or its kind, sides and attributes."""
    if t.id:
        return [f"id = {_toml_value(t.id)}"]
    return [f"kind = {_toml_value(t.kind)}", f"sides = {_toml_value(t.sides)}",
            *(f"{k} = {_toml_value(v)}" for k, v in t.attrs)]


def dump_ship(ship: Ship, *, comment: str | None = None) -> str:
    """Format-1 text of a ship; loading it gives an equal ship."""
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
