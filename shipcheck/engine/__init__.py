"""The rules of flight, written once: the engine every whole round flies on.

Modules (each a set of plain functions in the subset of Python numba compiles, see
:mod:`shipcheck.jit`): :mod:`.bits`, :mod:`.crew`, :mod:`.charges`, :mod:`.hull`, :mod:`.flight`,
:mod:`.power`, :mod:`.goods`, :mod:`.track`, :mod:`.cards` and :mod:`.run`, over the state rows and
tables of :mod:`.layout`; :mod:`.views` hands the run's arrays to the compiled code without
reference counts; exact passes in :mod:`.exact` and :mod:`.joint`; :mod:`.build` is the builder
process. Importing this package compiles nothing and imports no numba.

:func:`play` flies runs. The compiled engine is built once per install by a builder process
(:mod:`shipcheck.prebuild`; where none can run, in a background thread of the process that needs
it), then numba's disk cache serves it in a fraction of a second, and the extension module the
builder compiles ahead of time (:mod:`shipcheck.aot`) in a millisecond, without numba; while it
is being built the same functions run as plain Python (:func:`shipcheck.jit.plain_package`) on
the first runs, a slice at a time, and the compiled engine takes over from the slice after it is
ready. The numbers do not depend on which one flies a run. Where numba cannot be imported
everything flies as plain Python, and :func:`notes` says why.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["Outputs", "compiled_ready", "function", "notes", "play", "python_ints", "warm"]

#: runs a slice of the plain engine flies before looking whether the compiled one is ready
PLAIN_SLICE = 32

_lock = threading.Lock()
_warm: dict[str, Any] = {"thread": None, "error": None, "started": 0.0, "done": 0.0}


def _run_module(plain: bool) -> ModuleType:
    from shipcheck import jit

    if plain:
        pkg = jit.plain_package(__name__)
        from importlib import import_module

        return import_module(pkg.__name__ + ".run")
    from . import run

    return run


class Outputs:
    """The arrays a call of :func:`play` fills, per player and run (see
    :func:`shipcheck.engine.run.play`)."""

    def __init__(self, players: int, runs: int, types: int, account: int, sources: int, tiles: int) -> None:
        P, n = players, runs
        self.credits = np.zeros((P, n), dtype=np.int32)
        self.lost = np.zeros((P, n), dtype=np.int16)
        self.survived = np.zeros((P, n), dtype=np.bool_)
        self.gave_up = np.zeros((P, n), dtype=np.int8)
        self.days = np.zeros((P, n), dtype=np.int32)
        self.place = np.zeros((P, n), dtype=np.int8)
        self.card_credits = np.zeros((P, n), dtype=np.int32)
        self.sources = np.zeros((P, n, sources), dtype=np.int32)
        self.by_type = np.zeros((P, types, account), dtype=np.int64)
        self.tile_lost = np.zeros((P, tiles), dtype=np.int64)

    PER_RUN = ("credits", "lost", "survived", "gave_up", "days", "place", "card_credits", "sources")

    def part(self, a: int, b: int) -> Outputs:
        """Fresh arrays for runs ``a:b`` (contiguous, so the compiled call keeps its one signature)."""
        out = Outputs.__new__(Outputs)
        for k in self.PER_RUN:
            v = getattr(self, k)
            setattr(out, k, np.zeros((v.shape[0], b - a, *v.shape[2:]), dtype=v.dtype))
        out.by_type = np.zeros_like(self.by_type)
        out.tile_lost = np.zeros_like(self.tile_lost)
        return out

    def put(self, a: int, part: Outputs) -> None:
        """Copy ``part`` (from :meth:`part`) back as runs ``a:``."""
        for k in self.PER_RUN:
            v = getattr(part, k)
            getattr(self, k)[:, a:a + v.shape[1]] = v
        self.by_type += part.by_type
        self.tile_lost += part.tile_lost


def _call(mod: ModuleType, t: dict[str, Any], decks: np.ndarray, rolls: np.ndarray, out: Outputs) -> None:
    mod.play(t["S"], t["C"], t["R"], t["start"], t["prices"], t["arrival"], t["init"], t["purse"],
             decks, rolls, out.credits, out.lost, out.survived, out.gave_up, out.days, out.place,
             out.card_credits, out.sources, out.by_type, out.tile_lost, t["depth"])


def _asks(t: dict[str, Any]) -> bool:
    """Whether a player of the tables ``t`` flies a policy of its own (asked in Python)."""
    from .layout import ASK, V

    return bool(t["S"][:, V, ASK].any())


def _dummy() -> tuple[dict[str, Any], np.ndarray, np.ndarray, Outputs]:
    """The smallest call with the types of a real one: it makes numba compile (or load) ``play``."""
    from . import layout as L

    S = np.zeros((1, L.ROWS, 64), dtype=np.int64)
    S[:, L.OFFS, :4] = (4, 5, 6, 10)
    R = np.zeros(7, dtype=np.int64)
    R[L.R_P] = 1
    t = {"S": S, "C": np.zeros((1, L.CROWS, 12), dtype=np.int64), "R": R, "start": np.zeros(1, dtype=np.int64),
         "prices": np.zeros(4, dtype=np.int64), "arrival": np.zeros(1, dtype=np.int64),
         "init": np.zeros((1, 10), dtype=np.int64), "purse": np.zeros(1, dtype=np.int64), "depth": 1}
    decks = np.zeros((0, 1), dtype=np.int64)
    rolls = np.zeros((0, 1, 8), dtype=np.int64)
    return t, decks, rolls, Outputs(1, 0, 12, 6, 5, 1)


def _load_or_build() -> None:
    """Load the compiled engine from numba's disk cache, once it is there: when this install's
    engine was never built, a builder process of its own builds it first (:mod:`.build`: on another
    core, not sharing this process's interpreter lock with the plain runs, and finished even if
    this process ends first), and this thread waits for it. Where no builder can run, or it fails,
    the engine is built here."""
    from shipcheck import jit
    from shipcheck import prebuild as build

    here = build.built()
    if not here and os.environ.get(build.ENV, "").strip().lower() not in ("0", "off", "no", "false") \
            and not build.failed():
        proc = build.start()
        if proc is None:  # another process's builder is at work: wait for it
            while build.busy() and not build.built():
                time.sleep(0.2)
            here = True
        elif not isinstance(proc, bool):
            proc.wait()
            here = True
    if here:
        _build()  # loads it from the cache (or compiles here, when the builder failed)
        return
    build.forget_stale()  # no builder: this process compiles, from the current sources only
    _build()
    if _warm["error"] is None and not jit.cache_note():
        build.mark_built()


def _build() -> None:
    from shipcheck import jit

    try:
        t, decks, rolls, out = _dummy()
        with jit.no_blas_probe():
            _call(_run_module(False), t, decks, rolls, out)
    except BaseException as exc:  # kept for the caller, who flies on the plain engine and says why
        _warm["error"] = exc
    finally:
        _warm["done"] = time.monotonic()


def function(module: str, name: str, *, plain: bool | None = None) -> Callable[..., Any]:
    """Function ``name`` of the engine's module ``module``: compiled once the compiled engine is
    ready in this process, else its plain copy (the same rules, for Python callers: a policy's
    view of its ship, the exact odds). ``plain``: True for the plain copy (no numba started),
    False for the compiled one (compiled on first use)."""
    from importlib import import_module

    from shipcheck import jit

    if plain is None:
        plain = not compiled_ready()  # imports no numba: a small question never starts it
    if not plain:
        return getattr(import_module(f"{__name__}.{module}"), name)  # type: ignore[no-any-return]
    pkg = jit.plain_package(__name__)
    return getattr(import_module(f"{pkg.__name__}.{module}"), name)  # type: ignore[no-any-return]


def compiled_ready() -> bool:
    """Whether the compiled engine is loaded in this process (asking imports no numba: it is
    loaded only by :func:`warm`'s thread, which starts only where numba compiles)."""
    th = _warm["thread"]
    return th is not None and not th.is_alive() and _warm["error"] is None


def warm(wait: float = 0.0) -> bool:
    """Start loading (or, on its first use, compiling) the compiled engine in a background thread,
    once per process, and wait for it up to ``wait`` seconds. True when it is ready."""
    from shipcheck import jit

    if not jit.compiled():
        return False
    with _lock:
        if _warm["thread"] is None:
            _warm["started"] = time.monotonic()
            th = threading.Thread(target=_load_or_build, name="shipcheck-compile", daemon=True)
            _warm["thread"] = th
            th.start()
    th = _warm["thread"]
    th.join(wait if wait > 0 else 0.0)
    return compiled_ready()


def notes() -> list[str]:
    """What a user should know about how the engine ran in this process: flown as plain Python
    (and why), compiled in memory only, or a compile that failed."""
    from shipcheck import jit

    out = []
    why = jit.reason() if jit.looked() else None  # not asked: numba was not needed (shipcheck.aot)
    if why:
        out.append(f"the rules flew as plain Python, much slower than compiled: {why}")
    err = _warm["error"]
    if err is not None:
        out.append(f"the compiled engine could not be built ({type(err).__name__}: {err}): the rules flew as "
                   "plain Python, much slower")
    cache = jit.cache_note()
    if cache:
        out.append(cache)
    return out


#: seconds a round waits for the compiled engine to load from numba's disk cache (once built, it
#: loads in well under a second; flying plain meanwhile would only slow the load down)
LOAD_WAIT = 20.0


def _load_wait() -> float:
    from shipcheck import prebuild

    return LOAD_WAIT if prebuild.built() else 0.0


def python_ints(t: dict[str, Any]) -> dict[str, Any]:
    """The tables ``t`` with their ``int64`` arrays as arrays of Python ints (``dtype=object``), as
    the plain engine flies them: numpy's int64 scalars, indexed and added one by one, cost more
    than the rules' own work in plain Python (plain flights about 1.5 times faster so; the same
    numbers, as no mask reaches bit 63: ``layout.MAX_TILES``). :func:`shipcheck.engine.run.play`
    makes its own arrays of the type of the tables it is given."""
    return {k: v.astype(object) if isinstance(v, np.ndarray) and v.dtype == np.int64 else v for k, v in t.items()}


def _fly_plain(slow: ModuleType, t: dict[str, Any], decks: np.ndarray, rolls: np.ndarray, out: Outputs,
               a: int, b: int) -> Outputs:
    """Runs ``a:b`` on the plain engine (``t`` from :func:`python_ints`): their filled outputs."""
    part = out.part(a, b)
    _call(slow, t, decks[a:b].astype(object), rolls[a:b].astype(object), part)
    return part


def play(t: dict[str, Any], decks: np.ndarray, rolls: np.ndarray, out: Outputs, *, plain: bool = False,
         tick: Callable[[int], Any] | None = None, first: Any = None) -> None:
    """Fly the runs of ``decks`` and ``rolls`` with the tables ``t`` into ``out``: on the compiled
    engine once it is ready, else a slice of :data:`PLAIN_SLICE` runs at a time on the plain one
    (``tick(runs_done)`` after each slice) until it is; ``plain``: on the plain one throughout.

    ``first``: the planner of a first round (:mod:`shipcheck.firstround`, passed by the rounds that
    use it). In a round it planned, on an engine not yet built, the first slice decides whether
    the rest flies plain on every core (forked workers; the builder starts after the round) or
    beside the builder started at once; without it the builder starts at once. Where numba
    cannot compile, a planned round flies plain on every core. Where the builder has compiled the
    engine ahead of time (:mod:`shipcheck.aot`), every run of the built-in policies flown in the
    main thread flies on that, and numba is not started."""
    from shipcheck import aot, jit

    n = decks.shape[0]
    # compiled ahead of time: flies at once, numba not started. Not for a policy of one's own, whose
    # questions (numba's objmode) need numba started to hand the compiled code's arrays to Python;
    # nor outside the main thread: the extension holds the interpreter lock while it flies, where
    # numba's engine lets the process's other threads run (a workbench's requests)
    ahead = None if plain or _asks(t) or threading.current_thread() is not threading.main_thread() \
        else aot.load()
    if ahead is not None:
        _call(ahead, t, decks, rolls, out)
        if first is not None:
            first.flown(n)
        return
    compiled = not plain and jit.compiled()
    # where numba cannot compile, every round is a first one: it spreads whenever there are cores
    planning = not plain and first is not None and first.undecided()
    spreading = not plain and first is not None and first.mode() == "spread"
    if compiled and not spreading and (compiled_ready() or (not planning and warm(_load_wait()))):
        _call(_run_module(False), t, decks, rolls, out)
        if first is not None:
            first.flown(n)
        return
    if planning and first.workers(loading=_warm["thread"] is not None) < 2:
        first.choose(0.0)  # nothing to spread over: the builder now
        planning = False
        if compiled and warm(_load_wait()):  # built already: loaded from the cache, no plain copy
            _call(_run_module(False), t, decks, rolls, out)
            first.flown(n)
            return
    slow = _run_module(True)
    tp = python_ints(t)
    shown = 0

    def moved(k: int) -> None:
        nonlocal shown
        if tick is not None and k > shown:
            shown = k
            tick(k)

    def fly(lo: int, hi: int) -> Outputs:
        return _fly_plain(slow, tp, decks, rolls, out, lo, hi)

    a = 0
    while a < n:
        if spreading:
            def told(k: int, a0: int = a) -> None:
                moved(a0 + k)

            parts, failed = first.spread(fly, a, n, first.workers(), PLAIN_SLICE, told)
            for lo, part in parts:
                out.put(lo, part)
            for lo, hi in failed:  # a worker died (killed, out of memory): its runs fly here
                for x in range(lo, hi, PLAIN_SLICE):
                    out.put(x, fly(x, min(hi, x + PLAIN_SLICE)))
            moved(n)
            break
        if compiled and compiled_ready():
            part = out.part(a, n)
            _call(_run_module(False), t, decks[a:], rolls[a:], part)
            out.put(a, part)
            break
        b = min(n, a + PLAIN_SLICE)
        t0 = time.process_time()  # CPU: the build it is weighed against is CPU too, under any load
        out.put(a, fly(a, b))
        if planning:
            planning = False
            way = first.choose((b - a) / max(time.process_time() - t0, 1e-9), done=b,
                               loading=_warm["thread"] is not None, build=None if compiled else float("inf"))
            spreading = way == "spread"
            if not spreading and compiled:
                warm(0.0)
        a = b
        moved(a)
    if first is not None:
        first.flown(n)
