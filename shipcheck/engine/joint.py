"""Exact odds of the cards rolled a roll at a time, over joint states of every player.

A joint state is one ``int64`` vector (:func:`layout_of`): the players' state rows ``X`` (``P`` rows of
``W``), then ``pos``, ``out``, ``cred``, ``sold`` (``P`` each), ``hh`` (``2 x P``) and the card's
registers ``G`` (:data:`~.layout.GN`). :func:`begin` is the joint state at launch and :func:`card` plays one card on a list of joint states with the
card's own steps (:func:`.cards.card_step`, the steps a run plays with its dice): each roll a step
waits for branches into the dice pairs that differ for the players it strikes (grouped by the
outcome each pair gives each of them), and equal joint states merge after every roll. Weights are
whole numbers out of ``36 ** rolls`` (the caller gives the most rolls the card can need, at most 12,
so they stay in ``int64``); a state's weight is kept per joint state it came from.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

import numpy as np

from shipcheck.runtime import jit

from .encounters import after_card, card_step, crewless, new_card
from .layout import (
    CI,
    CTYPE,
    F_CRED,
    F_HH,
    F_OUT,
    F_POS,
    F_ROWS,
    F_SOLD,
    G_DIR,
    G_WHO,
    GN,
    KIND,
    LAUNCH,
    OCELL,
    OFFS,
    R_P,
    TMP,
)
from .table import new_table, table_add, table_rows
from .views import copy_into

ROLLS = 36


@jit
def layout_of(P, W):  # type: ignore[no-untyped-def]
    """The offsets of ``pos``, ``out``, ``cred``, ``sold``, ``hh`` and ``G`` in a joint state of ``P``
    players whose rows are ``W`` wide, and its length."""
    a = P * W
    return a, a + P, a + 2 * P, a + 3 * P, a + 4 * P, a + 6 * P, a + 6 * P + GN


@jit
def unload(v, P, W, X, F, G):  # type: ignore[no-untyped-def]
    """The run's arrays from joint state ``v`` (the run's rows ``F``: layout.F_*)."""
    o_pos, o_out, o_cred, o_sold, o_hh, o_g, n = layout_of(P, W)
    for p in range(P):
        copy_into(X[p], v[p * W:(p + 1) * W])
    copy_into(F[F_POS], v[o_pos:o_out])
    copy_into(F[F_OUT], v[o_out:o_cred])
    copy_into(F[F_CRED], v[o_cred:o_sold])
    copy_into(F[F_SOLD], v[o_sold:o_hh])
    copy_into(F[F_HH], v[o_hh:o_hh + P])
    copy_into(F[F_HH + 1], v[o_hh + P:o_g])
    copy_into(G, v[o_g:n])


@jit
def store(X, F, G, P, W, v):  # type: ignore[no-untyped-def]
    """The run's arrays as a joint state, into ``v``."""
    o_pos, o_out, o_cred, o_sold, o_hh, o_g, n = layout_of(P, W)
    for p in range(P):
        copy_into(v[p * W:(p + 1) * W], X[p])
    copy_into(v[o_pos:o_out], F[F_POS])
    copy_into(v[o_out:o_cred], F[F_OUT])
    copy_into(v[o_cred:o_sold], F[F_CRED])
    copy_into(v[o_sold:o_hh], F[F_SOLD])
    copy_into(v[o_hh:o_hh + P], F[F_HH])
    copy_into(v[o_hh + P:o_g], F[F_HH + 1])
    copy_into(v[o_g:n], G)


@jit
def _arrays(P, W):  # type: ignore[no-untyped-def]
    """A run's arrays for ``P`` players with rows ``W`` wide, zeroed: X, F (layout.F_*), G, tmp."""
    return (np.zeros((P, W), dtype=np.int64), np.zeros((F_ROWS, P), dtype=np.int64), np.zeros(GN, dtype=np.int64),
            np.zeros(TMP, dtype=np.int64))


