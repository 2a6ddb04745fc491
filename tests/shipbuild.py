"""Small ship files written inline, for tests: ``ship(PILOT + tile((8, 7), "cabin", "0003"))``."""

from __future__ import annotations

import json

from shipcheck.model import Ship
from shipcheck.shipfile import parse_ship


def ship(tiles: str, cls: str = "I", extra: str = "") -> Ship:
    """A ship on a built-in board from ``[[tile]]`` tables (``extra``: more top-level keys)."""
    return parse_ship(f'format = 1\nclass = "{cls}"\n{extra}' + tiles)


def tile(at: tuple[int, int] | dict[str, int], kind: str, sides: str, **kw: object) -> str:
    """One ``[[tile]]`` table; ``at`` as labels ``(col, row)`` or grid indices ``{"col": i, "row": j}``."""
    extra = "".join(f"{k} = {json.dumps(v)}\n" for k, v in kw.items())
    where = f"[{at[0]}, {at[1]}]" if isinstance(at, tuple) else f"{{col = {at['col']}, row = {at['row']}}}"
    return f"\n[[tile]]\nat = {where}\nkind = \"{kind}\"\nsides = \"{sides}\"\n{extra}"


PILOT = tile((7, 7), "start_cabin", "3333")


#: a ship file with comments everywhere: what rewriting a file must keep
COMMENTED = """\
# My ship for round 2.  Keep this comment!
format = 1
name = "Commented"   # trailing comment
class = "I"

# --- the cockpit ---
[[tile]]
kind = "start_cabin"   # keys in my own order
at = [7, 7]
sides = "3333"

[[tile]]
at = [8, 7]
kind = "cargo"
sides = "0000"         # smooth all round: it falls off
slots = 2

[[tile]]
# an engine below the cockpit
at = [7, 8]
kind = "engine"
sides = "1000"

[meta]
owner = "me"           # mine
"""
