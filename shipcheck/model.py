"""Immutable values: connectors, tile kinds, placed tiles and ships.

Sides (:class:`~shipcheck.topology.Side`, ``SIDES``, ``OPPOSITE``, ``DIRECTION_SIDE``) are
geometry: they live in :mod:`shipcheck.topology` and are imported here too, so
``shipcheck.model.Side`` still works. A ship's drawing and its TOML text come from the modules above
this one (:mod:`shipcheck.render`, :mod:`shipcheck.shipfile`), imported inside the methods that
show a ship.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from html import escape as _html_escape
from operator import attrgetter
from typing import Any

from shipcheck.topology import BUILTIN_CLASSES, Board
from shipcheck.topology import DIRECTION_SIDE as DIRECTION_SIDE  # geometry, kept importable from here (see above)
from shipcheck.topology import OPPOSITE as OPPOSITE
from shipcheck.topology import SIDES as SIDES
from shipcheck.topology import Side as Side

SMOOTH, SINGLE, DOUBLE, UNIVERSAL = 0, 1, 2, 3
CONNECTOR_NAMES = ("smooth", "single", "double", "universal")


def compatible(a: int, b: int, *, seam: bool = False) -> bool:
    """Whether two facing connectors join (both must be connectors)."""
    if a == SMOOTH or b == SMOOTH:
        return False
    if seam:
        return a == b
    return a == b or a == UNIVERSAL or b == UNIVERSAL


@dataclass(frozen=True)
class KindInfo:
    """What the format fixes about a tile kind (spec section 3)."""

    name: str
    code: str  # three letters for drawings
    barrels: tuple[int, ...] = ()  # printed sides carrying a barrel
    exhausts: tuple[int, ...] = ()  # printed sides carrying an exhaust
    covers: tuple[int, ...] = ()  # printed sides a shield covers
    required: tuple[str, ...] = ()
    attrs: dict[str, tuple[Any, ...] | None] = field(default_factory=dict)  # name -> allowed values
    crew_places: int = 0  # humans it holds by default
    crew: bool = False  # may carry `crew`
    charge: bool = False
    goods: bool = False
    description: str = ""


_INT_1_6 = (1, 2, 3, 4, 5, 6)
KINDS: dict[str, KindInfo] = {
    k.name: k
    for k in (
        KindInfo("start_cabin", "PIL", attrs={"color": None}, crew_places=2, crew=True,
                 description="pilot cabin, 2 humans, never an alien"),
        KindInfo("cabin", "CAB", crew_places=2, crew=True, description="crew cabin"),
        KindInfo("engine", "ENG", exhausts=(2,), description="engine, power 1"),
        KindInfo("double_engine", "EN2", exhausts=(2,), description="double engine, power 2 for a charge"),
        KindInfo("cannon", "CAN", barrels=(0,), description="cannon, power 1 forward"),
        KindInfo("double_cannon", "CA2", barrels=(0,), description="double cannon, power 2 for a charge"),
        KindInfo("shield", "SHD", covers=(0, 1), description="shield generator"),
        KindInfo("battery", "BAT", required=("cells",), attrs={"cells": (2, 3)}, charge=True,
                 description="battery component"),
        KindInfo("cargo", "CRG", required=("slots",), attrs={"slots": (1, 2, 3)}, goods=True,
                 description="cargo hold"),
        KindInfo("special_cargo", "SPC", required=("slots",), attrs={"slots": (1, 2)}, goods=True,
                 description="special cargo hold"),
        KindInfo("structural", "STR", description="structural module"),
        KindInfo("life_support", "LSP", required=("color",),
                 attrs={"color": ("purple", "orange", "cyan")}, description="alien life support"),
        KindInfo("luxury_cabin", "LUX", crew_places=1, crew=True, description="luxury cabin, 1 passenger"),
        KindInfo("stasis_chamber", "STA", crew_places=4, crew=True,
                 description="stasis chamber, 4 sleepers"),
        KindInfo("bidirectional_cannon", "BIC", barrels=(0, 1), description="bi-directional cannon"),
        KindInfo("cannon_engine", "CEN", barrels=(0,), exhausts=(2,), description="cannon engine"),
        KindInfo("mixed_cargo", "MIX", required=("slots", "special_slots"),
                 attrs={"slots": _INT_1_6, "special_slots": _INT_1_6}, goods=True,
                 description="mixed cargo hold"),
        KindInfo("battery_hold", "BHD", required=("slots",), attrs={"slots": _INT_1_6}, charge=True,
                 goods=True, description="battery hold"),
        KindInfo("shield_booster", "SBO", description="shield booster"),
        KindInfo("cannon_booster", "KBO", description="cannon booster"),
        KindInfo("engine_booster", "EBO", description="engine booster"),
        KindInfo("reactor_furnace", "FUR", description="reactor furnace"),
        KindInfo("plating", "PLT", description="indestructible plating"),
    )
}

CREW_VALUES = ("humans", "purple", "orange", "cyan", "empty")
ALIENS = ("purple", "orange", "cyan")
GOODS = ("red", "yellow", "green", "blue")
FREE_CANNONS = ("cannon", "cannon_engine")
CHARGED_CANNONS = ("double_cannon", "bidirectional_cannon")
CANNON_KINDS = FREE_CANNONS + CHARGED_CANNONS
ENGINE_KINDS = ("engine", "double_engine", "cannon_engine")
BATTERY_KINDS = ("battery", "battery_hold")
CABIN_KINDS = ("start_cabin", "cabin", "luxury_cabin")  # hold awake humans
_AT = attrgetter("at")  # a ship's tiles sort by square (a key that is no Python function: cheaper)
#: what an unknown kind's error expects: where the kinds are listed, not all of them on one line
KIND_EXPECTED = f"one of the {len(KINDS)} tile kinds `shipcheck tiles --kinds` lists"



@dataclass(frozen=True, repr=False)
class Tile:
    """A tile placed on a board square.

    ``at`` is the grid index ``row * width + col``; ``sides`` the printed N E S W string; ``rot`` a
    quarter-turn count 0-3; ``attrs`` the kind's attributes as sorted pairs.
    """

    at: int
    kind: str
    sides: str
    rot: int = 0
    attrs: tuple[tuple[str, Any], ...] = ()
    id: str | None = None
    crew: str | None = None
    charge: int | None = None
    goods: tuple[str, ...] = ()
    implied: bool = False  # the pilot cabin taken as standing on the start square
    eff: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)
    #: ``eff`` in one byte, two bits a side from N in the low bits (the checker's table index)
    eff_code: int = field(init=False, repr=False, compare=False)

    def __repr__(self) -> str:
        parts = [repr(self.at), self.kind, self.sides]
        if self.rot:
            parts.append(f"rot={self.rot * 90}")
        parts += [f"{k}={v}" for k, v in self.attrs]
        if self.id:
            parts.append(f"id={self.id}")
        for k in ("crew", "charge"):
            if getattr(self, k) is not None:
                parts.append(f"{k}={getattr(self, k)}")
        if self.goods:
            parts.append(f"goods={','.join(self.goods)}")
        if self.implied:
            parts.append("implied")
        return f"<Tile {' '.join(parts)}>"

    def __post_init__(self) -> None:
        if isinstance(self.rot, bool) or not isinstance(self.rot, int) and not hasattr(self.rot, "__index__") \
                or self.rot not in (0, 1, 2, 3):
            from shipcheck.errors import InputError  # a Tile built by hand: say so rather than fail deep in a check

            raise InputError("bad rotation of a Tile", key="rot", value=self.rot,
                             expected="quarter turns 0-3 (ship files and JSON give degrees: 90 is 1)")
        eff = [0, 0, 0, 0]
        for i, ch in enumerate(self.sides):
            eff[(i + self.rot) % 4] = int(ch)
        object.__setattr__(self, "eff", tuple(eff))
        object.__setattr__(self, "eff_code", eff[0] | eff[1] << 2 | eff[2] << 4 | eff[3] << 6)

    @property
    def info(self) -> KindInfo:
        return KINDS[self.kind]

    def attr(self, name: str, default: Any = None) -> Any:
        for k, v in self.attrs:
            if k == name:
                return v
        return default

    def side(self, s: int) -> int:
        """Connector on board side ``s`` (barrels and exhausts are smooth)."""
        return self.eff[s]

    @property
    def barrels(self) -> tuple[int, ...]:
        return tuple((b + self.rot) % 4 for b in self.info.barrels)

    @property
    def exhausts(self) -> tuple[int, ...]:
        return tuple((b + self.rot) % 4 for b in self.info.exhausts)

    @property
    def covers(self) -> tuple[int, ...]:
        return tuple((b + self.rot) % 4 for b in self.info.covers)

    @property
    def alien(self) -> str | None:
        return self.crew if self.crew in ALIENS else None

    @property
    def humans(self) -> int:
        """Awake humans aboard at launch (sleepers are not humans)."""
        if self.kind not in CABIN_KINDS:
            return 0
        if self.crew in (None, "humans"):
            return self.info.crew_places
        return 0

    @property
    def sleepers(self) -> int:
        if self.kind != "stasis_chamber":
            return 0
        return 0 if self.crew == "empty" or self.crew in ALIENS else 4

    @property
    def capacity(self) -> int:
        """Battery cells, or slots of a battery hold; 0 for other kinds."""
        if self.kind == "battery":
            return int(self.attr("cells", 0))
        if self.kind == "battery_hold":
            return int(self.attr("slots", 0))
        return 0

    @property
    def charges(self) -> int:
        """Charges at launch: the file's `charge`, else full (a battery hold starts empty of goods)."""
        if self.kind not in BATTERY_KINDS:
            return 0
        if self.charge is not None:
            return self.charge
        return self.capacity - len(self.goods)

    def connectors(self) -> int:
        return sum(1 for c in self.eff if c)


