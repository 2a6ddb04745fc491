"""Monte Carlo flights: sample the dice, walk the same model as the exact engine.

:func:`simulate` plays many flights at once: each run is a state id of the
:class:`~shipcheck.flight.chain.FlightModel`; per attack the dice of every run are drawn together,
and the runs that share a (state, outcome) pair move together, on a transition computed once and
memoised on the model (later chunks and calls given the same ``model`` reuse it). The rules live in
:mod:`shipcheck.flight.chain` only; this module never looks at a tile.

Chunk ``i`` of ``batch`` runs draws from ``SeedSequence(entropy=seed, spawn_key=(i,))``, so the
numbers depend on ``seed`` and ``batch`` only, in one process, a pool or a Dask cluster. Each chunk
is reduced to counts where it runs: memory is O(``batch``) per worker; the per-run arrays are kept
only with ``keep_runs=True`` (docs/architecture.md, "How a card flows through the engine").
:func:`simulate_naive` is the plain loop ``benchmarks/bench_montecarlo.py`` measures against.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from shipcheck import validate as valid
from shipcheck.cards import Attack
from shipcheck.defaults import MAX_RUNS_FLIGHT, RUNS_FLIGHT
from shipcheck.errors import InputError
from shipcheck.flight.chain import DEFAULT_POLICY, DefaultPolicy, FlightModel, Policy, State, as_attacks
from shipcheck.flight.kernel import bits
from shipcheck.flight.tally import Z95, sums_mean_ci, sums_mean_se
from shipcheck.model import Ship
from shipcheck.runtime.workers import DASK_HINT, chunk_plan, chunk_rng, chunk_runner, worker_payload
from shipcheck.validate import check_memory, check_scheduler, positive_int, seed_of

__all__ = ["SimulationResult", "RunsNotKept", "simulate", "simulate_naive", "mean_ci", "mean_se", "sums_mean_ci",
           "sums_mean_se", "MASK_LIMIT_BYTES", "DASK_HINT"]

MASK_LIMIT_BYTES = 200_000_000  # keep per-run final masks only below this size (runs x tiles bytes)
RUN_BYTES = 10  # memory per run kept (keep_runs=True): survived, lost, mask row index, copies
CHUNK_RUN_BYTES = 64  # memory per run of a chunk in flight: state ids, dice, keys, lookups, inverse

Progress = Callable[[int, int], Any]


# -- the result -----------------------------------------------------------------------------------
def mean_se(a: Any) -> float:
    """Standard error of the mean of ``a``, s / sqrt(n) with s the sample deviation (0 for fewer
    than two values): the one estimate of every interval around a mean, flights and rounds alike."""
    x = np.asarray(a)
    if len(x) < 2:
        return 0.0
    return float(np.std(x, ddof=1, dtype=np.float64)) / math.sqrt(len(x))


def mean_ci(a: Any) -> tuple[float, tuple[float, float]]:
    """The mean of ``a`` and its 95 % normal interval, mean +- 1.96 standard errors (:func:`mean_se`)."""
    return _normal_ci(float(np.mean(a, dtype=np.float64)), mean_se(a))


def _normal_ci(m: float, se: float) -> tuple[float, tuple[float, float]]:
    h = Z95 * se
    return m, (m - h, m + h)


def _wilson(k: Any, n: int, z: float = Z95) -> tuple[Any, Any]:
    """Wilson score interval for ``k`` successes out of ``n`` (``k`` may be an array)."""
    k = np.asarray(k, dtype=float)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the exact ends where rounding would leave them a hair off: k = 0 gives lo = 0, k = n gives hi = 1
    lo = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return lo, hi


class RunsNotKept(AttributeError):
    """A per-run array asked of a result simulated without ``keep_runs=True``."""


@dataclass(frozen=True, eq=False)
class _PerRun:
    """The per-run arrays of a result (``keep_runs=True``): survival and losses of every run, and
    the final masks in compact form (per chunk, its distinct final masks as bool rows and each run's
    row), None when ``runs x tiles`` bytes reach :data:`MASK_LIMIT_BYTES`."""

    survived: np.ndarray
    lost: np.ndarray
    mask_rows: tuple[tuple[np.ndarray, np.ndarray], ...] | None


@dataclass(frozen=True, eq=False, repr=False)
class SimulationResult:
    """Monte Carlo outcome of a sequence of attacks.

    The summaries are exact counts of the runs: ``survivals`` (runs in which a human was left
    aboard), ``lost_counts[k]`` (runs that lost ``k`` components) and ``tile_lost_counts[k]`` (runs
    in which tile ``k`` -- in grid order, as in ``ship.tiles`` -- left the ship); every figure is
    worked out from them, so they take the same memory for a thousand runs as for a billion.

    The per-run arrays are there only when the run was made with ``simulate(..., keep_runs=True)``
    (otherwise reading them raises :class:`RunsNotKept`): ``survived[r]`` (bool), ``lost[r]``
    (components that left the ship), :meth:`runs_frame` and, when ``runs x tiles`` bytes stay below
    :data:`MASK_LIMIT_BYTES`, ``final_masks[r, k]`` (True when tile ``k`` is still aboard at the end
    of run ``r``); above that ``final_masks`` is None and ``notes`` says so.

    ``seed`` and ``batch`` repeat the run: ``simulate(ship, attacks, runs=res.runs, seed=res.seed,
    batch=res.batch)`` gives the same counts (and the same arrays).
    """

    ship: Ship
    attacks: tuple[Attack, ...]
    policy: str
    runs: int
    seed: int
    survivals: int
    lost_counts: np.ndarray
    tile_lost_counts: np.ndarray
    per_run: _PerRun | None = field(default=None, repr=False)
    batch: int = 65_536
    precision: float | None = None
    notes: tuple[str, ...] = ()

    def _runs(self, name: str) -> _PerRun:
        if self.per_run is None:
            raise RunsNotKept(f"`{name}` is a per-run array, kept only by simulate(..., keep_runs=True)")
        return self.per_run

    @property
    def survived(self) -> np.ndarray:
        """Per run, whether a human was left aboard (``keep_runs=True`` only)."""
        return self._runs("survived").survived

    @property
    def lost(self) -> np.ndarray:
        """Per run, the components that left the ship (``keep_runs=True`` only)."""
        return self._runs("lost").lost

    @cached_property
    def final_masks(self) -> np.ndarray | None:
        """Per run and tile, True when the tile is aboard at the end (``keep_runs=True`` only; None
        when ``runs x tiles`` bytes reach :data:`MASK_LIMIT_BYTES`)."""
        mask_rows = self._runs("final_masks").mask_rows
        if mask_rows is None:
            return None
        n_tiles = len(self.ship.tiles)
        masks = np.empty((self.runs, n_tiles), dtype=bool)
        at = 0
        for rows, index in mask_rows:
            np.take(rows, index, axis=0, out=masks[at:at + len(index)])
            at += len(index)
        masks.setflags(write=False)
        return masks

    def __repr__(self) -> str:
        lo, hi = self.p_survive_ci
        return (f"SimulationResult(runs={self.runs}, seed={self.seed}, policy={self.policy!r}, "
                f"p_survive={self.p_survive:.6g} [{lo:.6g}, {hi:.6g}], "
                f"expected_lost={self.expected_lost:.6g})")

    # -- survival --------------------------------------------------------------------------------
    @property
    def p_survive(self) -> float:
        return self.survivals / self.runs

    @property
    def p_survive_se(self) -> float:
        """Standard error of :attr:`p_survive`, sqrt(p (1 - p) / n)."""
        p = self.p_survive
        return math.sqrt(p * (1 - p) / self.runs)

    @property
    def p_survive_ci(self) -> tuple[float, float]:
        """95 % Wilson score interval of :attr:`p_survive`."""
        lo, hi = _wilson(self.survivals, self.runs)
        return (float(lo), float(hi))

    # -- losses ----------------------------------------------------------------------------------
    def _lost_sums(self) -> tuple[int, int]:
        """Sum of the components lost over the runs, and of their squares (exact integers)."""
        k = np.arange(len(self.lost_counts), dtype=object)
        c = self.lost_counts.astype(object)
        return int((k * c).sum()), int((k * k * c).sum())

    @property
    def expected_lost(self) -> float:
        return self._lost_sums()[0] / self.runs

    @property
    def expected_lost_se(self) -> float:
        """Standard error of :attr:`expected_lost`, s / sqrt(n) (0 for a single run), from the
        counts (:func:`sums_mean_se`)."""
        return sums_mean_se(self.runs, *self._lost_sums())

    @property
    def expected_lost_ci(self) -> tuple[float, float]:
        """Normal 95 % interval of :attr:`expected_lost`: mean +- 1.96 s / sqrt(n)."""
        return sums_mean_ci(self.runs, *self._lost_sums())[1]

    @property
    def lost_distribution(self) -> dict[int, float]:
        """Share of runs per number of lost components (values that occurred only)."""
        return {int(k): float(c) / self.runs for k, c in enumerate(self.lost_counts) if c}

    # -- per tile --------------------------------------------------------------------------------
    @property
    def p_lost(self) -> np.ndarray:
        """Per tile (grid order), the share of runs in which it left the ship."""
        return self.tile_lost_counts / self.runs

    @property
    def p_lost_se(self) -> np.ndarray:
        p = self.p_lost
        return np.sqrt(p * (1 - p) / self.runs)

    @property
    def p_lost_ci(self) -> np.ndarray:
        """Per tile, the 95 % Wilson interval of :attr:`p_lost`, shape (tiles, 2)."""
        lo, hi = _wilson(self.tile_lost_counts, self.runs)
        return np.stack([np.atleast_1d(lo), np.atleast_1d(hi)], axis=-1).reshape(-1, 2)

    # -- export ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``shipcheck simulate --format json`` (contract section 3)."""
        from shipcheck.flight.odds import POLICY_NOTE

        b = self.ship.board
        ci = self.p_lost_ci
        d: dict[str, Any] = {
            "exact": False,
            "attacks": [str(a) for a in self.attacks],
            "policy": self.policy,
            "runs": self.runs,
            "seed": self.seed,
            "batch": self.batch,
            "p_survive": self.p_survive,
            "p_survive_ci": list(self.p_survive_ci),
            "expected_lost": self.expected_lost,
            "expected_lost_ci": list(self.expected_lost_ci),
            "lost_distribution": {str(k): v for k, v in self.lost_distribution.items()},
            "tiles": [{"at": b.cell_name(t.at), "p_lost": float(p), "ci": [float(lo), float(hi)]}
                      for t, p, (lo, hi) in zip(self.ship.tiles, self.p_lost, ci, strict=True)],
            "board_verified": b.verified,
            "note": POLICY_NOTE if self.policy == "default" else f"policy {self.policy}",
            "survivals": self.survivals,
            "lost_counts": {str(k): int(c) for k, c in enumerate(self.lost_counts) if c},
        }
        if self.precision is not None:
            d["precision"] = self.precision
        if self.notes:
            d["notes"] = list(self.notes)
        return d

    def to_frame(self) -> Any:
        """One row per tile, as :meth:`OddsResult.to_frame <shipcheck.flight.odds.OddsResult.to_frame>`:
        ``col``, ``row`` (numeric), ``square``, ``kind``, ``p_lost`` and its 95 % interval
        ``p_lost_lo``, ``p_lost_hi``. Built from the counts; the per-run table is :meth:`runs_frame`."""
        import pandas as pd

        from shipcheck.check.rules import _col_row

        b = self.ship.board
        ci = self.p_lost_ci
        rows = []
        for t, p, (lo, hi) in zip(self.ship.tiles, self.p_lost, ci, strict=True):
            col, row = _col_row(b, t.at)
            rows.append({"col": col, "row": row, "square": b.cell_text(t.at), "kind": t.kind, "p_lost": float(p),
                         "p_lost_lo": float(lo), "p_lost_hi": float(hi)})
        return pd.DataFrame(rows, columns=["col", "row", "square", "kind", "p_lost", "p_lost_lo", "p_lost_hi"])

    def runs_frame(self) -> Any:
        """Per-run results: columns ``survived`` and ``lost``, indexed by run. Needs the per-run
        arrays: simulate with ``keep_runs=True`` (else :class:`RunsNotKept`)."""
        import pandas as pd

        per = self._runs("runs_frame()")
        return pd.DataFrame({"survived": per.survived, "lost": per.lost},
                            index=pd.RangeIndex(self.runs, name="run"))


