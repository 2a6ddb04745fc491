"""The round engine compiled ahead of time: an extension module that loads without numba.

numba's disk cache serves the compiled engine only once numba itself has started in the process:
its import and the set-up of its compiler (registries, runtime, the cached code's symbols) cost
about half a second of CPU in every process that flies a round, more than the engine's own work
in a short one. The builder process (:mod:`shipcheck.engine.build`), having filled the disk
cache, also compiles the engine's entry point :func:`shipcheck.engine.run.play` (and every engine
function it calls: the same sources, the one home of the rules) ahead of time with numba's
``numba.pycc`` into a Python extension module for this machine's processor. A process that flies
a round then loads that module in about a millisecond, and numba is started only where something
else needs it (the exact odds, a policy of one's own, a compile). The numbers are the same on
either: the same functions, compiled by the same compiler (tested output for output).

``numba.pycc`` is public API, "pending deprecation" since numba 0.57 with its replacement not yet
released; it needs a C compiler and Python's headers (those extensions are built with) and
setuptools. Where it cannot build (no compiler), the builder leaves a marker saying why
(:func:`shipcheck.prebuild.aot_failed`), and rounds load the engine from numba's disk cache as
before. The module is compiled for this processor (``host``: the instructions the disk cache's
code uses too), so it is named by it: Linux names the processor in ``/proc/cpuinfo``; where
nothing names it, the disk cache serves. ``SHIPCHECK_AOT=0`` switches it off.

Imports neither numba nor numpy (numba only in :func:`build`, in the builder), nor the engine.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import tempfile
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

from shipcheck import prebuild

__all__ = ["MODULE", "build", "load"]

#: the extension module's name (its ``PyInit_`` symbol); its file is named by
#: :func:`shipcheck.prebuild.aot_path`
MODULE = "shipcheck_engine_aot"
_lock = threading.Lock()
_state: dict[str, Any] = {"tried": False, "module": None}


def load() -> ModuleType | None:
    """The engine compiled ahead of time, loaded once per process (no numba imported); None when
    it is off, not built (yet) or does not load. Its ``play`` is :func:`shipcheck.engine.run.play`."""
    if _state["tried"]:
        return _state["module"]  # type: ignore[no-any-return]
    with _lock:
        if not _state["tried"]:
            _state["module"] = _load()
            _state["tried"] = True
    return _state["module"]  # type: ignore[no-any-return]


def _load() -> ModuleType | None:
    if prebuild.aot_off() is not None:
        return None
    p = prebuild.aot_path()
    if p is None or not p.exists():
        return None
    try:
        loader = importlib.machinery.ExtensionFileLoader(MODULE, str(p))
        spec = importlib.util.spec_from_file_location(MODULE, p, loader=loader)
        if spec is None:
            return None
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
    except (ImportError, OSError):  # damaged or from another Python: the disk cache serves
        return None
    return mod if callable(getattr(mod, "play", None)) else None


def build(play: Any) -> Path:
    """Compile ``play``, numba's dispatcher of :func:`shipcheck.engine.run.play` once it has been
    called (its one signature: the one the disk cache holds), ahead of time for this processor
    into :func:`shipcheck.prebuild.aot_path` (written whole, then put in place); the engine's older
    builds beside it are removed. Raises what the compile raised."""
    import warnings

    target = prebuild.aot_path()
    if target is None:
        raise RuntimeError("no folder to keep it in, or this machine's processor is not named")
    with warnings.catch_warnings():  # "pending deprecation": said in this module's docstring
        warnings.simplefilter("ignore")
        from numba import types
        from numba.pycc import CC

    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".aot-", dir=target.parent))
    # numba.pycc builds in a folder of its own under tempfile's, which it leaves behind when the
    # compile fails: under ours, it goes with ours (the builder's process does nothing else meanwhile)
    was, tempfile.tempdir = tempfile.tempdir, str(work)
    try:
        cc = CC(MODULE)
        cc.output_dir = str(work)
        cc.target_cpu = "host"  # the instructions this processor has, as numba's own compiles use
        cc.verbose = False
        cc.export("play", types.void(*play.signatures[0]))(play.py_func)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc.compile()
        made = [f for f in work.iterdir() if f.name.startswith(MODULE) and f.is_file()]  # its .so/.pyd
        if len(made) != 1:
            raise RuntimeError(f"numba.pycc left {len(made)} modules")
        os.replace(made[0], target)
    finally:
        tempfile.tempdir = was
        shutil.rmtree(work, ignore_errors=True)
    for old in target.parent.glob("engine-*.aot*"):  # earlier sources' or processors' builds
        if old != target and old.is_file():
            old.unlink(missing_ok=True)
    return target
