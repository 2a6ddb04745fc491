"""The shared chunk backend: order, seeds, worker caps, errors, and interrupted runs."""

from __future__ import annotations

import importlib.util
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
from proctools import alive as _alive
from proctools import group as _group

from shipcheck.errors import InputError
from shipcheck.flight.montecarlo import simulate
from shipcheck.runtime import workers as parallel
from shipcheck.runtime.workers import chunk_plan, chunk_runner, cpu_count
from shipcheck.validate import fresh_seed, seed_of

ROOT = Path(__file__).resolve().parents[1]
HAULER = ROOT / "examples" / "class-III-hauler.toml"
HAVE_DASK = importlib.util.find_spec("distributed") is not None


# tasks run in worker processes: module-level functions
def _pid_task(blob: bytes, seed: int, index: int, n: int) -> tuple[int, int, int]:
    return index, n, os.getpid()


def _draw_task(blob: bytes, seed: int, index: int, n: int) -> list[int]:
    return parallel.chunk_rng(seed, index).integers(0, 1000, size=n).tolist()


def _failing_task(blob: bytes, seed: int, index: int, n: int) -> int:
    if index == 3:
        raise ValueError(f"chunk {index} failed")
    return index


def _dying_task(blob: bytes, seed: int, index: int, n: int) -> int:
    if index == 2:
        os._exit(7)
    return index


def test_chunk_plan_cuts_the_last_chunk_short() -> None:
    assert list(chunk_plan(10, 4)) == [(0, 4), (1, 4), (2, 2)]
    assert list(chunk_plan(8, 4)) == [(0, 4), (1, 4)]


def test_results_come_in_plan_order_on_any_worker_count() -> None:
    plan = list(chunk_plan(50, 5))
    runs = {}
    for workers in (1, 2, 3):
        with chunk_runner(_draw_task, None, seed=12, n_chunks=len(plan), workers=workers) as run:
            runs[workers] = list(run(plan))
    assert runs[1] == runs[2] == runs[3]
    assert [len(r) for r in runs[1]] == [5] * 10


def test_a_parallel_run_leaves_no_thread_behind() -> None:
    # the pool's own thread ends with the run: left running, it closes its pipe while the
    # interpreter's exit wakes it (a traceback after SIGTERM, seen once in CI)
    before = {t for t in threading.enumerate() if not t.daemon}
    for stop in (None, 2):  # run through, and stopped early
        with chunk_runner(_pid_task, None, seed=3, n_chunks=6, workers=2) as run:
            for k, _ in enumerate(run(chunk_plan(6, 1))):
                if k == stop:
                    break
        assert {t for t in threading.enumerate() if not t.daemon} == before


#: runs stopped early while the workers hand back results larger than a pipe holds; prints (to
#: stderr) the threads left that would keep the process from exiting
STOP_EARLY = """
import sys, threading
from shipcheck.runtime.workers import chunk_plan, chunk_runner
def big(blob, seed, i, n):
    return b"x" * 2_000_000
if __name__ == "__main__":
    for it in range(12):
        with chunk_runner(big, None, seed=1, n_chunks=40, workers=2) as run:
            for k, _ in enumerate(run(chunk_plan(40, 1))):
                if k == it % 3:
                    break
    print([t.name for t in threading.enumerate() if not t.daemon], file=sys.stderr)
"""


def test_stopping_while_workers_hand_back_large_results_never_hangs() -> None:
    # a worker ended halfway through writing its result left the pool's thread waiting for the rest,
    # and the interpreter's exit waiting for the thread (a hang after Ctrl-C, seen once in CI): a
    # worker is ended only while it computes
    proc = subprocess.Popen([sys.executable, "-c", STOP_EARLY], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    assert _ends_clean(proc, [], 0) == b"['MainThread']\n"


def test_workers_are_capped_by_chunks_and_cpus() -> None:
    plan = list(chunk_plan(6, 3))  # two chunks
    with chunk_runner(_pid_task, None, seed=1, n_chunks=2, workers=16) as run:
        out = list(run(plan))
    assert [(i, n) for i, n, _ in out] == plan
    pids = {pid for *_, pid in out}
    assert os.getpid() not in pids or cpu_count() == 1
    assert len(pids) <= min(2, cpu_count())


def test_a_worker_exception_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="chunk 3 failed"):
        with chunk_runner(_failing_task, None, seed=1, n_chunks=8, workers=2) as run:
            list(run(chunk_plan(8, 1)))


def test_a_dead_worker_is_an_error_not_a_hang() -> None:
    with pytest.raises(parallel.WorkerError, match="ended unexpectedly"):
        with chunk_runner(_dying_task, None, seed=1, n_chunks=8, workers=2) as run:
            list(run(chunk_plan(8, 1)))


