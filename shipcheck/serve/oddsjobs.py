"""Exact odds and designs in worker processes: bounded, killable, none outliving the server.

The exact odds of a dozen attacks can take tens of seconds and hundreds of megabytes, and the
library's exact pass (:func:`shipcheck.odds`, :func:`shipcheck.card_odds`) has no point where a
thread could stop it. So the workbench asks them of a worker process (spawned, not forked: the
server has threads): cancelling a job kills its worker, a worker past :data:`MAX_RSS` is killed
and the job says so, and an idle worker is kept for the next question (its imports paid once).
Work may send progress from the worker (:func:`report`), and work that keeps its best so far on a
Ctrl-C (:func:`shipcheck.design`) is interrupted rather than killed (:func:`interruptible`). A
worker exits by itself once the server is gone (it watches its parent), and the server kills
every worker as it stops.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any

from shipcheck.errors import InputError

#: resident memory a worker may reach (bytes); past it, the job is stopped (twelve attacks round the
#: class III hauler peak near 0.9 GB)
MAX_RSS = 1024 * 1024 * 1024
#: idle workers kept for the next question
KEEP_IDLE = 1
#: seconds between looks at a running worker (cancelled? too big? done?)
POLL = 0.2


class Refused(InputError):
    """Bad input the worker found: the lines of its :class:`InputError`."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines[0] if lines else "bad input")
        self.said = list(lines)

    def lines(self) -> list[str]:
        return list(self.said)


class TooBig(Exception):
    """The worker grew past :data:`MAX_RSS` and was stopped."""


class WorkerFailed(Exception):
    """The worker died, or raised something other than bad input."""


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


#: in a worker process: the pipe to the server (:func:`report` sends progress on it)
_PIPE: Connection | None = None


def report(value: Any) -> None:
    """Send ``value`` to the server as progress of the work running in this worker (nothing when
    not in a worker)."""
    if _PIPE is not None:
        _PIPE.send(("progress", value))


@contextmanager
def interruptible() -> Iterator[None]:
    """In a worker: within the block, the server's :meth:`Worker.interrupt` raises
    KeyboardInterrupt, as a Ctrl-C does on the command line (elsewhere the worker ignores it)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _serve(conn: Connection, parent: int) -> None:
    """The worker's loop: ``(fn, args)`` in, ``("progress", value)`` lines then ``("ok", value)``,
    ``("input", lines)``, ``("interrupted", None)`` or ``("bug", text)`` out, until the pipe closes."""
    global _PIPE
    # a Ctrl-C in the terminal reaches the whole process group: the server alone decides
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _PIPE = conn
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            out: tuple[str, Any] = ("ok", fn(*args))
        except InputError as exc:
            out = ("input", exc.lines())
        except KeyboardInterrupt:  # interrupted outside the work's own handling
            out = ("interrupted", None)
        except Exception as exc:  # a bug: said to the page
            out = ("bug", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(out)
        except (BrokenPipeError, OSError):
            return


def rss(pid: int) -> int | None:
    """Resident memory of process ``pid`` in bytes (Linux's /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class Worker:
    """One worker process and the pipe to it."""

    def __init__(self) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, os.getpid()), name="shipcheck-odds-worker", daemon=True)
        self.proc.start()
        child.close()
        self.lock = threading.Lock()
        self.dead = False

    def alive(self) -> bool:
        return not self.dead and self.proc.is_alive()

    def interrupt(self) -> bool:
        """Send the worker a Ctrl-C (SIGINT; see :func:`interruptible`). False where no such signal
        can be sent (Windows, or the worker is gone)."""
        with self.lock:
            if self.dead or os.name != "posix" or not self.proc.is_alive() or self.proc.pid is None:
                return False
            os.kill(self.proc.pid, signal.SIGINT)
            return True

    def kill(self) -> None:
        """End the worker (once, whoever asks first: its job, or the server stopping)."""
        with self.lock:
            if self.dead:
                return
            self.dead = True
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(5)
            self.conn.close()


class Pool:
    """The workers of one server: :meth:`run` a function in one, :meth:`close` them all."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: list[Worker] = []
        self.busy: set[Worker] = set()
        self.closed = False
        atexit.register(self.close)  # a pool left open (a test's) leaves no process behind

    def _take(self) -> Worker:
        with self.lock:
            if self.closed:
                raise WorkerFailed("the server is stopping")
            while self.idle:
                w = self.idle.pop()
                if w.alive():
                    self.busy.add(w)
                    return w
                w.kill()
        w = Worker()
        with self.lock:
            self.busy.add(w)
            if self.closed:  # closed while it started
                self.busy.discard(w)
                w.kill()
                raise WorkerFailed("the server is stopping")
        return w

    def _give_back(self, w: Worker, healthy: bool) -> None:
        with self.lock:
            self.busy.discard(w)
            keep = healthy and not self.closed and len(self.idle) < KEEP_IDLE and w.alive()
            if keep:
                size = rss(w.proc.pid or 0)
                keep = size is None or size < MAX_RSS // 2  # a worker that grew gives its memory back by ending
            if keep:
                self.idle.append(w)
        if not keep:
            w.kill()

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...], *, stop: Callable[[], bool],
            tick: Callable[[float], None], progress: Callable[[Any], None] | None = None,
            grace: float = 0.0) -> Any:
        """``fn(*args)`` in a worker. ``stop()`` is asked every :data:`POLL` seconds: once True, the
        worker is killed and None returned, or, with ``grace`` seconds, interrupted (a Ctrl-C) and
        what it answers within them returned (None after). ``tick(seconds)`` reports the time
        spent; ``progress(value)`` what ``fn`` sends with :func:`report`. Bad input raised by
        ``fn`` is raised here as :class:`Refused`. A worker whose work was stopped is not kept."""
        w = self._take()
        healthy = False
        t0 = time.monotonic()
        until: float | None = None  # stopped: the end of the grace
        try:
            w.conn.send((fn, args))
            while True:
                if until is None and stop():
                    if grace <= 0 or not w.interrupt():
                        return None
                    until = time.monotonic() + grace
                elif until is not None and time.monotonic() > until:
                    return None
                if w.conn.poll(POLL):
                    try:
                        kind, value = w.conn.recv()
                    except (EOFError, OSError):
                        if stop():  # killed because the job was cancelled (the server stopping)
                            return None
                        raise WorkerFailed("the worker stopped unexpectedly") from None
                    if kind == "progress":
                        if progress is not None and until is None:
                            progress(value)
                        continue
                    if kind == "bug":
                        raise WorkerFailed(value)
                    healthy = until is None
                    if kind == "input":
                        raise Refused(value)
                    return value if kind == "ok" else None
                if not w.alive():
                    if stop():
                        return None
                    raise WorkerFailed(f"the worker stopped unexpectedly (exit code {w.proc.exitcode})")
                size = rss(w.proc.pid or 0)
                if size is not None and size > MAX_RSS:
                    raise TooBig(size)
                tick(time.monotonic() - t0)
        finally:
            self._give_back(w, healthy)

    def close(self) -> None:
        """Kill every worker, idle or busy (the server is stopping)."""
        with self.lock:
            self.closed = True
            workers = [*self.idle, *self.busy]
            self.idle.clear()
        for w in workers:
            w.kill()