# -- the vectorised core --------------------------------------------------------------------------
class _Table:
    """One attack's transitions on a model: ``next[state id * 36 + dice pair]`` is the next state
    id, -1 where not yet worked out; grown as new states appear."""

    def __init__(self) -> None:
        self.next = np.full(0, -1, dtype=np.int64)

    def ensure(self, top: int) -> None:
        if top > len(self.next):
            grown = np.full(max(top, 2 * len(self.next)), -1, dtype=np.int64)
            grown[:len(self.next)] = self.next
            self.next = grown


def _transition_table(model: FlightModel, attack: Attack, ai: int, pol: Policy) -> _Table:
    """The model's transition table for one attack under ``pol``."""
    # a policy that is not stationary may decide differently at another attack of the same kind
    key = ("montecarlo", attack.kind, attack.side, pol, -1 if pol.stationary else ai)
    table = model._cache.get(key)
    if table is None:
        table = model._cache[key] = _Table()
    return table  # type: ignore[no-any-return]


def _outcome_table(model: FlightModel, attack: Attack) -> tuple[int, np.ndarray]:
    key = ("montecarlo-cells", attack.kind, attack.side)
    hit = model._cache.get(key)
    if hit is None:
        outs, cell36 = model.outcomes(attack)
        hit = model._cache[key] = (len(outs), np.asarray(cell36, dtype=np.int64))
    return hit


