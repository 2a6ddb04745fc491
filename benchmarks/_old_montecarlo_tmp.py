"""Monte Carlo flights: sample the dice, walk the same model as the exact engine.

:func:`simulate` plays many flights at once. Each run is a state id (an index into
:meth:`FlightModel.state <shipcheck.flight.FlightModel.state>`); for each attack the dice of every
run are drawn together, mapped to the attack's outcome through the 36-entry table of
:meth:`FlightModel.outcomes`, and the runs that share a (state, outcome) pair move together: the
transition is computed once with :meth:`FlightModel.step` and kept in a table on the model, so later
chunks (and later calls given the same ``model``) reuse it. The rules of the game live in
:mod:`shipcheck.flight` only; this module never looks at a tile.

Reproducibility. The runs are cut into chunks of ``batch`` runs, the last one smaller. Chunk ``i``
draws from ``np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(i,)))``, so
the numbers depend on ``seed`` and ``batch`` only: one process, a pool of processes
(``workers=N``) and a Dask cluster (``scheduler=...``) give bit-identical arrays.

:func:`simulate_naive` is the plain loop (one run, one roll, one :meth:`~FlightModel.step` at a
time) that ``benchmarks/bench_montecarlo.py`` measures the vectorised engine against.
"""

from __future__ import annotations

import math
import pickle
import random
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from shipcheck.cards import Attack
from shipcheck.flight import DEFAULT_POLICY, FlightModel, Policy, State, parse_attack
from shipcheck.model import Ship

__all__ = ["SimulationResult", "simulate", "simulate_naive", "rich_progress", "MASK_LIMIT_BYTES"]

Z95 = 1.959963984540054  # two-sided 95 % normal quantile
MASK_LIMIT_BYTES = 200_000_000  # keep per-run final masks only below this size (runs x tiles bytes)
DASK_HINT = "the Dask backend needs the optional dependency: pip install 'shipcheck[dask]'"

Progress = Callable[[int, int], Any]


# -- the result -----------------------------------------------------------------------------------
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


@dataclass(frozen=True, eq=False, repr=False)
class SimulationResult:
    """Monte Carlo outcome of a sequence of attacks.

    The raw per-run arrays are kept so a run can be re-summarised: ``survived[r]`` (bool), ``lost[r]``
    (components that left the ship), ``tile_lost_counts[k]`` (runs in which tile ``k`` -- in grid
    order, as in ``ship.tiles`` -- left the ship) and, when ``runs x tiles`` bytes stay below
    :data:`MASK_LIMIT_BYTES`, ``final_masks[r, k]`` (True when tile ``k`` is still aboard at the end
    of run ``r``); otherwise ``final_masks`` is None and ``notes`` says so.

    ``seed`` and ``batch`` repeat the run: ``simulate(ship, attacks, runs=res.runs, seed=res.seed,
    batch=res.batch)`` gives the same arrays.
    """

    ship: Ship
    attacks: tuple[Attack, ...]
    policy: str
    runs: int
    seed: int
    survived: np.ndarray
    lost: np.ndarray
    tile_lost_counts: np.ndarray
    final_masks: np.ndarray | None = None
    batch: int = 65_536
    precision: float | None = None
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        lo, hi = self.p_survive_ci
        return (f"SimulationResult(runs={self.runs}, seed={self.seed}, policy={self.policy!r}, "
                f"p_survive={self.p_survive:.6g} [{lo:.6g}, {hi:.6g}], "
                f"expected_lost={self.expected_lost:.6g})")

    # -- survival --------------------------------------------------------------------------------
    @property
    def survivals(self) -> int:
        """Runs in which a human was left aboard."""
        return int(np.count_nonzero(self.survived))

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
    @property
    def expected_lost(self) -> float:
        return float(np.mean(self.lost, dtype=np.float64))

    @property
    def expected_lost_se(self) -> float:
        """Standard error of :attr:`expected_lost`, s / sqrt(n) (0 for a single run)."""
        if self.runs < 2:
            return 0.0
        return float(np.std(self.lost, ddof=1, dtype=np.float64)) / math.sqrt(self.runs)

    @property
    def expected_lost_ci(self) -> tuple[float, float]:
        """Normal 95 % interval of :attr:`expected_lost`: mean +- 1.96 s / sqrt(n)."""
        m, h = self.expected_lost, Z95 * self.expected_lost_se
        return (m - h, m + h)

    @property
    def lost_distribution(self) -> dict[int, float]:
        """Share of runs per number of lost components (values that occurred only)."""
        counts = np.bincount(self.lost.astype(np.int64), minlength=1)
        return {int(k): float(c) / self.runs for k, c in enumerate(counts) if c}

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
        from shipcheck.odds import POLICY_NOTE

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
        }
        if self.precision is not None:
            d["precision"] = self.precision
        if self.notes:
            d["notes"] = list(self.notes)
        return d

    def to_frame(self) -> Any:
        """Per-run results as a pandas DataFrame with columns ``survived`` and ``lost``."""
        import pandas as pd

        return pd.DataFrame({"survived": self.survived, "lost": self.lost},
                            index=pd.RangeIndex(self.runs, name="run"))


