"""Ships as the page holds them, and the ship drawing it shows.

The page edits a ship as a JSON *document*: the same keys and values as a ship file (``format``,
``class`` or ``board``, ``edition``, ``name``, ``tile`` and ``aside`` lists, ``meta``). The server
turns a document into ship-file text and reads it with :func:`shipcheck.parse_ship`, so a document
is held to exactly the rules of a file and a mistake in it gets the message the command line
gives for the same mistake in a file (without a line number: a document has none).
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from shipcheck.check.rules import CheckReport
from shipcheck.errors import InputError, bounded_depth, read_toml
from shipcheck.model import KINDS, Ship
from shipcheck.render import label_text
from shipcheck.serve.workspace import Workspace
from shipcheck.shipfile import SHIP_BYTES, parse_ship, toml_text

#: the name results give a ship that came without one
UNNAMED = "<input>"
#: array items, keys and tables a ship given to the workbench may hold, counted before it is parsed
#: (the TOML parser spends seconds on a flat array of a million numbers); the class III hauler of
#: the examples has about 240
MAX_ITEMS = 20_000
#: what the count skips: strings and comments
_QUOTED = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')


def _too_complex(found: str, name: str | None, key: str | None) -> InputError:
    return InputError(f"ship too complex for the workbench ({found})", file=name, key=key,
                      expected=f"at most {MAX_ITEMS:,} array items, keys and tables; a class III ship has "
                               "about 240")


def bounded_text(text: str, name: str) -> None:
    """Refuse ship-file text holding more than :data:`MAX_ITEMS` items, before it is parsed."""
    bare = _QUOTED.sub("", text)
    n = bare.count(",") + bare.count("[") + bare.count("{") + bare.count("=")
    if n > MAX_ITEMS:
        raise _too_complex(f"{n:,} items", name, None)


def bounded_doc(doc: Any) -> None:
    """Refuse a ship document holding more than :data:`MAX_ITEMS` values (counted until past it)."""
    n = 0
    todo = [doc]
    while todo and n <= MAX_ITEMS:
        v = todo.pop()
        if isinstance(v, dict):
            n += len(v)
            todo.extend(v.values())
        elif isinstance(v, list):
            n += len(v)
            todo.extend(v)
    if n > MAX_ITEMS:
        raise _too_complex(f"more than {MAX_ITEMS:,} values", None, "ship")


def _board_ok(doc: dict[str, Any], base: Path, ws: Workspace) -> None:
    """A ``board = "path"`` must lead to a file the workbench may read (see :class:`Workspace`)."""
    ref = doc.get("board")
    if not isinstance(ref, str) or not ref:
        return  # parse_ship says what is wrong with it
    target = Path(os.path.normpath(base / ref))
    if ws.board_allowed(target):
        return
    try:
        ws.path(str(target), key="board")
    except InputError as exc:
        raise InputError(f"board file refused: {exc.message}", key="board", value=ref,
                         expected="a board file inside the folder the workbench was started in") from None


def ship_from_text(text: str, ws: Workspace, *, name: str = UNNAMED, base: Path | None = None) -> Ship:
    """A ship from ship-file text (a request body or a file the workspace read)."""
    if len(text.encode("utf-8", "surrogatepass")) > SHIP_BYTES:
        raise InputError("ship file too large", file=name, expected=f"at most {SHIP_BYTES} bytes")
    bounded_text(text, name)
    folder = base or ws.root
    _board_ok(read_toml(text, name), folder, ws)
    return parse_ship(text, file=name, base_dir=folder)


def doc_text(doc: Any) -> str:
    """The ship-file text of a document; an :class:`InputError` for what TOML cannot hold."""
    if not isinstance(doc, dict):
        raise InputError("bad ship", key="ship", value=type(doc).__name__,
                         expected="an object with the keys of a ship file (format, class, tile, ...)")
    bounded_doc(doc)
    bounded_depth(doc)
    try:
        return toml_text(doc)
    except InputError as exc:
        raise InputError(f"bad ship: {exc.message}", key="ship", value=exc.value, expected=exc.expected) from None


def ship_from_doc(doc: Any, ws: Workspace, *, name: str = UNNAMED, base: Path | None = None) -> Ship:
    """A ship from the page's document; errors as for a file, without line numbers."""
    text = doc_text(doc)
    try:
        return ship_from_text(text, ws, name=name, base=base)
    except InputError as exc:
        for e in exc.errors:
            e.line = None  # lines of a text the user never saw
        raise


def doc_of(text: str) -> dict[str, Any]:
    """The document of ship-file text that :func:`shipcheck.parse_ship` accepted."""
    return tomllib.loads(text)


# -- the drawing ------------------------------------------------------------------------------------
def square_label(ship: Ship, i: int) -> str:
    """A square as people read it: ``7,8`` (its printed labels), or ``col 3, row 2`` (grid indices)."""
    name = ship.board.cell_name(i)
    if isinstance(name, dict):
        return f"col {name['col']}, row {name['row']}"
    return f"{name[0]},{name[1]}"


def view(ship: Ship, report: CheckReport) -> dict[str, Any]:
    """What the page draws: the board (labels, every square's state), every tile as drawn (board
    sides after rotation), exposed connectors and the rule codes on each square (the same content
    as the report's ship drawing, :func:`shipcheck.report.figures.ship_data`)."""
    from shipcheck.report.figures import ship_data

    data = ship_data(ship, report)
    b = ship.board
    tiles = ship.by_index
    out_tiles = []
    for tv in data.tiles:
        t = tiles[tv.at]
        out_tiles.append({
            "i": tv.at, "at": b.cell_name(tv.at), "kind": t.kind, "code": tv.code, "id": t.id, "sides": t.sides,
            "rot": t.rot * 90, "attrs": dict(t.attrs), "crew": t.crew, "charge": t.charge, "goods": list(t.goods),
            "implied": t.implied, "connectors": list(tv.connectors), "barrels": list(tv.barrels),
            "exhausts": list(tv.exhausts), "covers": list(tv.covers), "exposed": list(tv.exposed),
            "codes": list(tv.codes), "hint": tv.hint,
        })
    return {
        "board": {
            "name": b.name, "ref": ship.board_ref, "level": b.level, "width": b.width, "height": b.height,
            "columns": [label_text(x) for x in b.columns], "rows": [label_text(x) for x in b.rows],
            "index_cells": b.index_cells, "verified": b.verified, "note": b.note, "front": int(ship.front_side),
            "choose_front": b.choose_front, "seams": list(data.seams), "features": b.features(),
            "start": b.start,
        },
        "squares": [{"i": i, "at": b.cell_name(i), "label": square_label(ship, i), "state": state}
                    for i, state in enumerate(data.squares)],
        "tiles": out_tiles,
        "aside": [{"id": a.id, "kind": a.kind, "sides": a.sides, "attrs": dict(a.attrs)} for a in ship.aside],
        "title": data.name,
    }


def kinds() -> dict[str, Any]:
    """What the page needs to know of each tile kind: printed barrels, exhausts and shielded sides,
    the attributes it takes and whether it carries crew, charges or goods."""
    return {k.name: {"code": k.code, "barrels": list(k.barrels), "exhausts": list(k.exhausts), "covers": list(k.covers),
                     "attrs": {a: (list(v) if v is not None else None) for a, v in k.attrs.items()},
                     "required": list(k.required), "crew": k.crew, "charge": k.charge, "goods": k.goods,
                     "places": k.crew_places, "description": k.description}
            for k in KINDS.values()}
