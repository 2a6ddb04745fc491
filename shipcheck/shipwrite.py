"""Writing a ship file (format 1): the text that loads back as an equal ship.

Below the ship model (:meth:`shipcheck.model.Ship.to_toml` calls it; :mod:`shipcheck.shipfile`
reads): it reads a ship's fields and builds none, so it imports the model for types only.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .data import data_path
from .topology import BUILTIN_CLASSES

if TYPE_CHECKING:
    from .model import AsideTile, Ship, Tile

__all__ = ["dump_ship"]


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
