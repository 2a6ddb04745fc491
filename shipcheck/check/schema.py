"""JSON Schemas (draft-07) for ship and board files, built from the same tables the loaders use.

Editors that understand JSON Schema for TOML (taplo, Even Better TOML) complete keys, kinds and
catalogue ids from them and flag most mistakes as they are typed. The loaders stay the authority:
a few rules need more than a schema can say (two tiles on one square, a board file's rows of
equal length, ...) and are caught only when the file is loaded; ``docs/schema.md`` lists them.

The schemas ship as files in the package (``shipcheck/schemas/``, printed by
``shipcheck schema ship|board``); ``python -m shipcheck.check.schema`` writes them again from this
module, and a test checks that the files are up to date.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from shipcheck.model import CREW_VALUES, GOODS, KINDS
from shipcheck.shipfile import MAX_ASIDE, MAX_NAME, MAX_TILES
from shipcheck.topology import BUILTIN_CLASSES, CELL_CHARS, DIRECTIONS, MAX_LABEL, MAX_SIDE, Board, builtin_board

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
NAMES = ("ship", "board")
DRAFT = "http://json-schema.org/draft-07/schema#"
EDITIONS = ("2007", "2021")
SIDES_HELP = "4 digits 0-3 for the N E S W sides at rotation 0: 0 smooth, 1 single, 2 double, 3 universal"

_INT: dict[str, Any] = {"type": "integer"}


def _single_labels(labels: tuple[tuple[int, ...], ...]) -> list[int]:
    """Labels that name exactly one line: the values a `[column, row]` square may use."""
    counts: dict[int, int] = {}
    for lab in labels:
        for v in lab:
            counts[v] = counts.get(v, 0) + 1
    return sorted(v for v, n in counts.items() if n == 1)


def _at_for(board: Board) -> dict[str, Any]:
    """The squares of one board: labels (`[col, row]`) or 0-based grid indices (`{col, row}`)."""
    return {
        "anyOf": [
            {"type": "array", "items": [{"enum": _single_labels(board.columns)},
                                        {"enum": _single_labels(board.rows)}]},
            {"type": "object", "properties": {"col": {"type": "integer", "minimum": 0, "maximum": board.width - 1},
                                              "row": {"type": "integer", "minimum": 0,
                                                      "maximum": board.height - 1}}},
        ]
    }


def _catalogue_ids(edition: str) -> list[str]:
    from shipcheck.shipfile import catalogue

    return list(catalogue(edition))


def _sides_pattern(kind: str) -> str:
    """The side string of a kind: barrels and exhausts must be written 0."""
    info = KINDS[kind]
    fixed = set(info.barrels) | set(info.exhausts)
    return "^" + "".join("0" if s in fixed else "[0-3]" for s in range(4)) + "$"


def _attr_schema(allowed: tuple[Any, ...] | None) -> dict[str, Any]:
    if allowed is None:
        return {"type": "string", "minLength": 1}
    return {"type": "integer" if isinstance(allowed[0], int) else "string", "enum": list(allowed)}


ATTR_HELP = {
    "cells": "battery charges it holds: 2 or 3",
    "slots": "goods it holds",
    "special_slots": "slots of a mixed cargo hold that take red goods",
    "color": "life support: the alien colour it serves (purple, orange, cyan); pilot cabin: the player colour",
}


def _kind_rules(*, placed: bool) -> list[dict[str, Any]]:
    """Per kind: its side pattern, required and allowed attributes, and (placed tiles) its state keys."""
    out: list[dict[str, Any]] = []
    attr_names = sorted({a for info in KINDS.values() for a in info.attrs})
    for kind, info in KINDS.items():
        then: dict[str, Any] = {"properties": {"sides": {"pattern": _sides_pattern(kind)}}}
        props = then["properties"]
        for a in attr_names:
            props[a] = _attr_schema(info.attrs[a]) if a in info.attrs else False
        if info.required:
            then["required"] = list(info.required)
        if placed:
            if not info.crew:
                props["crew"] = False
            if not info.charge:
                props["charge"] = False
            if not info.goods:
                props["goods"] = False
        rule: dict[str, Any] = {"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                                "then": then}
        out.append(rule)
    if placed:
        # state that depends on the size of the hold, written inline (catalogue tiles: the loader checks)
        for n in (1, 2, 3, 4, 5, 6):
            out.append({"if": {"properties": {"slots": {"const": n}}, "required": ["slots"]},
                        "then": {"properties": {"goods": {"maxItems": n}, "special_slots": {"maximum": n},
                                                "charge": {"maximum": n}}}})
        for n in (2, 3):
            out.append({"if": {"properties": {"cells": {"const": n}}, "required": ["cells"]},
                        "then": {"properties": {"charge": {"maximum": n}}}})
        no_red = {"type": "array", "items": {"enum": [g for g in GOODS if g != "red"]}}
        for kind in ("cargo", "battery_hold"):
            out.append({"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                        "then": {"properties": {"goods": no_red}}})
    return out


def _tile_common() -> dict[str, Any]:
    attrs = sorted({a for info in KINDS.values() for a in info.attrs})
    props: dict[str, Any] = {
        "id": {"type": "string", "pattern": r"^(2007|2021):[0-9]+$",
               "description": 'a catalogue tile, "<edition>:<number>" (see `shipcheck tiles`); instead of kind + sides'},
        "kind": {"enum": list(KINDS), "description": "the tile kind (see `shipcheck tiles` and docs/ship-format.md)"},
        "sides": {"type": "string", "pattern": "^[0-3]{4}$", "description": SIDES_HELP},
    }
    for a in attrs:
        values = sorted({v for info in KINDS.values() for v in (info.attrs.get(a) or ())}, key=str)
        props[a] = ({"type": "integer", "enum": values} if values and isinstance(values[0], int)
                    else {"type": "string", "minLength": 1})
        props[a]["description"] = ATTR_HELP.get(a, a)
    return props


def _id_or_kind() -> dict[str, Any]:
    """Either a catalogue `id` (and no kind, sides or attributes), or `kind` + `sides`."""
    attrs = sorted({a for info in KINDS.values() for a in info.attrs})
    return {
        "oneOf": [
            {"required": ["id"], "not": {"anyOf": [{"required": [k]} for k in ("kind", "sides", *attrs)]}},
            {"required": ["kind", "sides"], "not": {"required": ["id"]}},
        ]
    }


@cache
def ship_schema() -> dict[str, Any]:
    """The JSON Schema of a ship file (format 1)."""
    common = _tile_common()
    tile_props: dict[str, Any] = {
        "at": {
            "description": "the square: [column, row] by the labels printed on the board edges, or "
                           "{col = i, row = j} by 0-based grid indices",
            "anyOf": [
                {"type": "array", "items": _INT, "minItems": 2, "maxItems": 2},
                {"type": "object", "properties": {"col": _INT, "row": _INT}, "required": ["col", "row"],
                 "additionalProperties": False},
            ],
        },
        **common,
        "rot": {"type": "integer", "multipleOf": 90, "default": 0,
                "description": "clockwise rotation in degrees: 0, 90, 180 or 270"},
        "crew": {"enum": list(CREW_VALUES),
                 "description": "who is aboard a cabin at launch (default humans); aliens need a joined life support"},
        "charge": {"type": "integer", "minimum": 0,
                   "description": "battery charges left (default: full)"},
        "goods": {"type": "array", "items": {"enum": list(GOODS)}, "description": "goods in a hold"},
    }
    tile: dict[str, Any] = {
        "type": "object",
        "description": "a tile placed on the board",
        "properties": tile_props,
        "required": ["at"],
        "additionalProperties": False,
        "allOf": [_id_or_kind(), *_kind_rules(placed=True)],
    }
    aside: dict[str, Any] = {
        "type": "object",
        "description": "a component set aside and never placed (it costs a credit at the end of the flight)",
        "properties": dict(common),
        "additionalProperties": False,
        "allOf": [_id_or_kind(), *_kind_rules(placed=False)],
    }
    per_board: list[dict[str, Any]] = []
    for cls in BUILTIN_CLASSES:
        for edition in EDITIONS if cls == "II" else (None,):
            board = builtin_board(cls, edition or "2007")
            cond: dict[str, Any] = {"properties": {"class": {"const": cls}}, "required": ["class"]}
            if edition == "2021":
                cond = {"properties": {"class": {"const": cls}, "edition": {"const": "2021"}},
                        "required": ["class", "edition"]}
            elif edition == "2007":
                cond = {"properties": {"class": {"const": cls}}, "required": ["class"],
                        "not": {"properties": {"edition": {"const": "2021"}}, "required": ["edition"]}}
            then: dict[str, Any] = {"properties": {"tile": {"items": {"properties": {"at": _at_for(board)}}}}}
            if not board.choose_front:
                then["properties"]["front"] = False
            if not board.die_squares:
                then["properties"]["dice"] = False
            per_board.append({"if": cond, "then": then})
    ids = {e: _catalogue_ids(e) for e in EDITIONS}
    by_edition = {
        "if": {"properties": {"edition": {"const": "2021"}}, "required": ["edition"]},
        "then": {"properties": {k: {"items": {"properties": {"id": {"enum": ids["2021"]}}}} for k in ("tile", "aside")}},
        "else": {"properties": {k: {"items": {"properties": {"id": {"enum": ids["2007"]}}}} for k in ("tile", "aside")}},
    }
    return {
        "$schema": DRAFT,
        "title": "shipcheck ship file (format 1)",
        "description": "A Galaxy Trucker ship: its board and the tiles placed on it. See docs/ship-format.md.",
        "type": "object",
        "properties": {
            "format": {"const": 1, "description": "the file format version: 1"},
            "class": {"enum": list(BUILTIN_CLASSES), "description": "a built-in board (ship class)"},
            "board": {"type": "string", "minLength": 1,
                      "description": "a board file, relative to this file's folder (instead of class)"},
            "edition": {"enum": list(EDITIONS), "default": "2007",
                        "description": "the tile catalogue `id` refers to, and the board where editions differ"},
            "name": {"type": "string", "maxLength": MAX_NAME, "description": "the ship's name"},
            "front": {"enum": ["N", "E", "S", "W"],
                      "description": "the board side that is the ship's front (class IA only)"},
            "dice": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                     "minItems": 1, "maxItems": 2,
                     "description": "the two rolls that unlocked die squares (class IVC only)"},
            "tile": {"type": "array", "items": tile, "maxItems": MAX_TILES,
                     "description": "the placed tiles, one [[tile]] each"},
            "aside": {"type": "array", "items": aside, "maxItems": MAX_ASIDE,
                      "description": "components set aside, one [[aside]] each"},
            "meta": {"type": "object", "description": "free-form data; shipcheck ignores it"},
        },
        "required": ["format"],
        "additionalProperties": False,
        "oneOf": [{"required": ["class"]}, {"required": ["board"]}],
        "allOf": [by_edition, *per_board],
    }


@cache
def board_schema() -> dict[str, Any]:
    """The JSON Schema of a board file (format 1)."""
    label_int = {"type": "integer", "minimum": 0, "maximum": MAX_LABEL}
    label = {"anyOf": [label_int, {"type": "array", "items": label_int, "minItems": 1, "maxItems": 12}]}
    direction = {"enum": list(DIRECTIONS)}
    cells_chars = "".join(CELL_CHARS).replace(".", r"\.")
    return {
        "$schema": DRAFT,
        "title": "shipcheck board file (format 1)",
        "description": "A ship board: its grid of squares, edge labels and topology. See docs/ship-format.md.",
        "type": "object",
        "properties": {
            "format": {"const": 1, "description": "the file format version: 1"},
            "name": {"type": "string", "minLength": 1, "maxLength": 100, "description": "the board's name (its class)"},
            "level": {"type": "integer", "minimum": 1, "maximum": 9, "default": 1,
                      "description": "flight level: which rules card, card decks and rewards apply"},
            "dice": {"enum": ["2d6", "1d6"], "default": "2d6", "description": "how an attack picks its line"},
            "columns": {"type": "array", "items": label, "minItems": 1, "maxItems": MAX_SIDE,
                        "description": "one label per grid column, left to right; a label may be a list"},
            "rows": {"type": "array", "items": label, "minItems": 1, "maxItems": MAX_SIDE,
                     "description": "one label per grid row, front to rear; a label may be a list"},
            "cells": {"type": "array", "minItems": 1, "maxItems": MAX_SIDE,
                      "items": {"type": "string", "maxLength": MAX_SIDE, "pattern": f"^[{cells_chars}]+$"},
                      "description": "the grid, front row first: # buildable, S start square, . not part "
                                     "of the ship, A-H hull letters, 1-6 die squares"},
            "max_penalty": {"type": "integer", "minimum": 0, "maximum": 10**6,
                            "description": "cap on the credits lost components cost; omit for no cap"},
            "wrap": {"type": "boolean", "default": False,
                     "description": "left edge meets right edge and top meets bottom (a torus)"},
            "seams": {"type": "array",
                      "items": {"type": "array", "items": _INT, "minItems": 2, "maxItems": 2},
                      "description": "transdimensional seams, each between two neighbouring column labels"},
            "choose_front": {"type": "boolean", "default": False,
                             "description": "the ship file's `front` picks which side is the front"},
            "redirect": {"type": "object",
                         "propertyNames": {"enum": list(DIRECTIONS)},
                         "additionalProperties": {"type": "object", "propertyNames": {"pattern": "^([1-9]|1[0-2])$"},
                                                  "additionalProperties": direction},
                         "description": 'rolls sent to another side, e.g. { front = { 1 = "left" } }'},
            "verified": {"type": "boolean", "default": True,
                         "description": "false: geometry from secondary sources, shown to the user as such"},
            "note": {"type": "string", "description": "a remark shown with the board"},
            "edition": {"type": "string", "description": "the game edition the board belongs to"},
        },
        "required": ["name", "cells", "columns", "rows"],
        "additionalProperties": False,
    }


def schema(name: str) -> dict[str, Any]:
    """The schema ``"ship"`` or ``"board"``."""
    if name == "ship":
        return ship_schema()
    if name == "board":
        return board_schema()
    raise KeyError(name)


def schema_text(name: str) -> str:
    """A schema as the JSON text shipped in the package."""
    return json.dumps(schema(name), indent=2, ensure_ascii=False) + "\n"


def schema_path(name: str) -> Path:
    """The packaged schema file (``shipcheck/schemas/NAME.schema.json``)."""
    if name not in NAMES:
        raise KeyError(name)
    return SCHEMA_DIR / f"{name}.schema.json"


def _write() -> None:
    SCHEMA_DIR.mkdir(exist_ok=True)
    for name in NAMES:
        schema_path(name).write_text(schema_text(name), encoding="utf-8")
        print(f"wrote {schema_path(name)}")


if __name__ == "__main__":  # pragma: no cover
    _write()