# -- the vectorised core --------------------------------------------------------------------------
def _transition_table(model: FlightModel, attack: Attack, ai: int, pol: Policy) -> dict[int, int]:
    """The model's (state id * outcomes + outcome) -> next state id table for one attack."""
    # a policy that is not stationary may decide differently at another attack of the same kind
    key = ("montecarlo", attack.kind, attack.side, pol, -1 if pol.stationary else ai)
    table = model._cache.get(key)
    if table is None:
        table = model._cache[key] = {}
    return table


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
    """Final state ids of ``n`` flights, dice drawn from ``g`` attack by attack."""
    sid = np.full(n, model.state_id(model.initial()), dtype=np.int64)
    for ai, a in enumerate(attacks):
        n_out, cells = _outcome_table(model, a)
        table = _transition_table(model, a, ai, policy)
        dice = g.integers(1, 7, size=(n, 2))
        oi = np.take(cells, dice[:, 0] * 6 + dice[:, 1] - 7)
        keys = sid * n_out + oi
        uniq, inv = _unique_inverse(keys)
        nxt = np.empty(len(uniq), dtype=np.int64)
        for j, k in enumerate(uniq.tolist()):
            v = table.get(k)
            if v is None:
                s, o = divmod(k, n_out)
                v = table[k] = model.state_id(model.step(model.state(s), a, ai, o, policy))
            nxt[j] = v
        sid = np.take(nxt, inv)
    return sid


@dataclass
class _Chunk:
    """What a chunk sends back: per-run survival and losses, per-tile loss counts, and the final
    masks in compact form (distinct final masks as bool rows, and each run's row index)."""

    survived: np.ndarray
    lost: np.ndarray
    tile_lost: np.ndarray
    rows: np.ndarray
    row_index: np.ndarray


def _summarise(model: FlightModel, sid: np.ndarray) -> _Chunk:
    uniq, inv = _unique_inverse(sid)
    states = [model.state(int(i)) for i in uniq]
    nt = model.n
    rows = np.array([[bool(st[0] >> k & 1) for k in range(nt)] for st in states], dtype=bool).reshape(len(states), nt)
    surv = np.array([model.humans(st) > 0 for st in states], dtype=bool)
    lost = np.array([model.lost(st) for st in states], dtype=np.int16)
    counts = np.bincount(inv, minlength=len(uniq)).astype(np.int64)
    tile_lost = counts @ (~rows).astype(np.int64) if nt else np.zeros(0, dtype=np.int64)
    index_type = np.int32 if len(uniq) < 2**31 else np.int64
    return _Chunk(surv[inv], lost[inv], tile_lost.astype(np.int64), rows, inv.astype(index_type))


def _chunk_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(index,)))


# -- workers --------------------------------------------------------------------------------------
_MODELS: dict[bytes, tuple[FlightModel, tuple[Attack, ...], Policy]] = {}


def _resolve_policy(spec: Any, model: FlightModel, attacks: tuple[Attack, ...]) -> Policy:
    if spec == "default":
        return DEFAULT_POLICY
    if spec == "optimal":
        from shipcheck.odds import OptimalPolicy

        return OptimalPolicy(model, attacks)
    if isinstance(spec, Policy):
        return spec
    raise ValueError(f"`policy` must be 'default', 'optimal' or a Policy object, not {spec!r}.")


