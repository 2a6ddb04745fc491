"""The engine compiled ahead of time (shipcheck.aot): the builder makes it beside numba's disk cache;
a round's process flies the built-in policies on it without starting numba, with numba's engine's
numbers, run for run; a build that cannot compile (no C compiler) is remembered, and rounds load
numba's engine as before."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from shipcheck import aot, prebuild
from shipcheck.engine import build

ROOT = Path(__file__).resolve().parents[1]

ROUNDS = """
import json, sys
import shipcheck
from shipcheck import aot
from shipcheck.round import DefaultPolicy


class Careful(DefaultPolicy):
    name = "careful"

    def take_reward(self, view, card):
        return (card.days or 0) <= 1


out = {}
for path, rnd, policy in [("class-III-hauler", 3, "default"), ("class-IIA-twins", 2, "racing"),
                          ("class-IIIa-longboat", "3a", "default"), ("class-I-scout", 1, Careful())]:
    r = shipcheck.simulate_round(f"examples/{path}.toml", round=rnd, runs=300, seed=11, policy=policy,
                                 keep_runs=True)
    out[path] = {"json": r.to_dict(), "credits": r.credits.tolist(), "lost": r.lost.tolist(),
                 "days": r.days.tolist(), "sources": r.sources.tolist()}
print(json.dumps({"out": out, "aot": aot.load() is not None}))
"""

COMMAND = """
import sys
from shipcheck.cli import main
sys.argv = ["shipcheck", "simulate", "examples/class-III-hauler.toml", "--round", "3", "--runs", "400",
            "--seed", "5", "-f", "json"]
try:
    main()
except SystemExit as e:
    code = e.code
print("numba" in sys.modules, file=sys.stderr)
"""


def _run(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc


def _compiler() -> bool:
    """Whether the C compiler Python's extensions are built with is there (numba.pycc uses it)."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0]) is not None


def test_rounds_on_it_give_numbas_numbers_run_for_run() -> None:
    # the suite's builder has finished (conftest): the module is there, or a marker says why not
    ahead = json.loads(_run(ROUNDS).stdout.strip().splitlines()[-1])
    numba = json.loads(_run(ROUNDS, {prebuild.AOT_ENV: "0"}).stdout.strip().splitlines()[-1])
    assert not numba["aot"]
    why = prebuild.aot_failed()
    if prebuild.aot_off() is None and why is None:
        path = prebuild.aot_path()
        assert path is not None and path.exists() and ahead["aot"]
    else:
        assert not ahead["aot"] and (prebuild.aot_off() or not _compiler()), why
    assert ahead["out"] == numba["out"]


def test_a_rounds_process_on_it_starts_no_numba() -> None:
    ahead = _run(COMMAND)
    numba = _run(COMMAND, {prebuild.AOT_ENV: "0"})
    assert json.loads(ahead.stdout) == json.loads(numba.stdout)
    assert numba.stderr.strip().splitlines()[-1] == "True"
    built = prebuild.aot_off() is None and prebuild.aot_failed() is None
    assert ahead.stderr.strip().splitlines()[-1] == str(not built)


def tiny(a, out):  # type: ignore[no-untyped-def]
    out[0] = a.sum() * 2


LOAD = """
import sys
import numpy as np
from shipcheck import aot
m = aot.load()
out = np.zeros(1, dtype=np.int64)
m.play(np.arange(5, dtype=np.int64), out)
print(int(out[0]), "numba" in sys.modules)
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of its own (an install's key of its own), numba on."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    for name in ("SHIPCHECK_JIT", prebuild.AOT_ENV, "NUMBA_DISABLE_JIT"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _tiny() -> object:
    import numba

    d = numba.njit(tiny)
    d(np.arange(3, dtype=np.int64), np.zeros(1, dtype=np.int64))  # its one signature
    return d


@pytest.mark.slow
def test_build_puts_the_module_in_place_and_a_fresh_process_loads_it_without_numba(cache: Path) -> None:
    stale = cache / f"engine-0123456789abcdef0123-{prebuild.aot_cpu()}.aot.so"
    stale.write_bytes(b"an earlier install's")
    if not _compiler():
        with pytest.raises(Exception):  # noqa: B017 - whatever distutils raises: the builder records it
            aot.build(_tiny())
        return
    path = aot.build(_tiny())
    assert path == prebuild.aot_path() and path.exists() and not stale.exists()
    assert sorted(p.name for p in cache.iterdir()) == [path.name]  # its work folder is gone too
    assert not prebuild.aot_wanted()
    got = _run(LOAD, {"NUMBA_CACHE_DIR": str(cache)}).stdout.split()
    assert got == ["20", "False"]


@pytest.mark.slow
def test_a_build_without_a_c_compiler_is_remembered_and_not_tried_again(cache: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", str(cache / "no-such-compiler"))
    assert prebuild.aot_wanted()
    build._ahead(_tiny(), prebuild.key())
    why = prebuild.aot_failed()
    assert why and "no-such-compiler" in why
    assert not prebuild.aot_wanted()
    path = prebuild.aot_path()
    assert path is not None and not path.exists()
    marker = prebuild.aot_failed_marker()
    assert marker is not None and sorted(p.name for p in cache.iterdir()) == [marker.name]


def test_the_processor_is_named_and_switches_turn_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    name = prebuild.aot_cpu()
    if Path("/proc/cpuinfo").exists():
        assert name is not None and len(name) == 12 and name == prebuild.aot_cpu()
    for env, value in ((prebuild.AOT_ENV, "0"), ("SHIPCHECK_JIT", "0"), ("NUMBA_DISABLE_JIT", "1")):
        with monkeypatch.context() as m:
            m.setenv(env, value)
            assert env in (prebuild.aot_off() or "") and not prebuild.aot_wanted()


THREADED = """
import sys, threading
import shipcheck
from shipcheck import engine
seen = {}
def fly():
    r = shipcheck.simulate_round("examples/class-I-scout.toml", round=1, runs=200, seed=3)
    seen["credits"] = r.ship_result.credits_mean
if sys.argv[1] == "thread":
    t = threading.Thread(target=fly)
    t.start()
    t.join()
else:
    fly()
print(seen["credits"], "numba" in sys.modules, engine.compiled_ready())
"""


def test_a_round_outside_the_main_thread_flies_on_numbas_engine() -> None:
    # the extension holds the interpreter lock while it flies: a workbench's other requests would wait
    main = subprocess.run([sys.executable, "-c", THREADED, "main"], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600, check=True).stdout.split()
    thread = subprocess.run([sys.executable, "-c", THREADED, "thread"], capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=600, check=True).stdout.split()
    assert thread[0] == main[0]
    assert thread[1:] == ["True", "True"]
    built = prebuild.aot_off() is None and prebuild.aot_failed() is None
    assert main[1:] == (["False", "False"] if built else ["True", "True"])


def test_a_damaged_module_is_not_loaded(cache: Path) -> None:
    path = prebuild.aot_path()
    assert path is not None
    path.write_bytes(b"\x7fELF not a library")
    got = _run("from shipcheck import aot\nprint(aot.load())", {"NUMBA_CACHE_DIR": str(cache)})
    assert got.stdout.split() == ["None"]
