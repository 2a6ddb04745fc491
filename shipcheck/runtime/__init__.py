"""The runtime: the rules of flight run compiled by numba, or as plain Python, with the same numbers.

Engine functions are marked with :func:`jit`; where numba is importable (and ``SHIPCHECK_JIT`` is not
``0``) they compile on first use (:func:`load`, with a progress bar) and stay in numba's cache in the
user's cache folder (:func:`cache_dir`); :func:`plain_package` is the engine as plain Python, for small
questions. Workers: :mod:`.workers`. The story: docs/architecture.md, "Compiled or plain Python"."""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext, suppress
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from shipcheck.errors import InputError

__all__ = ["CACHE_ENV", "ENV", "PLAIN_SUFFIX", "QUICK", "cache_dir", "cached", "call_back", "compiled", "jit",
           "load", "loaded", "new_key", "notes", "numba_for", "objmode_for", "plain_package", "reason", "sources",
           "started", "state"]

F = TypeVar("F", bound=Callable[..., Any])
ENV = "SHIPCHECK_JIT"  #: ``0`` (or off, no, false, plain): the engine runs as plain Python
CACHE_ENV = "NUMBA_CACHE_DIR"  #: numba's own: where compiled code is cached (default: the user's cache folder)
PLAIN_SUFFIX = "_plain"  #: the plain copy of a package ``P`` is loaded as ``P + PLAIN_SUFFIX``
KEEP_DAYS = 14  #: days an unused cache key's folder is kept (another install may use it)
SOURCES = ("engine", "runtime/__init__.py", "topology.py")  #: what compiled code is made of: its cache key
QUICK = {"NUMBA_OPT": 1, "NUMBA_LOOP_VECTORIZE": 0}  #: numba's settings while ours compiles, unless set


class _State:
    """Everything the runtime knows in this process (one object)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()  # looking for numba, loading the plain copy
        self.compiling = threading.Lock()  # one compile at a time
        self.looked = False
        self.numba: Any = None
        self.reason: str | None = None
        self.cache: Path | None = None  # numba's cache folder for this engine
        self.cache_note: str | None = None
        self.loaded: dict[str, float] = {}  # entry -> seconds its first call took in this process
        self.plain_work = 0  # states the exact odds expanded as plain Python (shipcheck.flight.odds)
        self.errors: dict[str, BaseException] = {}
        #: ``progress(what, estimate_seconds)`` -> a context manager shown while code compiles (the CLI's)
        self.progress: Callable[[str, float], AbstractContextManager[Any]] | None = None
        #: ``"plain"`` or ``"compiled"`` forces every engine's choice in this process (tests, benchmarks)
        self.force: str | None = None
        self.callbacks: dict[int, Callable[..., int]] = {}
        self.keys = itertools.count(1)


state = _State()


def sources() -> list[Path]:
    """The engine's source files: the compiled cache's key and the odds cache's hash them."""
    root = Path(__file__).resolve().parent.parent
    files: list[Path] = []
    for name in SOURCES:
        p = root / name
        files += sorted(p.glob("*.py")) if p.is_dir() else [p]
    return files


def cache_dir() -> Path:
    """numba's cache folder for this engine: ``<user cache>/shipcheck/numba-KEY`` (or under
    ``$NUMBA_CACHE_DIR``), KEY a hash of the engine's sources, their times (numba recompiles a
    rewritten file) and folder, the versions, the machine and :data:`QUICK`'s variables. Other keys'
    folders unused for :data:`KEEP_DAYS` are removed when a new one is made."""
    import hashlib  # (here: not paid by the commands that never compile)
    import platform
    from importlib.metadata import version

    from platformdirs import user_cache_dir

    from shipcheck._version import __version__

    folder = Path(__file__).resolve().parent
    env = [os.environ.get(k) for k in QUICK]  # numba's settings a user chose compile other code
    h = hashlib.sha256(f"{__version__} {version('numba')} {sys.version} {platform.machine()} {folder} {env}".encode())
    for f in sources():
        h.update(f"{f.name}\0{f.stat().st_mtime_ns}\0".encode() + f.read_bytes())
    base = Path(os.environ.get(CACHE_ENV) or user_cache_dir("shipcheck", appauthor=False))
    here = base / f"numba-{h.hexdigest()[:16]}"
    if here.is_dir():
        os.utime(here)  # in use: kept
        return here
    here.mkdir(parents=True, exist_ok=True)
    for old in base.glob("numba-*"):  # another install's key may still be in use: only the long unused go
        if old != here and old.is_dir() and time.time() - old.stat().st_mtime > KEEP_DAYS * 86400:
            shutil.rmtree(old, ignore_errors=True)
    return here


