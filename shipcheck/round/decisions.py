"""The Python side of the players' decisions: what the engine asks a policy of one's own.

A :class:`~shipcheck.round.policy.RoundPolicy` whose class overrides a decision (``open_space``,
``fight``, ``planet``, ...), or whose flight policy is not the default one, is asked that decision
by the engine (:mod:`shipcheck.engine.decide`) through :class:`Answers`: the state row becomes a
:class:`~shipcheck.round.policy.View` (the round state as tuples, the ship's model), the policy
answers, and the answer goes back as a number (or into the engine's scratch array: a crew order, a
flight decision). Answers are kept per distinct question, so a policy is asked once per state and
card, as the rules ask a player. Every other decision is the built-in policies' compiled code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shipcheck.cards import Attack, Card
from shipcheck.engine import layout as L
from shipcheck.flight.chain import Decision, Outcome, Policy, Situation
from shipcheck.flight.chain import DefaultPolicy as FlightDefault
from shipcheck.flight.kernel import offers, write_decision
from shipcheck.round.policy import PlanetOption, RacingPolicy, RoundPolicy, View
from shipcheck.round.state import CODE, Firepower, RState, ShipModel

__all__ = ["Answers", "asks", "base_policy", "flight_answer"]

#: RoundPolicy's methods, in the order of the engine's decisions (layout.DECISIONS[1:])
METHODS = ("open_space", "fight", "combat", "take_reward", "planet", "abandoned_ship", "abandoned_station",
           "crew_order", "give_up", "hyperspace", "diplomat")


def base_policy(pol: RoundPolicy) -> int:
    """The built-in code a policy's other decisions fly: 1 racing, 0 default."""
    return 1 if isinstance(pol, RacingPolicy) else 0


def asks(pol: RoundPolicy) -> int:
    """The decisions asked of ``pol`` in Python: a bit per method its class overrides (against the
    built-in policy it derives from), and ``flight`` when its flight policy is not the default one."""
    base = RacingPolicy if isinstance(pol, RacingPolicy) else RoundPolicy
    bits = 0
    for i, name in enumerate(METHODS, start=1):
        if getattr(type(pol), name) is not getattr(base, name):
            bits |= 1 << i
    if type(pol.flight) is not FlightDefault:
        bits |= 1 << int(L.D_FLIGHT)
    return bits


def _situation(m: ShipModel, x: np.ndarray, kind: int, d: int, roll: int, ai: int, tmp: np.ndarray,
               offsets: tuple[int, ...] | None = None) -> Situation:
    """The engine's situation of a roll (``tmp[SIT + ...]``) as a :class:`~shipcheck.flight.chain.Situation`."""
    fm = m.fm
    S = m.tables()
    attack_side = L.DIRECTIONS[d]
    outcomes, cells = fm.outcomes(_attack(kind, attack_side))
    o: Outcome = outcomes[cells[roll]]
    st = m.state_of(x, offsets)
    nl = int(tmp[L.SIT + L.SIT_NL])
    hits = tuple(int(tmp[L.SIT + L.SIT_HIT + i]) for i in range(nl))
    needs = tuple(bool(tmp[L.SIT + L.SIT_NEED + i]) for i in range(nl))
    side, tol = int(tmp[L.SIT + L.SIT_SIDE]), int(tmp[L.SIT + L.SIT_TOL])
    bearing: list[tuple[int, ...]] = []
    cannon = offers(L.KINDS[kind]).cannon
    for i in range(nl):
        if not cannon or hits[i] < 0:
            bearing.append(())
            continue
        row = L.BRG + side * 2 * L.LMAX + tol * L.LMAX + int(tmp[L.SIT + L.SIT_LINE + i])
        cs = []
        for c in S[0, row]:
            if c < 0:
                break
            if st[0] >> int(c) & 1:
                cs.append(int(c))
        bearing.append(tuple(cs))
    hull_i = int(tmp[L.SIT + L.SIT_HULL])
    hull = m.hulls[hull_i] if m.multi and hull_i >= 0 else None
    return Situation(fm, (st[0], st[1], st[2]), ai, L.KINDS[kind], o, hits, needs, bool(tmp[L.SIT + L.SIT_SHIELDS]),
                     bool(tmp[L.SIT + L.SIT_BOOSTED]), tuple(bearing), hull)


