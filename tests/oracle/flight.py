"""The flight model shared by the exact and the Monte Carlo engines.

A ship in flight is a *state* ``(mask, charges, crew)``: which tiles are still aboard (a bitmask
over the tiles in grid order), the charges left in each battery, and the crew: ``None`` when it
follows from the mask (no stasis chamber, and the model was not asked to track crew), else a tuple
per tile of its occupants (awake humans in the pilot cabin, cabins and luxury cabins; :data:`ALIEN`
where an alien sits, its colour being the tile's ``crew``; sleepers in a stasis chamber; 0
elsewhere). Every rule reads the crew from the state, so a caller may change it between attacks
(crew lost to a card, an alien given away) by building a new state and keep stepping. An attack's roll is one of at most 36 equally likely dice pairs,
grouped into *outcomes* (a board side and the lines it names); a policy turns a state and an
outcome into a :class:`Decision`, and :meth:`FlightModel.step` gives the next state. Both engines
walk the same memoised transitions, so Monte Carlo converges to the exact odds by construction.

Contract §4 is the default policy. Facts the rules leave open are marked where they are used:
boosted shields (OQ24) are a last resort after cannons; the first tile of a line on a wrap board
is the one nearest the printed edge (OQ10).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from shipcheck.cards import Attack
from shipcheck.check.rules import Layout
from shipcheck.errors import InputError
from shipcheck.model import (
    ALIENS,
    BATTERY_KINDS,
    CABIN_KINDS,
    CHARGED_CANNONS,
    DIRECTION_SIDE,
    FREE_CANNONS,
    Ship,
    Side,
)

if TYPE_CHECKING:
    from shipcheck.topology import Board

    from .kernel import Kernel

KINDS = ("small-meteor", "large-meteor", "light-shot", "heavy-shot")
DIRS = ("front", "right", "rear", "left")
_SIZE = {"small-meteor": "small", "large-meteor": "large", "light-shot": "light", "heavy-shot": "heavy"}

State = tuple[int, tuple[int, ...], tuple[int, ...] | None]

#: Crew value of a tile holding an alien (its colour is the tile's ``crew``). Not 1: a cabin an alien
#: left may take woken sleepers, and one woken human must not read as an alien.
ALIEN = -1
WAKE_PLACES = 2  # places per ordinary cabin and the pilot cabin for woken sleepers (contract §4)


def parse_attack(text: str, *, key: str = "attack") -> Attack:
    """``"large-meteor:front"`` as an :class:`Attack`; raises :class:`InputError` naming ``key``."""
    kind, _, d = text.strip().partition(":") if isinstance(text, str) else ("", "", "")
    if kind not in KINDS or d not in DIRS:
        raise InputError("bad attack", key=key, value=text,
                         expected="KIND:FROM with KIND small-meteor, large-meteor, light-shot or heavy-shot "
                         "and FROM front, rear, left or right")
    return Attack(size=_SIZE[kind], side=d)


def as_attacks(attacks: Any, *, key: str = "attacks") -> tuple[Attack, ...]:
    """Attacks from :class:`Attack` objects, ``"KIND:FROM"`` strings, one of either, or a card (its
    :meth:`~shipcheck.cards.Card.attacks`); an :class:`InputError` naming ``key`` otherwise."""
    if hasattr(attacks, "attacks") and callable(attacks.attacks):  # a Card
        attacks = attacks.attacks()
    if isinstance(attacks, (str, Attack)):
        attacks = [attacks]
    try:
        items = list(attacks)
    except TypeError:
        raise InputError(f"bad `{key}`", key=key, value=attacks,
                         expected="a sequence of Attack objects or 'KIND:FROM' strings, or a card") from None
    out = []
    for a in items:
        if isinstance(a, str):
            a = parse_attack(a, key=key)
        if not isinstance(a, Attack):
            raise InputError(f"bad attack in `{key}`", key=key, value=a,
                             expected="Attack objects or 'KIND:FROM' strings")
        out.append(a)
    return tuple(out)



@dataclass(frozen=True)
class Outcome:
    """A group of dice results that send the attack down the same lines from the same side."""

    prob: Fraction
    side: int  # board side the attack comes from
    direction: str  # ship-relative side after any redirection
    value: int  # the roll that picked the line(s)
    lines: tuple[int, ...]  # grid lines hit (columns from N/S, rows from E/W), in grid order

    def describe(self, board: Any) -> str:
        if not self.lines:
            return f"roll {self.value} from the {self.direction}: miss"
        kind = "column" if self.side in (0, 2) else "row"
        if board.index_cells:
            lines = ", ".join(f"{kind} {j} (0-based)" for j in self.lines)
        else:
            labels = board.columns if self.side in (0, 2) else board.rows
            lines = ", ".join(f"{kind} {labels[j][0]}" for j in self.lines)
        return f"roll {self.value} from the {self.direction}: {lines}"


@dataclass(frozen=True)
class Decision:
    """What the player does against one roll.

    ``shield``: activate a shield (1 charge) for every line; ``boosted``: a boosted shield (2 charges)
    for every line no cannon stops; ``cannons``: per line, the tile fired at it or -1;
    ``draws``: the batteries (indices into :attr:`FlightModel.batteries`) each charge comes from.
    """

    shield: bool = False
    boosted: bool = False
    cannons: tuple[int, ...] = ()
    draws: tuple[int, ...] = ()


@dataclass(frozen=True)
class Situation:
    """What a policy sees: the state, the roll, the hits and the means of defence."""

    model: FlightModel
    state: State
    attack: int
    kind: str
    outcome: Outcome
    hits: tuple[int, ...]  # per line: the tile hit, or -1
    needs: tuple[bool, ...]  # per line: whether the hit does damage unless defended
    shield_ok: bool  # a shield covering the side is aboard
    boosted_ok: bool  # a boosted shield covering the side is aboard
    bearing: tuple[tuple[int, ...], ...]  # per line: cannons that bear, free ones first, row-major
    hull: int | None = None  # on several-hull ships: the hull whose shield and batteries defend

    @property
    def charges(self) -> int:
        return sum(self.state[1])

    def payable(self, purpose: int | None) -> tuple[int, ...]:
        """Batteries that can pay for a shield (``None``) or for the charged cannon tile ``purpose``.

        On a ship of several hulls (class IIA) charges power only their own half (rules §11.4).
        """
        m = self.model
        if not m.multi_hull:
            return m.battery_range
        g = self.hull if purpose is None else m.group[purpose]
        return tuple(i for i in m.battery_range if m.group[m.batteries[i]] == g)


class Policy:
    """How batteries are spent. Subclass and override :meth:`decide`."""

    name = "custom"
    #: True when decisions depend only on the state and the roll, not on which attack of the
    #: sequence it is; such a policy's transitions are shared between attacks in the memo.
    stationary = False

    def decide(self, sit: Situation) -> Decision:
        raise NotImplementedError


def first_draws(charges: list[int], k: int, allowed: tuple[int, ...]) -> tuple[int, ...] | None:
    """Take ``k`` charges from the first charged allowed battery in row-major order, repeatedly.

    ``charges`` is updated in place; ``None`` when they run out.
    """
    out = []
    for _ in range(k):
        b = next((i for i in allowed if charges[i] > 0), None)
        if b is None:
            return None
        charges[b] -= 1
        out.append(b)
    return tuple(out)


class DefaultPolicy(Policy):
    """Contract §4: defend whenever the rules allow and a charge is left."""

    name = "default"
    stationary = True

    def decide(self, sit: Situation) -> Decision:
        m = sit.model
        ch = list(sit.state[1])
        if sit.kind in ("small-meteor", "light-shot"):
            if any(sit.needs) and sit.shield_ok:
                d = first_draws(ch, 1, sit.payable(None))
                if d is not None:
                    return Decision(shield=True, draws=d)
            return Decision()
        cannons: list[int] = []
        draws: list[int] = []
        used: set[int] = set()
        for need, bearing in zip(sit.needs, sit.bearing):
            pick = -1
            if need and sit.kind == "large-meteor":
                for c in bearing:
                    if c in used:
                        continue
                    if m.free_cannon[c]:
                        pick = c
                        break
                    d = first_draws(ch, 1, sit.payable(c))
                    if d is not None:
                        draws += d
                        pick = c
                        break
            if pick >= 0:
                used.add(pick)
            cannons.append(pick)
        boosted = False
        if sit.boosted_ok and any(n and c < 0 for n, c in zip(sit.needs, cannons)):
            d = first_draws(ch, 2, sit.payable(None))
            if d is not None:
                draws += d
                boosted = True
        return Decision(cannons=tuple(cannons), boosted=boosted, draws=tuple(draws))


DEFAULT_POLICY = DefaultPolicy()


def board_outcomes(board: Board, front: int, side: str) -> tuple[tuple[Outcome, ...], tuple[int, ...]]:
    """Outcomes of an attack from ship-relative ``side`` on ``board`` for a ship whose front is board
    side ``front``, and the outcome index of each of the 36 dice pairs; cached on the board."""
    cache = board.__dict__.setdefault("_outcome_cache", {})
    key = (front, side)
    hit = cache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    redirect = board.redirect_map()
    groups: dict[tuple[int, str, int], int] = {}
    out: list[list[Any]] = []
    cell36 = []
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            direction = side
            if board.dice == "2d6":
                value = d1 + d2
            else:
                value = d1
                new = redirect.get(direction, {}).get(d1)
                if new is not None:
                    direction, value = new, d2
            bside = Side((DIRECTION_SIDE[direction] + front) % 4)
            g = (int(bside), direction, value)
            if g not in groups:
                groups[g] = len(out)
                out.append([0, int(bside), direction, value, board.lines_for(bside, value)])
            out[groups[g]][0] += 1
            cell36.append(groups[g])
    res = (tuple(Outcome(Fraction(c, 36), s, d, v, lines) for c, s, d, v, lines in out), tuple(cell36))
    cache[key] = res
    return res


@dataclass
class FlightModel:
    """A ship compiled for flight: tables over its tiles, and memoised transitions.

    ``track_crew=True`` puts the crew in every state (see the module docstring) even when it
    follows from the mask; it is always there when stasis chambers hold sleepers.
    """

    ship: Ship
    track_crew: bool = False
    n: int = 0
    squares: tuple[int, ...] = ()
    adj: tuple[int, ...] = ()  # join bitmask per tile
    group: tuple[int, ...] = ()  # hull group per tile
    batteries: tuple[int, ...] = ()  # tile index of each battery component, row-major
    free_cannon: dict[int, bool] = field(default_factory=dict)
    _cache: dict[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ship = self.ship
        b = ship.board
        tiles = ship.tiles
        self.n = n = len(tiles)
        self.tiles = tiles
        self.squares = tuple(t.at for t in tiles)
        pos = {at: k for k, at in enumerate(self.squares)}
        joined = Layout.of(ship).adj
        adj = []
        for at in self.squares:
            a = 0
            for j in joined[at]:
                a |= 1 << pos[j]
            adj.append(a)
        self.adj = tuple(adj)
        hulls = b.hulls(ship.dice)
        self.group = tuple(-1 if (h := hulls[at]) is None else h for at in self.squares)
        groups = sorted(set(self.group))
        self.multi_hull = len(groups) > 1
        #: per hull group, its tiles as a mask
        self.group_mask = {g: sum(1 << k for k in range(n) if self.group[k] == g) for g in groups}
        # the tiles by kind, in one pass (grid order)
        batteries: list[int] = []
        cabins: list[int] = []
        stasis: list[int] = []
        cannons: list[int] = []
        shields: list[int] = []
        boosters = alien_mask = 0
        for k, t in enumerate(tiles):
            kind = t.kind
            if kind in BATTERY_KINDS:
                batteries.append(k)
            elif kind in CABIN_KINDS:
                cabins.append(k)
            elif kind == "stasis_chamber":
                stasis.append(k)
            elif kind in FREE_CANNONS or kind in CHARGED_CANNONS:
                cannons.append(k)
            elif kind == "shield":
                shields.append(k)
            elif kind == "shield_booster":
                boosters |= 1 << k
            if t.crew in ALIENS:
                alien_mask |= 1 << k
        self.batteries = tuple(batteries)
        self.battery_range = tuple(range(len(batteries)))
        self.cabins = tuple(cabins)
        self.stasis = tuple(stasis)
        self.alien_mask = alien_mask
        self.cabin_mask = sum(1 << k for k in cabins)
        # crew tiles: a loss of their occupants is a crew loss (sleepers are not crew)
        self.crew_tiles = tuple(k for k in range(n) if (self.cabin_mask | alien_mask) >> k & 1)
        # per alien: the life supports of its colour joined to its tile (rules §4.2(5))
        self.supports = {
            k: sum(1 << j for j in range(n)
                   if adj[k] >> j & 1 and tiles[j].kind == "life_support" and tiles[j].attr("color") == tiles[k].crew)
            for k in range(n) if alien_mask >> k & 1
        }
        # per hull: its cabins (awake humans), the cabins sleepers wake into, its stasis chambers
        self.hull_crew = tuple(
            (tuple(k for k in cabins if self.group[k] == g),
             tuple(k for k in cabins if self.group[k] == g and tiles[k].kind != "luxury_cabin"),
             tuple(k for k in stasis if self.group[k] == g))
            for g in groups
        )
        self.cannons = tuple(cannons)
        self.free_cannon = {k: tiles[k].kind in FREE_CANNONS for k in cannons}
        # per cannon: the board sides its barrels face, its row and its column
        self.cannon_at = {k: (tiles[k].barrels, *divmod(tiles[k].at, b.width)) for k in cannons}
        self.shields = tuple(shields)
        self.covers = {k: tiles[k].covers for k in shields}  # the sides each shield covers
        self.boosters = boosters
        self.dynamic_crew = any(tiles[k].sleepers for k in stasis)  # only stasis chambers hold sleepers
        self.full = (1 << n) - 1
        self._ids: dict[int, int] = {}
        self._outcomes: dict[str, tuple[tuple[Outcome, ...], tuple[int, ...]]] = {}  # by the attack's side
        self._states: list[int] = []  # packed states by id

    @cached_property
    def line_order(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """Per (board side, grid line): the tiles of the line in the order an attack from that side
        meets them."""
        w, h = self.ship.board.width, self.ship.board.height
        out: dict[tuple[int, int], tuple[int, ...]] = {}
        for side in range(4):
            for line in range(w if side in (0, 2) else h):
                ks = []
                for k, t in enumerate(self.tiles):
                    r, c = divmod(t.at, w)
                    if (c if side in (0, 2) else r) == line:
                        ks.append((r if side in (0, 2) else c, k))
                ks.sort(reverse=side in (1, 2))
                out[(side, line)] = tuple(k for _, k in ks)
        return out

    # -- states ----------------------------------------------------------------------------------
    def initial(self) -> State:
        """The ship at launch: every tile aboard, the batteries' charges, the crew as written."""
        charges = tuple(self.tiles[k].charges for k in self.batteries)
        crew = None
        if self.track_crew or self.dynamic_crew:
            crew = tuple(ALIEN if t.crew in ALIENS else t.humans + t.sleepers for t in self.tiles)
        return (self.full, charges, crew)

    def state_id(self, st: State) -> int:
        """A small integer naming ``st`` in this model (the Monte Carlo engine's arrays hold these)."""
        return self.packed_id(self.kernel.pack(st))

    def packed_id(self, p: int) -> int:
        i = self._ids.get(p)
        if i is None:
            i = self._ids[p] = len(self._states)
            self._states.append(p)
        return i

    def state(self, i: int) -> State:
        return self.kernel.unpack(self._states[i])

    def humans(self, st: State) -> int:
        """Awake humans aboard (sleepers and aliens are not humans)."""
        mask, _, crew = st
        if crew is None:
            return sum(self.tiles[k].humans for k in self.cabins if mask >> k & 1)
        return sum(c for k in self.cabins if mask >> k & 1 and (c := crew[k]) > 0)

    def aliens(self, st: State) -> dict[int, str]:
        """The aliens aboard: tile index -> colour."""
        mask, _, crew = st
        if crew is None:
            # without a crew tuple an alien stays while its tile and (if it had one) a joined life
            # support of its colour are aboard
            return {k: self.tiles[k].crew or "" for k, sup in self.supports.items()
                    if mask >> k & 1 and (not sup or sup & mask)}
        return {k: self.tiles[k].crew or "" for k in self.supports if mask >> k & 1 and crew[k] == ALIEN}

    def crew_count(self, st: State) -> int:
        """Crew (rules §4.3): awake humans and aliens; sleepers are not crew."""
        return self.humans(st) + len(self.aliens(st))

    def lost(self, st: State) -> int:
        return self.n - bin(st[0]).count("1")

    # -- dice ------------------------------------------------------------------------------------
    def outcomes(self, attack: Attack) -> tuple[tuple[Outcome, ...], tuple[int, ...]]:
        """The outcomes of an attack and, for each of the 36 dice pairs (d1, d2), its outcome index.

        They depend only on the board, the ship's front and the attack's side: they are computed
        once per board and shared by every model of a ship on it."""
        hit = self._outcomes.get(attack.side)
        if hit is None:
            hit = self._outcomes[attack.side] = board_outcomes(self.ship.board, int(self.ship.front_side),
                                                               attack.side)
        return hit

    # -- one roll --------------------------------------------------------------------------------
    def situation(self, st: State, attack: Attack, a_index: int, o: Outcome) -> Situation:
        mask, charges, _ = st
        kind = attack.kind
        hits: list[int] = []
        needs: list[bool] = []
        bearing: list[tuple[int, ...]] = []
        side = o.side
        tol = 0 if o.direction == "front" else 1
        for line in o.lines:
            k = next((k for k in self.line_order[(side, line)] if mask >> k & 1), -1)
            hits.append(k)
            if k < 0:
                needs.append(False)
                bearing.append(())
                continue
            t = self.tiles[k]
            facing = t.eff[side]
            if kind == "small-meteor":
                need = facing != 0
            else:
                # plating: a plated (smooth) side shrugs off every meteor and shot
                need = not (t.kind == "plating" and facing == 0)
            needs.append(need)
            if kind == "large-meteor":
                free: list[int] = []
                paid: list[int] = []
                for c in self.cannons:
                    if not mask >> c & 1:
                        continue
                    barrels, r, col = self.cannon_at[c]
                    if side not in barrels:
                        continue
                    coord = col if side in (0, 2) else r
                    if abs(coord - line) <= tol:
                        (free if self.free_cannon[c] else paid).append(c)
                bearing.append(tuple(free + paid))
            else:
                bearing.append(())
        hull = None
        shields = self.shields
        if self.multi_hull:
            # a shield protects only its own half (rules §8.5, §11.4): hits in two hulls get none
            groups = {self.group[k] for k, need in zip(hits, needs) if need}
            hull = groups.pop() if len(groups) == 1 else None
            shields = tuple(s for s in shields if self.group[s] == hull)
        shield_ok = any(mask >> s & 1 and side in self.covers[s] for s in shields)
        boosted_ok = any(
            mask >> s & 1 and side in self.covers[s] and self.adj[s] & self.boosters & mask
            for s in shields
        )
        return Situation(self, st, a_index, kind, o, tuple(hits), tuple(needs), shield_ok, boosted_ok,
                         tuple(bearing), hull)

    def apply(self, sit: Situation, d: Decision) -> State:
        """The state after a roll, given the player's decision (checked against the rules)."""
        mask, charges, crew = sit.state
        ch = list(charges)
        for bi in d.draws:
            if not (mask >> self.batteries[bi] & 1) or ch[bi] <= 0:
                raise ValueError(f"policy drew a charge from an empty or lost battery {bi}")
            ch[bi] -= 1
        need_charges = (1 if d.shield else 0) + (2 if d.boosted else 0)
        need_charges += sum(1 for c in d.cannons if c >= 0 and not self.free_cannon[c])
        if need_charges != len(d.draws):
            raise ValueError(f"decision spends {need_charges} charge(s) but draws {len(d.draws)}")
        if d.shield and not sit.shield_ok:
            raise ValueError("no shield covers that side")
        if d.boosted and not sit.boosted_ok:
            raise ValueError("no boosted shield covers that side")
        destroyed = 0
        cannons = d.cannons or (-1,) * len(sit.hits)
        for k, need, c, bearing in zip(sit.hits, sit.needs, cannons, sit.bearing):
            if k < 0 or not need:
                continue
            if c >= 0:
                if c not in bearing:
                    raise ValueError(f"cannon {c} does not bear on that line")
                continue
            if d.boosted:
                continue
            if d.shield and sit.kind in ("small-meteor", "light-shot"):
                continue
            destroyed |= 1 << k
        if not destroyed:
            return self._canon(mask, ch, crew)
        new = self.split(mask & ~destroyed, crew)
        if crew is not None:
            crew = self.after_loss(mask, new, crew)
        return self._canon(new, ch, crew)

    def _canon(self, mask: int, ch: list[int], crew: tuple[int, ...] | None) -> State:
        for bi, k in enumerate(self.batteries):
            if not mask >> k & 1:
                ch[bi] = 0
        if crew is not None:
            crew = tuple([c if mask >> k & 1 else 0 for k, c in enumerate(crew)])
        return (mask, tuple(ch), crew)

    def pieces(self, mask: int) -> list[int]:
        """The pieces (joined components) of the tiles in ``mask``, in order of their first tile."""
        out = []
        rem = mask
        adj = self.adj
        while rem:
            low = rem & -rem
            comp = low
            frontier = low
            while frontier:
                nxt = 0
                f = frontier
                while f:
                    b = f & -f
                    nxt |= adj[b.bit_length() - 1]
                    f ^= b
                nxt &= mask & ~comp
                comp |= nxt
                frontier = nxt
            out.append(comp)
            rem &= ~comp
        return out

    def _piece_humans(self, p: int, crew: tuple[int, ...] | None) -> int:
        if crew is None:
            return sum(self.tiles[k].humans for k in self.cabins if p >> k & 1)
        return sum(c for k in self.cabins if p >> k & 1 and (c := crew[k]) > 0)

    def split(self, mask: int, crew: tuple[int, ...] | None) -> int:
        """The kept ship after a hit: per hull, the piece with the most humans, then the most
        components, then the first square in row-major order (contract §4)."""
        ps = self.pieces(mask)
        if len(ps) <= 1:
            return mask

        def score(p: int) -> tuple[int, int, int]:
            return (-self._piece_humans(p, crew), -bin(p).count("1"), (p & -p).bit_length())

        if not self.multi_hull:
            return min(ps, key=score)
        kept = 0
        for gm in self.group_mask.values():
            cands = [p for p in ps if p & gm]
            if cands:
                kept |= min(cands, key=score)
        return kept

    def after_loss(self, old: int, new: int, crew: tuple[int, ...]) -> tuple[int, ...]:
        """The crew once the tiles of ``old`` not in ``new`` have left the ship.

        An alien whose lost life support was the last one of its colour joined to its cabin leaves
        with it (rules §4.2(5)). After a crew loss (an occupied cabin gone, or an alien freed)
        sleepers wake (:meth:`wake`); an empty cabin lost wakes no one (contract §4).
        """
        left = old & ~new
        c = list(crew)
        loss = any(left >> k & 1 and c[k] for k in self.crew_tiles)
        for k, sup in self.supports.items():
            if new >> k & 1 and c[k] == ALIEN and sup & left and not sup & new:
                c[k] = 0
                loss = True
        for k in range(self.n):
            if left >> k & 1:
                c[k] = 0
        return self.wake(new, tuple(c)) if loss else tuple(c)

    def wake(self, mask: int, crew: tuple[int, ...]) -> tuple[int, ...]:
        """Sleepers woken after a crew loss (contract §4): per hull that still holds an awake human,
        into the empty places of its ordinary cabins and pilot cabin (2 each; a cabin an alien left
        counts as empty, a luxury cabin never), cabins and chambers in row-major order.

        The caller decides that a crew loss happened (:meth:`apply` does after a hit; a round engine
        after crew is lost to a card)."""
        c = list(crew)
        for cabins, targets, chambers in self.hull_crew:
            if not chambers or not any(mask >> k & 1 and c[k] > 0 for k in cabins):
                continue
            for k in targets:
                if not mask >> k & 1 or c[k] < 0:
                    continue
                for s in chambers:
                    while c[k] < WAKE_PLACES and mask >> s & 1 and c[s] > 0:
                        c[k] += 1
                        c[s] -= 1
        return tuple(c)

    def step(self, st: State, attack: Attack, a_index: int, oi: int, policy: Policy) -> State:
        """Memoised transition: state, attack, outcome index -> next state.

        The default policy runs on the compiled :attr:`kernel`; any other policy through :meth:`play`.
        """
        key = (st, attack.kind, attack.side, oi, policy, -1 if policy.stationary else a_index)
        nxt = self._cache.get(key)
        if nxt is None:
            if type(policy) is DefaultPolicy:
                k = self.kernel
                nxt = k.unpack(k.each(k.pack(st), attack)[oi])
            else:
                nxt = self.play(st, attack, a_index, oi, policy)
            self._cache[key] = nxt
        return nxt

    def play(self, st: State, attack: Attack, a_index: int, oi: int, policy: Policy) -> State:
        """One roll played through :class:`Situation`, ``policy.decide`` and :meth:`apply` (not memoised)."""
        o = self.outcomes(attack)[0][oi]
        if not o.lines:
            return st
        sit = self.situation(st, attack, a_index, o)
        return self.apply(sit, policy.decide(sit))

    @cached_property
    def kernel(self) -> Kernel:
        """The model compiled to packed states (:mod:`shipcheck.flight.kernel`), built on first use."""
        from .kernel import Kernel

        return Kernel(self)

    # -- decisions for optimisation --------------------------------------------------------------
    def decisions(self, sit: Situation) -> Iterator[Decision]:
        """Every legal decision against a roll (the optimal policy searches these)."""
        charges = sit.state[1]
        total = sum(charges)
        shield_opts = [False] + ([True] if sit.shield_ok and total >= 1 and sit.kind in (
            "small-meteor", "light-shot") and any(sit.needs) else [])
        per_line: list[list[int]] = []
        for need, bearing in zip(sit.needs, sit.bearing):
            per_line.append([-1] + (list(bearing) if need and sit.kind == "large-meteor" else []))
        boost_opts = [False] + ([True] if sit.boosted_ok and total >= 2 and sit.kind in (
            "large-meteor", "heavy-shot") and any(sit.needs) else [])
        seen: set[Any] = set()
        for shield, combo, boosted, purposes in defences(shield_opts, per_line, boost_opts, sit.payable(None),
                                                         sit.payable, self.free_cannon):
            if len(purposes) > total:
                continue
            for draws in _draw_choices(list(charges), purposes):
                key = (shield, boosted, combo, tuple(sorted(draws)))
                if key in seen:
                    continue
                seen.add(key)
                yield Decision(shield=shield, boosted=boosted, cannons=tuple(combo), draws=draws)


