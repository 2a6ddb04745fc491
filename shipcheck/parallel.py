"""Chunked, seeded, parallel runs: the backend shared by the Monte Carlo and round engines.

A run is cut into chunks of ``batch`` draws; chunk ``i`` draws from :func:`chunk_rng`, so the
numbers depend on the seed and the batch only, never on where a chunk runs. :func:`chunk_runner`
runs the chunks in this process, in a pool of worker processes, or on a Dask cluster, and hands
the results back in chunk order with a bounded number in flight.

Interruptions. Workers ignore SIGINT (a Ctrl-C in a terminal reaches the whole process group; the
parent alone decides what to do) and end when their parent ends, even by SIGKILL
(``PR_SET_PDEATHSIG`` on Linux, a watching thread elsewhere). While a pool runs, SIGTERM in the
main thread raises :class:`Terminated`; on Ctrl-C, SIGTERM or any error the pool's processes are
terminated, not waited for, so the parent exits at once. A local Dask cluster starts and closes with
SIGINT blocked (its worker processes inherit the mask, so they never see a Ctrl-C) and a press held
until then, not lost; clusters are closed with their logs silenced, and a scheduler that does not
answer fails after :data:`CONNECT_TIMEOUT` seconds.
"""

from __future__ import annotations

import logging
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from .errors import InputError
from .validate import available_memory, check_memory

__all__ = [
    "CONNECT_TIMEOUT",
    "Terminated",
    "available_memory",
    "check_memory",
    "chunk_plan",
    "chunk_rng",
    "chunk_runner",
    "cpu_count",
    "fresh_seed",
    "positive_int",
    "seed_of",
    "worker_payload",
]

T = TypeVar("T")
Runner = Callable[[Iterable[tuple[int, int]]], Generator[Any, None, None]]

CONNECT_TIMEOUT = 5.0  # seconds to reach a Dask scheduler before giving up
SEED_BITS = 53  # a fresh seed fits a JSON number that any script holds exactly (IEEE double)
DASK_HINT = "the Dask backend needs the optional dependency: pip install 'shipcheck[dask]'"
_DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