def _unique_inverse(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` for non-negative int keys.

    Keys here are small (state id x outcomes), so while they stay below a few times their count a
    counting pass (O(n)) replaces the sort (O(n log n)); the answer is the same either way.
    """
    top = int(keys.max(initial=0)) + 1
    if top > 4 * len(keys) + 4096:
        uniq, inv = np.unique(keys, return_inverse=True)
        return uniq, inv.reshape(-1)
    uniq = np.flatnonzero(np.bincount(keys, minlength=top))
    lut = np.empty(top, dtype=np.int64)
    lut[uniq] = np.arange(len(uniq))
    return uniq, np.take(lut, keys)


def _flights(model: FlightModel, attacks: Sequence[Attack], policy: Policy, g: np.random.Generator,
             n: int) -> np.ndarray:
    """Final state ids of ``n`` flights, dice drawn from ``g`` attack by attack.

    Each attack's table is indexed by state id x 36 + dice pair, so a step of all runs is one
    lookup; the pairs met for the first time are worked out once and kept in the table."""
    sid = np.full(n, model.state_id(model.initial()), dtype=np.int64)
    kernel = model.kernel if type(policy) is DefaultPolicy else None
    packed = model._states
    for ai, a in enumerate(attacks):
        _, cells = _outcome_table(model, a)
        table = _transition_table(model, a, ai, policy)
        keys = sid * 36
        keys += g.integers(0, 36, size=n)  # the dice pair (d1, d2) as 6 (d1 - 1) + d2 - 1
        table.ensure(len(packed) * 36)  # every state id known so far
        nxt = np.take(table.next, keys)
        if n and nxt.min() < 0:
            for k in np.unique(keys[nxt < 0]).tolist():
                s, c = divmod(k, 36)
                o = int(cells[c])
                if kernel is not None:
                    v = model.packed_id(kernel.each(packed[s], a)[o])
                else:
                    v = model.state_id(model.step(model.state(s), a, ai, o, policy))
                # every dice pair of the same outcome leads there
                table.next[s * 36 + np.flatnonzero(cells == o)] = v
            nxt = np.take(table.next, keys)
        sid = nxt
    return sid


class _Summaries:
    """Per state id of a model: survived, components lost, the tiles aboard and the tiles lost (the
    engine's: :meth:`Kernel.lost_tiles <shipcheck.flight.kernel.Kernel.lost_tiles>`) as bool rows; kept on
    the model and extended as new states appear, so no chunk works a state out twice."""

    def __init__(self, n_tiles: int) -> None:
        self.n = n_tiles
        self.size = 0
        self.survived = np.zeros(0, dtype=bool)
        self.lost = np.zeros(0, dtype=np.int16)
        self.rows = np.zeros((0, n_tiles), dtype=bool)
        self.gone = np.zeros((0, n_tiles), dtype=bool)

    @classmethod
    def of(cls, model: FlightModel) -> _Summaries:
        hit = model._cache.get("montecarlo-summaries")
        if hit is None:
            hit = model._cache["montecarlo-summaries"] = cls(model.n)
        return hit  # type: ignore[no-any-return]

    def cover(self, model: FlightModel, top: int) -> None:
        """Make sure ids below ``top`` are summarised."""
        if top <= self.size:
            return
        k = model.kernel
        new = model._states[self.size:top]
        nbytes = (self.n + 7) // 8
        surv = np.fromiter((k.humans(p) > 0 for p in new), dtype=bool, count=len(new))
        masks = [p & k.full for p in new]
        lost = np.fromiter((k.lost(m) for m in masks), dtype=np.int16, count=len(new))
        rows = self._rows(masks, nbytes)
        gone = self._rows([k.lost_tiles(m) for m in masks], nbytes)
        self.survived = np.concatenate([self.survived, surv])
        self.lost = np.concatenate([self.lost, lost])
        self.rows = np.concatenate([self.rows, rows])
        self.gone = np.concatenate([self.gone, gone])
        self.size = top

    def _rows(self, masks: list[int], nbytes: int) -> np.ndarray:
        """Bit masks as bool rows of ``n`` tiles."""
        buf = np.frombuffer(b"".join(m.to_bytes(nbytes, "little") for m in masks), dtype=np.uint8)
        rows = np.unpackbits(buf.reshape(len(masks), nbytes), axis=1, bitorder="little")[:, :self.n].astype(bool)
        return rows.reshape(len(masks), self.n)


@dataclass
class _Chunk:
    """What a chunk sends back: its runs, survivals, runs per number of lost components and per
    lost tile; with ``keep_runs``, also per-run survival and losses and the final masks in compact
    form (distinct final masks as bool rows, and each run's row index)."""

    runs: int
    survivals: int
    lost_counts: np.ndarray
    tile_lost: np.ndarray
    per_run: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None


def _summarise(model: FlightModel, sid: np.ndarray, keep_runs: bool = False) -> _Chunk:
    uniq, inv = _unique_inverse(sid)
    summ = _Summaries.of(model)
    summ.cover(model, int(uniq[-1]) + 1 if len(uniq) else 0)
    nt = model.n
    rows = summ.rows[uniq]
    surv = summ.survived[uniq]
    lost = summ.lost[uniq]
    counts = np.bincount(inv, minlength=len(uniq)).astype(np.int64)
    tile_lost = counts @ summ.gone[uniq].astype(np.int64) if nt else np.zeros(0, dtype=np.int64)
    lost_counts = np.zeros(int(lost.max(initial=0)) + 1, dtype=np.int64)
    np.add.at(lost_counts, lost.astype(np.int64), counts)
    per_run = None
    if keep_runs:
        index_type = np.int32 if len(uniq) < 2**31 else np.int64
        per_run = (surv[inv], lost[inv], rows, inv.astype(index_type))
    return _Chunk(len(sid), int(counts[surv].sum()), lost_counts, tile_lost.astype(np.int64), per_run)


# -- workers --------------------------------------------------------------------------------------
def _resolve_policy(spec: Any, model: FlightModel, attacks: tuple[Attack, ...]) -> Policy:
    if spec == "default":
        return DEFAULT_POLICY
    if spec == "optimal":
        from shipcheck.flight.odds import OptimalPolicy

        return OptimalPolicy(model, attacks)
    if isinstance(spec, Policy):
        from shipcheck.flight.odds import OptimalPolicy

        if isinstance(spec, OptimalPolicy):
            spec.fits(model.ship, attacks)
        return spec
    raise InputError("bad `policy`", key="policy", value=spec, expected="'default', 'optimal' or a Policy object")


def _build_job(job: tuple[Ship, tuple[Attack, ...], Any, bool]) \
        -> tuple[FlightModel, tuple[Attack, ...], Policy, bool]:
    ship, attacks, spec, keep_runs = job
    model = FlightModel(ship)
    return model, attacks, _resolve_policy(spec, model, attacks), keep_runs


def _run_chunk(blob: bytes, seed: int, index: int, n: int) -> _Chunk:
    """One chunk in a worker process: ``blob`` is the pickled (ship, attacks, policy spec,
    keep_runs); the flight model is built once per worker and reused by its later chunks."""
    model, attacks, policy, keep_runs = worker_payload(blob, _build_job)
    return _summarise(model, _flights(model, attacks, policy, chunk_rng(seed, index), n), keep_runs)


# -- argument handling ----------------------------------------------------------------------------
def _plan(runs: int, batch: int, precision: float | None, max_runs: int) -> Iterator[tuple[int, int]]:
    """(chunk index, chunk size) in order: ``runs`` runs, or up to ``max_runs`` in adaptive mode."""
    return chunk_plan(max_runs if precision is not None else runs, batch)


# -- the API --------------------------------------------------------------------------------------
def simulate(
    ship: Ship,
    attacks: Sequence[Attack | str] | Any,
    *,
    runs: int = RUNS_FLIGHT,
    rng: int | np.random.SeedSequence | np.random.Generator | None = None,
    seed: int | None = None,
    policy: Policy | str = DEFAULT_POLICY,
    batch: int = 65_536,
    workers: int | None = None,
    scheduler: Any = None,
    precision: float | None = None,
    max_runs: int = 10_000_000,
    progress: Progress | None = None,
    model: FlightModel | None = None,
    keep_runs: bool = False,
) -> SimulationResult:
    """Monte Carlo odds of a sequence of attacks: the sampled twin of :func:`shipcheck.flight.odds.odds`.

    Parameters
    ----------
    ship, attacks
        The ship and the attacks in order (:class:`Attack` objects, ``"KIND:FROM"`` strings, or a
        card, whose :meth:`~shipcheck.cards.Card.attacks` are used).
    runs
        Number of flights (ignored when ``precision`` is given).
    rng, seed
        The random stream: an int ``seed``, or ``rng`` as an int, a ``SeedSequence`` or a
        ``Generator`` (which gives up 128 bits once). Neither: fresh entropy. The seed used is
        ``result.seed``; with the same ``batch`` it repeats the run exactly.
    policy
        ``"default"`` (docs/flight-model.md), ``"optimal"`` or a :class:`~shipcheck.flight.chain.Policy`.
    batch
        Runs per chunk. Memory is O(batch) per worker (about :data:`CHUNK_RUN_BYTES` bytes a run of
        a chunk), whatever ``runs`` is; chunk ``i`` draws from
        ``SeedSequence(entropy=seed, spawn_key=(i,))``, so ``batch`` is part of the stream.
    workers
        Worker processes: None or 1 runs in this process; N > 1 uses a process pool (see
        :mod:`shipcheck.runtime.workers`), capped by the number of chunks and of CPUs. With
        ``scheduler="local"`` the size of the Dask cluster (default 2).
    scheduler
        Dask backend (``pip install 'shipcheck[dask]'``): ``"local"`` starts a ``LocalCluster``;
        another string is a scheduler address (``tcp://host:port``; one that does not answer within
        :data:`shipcheck.runtime.workers.CONNECT_TIMEOUT` seconds is an :class:`InputError`); a
        ``distributed.Client`` is used as is.
    precision
        Adaptive mode: chunks are drawn in order until the width of the 95 % interval of
        ``p_survive`` is at most ``precision``, or ``max_runs`` runs are done.
    progress
        ``progress(done_runs, total_runs)`` after each chunk (the CLI draws a bar with it); in
        adaptive mode ``total_runs`` is ``max_runs``.
    model
        A :class:`FlightModel` of ``ship`` to reuse (and fill) its memoised transitions.
    keep_runs
        Also keep the per-run arrays (``survived``, ``lost``, ``final_masks``, ``runs_frame()``):
        about :data:`RUN_BYTES` bytes a run, plus ``tiles`` bytes a run for the final masks while
        ``runs x tiles`` stays below :data:`MASK_LIMIT_BYTES`. Off by default: the summaries,
        ``to_dict()`` and ``to_frame()`` need only the counts.

    Returns
    -------
    SimulationResult
        Exact counts of the runs, summaries with 95 % intervals and, with ``keep_runs``, the
        per-run arrays.

    Raises
    ------
    InputError
        A bad argument (named in the message), a ``batch`` whose chunk would not fit in the memory
        available, or with ``keep_runs`` ``runs`` whose per-run arrays would not.

    Examples
    --------
    >>> from shipcheck.shipfile import parse_ship
    >>> s = parse_ship('format = 1\\nclass = "I"\\n[[tile]]\\nat = [7, 7]\\nkind = "start_cabin"\\nsides = "3333"')
    >>> r = simulate(s, ["small-meteor:front"], runs=36_000, seed=1)
    >>> abs(r.p_survive - 5 / 6) < 4 * r.p_survive_se
    True
    """
    atk = as_attacks(attacks)
    if not isinstance(ship, Ship):
        raise InputError("bad `ship`", key="ship", value=type(ship).__name__, expected="a Ship")
    runs = valid.runs(runs, maximum=MAX_RUNS_FLIGHT)
    batch = positive_int("batch", batch)
    max_runs = valid.runs(max_runs, key="max_runs", maximum=MAX_RUNS_FLIGHT)
    if workers is not None:
        workers = positive_int("workers", workers)
    precision = _valid_precision(precision)
    _check_callback_and_flag(progress, keep_runs)
    check_scheduler(scheduler)
    s = seed_of(rng, seed)
    total = max_runs if precision is not None else runs
    _check_memory_budget(ship, total, batch, workers, scheduler, keep_runs=keep_runs,
                         adaptive=precision is not None)
    if model is None:
        model = FlightModel(ship)
    elif not isinstance(model, FlightModel) or model.ship != ship:
        raise InputError("`model` was built for another ship", key="model", expected="FlightModel(ship)")
    spec = _policy_spec(policy)
    pol = _resolve_policy(spec, model, atk)
    n_chunks = -(-total // batch)

    def local(i: int, n: int) -> _Chunk:
        return _summarise(model, _flights(model, atk, pol, chunk_rng(s, i), n), keep_runs)

    total_counts = _Totals(model.n)
    with chunk_runner(_run_chunk, (ship, atk, spec, keep_runs), seed=s, n_chunks=n_chunks, workers=workers,
                      scheduler=scheduler, local=local, what="`policy`") as run, \
            closing(run(_plan(runs, batch, precision, max_runs))) as results:
        kept, converged = _gather(results, total_counts, total=total, progress=progress, precision=precision)
    notes = []
    if precision is not None and not converged:
        notes.append(f"max_runs reached before the 95 % interval of p_survive narrowed to {precision}")
    return total_counts.result(ship, atk, pol.name, s, batch, precision, notes, kept if keep_runs else None)


def _valid_precision(precision: Any) -> float | None:
    """``precision`` as a float in (0, 1), or None (not adaptive)."""
    if precision is None:
        return None
    if (isinstance(precision, bool) or not isinstance(precision, (int, float, np.floating))
            or not 0 < precision < 1):
        raise InputError("`precision` must be a number between 0 and 1 (exclusive)", key="precision",
                         value=precision, expected="a width between 0 and 1")
    return float(precision)


def _check_callback_and_flag(progress: Any, keep_runs: Any) -> None:
    """Refuse a ``progress`` that is not callable and a ``keep_runs`` that is not a bool."""
    valid.callback(progress, key="progress", expected="a callable(done_runs, total_runs) or None", args=2)
    if not isinstance(keep_runs, bool):
        raise InputError("bad `keep_runs`", key="keep_runs", value=keep_runs, expected="True or False")


def _check_memory_budget(ship: Ship, total: int, batch: int, workers: int | None, scheduler: Any, *,
                         keep_runs: bool, adaptive: bool) -> None:
    """Refuse chunks (and, with ``keep_runs``, per-run arrays) that would not fit in memory."""
    in_flight = min(batch, total) * CHUNK_RUN_BYTES * (1 if workers is None or scheduler is not None
                                                       else min(workers, -(-total // batch)))
    check_memory(in_flight, key="batch", value=batch, what=f"chunks of {min(batch, total):,} runs",
                 per=CHUNK_RUN_BYTES)
    if keep_runs:
        masks = total * len(ship.tiles) if total * len(ship.tiles) < MASK_LIMIT_BYTES else 0
        check_memory(total * RUN_BYTES + masks,
                     key="max_runs" if adaptive else "runs", value=total,
                     what=f"keeping the per-run results of {total:,} runs", per=RUN_BYTES)


def _policy_spec(policy: Any) -> Any:
    """The picklable form of ``policy`` sent to the workers: ``"default"``, ``"optimal"`` or the Policy."""
    if policy is DEFAULT_POLICY or (isinstance(policy, str) and policy == "default"):
        return "default"
    if (isinstance(policy, str) and policy == "optimal") or isinstance(policy, Policy):
        return policy
    raise InputError("bad `policy`", key="policy", value=policy,
                     expected="'default', 'optimal' or a Policy object")


def _gather(results: Iterable[_Chunk], totals: _Totals, *, total: int, progress: Progress | None,
            precision: float | None) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]], bool]:
    """Add the chunks up in order into ``totals``; stop early once the interval is narrow enough.

    Returns the per-run arrays kept by the chunks and whether ``precision`` was reached."""
    kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    for c in results:
        totals.add(c)
        if c.per_run is not None:
            kept.append(c.per_run)
        if progress is not None:
            progress(totals.runs, total)
        if precision is not None:
            lo, hi = _wilson(totals.survivals, totals.runs)
            if hi - lo <= precision:
                return kept, True
    return kept, False


class _Totals:
    """The counts of the chunks seen so far, added up as they arrive."""

    def __init__(self, n_tiles: int) -> None:
        self.runs = 0
        self.survivals = 0
        self.lost_counts = np.zeros(1, dtype=np.int64)
        self.tile_lost = np.zeros(n_tiles, dtype=np.int64)

    def add(self, c: _Chunk) -> None:
        self.runs += c.runs
        self.survivals += c.survivals
        if len(c.lost_counts) > len(self.lost_counts):
            self.lost_counts = np.concatenate(
                [self.lost_counts, np.zeros(len(c.lost_counts) - len(self.lost_counts), dtype=np.int64)])
        self.lost_counts[:len(c.lost_counts)] += c.lost_counts
        self.tile_lost += c.tile_lost.reshape(self.tile_lost.shape)

    def result(self, ship: Ship, atk: tuple[Attack, ...], policy: str, seed: int, batch: int,
               precision: float | None, notes: list[str],
               kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None) -> SimulationResult:
        per_run = None
        if kept is not None:
            n_tiles = len(self.tile_lost)
            survived = np.concatenate([k[0] for k in kept]) if kept else np.zeros(0, dtype=bool)
            lost = np.concatenate([k[1] for k in kept]) if kept else np.zeros(0, dtype=np.int16)
            masks = None
            if self.runs * n_tiles < MASK_LIMIT_BYTES:
                masks = tuple((k[2], k[3]) for k in kept)
            else:
                notes.append(f"final_masks not kept: {self.runs} runs x {n_tiles} tiles exceed "
                             f"{MASK_LIMIT_BYTES} bytes")
            for a in (survived, lost):
                a.setflags(write=False)
            per_run = _PerRun(survived, lost, masks)
        for a in (self.lost_counts, self.tile_lost):
            a.setflags(write=False)
        return SimulationResult(ship, atk, policy, self.runs, seed, self.survivals, self.lost_counts,
                                self.tile_lost, per_run, batch, precision, tuple(notes))


def simulate_naive(
    ship: Ship,
    attacks: Sequence[Attack | str] | Any,
    *,
    runs: int,
    seed: int | None = None,
    policy: Policy | str = DEFAULT_POLICY,
    model: FlightModel | None = None,
) -> SimulationResult:
    """The baseline: one run at a time, two :mod:`random` dice per attack, one
    :meth:`FlightModel.step` per roll. Same model as :func:`simulate`, another random stream."""
    atk = as_attacks(attacks)
    runs = positive_int("runs", runs)
    s = seed_of(None, seed)
    m = model or FlightModel(ship)
    pol = _resolve_policy("default" if policy is DEFAULT_POLICY else policy, m, atk)
    tables = [m.outcomes(a)[1] for a in atk]
    r = random.Random(s)
    survived = np.empty(runs, dtype=bool)
    lost = np.empty(runs, dtype=np.int16)
    tile_lost = np.zeros(m.n, dtype=np.int64)
    start = m.initial()
    for run in range(runs):
        st: State = start
        for ai, a in enumerate(atk):
            d1, d2 = r.randint(1, 6), r.randint(1, 6)
            st = m.step(st, a, ai, tables[ai][(d1 - 1) * 6 + d2 - 1], pol)
        survived[run] = m.humans(st) > 0
        lost[run] = m.lost(st)
        for k in bits(m.kernel.lost_tiles(st[0])):
            tile_lost[k] += 1
    lost_counts = np.bincount(lost.astype(np.int64), minlength=1)
    return SimulationResult(ship, atk, pol.name, runs, s, int(np.count_nonzero(survived)), lost_counts, tile_lost,
                            _PerRun(survived, lost, None), 1, None,
                            ("simulate_naive: per-run loop, Python random stream",))