def defences(shield_opts: list[bool], per_line: list[list[int]], boost_opts: list[bool], ship_pay: tuple[int, ...],
             cannon_pay: Callable[[int], tuple[int, ...]], free: Mapping[int, bool]
             ) -> Iterator[tuple[bool, tuple[int, ...], bool, list[tuple[int, ...]]]]:
    """Every defence against a roll: (shield, cannon per line or -1, boosted shield, the batteries
    allowed to pay each charge it costs). A cannon fires at one line at most."""
    for shield in shield_opts:
        for combo in itertools.product(*per_line):
            used = [c for c in combo if c >= 0]
            if len(used) != len(set(used)):
                continue
            for boosted in boost_opts:
                purposes = [ship_pay] if shield else []
                purposes += [cannon_pay(c) for c in used if not free[c]]
                if boosted:
                    purposes += [ship_pay, ship_pay]
                yield shield, combo, boosted, purposes


def _draw_choices(charges: list[int], purposes: list[tuple[int, ...]]) -> Iterator[tuple[int, ...]]:
    """Ways to pay one charge per purpose from the batteries each purpose allows."""
    if not purposes:
        yield ()
        return
    for b in purposes[0]:
        if charges[b] > 0:
            charges[b] -= 1
            for rest in _draw_choices(charges, purposes[1:]):
                yield (b,) + rest
            charges[b] += 1


def describe_decision(model: FlightModel, d: Decision) -> str:
    b = model.ship.board
    parts = []
    if d.shield:
        parts.append("activate a shield")
    fired = [c for c in d.cannons if c >= 0]
    if fired:
        parts.append("fire " + ", ".join(f"{model.tiles[c].kind} at {b.cell_text(model.squares[c])}" for c in fired))
    if d.boosted:
        parts.append("use a boosted shield")
    if d.draws:
        parts.append("charges from " + ", ".join(b.cell_text(model.squares[model.batteries[i]]) for i in d.draws))
    return "; ".join(parts) if parts else "do nothing"
