"""Bit operations on tile masks (``int64`` words).

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.jit.jit`).
"""

from __future__ import annotations

import numpy as np

from shipcheck.jit import jit

_i = np.int64

_M1, _M2, _M4, _H01 = _i(0x5555555555555555), _i(0x3333333333333333), _i(0x0F0F0F0F0F0F0F0F), _i(0x0101010101010101)
_DEBRUIJN = _i(0x03F79D71B4CA8B09)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _k in range(64):
    _DEBRUIJN_INDEX[((((1 << _k) * 0x03F79D71B4CA8B09) & (2**64 - 1)) >> 58)] = _k


# (a round's plain flights pass Python ints, which need no int(): numpy's ints, from int64 tables,
# take the way round it)
def _popcount_plain(x):  # type: ignore[no-untyped-def]
    try:
        return x.bit_count()
    except AttributeError:
        return int(x).bit_count()


def _low_bit_plain(x):  # type: ignore[no-untyped-def]
    try:
        return (x & -x).bit_length() - 1
    except AttributeError:
        x = int(x)
        return (x & -x).bit_length() - 1


def _high_bit_plain(x):  # type: ignore[no-untyped-def]
    try:
        return x.bit_length() - 1
    except AttributeError:
        return int(x).bit_length() - 1


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
    """Index of the lowest set bit (de Bruijn multiplication; ``x`` non-zero)."""
    return _DEBRUIJN_INDEX[(((x & -x) * _DEBRUIJN) >> 58) & 63]


@jit(plain=_high_bit_plain, inline=True)
def high_bit(x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit (``x`` non-zero, below 2**63)."""
    k = 0
    for s in (32, 16, 8, 4, 2, 1):
        if x >> s:
            x >>= s
            k += s
    return k
