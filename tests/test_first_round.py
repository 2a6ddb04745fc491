"""The first whole round before the compiled engine is built (shipcheck.firstround): its first
slice decides whether the rest flies as plain Python on every core (the builder starting after the
round) or beside the builder started at once; spread over any number of forked workers the numbers
are the same; a worker that dies leaves its runs to the round, without a traceback; Ctrl-C ends
every process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from shipcheck import engine
from shipcheck import firstround as first
from shipcheck.parallel import cpu_count
from shipcheck.round.deck import build_deck
from shipcheck.round.engine import ACCOUNT, ROLLS, SOURCES, TYPES, Job, build_table
from shipcheck.round.field import default_field
from shipcheck.round.policy import DefaultPolicy
from shipcheck.round.rulebook import round_rules
from shipcheck.shipfile import load_ship

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("credits", "lost", "survived", "gave_up", "days", "place", "card_credits", "sources", "by_type",
          "tile_lost")
forks = pytest.mark.skipif(not hasattr(os, "fork") or cpu_count() < 2, reason="needs fork and two cores")


def test_spread_when_every_core_ends_before_the_build() -> None:
    # 300 class III runs a second on one core: 10,000 runs take 16.7 s on two, 33 s on one
    assert first.decide(300.0, 10_000, 2)
    assert not first.decide(300.0, 10_000, 1)  # one core: the builder beside it ends no later
    assert not first.decide(300.0, 100_000, 2)  # 167 s on two cores: the build (45 s) first
    assert first.decide(300.0, 100_000, 2, build=200.0)
    assert not first.decide(0.0, 10, 2)


def _runs(path: str, rnd: str, n: int, seed: int) -> tuple[dict, np.ndarray, np.ndarray, engine.Outputs]:
    me = load_ship(path)
    rules = round_rules(rnd)
    others, _ = default_field(me, rules.level)
    deck = build_deck(rules, me.edition)
    table = build_table(Job((me, *others), (DefaultPolicy(),) * (1 + len(others)), rules, deck, False))
    g = np.random.default_rng(seed)
    decks = deck.draw(g, n).astype(np.int64)
    rolls = g.integers(0, 36, size=(n, decks.shape[1], ROLLS)).astype(np.int64)
    out = engine.Outputs(table.P, n, len(TYPES), len(ACCOUNT), len(SOURCES), max(m.n for m in table.models))
    return table.tables(deck.cards), decks, rolls, out


def _flier(t: dict, decks: np.ndarray, rolls: np.ndarray, out: engine.Outputs):  # type: ignore[no-untyped-def]
    slow = engine._run_module(True)
    tp = engine.python_ints(t)
    return lambda a, b: engine._fly_plain(slow, tp, decks, rolls, out, a, b)


@forks
@pytest.mark.parametrize("path,rnd", [("examples/class-I-scout.toml", "1"), ("examples/class-II-freighter.toml", "2")])
def test_the_same_numbers_on_any_number_of_workers(path: str, rnd: str) -> None:
    t, decks, rolls, out = _runs(path, rnd, 70, seed=11)
    whole = out.part(0, 70)
    with np.errstate(over="ignore"):
        engine._call(engine._run_module(True), t, decks, rolls, whole)  # one process, int64 tables
    for procs in (1, 2, 3):
        mine = out.part(0, 70)
        seen: list[int] = []
        parts, failed = first.spread(_flier(t, decks, rolls, out), 5, 70, procs, 16, seen.append)
        assert failed == []
        mine.put(0, _flier(t, decks, rolls, out)(0, 5))  # the first slice, flown by the caller
        for lo, part in parts:
            mine.put(lo, part)
        for f in FIELDS:
            assert np.array_equal(getattr(mine, f), getattr(whole, f)), (procs, f)
        assert seen == sorted(seen) and seen[-1] == 65  # every worker's progress, up to its last run


@forks
def test_a_worker_that_dies_leaves_its_runs_to_the_caller(capfd: pytest.CaptureFixture[str]) -> None:
    t, decks, rolls, out = _runs("examples/class-I-scout.toml", "1", 40, seed=2)
    fly = _flier(t, decks, rolls, out)
    me = os.getpid()

    def dying(a: int, b: int) -> engine.Outputs:
        if os.getpid() != me and a >= 20:
            raise RuntimeError("out of luck")  # a worker's failure: it ends without its block
        return fly(a, b)

    parts, failed = first.spread(dying, 0, 40, 2, 8)
    flown = sorted(lo for lo, _ in parts)
    # a worker that fails loses every slice it took: whichever slices those were, each of the five
    # is either flown or handed back, none twice, and none from run 20 on was flown
    assert sorted(flown + [lo for lo, _ in failed]) == [0, 8, 16, 24, 32]
    assert all(hi == lo + 8 for lo, hi in failed)
    assert all(lo < 20 for lo in flown) and {24, 32} <= {lo for lo, _ in failed}
    err = capfd.readouterr().err
    assert "Traceback" not in err and "out of luck" not in err


ROUND = """
import json, os, sys
import shipcheck
from shipcheck import prebuild
from shipcheck.round.engine import compile_note
seen = []
def progress(done, total):
    if not seen:
        seen.append(compile_note(0.0) or "")
        seen.append(prebuild.busy())
    if done > int(sys.argv[2]):
        raise KeyboardInterrupt
