"""The tiles a design may use: the edition's catalogue, a pile file, and a half-built ship's own.

A :class:`Pool` holds the tiles as :class:`~shipcheck.model.AsideTile` values; a tile is named by its
catalogue ``id`` when it has one (each physical tile exists once, rule T1), else by kind, sides and
attributes. What is still free is the pool minus what stands on the ship, counted by name.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shipcheck.errors import InputError, Locator, read_text_file, read_toml
from shipcheck.model import AsideTile, Ship, Tile

__all__ = ["Pool", "catalogue_pool", "pile_pool", "tile_key"]

PILE_BYTES = 1 << 20


def tile_key(t: AsideTile | Tile) -> Any:
    """What names a tile in the pool: its catalogue id, else kind, sides and attributes."""
    return t.id or (t.kind, t.sides, t.attrs)


@dataclass(frozen=True)
class Pool:
    """The tiles a design may weld (pilot cabins aside: the board's start square holds one)."""

    tiles: tuple[AsideTile, ...]
    source: str

    def free(self, ship: Ship, fixed: frozenset[int] = frozenset()) -> list[AsideTile]:
        """The pool's tiles not standing on ``ship`` (tiles on ``fixed`` squares came with it), in pool order."""
        used = Counter(tile_key(t) for t in ship.tiles if not t.implied and int(t.at) not in fixed)
        out = []
        for t in self.tiles:
            k = tile_key(t)
            if used[k]:
                used[k] -= 1
            else:
                out.append(t)
        return out


def catalogue_pool(edition: str) -> Pool:
    """Every tile of the edition's catalogue once, pilot cabins aside."""
    from shipcheck.shipfile import catalogue

    return Pool(tuple(t for t in catalogue(edition).values() if t.kind != "start_cabin"), f"the {edition} catalogue")


def pile_pool(path: str | Path, edition: str) -> Pool:
    """The ``[[tile]]`` entries of a pile file (a catalogue ``id``, or ``kind`` + ``sides`` and the
    kind's attributes; no ``at``). A pilot cabin listed is left out: the board's start square holds one."""
    from shipcheck.shipfile import _catalogue_tile, _maker, _tile_body

    text = read_text_file(Path(path), what="the pile file", limit=PILE_BYTES)
    loc = Locator(text)
    doc = read_toml(text, path)
    raw = doc.get("tile", [])
    if not isinstance(raw, list) or not raw:
        raise InputError("a pile needs [[tile]] entries", file=path, key="tile", value=None,
                         expected='[[tile]] tables with id = "2007:5", or kind and sides')
    out: list[AsideTile] = []
    for n, entry in enumerate(raw):
        err = _maker(path, loc, "tile", n)
        if not isinstance(entry, dict):
            raise err("not a table", None)
        if "at" in entry:
            raise err("a pile's tiles stand nowhere yet", "at", entry["at"], "no `at` in a pile")
        if "id" in entry:
            if set(entry) != {"id"}:
                extra = sorted(set(entry) - {"id"})[0]
                raise err("a catalogue tile takes its kind and sides from the catalogue", extra, entry[extra],
                          "`id` alone")
            t = _catalogue_tile(entry["id"], edition, err)
        else:
            kind, sides, attrs = _tile_body(entry, file=path, loc=loc, table="tile", index=n)
            t = AsideTile(kind=kind, sides=sides, attrs=attrs)
        if t.kind != "start_cabin":  # the pilot cabin comes with the board
            out.append(t)
    ids = Counter(t.id for t in out if t.id)
    twice = sorted(k for k, v in ids.items() if v > 1)
    if twice:
        raise InputError("a catalogue tile listed twice (each printed tile exists once, rule T1)", file=path,
                         line=None, key="id", value=twice[0], expected="each id at most once")
    return Pool(tuple(out), str(path))