class Terminated(SystemExit):
    """Raised in the main thread when SIGTERM arrives during a parallel run (exit status 143)."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)


# -- arguments and seeds --------------------------------------------------------------------------
def positive_int(name: str, v: Any) -> int:
    """``v`` as an int >= 1, or an :class:`InputError` naming the argument (:func:`shipcheck.validate.count`)."""
    from .validate import count

    return count(v, key=name, minimum=1)


def fresh_seed() -> int:
    """A new random seed below 2**53, so JSON readers hold it exactly and a run can be repeated."""
    import secrets

    return secrets.randbits(SEED_BITS)


def seed_of(rng: Any, seed: Any) -> int:
    """The integer seed of a run: from ``seed``, from ``rng`` (int, SeedSequence or Generator) or fresh."""
    import numpy as np

    if rng is not None and seed is not None:
        raise InputError("give either `rng` or `seed`, not both", key="seed", expected="one of `rng` and `seed`")
    src = seed if seed is not None else rng
    name = "seed" if seed is not None else "rng"
    if src is None:
        return fresh_seed()
    if isinstance(src, (bool, np.bool_, int, np.integer)) or name == "seed":
        from .validate import seed as valid_seed

        return valid_seed(src, key=name)  # type: ignore[return-value]
    if name == "rng" and isinstance(src, np.random.SeedSequence):
        if not src.spawn_key and isinstance(src.entropy, (int, np.integer)):
            return int(src.entropy)
        words = src.generate_state(4, np.uint32)  # a spawned or list-seeded sequence: fold to 128 bits
        return sum(int(w) << (32 * i) for i, w in enumerate(words))
    if name == "rng" and isinstance(src, np.random.Generator):
        return int.from_bytes(src.bytes(16), "little")
    raise InputError(f"bad `{name}`", key=name, value=src,
                     expected="an int seed" + (", a numpy SeedSequence or a numpy Generator" if name == "rng" else ""))


def chunk_rng(seed: int, index: int) -> Any:
    """The generator of chunk ``index``: ``default_rng(SeedSequence(entropy=seed, spawn_key=(index,)))``."""
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(index,)))


def chunk_plan(total: int, batch: int) -> Iterator[tuple[int, int]]:
    """(chunk index, chunk size) in order for ``total`` draws cut into chunks of ``batch``."""
    i, done = 0, 0
    while done < total:
        n = min(batch, total - done)
        yield i, n
        i += 1
        done += n


# -- sizes ----------------------------------------------------------------------------------------
def cpu_count() -> int:
    """CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# -- workers --------------------------------------------------------------------------------------
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
    """End this process when ``parent`` ends, however it ends."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="shipcheck-parent-watch", daemon=True).start()


def _worker_init(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker inherits the parent's handler
    _die_with_parent(parent)


def _mp_context() -> Any:
    """``fork`` where it is available and safe (no other thread running: workers start at once),
    else ``spawn``. Either way the results are the same; only the start-up time differs."""
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While a pool runs, SIGTERM raises :class:`Terminated` in the main thread (so the pool is
    stopped on the way out) unless someone else already handles SIGTERM."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.getsignal(signal.SIGTERM)
    if old != signal.SIG_DFL:
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
    """Ctrl-C held back while a Dask cluster starts or closes its worker processes.

    SIGINT is blocked in this thread, so the threads Dask starts meanwhile and the worker processes
    they spawn start with it blocked, and a Ctrl-C to the terminal's process group stays pending in
    them unseen (an exec keeps the mask; an ignored SIGINT would do the same but would lose the press
    here too). In the main thread a press is recorded, not raised (it may land in another thread,
    e.g. a BLAS one), then replayed on the way out unless ``replay`` is false or the block raised,
    so a Ctrl-C during start-up stops the run as soon as the cluster can be closed. ``spawning``
    (the block starts processes) starts multiprocessing's resource tracker first: CPython unblocks
    SIGINT in the thread that launches it, and workers spawned from that thread would see Ctrl-C.
    """
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield  # ignored already (a background job): the workers inherit that
        return
    can_block = hasattr(signal, "pthread_sigmask")
    if can_block and spawning:
        try:
            from multiprocessing import resource_tracker

            resource_tracker.ensure_running()
        except (ImportError, OSError):
            pass
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


class WorkerError(RuntimeError):
    """A worker process ended without sending its chunk back (killed, out of memory)."""


def _pool_worker(conn: Any, parent: int, task: Callable[[bytes, int, int, int], Any], blob: bytes,
                 seed: int) -> None:
    """A worker: chunk requests ``(index, n)`` in, ``(True, result)`` or ``(False, exception)`` out,
    until ``None`` or the parent's end of the pipe closes."""
    _worker_init(parent)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        try:
            reply: tuple[bool, Any] = (True, task(blob, seed, *msg))
        except Exception as exc:  # sent back and raised in the parent
            try:
                pickle.dumps(exc)
                reply = (False, exc)
            except Exception:
                reply = (False, RuntimeError(f"{type(exc).__name__}: {exc}"))
        try:
            conn.send(reply)
        except (OSError, EOFError):
            return


def _widen(conn: Any, size: int = 4 << 20) -> None:
    """Socket buffers large enough for a whole chunk's result, so a worker hands it over in one
    write and goes on with its next chunk instead of waiting, a buffer at a time, for the parent."""
    import socket

    try:
        with socket.socket(fileno=os.dup(conn.fileno())) as sock:
            for opt in (socket.SO_SNDBUF, socket.SO_RCVBUF):
                sock.setsockopt(socket.SOL_SOCKET, opt, size)
    except (OSError, ValueError, AttributeError):
        pass  # not a socket (Windows pipes): the default buffers only cost some speed