def _worker_model(blob: bytes) -> tuple[FlightModel, tuple[Attack, ...], Policy]:
    """The flight model of a job, built once per worker process and reused by its later chunks."""
    hit = _MODELS.get(blob)
    if hit is None:
        ship, attacks, spec = pickle.loads(blob)
        model = FlightModel(ship)
        hit = (model, attacks, _resolve_policy(spec, model, attacks))
        if len(_MODELS) >= 4:
            _MODELS.pop(next(iter(_MODELS)))
        _MODELS[blob] = hit
    return hit


def _run_chunk(blob: bytes, seed: int, index: int, n: int) -> _Chunk:
    """One chunk in a worker process: ``blob`` is the pickled (ship, attacks, policy spec)."""
    model, attacks, policy = _worker_model(blob)
    return _summarise(model, _flights(model, attacks, policy, _chunk_rng(seed, index), n))


# -- argument handling ----------------------------------------------------------------------------
def _as_attacks(attacks: Any) -> tuple[Attack, ...]:
    if hasattr(attacks, "attacks") and callable(attacks.attacks):  # a Card
        attacks = attacks.attacks()
    if isinstance(attacks, (str, Attack)):
        attacks = [attacks]
    out = []
    for a in attacks:
        if isinstance(a, str):
            a = parse_attack(a)
        if not isinstance(a, Attack):
            raise TypeError(f"`attacks` must hold Attack objects or 'KIND:FROM' strings, not {a!r}.")
        out.append(a)
    return tuple(out)


def _positive_int(name: str, v: Any) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"`{name}` must be a positive integer.")
    return int(v)


def _seed_of(rng: Any, seed: Any) -> int:
    """The integer seed of a run, from ``seed``, from ``rng`` (int, SeedSequence or Generator) or fresh."""
    if rng is not None and seed is not None:
        raise ValueError("Give either `rng` or `seed`, not both.")
    src = seed if seed is not None else rng
    if src is None:
        return int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    if isinstance(src, (bool, np.bool_)):
        raise TypeError("`seed` must be a non-negative integer.")
    if isinstance(src, (int, np.integer)):
        if src < 0:
            raise ValueError("`seed` must be a non-negative integer.")
        return int(src)
    if isinstance(src, np.random.SeedSequence):
        if not src.spawn_key and isinstance(src.entropy, (int, np.integer)):
            return int(src.entropy)
        words = src.generate_state(4, np.uint32)  # a spawned or list-seeded sequence: fold to 128 bits
        return sum(int(w) << (32 * i) for i, w in enumerate(words))
    if isinstance(src, np.random.Generator):
        return int.from_bytes(src.bytes(16), "little")
    raise TypeError("`rng` must be None, an int seed, a numpy SeedSequence or a numpy Generator.")


def _plan(runs: int, batch: int, precision: float | None, max_runs: int) -> Iterator[tuple[int, int]]:
    """(chunk index, chunk size) in order: ``runs`` runs, or up to ``max_runs`` in adaptive mode."""
    total = max_runs if precision is not None else runs
    i, done = 0, 0
    while done < total:
        n = min(batch, total - done)
        yield i, n
        i += 1
        done += n


# -- backends -------------------------------------------------------------------------------------
def _in_order(submit: Callable[[int, int], Future[Any]], plan: Iterator[tuple[int, int]],
              window: int) -> Generator[_Chunk, None, None]:
    """Results of the planned chunks in chunk order, at most ``window`` in flight; the chunks still
    pending when the consumer stops are cancelled."""
    pending: list[Future[Any]] = []
    plan = iter(plan)
    try:
        while True:
            while len(pending) < window:
                nxt = next(plan, None)
                if nxt is None:
                    break
                pending.append(submit(*nxt))
            if not pending:
                return
            yield pending.pop(0).result()
    finally:
        for f in pending:
            f.cancel()


_Runner = Callable[[Iterator[tuple[int, int]]], Generator[_Chunk, None, None]]