try:
    r = shipcheck.simulate_round("examples/class-I-scout.toml", round=1, runs=int(sys.argv[1]), seed=4,
                                 keep_runs=True, progress=progress)
    credits = r.credits.tolist()
except KeyboardInterrupt:
    credits = None
    import time
    for _ in range(50):  # a builder started by the round's first slice takes its lock in a moment
        if prebuild.busy():
            break
        time.sleep(0.1)
print(json.dumps({"note": seen[0], "busy_during": seen[1], "credits": credits, "busy_after": prebuild.busy()}))
"""


def _fresh(tmp_path: Path, *args: str, prelude: str = "", builder: bool = False) -> dict:
    """The round in a process of its own on an install whose engine was never built (an empty
    numba cache of its own); ``builder``: a builder may start (it is stopped after)."""
    env = {k: v for k, v in os.environ.items() if k not in ("SHIPCHECK_JIT", "SHIPCHECK_ROUND_ENGINE")}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(ROOT))
    if builder:
        env.pop("SHIPCHECK_ENGINE_BUILDER", None)
    else:
        env["SHIPCHECK_ENGINE_BUILDER"] = "0"
    proc = subprocess.run([sys.executable, "-c", prelude + ROUND, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)
    for lock in (tmp_path / "numba").glob("*.building"):  # a builder compiling into the test's cache:
        try:  # not what is tested
            os.kill(int(lock.read_text()), signal.SIGKILL)
        except (ValueError, OSError):
            pass
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "Traceback" not in proc.stderr, proc.stderr
    return got  # type: ignore[return-value]


def _compiled(runs: int) -> list:
    from shipcheck.round import simulate_round

    return simulate_round("examples/class-I-scout.toml", round=1, runs=runs, seed=4,  # type: ignore[no-any-return]
                          keep_runs=True).credits.tolist()


@forks
def test_a_short_first_round_flies_on_every_core_then_starts_the_builder(tmp_path: Path) -> None:
    got = _fresh(tmp_path, "300", "1000000000", builder=True)
    assert f"on {cpu_count()} cores" in got["note"]
    assert not got["busy_during"]  # no builder while the round flies
    assert got["busy_after"]  # started as the round ended, to finish on its own
    assert got["credits"] == _compiled(300)  # the numbers of the compiled engine


def test_a_long_first_round_starts_the_builder_at_once(tmp_path: Path) -> None:
    # a million runs cannot end plain before the build: the builder starts on the first slice (and
    # the round, interrupted by its progress callback, is not flown here)
    got = _fresh(tmp_path, str(10**6), "0", builder=True)
    assert "compiling the round engine" in got["note"] and got["busy_after"]


@forks
def test_a_worker_dying_in_a_round_costs_no_numbers(tmp_path: Path) -> None:
    dying = ("import os\nimport shipcheck.engine as E\n_real, _me = E._fly_plain, os.getpid()\n"
             "def _fly(slow, t, decks, rolls, out, a, b):\n"
             "    if os.getpid() != _me and a >= 150:\n        os._exit(9)  # killed, as by the kernel's OOM killer\n"
             "    return _real(slow, t, decks, rolls, out, a, b)\n"
             "E._fly_plain = _fly\n")
    got = _fresh(tmp_path, "300", "1000000000", prelude=dying)
    assert got["credits"] == _compiled(300)


@forks
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_ends_the_round_and_its_workers(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("SHIPCHECK_JIT", "SHIPCHECK_ROUND_ENGINE")}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "numba"), SHIPCHECK_ENGINE_BUILDER="0", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "shipcheck", "simulate", "examples/class-II-freighter.toml",
                             "--round", "2", "--runs", "20000", "--seed", "1"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    kids: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(kids) < 2 and proc.poll() is None:
        time.sleep(0.2)
        kids = _children(proc.pid)
    assert len(kids) >= 2, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole foreground group
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err, err.decode(errors="replace")
    time.sleep(0.5)
    assert [k for k in kids if Path(f"/proc/{k}").exists() and _state(k) != "Z"] == []


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(d.name))
    return out


def _state(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@forks
def test_the_command_line_leaves_the_build_to_after_a_first_round(tmp_path: Path) -> None:
    # no builder at the start of the command (it would take a core from the round): the round
    # says the engine is compiled after it, and the builder is at work once the command has ended
    env = {k: v for k, v in os.environ.items()
           if k not in ("SHIPCHECK_JIT", "SHIPCHECK_ROUND_ENGINE", "SHIPCHECK_ENGINE_BUILDER")}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(ROOT), COLUMNS="400")
    proc = subprocess.run([sys.executable, "-m", "shipcheck", "simulate", "examples/class-I-scout.toml", "--round", "1",
                           "--runs", "300", "--seed", "1"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    locks = list((tmp_path / "numba").glob("*.building"))
    for lock in locks:
        try:
            os.kill(int(lock.read_text()), signal.SIGKILL)
        except (ValueError, OSError):
            pass
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "the engine is compiled after it" in " ".join(proc.stderr.split()), proc.stderr
    assert locks


def test_a_first_round_that_finds_the_builder_at_work_flies_beside_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # spread over every core, the round would starve the builder (and the rounds after it would
    # start plain again): it flies beside it, and the compiled engine takes over when it is done
    from shipcheck import prebuild

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    lock = prebuild._lock()
    assert lock is not None
    lock.parent.mkdir(parents=True)
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])  # the builder at work
    try:
        lock.write_text(f"{stand_in.pid}\n")
        got = _fresh(tmp_path, "300", "1000000000", builder=True)
    finally:
        stand_in.kill()
        stand_in.wait()
    assert "compiling the round engine" in got["note"] and "cores" not in got["note"]
    assert got["busy_during"]
    assert got["credits"] == _compiled(300)


@forks
def test_a_worker_whose_core_is_busy_takes_fewer_slices() -> None:
    """The workers take slices from one queue: the one slowed down (here by sleeping a second on
    every slice, from the first) leaves the rest to the other, and every slice comes back once."""
    slowed = {"me": False}

    def fly(a: int, b: int) -> int:
        if a == 0:
            slowed["me"] = True  # this process only (forked: its own copy)
        if slowed["me"]:
            time.sleep(1.0)
        return os.getpid()

    parts, failed = first.spread(fly, 0, 20, 2, 1)
    assert failed == [] and sorted(lo for lo, _ in parts) == list(range(20))
    by = Counter(pid for _, pid in parts)
    slow = next(pid for lo, pid in parts if lo == 0)
    assert len(by) == 2 and by[slow] <= 3
