"""Open-addressing tables of ``int64`` keys (rows of ``K`` words) with ``int64`` weights, for the
exact passes (:mod:`.exact`, :mod:`.joint`): equal states merge by adding their weights.

A table is ``(tk, tw, used, cap, cnt)``: keys, weights, which slots are taken, the capacity (a power
of two) and how many are taken; read it with :func:`table_rows`. As plain Python (no numba) the same
functions keep a dict of the keys' bytes instead (``tk``; the other fields unused): the same
results, at Python's dict speed. Part of :mod:`shipcheck.engine` (see :mod:`shipcheck.runtime`).
"""

from __future__ import annotations

import numpy as np

from shipcheck.runtime import jit

from .layout import _i

_GOLDEN = _i(0x9E3779B97F4A7C15 - (1 << 64))  # 2**64 / phi as a signed word


def _new_table_plain(K, n):  # type: ignore[no-untyped-def]
    return ({}, K, None, 0, 0)


def _table_add_plain(tk, tw, used, cap, cnt, src, i, w):  # type: ignore[no-untyped-def]
    k = src[i].tobytes()
    tk[k] = tk.get(k, 0) + int(w)
    return tk, tw, used, cap, len(tk)


def _table_rows_plain(tk, tw, used, cap, cnt):  # type: ignore[no-untyped-def]
    keys = np.frombuffer(b"".join(tk), dtype=np.int64).reshape(len(tk), tw).copy()
    return keys, np.fromiter(tk.values(), dtype=np.int64, count=len(tk))


@jit(plain=_new_table_plain)
def new_table(K, n):  # type: ignore[no-untyped-def]
    """An empty table for about ``n`` keys of ``K`` words."""
    cap = 16
    while cap < 4 * n:
        cap *= 2
    return (np.zeros((cap, K), dtype=np.int64), np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.bool_),
            cap, 0)


@jit
def _hash(keys, i, K, mask):  # type: ignore[no-untyped-def]
    h = _i(0)
    for j in range(K):
        h = (h ^ keys[i, j]) * _GOLDEN
    return ((h >> 20) ^ h) & mask


@jit
def _same(a, i, b, j, K):  # type: ignore[no-untyped-def]
    for q in range(K):
        if a[i, q] != b[j, q]:
            return False
    return True


@jit
def _add(tk, tw, used, cap, src, i, w):  # type: ignore[no-untyped-def]
    """Add weight ``w`` to key ``src[i]`` in the table; returns whether a new slot was taken."""
    K = src.shape[1]
    s = _hash(src, i, K, cap - 1)
    while used[s]:
        if _same(tk, s, src, i, K):
            tw[s] += w
            return False
        s = (s + 1) & (cap - 1)
    used[s] = True
    for q in range(K):
        tk[s, q] = src[i, q]
    tw[s] = w
    return True


@jit(plain=_table_add_plain)
def table_add(tk, tw, used, cap, cnt, src, i, w):  # type: ignore[no-untyped-def]
    """Add weight ``w`` to key ``src[i]``, growing the table when it gets half full; returns the
    table (tk, tw, used, cap, cnt)."""
    if _add(tk, tw, used, cap, src, i, w):
        cnt += 1
        if 2 * cnt > cap:
            ncap = 2 * cap
            nk = np.zeros((ncap, tk.shape[1]), dtype=np.int64)
            nw = np.zeros(ncap, dtype=np.int64)
            nu = np.zeros(ncap, dtype=np.bool_)
            for s in range(cap):
                if used[s]:
                    _add(nk, nw, nu, ncap, tk, s, tw[s])
            return nk, nw, nu, ncap, cnt
    return tk, tw, used, cap, cnt


@jit(plain=_table_rows_plain)
def table_rows(tk, tw, used, cap, cnt):  # type: ignore[no-untyped-def]
    """The keys and weights of a table, in slot order."""
    keys = np.zeros((cnt, tk.shape[1]), dtype=np.int64)
    weights = np.zeros(cnt, dtype=np.int64)
    j = 0
    for s in range(cap):
        if used[s]:
            for q in range(tk.shape[1]):
                keys[j, q] = tk[s, q]
            weights[j] = tw[s]
            j += 1
    return keys, weights
