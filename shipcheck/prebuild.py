"""Building the compiled round engine ahead of need, in a process of its own.

numba compiles the engine once per install (tens of seconds of CPU) and caches it on disk. A
compile in a thread of the process that flies the first round shares that process's interpreter
lock with the runs flying as plain Python meanwhile, so both crawl; and when that process ends
first, the half-done compile is lost and the next one starts again. Compiled in a process of its
own, it runs on another core, is finished even when the command that started it has ended, and
leaves a *stamp* saying that this install's engine is in numba's cache: later processes then
load it in their own thread, in about a second.

This module says where the compiled engine stands (built, being built, cannot be built here; its
entry point compiled ahead of time or not, :mod:`shipcheck.aot`) and starts the builder
(:mod:`shipcheck.engine.build`); it imports neither numba nor numpy, so every command can call
:func:`prestart` at no cost. Nothing here decides a rule.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
import time
from pathlib import Path
from typing import Any

#: ``SHIPCHECK_ENGINE_BUILDER=0`` builds the compiled engine in a thread of the process that needs it
ENV = "SHIPCHECK_ENGINE_BUILDER"
#: a builder that has held its lock this long without finishing is taken to be dead
STALE_LOCK = 20 * 60.0


#: ``SHIPCHECK_AOT=0`` (or ``off``, ``no``, ``false``): rounds load the engine from numba's disk
#: cache, not the one compiled ahead of time (:mod:`shipcheck.aot`)
AOT_ENV = "SHIPCHECK_AOT"
_OFF = ("0", "off", "no", "false")
# the lines of /proc/cpuinfo that name what a processor can run (x86, Arm, POWER, RISC-V); not its
# clock, numbering or bogomips, which change from core to core and boot to boot
_CPU_KEYS = ("vendor_id", "cpu family", "model", "model name", "stepping", "flags", "features", "cpu implementer",
             "cpu architecture", "cpu variant", "cpu part", "cpu", "isa", "uarch")
_cpu: list[str | None] = []


def aot_cpu() -> str | None:
    """A short name of this machine's processor and the instructions it has (a hash of the first
    processor's entry in Linux's ``/proc/cpuinfo``), which the engine compiled ahead of time is
    compiled for; None where nothing names it."""
    if _cpu:
        return _cpu[0]
    name = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            seen: dict[str, str] = {}
            for line in f:
                if not line.strip():
                    if seen:
                        break
                    continue
                k, _, v = line.partition(":")
                k = k.strip().lower()
                if k in _CPU_KEYS and k not in seen:
                    seen[k] = " ".join(v.split())
        if seen:
            text = "\n".join(f"{k}={seen[k]}" for k in sorted(seen)) + f"\n{sys.platform}"
            name = hashlib.sha256(text.encode()).hexdigest()[:12]
    except OSError:
        name = None
    _cpu.append(name)
    return name


def aot_off() -> str | None:
    """Why rounds in this process do not fly on the engine compiled ahead of time (switched off,
    the engine flown as plain Python, an unnamed processor), or None."""
    if os.environ.get(AOT_ENV, "").strip().lower() in _OFF:
        return f"{AOT_ENV}={os.environ[AOT_ENV].strip()} in the environment"
    jit = os.environ.get("SHIPCHECK_JIT", "").strip().lower()
    if jit in _OFF + ("plain",):
        return f"SHIPCHECK_JIT={jit} in the environment"
    if os.environ.get("NUMBA_DISABLE_JIT", "").strip() not in ("", "0"):
        return "NUMBA_DISABLE_JIT=1 in the environment"
    if aot_cpu() is None:
        return "this machine's processor is not named (Linux's /proc/cpuinfo)"
    return None


def _aot_stem() -> Path | None:
    """``engine-KEY-CPU`` in the builder's folder: the engine compiled ahead of time for this
    install and processor, and its failure marker, are named by it."""
    where, name = folder(), aot_cpu()
    return None if where is None or name is None else where / f"engine-{key()}-{name}"


def aot_path(stem: Path | None = None) -> Path | None:
    """Where this install's engine compiled ahead of time for this processor is (or would be)."""
    stem = stem or _aot_stem()
    return None if stem is None else stem.with_name(f"{stem.name}.aot{importlib.machinery.EXTENSION_SUFFIXES[0]}")


