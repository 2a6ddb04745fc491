"""Compile the rules of flight with numba where it can, run them as plain Python where it cannot.

The rules live once, as functions in the subset of Python numba compiles (:mod:`shipcheck.engine`),
each marked with :func:`jit`. Importing that package compiles nothing: numba compiles a function on
its first call and keeps it in its disk cache, so later processes load it in a fraction of a second.
The same functions also run as plain Python, slower and with the same results:

- where numba cannot be imported (not installed, a broken install) or is switched off
  (``SHIPCHECK_JIT=0``, or numba's own ``NUMBA_DISABLE_JIT=1``): :func:`reason` says why;
- while the compiled engine is being built on its first use: :func:`plain_package` loads the engine
  a second time as plain Python, which flies the first runs while numba compiles
  (:func:`shipcheck.engine.engine` chooses).

Where no cache folder can be written (a read-only install without a writable ``NUMBA_CACHE_DIR``
or user cache), functions are compiled in memory for this process, and :func:`cache_note` says so.
Only numba's public API is used (``numba.njit``, ``numba.objmode``, ``numba.config``, ``numba.carray``,
``numba.extending.intrinsic``), and llvmlite's IR builder (``llvmlite.ir``) in the intrinsics' code.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any, TypeVar

# and ``objmode`` (looked up on first use, see __getattr__)
__all__ = ["BLAS_ENV", "ENV", "PLAIN_SUFFIX", "bit_tools", "cache_note", "call_back", "callbacks", "compiled", "jit", "looked",
           "new_key", "no_blas_probe", "plain_package", "reason", "unowned_tools"]

F = TypeVar("F", bound=Callable[..., Any])

#: ``SHIPCHECK_JIT=0`` (or ``off``, ``no``, ``false``) runs the engine as plain Python
ENV = "SHIPCHECK_JIT"
#: ``SHIPCHECK_NUMBA_BLAS=0`` (the command line sets it): numba loads the engine without importing
#: ``scipy.linalg`` to look for BLAS (:func:`no_blas_probe`)
BLAS_ENV = "SHIPCHECK_NUMBA_BLAS"
#: the plain copy of a package ``P`` is loaded as ``P + PLAIN_SUFFIX``
PLAIN_SUFFIX = "_plain"

_lock = threading.Lock()
_state: dict[str, Any] = {"loaded": False, "numba": None, "reason": None, "cache": None}


def _load() -> None:
    if _state["loaded"]:
        return
    with _lock:
        if _state["loaded"]:
            return
        if os.environ.get(ENV, "").strip().lower() in ("0", "off", "no", "false", "plain"):
            _state["reason"] = f"{ENV}={os.environ[ENV].strip()} in the environment"
        else:
            try:
                import numba
            except Exception as exc:  # not installed, or an install that does not import
                _state["reason"] = f"numba is not importable ({type(exc).__name__}: {exc})"
            else:
                if getattr(numba.config, "DISABLE_JIT", False):  # numba.config: documented settings
                    _state["reason"] = "NUMBA_DISABLE_JIT=1 in the environment"
                else:
                    _state["numba"] = numba
                    # a function calling back into Python (objmode) cannot release the GIL, and its
                    # callers that do would say so at every compile
                    import warnings

                    warnings.filterwarnings("ignore", message=".*object mode won't allow parallel execution")
        _state["loaded"] = True


def compiled() -> bool:
    """Whether :func:`jit` compiles (numba importable and not switched off)."""
    _load()
    return _state["numba"] is not None


def looked() -> bool:
    """Whether this process has looked for numba yet (asking does not look)."""
    return bool(_state["loaded"])


def compiled_loaded() -> bool:
    """Whether numba is already started in this process and compiles (without starting it)."""
    return bool(_state["loaded"]) and _state["numba"] is not None


def reason() -> str | None:
    """Why the engine runs as plain Python, or None when it is compiled."""
    _load()
    return _state["reason"]  # type: ignore[no-any-return]


def cache_note() -> str | None:
    """A line saying that compiled functions could not be cached on disk (else None)."""
    return _state["cache"]  # type: ignore[no-any-return]


def _plain(module: str) -> bool:
    """Whether the module named ``module`` runs as plain Python: a plain copy (:func:`plain_package`),
    or numba not there or switched off."""
    return module.endswith(PLAIN_SUFFIX) or PLAIN_SUFFIX + "." in module or not compiled()


def jit(fn: F | None = None, *, nogil: bool = True, plain: Callable[..., Any] | None = None,
        inline: bool = False, module: str | None = None) -> Any:
    """``fn`` compiled by numba (``nopython``, cached on disk), or ``fn`` itself: when numba is not
    there or switched off, and in the plain copy of a package (:func:`plain_package`). ``nogil``:
    release the GIL while it runs (not for a function that calls back into Python). ``plain``: what
    runs instead of ``fn`` uncompiled, for a bit trick whose Python form is shorter and quieter
    (the same result: :mod:`shipcheck.engine.bits`); never for a rule. ``inline``: always inlined into
    its compiled callers (numba's ``forceinline``), for a small function called in the hot loops,
    where a call costs more than its body (numba passes each array as a handful of words).
    ``module``: the module ``fn`` is compiled for, when it is written in a lower layer that also
    runs it as plain Python (a rule the checker shares with the engine,
    :func:`shipcheck.topology.exposed_connectors`): the plain copy of that module leaves it plain."""
    if fn is None:
        return lambda f: jit(f, nogil=nogil, plain=plain, inline=inline, module=module)
    if _plain(fn.__module__ if module is None else module):
        return fn if plain is None else plain
    numba = _state["numba"]
    try:
        return numba.njit(cache=True, nogil=nogil, forceinline=inline)(fn)
    except RuntimeError as exc:  # "cannot cache function ...: no locator available": nowhere to write
        if _state["cache"] is None:
            _state["cache"] = ("the compiled engine cannot be cached on disk (no writable cache folder; "
                               f"NUMBA_CACHE_DIR names one): it is compiled in memory for this process ({exc})")
        return numba.njit(cache=False, nogil=nogil, forceinline=inline)(fn)


class _NoObjMode:
    """``objmode`` for plain Python: a context that does nothing."""

    def __call__(self, *args: Any, **kwargs: Any) -> _NoObjMode:
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def _objmode() -> Any:
    _load()
    numba = _state["numba"]
    if numba is None:
        try:  # numba switched off but importable: its objmode is a plain context too
            import numba as nb

            return nb.objmode
        except Exception:
            return _NoObjMode()
    return numba.objmode


class _NoLinalg:
    """A finder on ``sys.meta_path`` that refuses ``scipy.linalg`` to one thread."""

    def __init__(self, thread: int) -> None:
        self.thread = thread

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "scipy.linalg" and threading.get_ident() == self.thread:
            raise ModuleNotFoundError(f"{name} is not imported while the engine loads ({BLAS_ENV}=0)", name=name)
        return None


@contextmanager
def no_blas_probe() -> Iterator[None]:
    """While the block runs, ``import scipy.linalg`` fails in the calling thread, as if scipy had no
    linear algebra: when ``SHIPCHECK_NUMBA_BLAS=0`` is set (:data:`BLAS_ENV`) and ``scipy.linalg``
    is not imported yet; otherwise it does nothing.

    Why: the first function numba loads or compiles in a process makes it import ``scipy.linalg``,
    only to learn whether BLAS is there for its ``np.dot`` family: about 0.2 s of CPU, a fifth of
    what a whole round's process spends before its first run. The engine multiplies no matrices.
    Refused, numba goes on without BLAS, and one thing changes in the process afterwards: numba's
    ``np.correlate`` and ``np.convolve`` of floats, if compiled later in it, run numba's own loop
    instead of BLAS (``np.dot`` and ``np.linalg`` still import scipy when they are compiled). So
    only the command line sets the variable (it compiles no one else's code); a notebook that
    imports shipcheck is left as it was."""
    if os.environ.get(BLAS_ENV, "").strip() != "0" or "scipy.linalg" in sys.modules:
        yield
        return
    finder = _NoLinalg(threading.get_ident())
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


def objmode_for(module: str) -> Any:
    """The ``objmode`` for the module named ``module``: numba's where it is compiled, a context that
    does nothing in a plain copy (which imports no numba) or where numba is not there."""
    if _plain(module):
        return _NoObjMode()
    return _state["numba"].objmode


def unowned_tools(module: str) -> tuple[Any, Any]:
    """For the module named ``module``: ``numba.carray`` and an intrinsic turning an integer address
    into an ``int64`` pointer (numba's documented ``@intrinsic`` example, ``numba.extending``), from
    which :func:`shipcheck.engine.views.unowned` views an array without numba's reference count;
    ``(None, None)`` in a plain copy or where numba is not there (the plain ``unowned`` needs
    neither)."""
    if _plain(module):
        return None, None
    if _state.get("pointer") is None:
        with _lock:
            if _state.get("pointer") is None:
                from numba import types
                from numba.extending import intrinsic

                @intrinsic  # type: ignore[misc]
                def int64_pointer(typingctx: Any, src: Any) -> Any:
                    if isinstance(src, types.Integer):
                        sig = types.CPointer(types.int64)(types.uintp)

                        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                            return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

                        return sig, codegen
                    return None

                _state["pointer"] = int64_pointer
    return _state["numba"].carray, _state["pointer"]


def bit_tools(module: str) -> tuple[Any, Any]:
    """For the module named ``module``: intrinsics counting the trailing and the leading zero bits of
    an ``int64`` word (LLVM's ``cttz`` and ``ctlz``: one instruction where the processor has it;
    numba's documented ``@intrinsic``, ``numba.extending``), for :mod:`shipcheck.engine.bits`;
    ``(None, None)`` in a plain copy or where numba is not there (the plain bit functions need
    neither)."""
    if _plain(module):
        return None, None
    if _state.get("bits") is None:
        with _lock:
            if _state.get("bits") is None:
                from llvmlite import ir
                from numba import types
                from numba.extending import intrinsic

                def counter(name: str) -> Any:
                    def typer(typingctx: Any, src: Any) -> Any:
                        if isinstance(src, types.Integer):
                            sig = types.int64(types.int64)

                            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                                value = context.cast(builder, args[0], signature.args[0], types.int64)
                                return getattr(builder, name)(value, ir.Constant(ir.IntType(1), 0))

                            return sig, codegen
                        return None

                    typer.__name__ = name
                    return intrinsic(typer)

                _state["bits"] = (counter("cttz"), counter("ctlz"))
    return _state["bits"]  # type: ignore[no-any-return]


def __getattr__(name: str) -> Any:
    # ``objmode`` (``with objmode(answer="int64"): answer = ask(...)`` calls back into Python from
    # compiled code: numba's ``objmode``, a context that does nothing in plain Python) is looked up
    # on first use, so that importing this module imports no numba
    if name == "objmode":
        value = _objmode()
        globals()["objmode"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def plain_package(name: str) -> ModuleType:
    """The package ``name`` loaded once more, under ``name + "_plain"``, as plain Python: its
    modules' :func:`jit` functions are left uncompiled, and their relative imports load the plain
    copies of their siblings. Loaded once per process."""
    plain = name + PLAIN_SUFFIX
    hit = sys.modules.get(plain)
    if hit is not None:
        return hit
    with _lock:
        hit = sys.modules.get(plain)
        if hit is not None:
            return hit
        real = importlib.import_module(name)
        path = list(real.__path__)
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


#: key -> the Python function compiled code calls back (see :func:`call_back`)
callbacks: dict[int, Callable[..., int]] = {}


def call_back(key: int, *args: Any) -> int:
    """``callbacks[key](*args)``: what compiled code calls inside ``with objmode(...)`` to ask Python
    (a player's own policy); one registry for the compiled engine and its plain copy alike."""
    return int(callbacks[int(key)](*args))


_keys = itertools.count(1)


def new_key() -> int:
    """A key for :data:`callbacks` no one else uses in this process."""
    return next(_keys)