@dataclass(frozen=True)
class AsideTile:
    """A component set aside and never placed."""

    kind: str
    sides: str
    attrs: tuple[tuple[str, Any], ...] = ()
    id: str | None = None

    def placed(self, at: Any = 0, rot: int = 0) -> Tile:
        """This component as a tile placed on square ``at`` turned ``rot`` quarter turns."""
        return Tile(at=at, kind=self.kind, sides=self.sides, rot=rot, attrs=self.attrs, id=self.id)


class _Placed(tuple[Tile, ...]):
    """A ship's tiles as :class:`Ship` keeps them: sorted by square, each on a labelled square."""

    __slots__ = ()


@dataclass(frozen=True, eq=True, repr=False)
class Ship:
    """A ship: its board, the placed tiles in grid order, and the file-level settings."""

    board: Board
    tiles: tuple[Tile, ...]
    edition: str = "2007"
    name: str | None = None
    front: str | None = None  # "N", "E", "S" or "W" on boards with choose_front
    dice: tuple[int, ...] = ()
    aside: tuple[AsideTile, ...] = ()
    board_ref: str | None = None  # `class` name or `board` path as written in the file
    meta: tuple[tuple[str, Any], ...] = ()
    source: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if type(self.tiles) is _Placed:  # another ship's tiles (dataclasses.replace): in order already
            return
        tiles = sorted(self.tiles, key=_AT)
        squares = self.board.squares
        # tiles built in code carry plain grid indices; give them the board's labelled squares
        tiles = [t if type(t.at) is not int else replace(t, at=squares[t.at]) for t in tiles]
        object.__setattr__(self, "tiles", _Placed(tiles))

    def __getstate__(self) -> dict[str, Any]:
        # what is kept on a ship of work done on it (its layout: check.rules.Layout.of) is not pickled
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __repr__(self) -> str:
        # a summary line; `ship.to_toml()` is the text that loads back as this ship
        name = f" {self.name!r}" if self.name else ""
        where = f" from {self.source}" if self.source else ""
        return f"<Ship{name}: {self.tile_count_text()}, {self.board_text()}, edition {self.edition}{where}>"

    def board_text(self) -> str:
        """``class II`` for a built-in board, else ``board NAME``."""
        b = self.board
        if self.board_ref in BUILTIN_CLASSES or (self.board_ref is None and b.name in BUILTIN_CLASSES):
            return f"class {b.name}"
        return f"board {b.name}"

    @property
    def placed(self) -> int:
        """Tiles the ship file places (an implied pilot cabin is not one of them)."""
        return sum(1 for t in self.tiles if not t.implied)

    def tile_count_text(self) -> str:
        """The tile count every output uses: ``16 tiles + the pilot cabin on the start square``."""
        n = self.placed
        text = f"{n} tile{'' if n == 1 else 's'}"
        if any(t.implied for t in self.tiles):
            text += " + the pilot cabin on the start square"
        return text

    def _repr_html_(self) -> str:
        from shipcheck.render import render_ship

        return f"<p>{_html_escape(repr(self))}</p>" + render_ship(self).html()

    def __rich__(self) -> Any:
        from shipcheck.render import render_ship

        return render_ship(self).__rich__()

    def tile_at(self, index: int) -> Tile | None:
        return self.by_index.get(index)

    @property
    def by_index(self) -> dict[int, Tile]:
        # small ships: rebuilding the dict is cheaper than caching it on a frozen value
        return {t.at: t for t in self.tiles}

    @property
    def cyan_specialisation(self) -> str | None:
        """The specialisation ``[meta] cyan`` names, when a cyan alien is aboard (else None)."""
        spec = dict(self.meta).get("cyan")
        return spec if isinstance(spec, str) and any(t.crew == "cyan" for t in self.tiles) else None

    @property
    def pilot(self) -> Tile | None:
        return next((t for t in self.tiles if t.kind == "start_cabin"), None)

    @property
    def pilot_lost(self) -> bool:
        """The pilot cabin was never placed and counts as a lost component at the end of the flight:
        boards without a start square (Latest Models, "Se você não a adicionar à sua nave, ela
        permanece na sua pilha de descarte e conta como um componente perdido durante o voo"), except
        class IIA's pair of ships, which does not use it (:attr:`Board.pilot_unused
        <shipcheck.topology.Board.pilot_unused>`)."""
        b = self.board
        return b.start is None and not b.pilot_unused and self.pilot is None

    @property
    def front_side(self) -> Side:
        """Board side that is the ship's front (N unless the board lets the player choose)."""
        if self.front and self.board.choose_front:
            return Side[self.front]
        return Side.N

    def ship_side(self, ship_dir: str) -> Side:
        """Board side for a ship-relative direction: front, right, rear, left."""
        return Side((DIRECTION_SIDE[ship_dir] + self.front_side) % 4)

    def without(self, indices: set[int] | frozenset[int]) -> Ship:
        """The same ship with the tiles on the given squares taken away."""
        from dataclasses import replace

        return replace(self, tiles=tuple(t for t in self.tiles if t.at not in indices))

    def mirrored(self) -> Ship:
        """The ship reflected left-right on its board (the board must be symmetric)."""
        from dataclasses import replace

        b = self.board
        out = []
        for t in self.tiles:
            r, c = divmod(t.at, b.width)
            m = r * b.width + (b.width - 1 - c)
            out.append(mirror_tile(t, m))
        front = self.front
        if front in ("E", "W"):
            front = "W" if front == "E" else "E"
        return replace(self, tiles=tuple(out), front=front)

    def to_toml(self) -> str:
        from shipcheck.shipfile import dump_ship

        return dump_ship(self)