def _look() -> None:
    with state.lock:
        if not state.looked:
            state.reason = _why_plain()
            state.looked = True


def _why_plain() -> str | None:
    """Why the engine must run plain (None: numba is there, now in :data:`state`)."""
    if os.environ.get(ENV, "").strip().lower() in ("0", "off", "no", "false", "plain"):
        return f"{ENV}={os.environ[ENV].strip()} in the environment"
    try:
        import numba
    except Exception as exc:  # not installed, or an install that does not import
        return f"numba is not importable ({type(exc).__name__}: {exc})"
    if getattr(numba.config, "DISABLE_JIT", False):  # numba's documented setting
        return "NUMBA_DISABLE_JIT=1 in the environment"
    state.numba = numba
    try:
        state.cache = cache_dir()
        (state.cache / f".probe-{os.getpid()}").touch()
        (state.cache / f".probe-{os.getpid()}").unlink()
    except OSError as exc:
        state.cache = None
        state.cache_note = (f"no writable cache folder ({exc.strerror or exc}; {CACHE_ENV} can name one): the "
                            "engine is compiled in memory for each process")
    return None


def compiled() -> bool:
    """Whether :func:`jit` compiles: numba importable and not switched off (imports numba)."""
    _look()
    return state.numba is not None


def reason() -> str | None:
    """Why the engine runs as plain Python, or None when it is compiled."""
    _look()
    return state.reason


def _plain(module: str) -> bool:
    return module.endswith(PLAIN_SUFFIX) or PLAIN_SUFFIX + "." in module or not compiled()


def jit(fn: F | None = None, *, nogil: bool = True, plain: Callable[..., Any] | None = None,
        inline: bool = False, module: str | None = None) -> Any:
    """``fn`` compiled by numba (``nopython``, cached in :func:`cache_dir`), or ``fn`` itself in a plain
    copy and where numba is not there or switched off. ``nogil``: release the GIL (not for a function
    that calls back into Python). ``plain``: what runs instead uncompiled (a bit trick whose Python form
    is shorter; never a rule). ``inline``: numba's ``forceinline``. ``module``: the module ``fn`` is
    compiled for, when a lower layer shares it (:func:`shipcheck.topology.exposed_connectors`)."""
    if fn is None:
        return lambda f: jit(f, nogil=nogil, plain=plain, inline=inline, module=module)
    if _plain(fn.__module__ if module is None else module):
        return fn if plain is None else plain
    numba = state.numba
    if state.cache is None:
        return numba.njit(cache=False, nogil=nogil, forceinline=inline)(fn)
    # numba reads its documented setting (NUMBA_CACHE_DIR) when a cached function is made: ours, for
    # ours only; a caller's own functions keep theirs
    old, numba.config.CACHE_DIR = numba.config.CACHE_DIR, str(state.cache)
    try:
        return numba.njit(cache=True, nogil=nogil, forceinline=inline)(fn)
    finally:
        numba.config.CACHE_DIR = old


def objmode_for(module: str) -> Any:
    """numba's ``objmode`` where ``module`` is compiled, a context doing nothing where it is plain."""
    return (lambda **types: nullcontext()) if _plain(module) else state.numba.objmode


