"""Arrays viewed without numba's reference count, for the hot loops of a run.

numba counts references to every array it passes to a function or slices (``X[p]``), with atomic
increments and decrements; in the engine's many small calls per card they took about half the
time of a run. A view made by :func:`unowned` has no owner to count (numba skips the count of an
array without one), so the functions it is passed to and the rows sliced from it cost no atomic
operations. Its memory belongs to the array it views, which must stay alive while the view is used
(:func:`shipcheck.engine.run.play` keeps its arrays until its end). Nothing here decides a rule.

Part of the engine (:mod:`shipcheck.engine`): plain functions in the subset of Python numba
compiles (:func:`shipcheck.runtime.jit`); as plain Python :func:`unowned` returns the array itself.
"""

from __future__ import annotations

from shipcheck.runtime import jit, numba_for


def _tools(numba):  # type: ignore[no-untyped-def]
    """``numba.carray`` and an intrinsic making an ``int64`` pointer of an address (numba's documented
    ``@intrinsic`` example); ``(None, None)`` where the engine is plain."""
    if numba is None:
        return None, None
    from numba import types
    from numba.extending import intrinsic

    @intrinsic  # type: ignore[misc]
    def int64_pointer(typingctx, src):  # type: ignore[no-untyped-def]
        if isinstance(src, types.Integer):
            def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
                return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

            return types.CPointer(types.int64)(types.uintp), codegen
        return None

    return numba.carray, int64_pointer


carray, int64_pointer = _tools(numba_for(__name__))


def _unowned_plain(a):  # type: ignore[no-untyped-def]
    return a


@jit(plain=_unowned_plain)
def unowned(a):  # type: ignore[no-untyped-def]
    """The C-contiguous ``int64`` array ``a`` viewed without an owner (the same memory, the same type)."""
    if not a.flags.c_contiguous:
        raise ValueError("only a C-contiguous array can be viewed without its owner")
    return carray(int64_pointer(a.ctypes.data), a.shape)


@jit
def kept(owners):  # type: ignore[no-untyped-def]
    """Nothing: called with the arrays that unowned views were made of, it keeps them alive (numba
    frees an array after its last use) up to this call."""
    return None


def _copy_into_plain(dst, src):  # type: ignore[no-untyped-def]
    dst[:] = src


@jit(inline=True, plain=_copy_into_plain)
def copy_into(dst, src):  # type: ignore[no-untyped-def]
    """``dst[:] = src`` for two 1-D arrays of one length, element by element: numba's array
    assignment compiles its shape-mismatch error message (string code), seconds of a first compile."""
    for k in range(dst.shape[0]):
        dst[k] = src[k]