class _Pool:
    """Worker processes fed through one pipe each, read by the calling thread.

    No helper thread: ``concurrent.futures.ProcessPoolExecutor`` reads results in a thread of its
    own, which stays blocked forever on a message cut short when a worker is killed (and the
    interpreter then hangs at exit). Here an interrupted read is simply abandoned with the pool.
    """

    def __init__(self, procs: int, task: Callable[[bytes, int, int, int], Any], blob: bytes, seed: int) -> None:
        ctx = _mp_context()
        self.window = 2 * procs
        self.outstanding = 0  # chunks sent and not received
        self.workers: list[tuple[Any, Any]] = []
        for stream in (sys.stdout, sys.stderr):  # a forked child must not write the parent's buffers again
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        try:
            for _ in range(procs):
                mine, theirs = ctx.Pipe(duplex=True)
                _widen(mine)
                _widen(theirs)
                p = ctx.Process(target=_pool_worker, args=(theirs, os.getpid(), task, blob, seed),
                                name="shipcheck-worker", daemon=True)
                p.start()
                theirs.close()
                self.workers.append((p, mine))
        except BaseException:
            self.close(kill=True)
            raise

    def run(self, plan: Iterable[tuple[int, int]]) -> Generator[Any, None, None]:
        """Chunk results in plan order, at most ``window`` chunks sent out and not yet handed back."""
        from multiprocessing.connection import wait

        it = iter(plan)
        queued: dict[Any, list[int]] = {conn: [] for _, conn in self.workers}  # sequence numbers per worker
        results: dict[int, Any] = {}
        sent = handed = 0
        exhausted = False
        while True:
            while not exhausted and sent - handed < self.window:
                nxt = next(it, None)
                if nxt is None:
                    exhausted = True
                    break
                conn = min(queued, key=lambda c: len(queued[c]))
                try:
                    conn.send(tuple(nxt))
                except OSError:
                    self._died(conn)
                self.outstanding += 1
                queued[conn].append(sent)
                sent += 1
            if handed in results:
                yield results.pop(handed)
                handed += 1
                continue
            if handed == sent:
                return
            ready: list[Any] = wait([c for c, q in queued.items() if q])
            for conn in ready:
                try:
                    ok, value = conn.recv()
                except (EOFError, OSError):
                    self._died(conn)
                self.outstanding -= 1
                if not ok:
                    exc: BaseException = value
                    raise exc
                results[queued[conn].pop(0)] = value

    def _died(self, conn: Any) -> NoReturn:
        p = next(p for p, c in self.workers if c is conn)
        p.join(1.0)
        raise WorkerError(f"a worker process ended unexpectedly (exit code {p.exitcode}); out of memory?")

    def close(self, *, kill: bool) -> None:
        """Stop the workers: ask idle workers to end, or kill them at once (``kill``, or chunks
        still out: their results are not wanted)."""
        kill = kill or self.outstanding > 0
        for p, conn in self.workers:
            if kill:
                try:
                    p.kill()  # SIGKILL: a worker holds nothing to clean up, and prints nothing on the way out
                except (OSError, ValueError, AttributeError):
                    pass
            else:
                try:
                    conn.send(None)
                except (OSError, ValueError):
                    pass
        deadline = time.monotonic() + (2.0 if kill else 10.0)
        for p, conn in self.workers:
            try:
                p.join(max(0.0, deadline - time.monotonic()))
                if p.is_alive():
                    p.kill()
                    p.join(1.0)
            except (OSError, ValueError, AssertionError):
                pass
            conn.close()
        self.workers = []


def _in_order(submit: Callable[[int, int], Future[Any]], plan: Iterable[tuple[int, int]],
              window: int) -> Generator[Any, None, None]:
    """Results of the planned chunks in chunk order, at most ``window`` in flight; the chunks still
    pending when the consumer stops are cancelled."""
    pending: list[Future[Any]] = []
    it = iter(plan)
    try:
        while True:
            while len(pending) < window:
                nxt = next(it, None)
                if nxt is None:
                    break
                pending.append(submit(*nxt))
            if not pending:
                return
            yield pending.pop(0).result()
    finally:
        for f in pending:
            f.cancel()


