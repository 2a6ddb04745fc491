"""The builder of the compiled round engine: ``python -m shipcheck.engine.build LOCK``.

Started by :func:`shipcheck.prebuild.start` in a process of its own: it compiles the engine into
numba's disk cache (on another core than the command that needs it, and to the end even when that
command has ended) and leaves the stamp that says so; then it compiles the engine's entry point
ahead of time (:mod:`shipcheck.aot`: an extension module a round loads without starting numba), or
leaves a marker saying why it could not, and removes its lock.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from shipcheck import prebuild

#: exit codes: done; numba missing or off; no writable cache (nothing to gain); failed
DONE, NO_NUMBA, NO_CACHE, FAILED = 0, 3, 4, 5


def main(lock: str | None = None, *, polite: bool = False) -> int:
    """Compile the engine into numba's disk cache and leave the stamp; the exit code says how it
    went (:data:`DONE`, :data:`NO_NUMBA`, :data:`NO_CACHE`, :data:`FAILED`)."""
    key = prebuild.key()  # the sources it builds (an upgrade meanwhile makes its work another's)
    try:
        if polite:  # started ahead of need: no one waits for it yet
            try:
                os.nice(10)
            except (AttributeError, OSError):
                pass
        from shipcheck import jit

        if not jit.compiled():
            return NO_NUMBA
        prebuild.forget_stale()
        from . import _call as call
        from . import _dummy, _run_module

        mod = _run_module(False)  # decorating the functions finds (or misses) a cache folder
        if jit.cache_note():
            _give_up("no writable cache folder for numba", key, prebuild.failed_marker())
            return NO_CACHE
        t, decks, rolls, out = _dummy()
        call(mod, t, decks, rolls, out)
        if prebuild.key() != key:  # the sources changed while it compiled: what it built is not theirs
            return FAILED
        prebuild.mark_built()
        _ahead(mod.play, key)
        return DONE
    except Exception as exc:
        _give_up(f"{type(exc).__name__}: {exc}", key, prebuild.failed_marker())
        return FAILED
    finally:
        if lock:
            Path(lock).unlink(missing_ok=True)


def _ahead(play: object, key: str) -> None:
    """Compile the engine ahead of time (:mod:`shipcheck.aot`) unless it is there, off or failed
    here already; a failure (no C compiler, no Python headers) is remembered with why."""
    from shipcheck import aot

    if not prebuild.aot_wanted():
        return
    try:
        aot.build(play)
    except (Exception, SystemExit) as exc:  # distutils ends some failures with SystemExit
        _give_up(f"{type(exc).__name__}: {exc}".strip(), key, prebuild.aot_failed_marker())


def _give_up(why: str, key: str, marker: Path | None) -> None:
    """Write ``why`` into ``marker``: that this install's engine cannot be built by a builder (its
    processes then build it themselves: :func:`shipcheck.prebuild.failed_marker`), or not ahead of
    time (:func:`shipcheck.prebuild.aot_failed_marker`); unless the sources changed meanwhile (an
    upgrade under it: not its failure)."""
    f = marker
    if f is not None and prebuild.key() == key:
        try:
            f.write_text(why + "\n")
        except OSError:
            pass


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(next((a for a in args if not a.startswith("--")), None), polite="--polite" in args))