def test_a_pool_broken_before_a_chunk_is_sent_is_the_same_error() -> None:
    # a worker that dies while others are still being sent chunks breaks the pool at the next submit
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    def submit(i: int, n: int) -> Future[int]:
        if i:
            raise BrokenProcessPool("A child process terminated abruptly")
        f: Future[int] = Future()
        f.set_result(i)
        return f

    got = []
    with pytest.raises(parallel.WorkerError, match="ended unexpectedly"):
        for r in parallel._in_order(submit, [(0, 1), (1, 1)], 1):
            got.append(r)
    assert got == [0]


def _stalling_task(blob: bytes, seed: int, index: int, n: int) -> int:
    """Chunk 0 at once, every other one a minute long; each leaves a mark as it starts and ends."""
    folder = Path(pickle.loads(blob))
    (folder / f"start-{index}").touch()
    if index:
        time.sleep(60)
    (folder / f"end-{index}").touch()
    return index


def test_stopping_early_does_not_wait_for_the_chunks_in_flight(tmp_path: Path) -> None:
    with chunk_runner(_stalling_task, str(tmp_path), seed=1, n_chunks=1000, workers=2) as run:
        gen = run(chunk_plan(1000, 1))
        assert next(gen) == 0
        gen.close()

    def marks(kind: str) -> set[int]:
        return {int(p.name.split("-")[1]) for p in tmp_path.glob(f"{kind}-*")}

    # no chunk beyond the few sent out before the stop was started, and those in flight were not
    # waited for: none of them ran to its end (each would have, a minute later)
    assert 0 in marks("start") and len(marks("start")) <= 2 * cpu_count() + 2, sorted(marks("start"))
    assert marks("end") == {0}


def test_fresh_seeds_fit_a_json_number() -> None:
    seeds = [fresh_seed() for _ in range(200)]
    assert all(0 <= s < 2**53 for s in seeds)
    assert len(set(seeds)) == 200
    assert seed_of(None, None) < 2**53


@pytest.mark.parametrize("kw", [{"seed": -1}, {"seed": 1.5}, {"seed": True}, {"rng": "x"}, {"seed": 1, "rng": 2}])
def test_bad_seeds_are_input_errors(kw: dict[str, object]) -> None:
    with pytest.raises(InputError) as ei:
        seed_of(kw.get("rng"), kw.get("seed"))
    assert ei.value.key in ("seed", "rng")
    assert "--" not in str(ei.value)  # library errors name arguments, not options


def test_runs_that_cannot_fit_in_memory_are_refused_up_front() -> None:
    from shipcheck.shipfile import load_ship

    tracemalloc.start()
    # per-run arrays asked for: they grow with the runs
    with pytest.raises(InputError, match=r"would need about .* of memory") as ei:
        simulate(load_ship(HAULER), ["small-meteor:front"], runs=10**10, seed=1, keep_runs=True)
    assert ei.value.key == "runs"
    # the summaries alone take the memory of one chunk: a chunk too big is what cannot fit
    with pytest.raises(InputError, match=r"would need about .* of memory") as ei:
        simulate(load_ship(HAULER), ["small-meteor:front"], runs=10**10, batch=10**10, seed=1)
    assert ei.value.key == "batch"
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 200 * 2**20, f"{peak / 2**20:.0f} MiB allocated before the refusal"  # refused up front


@pytest.mark.parametrize("address", ["bogus", "http://localhost:8786", "tcp://", "tcp://host:port", "ftp://a:1"])
def test_bad_scheduler_addresses_are_input_errors(address: str) -> None:
    with pytest.raises(InputError, match="scheduler") as ei:
        parallel.check_scheduler(address)
    assert ei.value.key == "scheduler"


def test_scheduler_of_the_wrong_type() -> None:
    with pytest.raises(InputError, match="scheduler"):
        parallel.check_scheduler(42)


@pytest.mark.skipif(not HAVE_DASK, reason="dask[distributed] not installed")
def test_an_unreachable_scheduler_fails_in_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)  # (a hang would never return)
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        with chunk_runner(_pid_task, None, seed=1, n_chunks=4, scheduler=f"tcp://127.0.0.1:{port}") as run:
            list(run(chunk_plan(4, 1)))


