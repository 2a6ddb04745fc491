"""Exact flight odds: a Markov chain over damage states, in exact fractions.

Each attack maps a distribution over states to the next one. The work runs on the model's
:class:`~shipcheck.flight.kernel.Kernel`: states are packed ints, probabilities integer weights over
36^(attacks so far) turned into :class:`~fractions.Fraction` once at the end, and a state's rolls
are grouped by what they would damage before any is played, so a state reached by many dice
sequences is expanded once and each distinct effect on it is worked out once. The cost is
(distinct states after each attack) x (distinct effects of a roll, at most 11) transitions, instead
of 11^attacks dice sequences: see ``benchmarks/bench_odds.py``.

The optimal policy (:class:`OptimalPolicy`) is a dynamic programme over the same states; see its
docstring for how the battery choices are reduced without losing the optimum.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from shipcheck.cards import Attack
from shipcheck.errors import InputError, check_type, suggest
from shipcheck.flight.chain import (
    DEFAULT_POLICY,
    Decision,
    DefaultPolicy,
    FlightModel,
    Policy,
    Situation,
    State,
    as_attacks,
    defence_options,
    defences,
    describe_decision,
)
from shipcheck.flight.kernel import Effect, Kernel, cost, offers
from shipcheck.model import Ship

POLICY_NOTE = (
    "default policy (docs/flight-model.md): defend whenever the rules allow and a charge is left; free cannons "
    "before charged ones, charges from the first charged battery in row-major order; after a split "
    "keep the piece with the most humans"
)


@dataclass(frozen=True, repr=False)
class OddsResult:
    """Exact outcome of a sequence of attacks.

    ``weights`` maps each final packed state (see :mod:`shipcheck.flight.kernel`) to its weight over
    ``denominator`` (36 per attack); :attr:`distribution` gives the same as public states and
    fractions. The summaries are exact fractions.
    """

    ship: Ship
    attacks: tuple[Attack, ...]
    policy: str
    weights: dict[int, int] = field(repr=False)
    denominator: int
    model: FlightModel = field(repr=False)
    states_expanded: int = 0
    differences: tuple[dict[str, Any], ...] = ()
    baseline: dict[str, Any] | None = None  # the default policy's figures, when another policy ran
    states_explored: int | None = None  # the optimal policy's (attack, state) values worked out
    #: the weights as the compiled pass left them (keys, weights: numpy arrays), or None
    rows: tuple[Any, Any] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def distribution(self) -> dict[State, Fraction]:
        """Each final state with its probability."""
        k, d = self.model.kernel, self.denominator
        return {k.unpack(p): Fraction(w, d) for p, w in self.weights.items()}

    @cached_property
    def p_survive(self) -> Fraction:
        k = self.model.kernel
        alive = k.surviving(self.weights) if self.rows is None else k.surviving_rows(*self.rows)
        return Fraction(alive, self.denominator)

    @cached_property
    def _by_mask(self) -> tuple[Any, Any]:
        """The sets of tiles aboard (an int64 array) and the weights summed per set, exact (int64
        where the denominator fits, 36^12 < 2^63; else Python ints)."""
        import numpy as np

        full, n = self.model.full, len(self.weights)
        if self.denominator >= 2 ** 63:
            out: dict[int, int] = defaultdict(int)
            for p, w in self.weights.items():
                out[p & full] += w
            return np.fromiter(out, dtype=np.int64, count=len(out)), np.fromiter(out.values(), dtype=object,
                                                                                  count=len(out))
        if self.rows is not None:
            masks, weights = self.rows[0][:, 0] & full, self.rows[1]
        else:
            masks = np.fromiter((p & full for p in self.weights), dtype=np.int64, count=n)
            weights = np.fromiter(self.weights.values(), dtype=np.int64, count=n)
        sets, which = np.unique(masks, return_inverse=True)
        sums = np.zeros(len(sets), dtype=np.int64)
        np.add.at(sums, which.reshape(-1), weights)  # exact: no sum passes the denominator
        return sets, sums

    @cached_property
    def _losses(self) -> tuple[Any, Any, Any]:
        """Per set of tiles aboard: the tiles lost (a bit each, the engine's
        :meth:`Kernel.lost_tiles_of <shipcheck.flight.kernel.Kernel.lost_tiles_of>`), how many,
        and its weight (:attr:`_by_mask`)."""
        import numpy as np

        masks, weights = self._by_mask
        lost = self.model.kernel.lost_tiles_of(masks)
        count = np.zeros(len(masks), dtype=np.int64)
        for t in range(self.model.n):
            count += (lost >> t) & 1
        return lost, count, weights

    @cached_property
    def lost_distribution(self) -> dict[int, Fraction]:
        _, count, w = self._losses
        # the counts as a set, not np.unique: that one loads numpy.ma (10 ms of a small question)
        return {n: Fraction(int(w[count == n].sum()), self.denominator) for n in sorted(set(count.tolist()))}

    @cached_property
    def expected_lost(self) -> Fraction:
        return sum((n * p for n, p in self.lost_distribution.items()), Fraction(0))

    def p_lost(self) -> list[tuple[int, Fraction]]:
        """Per tile, its square and the probability it leaves the ship (the tiles lost, as the engine
        says: :meth:`Kernel.lost_tiles <shipcheck.flight.kernel.Kernel.lost_tiles>`)."""
        squares = self.ship.board.squares
        return [(squares[sq], self._p_lost_of(t)) for t, sq in enumerate(self.model.squares)]

    def p_lost_at(self, square: int) -> Fraction:
        """:meth:`p_lost` of the tile on ``square`` alone (the advisor asks it of the tile placed)."""
        squares = self.ship.board.squares
        for t, sq in enumerate(self.model.squares):
            if squares[sq] == square:
                return self._p_lost_of(t)
        raise InputError("no tile of the ship stands on that square", key="square", value=square,
                         expected="a square of one of the ship's tiles (its grid index, as p_lost() gives it)")

    def _p_lost_of(self, t: int) -> Fraction:
        lost, _, w = self._losses
        return Fraction(int(w[(lost >> t) & 1 == 1].sum()), self.denominator)

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
        from shipcheck.render import heat_legend, heat_marks, render_ship

        tags, styles = heat_marks(self.p_lost())
        text = render_ship(self.ship, marks=tags, mark_styles=styles).__rich__()
        text.append(f"\n{heat_legend()}\n{self!r}")
        return text

    def _repr_html_(self) -> str:
        from html import escape

        from shipcheck.render import heat_legend, heat_marks, render_ship

        tags, styles = heat_marks(self.p_lost())
        return (f"<p>{escape(repr(self))}</p>" + render_ship(self.ship, marks=tags, mark_styles=styles).html()
                + f"<p>{escape(heat_legend())}</p>")

    def to_dict(self, *, fractions: bool = True) -> dict[str, Any]:
        was = gc.isenabled()
        gc.disable()  # as in odds(): the collector's sweeps over a large distribution cost more than the sums
        try:
            return self._to_dict(fractions)
        finally:
            if was:
                gc.enable()

    def _to_dict(self, fractions: bool) -> dict[str, Any]:
        b = self.ship.board
        d: dict[str, Any] = {
            "exact": True,
            "attacks": [str(a) for a in self.attacks],
            "policy": self.policy,
            "p_survive": float(self.p_survive),
            "expected_lost": float(self.expected_lost),
            "lost_distribution": {str(k): float(v) for k, v in self.lost_distribution.items()},
            "tiles": [{"at": b.cell_name(sq), "p_lost": float(p)} for sq, p in self.p_lost()],
            "states": len(self.weights),
            "states_expanded": self.states_expanded,
            "board_verified": b.verified,
            "note": POLICY_NOTE if self.policy == "default" else f"policy {self.policy}",
        }
        if self.states_explored is not None:
            d["states_explored"] = self.states_explored
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

        from shipcheck.check.rules import _col_row

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
    # The engines allocate hundreds of thousands of tuples of ints into growing memos and build no
    # reference cycles: the cyclic collector's repeated sweeps over the memos cost as much as the
    # work itself (1.4x on ten meteors round the class III hauler). Paused, not skipped: whatever
    # is left is collected afterwards as usual. (Inline: a @contextmanager costs a few µs a call,
    # noticeable on small cards.)
    was = gc.isenabled()
    gc.disable()
    try:
        return _odds(ship, atk, policy, m)
    finally:
        if was:
            gc.enable()


def _odds(ship: Ship, atk: tuple[Attack, ...], policy: Policy | str, m: FlightModel) -> OddsResult:
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
    elif isinstance(policy, OptimalPolicy):
        policy.fits(ship, atk)
    if type(policy) is DefaultPolicy:
        weights, expanded, rows = _forward_default_rows(m.kernel, atk)
    else:
        (weights, expanded), rows = _forward(m, atk, policy), None
    return OddsResult(ship, atk, policy.name, weights, 36 ** len(atk), m, expanded, rows=rows)


#: attacks whose weights fit in int64 (36**12 < 2**63): the compiled kernel plays at most these
COMPILED_ATTACKS = 12
#: (states) x (attacks left) from which the pass goes to the compiled kernel: importing numba and
#: loading the compiled pass cost about 0.8 s of CPU, what the plain engine spends on about this much
#: work (a state's expansion costs it about 0.7 ms); once loaded, every pass runs compiled. Small
#: questions count too: once the states a process expanded plain (``runtime.state.plain_work``, not
#: those a kept model remembers) and the next pass's work reach this, that pass loads the compiled
#: engine where it is cached (a load, not a compile): many small questions then cost at most about
#: twice the cheaper of the two ways
COMPILED_FROM = 1_000
COMPILED_LOADED_FROM = 0
#: the optimal policy's search loads the compiled engine before it starts where the flight after its
#: last decision is long: (ships the search may meet at that decision) x (attacks after it) reaches
#: this (the class III hauler against III-16: 348 x 2; a class I scout: 130 x 2, which stays plain);
#: other searches once they have worked out this many values (tails included) as plain Python, about
#: what loading costs (0.5 s of CPU; benchmarks/RESULTS.md)
OPTIMAL_TAIL_FROM = 350
OPTIMAL_COMPILED_FROM = 2_000


def _engine(k: Kernel, engine: str | None) -> str:
    """``"python"``, ``"compiled"`` (forced) or ``"auto"`` for this model."""
    from shipcheck import runtime

    choice = (engine or {"plain": "python"}.get(runtime.state.force or "", runtime.state.force) or "auto").lower()
    if choice == "python":
        return "python"
    return "compiled" if choice == "compiled" else "auto"


def _forward_default(k: Kernel, atk: tuple[Attack, ...], *, engine: str | None = None
                     ) -> tuple[dict[int, int], int]:
    """The default policy's final weights (over 36^attacks) and the states expanded.

    Large distributions go to the engine's compiled pass (:func:`shipcheck.engine.exact.forward`:
    the same rules, compiled), for as many attacks as int64 weights allow; ``engine`` (or
    ``shipcheck.runtime.state.force``) forces one engine.
    """
    dist, expanded, _ = _forward_default_rows(k, atk, engine=engine)
    return dist, expanded


def _forward_default_rows(k: Kernel, atk: tuple[Attack, ...], *, engine: str | None = None,
                          start: dict[int, int] | None = None, flown: int = 0
                          ) -> tuple[dict[int, int], int, tuple[Any, Any] | None]:
    """:func:`_forward_default`, and the final distribution as numpy rows where the compiled pass
    played the last attack (:meth:`Kernel.forward_arrays`), else None. From ``start`` (weights over
    36^``flown``, ``flown`` attacks in) instead of the launch state where given."""
    from shipcheck import runtime

    rows = None
    dist = {k.initial(): 1} if start is None else start
    expanded = 0
    mode = _engine(k, engine)
    i = 0
    while i < len(atk):
        if mode != "python" and flown + i < COMPILED_ATTACKS:
            stop = min(len(atk), COMPILED_ATTACKS - flown)
            work = len(dist) * (stop - i)
            from shipcheck import engine as rules

            if (mode == "compiled" or work >= (COMPILED_LOADED_FROM if runtime.started() else COMPILED_FROM)
                    or (runtime.state.plain_work + work >= COMPILED_FROM and runtime.cached("exact"))):
                part, start = atk[i:stop], dist
                got: tuple[dict[int, int], int, tuple[Any, Any]] | None
                if k.warming:  # within the compiled engine's first load (runtime.load holds its lock)
                    ok, got = True, k.forward_arrays(part, start)
                else:
                    ok, got = rules.compiled_call("exact", lambda: k.forward_arrays(part, start))  # noqa: B023
                if not ok or got is None:  # numba missing, off or broken: the Python driver gives the same answer
                    mode = "python"
                else:
                    dist, e, rows = got
                    expanded += e
                    i = stop
                    continue
        a = atk[i]
        new: dict[int, int] = {}
        get = new.get
        live = k.live(a)
        memo, kind = live.memo, live.kind
        known = len(memo)
        for p, w in dist.items():
            t = memo.get(p)
            if t is None:
                t = memo[p] = k.expand(p, kind, live)
            for q, wt in t:
                new[q] = get(q, 0) + w * wt
        runtime.state.plain_work += len(memo) - known  # states expanded: what the compiled pass would save
        expanded += len(dist)
        dist, rows = new, None
        i += 1
    return dist, expanded, rows


def prefer_compiled(ship: Ship) -> bool:
    """Load (or compile, once, with a progress bar) the compiled exact engine in this process, for a
    caller about to ask many exact questions (the placement advisor): every pass then runs compiled.
    False where the engine runs plain."""
    from shipcheck import runtime
    from shipcheck.flight.chain import parse_attack

    if runtime.state.force != "plain" and not runtime.loaded("exact"):  # a flight model only the first time
        _load_compiled(FlightModel(ship), parse_attack("small-meteor:front"))
    return runtime.loaded("exact")


def _load_compiled(fm: FlightModel, attack: Attack) -> None:
    """Load (or compile, with a progress bar) the compiled exact engine for a long search: the kernel
    asks it from then on (the same rules, the same numbers)."""
    from shipcheck import engine, runtime

    if runtime.state.force == "plain" or runtime.loaded("exact"):
        return
    k = fm.kernel

    def first() -> None:  # every engine function the kernel calls, compiled (or loaded) here, not later
        k.warming = True
        try:
            p = k.initial()
            k.forward_compiled([attack], {p: 1})
            k.transitions(p, attack)
            _optimal(fm.ship, (attack,), fm)
            st = k.unpack(p)
            o = next((o for o in fm.outcomes(attack)[0] if o.lines), None)
            if o is not None:  # a roll down a line, whatever it meets on this ship: each function it may ask
                eff = (o.side, tuple((line, -1) for line in o.lines))
                k.play(p, attack.kind, eff, 0)
                k.left_open(p, attack.kind, eff, 0, False, False, (-1,) * len(o.lines))
                sit = fm.situation(st, attack, 0, o)
                fm.apply(sit, DefaultPolicy().decide(sit))
            k.wake(st[0], k.crew_of(p))
            k.destroy(p, p & k.full & -(p & k.full), memo=False)
            for count in (k.humans, k.crew_count, k.lost, k.lost_tiles):
                count(p)
        finally:
            k.warming = False

    engine.compiled_call("exact", first)


def _forward(m: FlightModel, atk: tuple[Attack, ...], policy: Policy) -> tuple[dict[int, int], int]:
    """Any policy, one outcome at a time through :meth:`FlightModel.step`."""
    k = m.kernel
    dist = {k.pack(m.initial()): 1}
    expanded = 0
    for ai, a in enumerate(atk):
        outs = k.outcomes(a)
        new: dict[int, int] = defaultdict(int)
        for p, w in dist.items():
            st = k.unpack(p)
            for oi, (wt, *_) in enumerate(outs):
                new[k.pack(m.step(st, a, ai, oi, policy))] += w * wt
        expanded += len(dist)
        dist = dict(new)
    return dist, expanded


# -- the optimal policy ---------------------------------------------------------------------------
Value = tuple[Fraction, Fraction]  # (P(survive), -E[lost]); larger is better
Action = tuple[bool, bool, tuple[tuple[int, int], ...], tuple[int, ...]]  # shield, boosted, cannons, draws
DEFAULT_ACTION: Action = (False, False, (), (-1,))  # "as the default policy decides"


class OptimalPolicy(Policy):
    """Battery decisions that maximise survival, then minimise expected losses, found by dynamic
    programming over the same damage states. Built for one ship and attack sequence.

    The search is exact and smaller than trying every decision, by three facts about values:

    - More charges are never worse (a charge can be left unused), so of two decisions that
      protect the same lines the one leaving fewer charges in every battery is dropped (a free
      cannon before a charged one; no boosted shield where cannons already stop everything).
    - Which battery pays matters only through batteries lost later. Over every ship the remaining
      attacks can leave (any defence, any roll: :meth:`_futures`), battery *s* outlives *r* when
      no such ship at a later decision holds *s* without *r*. Then paying from *r* is at least as
      good as paying from *s* (whatever the best play does after paying from *s*, it can do after
      paying from *r*, drawing from *s* where it would have drawn from the spent *r*), so payments
      are tried only from batteries no other outlives, one per group of equals.
    - Batteries that outlive each other are interchangeable: a state's value depends only on the
      charges each such group holds, so values are memoised by those totals. After the last
      decision charges are worth nothing: on the last attack all batteries of a hull are one group.

    ``states`` counts the (attack, state) values worked out; the tests compare the optimum with the
    unreduced search (``UnreducedOptimal`` in ``tests/oracle/reference.py``) on small ships.
    """

    name = "optimal"

    def __init__(self, model: FlightModel, attacks: Sequence[Attack | str]) -> None:
        if not isinstance(model, FlightModel):
            raise InputError("bad `model`", key="model", value=type(model).__name__, expected="FlightModel(ship)")
        self.model = model
        self.attacks = as_attacks(attacks)
        self.k = model.kernel
        self._value: dict[tuple[int, Any], tuple[int, int]] = {}
        self._tails: dict[tuple[int, int], tuple[int, int]] = {}  # values once nothing is left to decide
        self._choice: dict[tuple[int, int, Any], tuple[Action, int]] = {}
        self._pays: dict[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]], list[tuple[int, ...]]] = {}
        self._prefer: list[list[int]] | None = None  # per layer: per battery, the batteries preferred to it
        self._groups: list[list[tuple[int, ...]]] = []
        self._cap: list[int] = []
        self._choice_at: list[bool] = []
        self._tail: list[bool] = []
        self._terminal: dict[int, tuple[int, int]] = {}
        self.candidates = 0
        self._plain = True  # the compiled engine not in use (_compile_when_long)
        self._asked = False  # the compiled engine asked for once
        self._long = False  # a tail long enough to load the compiled engine for at once (_layers)

    def fits(self, ship: Ship, attacks: Sequence[Attack]) -> None:
        """Raise an :class:`InputError` unless this policy was built for ``ship`` and ``attacks`` (its
        values are theirs: another question would read them as its own)."""
        if self.model.ship != ship or self.attacks != tuple(attacks):
            raise InputError("this OptimalPolicy was built for another ship or other attacks", key="policy",
                             value=f"{len(self.attacks)} attacks", expected="OptimalPolicy(FlightModel(ship), "
                             "attacks) of the same question, or policy='optimal'")

    @property
    def states(self) -> int:
        """(attack, state) values worked out where a decision is left (the tail after the last one is
        flown by the rules alone, compiled where the compiled engine is loaded)."""
        return len(self._value)

    # -- which batteries outlive which ---------------------------------------------------------
    def _futures(self, upto: int) -> list[set[int]]:
        """Per attack index j <= ``upto``, the crew-and-mask parts of every state the ship may be in
        before attack j, over all rolls and all defences (charges ignored: a superset)."""
        k = self.k
        cur = {k.pack(self.model.initial()) & ~k.charge_mask}
        out = [cur]
        for a in self.attacks[:upto]:
            nxt: set[int] = set()
            for x in cur:
                mask = x & k.full
                for _, side, tol, lines in k.outcomes(a):
                    eff = k.effect(mask, a.kind, side, lines) if lines else None
                    if eff is None:
                        nxt.add(x)
                        continue
                    for spared in self._sparable(mask, a.kind, eff, tol):
                        destroyed = 0
                        for i, (_, t) in enumerate(eff[1]):
                            if not spared >> i & 1:
                                destroyed |= 1 << t
                        nxt.add(k.destroy(x, destroyed) if destroyed else x)
            cur = nxt
            out.append(cur)
        return out

    def _sparable(self, mask: int, kind: str, eff: Effect, tol: int) -> list[int]:
        """Bitsets (over the hits of ``eff``) of hits some defence might spare, charges ignored: the
        defences the roll offers (:func:`shipcheck.flight.kernel.offers`). A shield, boosted or not, covers
        every line at once; a cannon its own."""
        k = self.k
        side, hits = eff
        _, shields, boosted = k.defence(mask, kind, eff)
        means = offers(kind)
        n = len(hits)
        every = (1 << n) - 1
        whole = bool((means.shield and shields) or (means.boosted and boosted))
        if not means.cannon:
            return [0, every] if whole else [0]
        can = 0
        for i, (line, _) in enumerate(hits):
            if whole or any(mask >> c & 1 for c, _ in k.bearing(side, tol, line)):
                can |= 1 << i
        return [s for s in range(every + 1) if s & ~can == 0]

    def _layers(self) -> None:
        """Per attack: which batteries are preferred payers, and the groups of equal batteries."""
        k = self.k
        nb = len(k.btile)
        n = len(self.attacks)
        draws = [self._may_draw(a) for a in self.attacks]
        last = max((j for j in range(n) if draws[j]), default=-1)
        fut = self._futures(max(last, 0))
        hull = [k.group[t] for t in k.btile]
        # aboard[s]: batteries aboard in some later ship without battery s (at decisions after layer)
        aboard = [0] * nb
        prefer: list[list[int]] = [[] for _ in range(n)]
        groups: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        bat_tiles = sum(1 << t for t in k.btile)

        def tables(layer: int) -> tuple[list[int], list[tuple[int, ...]]]:
            # r preferred to s: s outlives r, and not the other way round or r comes first
            outlives = [[r for r in range(nb) if hull[r] == hull[s] and not aboard[s] >> k.btile[r] & 1]
                        for s in range(nb)]
            pref = []
            for s in range(nb):
                bits = 0
                for r in outlives[s]:
                    if r != s and (s not in outlives[r] or r < s):
                        bits |= 1 << r
                pref.append(bits)
            seen: set[int] = set()
            gs = []
            for s in range(nb):
                if s in seen:
                    continue
                g = tuple(r for r in outlives[s] if s in outlives[r])
                seen.update(g)
                gs.append(g)
            return pref, gs

        # payment at attack ai: decisions after it are at attacks ai+1 .. n-1 (those that may draw)
        for ai in range(n - 1, -1, -1):
            prefer[ai], _ = tables(ai)
            # values at layer ai (before attack ai) see decisions at ai .. n-1
            if draws[ai] and ai <= last:
                for x in fut[ai]:
                    lost = bat_tiles & ~x
                    if lost:
                        here = x & bat_tiles
                        for s, t in enumerate(k.btile):
                            if lost >> t & 1:
                                aboard[s] |= here
            # no charge can be spent from here on: charges are worth nothing
            _, groups[ai] = tables(ai) if any(draws[ai:]) else (None, [])
        self._prefer = prefer
        self._groups = groups
        # the most charges the decisions from attack ai on can spend: more in a group is worth no more
        self._choice_at = [draws[j] or self._free_fire(a) for j, a in enumerate(self.attacks)]
        # from the first attack of the tail on, nothing can be defended any more
        self._tail = [not any(self._choice_at[ai:]) for ai in range(n)]
        self._cap = [sum(self._most_drawn(a) for j, a in enumerate(self.attacks) if j >= ai and draws[j])
                     for ai in range(n)]
        # the flight after the last decision, from every ship it may meet: long enough to load for at once?
        start = self._tail.index(True) if True in self._tail else n
        self._long = len(fut[-1]) * (n - start) >= OPTIMAL_TAIL_FROM

    def _free_fire(self, a: Attack) -> bool:
        """Whether a free cannon may bear on a large meteor of ``a`` (to fire it or not is a choice)."""
        g = self.k.geometry  # the engine's bearing: a cannon facing a side may bear on some line
        sides = {side for _, side, _, lines in self.k.outcomes(a) if lines}
        return offers(a.kind).cannon and any(g.facing(side) for side in sides)

    def _most_drawn(self, a: Attack) -> int:
        """An upper bound on the charges one roll of ``a`` can cost: each defence it offers, a
        charged cannon per line."""
        means = offers(a.kind)
        most = (cost("shield") if means.shield else 0) + (cost("boosted") if means.boosted else 0)
        if means.cannon:
            most += max((len(lines) for *_, lines in self.k.outcomes(a)), default=0) * cost("cannon")
        return most

    def _may_draw(self, a: Attack) -> bool:
        """Whether some defence against ``a`` could cost a charge on the ship as launched."""
        k = self.k
        if not k.btile:
            return False
        sides = {side for _, side, _, lines in k.outcomes(a) if lines}
        means = offers(a.kind)
        g = k.geometry  # what the engine's shields cover and its cannons face
        for side in sides:
            shields = g.cover[side]
            boosted = shields & g.boostable  # shields joined to a booster
            if means.shield and shields and cost("shield"):
                return True
            if means.boosted and boosted and cost("boosted"):
                return True
            if means.cannon and any(cost("cannon", free) for _, free in g.facing(side)):
                return True
        return False

    def _key(self, ai: int, p: int) -> Any:
        k = self.k
        rest = p & ~k.charge_mask
        if not self._groups[ai]:
            return rest
        bf, bo = k.bfield, k.boff
        cap = self._cap[ai]
        return (rest, tuple(min(cap, sum((p & bf[b]) >> bo[b] for b in g)) for g in self._groups[ai]))

    # -- values ----------------------------------------------------------------------------------
    def _v(self, ai: int, p: int) -> tuple[int, int]:
        """(survival, -lost), both scaled by 36^(attacks left)."""
        k = self.k
        if ai == len(self.attacks):
            rest = p & ~k.charge_mask
            t = self._terminal.get(rest)
            if t is None:
                t = self._terminal[rest] = (1 if k.humans(p) > 0 else 0, -k.lost(p))
            return t
        if self._prefer is None:
            self._layers()
        if self._tail[ai]:
            return self._tail_value(ai, p & ~k.charge_mask)
        key = (ai, self._key(ai, p))
        v = self._value.get(key)
        if v is not None:
            return v
        self._compile_when_long(ai)
        a = self.attacks[ai]
        mask = p & k.full
        surv = neg = 0
        if not self._choice_at[ai]:
            # nothing to decide against this attack: the default policy's transitions are the rules'
            for q, w in k.transitions(p, a):
                s, lo = self._v(ai + 1, q)
                surv += w * s
                neg += w * lo
            v = self._value[key] = (surv, neg)
            return v
        for w, side, tol, lines in k.outcomes(a):
            eff = k.effect(mask, a.kind, side, lines) if lines else None
            if eff is None:
                s, lo = self._v(ai + 1, p)
            else:
                _, q = self._best(ai, p, a.kind, eff, tol)
                s, lo = self._v(ai + 1, q)
            surv += w * s
            neg += w * lo
        v = self._value[key] = (surv, neg)
        return v

    def _compile_when_long(self, ai: int) -> None:
        """Load the compiled engine once the search has worked out as many values as loading costs
        (at once where it is loaded already or forced; never where plain is forced)."""
        if not self._plain or self._asked or self.k.warming:  # (warming: this search is its first load)
            return
        from shipcheck import runtime

        force = runtime.state.force
        if force == "plain":
            return
        if (force == "compiled" or runtime.loaded("exact") or self._long
                or len(self._value) + len(self._tails) >= OPTIMAL_COMPILED_FROM):
            self._asked = True  # once: where numba is missing or off, plain it stays
            _load_compiled(self.model, self.attacks[ai])
            self._plain = not runtime.loaded("exact")

    def _tail_value(self, ai: int, x: int) -> tuple[int, int]:
        """:meth:`_v` from attack ``ai`` on when no attack left can be defended: every damaging hit
        destroys what it hits, and ``x`` carries no charges (they can no longer be spent)."""
        key = (ai, x)
        v = self._tails.get(key)
        if v is not None:
            return v
        k = self.k
        n = len(self.attacks)
        self._compile_when_long(ai)
        if not self._plain and n - ai <= COMPILED_ATTACKS:
            # the rest of the flight in one compiled pass: with nothing left to decide, the default
            # policy's pass is the rules' (no charge to spend, no cannon to fire)
            dist, _ = k.forward_compiled(self.attacks[ai:], {x: 1})
            v = self._tails[key] = (k.surviving(dist), -k.lost_weight(dist))
            return v
        surv = neg = 0
        live = k.live(self.attacks[ai])
        last = ai + 1 == n
        mask = x & k.full
        for g, w in k.effects(mask, live, memo=not last):
            q = x
            if g is not None:
                destroyed = 0
                for _, t in g[0][1]:
                    destroyed |= 1 << t
                q = k.destroy(x, destroyed, memo=not last)
            if last:
                # the last attack: only whether a human is left and how many tiles are, matter
                s, lo = (1 if k.humans(q) else 0), -k.lost(q)
            else:
                s, lo = self._tail_value(ai + 1, q)
            surv += w * s
            neg += w * lo
        v = self._tails[key] = (surv, neg)
        return v

    def value(self, ai: int, st: State) -> Value:
        """Best (survival, -expected lost) from attack ``ai`` on, in state ``st``."""
        s, lo = self._v(ai, self.k.pack(st))
        d = 36 ** (len(self.attacks) - ai)
        return (Fraction(s, d), Fraction(lo, d))

    def _best(self, ai: int, p: int, kind: str, eff: Effect, tol: int) -> tuple[Action, int]:
        """The best action against a damaging roll and the state it leads to; the default policy's
        unless another is strictly better."""
        ck = (ai, p, (eff, tol))
        hit = self._choice.get(ck)
        if hit is not None:
            return hit
        default_q = self.k.play(p, kind, eff, tol)
        best: tuple[Action, int] = (DEFAULT_ACTION, default_q)
        best_v = self._v(ai + 1, default_q)
        for act, q in self._candidates(ai, p, kind, eff, tol):
            if q == default_q:
                continue
            v = self._v(ai + 1, q)
            if v > best_v:
                best, best_v = (act, q), v
        self._choice[ck] = best
        return best

    def _candidates(self, ai: int, p: int, kind: str, eff: Effect, tol: int) -> list[tuple[Action, int]]:
        """The decisions worth trying against a damaging roll: every defence, each paid in the ways
        no other way dominates, dominated next states dropped."""
        k = self.k
        if self._prefer is None:  # asked through decide() before any value was worked out
            self._layers()
        assert self._prefer is not None
        side, hits = eff
        mask = p & k.full
        hull, shields, boosted_ok = k.defence(mask, kind, eff)
        charges = [(p & f) >> o for f, o in zip(k.bfield, k.boff)]
        total = sum(charges)
        ship_pay = k.pay[hull]
        shield_opts, per_line, boost_opts = defence_options(
            kind, bool(shields), boosted_ok, total,
            [[c for c, _ in k.bearing(side, tol, line) if mask >> c & 1] if offers(kind).cannon else []
             for line, _ in hits])
        prefer = self._prefer[ai]
        out: dict[int, Action] = {}
        def cannon_pay(c: int) -> tuple[int, ...]:
            return k.pay[k.group[c]] if k.multi else ship_pay

        for shield, combo, boosted, purposes in defences(shield_opts, per_line, boost_opts, ship_pay, cannon_pay,
                                                         self.model.free_cannon):
            if len(purposes) > total:
                continue
            # what the defence leaves open: the engine's rule, not a copy of it
            destroyed = k.left_open(p, kind, eff, tol, shield, boosted, tuple(combo))
            cannons = tuple((line, c) for (line, _), c in zip(hits, combo) if c >= 0)
            pkey = (ai, tuple(charges), tuple(purposes))
            pays = self._pays.get(pkey)
            if pays is None:  # (the same charges pay the same purposes for many ships)
                pays = self._pays[pkey] = _payments(charges, purposes, prefer)
            for draws in pays:
                q = p
                for b in draws:
                    q -= 1 << k.boff[b]
                if destroyed:
                    q = k.destroy(q, destroyed)
                self.candidates += 1
                if q not in out:
                    out[q] = (shield, boosted, cannons, draws)
        return _undominated(k, out)

    # -- the Policy interface -------------------------------------------------------------------
    def decide(self, sit: Situation) -> Decision:
        k = self.k
        p = k.pack(sit.state)
        o = sit.outcome
        eff = k.effect(p & k.full, sit.kind, o.side, o.lines) if o.lines else None
        if eff is None:
            return DEFAULT_POLICY.decide(sit)
        from shipcheck.engine.layout import tolerance

        tol = tolerance(o.direction)
        (shield, boosted, cannons, draws), _ = self._best(sit.attack, p, sit.kind, eff, tol)
        if (shield, boosted, cannons, draws) == DEFAULT_ACTION:
            return DEFAULT_POLICY.decide(sit)
        by_line = dict(cannons)
        return Decision(shield=shield, boosted=boosted, cannons=tuple(by_line.get(line, -1) for line in o.lines),
                        draws=draws)


def _payments(charges: list[int], purposes: list[tuple[int, ...]], prefer: list[int]) -> list[tuple[int, ...]]:
    """Ways to pay one charge per purpose, as sorted draws, leaving out every way in which a draw
    could move to a preferred battery (allowed for that purpose, with a charge to spare)."""
    raw: set[tuple[int, ...]] = set()

    def rec(i: int, left: list[int], acc: list[int]) -> None:
        if i == len(purposes):
            raw.add(tuple(sorted(acc)))
            return
        for b in purposes[i]:
            if left[b] > 0:
                left[b] -= 1
                acc.append(b)
                rec(i + 1, left, acc)
                acc.pop()
                left[b] += 1

    rec(0, list(charges), [])
    out = []
    for draws in sorted(raw):
        spare = list(charges)
        for b in draws:
            spare[b] -= 1
        # a preferred battery is in the same hull, so it may serve whatever this draw served
        if not any(prefer[b] >> r & 1 and spare[r] > 0 for b in set(draws) for r in range(len(charges))):
            out.append(draws)
    return out


def _undominated(k: Kernel, cands: dict[int, Action]) -> list[tuple[Action, int]]:
    """Drop next states that another matches in everything but holds no more charges anywhere."""
    by_rest: dict[int, list[int]] = defaultdict(list)
    for q in cands:
        by_rest[q & ~k.charge_mask].append(q)
    out = []
    fields = list(zip(k.bfield, k.boff))
    for qs in by_rest.values():
        for q in qs:
            cq = [(q & f) >> o for f, o in fields]
            dominated = False
            for r in qs:
                if r == q:
                    continue
                cr = [(r & f) >> o for f, o in fields]
                if all(x >= y for x, y in zip(cr, cq)):
                    dominated = True
                    break
            if not dominated:
                out.append((cands[q], q))
    return out


def _optimal(ship: Ship, atk: tuple[Attack, ...], m: FlightModel) -> OddsResult:
    pol = OptimalPolicy(m, atk)
    k = m.kernel
    p0 = k.pack(m.initial())
    pol._v(0, p0)
    diffs: dict[tuple[int, str, str, str], Fraction] = defaultdict(Fraction)
    dist = {p0: 1}
    expanded = 0
    scale = 1
    for ai, a in enumerate(atk):
        if pol._tail[ai]:  # nothing left to decide: the rest is the rules' own (the default policy's) pass
            dist, e, _ = _forward_default_rows(k, atk[ai:], start=dist, flown=ai)
            expanded += e
            scale *= 36 ** (len(atk) - ai)
            break
        outs, _ = m.outcomes(a)
        kouts = k.outcomes(a)
        new: dict[int, int] = defaultdict(int)
        for p, w in dist.items():
            mask = p & k.full
            for oi, (wt, side, tol, lines) in enumerate(kouts):
                eff = k.effect(mask, a.kind, side, lines) if lines else None
                if eff is None:
                    new[p] += w * wt
                    continue
                _, q = pol._best(ai, p, a.kind, eff, tol)
                new[q] += w * wt
                if q != k.play(p, a.kind, eff, tol):
                    sit = m.situation(k.unpack(p), a, ai, outs[oi])
                    d, dd = pol.decide(sit), DEFAULT_POLICY.decide(sit)
                    diffs[(ai, outs[oi].describe(ship.board), describe_decision(m, dd),
                           describe_decision(m, d))] += Fraction(w * wt, scale * 36)
        expanded += len(dist)
        dist = dict(new)
        scale *= 36
    base = odds(ship, atk, model=m)
    differences = tuple(
        {"attack": ai + 1, "attack_kind": str(atk[ai]), "roll": roll, "default": dflt, "optimal": opt,
         "probability": float(p)}
        for (ai, roll, dflt, opt), p in sorted(diffs.items(), key=lambda kv: -kv[1])
    )
    baseline = {"p_survive": float(base.p_survive), "expected_lost": float(base.expected_lost)}
    return OddsResult(ship, atk, "optimal", dist, scale, m, expanded, differences, baseline, pol.states)

