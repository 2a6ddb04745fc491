"""The engine's bit operations: compiled (LLVM's count of trailing and leading zeros, SWAR) and plain
Python give the same answers on every word a tile mask can be."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shipcheck import runtime
from shipcheck.engine import bits

WORDS = st.integers(min_value=1, max_value=2**63 - 1)


def _plain(x: int) -> tuple[int, int, int]:
    return bits._low_bit_plain(x), bits._high_bit_plain(x), bits._popcount_plain(x)


@pytest.mark.parametrize("k", range(63))
def test_single_bits(k: int) -> None:
    assert _plain(1 << k) == (k, k, 1)


@given(WORDS)
def test_plain_bits_by_hand(x: int) -> None:
    low, high, n = _plain(x)
    assert x >> low & 1 and x & ((1 << low) - 1) == 0
    assert x >> high == 1
    assert n == bin(x).count("1")


@settings(deadline=None)  # the first example loads the compiled functions
@given(WORDS)
def test_compiled_bits_are_the_plain_ones(x: int) -> None:
    w = np.int64(x)  # (the compiled functions where numba is there, else the plain ones again)
    assert runtime.compiled() or bits.low_bit is bits._low_bit_plain
    assert (int(bits.low_bit(w)), int(bits.high_bit(w)), int(bits.popcount(w))) == _plain(x)
