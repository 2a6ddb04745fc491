"""Exact odds on the engine: flight states packed into a few words, and the default policy's forward
pass over a distribution of them.

A flight state (the tiles aboard, the charges per battery, the crew per cabin, stasis chamber and
alien tile) packs into ``K`` words of 63 bits: the mask in the low bits of word 0, then a field per
battery and 3 bits per crew slot (7 for an alien), each field within one word. ``spec`` says where
(:func:`shipcheck.flight.kernel.Kernel` builds it): ``spec[0]`` words, ``spec[1]`` batteries, ``spec[2]``
crew slots, then per battery (word, shift, width), then per crew slot (tile, word, shift).
:func:`unpack` turns a key into the engine's state row and :func:`pack` back; every rule is the
engine's own (:func:`shipcheck.engine.defence.flight_step`).

:func:`forward` plays attacks one after the other on a distribution (keys and integer weights out
of 36 per attack so far) into an open-addressing table (:mod:`.table`): per state and outcome of the
dice, the state after the default policy's defence. Part of the engine (:mod:`shipcheck.engine`).
"""

from __future__ import annotations

import numpy as np

from shipcheck.runtime import jit

from .crew import wake
from .defence import (
    apply_decision,
    decide_default,
    flight_step,
    left_open,
    needs_defence,
    situation,
    situation_lines,
)
from .hull import destroy
from .layout import ALIEN, N_, OFFS, ONL, TMP, V, _i
from .table import new_table, table_add, table_rows

FIELD = _i(7)  # a crew field holding an alien


@jit
def unpack(S, spec, words, x):  # type: ignore[no-untyped-def]
    """The state row of a packed key (a flight state: no goods, nothing gone or away)."""
    och, ocr = S[0, OFFS, 0], S[0, OFFS, 1]
    x[:] = 0
    x[0] = words[0] & ((_i(1) << S[0, V, N_]) - 1)
    nb, ns = spec[1], spec[2]
    for i in range(nb):
        w, sh, width = spec[3 + 3 * i], spec[4 + 3 * i], spec[5 + 3 * i]
        x[och + i] = (words[w] >> sh) & ((_i(1) << width) - 1)
    base = 3 + 3 * nb
    for j in range(ns):
        k, w, sh = spec[base + 3 * j], spec[base + 3 * j + 1], spec[base + 3 * j + 2]
        v = (words[w] >> sh) & FIELD
        x[ocr + k] = ALIEN if v == FIELD else v


@jit
def pack(S, spec, x, words):  # type: ignore[no-untyped-def]
    """A state row's packed key, into ``words``."""
    och, ocr = S[0, OFFS, 0], S[0, OFFS, 1]
    for j in range(spec[0]):
        words[j] = 0
    words[0] = x[0]
    nb, ns = spec[1], spec[2]
    for i in range(nb):
        words[spec[3 + 3 * i]] |= x[och + i] << spec[4 + 3 * i]
    base = 3 + 3 * nb
    for j in range(ns):
        v = x[ocr + spec[base + 3 * j]]
        words[spec[base + 3 * j + 1]] |= (FIELD if v == ALIEN else v) << spec[base + 3 * j + 2]


@jit
def step_key(S, spec, words, kind, d, roll, out, x, buf, tmp):  # type: ignore[no-untyped-def]
    """The key after dice pair ``roll`` of an attack of ``kind`` from direction ``d`` (default policy)."""
    unpack(S, spec, words, x)
    flight_step(S, _i(0), x, kind, d, roll, _i(0), buf, tmp)
    pack(S, spec, x, out)


@jit
def play_lines(S, spec, words, kind, side, tol, nl, line0, line1, out, x, buf, tmp):  # type: ignore[no-untyped-def]
    """The key after an attack of ``kind`` from board ``side`` down ``nl`` lines (the default
    policy's defence, then what it leaves open destroyed)."""
    unpack(S, spec, words, x)
    situation_lines(S, _i(0), x, kind, side, tol, nl, line0, line1, tmp)
    decide_default(S, _i(0), x, kind, tmp)
    destroyed = apply_decision(S, _i(0), x, kind, tmp)
    if destroyed:
        destroy(S, _i(0), x, _i(destroyed), buf)
    pack(S, spec, x, out)


@jit
def decide_key(S, spec, words, kind, side, tol, nl, line0, line1, out, x, buf, tmp):  # type: ignore[no-untyped-def]
    """The key after the decision in ``tmp[DEC + ...]`` (a policy's, written by the caller) against an
    attack of ``kind`` from board ``side`` down ``nl`` lines: checked and applied, then what it
    leaves open destroyed."""
    unpack(S, spec, words, x)
    situation_lines(S, _i(0), x, kind, side, tol, nl, line0, line1, tmp)
    destroyed = apply_decision(S, _i(0), x, kind, tmp)
    if destroyed:
        destroy(S, _i(0), x, _i(destroyed), buf)
    pack(S, spec, x, out)


