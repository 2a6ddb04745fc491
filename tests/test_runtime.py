"""The runtime (``shipcheck.runtime``): commands that need no engine import no numba and start no
process; nothing is written inside the package; the compiled cache lives in the user's cache
folder, under a key that changes with the engine's sources; ``shipcheck compile`` compiles ahead."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import shipcheck
from shipcheck import runtime

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(shipcheck.__file__).resolve().parent
BLUE = ROOT / "examples" / "blue-round1.toml"
HAULER = ROOT / "examples" / "class-III-hauler.toml"

# a command run inside a process that reports, as it ends, whether numba was imported and which
# processes it started (every process on the machine carrying this run's mark in its environment)
WATCH = """
import atexit, os, sys
def _report():
    mark = os.environ["SHIPCHECK_TEST_MARK"]
    others = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"SHIPCHECK_TEST_MARK={mark}".encode() in f.read().split(b"\\0"):
                    others.append(pid)
        except OSError:
            pass
    sys.stderr.write(f"\\nWATCH numba={'numba' in sys.modules} others={len(others)}\\n")
atexit.register(_report)
sys.argv = ["shipcheck"] + sys.argv[1:]
from shipcheck.cli import main
main()
"""


def watched(*args: str) -> tuple[int, bool, int]:
    """Run ``shipcheck ARGS``: its exit code, whether it imported numba, how many processes it left
    running as it ended."""
    env = {**os.environ, "SHIPCHECK_TEST_MARK": uuid.uuid4().hex, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", WATCH, *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)
    line = [x for x in proc.stderr.splitlines() if x.startswith("WATCH ")][-1]
    fields = dict(part.split("=") for part in line.split()[1:])
    return proc.returncode, fields["numba"] == "True", int(fields["others"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("args", [
    ["check", str(BLUE)], ["fix", str(BLUE)], ["show", str(BLUE)], ["tiles"], ["boards"], ["cards"], ["rules", "C1"],
    ["new", "--class", "II"], ["schema", "ship"], ["stats", str(HAULER)],
    ["place", str(HAULER), "cannon:0111", "--no-exact", "--no-credits"],
], ids=lambda a: a[0] + ("-" + a[-1] if a[-1].startswith("--") else ""))
def test_commands_without_the_engine_import_no_numba_and_leave_no_process(args: list[str]) -> None:
    code, numba, others = watched(*args)
    assert code in (0, 1)
    assert not numba, f"`shipcheck {' '.join(args)}` imported numba"
    assert others == 0, f"`shipcheck {' '.join(args)}` left {others} processes running"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_round_leaves_nothing_running_and_writes_nothing_in_the_package() -> None:
    def package_files() -> set[Path]:
        return {p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts}

    before = package_files()
    code, numba, others = watched("simulate", str(HAULER), "--round", "3", "--runs", "300", "--seed", "1",
                                  "--workers", "2")
    assert code == 0 and others == 0
    assert numba == runtime.compiled()
    assert package_files() == before
    # numba's cache files never go beside the sources, whatever the install
    assert not [p for p in PACKAGE.rglob("*") if p.suffix in (".nbi", ".nbc")]


def _installed_package() -> Path | None:
    """The shipcheck package the environment's console script imports (site-packages, not this checkout)."""
    out = subprocess.run([sys.executable, "-I", "-c", "import shipcheck, os; print(os.path.dirname(shipcheck.__file__))"],
                         capture_output=True, text=True, cwd="/")
    return Path(out.stdout.strip()) if out.returncode == 0 else None


def test_the_installed_package_is_left_as_it_was() -> None:
    """As installed (``pip install .``): exact odds compiled, a round and a check by the console
    script write nothing under site-packages. (The round flies plain: the installed copy compiles
    into a cache of its own, and a compiled round writing nothing in the package is the test
    above's; here it would add a minute's compile to a fresh machine's run.)"""
    where = _installed_package()
    script = Path(sys.executable).with_name("shipcheck")
    if where is None or not script.exists():
        pytest.skip("shipcheck is not installed in this environment")

    def listing() -> dict[Path, float]:  # (Python's own bytecode aside: an editable install writes it)
        return {p: p.stat().st_mtime for p in where.rglob("*") if p.is_file() and p.suffix != ".pyc"}

    before = listing()
    for args, env in (
            (["odds", str(HAULER), "--card", "III-16", "--assume-weakest", "--no-cache"], {}),
            (["simulate", str(HAULER), "--round", "3", "--runs", "200", "--seed", "1"], {runtime.ENV: "0"}),
            (["check", str(BLUE)], {})):
        proc = subprocess.run([str(script), *args], capture_output=True, text=True, cwd="/", timeout=900,
                              env={**os.environ, **env})
        assert proc.returncode in (0, 1), proc.stderr
    assert listing() == before


