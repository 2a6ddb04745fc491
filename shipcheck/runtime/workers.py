"""Chunked, seeded runs here, on a ``concurrent.futures`` process pool or on Dask (:func:`chunk_runner`).

Chunk ``i`` draws from :func:`chunk_rng`: the numbers depend on the seed and the chunk size only.
Workers ignore SIGINT and die with their parent; SIGTERM raises :class:`Terminated` in the parent;
chunks not started are cancelled on the way out (docs/architecture.md, "Compiled or plain Python").
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

from shipcheck.errors import InputError
from shipcheck.validate import check_scheduler, count

__all__ = ["CONNECT_TIMEOUT", "Terminated", "WorkerError", "chunk_plan", "chunk_rng", "chunk_runner",
           "cpu_count", "worker_payload"]

T = TypeVar("T")
Runner = Callable[[Iterable[tuple[int, Any]]], Generator[Any, None, None]]

CONNECT_TIMEOUT = 5.0  # seconds to reach a Dask scheduler before giving up
DASK_HINT = "the Dask backend needs the optional dependency: pip install 'shipcheck[dask]'"


class WorkerError(RuntimeError):
    """A worker process ended without handing its chunk back (killed, out of memory)."""


class Terminated(SystemExit):
    """Raised in the main thread when SIGTERM arrives during a parallel run (exit status 143)."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


def chunk_rng(seed: int, index: int) -> Any:
    """The generator of chunk ``index``: ``default_rng(SeedSequence(entropy=seed, spawn_key=(index,)))``."""
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(index,)))


def chunk_plan(total: int, batch: int) -> Iterator[tuple[int, int]]:
    """(chunk index, chunk size) in order for ``total`` draws cut into chunks of ``batch``."""
    for i, start in enumerate(range(0, total, batch)):
        yield i, min(batch, total - start)


def cpu_count() -> int:
    """CPUs this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity is not None else os.cpu_count() or 1)


_PAYLOADS: dict[bytes, Any] = {}


def worker_payload(blob: bytes, build: Callable[[Any], T]) -> T:
    """``build(pickle.loads(blob))``, computed once per worker process and reused by later chunks."""
    hit = _PAYLOADS.get(blob)
    if hit is None:
        hit = build(pickle.loads(blob))
        if len(_PAYLOADS) >= 4:
            _PAYLOADS.pop(next(iter(_PAYLOADS)))
        _PAYLOADS[blob] = hit
    return hit


def _die_with_parent(parent: int) -> None:
    """End this process when ``parent`` ends, however it ends (Linux's PR_SET_PDEATHSIG, else a thread)."""
    with suppress(OSError, AttributeError):
        import ctypes

        if sys.platform.startswith("linux") and ctypes.CDLL(None).prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:
            if os.getppid() != parent:  # the parent ended before the call
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="shipcheck-parent-watch", daemon=True).start()


_WORKER: list[Any] = []  # in a worker: the payload, the pool's busy slots and gate, this worker's slot