def mirror_tile(t: Tile, at: int) -> Tile:
    """A tile reflected left-right, as a new inline tile of an equivalent kind.

    Reflection swaps E and W. Kinds whose functional sides are symmetric under the reflection
    (barrels N, exhausts S) keep their kind with the mirrored side string; a shield (N+E) and a
    bi-directional cannon (N+E) become the rotation whose functional sides are the mirror image.
    """
    from dataclasses import replace

    eff = t.eff
    # mirrored effective sides: N stays, S stays, E<->W
    m_eff = (eff[0], eff[3], eff[2], eff[1])
    func = t.covers or t.barrels
    if t.kind in ("shield", "bidirectional_cannon"):
        mf = {({1: 3, 3: 1}.get(s, s)) for s in func}
        # find rotation whose printed N,E land on mf
        rot = next(r for r in range(4) if {r % 4, (r + 1) % 4} == mf)
    else:
        rot = t.rot
        if t.barrels or t.exhausts:
            b = (t.barrels or t.exhausts)[0]
            mb = {1: 3, 3: 1}.get(b, b)
            base = t.info.barrels[0] if t.barrels else t.info.exhausts[0]
            rot = (mb - base) % 4
    printed = "".join(str(m_eff[(i + rot) % 4]) for i in range(4))
    return replace(t, at=at, sides=printed, rot=rot, id=None)