@jit
def begin(S, R, init, start, prices):  # type: ignore[no-untyped-def]
    """The joint state at launch: the players' launch rows at the round's start positions, those
    without humans gone (as a run begins: :func:`shipcheck.engine.run.play`)."""
    P = R[R_P]
    W = S[0, OFFS, 3]
    X, F, G, tmp = _arrays(P, W)
    for p in range(P):
        copy_into(X[p], init[p])
    copy_into(F[F_POS], start)
    crewless(S, R, X, F, prices, tmp)
    v = np.zeros(layout_of(P, W)[6], dtype=np.int64)
    store(X, F, G, P, W, v)
    return v


@jit
def card(S, C, R, c, states, full, prices, depth):  # type: ignore[no-untyped-def]
    """Card ``c`` on each joint state of ``states`` (``(n, length)``, :func:`layout_of`): the joint
    states after it (before the card their registers are cleared and the card begins: the Techie's
    charge is back; after it ships without humans leave and lapped ones give up), each with the index
    of the state it came from and its weight out of ``full`` (``36 ** rolls``, the most rolls the
    card may need). Returns (states, sources, weights)."""
    P = R[R_P]
    W = S[0, OFFS, 3]  # the row's width
    n = states.shape[0]
    K = states.shape[1] + 1  # a key: the joint state and where it came from
    X, F, G, tmp = _arrays(P, W)
    prov = np.zeros((P, 4, depth), dtype=np.int64)
    w = (np.empty(W, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(4, dtype=np.int64), tmp, prov)
    key = np.zeros((1, K), dtype=np.int64)
    typ = C[c, CI, CTYPE]
    # the done table and the table of states waiting for a roll
    dk, dw, du, dcap, dcnt = new_table(K, n)
    wk, ww, wu, wcap, wcnt = new_table(K, n)
    for i in range(n):
        unload(states[i], P, W, X, F, G)
        for g in range(GN):
            G[g] = 0
        new_card(S, R, X, F)
        tmp[KIND] = typ
        more = card_step(S, C, R, X, F, c, G, 0, prices, w)
        if not more:
            tmp[KIND] = LAUNCH
            after_card(S, R, X, F, prices, tmp)
        store(X, F, G, P, W, key[0])
        key[0, K - 1] = i
        if more:
            wk, ww, wu, wcap, wcnt = table_add(wk, ww, wu, wcap, wcnt, key, 0, full)
        else:
            dk, dw, du, dcap, dcnt = table_add(dk, dw, du, dcap, dcnt, key, 0, full)
    cells = np.zeros(ROLLS, dtype=np.int64)
    rep = np.zeros(ROLLS, dtype=np.int64)
    count = np.zeros(ROLLS, dtype=np.int64)
    while wcnt:
        waiting, wait_w = table_rows(wk, ww, wu, wcap, wcnt)
        wk, ww, wu, wcap, wcnt = new_table(K, waiting.shape[0])
        for s in range(waiting.shape[0]):
            v = waiting[s]
            unload(v, P, W, X, F, G)
            who, d = G[G_WHO], G[G_DIR]
            # the dice pairs that differ for the players struck: one per outcome they give each
            ng = 0
            for r in range(ROLLS):
                cell = 0
                for p in range(P):
                    if (who >> p) & 1:
                        cell = cell * 64 + S[p, OCELL + d, r]
                g = 0
                while g < ng and cells[g] != cell:
                    g += 1
                if g == ng:
                    cells[g] = cell
                    rep[g] = r
                    count[g] = 0
                    ng += 1
                count[g] += 1
            for g in range(ng):
                if g:
                    unload(v, P, W, X, F, G)
                tmp[KIND] = typ
                more = card_step(S, C, R, X, F, c, G, rep[g], prices, w)
                if not more:
                    tmp[KIND] = LAUNCH
                    after_card(S, R, X, F, prices, tmp)
                store(X, F, G, P, W, key[0])
                key[0, K - 1] = v[K - 1]
                wt = wait_w[s] // ROLLS * count[g]
                if more:
                    wk, ww, wu, wcap, wcnt = table_add(wk, ww, wu, wcap, wcnt, key, 0, wt)
                else:
                    dk, dw, du, dcap, dcnt = table_add(dk, dw, du, dcap, dcnt, key, 0, wt)
    keys, wts = table_rows(dk, dw, du, dcap, dcnt)
    return keys[:, :K - 1].copy(), keys[:, K - 1].copy(), wts
