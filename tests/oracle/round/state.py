"""A player's ship in a round: its state, its parameters, and what cards do to it.

A round state is the tuple ``(mask, charges, crew, goods, gone, away, spent)``: the first three are
the flight model's :data:`~shipcheck.flight.chain.State` (tiles aboard, charges per battery, occupants per
tile); ``goods`` holds, per cargo hold in grid order, the colour codes of its goods (0 red ... 3 blue,
most valuable first); ``gone`` is the tiles of halves that left the flight (class IIA), which go back
to the table and are not lost components; ``away`` is ``()``, or a half in hyperspace while the other
half flies (class IIA): ``(tiles, charges, crew, goods)`` as they were when it jumped (its tiles are
not in ``mask``, so nothing touches them until it returns); ``spent`` is 1 once the cyan Techie's
free charge has been used on the current card (the round engine clears it at every card).

Crew per tile is the flight model's (``FlightModel(track_crew=True)``): humans in the pilot cabin,
cabins and luxury cabins; :data:`~shipcheck.flight.chain.ALIEN` where an alien sits; sleepers in stasis
chambers. The flight model sends aliens home with their last life support and wakes sleepers after
a crew loss; crew lost to a card wakes them the same way. Every method here is a pure function of the state
(and the policy's pure decisions), so the engine computes it once per distinct state and card.

Rules used (rules digest): parameters §7 and §11.4, goods §9.3-§9.4, crew §4.4 and §9.5, epidemic
§9.2(9), aliens leaving §4.2(5), IIA halves §10.2, reactor furnace §11.3, cannon booster §11.1,
engine booster §11.2, cyan specialisations §11.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shipcheck.cards import Attack
from shipcheck.model import ALIENS, Ship

from ..flight import ALIEN, FlightModel, Policy
from ..kernel import bits

__all__ = ["COLOURS", "Away", "Firepower", "RState", "ShipModel"]

COLOURS = ("red", "yellow", "green", "blue")
CODE = {c: i for i, c in enumerate(COLOURS)}
CABINS = ("start_cabin", "cabin", "luxury_cabin")
SPECIALISATIONS = ("lawyer", "manager", "merchant", "techie", "diplomat")

Goods = tuple[tuple[int, ...], ...]
#: a half in hyperspace: its tiles, and the charges, crew and goods of those tiles (else ``()``)
Away = tuple[int, tuple[int, ...], tuple[int, ...], Goods] | tuple[()]
RState = tuple[int, tuple[int, ...], tuple[int, ...], Goods, int, Away, int]


@dataclass(frozen=True)
class Firepower:
    """A firepower declaration: ``charges`` on charged cannons, and optionally a cannon booster used
    on cannon tile ``boost`` (1 more charge; the cannon is destroyed after the check)."""

    charges: int = 0
    boost: int = -1


class ShipModel:
    """One player's ship compiled for a round (tables over its tiles) on top of a FlightModel."""

    def __init__(self, ship: Ship, *, flight: FlightModel | None = None) -> None:
        fm = flight or FlightModel(ship, track_crew=True)
        if not fm.track_crew and not fm.dynamic_crew:
            raise ValueError("a round needs a FlightModel built with track_crew=True")
        self.ship = ship
        self.fm = fm
        tiles = fm.tiles
        self.tiles = tiles
        self.n = len(tiles)
        self.group = fm.group
        self.hulls = tuple(sorted({g for g in fm.group}))
        #: per hull, its tiles as a mask
        self.hull_mask = {h: sum(1 << k for k, g in enumerate(fm.group) if g == h) for h in self.hulls}
        self.multi = fm.multi_hull
        self.adj = fm.adj
        front = int(ship.ship_side("front"))
        self.cabins = tuple(k for k, t in enumerate(tiles) if t.kind in CABINS)
        self.alien_colour = {k: t.crew for k, t in enumerate(tiles) if t.kind in CABINS and t.crew in ALIENS}
        self.luxury = tuple(k for k, t in enumerate(tiles) if t.kind == "luxury_cabin")
        self.life = {c: sum(1 << k for k, t in enumerate(tiles) if t.kind == "life_support" and t.attr("color") == c)
                     for c in ALIENS}
        self.batteries = fm.batteries
        self.battery_index = {k: i for i, k in enumerate(self.batteries)}
        # holds: (tile, ordinary slots, special slots, battery index or -1)
        holds = []
        for k, t in enumerate(tiles):
            slots = int(t.attr("slots", 0) or 0)
            if t.kind == "cargo":
                holds.append((k, slots, 0, -1))
            elif t.kind == "special_cargo":
                holds.append((k, 0, slots, -1))
            elif t.kind == "mixed_cargo":
                sp = min(slots, int(t.attr("special_slots", 0) or 0))
                holds.append((k, slots - sp, sp, -1))
            elif t.kind == "battery_hold":
                holds.append((k, slots, 0, self.battery_index[k]))
        self.holds = tuple(holds)
        # engines: (tile, power, needs a charge)
        self.engines = tuple((k, 1 if t.kind != "double_engine" else 2, t.kind == "double_engine")
                             for k, t in enumerate(tiles) if t.kind in ("engine", "double_engine", "cannon_engine"))
        # cannons in half units: forward single 2, other single 1; a double twice that (rules §7.2)
        cannons = []
        for k, t in enumerate(tiles):
            if t.kind in ("cannon", "cannon_engine"):
                cannons.append((k, sum(2 if s == front else 1 for s in t.barrels), False))
            elif t.kind == "double_cannon":
                cannons.append((k, sum(4 if s == front else 2 for s in t.barrels), True))
            elif t.kind == "bidirectional_cannon":
                cannons.append((k, sum(2 if s == front else 1 for s in t.barrels), True))
        self.cannons = tuple(cannons)
        self.forward = {k: front in tiles[k].barrels for k, _, _ in cannons}
        self.cannon_boosters = tuple(k for k, t in enumerate(tiles) if t.kind == "cannon_booster")
        self.engine_boosters = tuple(k for k, t in enumerate(tiles) if t.kind == "engine_booster")
        self.furnaces = tuple(k for k, t in enumerate(tiles) if t.kind == "reactor_furnace")
        meta = dict(ship.meta)
        spec = meta.get("cyan")
        self.specialisation = spec if isinstance(spec, str) and spec in SPECIALISATIONS else None
        self.notes: list[str] = []
        if any(c == "cyan" for c in self.alien_colour.values()):
            if self.specialisation is None:
                self.notes.append("cyan alien without a specialisation ([meta] cyan = \"manager\", \"merchant\", "
                                  "\"lawyer\", \"techie\", \"diplomat\"): no effect")
            elif self.specialisation == "diplomat":
                self.notes.append("cyan diplomat: the policy decides when to use him (once; the default and racing "
                                  "policies: the first lost fight against slavers or pirates, or the first "
                                  "combat-zone line of crew or shots to hit the ship; provisional)")
        # neighbour tile per side, for exposed connectors
        pos = {t.at: k for k, t in enumerate(tiles)}
        nb = ship.board.nb
        self.side_nb = tuple(tuple(pos.get(nb[t.at][s], -1) if nb[t.at][s] >= 0 else -1 for s in range(4))
                             for t in tiles)
        # tiles on the next square, joined or not (an epidemic "adjacent" reading, OQ14)
        self.near = tuple(sum(1 << j for j in set(row) if j >= 0) for row in self.side_nb)
        # per tile, the neighbour (-1: none) on each side with a connector
        self.connector_nb = tuple(tuple(row[s] for s in range(4) if t.eff[s]) for t, row in zip(tiles, self.side_nb))
        self.full = fm.full
        # components paid for at the end besides those lost in flight: set aside, and a pilot cabin
        # never placed on a board that counts it as lost (Ship.pilot_lost)
        self.aside = len(ship.aside) + int(ship.pilot_lost)

    # -- the launch state ------------------------------------------------------------------------
    def initial(self) -> RState:
        mask, charges, crew = self.fm.initial()
        assert crew is not None
        goods = tuple(tuple(sorted(CODE[g] for g in self.tiles[k].goods)) for k, _, _, _ in self.holds)
        return (mask, charges, crew, goods, 0, (), 0)

    # -- crew ------------------------------------------------------------------------------------
    def humans(self, st: RState, hull: int | None = None) -> int:
        """Awake humans aboard (of one hull when ``hull`` is given)."""
        mask, crew = st[0], st[2]
        return sum(c for k in self.cabins
                   if mask >> k & 1 and (c := crew[k]) > 0 and (hull is None or self.group[k] == hull))

    def aliens(self, st: RState) -> dict[str, int]:
        """Colour -> cabin tile of each alien aboard."""
        mask, crew = st[0], st[2]
        return {c: k for k, c in self.alien_colour.items() if mask >> k & 1 and crew[k] == ALIEN}

    def crew_count(self, st: RState) -> int:
        """Humans and aliens (rules §4.3); sleepers are not crew."""
        return self.humans(st) + len(self.aliens(st))

    def supported(self, st: RState, k: int) -> bool:
        """Whether the alien cabin ``k`` is joined to a life support of its colour."""
        return bool(self.adj[k] & self.life[self.alien_colour[k]] & st[0])

    def bonus_alien(self, st: RState, colour: str) -> int | None:
        """The cabin of an alien of ``colour`` that gives its bonus (aboard and supported)."""
        k = self.aliens(st).get(colour)
        return k if k is not None and self.supported(st, k) else None

    def has(self, st: RState, spec: str) -> bool:
        """A cyan alien with specialisation ``spec`` is aboard."""
        return self.specialisation == spec and "cyan" in self.aliens(st)

    def manager_with(self, st: RState, alien: int) -> bool:
        """The Manager raises the purple or orange bonus of the alien in cabin ``alien``: on IIA only
        in his own half (rules §11.5)."""
        if self.specialisation != "manager":
            return False
        k = self.aliens(st).get("cyan")
        return k is not None and (not self.multi or self.group[k] == self.group[alien])

    def live_hulls(self, st: RState) -> tuple[int, ...]:
        mask = st[0]
        return tuple(h for h in self.hulls if mask & self.hull_mask[h])

    # -- tiles and losses ------------------------------------------------------------------------
    def lost(self, st: RState) -> int:
        """Components that left the ship in flight (halves that left or are away are not lost)."""
        away = st[5][0] if st[5] else 0
        return self.n - bin(st[0]).count("1") - bin(st[4]).count("1") - bin(away).count("1")

    def exposed(self, st: RState) -> int:
        mask = st[0]
        return sum(1 for k in bits(mask) for j in self.connector_nb[k] if j < 0 or not mask >> j & 1)

    def canon(self, mask: int, charges: Sequence[int], crew: Sequence[int], goods: Sequence[Sequence[int]],
              gone: int, rest: tuple[Away, int] = ((), 0)) -> RState:
        """A state with the charges, crew and goods of tiles no longer aboard dropped (``rest``: the
        state's ``away`` and ``spent``)."""
        ch = [c if mask >> k & 1 else 0 for c, k in zip(charges, self.batteries)]
        cr = [c if mask >> k & 1 else 0 for k, c in enumerate(crew)]
        gd = tuple(tuple(g) if mask >> self.holds[h][0] & 1 else () for h, g in enumerate(goods))
        return (mask, tuple(ch), tuple(cr), gd, gone, rest[0], rest[1])

    def destroy(self, st: RState, bits: int) -> RState:
        """Tiles ``bits`` destroyed; pieces that fall off are lost (the kept piece as in flight),
        aliens leave with their last life support, sleepers wake after a crew loss."""
        mask, charges, crew, goods, gone, away, spent = st
        if not bits & mask:
            return st
        new = self.fm.split(mask & ~bits, crew)
        return self.canon(new, charges, self.fm.after_loss(mask, new, crew), goods, gone, (away, spent))

    def flight_step(self, st: RState, attack: Attack, ai: int, oi: int, policy: Policy) -> RState:
        """A meteor or shot through the flight model, then the goods of lost holds dropped. The
        Techie's free charge is lent to the flight model's decision (:meth:`lend`)."""
        o = self.fm.outcomes(attack)[0][oi]
        if not o.lines:
            return st
        lent, i = self.lend(st)
        mask, charges, crew, goods, gone, away, spent = lent
        # one outcome played (the round memoises per state and outcome): the flight model's step
        # works out every outcome of a state at once, which most states of a round never need
        sit = self.fm.situation((mask, charges, crew), attack, ai, o)
        d = policy.decide(sit)
        nm, nc, ncrew = self.fm.apply(sit, d)
        if i >= 0:
            h = self.group[self.batteries[i]]
            if any(not self.multi or self.group[self.batteries[b]] == h for b in d.draws):
                spent = 1
            elif nm >> self.batteries[i] & 1:
                nc = nc[:i] + (nc[i] - 1,) + nc[i + 1:]
            else:
                nc = nc[:i] + (0,) + nc[i + 1:]
            charges = st[1]
        if nm == mask and nc == charges and ncrew == crew and spent == st[6]:
            return st
        assert ncrew is not None
        return self.canon(nm, nc, ncrew, goods, gone, (away, spent))

    # -- crew losses -----------------------------------------------------------------------------
    def lose_crew(self, st: RState, n: int, order: Sequence[int]) -> RState:
        """Lose ``n`` crew from the tiles in ``order`` (each tile emptied before the next: humans one
        by one, an alien at once); if short, all there is. Sleepers then wake (contract §4)."""
        mask, charges, crew = st[:3]
        c = list(crew)
        left = n
        for k in order:
            while left and mask >> k & 1 and c[k] != 0:
                c[k] = 0 if c[k] == ALIEN else c[k] - 1
                left -= 1
        if left == n:
            return st
        return (mask, charges, self.fm.wake(mask, tuple(c))) + st[3:]

    def crew_order(self, st: RState) -> tuple[int, ...]:
        """Humans first, cabin by cabin in row-major order, aliens last (contract §5)."""
        crew = st[2]
        return (tuple(k for k in self.cabins if crew[k] > 0)
                + tuple(k for k in self.cabins if crew[k] == ALIEN))

    def epidemic(self, st: RState, rule: str = "adjacent") -> RState:
        """Each occupied cabin next to another occupied cabin (``rule`` ``"adjacent"``; ``"joined"``:
        joined to it by connectors) loses one crew member, all at once on the state before the card
        (rules §9.2(9), OQ14; start and luxury cabins count, stasis chambers do not)."""
        mask, charges, crew = st[:3]
        occupied = sum(1 << k for k in self.cabins if mask >> k & 1 and crew[k] != 0)
        near = self.adj if rule == "joined" else self.near
        hit = [k for k in bits(occupied) if near[k] & occupied]
        if not hit:
            return st
        c = list(crew)
        for k in hit:
            c[k] = 0 if c[k] == ALIEN else c[k] - 1
        return (mask, charges, self.fm.wake(mask, tuple(c))) + st[3:]

    def dismiss_diplomat(self, st: RState) -> RState:
        """The cyan Diplomat used: he leaves the ship, which then has one crew member fewer; sleepers
        wake as after any crew loss (rules §11.5)."""
        k = self.aliens(st).get("cyan")
        if k is None:
            return st
        mask, charges, crew = st[:3]
        c = list(crew)
        c[k] = 0
        return (mask, charges, self.fm.wake(mask, tuple(c))) + st[3:]

    # -- charges ---------------------------------------------------------------------------------
    def charges_in(self, st: RState, hull: int | None = None) -> int:
        return sum(c for c, k in zip(st[1], self.batteries)
                   if st[0] >> k & 1 and (hull is None or self.group[k] == hull))

    def _left(self, charges: list[int], hull: int | None, mask: int) -> bool:
        return any(charges[i] > 0 and mask >> k & 1 and (hull is None or not self.multi or self.group[k] == hull)
                   for i, k in enumerate(self.batteries))

    def _draw(self, charges: list[int], hull: int | None, mask: int) -> bool:
        """Take one charge from the first charged battery (of ``hull`` on a ship of several hulls)."""
        for i, k in enumerate(self.batteries):
            if charges[i] > 0 and mask >> k & 1 and (hull is None or not self.multi or self.group[k] == hull):
                charges[i] -= 1
                return True
        return False

    def lose_charges(self, st: RState, n: int) -> RState:
        """Forced losses of charges (no Techie help)."""
        mask, charges = st[:2]
        ch = list(charges)
        for _ in range(n):
            if not self._draw(ch, None, mask):
                break
        return (mask, tuple(ch)) + st[2:]

    # -- the cyan Techie (rules §11.5) -------------------------------------------------------------
    def techie_hull(self, st: RState) -> int | None:
        """The hull whose spending the Techie's free charge serves on this card (his half on a ship
        of several hulls), or None: no Techie aboard, his charge already used on this card, or no
        charge in his half (he needs one to make one free)."""
        if self.specialisation != "techie" or st[6]:
            return None
        k = self.aliens(st).get("cyan")
        if k is None:
            return None
        h = self.group[k]
        return h if self._left(list(st[1]), h, st[0]) else None

    def free_charge(self, st: RState) -> int:
        """1 when the Techie's free charge is available on this card (see :meth:`techie_hull`)."""
        return 0 if self.techie_hull(st) is None else 1

    def lend(self, st: RState) -> tuple[RState, int]:
        """The state with the Techie's free charge lent to the first charged battery of his half, and
        that battery's index (-1: nothing lent). Draws take the first charged battery of a hull, so
        the first charge his half spends is the lent one; :meth:`settle` keeps it spent (and marks
        the card's free charge used) or takes it back."""
        h = self.techie_hull(st)
        if h is None:
            return st, -1
        ch = list(st[1])
        for i, k in enumerate(self.batteries):
            if ch[i] > 0 and st[0] >> k & 1 and (not self.multi or self.group[k] == h):
                ch[i] += 1
                return (st[0], tuple(ch)) + st[2:], i
        return st, -1  # not reached: techie_hull found a charge

    def _hull_charges(self, st: RState, h: int) -> int:
        return sum(c for c, k in zip(st[1], self.batteries)
                   if st[0] >> k & 1 and (not self.multi or self.group[k] == h))

    def settle(self, lent: RState, after: RState, i: int) -> RState:
        """``after`` (from ``lent``, charges spent and no battery lost) with the lent charge kept as
        spent when the Techie's half spent a charge, else taken back."""
        if i < 0:
            return after
        h = self.group[self.batteries[i]]
        if self._hull_charges(after, h) < self._hull_charges(lent, h):
            return after[:6] + (1,)
        ch = list(after[1])
        ch[i] -= 1
        return (after[0], tuple(ch)) + after[2:]

    # -- engine power ----------------------------------------------------------------------------
    def engine(self, st: RState, k: int) -> tuple[dict[int, int], RState]:
        """Engine power per hull with ``k`` charges on double engines (the weakest hull powered first)
        and the state with the charges spent. Orange alien: +2 (Manager +3) to its hull when that
        hull's power without it is above 0 (rules §7.1, §11.4). The Techie's first charge is free
        (:meth:`lend`)."""
        if k <= 0:
            return self._engine(st, 0)
        lent, i = self.lend(st)
        power, after = self._engine(lent, k)
        return power, self.settle(lent, after, i)

    def _engine(self, st: RState, k: int) -> tuple[dict[int, int], RState]:
        mask, charges = st[:2]
        ch = list(charges)
        hulls = self.live_hulls(st)
        power = {h: 0 for h in hulls}
        doubles: dict[int, list[int]] = {h: [] for h in hulls}
        for t, p, dbl in self.engines:
            if not mask >> t & 1:
                continue
            if dbl:
                doubles[self.group[t]].append(t)
            else:
                power[self.group[t]] += p
        for _ in range(k):
            cands = sorted((power[h], h) for h in hulls if doubles[h] and self._left(ch, h, mask))
            if not cands:
                break
            h = cands[0][1]
            doubles[h].pop(0)
            self._draw(ch, h, mask)
            power[h] += 2
        orange = self.bonus_alien(st, "orange")
        if orange is not None:
            h = self.group[orange]
            if power.get(h, 0) > 0:
                power[h] += 3 if self.manager_with(st, orange) else 2
        return power, (mask, tuple(ch)) + st[2:]

    def engine_ladder(self, st: RState) -> list[int]:
        """The ship's engine power for 0, 1, ... double engines powered (one charge each, the Techie's
        first one free): its lowest hull among those that can reach a power above 0 at all. A hull
        (IIA half) that cannot leaves in Open Space whatever is spent (rules §10.2), so it must not
        hide what charges do for the other: the ladder is 0 throughout only when no hull can move."""
        mask = st[0]
        top = min(self.charges_in(st) + self.free_charge(st),
                  sum(1 for t, _, d in self.engines if d and mask >> t & 1))
        powers = [self.engine(st, k)[0] for k in range(top + 1)]
        keep = [h for h, v in powers[-1].items() if v > 0]
        return [min((pw[h] for h in keep), default=0) for pw in powers]

    # -- firepower -------------------------------------------------------------------------------
    def boost_options(self, st: RState) -> tuple[int, ...]:
        """Cannons a cannon booster aboard could boost (joined to it, aboard), in grid order."""
        mask = st[0]
        out = []
        for b in self.cannon_boosters:
            if mask >> b & 1:
                out += [k for k, _, _ in self.cannons if mask >> k & 1 and self.adj[b] >> k & 1]
        return tuple(sorted(set(out)))

    def firepower(self, st: RState, choice: Firepower) -> tuple[int, RState, int] | None:
        """Firepower in half units for a declaration, the state with the charges spent, and the tile
        to destroy after the check (-1 for none); None when the charges do not suffice.

        Charged cannons are powered by value per charge (greedy, optimal since each takes one charge
        of its own hull); a boosted cannon adds +3 forward, +1.5 otherwise, and must itself be
        powered if it takes a charge (rules §11.1). The Techie's first charge is free (:meth:`lend`)."""
        if choice.charges <= 0 and choice.boost < 0:
            return self._firepower(st, choice)
        lent, i = self.lend(st)
        res = self._firepower(lent, choice)
        if res is None:
            return None
        return res[0], self.settle(lent, res[1], i), res[2]

    def _firepower(self, st: RState, choice: Firepower) -> tuple[int, RState, int] | None:
        mask, charges = st[:2]
        ch = list(charges)
        total = 0
        by_hull: dict[int, int] = {}
        charged = []
        for t, v, dbl in self.cannons:
            if not mask >> t & 1:
                continue
            if dbl:
                charged.append((-v, t))
            else:
                total += v
                by_hull[self.group[t]] = by_hull.get(self.group[t], 0) + v
        charged.sort()
        powered: set[int] = set()
        if choice.boost >= 0:
            b = choice.boost
            if b not in self.boost_options(st):
                return None
            if any(t == b for _, t in charged):
                if not self._draw(ch, self.group[b], mask):
                    return None
                v = next(-nv for nv, t in charged if t == b)
                total += v
                by_hull[self.group[b]] = by_hull.get(self.group[b], 0) + v
                powered.add(b)
            booster = next(x for x in self.cannon_boosters if mask >> x & 1 and self.adj[x] >> b & 1)
            if not self._draw(ch, self.group[booster], mask):
                return None
            bonus = 6 if self.forward[b] else 3
            total += bonus
            by_hull[self.group[b]] = by_hull.get(self.group[b], 0) + bonus
        k = choice.charges
        for nv, t in charged:
            if k <= 0:
                break
            if t in powered:
                continue
            if self._draw(ch, self.group[t], mask):
                total += -nv
                by_hull[self.group[t]] = by_hull.get(self.group[t], 0) + -nv
                powered.add(t)
                k -= 1
        purple = self.bonus_alien(st, "purple")
        if purple is not None:
            base = by_hull.get(self.group[purple], 0) if self.multi else total
            if base > 0:
                total += 6 if self.manager_with(st, purple) else 4
        return total, (mask, tuple(ch)) + st[2:], choice.boost

    def usable_fire_charges(self, st: RState) -> int:
        """The most double cannons the charges (and the Techie) can power."""
        return min(self.charges_in(st) + self.free_charge(st),
                   sum(1 for t, _, d in self.cannons if d and st[0] >> t & 1))

    # -- goods -----------------------------------------------------------------------------------
    def hold_room(self, st: RState) -> list[tuple[int, int]]:
        """(ordinary, special) slots per hold aboard; a battery hold's slots holding charges are taken."""
        mask, charges = st[0], st[1]
        out = []
        for k, normal, special, bi in self.holds:
            if not mask >> k & 1:
                out.append((0, 0))
            elif bi >= 0:
                out.append((max(0, normal - charges[bi]), special))
            else:
                out.append((normal, special))
        return out

    def goods_list(self, st: RState) -> list[int]:
        return sorted(c for g in st[3] for c in g)

    def goods_value(self, st: RState, prices: dict[str, int]) -> int:
        return sum(prices[COLOURS[c]] for c in self.goods_list(st))

    def fit(self, st: RState, goods: Sequence[int]) -> list[int]:
        """The most valuable of ``goods`` that fit the holds aboard (red only in special slots)."""
        room = self.hold_room(st)
        special = sum(s for _, s in room)
        total = special + sum(n for n, _ in room)
        red = [c for c in goods if c == 0][:special]
        rest = sorted(c for c in goods if c != 0)[: max(0, total - len(red))]
        return red + rest

    def arrange(self, st: RState, goods: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Goods that fit, placed canonically: red into special slots in grid order, the rest by value
        into ordinary slots in grid order, then into special slots left."""
        room = self.hold_room(st)
        place: list[list[int]] = [[] for _ in self.holds]
        free_sp = [s for _, s in room]
        free_n = [n for n, _ in room]
        for c in sorted(goods):
            h = -1
            if c != 0:
                h = next((i for i, f in enumerate(free_n) if f > 0), -1)
                if h >= 0:
                    free_n[h] -= 1
            if h < 0:
                h = next((i for i, f in enumerate(free_sp) if f > 0), -1)
                if h < 0:
                    continue
                free_sp[h] -= 1
            place[h].append(c)
        return tuple(tuple(sorted(p)) for p in place)

    def load(self, st: RState, new: Sequence[int]) -> RState:
        """Gain goods: keep the most valuable that fit (old and new together, rearranged); a reactor
        furnace joined to a battery that is not full burns the least valuable good left over to
        recharge it fully (one good per furnace; rules §11.3)."""
        mask, charges, crew, goods = st[:4]
        pool = self.goods_list(st) + list(new)
        keep = self.fit(st, pool)
        left = sorted(pool)
        for c in keep:
            left.remove(c)
        ch = list(charges)
        for f in self.furnaces:
            if not mask >> f & 1 or not left:
                continue
            for i, k in enumerate(self.batteries):
                if mask >> k & 1 and self.adj[f] >> k & 1:
                    t = self.tiles[k]
                    cap = t.capacity if t.kind != "battery_hold" else t.capacity - len(
                        goods[next(h for h, hh in enumerate(self.holds) if hh[0] == k)])
                    if ch[i] < cap:
                        ch[i] = cap
                        left.pop()  # the least valuable good left over
                        break
        st2 = (mask, tuple(ch)) + st[2:]
        return (mask, tuple(ch), crew, self.arrange(st2, keep)) + st[4:]

    def lose_goods(self, st: RState, n: int) -> RState:
        """Lose the ``n`` most valuable goods; for what is missing, battery charges (rules §9.4)."""
        g = [list(x) for x in st[3]]
        left = n
        while left:
            best = min(((c, h) for h, x in enumerate(g) for c in x), default=None)
            if best is None:
                break
            g[best[1]].remove(best[0])
            left -= 1
        out = st[:3] + (tuple(tuple(x) for x in g),) + st[4:]
        return self.lose_charges(out, left) if left else out

    def hyperjump(self, st: RState, hull: int | None = None) -> RState | None:
        """Hyperspace (rules §11.2): 1 charge boosts an engine joined to an engine booster (a double
        engine takes 1 more; the Techie's first charge is free); the engine is destroyed. The first
        single engine joined to a booster (of ``hull``, when given) is used, else the first double;
        None when no engine or charges allow it."""
        lent, i = self.lend(st)
        mask = st[0]
        for b in self.engine_boosters:
            if not mask >> b & 1 or (hull is not None and self.group[b] != hull):
                continue
            joined = sorted((dbl, t) for t, _, dbl in self.engines if mask >> t & 1 and self.adj[b] >> t & 1)
            for dbl, t in joined:
                ch = list(lent[1])
                if self._draw(ch, self.group[b], mask) and (not dbl or self._draw(ch, self.group[t], mask)):
                    after = self.settle(lent, (mask, tuple(ch)) + st[2:], i)
                    return self.destroy(after, 1 << t)
        return None

    # -- halves (class IIA) ----------------------------------------------------------------------
    def hull_tiles(self, st: RState, hull: int) -> int:
        return sum(1 << k for k in range(self.n) if st[0] >> k & 1 and self.group[k] == hull)

    def leave_hull(self, st: RState, hull: int, prices: dict[str, int]) -> tuple[RState, int]:
        """One half leaves the flight: half the credits (rounded up) for its goods at once; its tiles
        go back to the table (not lost). Returns the state and the credits."""
        mask, charges, crew, goods, gone, away, spent = st
        tiles = self.hull_tiles(st, hull)
        value = 0
        for h, (k, _, _, _) in enumerate(self.holds):
            if tiles >> k & 1:
                value += sum(prices[COLOURS[c]] for c in goods[h])
        credits = (value + 1) // 2  # the Merchant's bonus counts only for a finished flight (rules §11.5)
        new = self.canon(mask & ~tiles, charges, crew, goods, gone | tiles, (away, spent))
        return new, credits

    def send_away(self, st: RState, hull: int) -> RState:
        """Half ``hull`` jumps to hyperspace while the other half flies on (rules §11.2.3): its tiles,
        charges, crew and goods are kept aside in ``away`` until :meth:`come_back`."""
        mask, charges, crew, goods, gone, away, spent = st
        assert not away, "one half away at a time"
        tiles = self.hull_tiles(st, hull)
        kept = (tiles,
                tuple(c if tiles >> k & 1 else 0 for c, k in zip(charges, self.batteries)),
                tuple(c if tiles >> k & 1 else 0 for k, c in enumerate(crew)),
                tuple(tuple(g) if tiles >> self.holds[h][0] & 1 else () for h, g in enumerate(goods)))
        return self.canon(mask & ~tiles, charges, crew, goods, gone, (kept, spent))

    def come_back(self, st: RState) -> RState:
        """The half in hyperspace rejoins the flight (after the card following its jump)."""
        mask, charges, crew, goods, gone, away, spent = st
        if not away:
            return st
        tiles, a_ch, a_crew, a_goods = away
        ch = tuple(a if tiles >> k & 1 else c for c, a, k in zip(charges, a_ch, self.batteries))
        cr = tuple(a if tiles >> k & 1 else c for k, (c, a) in enumerate(zip(crew, a_crew)))
        gd = tuple(a if tiles >> self.holds[h][0] & 1 else g for h, (g, a) in enumerate(zip(goods, a_goods)))
        return (mask | tiles, ch, cr, gd, gone, (), spent)

    # -- scoring facts ---------------------------------------------------------------------------
    def luxury_passengers(self, st: RState) -> int:
        mask, crew = st[0], st[2]
        return sum(1 for k in self.luxury if mask >> k & 1 and crew[k] > 0)
