"""Bit operations on tile masks (``int64`` words).

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

import numpy as np

from shipcheck.runtime import jit, numba_for

_i = np.int64

_M1, _M2, _M4, _H01 = _i(0x5555555555555555), _i(0x3333333333333333), _i(0x0F0F0F0F0F0F0F0F), _i(0x0101010101010101)


def _bit_tools(numba):  # type: ignore[no-untyped-def]
    """Intrinsics counting the trailing and the leading zero bits of an ``int64`` (LLVM's ``cttz`` and
    ``ctlz``: one instruction each where the processor has it; numba's documented ``@intrinsic``);
    ``(None, None)`` where the engine is plain."""
    if numba is None:
        return None, None
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

    def counter(name):  # type: ignore[no-untyped-def]
        def typer(typingctx, src):  # type: ignore[no-untyped-def]
            if isinstance(src, types.Integer):
                def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
                    value = context.cast(builder, args[0], signature.args[0], types.int64)
                    return getattr(builder, name)(value, ir.Constant(ir.IntType(1), 0))

                return types.int64(types.int64), codegen
            return None

        typer.__name__ = name
        return intrinsic(typer)

    return counter("cttz"), counter("ctlz")


_cttz, _ctlz = _bit_tools(numba_for(__name__))


# (a round's plain flights pass Python ints, which need no int(): numpy's ints, from int64 tables,
# take the way round it)
def _popcount_plain(x):  # type: ignore[no-untyped-def]
    if type(x) is not int:  # numpy's int64 (the exact odds' tables): no bit_count; cheaper than raising
        x = int(x)
    return x.bit_count()


def _low_bit_plain(x):  # type: ignore[no-untyped-def]
    if type(x) is not int:
        x = int(x)
    return (x & -x).bit_length() - 1


def _high_bit_plain(x):  # type: ignore[no-untyped-def]
    if type(x) is not int:
        x = int(x)
    return x.bit_length() - 1


# compiled, the word tricks; as plain Python, Python's own (numpy's int64 would warn of the
# multiplications' intended wrap-around, and is slower)
@jit(plain=_popcount_plain, inline=True)
def popcount(x):  # type: ignore[no-untyped-def]
    """Set bits of a non-negative word (SWAR)."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return ((x * _H01) >> 56) & 255


@jit(plain=_low_bit_plain, inline=True)
def low_bit(x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit (the processor's count of trailing zeros; ``x`` non-zero)."""
    return _cttz(x)


@jit(plain=_high_bit_plain, inline=True)
def high_bit(x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit (63 less the count of leading zeros; ``x`` non-zero, below 2**63)."""
    return 63 - _ctlz(x)