def aot_failed_marker(stem: Path | None = None) -> Path | None:
    """The file in which the builder says why it could not compile the engine ahead of time."""
    stem = stem or _aot_stem()
    return None if stem is None else stem.with_name(f"{stem.name}.aot-failed")


def aot_failed() -> str | None:
    """Why the builder could not compile this install's engine ahead of time here, or None."""
    f = aot_failed_marker()
    try:
        return (f.read_text().strip() or "unknown") if f is not None and f.exists() else None
    except OSError:
        return None


def aot_wanted() -> bool:
    """Whether a builder has the engine to compile ahead of time: on, not there, not failed."""
    stem = None if aot_off() is not None else _aot_stem()
    return stem is not None and not aot_path(stem).exists() and not aot_failed_marker(stem).exists()  # type: ignore[union-attr]


def folder() -> Path | None:
    """Where the stamp and the builder's lock live: beside numba's cache of the engine
    (``NUMBA_CACHE_DIR``, else the engine's ``__pycache__`` where it can be written), else the
    user cache folder; None when there is none."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent / "engine" / "__pycache__"
    try:
        here.mkdir(exist_ok=True)
        if os.access(here, os.W_OK):
            return here
    except OSError:
        pass
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("shipcheck", appauthor=False))
    except Exception:  # no home folder at all: no stamp, the engine is built in the process that needs it
        return None


def key() -> str:
    """This install's engine: its sources (by place, size and time of change), numba's install, Python's
    version and where numba caches (``NUMBA_CACHE_DIR``)."""
    here = Path(__file__).resolve().parent / "engine"
    h = hashlib.sha256(str(here).encode())
    # jit.py compiles the engine; topology.py holds a rule the engine compiles with its own
    # (exposed connectors, shared with the checker): numba checks a cached function against its own
    # source file only, so a change there must make a new engine too
    for f in sorted(here.glob("*.py")) + [here.parent / "jit.py", here.parent / "topology.py"]:
        try:
            st = f.stat()  # place, size and time: a changed source is a new engine for numba too
            h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
        except OSError:
            h.update(f.name.encode())
    try:
        import importlib.util

        spec = importlib.util.find_spec("numba")
        origin = spec.origin if spec is not None else None
        h.update(f"{origin}:{os.stat(origin).st_mtime_ns}".encode() if origin else b"no numba")
    except (ImportError, ValueError, OSError):
        h.update(b"no numba")
    h.update(sys.version.encode() + os.environ.get("NUMBA_CACHE_DIR", "").encode())
    return h.hexdigest()[:20]


def stamp() -> Path | None:
    """The file that says this install's compiled engine is in numba's disk cache."""
    where = folder()
    return None if where is None else where / f"engine-{key()}.built"


def _lock() -> Path | None:
    where = folder()
    return None if where is None else where / f"engine-{key()}.building"


def failed_marker() -> Path | None:
    where = folder()
    return None if where is None else where / f"engine-{key()}.failed"


def failed() -> bool:
    """Whether a builder found it could not build this install's engine into a disk cache (then
    the process that needs the engine builds it for itself, as it always can)."""
    f = failed_marker()
    return f is not None and f.exists()


def built() -> bool:
    """Whether this install's compiled engine was built and cached (a stamp is there)."""
    s = stamp()
    return s is not None and s.exists()