# -- the runner -----------------------------------------------------------------------------------
@contextmanager
def chunk_runner(
    task: Callable[[bytes, int, int, int], Any],
    payload: Any,
    *,
    seed: int,
    n_chunks: int,
    workers: int | None = None,
    scheduler: Any = None,
    local: Callable[[int, int], Any] | None = None,
    what: str = "the job",
) -> Iterator[Runner]:
    """A function from a chunk plan to the chunk results, in order, on the chosen backend.

    ``task(blob, seed, index, n)`` is a module-level function run in the workers with ``blob`` the
    pickled ``payload`` (see :func:`worker_payload` to build heavy objects once per worker).
    ``local(index, n)``, when given, runs a chunk in this process without pickling anything; it is
    used when there is one worker and no scheduler. ``workers`` is capped by ``n_chunks`` and the
    CPUs; ``scheduler`` is ``"local"`` (a Dask ``LocalCluster`` of ``workers`` processes), a
    scheduler address or a ``distributed.Client``. ``what`` names the payload in the error raised
    when it cannot be pickled.
    """
    if workers is not None:
        workers = positive_int("workers", workers)
    if scheduler is None and (workers is None or workers == 1 or n_chunks <= 1):
        def serial(plan: Iterable[tuple[int, int]]) -> Generator[Any, None, None]:
            blob = None
            for i, n in plan:
                if local is not None:
                    yield local(i, n)
                else:
                    if blob is None:
                        blob = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
                    yield task(blob, seed, i, n)
        yield serial
        return
    try:
        blob = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # any pickling failure means the same thing here
        raise InputError(f"{what} must be picklable to run on several workers or a Dask scheduler",
                         key="policy" if "policy" in what else None) from e
    if scheduler is None:
        procs = min(workers or 1, max(1, n_chunks), cpu_count())
        if procs == 1:
            def one(plan: Iterable[tuple[int, int]]) -> Generator[Any, None, None]:
                for i, n in plan:
                    yield local(i, n) if local is not None else task(blob, seed, i, n)
            yield one
            return
        pool = _Pool(procs, task, blob, seed)
        ok = False
        try:
            with _sigterm_raises():
                yield pool.run
            ok = True
        finally:
            pool.close(kill=not ok)
        return
    with _dask_client(scheduler, workers, n_chunks) as client:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        blob_f = client.scatter(blob, broadcast=True)

        def submit(i: int, n: int) -> Any:
            return client.submit(task, blob_f, seed, i, n, pure=False)

        yield lambda plan: _in_order(submit, plan, 2 * n_workers)


def check_scheduler(scheduler: Any) -> None:
    """An :class:`InputError` for a ``scheduler`` that is neither None, ``"local"``, a scheduler
    address (``tcp://host:port``, ``host:port``) nor a ``distributed.Client``."""
    if scheduler is None or scheduler == "local":
        return
    if isinstance(scheduler, str):
        scheme, sep, rest = scheduler.partition("://")
        if not sep:
            scheme, rest = "tcp", scheduler
        host, colon, port = rest.rpartition(":")
        if scheme not in _DASK_SCHEMES or (scheme != "inproc" and (not colon or not host or not port.isdecimal()
                                                                    or not port.isascii())):
            raise InputError("bad Dask scheduler address", key="scheduler", value=scheduler,
                             expected="'local', or an address like tcp://127.0.0.1:8786 "
                                      f"(schemes {', '.join(_DASK_SCHEMES)})")
        return
    if type(scheduler).__name__ != "Client":
        raise InputError("bad `scheduler`", key="scheduler", value=type(scheduler).__name__,
                         expected="None, 'local', a scheduler address or a distributed.Client")


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
    own = True
    ok = False
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
            for thing in (client if own else None, cluster):
                if thing is not None:
                    try:
                        thing.close(timeout=CONNECT_TIMEOUT)
                    except Exception:  # the run's own outcome matters more than a failed close
                        _quiet_dask()
