"""The exact engine as it was before the integer kernel, kept to check and measure the engine.

:func:`forward_fractions` pushes a distribution of public states through the attacks in
:class:`~fractions.Fraction` arithmetic, every roll played through ``FlightModel.play``
(Situation, ``policy.decide``, apply) and memoised per (state, roll): give it the oracle's flight
model (:mod:`oracle.flight`, the rules written out in plain Python) to hold the package's engine to
an independent reading of the rules. :class:`UnreducedOptimal` is the optimal policy's search over
every legal decision, every way of paying for it included. Tests hold the engine to these answers
fraction for fraction; ``benchmarks/`` measures against them (with ``tests`` on ``sys.path``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from shipcheck.cards import Attack

from .flight import DEFAULT_POLICY, Decision, FlightModel, Policy, State


def forward_fractions(m: FlightModel, attacks: Sequence[Attack], policy: Policy = DEFAULT_POLICY
                      ) -> tuple[dict[State, Fraction], int]:
    """Final distribution over states and the number of (attack, state) pairs expanded."""
    memo: dict[Any, State] = {}
    dist: dict[State, Fraction] = {m.initial(): Fraction(1)}
    expanded = 0
    for ai, a in enumerate(attacks):
        outs, _ = m.outcomes(a)
        new: dict[State, Fraction] = defaultdict(Fraction)
        for st, p in dist.items():
            expanded += 1
            for oi, o in enumerate(outs):
                key = (st, a.kind, a.side, oi, -1 if policy.stationary else ai)
                nxt = memo.get(key)
                if nxt is None:
                    nxt = memo[key] = m.play(st, a, ai, oi, policy)
                new[nxt] += p * o.prob
        dist = dict(new)
    return dist, expanded


Value = tuple[Fraction, Fraction]  # (P(survive), -E[lost]); larger is better


class UnreducedOptimal(Policy):
    """Maximise survival, then minimise expected losses, over every legal decision of every roll
    (each way of paying for a decision a branch of its own)."""

    name = "optimal"

    def __init__(self, model: FlightModel, attacks: Sequence[Attack]) -> None:
        self.model = model
        self.attacks = tuple(attacks)
        self._value: dict[tuple[int, State], Value] = {}
        self._choice: dict[tuple[int, State, int], Decision] = {}

    @property
    def states(self) -> int:
        """(attack, state) pairs whose value was worked out."""
        return len(self._value)

    def value(self, ai: int, st: State) -> Value:
        m = self.model
        if ai == len(self.attacks):
            return (Fraction(1 if m.humans(st) > 0 else 0), Fraction(-m.lost(st)))
        key = (ai, st)
        v = self._value.get(key)
        if v is not None:
            return v
        a = self.attacks[ai]
        outs, _ = m.outcomes(a)
        surv, neg = Fraction(0), Fraction(0)
        for oi, o in enumerate(outs):
            if not o.lines:
                s, lo = self.value(ai + 1, st)
            else:
                sit = m.situation(st, a, ai, o)
                default = DEFAULT_POLICY.decide(sit)
                best_d, best = default, self.value(ai + 1, m.apply(sit, default))
                for d in m.decisions(sit):
                    if d == default:
                        continue
                    v2 = self.value(ai + 1, m.apply(sit, d))
                    if v2 > best:
                        best_d, best = d, v2
                self._choice[(ai, st, oi)] = best_d
                s, lo = best
            surv += o.prob * s
            neg += o.prob * lo
        self._value[key] = (surv, neg)
        return (surv, neg)

    def decide(self, sit: Any) -> Decision:
        key = (sit.attack, sit.state, self.model.outcomes(self.attacks[sit.attack])[0].index(sit.outcome))
        if key not in self._choice:
            self.value(sit.attack, sit.state)
        return self._choice[key]
