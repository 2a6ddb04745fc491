"""Long work (whole rounds, the credits ranking, reports, exact odds, designs) run in a thread, streamed, cancellable.

A :class:`Job` runs its function in a daemon thread and queues what it reports: progress events,
then one final event (``result``, ``error`` or ``cancelled``). The HTTP response streams them as
JSON lines (:func:`stream`). A job stops at the next progress report once cancelled: when its
client goes away (the page closed, the request aborted), when the page asks, or when the server
stops. The library's ``progress`` callbacks are where it stops: an exception raised there ends the
run, worker processes included (see :func:`shipcheck.simulate_round`). A job that keeps its best
so far (a design, as Ctrl-C keeps it on the command line) sends it as its result when cancelled.

The round engine's compiled kernel releases the GIL, so the server keeps answering edits while a
job flies rounds.
"""

from __future__ import annotations

import json
import queue
import threading
import time
import traceback
from collections.abc import AsyncIterator, Callable
from typing import Any

from shipcheck.errors import InputError
from shipcheck.serve.refusals import error_lines

#: jobs running at once; more are refused (the page runs one of each kind at a time)
MAX_JOBS = 4
#: jobs of one kind running at once, where fewer than :data:`MAX_JOBS`: exact odds one at a time (a
#: dozen attacks round a class III ship hold most of a gigabyte in their worker: :mod:`.workers`)
KIND_CAPS = {"odds": 1, "design": 1}
#: seconds between keep-alive lines, which also let the server notice a client that went away
HEARTBEAT = 0.5


class Cancelled(Exception):
    """Raised inside a job's thread, at its next progress report, once it is cancelled."""


class Busy(InputError):
    pass


class Job:
    """One piece of long work; ``fn(job)`` calls :meth:`progress` as it goes and returns a result."""

    registry: set[Job] = set()
    lock = threading.Lock()

    def __init__(self, kind: str, fn: Callable[[Job], Any], client: str | None = None, *,
                 keeps_best: bool = False) -> None:
        self.kind = kind
        self.client = client  # the page that started it (its pages cancel their own jobs)
        self.fn = fn
        self.keeps_best = keeps_best  # cancelled, ``fn`` returns the best so far (None: nothing to keep)
        self.events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.cancelled = threading.Event()
        self.started = time.perf_counter()
        self.thread = threading.Thread(target=self._run, name=f"shipcheck-job-{kind}", daemon=True)

    @classmethod
    def check_room(cls, kind: str) -> None:
        """Raise :class:`Busy` when a job of ``kind`` could not start now (call with :attr:`lock`
        held to be sure; without it, a quick refusal before the request is read)."""
        if len(cls.registry) >= MAX_JOBS:
            raise Busy("too many jobs at once", key="job", value=kind,
                       expected=f"at most {MAX_JOBS} running (cancel one first)")
        cap = KIND_CAPS.get(kind)
        if cap is not None and sum(j.kind == kind for j in list(cls.registry)) >= cap:
            raise Busy(f"too many {kind} jobs at once", key="job", value=kind,
                       expected=f"at most {cap} running (cancel one first)")

    def start(self) -> Job:
        with Job.lock:
            Job.check_room(self.kind)
            Job.registry.add(self)
        self.thread.start()
        return self

    def progress(self, **info: Any) -> None:
        """Report progress; raises :class:`Cancelled` once the job is cancelled."""
        if self.cancelled.is_set():
            raise Cancelled()
        self.events.put({"type": "progress", **info})

    def cancel(self) -> None:
        self.cancelled.set()

    def _run(self) -> None:
        try:
            result = self.fn(self)
            if self.cancelled.is_set() and (result is None or not self.keeps_best):
                raise Cancelled()
            self.events.put({"type": "result", "seconds": round(time.perf_counter() - self.started, 3),
                             "result": result})
        except Cancelled:
            self.events.put({"type": "cancelled"})
        except InputError as exc:
            self.events.put({"type": "error", "errors": error_lines(exc)})
        except Exception as exc:  # a bug: said to the page, printed for the person running the server
            traceback.print_exc()
            self.events.put({"type": "error", "errors": [f"internal error ({type(exc).__name__}: {exc}); please "
                                                         "report it"]})
        finally:
            with Job.lock:
                Job.registry.discard(self)
            self.events.put(None)

    @classmethod
    def cancel_all(cls) -> None:
        with cls.lock:
            jobs = list(cls.registry)
        for j in jobs:
            j.cancel()


async def stream(job: Job) -> AsyncIterator[bytes]:
    """The job's events as JSON lines (a blank line as keep-alive); the job is cancelled when the
    client goes away before the end (the response is then cancelled, and so is this generator)."""
    import anyio

    done = False
    try:
        yield (json.dumps({"type": "started", "job": job.kind}) + "\n").encode()
        last = time.monotonic()
        while True:
            try:
                ev = job.events.get_nowait()
            except queue.Empty:
                await anyio.sleep(0.05)
                if time.monotonic() - last > HEARTBEAT:
                    last = time.monotonic()
                    yield b"\n"
                continue
            if ev is None:
                done = True
                return
            last = time.monotonic()
            yield (json.dumps(ev, allow_nan=False) + "\n").encode()
    finally:
        if not done:
            job.cancel()
