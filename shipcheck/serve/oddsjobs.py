"""Exact odds in worker processes: bounded, killable, none outliving the server.

The exact odds of a dozen attacks can take tens of seconds and hundreds of megabytes, and the
library's exact pass (:func:`shipcheck.odds`, :func:`shipcheck.card_odds`) has no point where a
thread could stop it. So the workbench asks them of a worker process (spawned, not forked: the
server has threads): cancelling a job kills its worker, a worker past :data:`MAX_RSS` is killed
and the job says so, and an idle worker is kept for the next question (its imports paid once).
A worker exits by itself once the server is gone (it watches its parent), and the server kills
every worker as it stops.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import threading
import time
from collections.abc import Callable
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


def _serve(conn: Connection, parent: int) -> None:
    """The worker's loop: ``(fn, args)`` in, ``("ok", value)``, ``("input", lines)`` or
    ``("bug", text)`` out, until the pipe closes."""
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
            tick: Callable[[float], None]) -> Any:
        """``fn(*args)`` in a worker. ``stop()`` is asked every :data:`POLL` seconds (True: the
        worker is killed and None returned); ``tick(seconds)`` reports the time spent. Bad input
        raised by ``fn`` is raised here as :class:`Refused`."""
        w = self._take()
        healthy = False
        t0 = time.monotonic()
        try:
            w.conn.send((fn, args))
            while True:
                if stop():
                    return None
                if w.conn.poll(POLL):
                    try:
                        kind, value = w.conn.recv()
                    except (EOFError, OSError):
                        if stop():  # killed because the job was cancelled (the server stopping)
                            return None
                        raise WorkerFailed("the worker stopped unexpectedly") from None
                    if kind == "bug":
                        raise WorkerFailed(value)
                    healthy = True
                    if kind == "input":
                        raise Refused(value)
                    return value
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
