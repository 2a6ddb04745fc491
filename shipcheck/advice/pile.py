"""The tiles a player draws from the pile: the catalogue's kinds, counted.

While building, a player turns face-down tiles up from the pile; what they will most often find is
what the catalogue holds most copies of. :func:`pile_types` groups an edition's catalogue by tile
*type* (kind and attributes: "a cargo hold with 2 slots") and counts the copies, with the distinct
connector patterns of each type (the same printed sides up to a turn count as one pattern). Pilot
cabins are not in the pile.

>>> from shipcheck.advice.pile import pile_types
>>> top = pile_types("2007")[:3]
>>> [(t.kind, t.count) for t in top]
[('cannon', 23), ('engine', 19), ('cabin', 16)]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from shipcheck.model import AsideTile

__all__ = ["PileType", "pile_types"]


@dataclass(frozen=True)
class PileType:
    """One type of tile in the pile: its kind and attributes, how many copies the catalogue holds,
    and one catalogue tile per distinct connector pattern (the first id of the pattern)."""

    kind: str
    attrs: tuple[tuple[str, Any], ...]
    count: int
    patterns: tuple[AsideTile, ...]
    copies: tuple[tuple[AsideTile, ...], ...] = field(default=(), repr=False)  # per pattern, every copy

    def fresh(self, k: int, used: set[str]) -> AsideTile | None:
        """The first copy of pattern ``k`` (as printed: its own sides) whose id is not in ``used`` (the
        tiles a ship holds already: each printed tile exists once, rule T1); None when all are used."""
        copies = self.copies[k] if k < len(self.copies) else (self.patterns[k],)
        return next((t for t in copies if t.id not in used), None)

    @property
    def name(self) -> str:
        """The type in words: ``"cannon"``, ``"battery (2 cells)"``, ``"life support (purple)"``."""
        words = self.kind.replace("_", " ")
        words = {"cargo": "cargo hold", "special_cargo": "special cargo hold", "structural": "structural module",
                 "mixed_cargo": "mixed cargo hold"}.get(self.kind, words)
        extra = []
        for k, v in self.attrs:
            if k == "color":
                extra.append(str(v))
            elif k == "special_slots":
                extra.append(f"{v} special")
            else:
                extra.append(f"{v} {k if v != 1 else k.rstrip('s')}")
        return words + (f" ({', '.join(extra)})" if extra else "")

    def __repr__(self) -> str:
        return f"PileType({self.name!r}, count={self.count}, patterns={len(self.patterns)})"


def _pattern(t: AsideTile) -> tuple[Any, ...]:
    """What a tile looks like up to a turn: the smallest of its four turned connector sides, barrels,
    exhausts and shield cover (two cannons that are mirror images are different patterns)."""
    from shipcheck.model import Tile

    def look(rot: int) -> tuple[Any, ...]:
        p = Tile(at=0, kind=t.kind, sides=t.sides, rot=rot, attrs=t.attrs)
        return (p.eff, tuple(sorted(p.barrels)), tuple(sorted(p.exhausts)), tuple(sorted(p.covers)))

    return min(look(r) for r in range(4))


@functools.cache
def pile_types(edition: str = "2007") -> tuple[PileType, ...]:
    """The edition's tile types, most copies first (ties in catalogue order)."""
    from shipcheck.shipfile import catalogue

    groups: dict[tuple[str, tuple[tuple[str, Any], ...]], list[AsideTile]] = {}
    for t in catalogue(edition).values():
        if t.kind == "start_cabin":
            continue
        groups.setdefault((t.kind, t.attrs), []).append(t)
    out = []
    for (kind, attrs), tiles in groups.items():
        seen: dict[tuple[Any, ...], list[AsideTile]] = {}
        for t in tiles:
            seen.setdefault(_pattern(t), []).append(t)
        out.append(PileType(kind, attrs, len(tiles), tuple(ts[0] for ts in seen.values()),
                            tuple(tuple(ts) for ts in seen.values())))
    order = {key: k for k, key in enumerate(groups)}
    return tuple(sorted(out, key=lambda p: (-p.count, order[(p.kind, p.attrs)])))