def _attack(kind: int, side: str) -> Any:
    from shipcheck.cards import Attack

    return Attack(size=L.KINDS[kind].split("-")[0], side=side)


def flight_answer(m: ShipModel, policy: Policy, x: np.ndarray, kind: int, d_roll: int, ai: int,
                  tmp: np.ndarray, offsets: tuple[int, ...] | None = None) -> int:
    """A flight policy's decision against the roll whose situation the engine wrote in ``tmp``,
    written into ``tmp[DEC + ...]`` for the engine to check and apply (``offsets``: of the table
    ``x`` belongs to)."""
    d, roll = divmod(int(d_roll), 64)
    sit = _situation(m, x, int(kind), d, roll, int(ai), tmp, offsets)
    dec = policy.decide(sit)
    if not isinstance(dec, Decision):
        raise TypeError(f"{type(policy).__name__}.decide returned {type(dec).__name__}, not a Decision")
    write_decision(dec, len(sit.hits), tmp)
    return 0


def flight_step(m: ShipModel, st: RState, attack: Attack, ai: int, oi: int, policy: Policy) -> RState:
    """Outcome ``oi`` of ``attack`` (attack ``ai`` of its card) against ship ``m`` in round state
    ``st``, defended as the flight ``policy`` decides (asked in Python, as a round asks it; the
    engine's default policy runs compiled: :meth:`ShipModel.flight_step`)."""
    from shipcheck import engine, runtime

    if type(policy) is FlightDefault:
        return m.flight_step(st, attack, ai, oi)
    roll = m.fm.outcomes(attack)[1].index(oi)
    kind, d = L.KINDS.index(attack.kind), L.DIRECTIONS.index(attack.side)
    S = m.tables().copy()
    S[0, L.V, L.ASK] = 1 << int(L.D_FLIGHT)
    key = runtime.new_key()
    S[:, L.V, L.TID] = key

    def answer(dec: int, p: int, x: np.ndarray, a0: int, a1: int, a2: int, tmp: np.ndarray) -> int:
        return flight_answer(m, policy, x, a0, a1, a2, tmp)

    runtime.state.callbacks[key] = answer
    try:
        x = m.row(st)
        with np.errstate(over="ignore"):
            engine.function("defence", "flight_step")(S, 0, x, kind, d, roll, ai, np.zeros(64, dtype=np.int64),
                                                     np.zeros(L.TMP, dtype=np.int64))
    finally:
        runtime.state.callbacks.pop(key, None)
    return m.state_of(x)