@jit
def default_of(S, spec, words, kind, side, tol, nl, line0, line1, x, tmp):  # type: ignore[no-untyped-def]
    """Contract §4's decision (:func:`decide_default`) against an attack on the state of a packed
    key, into ``tmp[DEC + ...]`` (the situation into ``tmp[SIT + ...]``)."""
    unpack(S, spec, words, x)
    situation_lines(S, _i(0), x, kind, side, tol, nl, line0, line1, tmp)
    decide_default(S, _i(0), x, kind, tmp)


@jit
def left_open_key(S, spec, words, kind, side, tol, nl, line0, line1, x, tmp):  # type: ignore[no-untyped-def]
    """The tiles the decision in ``tmp[DEC + ...]`` (written by the caller) leaves to be destroyed
    against an attack on the state of a packed key (:func:`left_open`; its charges not paid)."""
    unpack(S, spec, words, x)
    situation_lines(S, _i(0), x, kind, side, tol, nl, line0, line1, tmp)
    return left_open(S, _i(0), x, kind, tmp)


@jit
def row_of(S, spec, words, x):  # type: ignore[no-untyped-def]
    """:func:`unpack` for Python callers."""
    unpack(S, spec, words, x)


@jit
def situation_of(S, spec, words, kind, side, tol, nl, line0, line1, x, tmp):  # type: ignore[no-untyped-def]
    """The situation of an attack on the state of a packed key, into ``tmp[SIT + ...]``."""
    unpack(S, spec, words, x)
    situation_lines(S, _i(0), x, kind, side, tol, nl, line0, line1, tmp)


@jit
def destroy_key(S, spec, words, bits, out, x, buf):  # type: ignore[no-untyped-def]
    """The key once the tiles ``bits`` are destroyed (pieces fall off, crew goes with them)."""
    unpack(S, spec, words, x)
    destroy(S, _i(0), x, bits, buf)
    pack(S, spec, x, out)


@jit
def wake_key(S, spec, words, out, x):  # type: ignore[no-untyped-def]
    """The key once sleepers wake after a crew loss (:func:`shipcheck.engine.crew.wake`)."""
    unpack(S, spec, words, x)
    wake(S, _i(0), x)
    pack(S, spec, x, out)


@jit
def forward(S, spec, keys, weights, kinds, dirs, nout, count, rep):  # type: ignore[no-untyped-def]
    """The default policy's distribution after the attacks ``kinds[a]`` from directions ``dirs[a]``,
    from ``keys`` (``(n, K)``) with ``weights`` (``(n,)``); per direction ``d`` its ``nout[d]`` outcomes,
    each given by ``count[d, o]`` of the 36 dice pairs, ``rep[d, o]`` one of them. Returns the
    final keys, their weights and the states expanded (summed over attacks). Weights are ``int64``:
    the caller keeps 36^(attacks so far) below 2^63."""
    K = keys.shape[1]
    width = S[0, OFFS, 3]
    x = np.zeros(width, dtype=np.int64)
    buf = np.zeros(64, dtype=np.int64)
    tmp = np.zeros(TMP, dtype=np.int64)
    one = np.zeros((1, K), dtype=np.int64)
    n = keys.shape[0]
    expanded = 0
    for a in range(kinds.shape[0]):
        kind, d = kinds[a], dirs[a]
        tk, tw, used, cap, cnt = new_table(K, n)
        for i in range(n):
            w = weights[i]
            unpack(S, spec, keys[i], x)
            idle = 0  # the weight of the rolls that change nothing
            for o in range(nout[d]):
                c = count[d, o]
                if S[0, ONL + d, o] == 0:
                    idle += c
                    continue
                situation(S, _i(0), x, kind, d, rep[d, o], tmp)
                if not needs_defence(tmp):
                    idle += c
                    continue
                flight_step(S, _i(0), x, kind, d, rep[d, o], _i(a), buf, tmp)
                pack(S, spec, x, one[0])
                tk, tw, used, cap, cnt = table_add(tk, tw, used, cap, cnt, one, 0, w * c)
                unpack(S, spec, keys[i], x)
            if idle:
                tk, tw, used, cap, cnt = table_add(tk, tw, used, cap, cnt, keys, i, w * idle)
        expanded += n
        keys, weights = table_rows(tk, tw, used, cap, cnt)
        n = cnt
    return keys, weights, expanded
