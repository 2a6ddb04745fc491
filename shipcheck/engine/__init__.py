"""The rules of flight, written once: the engine every whole round and exact pass flies on.

Modules (plain functions in the subset of Python numba compiles, :func:`shipcheck.runtime.jit`):
:mod:`.bits`, :mod:`.crew`, :mod:`.charges`, :mod:`.hull`, :mod:`.flight`, :mod:`.power`,
:mod:`.goods`, :mod:`.track`, :mod:`.cards` and :mod:`.run`, over the rows and tables of
:mod:`.layout`; :mod:`.views` hands arrays to compiled code without reference counts; exact passes
in :mod:`.exact` and :mod:`.joint`. Importing this package compiles nothing and imports no numba.
:func:`play` flies runs compiled (compiled on first use, then loaded from the cache), or as plain
Python where numba is missing or switched off: the same numbers (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any, TypeVar

import numpy as np

__all__ = ["ENTRIES", "Outputs", "compiled_call", "function", "play", "python_ints", "ready"]

T = TypeVar("T")

#: runs the plain engine flies between two ticks of a progress bar
PLAIN_SLICE = 32
#: the compiled entry points: name -> (what the progress bar says, about how long a first compile takes)
ENTRIES = {"round": ("compiling the round engine (once; then cached)", 60.0),
           "joint": ("compiling the exact round engine (once; then cached)", 30.0),
           "exact": ("compiling the exact flight engine (once; then cached)", 20.0)}


def _module(name: str, plain: bool) -> Any:
    from shipcheck import runtime

    pkg = runtime.plain_package(__name__).__name__ if plain else __name__
    return import_module(f"{pkg}.{name}")


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


def _call(mod: Any, t: dict[str, Any], decks: np.ndarray, rolls: np.ndarray, out: Outputs) -> None:
    mod.play((t["S"], t["C"], t["R"], t["start"], t["prices"], t["arrival"], t["init"], t["purse"]), decks, rolls,
             (out.credits, out.lost, out.survived, out.gave_up, out.days, out.place, out.card_credits, out.sources,
              out.by_type, out.tile_lost), t["depth"])


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


def ready() -> bool:
    """Whether the compiled round engine is ready in this process: loaded from the cache, or compiled
    now (a progress bar shows while it compiles). False where the engine runs plain."""
    from shipcheck import runtime

    def first() -> None:
        t, decks, rolls, out = _dummy()
        _call(_module("run", False), t, decks, rolls, out)

    what, estimate = ENTRIES["round"]
    return runtime.loaded("round") or runtime.load("round", first, what=what, estimate=estimate)


def compiled_call(entry: str, call: Callable[[], T]) -> tuple[bool, T | None]:
    """``(True, call())`` on the compiled engine, compiled first where needed (a progress bar shows
    while it compiles), or ``(False, None)`` where it cannot compile: the caller then runs plain.
    ``entry``: ``"joint"`` or ``"exact"`` (:data:`ENTRIES`)."""
    from shipcheck import runtime

    if runtime.loaded(entry):
        return True, call()
    box: list[T] = []
    what, estimate = ENTRIES[entry]
    if runtime.load(entry, lambda: box.append(call()), what=what, estimate=estimate):
        # (empty where another thread loaded it while this one waited: the call is then made here)
        return True, box[0] if box else call()
    return False, None


def function(module: str, name: str, *, plain: bool | None = None) -> Callable[..., Any]:
    """Function ``name`` of the engine's module ``module``: the compiled one where ``plain`` is False
    (compiled on first use), the plain copy where it is True (imports no numba); None: compiled where
    the compiled engine is loaded in this process already, else plain."""
    from shipcheck import runtime

    if plain is None:
        plain = not runtime.started()
    return getattr(_module(module, plain or not runtime.compiled()), name)  # type: ignore[no-any-return]


def python_ints(t: dict[str, Any]) -> dict[str, Any]:
    """The tables ``t`` with their ``int64`` arrays as arrays of Python ints (``dtype=object``), as
    the plain engine flies them: numpy's int64 scalars, indexed and added one by one, cost more
    than the rules' own work in plain Python (plain flights about 1.5 times faster so; the same
    numbers, as no mask reaches bit 63: ``layout.MAX_TILES``). :func:`shipcheck.engine.run.play`
    makes its own arrays of the type of the tables it is given."""
    return {k: v.astype(object) if isinstance(v, np.ndarray) and v.dtype == np.int64 else v for k, v in t.items()}


def play(t: dict[str, Any], decks: np.ndarray, rolls: np.ndarray, out: Outputs, *, plain: bool = False,
         tick: Callable[[int], Any] | None = None) -> None:
    """Fly the runs of ``decks`` and ``rolls`` with the tables ``t`` into ``out``: compiled (compiled
    on first use, with a progress bar), or as plain Python where numba is missing or switched off, or
    ``plain`` says so, :data:`PLAIN_SLICE` runs at a time (``tick(runs_done)`` after each). The same
    numbers either way."""
    from shipcheck import runtime

    if not plain and runtime.state.force != "plain" and ready():
        _call(_module("run", False), t, decks, rolls, out)
        return
    slow, tp, n = _module("run", True), python_ints(t), decks.shape[0]
    for a in range(0, n, PLAIN_SLICE):
        b = min(n, a + PLAIN_SLICE)
        part = out.part(a, b)
        _call(slow, tp, decks[a:b].astype(object), rolls[a:b].astype(object), part)
        out.put(a, part)
        if tick is not None:
            tick(b)