def test_the_plain_copy_of_the_engine_imports_no_numba() -> None:
    """Every module of the plain copy imports the plain copies of its siblings (relative imports),
    never the compiled engine: a small question runs without numba."""
    code = ("import sys, pkgutil, importlib; from shipcheck import runtime, engine; "
            "p = runtime.plain_package('shipcheck.engine'); "
            "[importlib.import_module(p.__name__ + '.' + m.name) for m in pkgutil.iter_modules(engine.__path__)]; "
            "print('numba' in sys.modules, sorted(m for m in sys.modules if m.startswith('shipcheck.engine.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "False []", out.stdout


def test_the_odds_cache_hashes_files_that_exist() -> None:
    """The on-disk odds cache's key reads every source that computes odds: a renamed module would
    otherwise drop out of the key silently."""
    from shipcheck.flight import oddscache

    package = Path(oddscache.__file__).resolve().parent.parent
    assert all((package / name).is_file() for name in oddscache._ODDS)
    assert all(p.is_file() for p in runtime.sources())


def test_the_compiled_cache_is_in_the_user_cache_folder() -> None:
    if not runtime.compiled():
        pytest.skip(f"numba is not available: {runtime.reason()}")
    here = runtime.cache_dir()
    assert PACKAGE not in here.parents and here.name.startswith("numba-")


def test_an_edited_engine_gets_a_new_cache_key(tmp_path: Path) -> None:
    """The key hashes the engine's sources: an edit (here a comment) means a new folder, never stale
    code, and so does a file written again unchanged (a reinstall: numba then compiles anew, and the
    marks saying an entry is compiled must not claim otherwise); a key's folder unused for two weeks
    is removed when a new one is made."""
    tree = tmp_path / "tree"
    shutil.copytree(PACKAGE, tree / "shipcheck", ignore=shutil.ignore_patterns("__pycache__"))
    code = "from shipcheck import runtime; print(runtime.cache_dir())"
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def key() -> Path:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                             cwd=tmp_path)
        return Path(out.stdout.strip())

    first = key()
    assert key() == first and first.is_dir()
    stale = first.parent / "numba-0123456789abcdef"
    stale.mkdir()
    old = first.stat().st_mtime - (runtime.KEEP_DAYS + 1) * 86400
    os.utime(stale, (old, old))
    bits = tree / "shipcheck" / "engine" / "bits.py"
    bits.write_text(bits.read_text() + "\n# an edit\n")
    second = key()
    assert second != first and second.parent == first.parent
    assert first.exists() and not stale.exists()
    bits.write_text(bits.read_text())  # the same text again, a moment later
    os.utime(bits, ns=(bits.stat().st_atime_ns, bits.stat().st_mtime_ns + 1_000_000))
    assert key() not in (first, second)
    # the same sources in another folder: another key (numba caches per folder, and so the marks
    # saying an entry point is compiled there)
    shutil.copytree(tree / "shipcheck", tmp_path / "elsewhere" / "shipcheck")
    env["PYTHONPATH"] = str(tmp_path / "elsewhere")
    assert key() not in (first, second)


def test_the_engine_compiles_with_quick_settings_and_puts_them_back(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """While an entry point compiles (no mark yet) numba optimises at level 1 without loop
    vectorising (runtime.QUICK); its settings are back as they were afterwards, for other code."""
    if not runtime.compiled():
        pytest.skip(f"numba is not available: {runtime.reason()}")
    import numba

    for k in runtime.QUICK:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setattr(runtime.state, "cache", tmp_path)
    monkeypatch.setattr(runtime.state, "loaded", dict(runtime.state.loaded))  # put back as it was
    before = numba.config.OPT, numba.config.LOOP_VECTORIZE
    seen: list[tuple[int, int]] = []
    record = lambda: seen.append((int(numba.config.OPT), int(numba.config.LOOP_VECTORIZE)))  # noqa: E731
    assert runtime.load("quick-test", record, what="a test", estimate=1.0)
    assert seen == [(1, 0)] and (tmp_path / "quick-test.done").exists()
    assert (numba.config.OPT, numba.config.LOOP_VECTORIZE) == before and numba.config.OPT.is_opt_max is False
    # a user's own setting wins (and is another cache key: runtime.cache_dir)
    monkeypatch.setenv("NUMBA_OPT", "3")
    assert runtime.load("quick-test-2", record, what="a test", estimate=1.0)
    assert seen[1] == (int(before[0]), int(before[1]))


def test_numbas_settings_a_user_chose_are_another_cache_key(tmp_path: Path) -> None:
    code = "from shipcheck import runtime; print(runtime.cache_dir())"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    for k in runtime.QUICK:
        env.pop(k, None)
    keys = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                           env={**env, **extra}).stdout.strip() for extra in ({}, {"NUMBA_OPT": "3"})}
    assert len(keys) == 2


