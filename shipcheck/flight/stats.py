"""Ship statistics: what a player wants to know about a ship before flying it.

:func:`stats` gathers, for the ship as written (legal or not), its crew, engine power and
firepower (the engine's, by the battery charges spent), batteries, cargo room, shield cover,
exposed connectors, and for every attack kind and direction the chance that a roll reaches the
ship, does damage and can be stopped (rules digest §2.2, §2.3, §4, §7, §8; docs/flight-model.md,
"`stats`"). :func:`render_stats` prints it as plain aligned text.

>>> from shipcheck.shipfile import parse_ship
>>> s = stats(parse_ship('format = 1\\nclass = "I"\\n'))   # a lone pilot cabin
>>> s.crew.humans, s.engine.max, s.cannon.max
(2, Fraction(0, 1), Fraction(0, 1))
>>> s.attack("small-meteor", "front").p_reach
Fraction(1, 6)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from shipcheck.check.rules import check
from shipcheck.engine.layout import alien_bonus, cannon_power, engine_power, hold_slots
from shipcheck.errors import check_type
from shipcheck.flight.chain import DIRS, KINDS, FlightModel, parse_attack
from shipcheck.flight.kernel import bits
from shipcheck.model import ALIENS, BATTERY_KINDS, CABIN_KINDS, ENGINE_KINDS, GOODS, Ship, Tile

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AttackOdds", "Battery", "Cargo", "Construction", "Crew", "Hold", "Power", "ShieldCover", "ShipStats",
    "Target", "render_stats", "stats",
]


# -- numbers -------------------------------------------------------------------------------------
@functools.cache
def goods_prices() -> dict[str, int]:
    """Credits a good of each colour sells for (the packaged rulebook, :mod:`shipcheck.round.rulebook`)."""
    from shipcheck.round.rulebook import round_rules

    return dict(round_rules().goods)


def number(x: Fraction | int) -> int | float:
    """A power as a JSON number: 3 or 3.5."""
    x = Fraction(x)
    return int(x) if x.denominator == 1 else float(x)


def prob(x: Fraction) -> float:
    """A probability as a JSON number, unrounded like those of `odds` (the text shows x/36)."""
    return float(x)


def in36(x: Fraction) -> str:
    """A probability as a count of the 36 dice pairs ("6/36"), or a percentage if it is not one."""
    n = x * 36
    if n.denominator == 1:
        return f"{n.numerator}/36"
    return f"{float(x) * 100:.1f}%"


def fmt_power(x: Fraction | int) -> str:
    n = number(x)
    return str(n)


# -- the parts -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Construction:
    """The construction report in short: figures of an illegal ship are for the ship as written."""

    legal: bool
    errors: tuple[str, ...]  # rule codes with at least one error, in code order
    warnings: tuple[str, ...]
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "errors": list(self.errors), "warnings": list(self.warnings),
                "notes": list(self.notes)}


@dataclass(frozen=True)
class Crew:
    """People aboard at launch (§4): awake humans, aliens, stasis sleepers, and cabin places."""

    humans: int  # awake humans in the pilot cabin, cabins and luxury cabins
    aliens: tuple[tuple[str, int], ...]  # (colour, square) of every alien aboard, in grid order
    sleepers: int  # stasis sleepers: not crew
    capacity: int  # places: 2 per cabin and pilot cabin, 1 per luxury cabin
    passengers: int  # humans in luxury cabins (end-of-flight credits, §13.2)
    stasis_places: int  # 4 per stasis chamber
    idle_aliens: tuple[int, ...] = ()  # squares of aliens that break A1/A2: no bonus from them

    @property
    def total(self) -> int:
        """Crew = humans + aliens (§4.3); sleepers are not crew."""
        return self.humans + len(self.aliens)

    @property
    def by_colour(self) -> dict[str, int]:
        return {c: sum(1 for a, _ in self.aliens if a == c) for c in ALIENS}

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        name = ship.board.cell_name
        return {
            "humans": self.humans,
            "aliens": self.by_colour,
            "alien_squares": [{"color": c, "at": name(i), "counts": i not in self.idle_aliens}
                              for c, i in self.aliens],
            "sleepers": self.sleepers,
            "total": self.total,
            "capacity": self.capacity,
            "passengers": self.passengers,
            "stasis_places": self.stasis_places,
        }


@dataclass(frozen=True)
class Power:
    """Engine power or firepower as a function of the battery charges spent (§7).

    ``free`` is what counts without a charge; ``charged`` lists each charged component's square
    and what one charge on it adds, the most first; ``charges`` is the charges aboard. ``ladder``
    is the engine's power (:mod:`shipcheck.engine.power`: ``engine``, ``firepower``) for 0, 1, ...
    charges spent: its order of spending, its hull split and its alien bonus (+2, +3 with the
    ``manager``, while the power without it is above 0).

    On a ship of several hulls (class IIA, rules §11.4) ``hulls`` holds each hull's own power (its
    charges power only its own doubles, its alien counts only for it) and ``combine`` says how they
    add up: ``"min"`` for engine power (the ship moves by the lower), ``"sum"`` for firepower.
    """

    free: Fraction
    charged: tuple[tuple[int, Fraction], ...]
    charges: int
    ladder: tuple[Fraction, ...] = (Fraction(0),)  # the engine's power for 0, 1, ... charges spent
    alien: int | None = None  # square of the alien giving the bonus
    manager: bool = False  # the cyan Manager raises that alien's bonus (the engine's manager_with)
    parts: tuple[tuple[int, str, Fraction, bool], ...] = ()  # (square, kind, value, needs a charge)
    problems: tuple[int, ...] = ()  # engines counted although they break E1
    hulls: tuple[Power, ...] = ()
    combine: str = "sum"
    name: str = ""  # a hull's board letter (or first square) when this is one hull's power

    @property
    def min(self) -> Fraction:
        return self.ladder[0]

    @property
    def max(self) -> Fraction:
        return self.ladder[-1]

    @property
    def best_possible(self) -> Fraction:
        """Power with a charge for every charged part, whatever the batteries hold."""
        if self.hulls:
            return _join([h.best_possible for h in self.hulls], self.combine)
        p = self.free + sum((v for _, v in self.charged), Fraction(0))
        return p + alien_bonus(p, self.manager) if self.alien is not None else p

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        name = ship.board.cell_name
        d = {
            "min": number(self.min),
            "max": number(self.max),
            "ladder": [number(p) for p in self.ladder],
            "free": number(self.free),
            "charged": [{"at": name(i), "per_charge": number(v)} for i, v in self.charged],
            "alien": name(self.alien) if self.alien is not None else None,
            "all_charged": number(self.best_possible),
            "parts": [{"at": name(i), "kind": k, "value": number(v), "charge": c} for i, k, v, c in self.parts],
            "problems": [name(i) for i in self.problems],
        }
        if self.hulls:
            d["combine"] = self.combine
            d["hulls"] = [{"hull": h.name, "charges": h.charges}
                          | {k: v for k, v in h.to_dict(ship).items() if k not in ("parts", "problems")}
                          for h in self.hulls]
        return d


def _join(values: list[Fraction], how: str) -> Fraction:
    return min(values) if how == "min" else sum(values, Fraction(0))


@dataclass(frozen=True)
class Battery:
    at: int
    kind: str
    charges: int
    capacity: int


@dataclass(frozen=True)
class Hold:
    """One hold: its ordinary and special (red-capable) slots and the goods in it."""

    at: int
    kind: str
    normal: int
    special: int
    goods: tuple[str, ...]
    shared: bool = False  # a battery hold: its slots hold charges or goods


@dataclass(frozen=True)
class Cargo:
    holds: tuple[Hold, ...]

    @property
    def normal(self) -> int:
        """Ordinary slots, battery-hold slots included (they share with charges)."""
        return sum(h.normal for h in self.holds)

    @property
    def special(self) -> int:
        return sum(h.special for h in self.holds)

    @property
    def shared(self) -> int:
        """Slots of battery holds (counted in :attr:`normal`; a charge takes a slot)."""
        return sum(h.normal + h.special for h in self.holds if h.shared)

    @property
    def goods(self) -> dict[str, int]:
        return {g: sum(h.goods.count(g) for h in self.holds) for g in GOODS}

    @property
    def value(self) -> int:
        """What the goods sell for at the end of a flight (the rulebook's prices, ``tiles/rounds.toml``)."""
        prices = goods_prices()
        return sum(prices[g] * n for g, n in self.goods.items())

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        name = ship.board.cell_name
        return {
            "normal": self.normal, "special": self.special, "shared_with_charges": self.shared,
            "goods": self.goods, "goods_value": self.value,
            "holds": [{"at": name(h.at), "kind": h.kind, "normal": h.normal, "special": h.special,
                       "goods": list(h.goods)} for h in self.holds],
        }


@dataclass(frozen=True)
class ShieldCover:
    """One side of the ship (relative to its front) and the shields covering it."""

    direction: str
    shields: tuple[int, ...]
    boosted: tuple[int, ...]  # those joined to a shield booster (§8.7(2))


@dataclass(frozen=True)
class Target:
    """A square an attack can hit first, with the chance of a hit and of a damaging hit."""

    at: int
    p_hit: Fraction
    p_damage: Fraction


@dataclass(frozen=True)
class AttackOdds:
    """One attack kind from one direction, against the ship as it is at launch.

    ``p_reach``: the roll names at least one line holding a tile. ``p_damage``: the roll would do
    damage if undefended (a small meteor only on a connector, plating's smooth sides shrug off every
    hit). ``p_stoppable``: the roll would do damage and the ship can stop all of it with its
    defences and the charges aboard at launch (shield; cannon bearing on a large meteor; boosted
    shield). ``p_damage - p_stoppable`` is the chance of damage against a careful player.
    """

    kind: str
    direction: str
    p_reach: Fraction
    p_damage: Fraction
    p_stoppable: Fraction
    targets: tuple[Target, ...]

    @property
    def p_unstoppable(self) -> Fraction:
        return self.p_damage - self.p_stoppable

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        name = ship.board.cell_name
        return {
            "kind": self.kind, "from": self.direction,
            "p_reach": prob(self.p_reach), "p_damage": prob(self.p_damage),
            "p_stoppable": prob(self.p_stoppable), "p_unstoppable": prob(self.p_unstoppable),
            "targets": [{"at": name(t.at), "p_hit": prob(t.p_hit), "p_damage": prob(t.p_damage)}
                        for t in self.targets],
        }


@dataclass(frozen=True, repr=False)
class ShipStats:
    """Everything :func:`stats` works out; :meth:`to_dict` is JSON-ready."""

    ship: Ship = field(compare=False, repr=False)
    construction: Construction
    crew: Crew
    engine: Power
    cannon: Power
    batteries: tuple[Battery, ...]
    cargo: Cargo
    shields: tuple[ShieldCover, ...]  # front, right, rear, left
    exposed: tuple[int, int, int, int]  # front, right, rear, left
    attacks: tuple[AttackOdds, ...]  # KINDS x DIRS, kind-major
    notes: tuple[str, ...] = ()

    @property
    def charges(self) -> int:
        return sum(b.charges for b in self.batteries)

    @property
    def battery_capacity(self) -> int:
        return sum(b.capacity for b in self.batteries)

    @property
    def exposed_total(self) -> int:
        return sum(self.exposed)

    def attack(self, kind: str, direction: str) -> AttackOdds:
        return next(a for a in self.attacks if a.kind == kind and a.direction == direction)

    def shield(self, direction: str) -> ShieldCover:
        return next(c for c in self.shields if c.direction == direction)

    def to_dict(self) -> dict[str, Any]:
        s = self.ship
        name = s.board.cell_name
        return {
            "ship": s.source,
            "name": s.name,
            "class": s.board.name,
            "front": "NESW"[s.front_side],
            "construction": self.construction.to_dict(),
            "crew": self.crew.to_dict(s),
            "engine_power": self.engine.to_dict(s),
            "firepower": self.cannon.to_dict(s),
            "batteries": {
                "charges": self.charges, "capacity": self.battery_capacity,
                "components": [{"at": name(b.at), "kind": b.kind, "charges": b.charges, "capacity": b.capacity}
                               for b in self.batteries],
            },
            "cargo": self.cargo.to_dict(s),
            "shields": {c.direction: {"shields": [name(i) for i in c.shields],
                                      "boosted": [name(i) for i in c.boosted]} for c in self.shields},
            "exposed_connectors": self.exposed_total,
            "exposed_by_side": dict(zip(DIRS, self.exposed, strict=True)),
            "attacks": [a.to_dict(s) for a in self.attacks],
            "notes": list(self.notes),
        }

    def __repr__(self) -> str:
        e, c = self.engine, self.cannon
        legal = "legal" if self.construction.legal else "ILLEGAL (" + ", ".join(self.construction.errors) + ")"
        return (f"<ShipStats {self.ship.board_text()}, {legal}: crew {self.crew.total}, "
                f"engine {fmt_power(e.min)}-{fmt_power(e.max)}, cannon {fmt_power(c.min)}-{fmt_power(c.max)}, "
                f"charges {self.charges}, exposed connectors {self.exposed_total}>")

    def to_frame(self, *, exact: bool = False) -> pd.DataFrame:
        """One row per attack kind, side and square the attack can hit first: ``kind``, ``from``,
        ``col``, ``row`` (numeric), ``square``, ``p_hit`` and ``p_damage``. Probabilities are floats, or
        :class:`~fractions.Fraction` values with ``exact=True``. A grid of one attack:
        ``df[(df.kind == "small-meteor") & (df["from"] == "front")].pivot(index="row", columns="col",
        values="p_hit")``. The per-attack summary is :meth:`attacks_frame`."""
        import pandas as pd

        from shipcheck.check.rules import _col_row

        b = self.ship.board
        rows = []
        for a in self.attacks:
            for t in a.targets:
                col, row = _col_row(b, t.at)
                rows.append({"kind": a.kind, "from": a.direction, "col": col, "row": row, "square": b.cell_text(t.at),
                             "p_hit": t.p_hit if exact else float(t.p_hit),
                             "p_damage": t.p_damage if exact else float(t.p_damage)})
        return pd.DataFrame(rows, columns=["kind", "from", "col", "row", "square", "p_hit", "p_damage"])

    def attacks_frame(self, *, exact: bool = False) -> pd.DataFrame:
        """The attack table, one row per kind and direction (``p_reach``, ``p_damage``,
        ``p_stoppable``, ``p_unstoppable``, ``targets``). Floats, or Fractions with ``exact=True``."""
        import pandas as pd

        def p(x: Fraction) -> Fraction | float:
            return x if exact else float(x)

        rows = [{"kind": a.kind, "from": a.direction, "p_reach": p(a.p_reach), "p_damage": p(a.p_damage),
                 "p_stoppable": p(a.p_stoppable), "p_unstoppable": p(a.p_unstoppable),
                 "targets": ", ".join(self.ship.board.cell_text(t.at) for t in a.targets)}
                for a in self.attacks]
        return pd.DataFrame(rows, columns=["kind", "from", "p_reach", "p_damage", "p_stoppable",
                                           "p_unstoppable", "targets"])


# -- the work ------------------------------------------------------------------------------------
def stats(ship: Ship) -> ShipStats:
    """The parameters and attack odds of ``ship`` at launch (full batteries unless the file says)."""
    check_type(ship, Ship, "ship", "a Ship (see load_ship)")
    report = check(ship)
    codes = report.codes()
    notes: list[str] = []

    construction = Construction(
        legal=report.legal,
        errors=tuple(dict.fromkeys(v.code for v in report.errors)),
        warnings=tuple(dict.fromkeys(v.code for v in report.warnings)),
        notes=report.notes,
    )
    if not report.legal:
        notes.append("the ship is illegal (" + ", ".join(construction.errors) + "): figures are for the ship as "
                     "written; the inspection would remove components first")

    crew = _crew(ship, codes)
    model = FlightModel(ship)
    launch = _Launch(model, crew)
    engine = _engine(ship, ship.tiles, codes, launch)
    cannon = _cannon(ship, ship.tiles, launch)
    hull_of = ship.board.hulls(ship.dice)
    groups = sorted({-1 if (g := hull_of[t.at]) is None else g for t in ship.tiles})
    if len(groups) > 1:
        # rules §11.4: each half on its own charges and alien; the ship moves by the lower engine power
        halves = [tuple(t for t in ship.tiles if (-1 if hull_of[t.at] is None else hull_of[t.at]) == g)
                  for g in groups]
        names = [_hull_name(ship, h[0].at) for h in halves]
        e_h = tuple(replace(_engine(ship, h, codes, launch), name=nm) for h, nm in zip(halves, names, strict=True))
        c_h = tuple(replace(_cannon(ship, h, launch), name=nm) for h, nm in zip(halves, names, strict=True))
        engine = replace(engine, combine="min", hulls=e_h, free=_join([h.free for h in e_h], "min"))
        cannon = replace(cannon, hulls=c_h)
    if engine.problems:
        notes.append(f"{len(engine.problems)} engine(s) do not point to the rear (E1): counted in the engine "
                     "power all the same")
    if crew.idle_aliens:
        notes.append("alien(s) breaking A1/A2 (" + ", ".join(ship.board.cell_text(i) for i in crew.idle_aliens)
                     + ") are counted as crew but give no bonus")
    if "A3" in codes:
        notes.append("two aliens of one colour (A3): the colour's bonus counts once")
    if crew.by_colour["cyan"] and launch.specialisation == "manager":
        notes.append("the cyan Manager raises the purple and orange aliens' bonuses to +3 (counted)")
    if crew.by_colour["cyan"] and launch.specialisation == "techie":
        notes.append("the cyan Techie's free charge on each card is not counted in the ladders")
    if any(t.kind in ("cannon_booster", "engine_booster") for t in ship.tiles):
        notes.append("cannon and engine boosters are single-use (the boosted component is destroyed): not counted")
    if engine.hulls:
        notes.append("several hulls (rules §11.4): engine power is the lower of the hulls', firepower their sum; "
                     "a hull's charges power only its own doubles and shields, its alien counts only for it")

    batteries = tuple(Battery(t.at, t.kind, t.charges, t.capacity) for t in ship.tiles if t.kind in BATTERY_KINDS)
    cargo = _cargo(ship)
    shields = _shields(ship, model)
    e, f = report.exposed_by_side, ship.front_side
    exposed = (e[f % 4], e[(f + 1) % 4], e[(f + 2) % 4], e[(f + 3) % 4])
    attacks = _attacks(ship, model)
    return ShipStats(ship, construction, crew, engine, cannon, batteries, cargo, shields,
                     exposed, attacks, tuple(notes))


def _crew(ship: Ship, codes: dict[str, set[int]]) -> Crew:
    bad = codes.get("A1", set()) | codes.get("A2", set())
    aliens = tuple((a, t.at) for t in ship.tiles if (a := t.alien) is not None)
    return Crew(
        humans=sum(t.humans for t in ship.tiles),
        aliens=aliens,
        sleepers=sum(t.sleepers for t in ship.tiles),
        capacity=sum(t.info.crew_places for t in ship.tiles if t.kind in CABIN_KINDS),
        passengers=sum(t.humans for t in ship.tiles if t.kind == "luxury_cabin"),
        stasis_places=sum(t.info.crew_places for t in ship.tiles if t.kind == "stasis_chamber"),
        idle_aliens=tuple(i for _, i in aliens if i in bad),
    )


class _Launch:
    """The ship at launch as the engine's state row, and the engine's answers on it (its plain
    copy, :func:`shipcheck.engine.function`: a few questions start no numba): the power and the
    firepower of some of its tiles for each number of charges spent, the alien giving the bonus.
    The Techie's free charge is left out (used: a ship's parameters, not a card's), and so are the
    aliens that break A1/A2 (not in the row: no bonus from them)."""

    def __init__(self, model: FlightModel, crew: Crew) -> None:
        import numpy as np

        from shipcheck.engine.layout import ALIEN, OFFS, SPEC, SPECIALISATIONS, SPENT, V

        k = model.kernel
        self.model = model
        self.S = S = k.S.copy()
        self.specialisation = spec = k.desc.specialisation
        S[0, V, SPEC] = -1 if spec is None else SPECIALISATIONS.index(spec)  # (the Kernel's has no cards)
        self.och, ocr = int(S[0, OFFS, 0]), int(S[0, OFFS, 1])
        self.x = x = np.zeros(int(S[0, OFFS, 3]), dtype=np.int64)
        x[SPENT] = 1
        for i, b in enumerate(model.batteries):
            x[self.och + i] = model.tiles[b].charges
        for i, t in enumerate(model.tiles):
            alien = t.alien is not None and t.at not in crew.idle_aliens
            x[ocr + i] = ALIEN if alien else t.humans + t.sleepers
        self.pos = {at: i for i, at in enumerate(model.squares)}

    def _row(self, tiles: tuple[Tile, ...]) -> Any:
        x = self.x.copy()
        x[0] = sum(1 << self.pos[t.at] for t in tiles)
        return x

    def _charges(self, x: Any) -> int:
        return sum(int(x[self.och + i]) for i, b in enumerate(self.model.batteries) if x[0] >> b & 1)

    def ladder(self, what: str, tiles: tuple[Tile, ...], most: int) -> tuple[Fraction, ...]:
        """The engine's ``what`` (``"engine"``: :func:`shipcheck.engine.power.engine`, or
        ``"firepower"``, in half units) of ``tiles`` for 0, 1, ... charges, as long as each charge
        is spent (at most ``most``)."""
        import numpy as np

        from shipcheck import engine
        from shipcheck.engine.layout import TMP

        fn = engine.function("power", what, plain=True)
        out: list[Fraction] = []
        for k in range(most + 1):
            x, tmp = self._row(tiles), np.zeros(TMP, dtype=np.int64)
            before = self._charges(x)
            v = fn(self.S, 0, x, k, tmp) if what == "engine" else Fraction(int(fn(self.S, 0, x, k, -1, tmp)), 2)
            if before - self._charges(x) < k:
                break
            out.append(Fraction(int(v)) if what == "engine" else v)
        return tuple(out)

    def alien(self, colour: str, tiles: tuple[Tile, ...]) -> tuple[int | None, bool]:
        """The square of the alien of ``colour`` that gives its bonus to ``tiles`` (None: none), and
        whether the Manager raises it (:func:`shipcheck.engine.crew.bonus_alien`, ``manager_with``)."""
        from shipcheck import engine
        from shipcheck.engine import layout

        x = self._row(tiles)
        k = int(engine.function("crew", "bonus_alien", plain=True)(self.S, 0, x, getattr(layout, colour.upper())))
        if k < 0:
            return None, False
        return self.model.squares[k], bool(engine.function("crew", "manager_with", plain=True)(self.S, 0, x, k))


def _engine(ship: Ship, tiles: tuple[Tile, ...], codes: dict[str, set[int]], launch: _Launch) -> Power:
    parts = [(t.at, t.kind, Fraction(e[0]), e[1]) for t in tiles if (e := engine_power(t)) is not None]
    free = sum((v for _, _, v, c in parts if not c), Fraction(0))
    charged = tuple((i, v) for i, _, v, c in parts if c)
    e1 = codes.get("E1", set())
    problems = tuple(t.at for t in tiles if t.kind in ENGINE_KINDS and t.at in e1)
    alien, manager = launch.alien("orange", tiles)
    return Power(free, charged, _charges(tiles), launch.ladder("engine", tiles, len(charged)), alien, manager,
                 tuple(parts), problems)


def _hull_name(ship: Ship, at: int) -> str:
    ch = ship.board.char(at)
    return ch if ch.isalpha() else ship.board.cell_text(at)


def _charges(tiles: tuple[Tile, ...]) -> int:
    return sum(t.charges for t in tiles if t.kind in BATTERY_KINDS)


def _cannon(ship: Ship, tiles: tuple[Tile, ...], launch: _Launch) -> Power:
    fwd = ship.ship_side("front")
    parts = [(t.at, t.kind, Fraction(c[0], 2), c[1]) for t in tiles if (c := cannon_power(t, fwd)) is not None]
    free = sum((v for _, _, v, c in parts if not c), Fraction(0))
    # the most power per charge first (ties in grid order), as the engine spends them
    charged = tuple(sorted(((i, v) for i, _, v, c in parts if c), key=lambda p: (-p[1], p[0])))
    alien, manager = launch.alien("purple", tiles)
    return Power(free, charged, _charges(tiles), launch.ladder("firepower", tiles, len(charged)), alien, manager,
                 tuple(parts))


def _cargo(ship: Ship) -> Cargo:
    return Cargo(tuple(Hold(t.at, t.kind, *h, t.goods, shared=t.kind == "battery_hold")
                       for t in ship.tiles if (h := hold_slots(t)) is not None))


def _shields(ship: Ship, model: FlightModel) -> tuple[ShieldCover, ...]:
    """Per side, the shields covering it and those of them joined to a shield booster: what the
    engine's defence reads (:class:`shipcheck.engine.layout.Geometry`: ``cover``, ``boostable``)."""
    g = model.kernel.geometry
    squares = model.squares
    out = []
    for d in DIRS:
        s = ship.ship_side(d)
        cover = tuple(squares[k] for k in bits(g.cover[s]))
        boosted = tuple(squares[k] for k in bits(g.cover[s] & g.boostable))
        out.append(ShieldCover(d, cover, boosted))
    return tuple(out)


def _attacks(ship: Ship, model: FlightModel) -> tuple[AttackOdds, ...]:
    st = model.initial()
    out = []
    for kind in KINDS:
        for d in DIRS:
            attack = parse_attack(f"{kind}:{d}")
            outcomes, _ = model.outcomes(attack)
            reach = damage = stop = Fraction(0)
            hit: dict[int, Fraction] = {}
            harm: dict[int, Fraction] = {}
            for o in outcomes:
                if not o.lines:
                    continue
                sit = model.situation(st, attack, 0, o)
                ks = [k for k in sit.hits if k >= 0]
                if not ks:
                    continue
                reach += o.prob
                for k in dict.fromkeys(ks):  # a tile first in two lines is hit once per roll
                    at = model.squares[k]
                    hit[at] = hit.get(at, Fraction(0)) + o.prob
                for k in dict.fromkeys(k for k, n in zip(sit.hits, sit.needs, strict=True) if n and k >= 0):
                    at = model.squares[k]
                    harm[at] = harm.get(at, Fraction(0)) + o.prob
                if any(sit.needs):
                    damage += o.prob
                    # stoppable: some legal decision (with the charges aboard) leaves the ship whole
                    if any(model.apply(sit, dec)[0] == st[0] for dec in model.decisions(sit)):
                        stop += o.prob
            targets = tuple(Target(at, p, harm.get(at, Fraction(0))) for at, p in sorted(hit.items()))
            out.append(AttackOdds(kind, d, reach, damage, stop, targets))
    return tuple(out)


# -- text ----------------------------------------------------------------------------------------
def _table(rows: list[list[str]], right: set[int] | None = None) -> list[str]:
    right = right or set()
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [r[c].rjust(widths[c]) if c in right else r[c].ljust(widths[c]) for c in range(len(r))]
        out.append("  ".join(cells).rstrip())
    return out


def _fold(items: list[str], width: int) -> list[str]:
    """Comma-separated items in lines of at most ``width`` characters (an item is never cut)."""
    out: list[str] = []
    line = ""
    for k, item in enumerate(items):
        piece = item + ("," if k < len(items) - 1 else "")
        if line and len(line) + 1 + len(piece) > width:
            out.append(line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    out.append(line)
    return out


def render_stats(s: ShipStats, *, width: int | None = None, quiet: bool = False) -> str:
    """A plain-text report (no colour, tables as aligned text) for the terminal; with ``width``,
    long lines and the attack table's last column fold to that many characters; ``quiet`` leaves
    the notes out."""
    ship = s.ship
    cell = ship.board.cell_text
    lines: list[str] = []
    title = ship.name or ship.source or "ship"
    lines.append(f"{title} — class {ship.board.name}")
    c = s.construction
    if c.legal:
        lines.append("Construction: legal" + (f" (warnings: {', '.join(c.warnings)})" if c.warnings else ""))
    else:
        lines.append(f"Construction: ILLEGAL ({', '.join(c.errors)}) — figures are for the ship as written")
    for n in () if quiet else c.notes:
        lines.append(f"  note: {n}")
    lines.append("")

    cr = s.crew
    aliens = ", ".join(f"{col} at {cell(i)}" + (" (no bonus)" if i in cr.idle_aliens else "")
                       for col, i in cr.aliens) or "none"
    lines.append(f"Crew: {cr.total} (humans {cr.humans}, aliens {len(cr.aliens)}); cabin places {cr.capacity}")
    lines.append(f"  aliens: {aliens}")
    if cr.stasis_places:
        lines.append(f"  stasis sleepers: {cr.sleepers} (not crew) in {cr.stasis_places} places")
    if cr.passengers:
        lines.append(f"  luxury passengers: {cr.passengers}")
    lines.append("")

    def power_block(label: str, p: Power, colour: str) -> None:
        ladder = "  ".join(f"{k}:{fmt_power(v)}" for k, v in enumerate(p.ladder))
        lines.append(f"{label}: min {fmt_power(p.min)}, max {fmt_power(p.max)}")
        lines.append(f"  by charges spent  {ladder}")
        if p.alien is not None:
            lines.append(f"  {colour} alien at {cell(p.alien)}: +{alien_bonus(1, p.manager)} when the power without "
                         "it is above 0")
        if p.best_possible != p.max:
            lines.append(f"  with a charge for every double: {fmt_power(p.best_possible)}")
        for h in p.hulls:
            hl = "  ".join(f"{k}:{fmt_power(v)}" for k, v in enumerate(h.ladder))
            lines.append(f"  hull {h.name} ({h.charges} charges): {hl}"
                         + (f", {colour} alien at {cell(h.alien)}" if h.alien is not None else ""))
        if p.hulls:
            lines.append("  the ship moves by the lower hull" if p.combine == "min" else "  the hulls add up")

    power_block("Engine power", s.engine, "orange")
    power_block("Firepower", s.cannon, "purple")
    lines.append("")

    lines.append(f"Batteries: {s.charges}/{s.battery_capacity} charges"
                 + ("" if not s.batteries else
                    "  (" + ", ".join(f"{cell(b.at)} {b.charges}/{b.capacity}" for b in s.batteries) + ")"))
    cg = s.cargo
    goods = ", ".join(f"{g} {n}" for g, n in cg.goods.items() if n) or "none"
    shared = f" ({cg.shared} in battery holds, shared with charges)" if cg.shared else ""
    lines.append(f"Cargo: {cg.normal} ordinary slots{shared}, {cg.special} special; goods: {goods}"
                 + (f" (worth {cg.value})" if cg.value else ""))
    cover = []
    for sc in s.shields:
        if sc.shields:
            sq = ", ".join(cell(i) + (" boosted" if i in sc.boosted else "") for i in sc.shields)
            cover.append(f"{sc.direction} {sq}")
        else:
            cover.append(f"{sc.direction} -")
    lines.append("Shields: " + "; ".join(cover))
    lines.append(f"Exposed connectors: {s.exposed_total} ("
                 + ", ".join(f"{d} {n}" for d, n in zip(DIRS, s.exposed, strict=True)) + ")")
    lines.append("")

    lines.append("Attacks (chances out of 36 rolls; stoppable = damage the ship can stop with its charges):")
    rows = [["attack", "from", "reach", "damage", "stoppable"]]
    targets: list[list[str]] = [["first squares hit"]]
    for a in s.attacks:
        targets.append([f"{cell(t.at)} {in36(t.p_hit)}" for t in a.targets] or ["-"])
        rows.append([a.kind, a.direction, in36(a.p_reach), in36(a.p_damage), in36(a.p_stoppable)])
    left = ["  " + r for r in _table([[*r, ""] for r in rows], right={2, 3, 4})]
    indent = max(len(x) for x in left) + 2
    if not width or width - indent >= 24:
        room = width - indent if width else 10**6
        for head, items in zip(left, targets, strict=True):
            folded = _fold(items, room)
            lines.append(head.ljust(indent) + folded[0])
            lines.extend(" " * indent + more for more in folded[1:])
    else:
        # a narrow terminal: the squares go under their row, folded to the width, not in a column
        # squeezed against the right edge
        under = 6
        for head, items in zip(left, targets, strict=True):
            lines.append(head.rstrip())
            lines.extend(" " * under + more for more in _fold(items, max(12, width - under)))
    if s.notes and not quiet:
        lines.append("")
        lines.extend(f"note: {n}" for n in s.notes)
    if width:
        import textwrap

        wrapped: list[str] = []
        for ln in lines:
            if len(ln) <= width:
                wrapped.append(ln)
            else:
                lead = len(ln) - len(ln.lstrip())
                wrapped.extend(textwrap.wrap(ln, width, subsequent_indent=" " * (lead + 4), break_long_words=False,
                                             break_on_hyphens=False))
        lines = wrapped
    return "\n".join(lines) + "\n"
