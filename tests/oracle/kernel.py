"""The flight model compiled to integers: packed states and the default policy's transitions.

A :class:`Kernel` is built once per :class:`~shipcheck.flight.chain.FlightModel` (``model.kernel``). It
packs a state ``(mask, charges, crew)`` into one int (the mask in the low bits, then a field per
battery, then, when the crew is tracked, a flag bit and a field per crew tile), so states hash as
ints; it looks up the tile a line meets first with a bit operation, and plays the default policy
(contract §4) straight on packed states. Transitions are memoised per packed state: for each
attack kind and side, the rolls of a state are grouped by their *effect* (which tiles they would
damage from which side) before anything is played, so the rolls that miss, bounce off or hit the
same tile cost one lookup.

:meth:`FlightModel.play <shipcheck.flight.chain.FlightModel.play>` is the same policy played through
:class:`~shipcheck.flight.chain.Situation` objects: the tests hold the two to the same answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from shipcheck.cards import Attack

    from .flight import FlightModel, State

SMALL, LARGE, LIGHT, HEAVY = "small-meteor", "large-meteor", "light-shot", "heavy-shot"
CREW_BITS = 3
CREW_FIELD = (1 << CREW_BITS) - 1  # encodes ALIEN (-1); humans and sleepers 0..6 as themselves

Effect = tuple[int, tuple[tuple[int, int], ...]]  # board side, ((line, tile hit), ...) of damaging hits


class Live(NamedTuple):
    """An attack as the Python pass reads it (:meth:`Kernel.live`)."""

    none: int  # weight (of 36) of the rolls that can never reach a tile of this ship
    rolls: tuple[Any, ...]  # the other rolls, flat or as in Kernel.plan (empty lines left out)
    flat: bool  # each roll names one line: (weight, side, tolerance, tiles damaged, line, tiles of the line, lowest first)
    seen: dict[int, tuple[tuple[Any, int], ...]]  # Kernel.effects by mask
    kind: str  # the attack's kind (Attack.kind formats a string at each call)
    memo: dict[int, tuple[tuple[int, int], ...]]  # Kernel.transitions by packed state


def bits(x: int) -> list[int]:
    """The indices of the set bits of ``x``, lowest first."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class Kernel:
    """Packed states and memoised default-policy transitions for one flight model."""

    def default_decision(self, st: State, kind: str, o: Any) -> tuple[bool, bool, tuple[int, ...], tuple[int, ...]]:
        """Contract §4's decision as the oracle takes it (its own DefaultPolicy, on its own situation of
        the roll): what the package's ``DefaultPolicy`` (which asks its model's kernel) answers on the
        oracle's situations."""
        from shipcheck.flight.chain import parse_attack

        from .flight import DEFAULT_POLICY

        sit = self.m.situation(st, parse_attack(f"{kind}:{o.direction}"), 0, o)  # (it reads the kind alone)
        d = DEFAULT_POLICY.decide(sit)
        return d.shield, d.boosted, d.cannons or tuple(-1 for _ in o.lines), d.draws

    def __init__(self, m: FlightModel) -> None:
        self.m = m
        n = m.n
        tiles = m.tiles
        w = m.ship.board.width
        self.n = n
        self.full = full = m.full
        # -- packing ------------------------------------------------------------------------------
        off = n
        self.boff: list[int] = []
        self.bfield: list[int] = []
        self.btile: list[int] = list(m.batteries)
        p0 = full  # the launch state without a crew tuple
        for k in m.batteries:
            t = tiles[k]
            charges = t.charges
            width = max(1, max(t.capacity, charges).bit_length())
            self.boff.append(off)
            self.bfield.append(((1 << width) - 1) << off)
            p0 |= charges << off
            off += width
        self.flag = off  # then the crew fields (coff)
        self.charge_mask = sum(self.bfield)
        self.bat_tiles = sum(1 << k for k in self.btile)
        # -- geometry: one pass over the tiles ----------------------------------------------------
        cols = [0] * w
        rows: dict[int, int] = {}
        plating = 0
        c0 = c1 = c2 = c3 = 0  # tiles with a connector on each side
        bit = 1
        for t in tiles:
            r, c = divmod(t.at, w)
            cols[c] |= bit
            rows[r] = rows.get(r, 0) | bit
            e0, e1, e2, e3 = t.eff
            if e0:
                c0 |= bit
            if e1:
                c1 |= bit
            if e2:
                c2 |= bit
            if e3:
                c3 |= bit
            if t.kind == "plating":
                plating |= bit
            bit <<= 1
        # the same line tables from N and S (columns), from E and W (rows); nothing writes to them
        by_col = {c: x for c, x in enumerate(cols) if x}
        self.lines = {0: by_col, 1: rows, 2: by_col, 3: rows}
        # from N (columns) and W (rows) the first tile is the lowest grid index, from S and E the highest
        self.low_first = (True, False, False, True)
        # tiles a hit damages (unless defended): a small meteor only on a connector, plating's smooth
        # sides nothing
        conn = (c0, c1, c2, c3)
        plated = [plating & ~x for x in conn]
        self.vuln: dict[tuple[str, int], int] = {}
        for side in range(4):
            self.vuln[(SMALL, side)] = conn[side]
            for kind in (LARGE, LIGHT, HEAVY):
                self.vuln[(kind, side)] = full & ~plated[side]
        cover = [0, 0, 0, 0]
        for s in m.shields:
            for side in tiles[s].covers:
                cover[side] |= 1 << s
        self.cover = cover
        self.booster_mask = m.boosters
        self.boostable = sum(1 << s for s in m.shields if m.adj[s] & m.boosters)  # shields joined to a booster
        self.adj = m.adj
        self.multi = m.multi_hull
        self.group = m.group
        if self.multi:
            groups = sorted(set(m.group))
            self.group_mask = {g: sum(1 << k for k in range(n) if m.group[k] == g) for g in groups}
            # batteries allowed to pay, per hull (None: any hull, on one-hull ships)
            self.pay: dict[int | None, tuple[int, ...]] = {
                g: tuple(i for i, k in enumerate(m.batteries) if m.group[k] == g) for g in groups}
            self.pay[None] = ()
        else:
            self.group_mask = {m.group[0]: full} if n else {}
            self.pay = {None: m.battery_range}
        # cannons bearing on a large meteor: per (side, tolerance, line), free ones first, row-major
        self._bearing: dict[tuple[int, int, int], tuple[tuple[int, bool], ...]] = {}
        self._cannons = tuple((c, tiles[c].barrels, *divmod(tiles[c].at, w), m.free_cannon[c]) for c in m.cannons)
        two = one = 0
        for k in m.cabins:
            h = tiles[k].humans
            if h == 2:
                two |= 1 << k
            elif h == 1:
                one |= 1 << k
        self.two_humans = two
        self.one_human = one
        self.cabin_mask = m.cabin_mask
        # the launch state, packed (see initial())
        self._p0 = p0 if not (m.track_crew or m.dynamic_crew) else None
        # -- memos --------------------------------------------------------------------------------
        self._pieces: dict[int, list[int]] = {}
        self._split: dict[int, int] = {}
        # masks known to be a kept ship (one piece): results of splits, and the launch mask if whole
        # (looked at when a cut first needs it: see _cut)
        self._kept: set[int] = set()
        self._launch_seen = False
        self._each: dict[tuple[str, str], dict[int, tuple[int, ...]]] = {}
        self._outs: dict[str, tuple[tuple[int, int, int, tuple[int, ...]], ...]] = {}
        self._plans: dict[Attack, Any] = {}
        self._live: dict[Attack, Live] = {}
        self._cuts: dict[tuple[int, int], int] = {}

    @cached_property
    def crew_slots(self) -> tuple[int, ...]:
        """The tiles with a crew field in a packed state: cabins, stasis chambers and alien tiles, in
        grid order (built when a state first carries a crew tuple)."""
        return tuple(sorted({*self.m.cabins, *self.m.stasis, *self.m.supports}))

    @cached_property
    def coff(self) -> dict[int, int]:
        """Per crew slot, the offset of its field (after the flag bit)."""
        return {k: self.flag + 1 + i * CREW_BITS for i, k in enumerate(self.crew_slots)}

    @property
    def compilable(self) -> bool:
        """Whether :mod:`shipcheck.kernel_jit` can play this model's default policy: one hull, no
        crew tuple, packed states below 2**62."""
        return not self.multi and self.flag <= 62 and not self.initial() >> self.flag & 1

    def initial(self) -> int:
        """:meth:`FlightModel.initial <shipcheck.flight.chain.FlightModel.initial>`, packed."""
        return self._p0 if self._p0 is not None else self.pack(self.m.initial())

    # -- packing ---------------------------------------------------------------------------------
    def pack(self, st: State) -> int:
        mask, charges, crew = st
        p = mask
        for off, c in zip(self.boff, charges):
            p |= c << off
        if crew is not None:
            p |= 1 << self.flag
            for k, off in self.coff.items():
                c = crew[k]
                p |= (CREW_FIELD if c < 0 else c) << off
        return p

    def unpack(self, p: int) -> State:
        mask = p & self.full
        charges = tuple((p & f) >> off for off, f in zip(self.boff, self.bfield))
        return (mask, charges, self.crew_of(p))

    def crew_of(self, p: int) -> tuple[int, ...] | None:
        if not p >> self.flag & 1:
            return None
        crew = [0] * self.n
        for k, off in self.coff.items():
            c = p >> off & CREW_FIELD
            crew[k] = -1 if c == CREW_FIELD else c
        return tuple(crew)

    def humans(self, p: int) -> int:
        mask = p & self.full
        if not p >> self.flag & 1:
            return 2 * (mask & self.two_humans).bit_count() + (mask & self.one_human).bit_count()
        total = 0
        for k in bits(mask & self.cabin_mask):
            c = p >> self.coff[k] & CREW_FIELD
            if c != CREW_FIELD:
                total += c
        return total

    # -- dice ------------------------------------------------------------------------------------
    def outcomes(self, attack: Attack) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
        """Per outcome of ``attack``: (weight out of 36, board side, bearing tolerance, lines);
        shared by every ship with the same board and front."""
        b = self.m.ship.board
        cache = b.__dict__.setdefault("_kernel_outcomes", {})
        key = (int(self.m.ship.front_side), attack.side)
        hit = cache.get(key)
        if hit is None:
            outs, _ = self.m.outcomes(attack)
            hit = cache[key] = tuple(
                (o.prob.numerator * (36 // o.prob.denominator), o.side, 0 if o.direction == "front" else 1, o.lines)
                for o in outs)
        return hit  # type: ignore[no-any-return]

    def effect(self, mask: int, kind: str, side: int, lines: tuple[int, ...]) -> Effect | None:
        """What a roll would damage if undefended, or None when it does nothing."""
        vul = self.vuln[(kind, side)]
        by_line = self.lines[side]
        low = self.low_first[side]
        hits = []
        for line in lines:
            lm = by_line.get(line, 0) & mask
            if not lm:
                continue
            k = (lm & -lm).bit_length() - 1 if low else lm.bit_length() - 1
            if vul >> k & 1:
                hits.append((line, k))
        return (side, tuple(hits)) if hits else None

    def bearing(self, side: int, tol: int, line: int) -> tuple[tuple[int, bool], ...]:
        key = (side, tol, line)
        hit = self._bearing.get(key)
        if hit is None:
            free: list[tuple[int, bool]] = []
            paid: list[tuple[int, bool]] = []
            for c, barrels, r, col, is_free in self._cannons:
                if side in barrels and abs((col if side in (0, 2) else r) - line) <= tol:
                    (free if is_free else paid).append((c, is_free))
            hit = self._bearing[key] = tuple(free + paid)
        return hit

    # -- transitions ----------------------------------------------------------------------------
    def plan(self, attack: Attack) -> tuple[tuple[int, int, int, int, tuple[tuple[int, int, bool], ...]], ...]:
        """Per outcome of ``attack``: (weight out of 36, board side, bearing tolerance (large meteors
        only, else 0), tiles a hit on that side damages, ((line, tiles of the line, lowest first), ...))."""
        hit = self._plans.get(attack)
        if hit is None:
            kind = attack.kind
            hit = self._plans[attack] = tuple(
                (w, side, tol if kind == LARGE else 0, self.vuln[(kind, side)],
                 tuple((line, self.lines[side].get(line, 0), self.low_first[side]) for line in lines))
                for w, side, tol, lines in self.outcomes(attack))
        return hit

    def live(self, attack: Attack) -> Live:
        """:meth:`plan` as :meth:`effects` reads it (see :class:`Live`), with the memos of the
        attack: one lookup an attack in the forward pass."""
        hit = self._live.get(attack)
        if hit is None:
            kind = attack.kind  # a property that formats a string: read once
            large = kind == LARGE
            dead = 0
            rolls: list[Any] = []
            flat = True
            last = -1
            for w, side, tol, lines in self.outcomes(attack):
                if side != last:  # the rolls of an attack mostly come from one side
                    last, by_line, low, vul = side, self.lines[side], self.low_first[side], self.vuln[(kind, side)]
                t = tol if large else 0
                if len(lines) == 1:  # most rolls: spare the generator
                    line = lines[0]
                    lm = by_line.get(line, 0)
                    if not lm:
                        dead += w
                    elif flat:
                        rolls.append((w, side, t, vul, line, lm, low))
                    else:
                        rolls.append((w, side, t, vul, ((line, lm, low),)))
                    continue
                specs = tuple((line, lm, low) for line in lines if (lm := by_line.get(line, 0)))
                if not specs:
                    dead += w
                    continue
                if flat:  # the first roll naming several lines: the general form from here on
                    rolls = [(w_, s_, t_, v_, ((ln, lm_, lo),)) for w_, s_, t_, v_, ln, lm_, lo in rolls]
                    flat = False
                rolls.append((w, side, t, vul, specs))
            hit = self._live[attack] = Live(dead, tuple(rolls), flat, {}, kind, {})
        return hit

    def memo(self, attack: Attack) -> dict[int, tuple[tuple[int, int], ...]]:
        """The memo of :meth:`transitions` for ``attack``: packed state -> its next states."""
        return self.live(attack).memo

    def transitions(self, p: int, attack: Attack) -> tuple[tuple[int, int], ...]:
        """The next states of packed state ``p`` under the default policy, with weights out of 36."""
        live = self.live(attack)
        hit = live.memo.get(p)
        if hit is None:
            hit = live.memo[p] = self.expand(p, live.kind, live)
        return hit

    def expand(self, p: int, kind: str, live: Live) -> tuple[tuple[int, int], ...]:
        """:meth:`transitions` without the memo: group the rolls by effect, play each effect once."""
        nxt: dict[int, int] = {}
        for g, w in self.effects(p & self.full, live):
            q = p if g is None else self.play(p, kind, g[0], g[1])
            nxt[q] = nxt.get(q, 0) + w
        return tuple(nxt.items())

    def effects(self, mask: int, live: Live, *, memo: bool = True) -> tuple[tuple[Any, int], ...]:
        """The rolls of an attack (its :meth:`live` plan) grouped by effect on ship ``mask``:
        (((side, hits), tolerance) or None for no damage, total weight), memoised by mask (states
        that differ in charges share it). Flat rolls are not merged: should two name the same
        line, their effect comes twice and callers add the weights."""
        none, rolls, flat, seen, _, _ = live
        hit = seen.get(mask)
        if hit is not None:
            return hit
        if flat:
            out: list[tuple[Any, int]] = []
            for w, side, tol, vul, line, lm, low in rolls:
                x = lm & mask
                if x:
                    k = (x & -x).bit_length() - 1 if low else x.bit_length() - 1
                    if vul >> k & 1:
                        out.append((((side, ((line, k),)), tol), w))
                        continue
                none += w
            if none:
                out.append((None, none))
            hit = tuple(out)
        else:
            groups: dict[Any, int] = {}
            for w, side, tol, vul, specs in rolls:
                hits: tuple[tuple[int, int], ...] = ()
                for line, lm, low in specs:
                    x = lm & mask
                    if x:
                        k = (x & -x).bit_length() - 1 if low else x.bit_length() - 1
                        if vul >> k & 1:
                            hits += ((line, k),)
                if hits:
                    g = ((side, hits), tol)
                    groups[g] = groups.get(g, 0) + w
                else:
                    none += w
            if none:
                groups[None] = none
            hit = tuple(groups.items())
        if memo:
            seen[mask] = hit
        return hit

    def each(self, p: int, attack: Attack) -> tuple[int, ...]:
        """The next packed state for each outcome index of ``attack`` (default policy)."""
        key = (attack.kind, attack.side)
        memo = self._each.get(key)
        if memo is None:
            memo = self._each[key] = {}
        hit = memo.get(p)
        if hit is not None:
            return hit
        kind = attack.kind
        mask = p & self.full
        seen: dict[Any, int] = {}
        out = []
        for _, side, tol, lines in self.outcomes(attack):
            eff = self.effect(mask, kind, side, lines) if lines else None
            if eff is None:
                out.append(p)
                continue
            k = (eff, tol)
            q = seen.get(k)
            if q is None:
                q = seen[k] = self.play(p, kind, eff, tol)
            out.append(q)
        res = memo[p] = tuple(out)
        return res

    def _draw(self, p: int, allowed: Sequence[int]) -> int:
        """Index of the first battery in ``allowed`` with a charge in ``p``, or -1."""
        for b in allowed:
            if p & self.bfield[b]:
                return b
        return -1

    def shields_for(self, mask: int, eff: Effect) -> tuple[int | None, int]:
        """The hull that defends against ``eff`` (None on a one-hull ship, or when the hits are in two
        hulls) and the shields aboard covering its side. On several hulls a shield protects only
        its own (rules §8.5, §11.4): hits in two hulls get none."""
        side, hits = eff
        if not self.multi:
            return None, self.cover[side] & mask
        gs = {self.group[k] for _, k in hits}
        if len(gs) != 1:
            return None, 0
        hull = gs.pop()
        return hull, self.cover[side] & self.group_mask[hull] & mask

    def boosted(self, mask: int, shields: int) -> bool:
        """Whether one of ``shields`` is joined to a shield booster aboard."""
        return bool(shields & self.boostable) and any(
            self.adj[s] & self.booster_mask & mask for s in bits(shields & self.boostable))

    def play(self, p: int, kind: str, eff: Effect, tol: int) -> int:
        """Contract §4's decision against a damaging roll, applied to packed state ``p``."""
        side, hits = eff
        mask = p & self.full
        if self.multi:
            hull, shields = self.shields_for(mask, eff)
        else:  # shields_for, spared a call
            hull, shields = None, self.cover[side] & mask
        destroyed = 0
        if kind == SMALL or kind == LIGHT:
            if shields:
                b = self._draw(p, self.pay[hull])
                if b >= 0:
                    return p - (1 << self.boff[b])
            for _, k in hits:
                destroyed |= 1 << k
        else:
            used = 0
            open_hits = 0
            if kind == LARGE:
                for line, k in hits:
                    shot = False
                    for c, free in self.bearing(side, tol, line):
                        if used >> c & 1 or not mask >> c & 1:
                            continue
                        if free:
                            shot = True
                            break
                        b = self._draw(p, self.pay[self.group[c]] if self.multi else self.pay[None])
                        if b >= 0:
                            p -= 1 << self.boff[b]
                            shot = True
                            break
                    if shot:
                        used |= 1 << c
                    else:
                        open_hits |= 1 << k
            else:
                for _, k in hits:
                    open_hits |= 1 << k
            if open_hits and self.boosted(mask, shields):
                allowed = self.pay[hull]
                b1 = self._draw(p, allowed)
                if b1 >= 0:
                    q = p - (1 << self.boff[b1])
                    b2 = self._draw(q, allowed)
                    if b2 >= 0:
                        p = q - (1 << self.boff[b2])
                        open_hits = 0
            destroyed = open_hits
        if not destroyed:
            return p
        return self.destroy(p, destroyed)

    def destroy(self, p: int, destroyed: int) -> int:
        """Packed state ``p`` after the tiles in ``destroyed`` are destroyed (splits, crew, waking)."""
        mask = p & self.full
        if not p >> self.flag & 1:
            new = self._cuts.get((mask, destroyed))
            if new is None:
                new = self.cut(mask, destroyed)
            q = p ^ mask ^ new
            left = mask & ~new & self.bat_tiles
            if left:
                for b, k in enumerate(self.btile):
                    if left >> k & 1:
                        q &= ~self.bfield[b]
            return q
        crew = self.crew_of(p)
        assert crew is not None
        new = self.m.split(mask & ~destroyed, crew)
        crew = self.m.after_loss(mask, new, crew)
        left = mask & ~new
        q = (p & ~self.full) | new
        if left & self.bat_tiles:
            for b, k in enumerate(self.btile):
                if left >> k & 1:
                    q &= ~self.bfield[b]
        if crew is not None:
            for k, off in self.coff.items():
                q &= ~(CREW_FIELD << off)
                c = crew[k]
                q |= (CREW_FIELD if c < 0 else c) << off
        return q

    def split(self, mask: int) -> int:
        """:meth:`FlightModel.split` for a state without a crew tuple, memoised by mask."""
        hit = self._split.get(mask)
        if hit is None:
            hit = self._split[mask] = self.m.split(mask, None)
            self._kept.add(hit)
        return hit

    def cut(self, mask: int, destroyed: int, *, memo: bool = True) -> int:
        """The kept ship once ``destroyed`` is taken from ``mask`` (no crew tuple), memoised.

        When ``mask`` is a kept ship (one piece) and one tile goes, the pieces left are those of the
        tile's neighbours: a search from each neighbour not yet reached finds them, and stops as
        soon as all neighbours are met (then nothing fell off)."""
        if not memo:
            return self._cut(mask, destroyed)
        key = (mask, destroyed)
        hit = self._cuts.get(key)
        if hit is None:
            hit = self._cuts[key] = self._cut(mask, destroyed)
            self._kept.add(hit)
        return hit

    def _whole_launch(self, mask: int) -> bool:
        """Whether ``mask`` is the launch mask and that is one piece (then it joins ``_kept``);
        looked at once, when a cut first needs it."""
        if mask != self.full or self._launch_seen:
            return False
        self._launch_seen = True
        if len(self.m.pieces(mask)) > 1:
            return False
        self._kept.add(mask)
        return True

    def _cut(self, mask: int, destroyed: int) -> int:
        rest = mask & ~destroyed
        if destroyed & (destroyed - 1) or self.multi or (mask not in self._kept and not self._whole_launch(mask)):
            return self.split(rest)
        adj = self.adj
        nb = adj[destroyed.bit_length() - 1] & rest
        if nb & (nb - 1) == 0:
            return rest
        # grow a search from every neighbour in lockstep, merging searches that meet: the small
        # pieces finish first, and once one search alone is still growing its piece is the rest
        comps: list[list[int]] = []
        while nb:
            b = nb & -nb
            comps.append([b, b])
            nb ^= b
        while True:
            growing = [c for c in comps if c[1]]
            if len(growing) <= 1:
                break
            for c in growing:
                nxt = 0
                f = c[1]
                while f:
                    b = f & -f
                    nxt |= adj[b.bit_length() - 1]
                    f ^= b
                nxt &= rest & ~c[0]
                c[0] |= nxt
                c[1] = nxt
            merged: list[list[int]] = []
            for c in comps:
                for d in merged:
                    if d[0] & c[0]:
                        d[0] |= c[0]
                        d[1] |= c[1]
                        break
                else:
                    merged.append(c)
            comps = merged
            if len(comps) == 1:
                return rest
        if len(comps) == 1:
            return rest
        done = 0
        for c in comps:
            if not c[1]:
                done |= c[0]
        pieces = [c[0] for c in comps if not c[1]]
        if done != rest:
            pieces.append(rest & ~done)
        # contract §4: the most humans, then the most components, then the first square
        h2, h1 = self.two_humans, self.one_human
        return min(pieces, key=lambda q: (-2 * (q & h2).bit_count() - (q & h1).bit_count(), -q.bit_count(),
                                          (q & -q).bit_length()))