def test_the_compile_command_compiles_every_entry_point() -> None:
    proc = subprocess.run([sys.executable, "-m", "shipcheck", "compile"], capture_output=True, text=True, cwd=ROOT,
                          timeout=1800)
    assert proc.returncode == 0, proc.stderr
    if runtime.compiled():
        assert proc.stdout.startswith("compiled: round, exact, joint")
        assert all(runtime.cached(e) for e in ("round", "joint", "exact"))
    else:
        assert "plain Python" in proc.stdout


#: real questions (every kind of command that flies, in one process), then the argument types each
#: compiled engine function was called with from Python
TYPES_CALLED = """
import contextlib, importlib, io, json, pkgutil, sys
import shipcheck.engine as E
from shipcheck.cli import main

for args in sys.argv[1:]:
    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
        main(json.loads(args))
out = {}
for info in pkgutil.iter_modules(E.__path__):
    mod = importlib.import_module("shipcheck.engine." + info.name)
    out.update({f"{mod.__name__}.{k}": [str(t) for t in v.signatures] for k, v in vars(mod).items()
                if hasattr(v, "signatures") and getattr(v, "__module__", None) == mod.__name__})
print(json.dumps(out))
"""


def test_each_engine_entry_is_compiled_for_one_set_of_types() -> None:
    """An entry's warm-up (the small call compiled with the bar) passes the types the questions
    pass: numba compiles a read-only array's call apart from a writable one's, and the joint
    engine's first card once compiled a second time, 19 s more without the bar, also in `shipcheck
    compile` after it said the joint engine was done."""
    if not runtime.compiled():
        pytest.skip("numba is not importable or switched off here")
    half = str(ROOT / "examples" / "building" / "class-III-half.toml")
    questions = [["odds", str(HAULER), "--card", "III-16", "--assume-weakest", "--no-cache"],
                 ["odds", str(BLUE), "--card", "I-01", "--no-cache"],  # a second pass: compiled
                 ["odds", str(HAULER), "--card", "III-10", "--policy", "optimal", "--no-cache"],
                 ["simulate", str(HAULER), "--round", "3", "--runs", "300", "--seed", "1"],
                 ["place", half, "2007:115", "--top", "1"]]
    proc = subprocess.run([sys.executable, "-c", TYPES_CALLED, *map(json.dumps, questions)], capture_output=True,
                          text=True, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr
    called = json.loads(proc.stdout.splitlines()[-1])
    assert called["shipcheck.engine.joint.card"], "no question reached the joint engine's card"
    assert {k: v for k, v in called.items() if len(v) > 1} == {}


def test_the_compile_command_says_when_the_engine_runs_plain() -> None:
    proc = subprocess.run([sys.executable, "-m", "shipcheck", "compile"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, env={**os.environ, "SHIPCHECK_JIT": "0"})
    assert proc.returncode == 0
    assert "plain Python" in proc.stdout and "SHIPCHECK_JIT=0" in proc.stdout


def test_two_threads_asking_an_entry_being_loaded_each_get_their_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    # the workbench asks from its thread pool: the second request waited for the first one's compile,
    # then found its own call never made (an IndexError answered 500)
    import threading
    import time

    from shipcheck import engine

    if not runtime.compiled():
        pytest.skip("numba is not importable here: nothing is loaded")
    entry = f"race-{uuid.uuid4().hex[:8]}"
    monkeypatch.setitem(engine.ENTRIES, entry, ("a test entry", 0.1))
    started, release = threading.Event(), threading.Event()
    out: dict[str, object] = {}

    def first() -> str:
        started.set()
        release.wait(30)
        return "first"

    a = threading.Thread(target=lambda: out.__setitem__("a", engine.compiled_call(entry, first)))
    b = threading.Thread(target=lambda: out.__setitem__("b", engine.compiled_call(entry, lambda: "second")))
    try:
        a.start()
        assert started.wait(30)
        b.start()
        time.sleep(0.2)  # (ordering only: b is then waiting for a's load)
        release.set()
        a.join(30)
        b.join(30)
        assert out == {"a": (True, "first"), "b": (True, "second")}
    finally:
        release.set()
        runtime.state.loaded.pop(entry, None)
        if runtime.state.cache is not None:
            (runtime.state.cache / f"{entry}.done").unlink(missing_ok=True)