def numba_for(module: str) -> Any:
    """The numba module where ``module`` is compiled, None where it is plain (for the engine's own
    intrinsics: :mod:`shipcheck.engine.bits`, :mod:`shipcheck.engine.views`)."""
    return None if _plain(module) else state.numba


def call_back(key: int, *args: Any) -> int:
    """``state.callbacks[key](*args)``: what compiled code calls in ``objmode`` to ask a player's own
    policy (one registry for the compiled engine and its plain copy)."""
    return int(state.callbacks[int(key)](*args))


def new_key() -> int:
    """A key for ``state.callbacks`` no one else uses in this process."""
    return next(state.keys)


def plain_package(name: str) -> ModuleType:
    """The package ``name`` loaded once more as ``name + "_plain"``, as plain Python: its :func:`jit`
    functions stay uncompiled and its relative imports load the plain copies of its siblings."""
    plain = name + PLAIN_SUFFIX
    with state.lock:
        hit = sys.modules.get(plain)
        if hit is not None:
            return hit
        path = list(importlib.import_module(name).__path__)
        spec = importlib.util.spec_from_file_location(plain, os.path.join(path[0], "__init__.py"),
                                                      submodule_search_locations=path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[plain] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            del sys.modules[plain]
            raise
        return mod


def started() -> bool:
    """Whether compiled code was loaded in this process: Python callers asking a rule then use it."""
    return bool(state.loaded)


def loaded(entry: str) -> bool:
    """Whether ``entry`` was compiled or loaded in this process (asking imports nothing)."""
    return entry in state.loaded


def cached(entry: str) -> bool:
    """Whether ``entry`` was compiled into the cache already (a first use then loads it quickly)."""
    _look()
    return state.cache is not None and (state.cache / f"{entry}.done").exists()


def load(entry: str, call: Callable[[], Any], *, what: str, estimate: float) -> bool:
    """Run ``call`` (the smallest call of a compiled entry point) once per process: numba compiles it
    and its callees, or loads them from the cache. While it compiles, ``state.progress(what, estimate)``
    shows it (the command line's bar). False, and :func:`notes` says why, where it cannot compile."""
    if not compiled():
        return False
    with state.compiling:
        if entry in state.loaded or entry in state.errors:
            return entry in state.loaded
        mark = state.cache / f"{entry}.done" if state.cache is not None else None
        fresh = mark is None or not mark.exists()
        shown = state.progress(what, estimate) if fresh and state.progress is not None else nullcontext()
        t0 = time.monotonic()
        saved = (cfg := state.numba.config).OPT, cfg.LOOP_VECTORIZE
        try:
            if fresh and not QUICK.keys() & os.environ.keys():  # while ours compiles: docs/architecture.md
                cfg.OPT, cfg.LOOP_VECTORIZE = type(cfg.OPT)(QUICK["NUMBA_OPT"]), QUICK["NUMBA_LOOP_VECTORIZE"]
            with shown:
                call()
        except Exception as exc:  # kept: the caller flies plain and notes() says why
            if isinstance(exc, InputError):  # the question's fault, not the compiler's
                raise
            state.errors[entry] = exc
            return False
        finally:
            cfg.OPT, cfg.LOOP_VECTORIZE = saved
        state.loaded[entry] = time.monotonic() - t0
        if fresh and mark is not None:
            with suppress(OSError):
                mark.write_text(f"{state.loaded[entry]:.1f}\n")
        return True


def notes() -> list[str]:
    """What a user should know of how the engine ran here: plain and why, a failed compile, no cache."""
    out = []
    if state.looked and state.reason:
        out.append(f"the rules flew as plain Python, much slower than compiled: {state.reason}")
    for entry, err in state.errors.items():
        out.append(f"the compiled {entry} engine could not be built ({type(err).__name__}: {err}): "
                   "it flew as plain Python, much slower")
    if state.cache_note and state.loaded:
        out.append(state.cache_note)
    return out