class Answers:
    """The answers of a table's players' own policies (registered in ``shipcheck.runtime.state.callbacks``
    while the engine flies their runs), kept per distinct question."""

    def __init__(self, table: Any, cards: Sequence[Card]) -> None:
        self.models: list[ShipModel] = table.models
        self.policies: list[RoundPolicy] = table.policies
        self.prices = table.prices
        self.cards = tuple(cards)
        self.memo: dict[Any, tuple[int, tuple[int, ...]]] = {}
        self.offsets = tuple(int(v) for v in table.tables(self.cards)["S"][0, L.OFFS, :4])

    #: answers kept between chunks; past this they are asked afresh (memory stays bounded)
    MAX_ANSWERS = 200_000

    def bound(self) -> None:
        """Forget the answers once there are :data:`MAX_ANSWERS` (the policy answers again)."""
        if len(self.memo) > self.MAX_ANSWERS:
            self.memo.clear()

    def __call__(self, d: int, p: int, x: np.ndarray, a0: int, a1: int, a2: int, tmp: np.ndarray) -> int:
        d, p, a0, a1, a2 = int(d), int(p), int(a0), int(a1), int(a2)
        pol = self.policies[p]
        if d == L.D_FLIGHT:
            key: Any = (d, p, x.tobytes(), a0, a1, a2 if not pol.flight.stationary else -1)
            region = (L.DEC, L.DEC + L.DEC_DRAW + L.DEC_DRAWS)
        elif d == L.D_CREW:
            key = (d, p, x.tobytes())
            region = (L.ORDER, L.ORDER + 64)
        else:
            key = (d, p, x.tobytes(), a0, a1, a2)
            region = None
        hit = self.memo.get(key)
        if hit is not None:
            r, extra = hit
            if region is not None:
                tmp[region[0]:region[1]] = extra
            return r
        r = self._answer(d, p, x, a0, a1, a2, tmp)
        extra = tuple(int(v) for v in tmp[region[0]:region[1]]) if region is not None else ()
        self.memo[key] = (r, extra)
        return r

    def _answer(self, d: int, p: int, x: np.ndarray, a0: int, a1: int, a2: int, tmp: np.ndarray) -> int:
        m, pol = self.models[p], self.policies[p]
        if d == L.D_FLIGHT:
            return flight_answer(m, pol.flight, x, a0, a1, a2, tmp, self.offsets)
        view = View(m, m.state_of(x, self.offsets), self.prices)
        if d == L.D_OPEN_SPACE:
            return max(0, int(pol.open_space(view)))
        if d == L.D_FIGHT:
            choice = pol.fight(view, a0)
            if not isinstance(choice, Firepower):
                raise TypeError(f"{type(pol).__name__}.fight returned {type(choice).__name__}, not a Firepower")
            boost = choice.boost if 0 <= choice.boost < 63 else -1
            return max(0, int(choice.charges)) * 64 + boost + 1
        if d == L.D_COMBAT:
            return max(0, int(pol.combat(view, L.CRITERIA[a0])))
        if d == L.D_CREW:
            order = [int(k) for k in pol.crew_order(view) if 0 <= int(k) < m.n][:64]
            tmp[L.ORDER:L.ORDER + len(order)] = order
            return len(order)
        if d == L.D_GIVE_UP:
            return int(bool(pol.give_up(view)))
        card = self.cards[a0]  # the decisions below are about card a0
        if d == L.D_REWARD:
            return int(bool(pol.take_reward(view, card)))
        if d == L.D_PLANET:
            return self._planet(pol, view, card, a1, a2)
        if d == L.D_SHIP:
            return int(bool(pol.abandoned_ship(view, card, a1)))
        if d == L.D_STATION:
            goods = tuple(sorted(card.goods, key=lambda c: CODE[c]))
            return int(bool(pol.abandoned_station(view, card, goods[:-1] if a1 else goods)))
        if d == L.D_HYPERSPACE:
            want = pol.hyperspace(view, card)
            if want is True:
                return -1
            if not want:
                return 0
            return sum(1 << i for i, h in enumerate(m.hulls) if h in want)  # type: ignore[operator]
        if d == L.D_DIPLOMAT:
            return int(bool(pol.diplomat(view, card, L.PENALTIES[a1])))
        raise ValueError(f"decision {d}: no such decision")

    @staticmethod
    def _planet(pol: RoundPolicy, view: View, card: Card, free: int, share: int) -> int:
        opts = [PlanetOption(i, g) for i, g in enumerate(card.planets) if free >> i & 1]
        if share:
            for i, g in enumerate(card.planets):
                if not free >> i & 1:
                    less = sorted(g, key=lambda c: CODE[c])[:-1]  # drops the least valuable
                    opts.append(PlanetOption(i, tuple(less), shared=True))
        if not opts:
            return -1
        pick = pol.planet(view, card, tuple(opts))
        if pick is None:
            return -1
        o = opts[pick]
        return o.index + 64 * int(o.shared)