def _worker_init(parent: int, blob: bytes, busy: Any, gate: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker inherits the parent's handler
    _die_with_parent(parent)
    with gate:
        busy[-1] += 1  # the last slot counts the workers started
        _WORKER[:] = [blob, busy, gate, busy[-1] - 1]


def _pool_task(task: Callable[[bytes, int, int, Any], Any], seed: int, i: int, n: Any) -> Any:
    """``task`` on the payload (sent once per worker), this worker's pid in its slot while it runs."""
    blob, busy, gate, slot = _WORKER
    busy[slot] = os.getpid()
    try:
        return task(blob, seed, i, n)
    finally:
        with gate:
            busy[slot] = 0


def _mp_context() -> Any:
    """``fork`` where no other thread runs (workers inherit the loaded engine), else ``spawn``."""
    fork = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    return multiprocessing.get_context("fork" if fork else "spawn")


@contextmanager
def _pool(procs: int, task: Callable[[bytes, int, int, Any], Any], blob: bytes, seed: int) -> Iterator[Runner]:
    """A ``concurrent.futures`` process pool running ``task`` on the chunks, ``blob`` sent once per worker."""
    for stream in (sys.stdout, sys.stderr):  # a forked child must not write the parent's buffers again
        getattr(stream, "flush", lambda: None)()
    before, threads = set(multiprocessing.active_children()), set(threading.enumerate())
    ctx = _mp_context()
    busy, gate = ctx.Array("q", procs + 1, lock=False), ctx.Lock()
    ex = ProcessPoolExecutor(procs, mp_context=ctx, initializer=_worker_init, initargs=(os.getpid(), blob, busy, gate))
    try:
        with _sigterm_raises():
            yield lambda plan: _in_order(lambda i, n: ex.submit(_pool_task, task, seed, i, n), plan, 2 * procs)
    finally:
        # chunks not started are cancelled; until the pool's thread stops, a worker on a chunk nobody
        # waits for is ended (its slot read under the gate), never one writing its result: the thread
        # would wait for the rest, and Python's exit for the thread (left running: a traceback, < 3.13)
        ex.shutdown(wait=False, cancel_futures=True)
        new = [t for t in set(threading.enumerate()) - threads if type(t).__module__ == ProcessPoolExecutor.__module__]
        end = time.monotonic() + 10
        while new and new[0].is_alive() and time.monotonic() < end:  # (one thread a pool)
            if gate.acquire(timeout=0.1):  # not: a worker the pool's thread ended held it (the pool is broken)
                for pid in filter(None, busy[:-1]):
                    with suppress(OSError):  # ended already: the others still are
                        os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))  # (Windows: TerminateProcess)
                gate.release()
            new[0].join(0.1)
        for p in set(multiprocessing.active_children()) - before:
            p.kill()
            p.join(5)


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While a pool runs, SIGTERM raises :class:`Terminated` in the main thread (so the pool is
    stopped on the way out) unless someone else already handles SIGTERM."""
    old = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread() or old != signal.SIG_DFL:
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated()

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextmanager
def _sigint_held(*, replay: bool = True, spawning: bool = False) -> Iterator[None]:
    """Ctrl-C held back while a Dask cluster starts or closes its worker processes: SIGINT blocked in
    this thread (the threads and processes Dask starts inherit the mask, so never see a press), a
    press recorded and replayed on the way out unless ``replay`` is false. ``spawning``: start
    multiprocessing's resource tracker first (CPython unblocks SIGINT in the thread launching it)."""
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield  # ignored already (a background job): the workers inherit that
        return
    can_block = hasattr(signal, "pthread_sigmask")
    if can_block and spawning:
        with suppress(ImportError, OSError):
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
    pressed: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum)) if main else None
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if can_block else None
    try:
        yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending press is recorded here
        if main:
            signal.signal(signal.SIGINT, old)
    if pressed and replay:
        signal.raise_signal(signal.SIGINT)  # what the press would have done: KeyboardInterrupt by default


def _in_order(submit: Callable[[int, Any], Future[Any]], plan: Iterable[tuple[int, Any]],
              window: int) -> Generator[Any, None, None]:
    """Results of the planned chunks in chunk order, at most ``window`` in flight; the chunks still
    pending when the consumer stops are cancelled."""
    pending: list[Future[Any]] = []
    it = iter(plan)
    try:
        while True:
            try:  # a worker that died breaks the pool: said when a result is read, or at the next submit
                for nxt in itertools.islice(it, window - len(pending)):
                    pending.append(submit(*nxt))
                if not pending:
                    return
                result = pending.pop(0).result()
            except BrokenProcessPool:
                raise WorkerError("a worker process ended unexpectedly (killed; out of memory?)") from None
            yield result
    finally:
        for f in pending:
            f.cancel()


