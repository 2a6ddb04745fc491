"""The default opponents: a field of three legal ships per base class, shipped with the tool.

``tiles/field/<class>/*.toml`` are ordinary ship files, a trader, a racer and a fighter built by
``tools/build_field.py`` from one pile of 2007 catalogue tiles per class (no tile in two ships; see
docs/rounds.md for what they are and how they do). A ship of a class without its own field (the
expansion classes) meets the field of its board's level (I, II or III).
"""

from __future__ import annotations

import functools

from shipcheck.data import data_path
from shipcheck.model import Ship

__all__ = ["FIELD_CLASSES", "default_field", "field_ships"]

FIELD_CLASSES = ("I", "II", "III", "IIIa")
_BY_LEVEL = {1: "I", 2: "II", 3: "III"}


@functools.lru_cache(maxsize=8)
def field_ships(cls: str) -> tuple[Ship, ...]:
    """The field of class ``cls`` (one of :data:`FIELD_CLASSES`), in launch order. Their ``source``
    is ``"field:<class>/<file>"``, the same on every machine (not the installed file's path)."""
    import dataclasses

    from shipcheck.shipfile import load_ship

    folder = data_path("field", cls)
    return tuple(dataclasses.replace(load_ship(p), source=f"field:{cls}/{p.name}") for p in sorted(folder.glob("*.toml")))


def default_field(ship: Ship, level: int) -> tuple[list[Ship], str]:
    """The opponents for ``ship`` when none are given, and a note naming them."""
    name = ship.board.name if ship.board.name in FIELD_CLASSES else _BY_LEVEL.get(ship.board.level, _BY_LEVEL[level])
    ships = list(field_ships(name))
    names = ", ".join(s.name or "?" for s in ships)
    return ships, f"opponents: the default class {name} field ({names})"