def _mp_context() -> Any:
    """``fork`` where it is available and safe (no other thread running: workers start at once),
    else ``spawn``. Either way the results are the same; only the start-up time differs."""
    import multiprocessing
    import threading

    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


@contextmanager
def _backend(model: FlightModel, ship: Ship, attacks: tuple[Attack, ...], policy: Policy, spec: Any,
             seed: int, workers: int | None, scheduler: Any) -> Iterator[_Runner]:
    """A function from a chunk plan to chunk results in order, for the chosen backend."""
    if scheduler is None and (workers is None or workers == 1):
        def serial(plan: Iterator[tuple[int, int]]) -> Generator[_Chunk, None, None]:
            for i, n in plan:
                yield _summarise(model, _flights(model, attacks, policy, _chunk_rng(seed, i), n))
        yield serial
        return
    try:
        blob = pickle.dumps((ship, attacks, spec), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # any pickling failure means the same thing here
        raise ValueError("`policy` must be picklable to run on several workers or a Dask scheduler.") from e
    if scheduler is None:
        procs = workers or 1
        with ProcessPoolExecutor(max_workers=procs, mp_context=_mp_context()) as ex:
            yield lambda plan: _in_order(lambda i, n: ex.submit(_run_chunk, blob, seed, i, n), plan, 2 * procs)
        return
    try:
        import distributed
    except ImportError as e:
        raise ImportError(DASK_HINT) from e
    cluster = None
    if isinstance(scheduler, distributed.Client):
        client, own = scheduler, False
    elif scheduler == "local":
        import logging

        cluster = distributed.LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.ERROR)
        client, own = distributed.Client(cluster), True
    elif isinstance(scheduler, str):
        client, own = distributed.Client(scheduler), True
    else:
        raise TypeError("`scheduler` must be None, 'local', a scheduler address or a distributed.Client.")
    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        blob_f = client.scatter(blob, broadcast=True)

        def submit(i: int, n: int) -> Any:
            return client.submit(_run_chunk, blob_f, seed, i, n, pure=False)

        yield lambda plan: _in_order(submit, plan, 2 * n_workers)
    finally:
        if own:
            client.close()
        if cluster is not None:
            cluster.close()


# -- the API --------------------------------------------------------------------------------------
def simulate(
    ship: Ship,
    attacks: Sequence[Attack | str] | Any,
    *,
    runs: int = 100_000,
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
) -> SimulationResult:
    """Monte Carlo odds of a sequence of attacks: the sampled twin of :func:`shipcheck.odds.odds`.

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
        ``"default"`` (contract section 4), ``"optimal"`` or a :class:`~shipcheck.flight.Policy`.
    batch
        Runs per chunk. Memory is O(batch) per worker; chunk ``i`` draws from
        ``SeedSequence(entropy=seed, spawn_key=(i,))``, so ``batch`` is part of the stream.
    workers
        Worker processes: None or 1 runs in this process; N > 1 uses a process pool. With
        ``scheduler="local"`` the size of the Dask cluster (default 2).
    scheduler
        Dask backend (``pip install 'shipcheck[dask]'``): ``"local"`` starts a ``LocalCluster``;
        another string is a scheduler address; a ``distributed.Client`` is used as is.
    precision
        Adaptive mode: chunks are drawn in order until the width of the 95 % interval of
        ``p_survive`` is at most ``precision``, or ``max_runs`` runs are done.
    progress
        ``progress(done_runs, total_runs)`` after each chunk (see :func:`rich_progress`); in
        adaptive mode ``total_runs`` is ``max_runs``.
    model
        A :class:`FlightModel` of ``ship`` to reuse (and fill) its memoised transitions.

    Returns
    -------
    SimulationResult
        Raw per-run arrays and summaries with 95 % intervals.

    Examples
    --------
    >>> from shipcheck.shipfile import parse_ship
    >>> s = parse_ship('format = 1\\nclass = "I"\\n[[tile]]\\nat = [7, 7]\\nkind = "start_cabin"\\nsides = "3333"')
    >>> r = simulate(s, ["small-meteor:front"], runs=36_000, seed=1)
    >>> abs(r.p_survive - 5 / 6) < 4 * r.p_survive_se
    True
    """
    atk = _as_attacks(attacks)
    runs = _positive_int("runs", runs)
    batch = _positive_int("batch", batch)
    max_runs = _positive_int("max_runs", max_runs)
    if workers is not None:
        workers = _positive_int("workers", workers)
    if precision is not None:
        if not isinstance(precision, (int, float, np.floating)) or not 0 < precision < 1:
            raise ValueError("`precision` must be a number between 0 and 1 (exclusive).")
        precision = float(precision)
    if progress is not None and not callable(progress):
        raise TypeError("`progress` must be a callable(done_runs, total_runs) or None.")
    s = _seed_of(rng, seed)
    if model is None:
        model = FlightModel(ship)
    elif model.ship != ship:
        raise ValueError("`model` was built for another ship.")
    if policy is DEFAULT_POLICY or policy == "default":
        spec: Any = "default"
    elif policy == "optimal" or isinstance(policy, Policy):
        spec = policy
    else:
        raise ValueError(f"`policy` must be 'default', 'optimal' or a Policy object, not {policy!r}.")
    pol = _resolve_policy(spec, model, atk)
    total = max_runs if precision is not None else runs

    chunks: list[_Chunk] = []
    done = 0
    survivals = 0
    converged = False
    with _backend(model, ship, atk, pol, spec, s, workers, scheduler) as run, \
            closing(run(_plan(runs, batch, precision, max_runs))) as results:
        for c in results:
            chunks.append(c)
            done += len(c.survived)
            survivals += int(np.count_nonzero(c.survived))
            if progress is not None:
                progress(done, total)
            if precision is not None:
                lo, hi = _wilson(survivals, done)
                if hi - lo <= precision:
                    converged = True
                    break
    return _assemble(ship, atk, pol.name, s, batch, precision, converged, model.n, chunks)


