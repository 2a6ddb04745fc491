"""Exact flight odds: a Markov chain over damage states, in exact fractions.

Each attack maps a distribution over states to the next one; a state reached by many dice
sequences is expanded once, and a (state, roll) transition is computed once (memoised in the
:class:`~shipcheck.flight.FlightModel`). The cost is (distinct states after each attack) x (at most
11 outcomes) transitions, instead of 11^attacks dice sequences: see ``benchmarks/bench_odds.py``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .cards import Attack
from .errors import InputError, check_type, suggest
from .flight import (
    DEFAULT_POLICY,
    Decision,
    FlightModel,
    Outcome,
    Policy,
    State,
    as_attacks,
    describe_decision,
)
from .model import Ship

POLICY_NOTE = (
    "default policy (docs/flight-model.md): defend whenever the rules allow and a charge is left; free cannons "
    "before charged ones, charges from the first charged battery in row-major order; after a split "
    "keep the piece with the most humans"
)


@dataclass(frozen=True, repr=False)
class OddsResult:
    """Exact outcome of a sequence of attacks.

    ``distribution`` maps each final state to its probability (exact fractions); the summaries are
    derived from it.
    """

    ship: Ship
    attacks: tuple[Attack, ...]
    policy: str
    distribution: dict[State, Fraction] = field(repr=False)
    model: FlightModel = field(repr=False)
    states_expanded: int = 0
    differences: tuple[dict[str, Any], ...] = ()
    baseline: dict[str, Any] | None = None  # the default policy's figures, when another policy ran

    @property
    def p_survive(self) -> Fraction:
        m = self.model
        return sum((p for st, p in self.distribution.items() if m.humans(st) > 0), Fraction(0))

    @property
    def lost_distribution(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = defaultdict(Fraction)
        for st, p in self.distribution.items():
            out[self.model.lost(st)] += p
        return dict(sorted(out.items()))

    @property
    def expected_lost(self) -> Fraction:
        return sum((k * p for k, p in self.lost_distribution.items()), Fraction(0))

    def p_lost(self) -> list[tuple[int, Fraction]]:
        """Per tile, its square and the probability it leaves the ship."""
        m = self.model
        squares = self.ship.board.squares
        out: list[tuple[int, Fraction]] = []
        for k, sq in enumerate(m.squares):
            p = sum((q for st, q in self.distribution.items() if not st[0] >> k & 1), Fraction(0))
            out.append((squares[sq], p))
        return out

    # floats next to the exact fractions, for numpy and plotting
    @property
    def p_survive_float(self) -> float:
        return float(self.p_survive)

    @property
    def expected_lost_float(self) -> float:
        return float(self.expected_lost)

    @property
    def lost_distribution_float(self) -> dict[int, float]:
        return {k: float(v) for k, v in self.lost_distribution.items()}

    def __float__(self) -> float:
        """``float(result)`` is the chance of survival."""
        return float(self.p_survive)

    def __repr__(self) -> str:
        n = len(self.attacks)
        return (f"<OddsResult {n} attack{'' if n == 1 else 's'}, {self.policy} policy: "
                f"p_survive {self.p_survive} ({float(self.p_survive):.2%}), "
                f"expected_lost {self.expected_lost} ({float(self.expected_lost):.4f})>")

    def __rich__(self) -> Any:
        from .render import heat_legend, heat_marks, render_ship

        tags, styles = heat_marks(self.p_lost())
        text = render_ship(self.ship, marks=tags, mark_styles=styles).__rich__()
        text.append(f"\n{heat_legend()}\n{self!r}")
        return text

    def _repr_html_(self) -> str:
        from html import escape

        from .render import heat_legend, heat_marks, render_ship

        tags, styles = heat_marks(self.p_lost())
        return (f"<p>{escape(repr(self))}</p>" + render_ship(self.ship, marks=tags, mark_styles=styles).html()
                + f"<p>{escape(heat_legend())}</p>")

    def to_dict(self, *, fractions: bool = True) -> dict[str, Any]:
        b = self.ship.board
        d: dict[str, Any] = {
            "exact": True,
            "attacks": [str(a) for a in self.attacks],
            "policy": self.policy,
            "p_survive": float(self.p_survive),
            "expected_lost": float(self.expected_lost),
            "lost_distribution": {str(k): float(v) for k, v in self.lost_distribution.items()},
            "tiles": [{"at": b.cell_name(sq), "p_lost": float(p)} for sq, p in self.p_lost()],
            "states": len(self.distribution),
            "states_expanded": self.states_expanded,
            "board_verified": b.verified,
            "note": POLICY_NOTE if self.policy == "default" else f"policy {self.policy}",
        }
        if fractions:
            d["fractions"] = {
                "p_survive": str(self.p_survive),
                "expected_lost": str(self.expected_lost),
                "lost_distribution": {str(k): str(v) for k, v in self.lost_distribution.items()},
            }
        if self.baseline is not None:
            d["default_policy"] = self.baseline
            d["differences"] = list(self.differences)
        return d

    def to_frame(self) -> Any:
        """One row per tile: ``col``, ``row`` (numeric), ``square``, ``kind``, ``p_lost`` (float) and
        ``p_lost_exact`` (a Fraction). ``df.pivot(index="row", columns="col", values="p_lost")`` is the
        board as a grid."""
        import pandas as pd

        from .rules import _col_row

        b = self.ship.board
        rows = []
        for (sq, p), t in zip(self.p_lost(), self.model.tiles):
            col, row = _col_row(b, sq)
            rows.append({"col": col, "row": row, "square": b.cell_text(sq), "kind": t.kind, "p_lost": float(p),
                         "p_lost_exact": p})
        return pd.DataFrame(rows, columns=["col", "row", "square", "kind", "p_lost", "p_lost_exact"])


def odds(
    ship: Ship,
    attacks: Sequence[Attack | str],
    *,
    policy: Policy | str = DEFAULT_POLICY,
    model: FlightModel | None = None,
) -> OddsResult:
    """Exact odds of a sequence of attacks under a policy (``"default"``, ``"optimal"`` or an object)."""
    check_type(ship, Ship, "ship", "a Ship (see load_ship)")
    atk = as_attacks(attacks)
    if model is not None and (not isinstance(model, FlightModel) or model.ship != ship):
        raise InputError("`model` was built for another ship", key="model", expected="FlightModel(ship)")
    m = model or FlightModel(ship)
    if isinstance(policy, str) and policy == "optimal":
        return _optimal(ship, atk, m)
    if isinstance(policy, str):
        if policy != "default":
            raise InputError("unknown policy", key="policy", value=policy,
                             expected="'default', 'optimal' or a Policy object",
                             hint=suggest(policy, ("default", "optimal")))
        policy = DEFAULT_POLICY
    elif not isinstance(policy, Policy):
        raise InputError("bad `policy`", key="policy", value=type(policy).__name__,
                         expected="'default', 'optimal' or a Policy object")
    dist, expanded = _forward(m, atk, policy)
    return OddsResult(ship, atk, policy.name, dist, m, expanded)


RollHook = Callable[[int, State, Fraction, int, Outcome], None]


def _forward(m: FlightModel, atk: tuple[Attack, ...], policy: Policy,
             on_roll: RollHook | None = None) -> tuple[dict[State, Fraction], int]:
    """Push the state distribution through the attacks; ``on_roll(ai, state, p, oi, outcome)`` sees
    every (state, roll) reached with probability ``p`` that names at least one line."""
    dist: dict[State, Fraction] = {m.initial(): Fraction(1)}
    expanded = 0
    for ai, a in enumerate(atk):
        outs, _ = m.outcomes(a)
        new: dict[State, Fraction] = defaultdict(Fraction)
        for st, p in dist.items():
            expanded += 1
            for oi, o in enumerate(outs):
                if on_roll is not None and o.lines:
                    on_roll(ai, st, p * o.prob, oi, o)
                new[m.step(st, a, ai, oi, policy)] += p * o.prob
        dist = dict(new)
    return dist, expanded


# -- the optimal policy ---------------------------------------------------------------------------
Value = tuple[Fraction, Fraction]  # (P(survive), -E[lost]); larger is better


class OptimalPolicy(Policy):
    """Battery decisions that maximise survival, then minimise expected losses, found by dynamic
    programming over the same damage states. Built for one ship and attack sequence."""

    name = "optimal"

    def __init__(self, model: FlightModel, attacks: Sequence[Attack]) -> None:
        self.model = model
        self.attacks = tuple(attacks)
        self._value: dict[tuple[int, State], Value] = {}
        self._choice: dict[tuple[int, State, int], Decision] = {}

    def value(self, ai: int, st: State) -> Value:
        """Best (survival, -expected lost) from attack ``ai`` on, in state ``st``."""
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


def _optimal(ship: Ship, atk: tuple[Attack, ...], m: FlightModel) -> OddsResult:
    pol = OptimalPolicy(m, atk)
    pol.value(0, m.initial())
    diffs: dict[tuple[int, str, str, str], Fraction] = defaultdict(Fraction)

    def compare(ai: int, st: State, p: Fraction, oi: int, o: Outcome) -> None:
        sit = m.situation(st, atk[ai], ai, o)
        d, dd = pol.decide(sit), DEFAULT_POLICY.decide(sit)
        if d != dd:
            diffs[(ai, o.describe(ship.board), describe_decision(m, dd), describe_decision(m, d))] += p

    dist, expanded = _forward(m, atk, pol, compare)
    base = odds(ship, atk, model=m)
    differences = tuple(
        {"attack": ai + 1, "attack_kind": str(atk[ai]), "roll": roll, "default": dflt, "optimal": opt,
         "probability": float(p)}
        for (ai, roll, dflt, opt), p in sorted(diffs.items(), key=lambda kv: -kv[1])
    )
    baseline = {"p_survive": float(base.p_survive), "expected_lost": float(base.expected_lost)}
    return OddsResult(ship, atk, "optimal", dist, m, expanded, differences, baseline)