def start(*, polite: bool = False) -> Any:
    """Start the builder in a process of its own (its own session: a Ctrl-C on the command that
    started it does not stop it) unless one is at work already. The builder's process; None when
    another builder holds the lock (wait for :func:`busy` to turn false); False when no builder can
    run here (no cache folder to hold the lock and the stamp: build in this process). ``polite``:
    at a lower priority (no one waits for it yet)."""
    import subprocess

    lock = _lock()
    if lock is None:
        return False
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if busy():
                return None
            lock.unlink(missing_ok=True)  # its builder died: take over
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        os.close(fd)
    except OSError:
        return False
    try:
        proc = subprocess.Popen(builder_command(str(lock)) + (["--polite"] if polite else []), env=builder_env(),
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True, close_fds=True)
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    try:
        lock.write_text(f"{proc.pid}\n")  # who builds: for a person looking, and to stop it
    except OSError:
        pass
    return proc


def builder_command(lock: str) -> list[str]:
    """The builder's command line. ``-P``: the working folder is not put first on ``sys.path``, so a
    ``shipcheck`` folder there (a checkout of the project) is not what the builder imports."""
    return [sys.executable, "-P", "-m", "shipcheck.engine.build", lock]


def builder_env() -> dict[str, str]:
    """The builder's environment: this process's, with the folder that holds this ``shipcheck``
    package first on ``PYTHONPATH``, so that the builder compiles (and stamps) the same install
    as the process that starts it, an editable one or one found through ``PYTHONPATH`` too."""
    here = str(Path(__file__).resolve().parent.parent)
    old = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": here + (os.pathsep + old if old else "")}


def mark_built() -> None:
    """Leave the stamp: this install's engine is in numba's disk cache."""
    s = stamp()
    if s is None:
        return
    try:
        s.parent.mkdir(parents=True, exist_ok=True)
        tmp = s.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(f"built {time.strftime('%Y-%m-%d %H:%M:%S')} by {sys.executable}\n")
        os.replace(tmp, s)
        for old in s.parent.glob("engine-*.built"):  # earlier sources' stamps: their cache is gone
            if old != s:
                old.unlink(missing_ok=True)
    except OSError:
        pass


def forget_stale(folder: Path | None = None) -> None:
    """Remove numba's cache of the engine from its ``__pycache__`` when this install's engine has
    no stamp: numba checks each cached function against its own source file only, so after an
    edit to one engine module the functions of the others would load with the old code compiled
    into them. Without a stamp the whole engine is compiled again (a fresh install has nothing to
    remove). A cache in ``NUMBA_CACHE_DIR`` is left as it is. ``folder``: another folder (tests)."""
    if folder is None:
        if os.environ.get("NUMBA_CACHE_DIR"):
            return
        folder = Path(__file__).resolve().parent / "engine" / "__pycache__"
    if built():
        return
    here = folder
    for f in list(here.glob("*.nbi")) + list(here.glob("*.nbc")):
        try:
            f.unlink()
        except OSError:  # read-only: numba will not write there either, nothing stale is kept
            pass


def prestart() -> None:
    """Start the builder when this install's engine was never built, or not yet compiled ahead of
    time (:mod:`shipcheck.aot`), and numba is there, without importing numba: what every command
    does first, so that the compile happens while the user reads a ship's check or odds, not while
    the first whole round waits for it."""
    import importlib.util

    if os.environ.get(ENV, "").strip().lower() in _OFF:
        return
    if os.environ.get("SHIPCHECK_JIT", "").strip().lower() in _OFF + ("plain",):
        return
    try:
        if importlib.util.find_spec("numba") is None or failed() or busy():
            return
        if built() and not aot_wanted():
            return
    except (ImportError, ValueError, OSError):
        return
    start(polite=True)


def busy() -> bool:
    """Whether a builder holds the lock: its process (named in the lock) is alive, and the lock has
    not gone stale. A lock whose builder is gone (killed) is removed."""
    lock = _lock()
    if lock is None:
        return False
    try:
        age = time.time() - lock.stat().st_mtime
        text = lock.read_text().strip()
    except OSError:
        return False
    if age >= STALE_LOCK:
        return False
    if text.isdigit() and not _alive(int(text)):
        lock.unlink(missing_ok=True)
        return False
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except OSError:  # it exists, owned by someone else
        return True
    return True
