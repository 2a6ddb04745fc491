"""The first round before the compiled engine is built: on every core as plain Python, or beside
the builder.

Building the compiled engine takes numba about :data:`BUILD_SECONDS` of one core, once per install.
A round that meets an engine not yet built, and no builder at work, flies its first slice as plain
Python and times it; when its remaining runs, flown plain on every core, would end sooner than the
build, it flies them so (:func:`spread`: forked processes, each taking the next slice of runs from
one queue until none is left) and the builder starts after the round, detached and at a low
priority, so that it finishes even when the command has ended. Otherwise the builder starts at once (or goes on) and the round flies
plain beside it until the compiled engine takes over (:func:`shipcheck.engine.play`). A run's
numbers depend only on its deck and dice, so they are the same whichever way and on however many
processes it flies. It lives outside the engine's folder, whose sources name the compiled engine,
and the engine meets it only as the planner a round hands it. Nothing here decides a rule.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["BUILD_SECONDS", "choose", "decide", "flown", "left", "mode", "planned", "spread", "undecided",
           "workers"]

#: seconds of CPU the engine's build takes (measured 45-48 s on the project's 2-core machine:
#: benchmarks/RESULTS.md). The first slice's rate is CPU time too: on a busy machine the build and
#: the plain runs slow down alike, and the choice stays the same
BUILD_SECONDS = 45.0

#: the round being flown in this process: runs still to fly and how its plain flights go (None:
#: not decided yet; "spread": on every core, the builder after it; "build": the builder now)
_state: dict[str, Any] = {"left": None, "mode": None}


@contextmanager
def planned(runs: int) -> Iterator[None]:
    """A round of ``runs`` runs flown in this process: while the compiled engine is not built, its
    first slice decides how its plain flights go (:func:`decide`); when they spread over every core
    the builder starts once the round has ended. A round inside another adds nothing."""
    if _state["left"] is not None:
        yield
        return
    _state.update(left=int(runs), mode=None)
    try:
        yield
    finally:
        after = _state["mode"] == "spread"
        _state.update(left=None, mode=None)
        if after:
            from shipcheck import prebuild

            prebuild.prestart()


def mode() -> str | None:
    """How the round being flown flies its plain runs: ``"spread"``, ``"build"``, or None (not
    decided yet, or no round planned: then the builder starts at once, as for any caller)."""
    return _state["mode"]  # type: ignore[no-any-return]


def undecided() -> bool:
    """Whether a planned round has yet to decide (its first slice will)."""
    return _state["left"] is not None and _state["mode"] is None


def flown(n: int) -> None:
    """``n`` runs of the planned round are done."""
    if _state["left"] is not None:
        _state["left"] = max(0, _state["left"] - n)


def left() -> int:
    """Runs of the planned round still to fly (0 when none is planned)."""
    return int(_state["left"] or 0)


def workers(*, loading: bool = False) -> int:
    """Processes the plain runs could spread over in this process now; 1 when they cannot (no
    ``fork``, one core, not the main thread (a server's)) or should not: the engine built already,
    ``loading`` (being compiled or loaded in this process), or a builder at work (the round flies
    beside it, and the compiled engine takes over once it is done: spread, the round would starve
    the builder, and every round after it would start plain again)."""
    from shipcheck import prebuild
    from shipcheck.parallel import cpu_count

    if not hasattr(os, "fork") or threading.current_thread() is not threading.main_thread():
        return 1
    if loading or prebuild.built() or prebuild.busy():
        return 1
    return cpu_count()


def decide(rate: float, runs: int, procs: int, build: float = BUILD_SECONDS) -> bool:
    """Whether ``runs`` plain runs at ``rate`` runs a CPU second end sooner spread over
    ``procs`` processes than the compiled engine's build (``build`` seconds). Beside the builder
    they would take the shorter of the build and a single core's time, so spreading wins exactly
    when it ends before the build."""
    return procs > 1 and rate > 0 and runs / (rate * procs) < build


def choose(rate: float, done: int = 0, *, loading: bool = False, build: float | None = None) -> str:
    """Decide the planned round's way (:func:`decide`, over the runs it has left once ``done`` more
    are flown; ``loading``: see :func:`workers`; ``build``: seconds of CPU until the compiled engine
    is there, default :data:`BUILD_SECONDS`, infinite where numba cannot compile) and keep it."""
    procs = workers(loading=loading)
    away = BUILD_SECONDS if build is None else build
    _state["mode"] = "spread" if decide(rate, max(0, left() - done), procs, away) else "build"
    return _state["mode"]  # type: ignore[no-any-return]


# -- the forked flights ------------------------------------------------------------------------------
_HEAD = struct.Struct("<cq")  # a message: a tag and a number (runs done, or the length of what follows)
_SLICE = struct.Struct("<q")  # a slice in the work queue: its first run
#: slices a queue holds at most: 8 bytes each, written before any worker reads, so they must fit
#: in a pipe's smallest buffer (one 4 KiB page, where the user's pipes are many)
MAX_SLICES = 512


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        k = os.write(fd, view)
        view = view[k:]


def _child(fd: int, queue: int, parent: int, fly: Callable[[int, int], Any], n: int, step: int) -> None:
    """A forked worker: take the first run of the next slice from ``queue`` (8 bytes each) and fly
    runs ``lo:min(n, lo + step)``, until the queue is empty, saying after each slice how many runs
    it has done, then send back what they filled; never returns."""
    code = 1
    try:
        from shipcheck.parallel import _worker_init

        _worker_init(parent)  # no Ctrl-C of its own, and it ends when the parent does
        parts = []
        count = 0
        while True:
            got = os.read(queue, _SLICE.size)  # whole records: the parent wrote them all before it forked
            if len(got) < _SLICE.size:
                break
            (lo,) = _SLICE.unpack(got)
            hi = min(n, lo + step)
            parts.append((lo, fly(lo, hi)))
            count += hi - lo
            _write(fd, _HEAD.pack(b"P", count))
        blob = pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL)
        _write(fd, _HEAD.pack(b"R", len(blob)) + blob)
        code = 0
    except BaseException:  # the parent flies this worker's slices itself; a worker prints nothing
        code = 1
    finally:
        os._exit(code)


def spread(fly: Callable[[int, int], Any], a: int, n: int, procs: int, step: int,
           tick: Callable[[int], Any] | None = None) -> tuple[list[tuple[int, Any]], list[tuple[int, int]]]:
    """Fly runs ``a:n`` in ``procs`` forked processes calling ``fly(lo, hi)`` (the filled outputs of
    runs ``lo:hi``) on slices of ``step`` runs, each worker taking the next slice from one queue
    until none is left, so a worker whose core is busy with other work takes fewer (the slices are
    widened where there would be more than :data:`MAX_SLICES`); ``tick(runs)`` as they report
    progress (runs done since ``a``). Returns the ``(lo, outputs)`` flown (one per slice) and the
    slices ``(lo, hi)`` not flown because a worker failed (the caller flies them). Which worker
    flies a slice changes nothing in its outputs. Ctrl-C (or any error here) ends every worker at
    once."""
    step = max(step, -(-(n - a) // MAX_SLICES))
    starts = list(range(a, n, step))
    for stream in (sys.stdout, sys.stderr):  # a forked child must not write the parent's buffers again
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    kids: dict[int, int] = {}  # read end -> pid
    bufs: dict[int, bytearray] = {}
    done: dict[int, int] = {}
    parts: list[tuple[int, Any]] = []
    parent = os.getpid()
    queue, w = os.pipe()
    try:
        _write(w, b"".join(_SLICE.pack(lo) for lo in starts))
        os.close(w)  # no writer left: a worker that finds the queue empty reads its end
        import warnings

        with warnings.catch_warnings():  # Python 3.12 warns of a fork beside other threads (a
            # progress bar's): the child only computes and writes to its pipe
            warnings.simplefilter("ignore", DeprecationWarning)
            for _ in range(max(1, min(procs, len(starts)))):
                r, w = os.pipe()
                pid = os.fork()
                if pid == 0:
                    os.close(r)
                    _child(w, queue, parent, fly, n, step)
                os.close(w)
                kids[r] = pid
                bufs[r] = bytearray()
                done[r] = 0
        os.close(queue)
        queue = -1
        while bufs:
            ready, _, _ = select.select(list(bufs), [], [], 0.5)
            for r in ready:
                chunk = os.read(r, 1 << 20)
                if chunk:
                    bufs[r] += chunk
                    got = _take(bufs[r], done, r, parts)
                    if got and tick is not None:
                        tick(sum(done.values()))
                    continue
                os.close(r)  # the worker ended: with its slices' outputs, or without (killed, failed)
                del bufs[r]
                _reap(kids.pop(r))
    except BaseException:
        for pid in kids.values():  # the workers not reaped yet
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            _reap(pid)
        for r in [*bufs, queue]:
            if r >= 0:
                try:
                    os.close(r)
                except OSError:
                    pass
        raise
    flown = {lo for lo, _ in parts}
    failed = [(lo, min(n, lo + step)) for lo in starts if lo not in flown]
    return parts, failed


def _take(buf: bytearray, done: dict[int, int], r: int, parts: list[tuple[int, Any]]) -> bool:
    """Read the whole messages at the front of ``buf``: progress into ``done[r]``, the worker's
    outputs (``(a, outputs)`` per slice) into ``parts``. Whether progress moved."""
    moved = False
    while len(buf) >= _HEAD.size:
        tag, value = _HEAD.unpack_from(buf)
        if tag == b"P":
            done[r] = value
            del buf[:_HEAD.size]
            moved = True
        elif tag == b"R":
            if len(buf) < _HEAD.size + value:
                return moved
            pieces = pickle.loads(bytes(buf[_HEAD.size:_HEAD.size + value]))
            del buf[:_HEAD.size + value]
            parts.extend(pieces)
        else:  # not a message of ours: the worker's slices are flown by the caller
            buf.clear()
            return moved
    return moved


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