@contextmanager
def chunk_runner(
    task: Callable[[bytes, int, int, Any], Any],
    payload: Any,
    *,
    seed: int,
    n_chunks: int,
    workers: int | None = None,
    scheduler: Any = None,
    local: Callable[[int, Any], Any] | None = None,
    what: str = "the job",
) -> Iterator[Runner]:
    """A function from a chunk plan to the chunk results, in order, on the chosen backend.

    ``task(blob, seed, index, n)`` runs in the workers: ``blob`` the pickled ``payload`` (see
    :func:`worker_payload`), ``n`` the chunk's size or any picklable job (a ship's text and runs).
    ``local(index, n)`` runs a chunk here, unpickled, on one worker without a scheduler. ``workers``
    is capped by ``n_chunks`` and the CPUs; ``scheduler``: ``"local"`` (a Dask ``LocalCluster``), an
    address or a ``distributed.Client``. ``what`` names the payload when it cannot be pickled."""
    procs = min(count(workers or 1, key="workers", minimum=1), max(1, n_chunks), cpu_count())
    if scheduler is None and procs == 1:
        def serial(plan: Iterable[tuple[int, Any]]) -> Generator[Any, None, None]:
            blob = None if local is not None else pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
            for i, n in plan:
                yield local(i, n) if local is not None else task(blob, seed, i, n)  # type: ignore[arg-type]
        yield serial
        return
    try:
        blob = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # any pickling failure means the same thing here
        raise InputError(f"{what} must be picklable to run on several workers or a Dask scheduler",
                         key="policy" if "policy" in what else None) from e
    if scheduler is None:
        with _pool(procs, task, blob, seed) as run:
            yield run
        return
    with _dask_client(scheduler, workers, n_chunks) as client:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        blob_f = client.scatter(blob, broadcast=True)

        def submit(i: int, n: Any) -> Any:
            return client.submit(task, blob_f, seed, i, n, pure=False)

        yield lambda plan: _in_order(submit, plan, 2 * n_workers)


def _quiet_dask() -> None:
    """Silence distributed's loggers: an interrupted cluster otherwise prints pages of tracebacks."""
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


@contextmanager
def _dask_client(scheduler: Any, workers: int | None, n_chunks: int) -> Iterator[Any]:
    check_scheduler(scheduler)
    try:
        import distributed
    except ImportError as e:
        raise ImportError(DASK_HINT) from e
    cluster = client = None
    own, ok = True, False
    try:
        with _sigterm_raises():
            if isinstance(scheduler, distributed.Client):
                client, own = scheduler, False
            elif scheduler == "local":
                n = min(workers or 2, max(1, n_chunks), cpu_count())
                with _sigint_held(spawning=True):
                    # no dashboard, and its HTTP server on a free loopback port (not a busy 8787)
                    cluster = distributed.LocalCluster(
                        n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, scheduler_kwargs={"dashboard": False, "dashboard_address": ":0"},
                        silence_logs=logging.CRITICAL)
                    client = distributed.Client(cluster, timeout=CONNECT_TIMEOUT)
            else:
                try:
                    client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
                except (OSError, TimeoutError, ValueError) as exc:
                    raise InputError(f"cannot reach the Dask scheduler within {CONNECT_TIMEOUT:g} s "
                                     f"({type(exc).__name__})", key="scheduler", value=scheduler,
                                     expected="the address of a running scheduler, or 'local'") from None
            yield client
            ok = True
    finally:
        # closing is bounded by timeouts; a Ctrl-C must not cut it short (and leave the cluster to an
        # atexit hook that prints a traceback when interrupted in turn): it stops the run afterwards
        with _sigint_held(replay=ok):
            if not ok:
                _quiet_dask()
            for thing in [t for t in (client if own else None, cluster) if t is not None]:
                try:
                    thing.close(timeout=CONNECT_TIMEOUT)
                except Exception:  # the run's own outcome matters more than a failed close
                    _quiet_dask()
