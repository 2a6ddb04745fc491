"""The flight model shared by the exact and the Monte Carlo engines.

A ship in flight is a *state* ``(mask, charges, crew)``: the tiles still aboard (a bitmask in grid
order), the charges left in each battery, and the crew (``None`` when it follows from the mask,
else the occupants per tile; docs/flight-states.md). Every rule reads the crew from the state, so
a caller may change it between attacks and keep stepping. An attack's roll is one of at most 36
equally likely dice pairs, grouped into *outcomes* (a board side and the lines it names); a policy
turns a state and an outcome into a :class:`Decision`, and :meth:`FlightModel.step` gives the next
state. Both engines walk the same memoised transitions, so Monte Carlo converges to the exact odds.

Contract §4 is the default policy. Facts the rules leave open are marked where they are used:
boosted shields (OQ24) are a last resort after cannons; the first tile of a line on a wrap board
is the one nearest the printed edge (OQ10).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from shipcheck.cards import Attack
from shipcheck.check.rules import Layout
from shipcheck.errors import InputError, check_type
from shipcheck.flight.kernel import (
    ALIEN as ALIEN,  # the crew value of a tile holding an alien (its colour: the tile's crew)
)
from shipcheck.flight.kernel import Decision as Decision  # (Decision, Outcome, State: the kernel defines them)
from shipcheck.flight.kernel import Kernel, cost, offers
from shipcheck.flight.kernel import Outcome as Outcome
from shipcheck.flight.kernel import State as State
from shipcheck.model import ALIENS, BATTERY_KINDS, CABIN_KINDS, CHARGED_CANNONS, FREE_CANNONS, Ship

if TYPE_CHECKING:
    from shipcheck.topology import Board

KINDS = ("small-meteor", "large-meteor", "light-shot", "heavy-shot")
DIRS = ("front", "right", "rear", "left")
_SIZE = {"small-meteor": "small", "large-meteor": "large", "light-shot": "light", "heavy-shot": "heavy"}

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


class DefaultPolicy(Policy):
    """Contract §4: defend whenever the rules allow and a charge is left."""

    name = "default"
    stationary = True

    def decide(self, sit: Situation) -> Decision:
        # the engine's own default decision (engine.defence.decide_default), not a copy of it: a
        # shield against a small meteor or a light shot that needs it; per line of a large meteor
        # the first cannon that bears (free ones first); a boosted shield for what is left open;
        # each charge from the first charged battery that may pay
        shield, boosted, cannons, draws = sit.model.kernel.default_decision(sit.state, sit.kind, sit.outcome)
        means = offers(sit.kind)
        if not (means.cannon or means.boosted):
            return Decision(shield=shield, draws=draws)
        return Decision(cannons=cannons, boosted=boosted, draws=draws)


DEFAULT_POLICY = DefaultPolicy()


def board_outcomes(board: Board, front: int, side: str) -> tuple[tuple[Outcome, ...], tuple[int, ...]]:
    """Outcomes of an attack from ship-relative ``side`` on ``board`` for a ship whose front is board
    side ``front``, and the outcome index of each of the 36 dice pairs (the lines each names: the
    engine's :func:`~shipcheck.engine.layout.roll_line`); cached on the board."""
    cache = board.__dict__.setdefault("_outcome_cache", {})
    key = (front, side)
    hit = cache.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    from shipcheck.engine.layout import roll_line  # (numpy: imported where the dice are first rolled)

    groups: dict[tuple[int, str, int], int] = {}
    out: list[list[Any]] = []
    cell36 = []
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            bside, direction, value, lines = roll_line(board, front, side, d1, d2)  # the engine's rule
            g = (bside, direction or side, value)
            if g not in groups:
                groups[g] = len(out)
                out.append([0, bside, direction or side, value, lines])
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
        check_type(self.ship, Ship, "ship", "a Ship (see load_ship)")
        if not isinstance(self.track_crew, bool):
            raise InputError("bad `track_crew`", key="track_crew", value=self.track_crew, expected="True or False")
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
        self.shields = tuple(shields)
        self.boosters = boosters
        self.dynamic_crew = any(tiles[k].sleepers for k in stasis)  # only stasis chambers hold sleepers
        self.full = (1 << n) - 1
        self._ids: dict[int, int] = {}
        self._states: list[int] = []  # packed states by id

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
        """Awake humans aboard (sleepers and aliens are not humans; the engine's count)."""
        k = self.kernel
        return k.humans(k.pack(st))

    def aliens(self, st: State) -> dict[int, str]:
        """The aliens aboard: tile index -> colour."""
        k = self.kernel
        crew = k.crew_of(k.pack(st))
        return {t: self.tiles[t].crew or "" for t in self.supports if st[0] >> t & 1 and crew[t] == ALIEN}

    def crew_count(self, st: State) -> int:
        """Crew (rules §4.3): awake humans and aliens; sleepers are not crew (the engine's count)."""
        k = self.kernel
        return k.crew_count(k.pack(st))

    def lost(self, st: State) -> int:
        """Components lost (the engine's count)."""
        return self.kernel.lost(st[0])

    def wake(self, mask: int, crew: tuple[int, ...]) -> tuple[int, ...]:
        """Sleepers woken after a crew loss (contract §4): per hull that still holds an awake human,
        into the empty places of its ordinary cabins and pilot cabin (2 each; a cabin an alien left
        counts as empty, a luxury cabin never). The caller decides that a crew loss happened
        (:meth:`apply` does after a hit; a round after crew is lost to a card). The engine's rule
        (:func:`shipcheck.engine.crew.wake`)."""
        return self.kernel.wake(mask, crew)

    # -- dice ------------------------------------------------------------------------------------
    def outcomes(self, attack: Attack) -> tuple[tuple[Outcome, ...], tuple[int, ...]]:
        """The outcomes of an attack and, for each of the 36 dice pairs (d1, d2), its outcome index.

        They depend only on the board, the ship's front and the attack's side: they are computed
        once per board and shared by every model of a ship on it."""
        return board_outcomes(self.ship.board, int(self.ship.front_side), attack.side)

    # -- one roll --------------------------------------------------------------------------------
    def situation(self, st: State, attack: Attack, a_index: int, o: Outcome) -> Situation:
        """What a policy sees of a roll: the engine's situation (:meth:`Kernel.situation
        <shipcheck.flight.kernel.Kernel.situation>`)."""
        return Situation(self, st, a_index, attack.kind, o, *self.kernel.situation(st, attack.kind, o))

    def apply(self, sit: Situation, d: Decision) -> State:
        """The state after a roll, given the player's decision (checked against the rules by the
        engine: a ValueError for one they do not allow)."""
        return self.kernel.apply(sit.state, sit.kind, sit.outcome, d)

    def step(self, st: State, attack: Attack, a_index: int, oi: int, policy: Policy) -> State:
        """Memoised transition: state, attack, outcome index -> next state (the default policy's
        defence is the engine's own; any other policy decides on the engine's situation)."""
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
        d = policy.decide(sit)
        if not isinstance(d, Decision):
            raise InputError(f"policy {policy.name!r} decided {type(d).__name__}, not a Decision", key="policy",
                             value=d, expected="Decision(shield=, boosted=, cannons=, draws=)")
        try:
            return self.apply(sit, d)
        except InputError:
            raise
        except (ValueError, TypeError, IndexError) as exc:  # the engine's check of what the rules allow
            raise InputError(f"policy {policy.name!r} decided what the rules do not allow here ({exc})",
                             key="policy", value=d, expected="a decision FlightModel.decisions(situation) lists"
                             ) from None

    @cached_property
    def kernel(self) -> Kernel:
        """The model's packed states and the engine's transitions (:mod:`shipcheck.flight.kernel`), built on
        first use."""
        return Kernel(self)

    # -- decisions for optimisation --------------------------------------------------------------
    def decisions(self, sit: Situation) -> Iterator[Decision]:
        """Every legal decision against a roll (the optimal policy searches these)."""
        charges = sit.state[1]
        total = sum(charges)
        shield_opts, per_line, boost_opts = defence_options(
            sit.kind, any(sit.needs) and sit.shield_ok, any(sit.needs) and sit.boosted_ok, total,
            [bearing if need else () for need, bearing in zip(sit.needs, sit.bearing)])
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


def defence_options(kind: str, shields: bool, boosted: bool, charges: int, bearing: Sequence[Sequence[int]]
                    ) -> tuple[list[bool], list[list[int]], list[bool]]:
    """Which defences a roll of ``kind`` allows, for :func:`defences`: those the engine offers
    against it (:func:`shipcheck.flight.kernel.offers`, the rule's one home
    :func:`shipcheck.engine.defence.offers`: a shield against small meteors and light shots, a
    boosted shield against large meteors and heavy shots, a cannon that bears against a large
    meteor) that are aboard and that ``charges`` pay for (:func:`shipcheck.flight.kernel.cost`): a
    shield (``shields``: one covers the side), a boosted shield (``boosted``: one joined to a
    booster covers the side), per line that needs defending a cannon of ``bearing`` (those aboard
    that bear on it) or none (-1). What each stops is the engine's
    (:func:`shipcheck.engine.defence.left_open`)."""
    means = offers(kind)
    shield_opts = [False, True] if shields and means.shield and charges >= cost("shield") else [False]
    boost_opts = [False, True] if boosted and means.boosted and charges >= cost("boosted") else [False]
    per_line = [[-1] + (list(b) if means.cannon else []) for b in bearing]
    return shield_opts, per_line, boost_opts


def defences(shield_opts: list[bool], per_line: list[list[int]], boost_opts: list[bool], ship_pay: tuple[int, ...],
             cannon_pay: Callable[[int], tuple[int, ...]], free: Mapping[int, bool]
             ) -> Iterator[tuple[bool, tuple[int, ...], bool, list[tuple[int, ...]]]]:
    """Every defence against a roll: (shield, cannon per line or -1, boosted shield, the batteries
    allowed to pay each charge it costs, :func:`shipcheck.flight.kernel.cost`). A cannon fires at one
    line at most."""
    n_shield, n_boosted = cost("shield"), cost("boosted")
    for shield in shield_opts:
        for combo in itertools.product(*per_line):
            used = [c for c in combo if c >= 0]
            if len(used) != len(set(used)):
                continue
            for boosted in boost_opts:
                purposes = [ship_pay] * n_shield if shield else []
                for c in used:
                    purposes += [cannon_pay(c)] * cost("cannon", free[c])
                if boosted:
                    purposes += [ship_pay] * n_boosted
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