def _assemble(ship: Ship, atk: tuple[Attack, ...], policy: str, seed: int, batch: int,
              precision: float | None, converged: bool, n_tiles: int, chunks: list[_Chunk]) -> SimulationResult:
    notes = []
    survived = np.concatenate([c.survived for c in chunks])
    lost = np.concatenate([c.lost for c in chunks])
    tile_lost = np.sum([c.tile_lost for c in chunks], axis=0, dtype=np.int64).reshape(n_tiles)
    runs = len(survived)
    masks = None
    if runs * n_tiles < MASK_LIMIT_BYTES:
        masks = np.empty((runs, n_tiles), dtype=bool)
        at = 0
        for c in chunks:
            np.take(c.rows, c.row_index, axis=0, out=masks[at:at + len(c.row_index)])
            at += len(c.row_index)
        masks.setflags(write=False)
    else:
        notes.append(f"final_masks not kept: {runs} runs x {n_tiles} tiles exceed {MASK_LIMIT_BYTES} bytes")
    if precision is not None and not converged:
        notes.append(f"max_runs reached before the 95 % interval of p_survive narrowed to {precision}")
    for a in (survived, lost, tile_lost):
        a.setflags(write=False)
    return SimulationResult(ship, atk, policy, runs, seed, survived, lost, tile_lost, masks, batch,
                            precision, tuple(notes))


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
    atk = _as_attacks(attacks)
    runs = _positive_int("runs", runs)
    s = _seed_of(None, seed)
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
        for k in range(m.n):
            if not st[0] >> k & 1:
                tile_lost[k] += 1
    return SimulationResult(ship, atk, pol.name, runs, s, survived, lost, tile_lost, None, 1, None,
                            ("simulate_naive: per-run loop, Python random stream",))


# -- progress display -----------------------------------------------------------------------------
@contextmanager
def rich_progress(description: str = "simulating", *, delay: float = 1.0) -> Iterator[Progress]:
    """A ``progress`` callback drawing a transient rich progress bar on stderr.

    The bar appears only once ``delay`` seconds have passed, so short runs print nothing, and it
    disappears when the block ends.

    >>> with rich_progress() as bar:
    ...     bar(10, 100)
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(description, total=None)
    t0 = time.monotonic()
    started = False

    def update(done: int, total: int) -> None:
        nonlocal started
        if not started and time.monotonic() - t0 >= delay:
            bar.start()
            started = True
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        if started:
            bar.stop()

