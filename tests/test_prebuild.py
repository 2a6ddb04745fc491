"""The builder of the compiled engine (shipcheck.prebuild, shipcheck.engine.build): one at a time,
a stale lock taken over, nothing to start where nothing can be kept, and every command starting it
without importing numba or numpy."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shipcheck import prebuild

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of its own, and a builder that finds numba switched off (it ends at once)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SHIPCHECK_JIT", "0")  # inherited by the builder: nothing to compile
    return tmp_path


def _wait(proc: subprocess.Popen[bytes]) -> int:
    return proc.wait(timeout=60)


def test_one_builder_at_a_time_and_its_lock_goes_with_it(folder: Path) -> None:
    proc = prebuild.start()
    assert isinstance(proc, subprocess.Popen)
    assert prebuild.busy() or proc.poll() is not None
    if proc.poll() is None:  # while it holds the lock, a second start leaves it to the first
        assert prebuild.start() is None
    assert _wait(proc) == 3  # numba off: nothing built
    assert not prebuild.busy() and not prebuild.built()
    assert list(folder.glob("*.building")) == []
    assert not prebuild.failed()  # numba off is no failure to remember: it may be switched on


def test_a_stale_lock_is_taken_over(folder: Path) -> None:
    lock = folder / f"engine-{prebuild.key()}.building"
    lock.write_text("")
    assert prebuild.start() is None  # a fresh lock: someone builds
    old = time.time() - prebuild.STALE_LOCK - 60
    os.utime(lock, (old, old))
    assert not prebuild.busy()
    proc = prebuild.start()
    assert isinstance(proc, subprocess.Popen)
    _wait(proc)
    assert not lock.exists()


def test_no_builder_where_no_folder_can_hold_its_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "cache"))  # under a file: cannot be made
    assert prebuild.start() is False
    assert not prebuild.busy() and not prebuild.built()


def test_the_key_names_this_install_and_where_numba_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    a = prebuild.key()
    assert a == prebuild.key() and len(a) == 20
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere/else")
    assert prebuild.key() != a


@pytest.mark.parametrize("env", [{"SHIPCHECK_ENGINE_BUILDER": "0"}, {"SHIPCHECK_JIT": "0"}])
def test_prestart_starts_nothing_when_switched_off(folder: Path, monkeypatch: pytest.MonkeyPatch,
                                                   env: dict[str, str]) -> None:
    monkeypatch.delenv("SHIPCHECK_JIT", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    prebuild.prestart()
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("ahead", ["built", "failed", "off"])
def test_a_built_stamp_means_no_builder(folder: Path, monkeypatch: pytest.MonkeyPatch, ahead: str) -> None:
    # once the engine compiled ahead of time is there too (or cannot be built here, or is off)
    monkeypatch.delenv("SHIPCHECK_JIT", raising=False)
    monkeypatch.delenv(prebuild.AOT_ENV, raising=False)
    stamp, module, marker = prebuild.stamp(), prebuild.aot_path(), prebuild.aot_failed_marker()
    assert stamp is not None and module is not None and marker is not None
    assert marker.parent == module.parent == folder and prebuild.aot_cpu() in module.name
    stamp.write_text("built\n")
    assert prebuild.aot_wanted() and prebuild.aot_failed() is None
    made = [stamp.name]
    if ahead == "built":
        module.write_bytes(b"")
        made.append(module.name)
    elif ahead == "failed":
        marker.write_text("CompileError: no C compiler\n")
        made.append(marker.name)
        assert prebuild.aot_failed() == "CompileError: no C compiler"
    else:
        monkeypatch.setenv(prebuild.AOT_ENV, "0")
        assert prebuild.aot_off() == f"{prebuild.AOT_ENV}=0 in the environment"
    assert not prebuild.aot_wanted()
    prebuild.prestart()
    assert prebuild.built() and not prebuild.busy()
    assert sorted(p.name for p in folder.iterdir()) == sorted(made)


def test_every_command_starts_the_builder_without_importing_numba_or_numpy(folder: Path) -> None:
    # a command that needs neither: the builder is started, and the command imported neither
    code = ("import sys\nfrom shipcheck.cli import cli\n"
            "try:\n    cli.main(args=['check', 'examples/blue-round1.toml', '-q'], standalone_mode=False)\n"
            "except SystemExit:\n    pass\n"
            "print('numba' in sys.modules, 'numpy' in sys.modules)")
    env = {**os.environ, "SHIPCHECK_JIT": ""}  # numba on: prestart has work to do
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["False", "False"]
    # the lock is taken before the builder starts, and names it
    locks = list(folder.glob("*.building"))
    assert locks or prebuild.built() or prebuild.failed()
    if locks:  # stop it: a whole compile into this test's empty cache is not what is tested here
        try:
            os.kill(int(locks[0].read_text()), signal.SIGKILL)
        except (ValueError, ProcessLookupError):
            pass


def test_without_a_stamp_the_engines_numba_cache_is_forgotten(folder: Path) -> None:
    # numba checks a cached function against its own file only: after an edit to one engine module
    # the others would load with the old code compiled in, so an unstamped cache goes whole
    pyc = folder / "pycache"
    pyc.mkdir()
    names = ["run.play-1.py311.nbi", "run.play-1.py311.1.nbc", "cards.cpython-311.pyc"]
    for n in names:
        (pyc / n).write_text("")
    stamp = prebuild.stamp()
    assert stamp is not None
    stamp.write_text("built\n")
    prebuild.forget_stale(pyc)  # stamped: the cache is this install's
    assert sorted(p.name for p in pyc.iterdir()) == sorted(names)
    stamp.unlink()
    prebuild.forget_stale(pyc)
    assert [p.name for p in pyc.iterdir()] == ["cards.cpython-311.pyc"]


def test_a_lock_whose_builder_is_gone_is_taken_over(folder: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock = folder / f"engine-{prebuild.key()}.building"
    lock.write_text(f"{dead.pid}\n")  # a builder killed before it could remove its lock
    assert not prebuild.busy() and not lock.exists()
    lock.write_text(f"{os.getpid()}\n")  # one at work (this process stands in for it)
    assert prebuild.busy() and prebuild.start() is None