# -- interrupted runs ------------------------------------------------------------------------------
def _long_simulation(*extra: str) -> subprocess.Popen[bytes]:
    """A long `shipcheck simulate` in a session and process group of its own (its pid is the group's)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), NO_COLOR="1")
    return subprocess.Popen(
        [sys.executable, "-m", "shipcheck", "simulate", str(HAULER), "--card", "III-10", "--runs", "4000000000",
         "--seed", "1", "--format", "json", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT, start_new_session=True)


def _busy_simulation(*extra: str) -> tuple[subprocess.Popen[bytes], list[int]]:
    """`shipcheck simulate --workers 2` (or Dask) in a process group of its own, once its workers run."""
    proc = _long_simulation(*extra)
    deadline = time.monotonic() + 90
    want = 3
    while time.monotonic() < deadline:
        group = _alive(_group(proc.pid))
        if len(group) >= want or proc.poll() is not None:
            break
        time.sleep(0.1)
    time.sleep(1.0)  # chunks are running
    group = _alive(_group(proc.pid))
    assert proc.poll() is None, proc.communicate()
    assert len(group) >= want, group
    return proc, group


def _ends_clean(proc: subprocess.Popen[bytes], group: list[int], *codes: int) -> bytes:
    """Wait for the run to end with one of ``codes``, no traceback and no process left; its stderr."""
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the interrupted run did not end within 20 s")
    deadline = time.monotonic() + 10
    while _alive(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _alive(group)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"
    assert proc.returncode in codes, err
    assert b"Traceback" not in err, err.decode(errors="replace")
    return err


pytestmark_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytestmark_linux
@pytest.mark.slow
def test_sigterm_stops_the_workers() -> None:
    proc, group = _busy_simulation("--workers", "2")
    proc.send_signal(signal.SIGTERM)
    _ends_clean(proc, group, 128 + signal.SIGTERM)


@pytestmark_linux
@pytest.mark.slow
def test_ctrl_c_stops_the_workers_with_exit_130() -> None:
    proc, group = _busy_simulation("--workers", "2")
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole foreground group
    _ends_clean(proc, group, 130)


@pytestmark_linux
@pytest.mark.slow
def test_workers_end_with_a_killed_parent() -> None:
    proc, group = _busy_simulation("--workers", "2")
    proc.kill()
    _ends_clean(proc, group, -signal.SIGKILL)


def _quiet(err: bytes) -> None:
    """stderr holds at most our one line (and the blank lines of the progress bar): no traceback."""
    lines = [line for line in err.decode(errors="replace").splitlines() if line.strip()]
    assert lines in ([], ["shipcheck: interrupted"]), err.decode(errors="replace")


@pytestmark_linux
@pytest.mark.slow
@pytest.mark.skipif(not HAVE_DASK, reason="dask[distributed] not installed")
def test_ctrl_c_stops_a_local_dask_cluster_quietly() -> None:
    proc, group = _busy_simulation("--dask", "--workers", "2")
    os.killpg(proc.pid, signal.SIGINT)  # one press is enough
    _quiet(_ends_clean(proc, group, 130))


def _dask_worker_spawned(pgid: int) -> bool:
    """Whether a Dask worker process of the group has been spawned (its interpreter may be starting)."""
    for pid in _alive(_group(pgid)):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"spawn_main" in fh.read():
                    return True
        except OSError:
            pass
    return False


@pytestmark_linux
@pytest.mark.slow
@pytest.mark.skipif(not HAVE_DASK, reason="dask[distributed] not installed")
@pytest.mark.parametrize("when", [0.3, 1.0, 2.0, "worker spawned"])
def test_ctrl_c_while_a_local_dask_cluster_starts(when: float | str) -> None:
    """A Ctrl-C (SIGINT to the whole group, as a terminal sends it) at any moment of start-up stops
    the run: exit 130, no traceback, no worker, nanny or scheduler left (a hang fails the wait for
    the process; how quickly it stops is a benchmark's question, not a test's)."""
    t0 = time.monotonic()
    proc = _long_simulation("--dask", "--workers", "2")
    pgid = proc.pid
    try:
        if isinstance(when, float):
            time.sleep(max(0.0, t0 + when - time.monotonic()))
        else:
            while not _dask_worker_spawned(pgid) and proc.poll() is None and time.monotonic() - t0 < 60:
                time.sleep(0.01)
        assert proc.poll() is None, proc.communicate()
        os.killpg(pgid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # the cluster still has to start and close: a hang fails here
    finally:
        if proc.poll() is None:
            os.killpg(pgid, signal.SIGKILL)
            proc.communicate()
    deadline = time.monotonic() + 10
    while _alive(_group(pgid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _alive(_group(pgid))
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left behind: {left}"
    # 130; or, on a loaded machine, a press before the interpreter has set up its Ctrl-C handling
    # ends it by SIGINT, silently, which a shell shows as 130 too
    assert proc.returncode in (130, -signal.SIGINT), err.decode(errors="replace")
    _quiet(err)
    assert out == b""


@pytestmark_linux
@pytest.mark.slow
@pytest.mark.skipif(not HAVE_DASK, reason="dask[distributed] not installed")
def test_sigterm_stops_a_local_dask_cluster() -> None:
    proc, group = _busy_simulation("--dask", "--workers", "2")
    # SIGTERM closes the cluster and exits 143; one that lands while the cluster closes ends the
    # parent by the signal itself, and the workers follow it through distributed's parent-alive pipe
    deadline = time.monotonic() + 30
    while proc.poll() is None and time.monotonic() < deadline:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            pass
    _ends_clean(proc, group, 128 + signal.SIGTERM, -signal.SIGTERM)
