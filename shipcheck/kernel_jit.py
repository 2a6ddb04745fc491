"""The default policy's forward pass over packed states, compiled with numba.

The compiled twin of :meth:`Kernel.play <shipcheck.kernel.Kernel.play>` and of the loop of
:func:`shipcheck.odds._forward_default`, for the states it can hold: one hull, no crew tuple, a
packed state that fits in 63 bits. It plays every roll of every state (no memo per state: a roll
costs a few nanoseconds here, a split is memoised by the tiles left) and adds the integer weights
into an open-addressing table, one attack after the other. Weights are ``int64``: a layer runs here
only while 36^(attacks so far) fits, and the Python engine carries on after that.

``odds`` sends a distribution here once it is large (see :func:`shipcheck.odds._forward_default`);
``tests/test_kernel_jit.py`` holds the two engines to the same weights, state for state. Change a
rule in both places.

This module is compiled with :func:`shipcheck.jit.jit`: only ``odds`` imports it, and only for large
distributions where the compiled engine is there (:func:`shipcheck.jit.compiled`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .jit import jit
from .kernel import LARGE, LIGHT, SMALL

if TYPE_CHECKING:
    from .cards import Attack
    from .kernel import Kernel

__all__ = ["forward"]

EMPTY = -1  # a free slot of a hash table (packed states are >= 0)
KIND = {SMALL: 0, LARGE: 1, LIGHT: 2}  # anything else (heavy shots) is 3

_GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))  # 2**64 / phi as a signed word


@jit
def _slot(key, mask):  # type: ignore[no-untyped-def]
    # Fibonacci hashing: packed states share their low bits (the mask) in long runs
    return ((key * _GOLDEN) >> 20) & mask


@jit
def _spread(f, adjb):  # type: ignore[no-untyped-def]
    """The tiles joined to any tile of ``f`` (a table lookup per byte)."""
    out = 0
    j = 0
    while f:
        out |= adjb[j, f & 255]
        f >>= 8
        j += 1
    return out


@jit
def _piece(rest, seed, adjb):  # type: ignore[no-untyped-def]
    """The piece of ``rest`` holding the tiles ``seed``."""
    comp = seed
    frontier = seed
    while frontier:
        frontier = _spread(frontier, adjb) & rest & ~comp
        comp |= frontier
    return comp


@jit
def _count(x, table):  # type: ignore[no-untyped-def]
    t = 0
    j = 0
    while x:
        t += table[j, x & 255]
        x >>= 8
        j += 1
    return t


@jit
def _split(rest, adjb, humb, ones):  # type: ignore[no-untyped-def]
    """FlightModel.split without a crew tuple, one hull: the piece with the most humans, then the
    most components, then the first square."""
    if rest == 0:
        return rest
    best = _piece(rest, rest & -rest, adjb)
    if best == rest:
        return rest
    bh = _count(best, humb)
    bc = _count(best, ones)
    rem = rest & ~best
    while rem:
        c = _piece(rest, rem & -rem, adjb)
        rem &= ~c
        h = _count(c, humb)
        if h > bh or (h == bh and _count(c, ones) > bc):  # later pieces start later: ties keep the first
            best, bh, bc = c, h, _count(c, ones)
    return best


@jit
def _draw(p, bfield):  # type: ignore[no-untyped-def]
    for b in range(bfield.shape[0]):
        if p & bfield[b]:
            return b
    return -1


@jit
def _boosted(mask, shields, bshield, bnear):  # type: ignore[no-untyped-def]
    for i in range(bshield.shape[0]):
        if (shields >> bshield[i]) & 1 and bnear[i] & mask:
            return True
    return False


@jit
def _play(p, mask, o, kind, hits, hli, hbit, nh, G, bfield, boff, cover, bshield, bnear, bc, bfree):  # type: ignore[no-untyped-def]
    """Kernel.play up to the destruction: packed state after the charges are paid, and the tiles
    destroyed."""
    side = G[o, 1]
    shields = cover[side] & mask
    if kind == 0 or kind == 2:
        if shields:
            b = _draw(p, bfield)
            if b >= 0:
                return p - (1 << boff[b]), 0
        return p, hits
    open_hits = 0
    if kind == 1:
        used = 0
        for i in range(nh):
            li = hli[i]
            shot = -1
            for j in range(bc.shape[2]):
                c = bc[o, li, j]
                if c < 0:
                    break
                if (used >> c) & 1 or not (mask >> c) & 1:
                    continue
                if bfree[o, li, j]:
                    shot = c
                    break
                b = _draw(p, bfield)
                if b >= 0:
                    p -= 1 << boff[b]
                    shot = c
                    break
            if shot >= 0:
                used |= 1 << shot
            else:
                open_hits |= hbit[i]
    else:
        open_hits = hits
    if open_hits and _boosted(mask, shields, bshield, bnear):
        b1 = _draw(p, bfield)
        if b1 >= 0:
            q = p - (1 << boff[b1])
            b2 = _draw(q, bfield)
            if b2 >= 0:
                return q - (1 << boff[b2]), 0
    return p, open_hits


@jit
def _insert(keys, vals, key, w):  # type: ignore[no-untyped-def]
    """Add ``w`` to ``key``'s weight; returns 1 when the key is new."""
    m = keys.shape[0] - 1
    i = _slot(key, m)
    while True:
        k = keys[i]
        if k == key:
            vals[i] += w
            return 0
        if k == EMPTY:
            keys[i] = key
            vals[i] = w
            return 1
        i = (i + 1) & m


@jit
def _layer(P, W, keys, vals, full, kind, G, lm, olow, bc, bfree, bfield, boff, btile, cover, bshield, bnear,
           adjb, humb, ones, mkeys, mvals, mcount):  # type: ignore[no-untyped-def]
    """One attack on the states ``P`` (weights ``W``): the next states' weights added into
    ``keys``/``vals``; returns how many keys are new. ``G`` holds per roll (weight, board side,
    vulnerable tiles, lines); ``mkeys``/``mvals`` memoise splits by the tiles left."""
    nout = G.shape[0]
    L = lm.shape[1]
    hli = np.empty(L, dtype=np.int64)  # the damaging hits of a roll: line slot and tile bit, in line order
    hbit = np.empty(L, dtype=np.int64)
    outq = np.empty(nout, dtype=np.int64)
    outw = np.empty(nout, dtype=np.int64)
    mm = mkeys.shape[0] - 1
    new = 0
    for s in range(P.shape[0]):
        p = P[s]
        w = W[s]
        mask = p & full
        nq = 0
        for o in range(nout):
            vul = G[o, 2]
            nh = 0
            hits = 0
            for li in range(G[o, 3]):
                x = lm[o, li] & mask
                if x == 0:
                    continue
                if olow[o, li]:
                    b = x & -x
                else:
                    b = x
                    while b & (b - 1):
                        b &= b - 1
                if vul & b:
                    hli[nh] = li
                    hbit[nh] = b
                    hits |= b
                    nh += 1
            q = p
            if nh:
                q, destroyed = _play(p, mask, o, kind, hits, hli, hbit, nh, G, bfield, boff, cover, bshield, bnear,
                                     bc, bfree)
                if destroyed:
                    rest = mask & ~destroyed
                    i = _slot(rest, mm)
                    kept = EMPTY
                    while True:
                        k = mkeys[i]
                        if k == rest:
                            kept = mvals[i]
                            break
                        if k == EMPTY:
                            break
                        i = (i + 1) & mm
                    if kept == EMPTY:
                        kept = _split(rest, adjb, humb, ones)
                        if mcount[0] * 2 < mkeys.shape[0]:
                            mkeys[i] = rest
                            mvals[i] = kept
                            mcount[0] += 1
                    left = mask & ~kept
                    q = (q & ~full) | kept
                    for b in range(btile.shape[0]):
                        if (left >> btile[b]) & 1:
                            q &= ~bfield[b]
            ww = w * G[o, 0]
            j = 0
            while j < nq and outq[j] != q:
                j += 1
            if j < nq:
                outw[j] += ww
            else:
                outq[nq] = q
                outw[nq] = ww
                nq += 1
        for j in range(nq):
            new += _insert(keys, vals, outq[j], outw[j])
    return new


@jit
def _compact(keys, vals, n):  # type: ignore[no-untyped-def]
    P = np.empty(n, dtype=np.int64)
    W = np.empty(n, dtype=np.int64)
    j = 0
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY:
            P[j] = keys[i]
            W[j] = vals[i]
            j += 1
    return P, W


def _byte_tables(values: list[int], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per byte of a tile mask and byte value: the OR and the sum of ``values`` over its tiles."""
    nbytes = max(1, (n + 7) // 8)
    orb = np.zeros((nbytes, 256), dtype=np.int64)
    sumb = np.zeros((nbytes, 256), dtype=np.int64)
    for j in range(nbytes):
        for v in range(256):
            o = s = 0
            for i in range(8):
                k = 8 * j + i
                if v >> i & 1 and k < n:
                    o |= values[k]
                    s += values[k]
            orb[j, v] = o
            sumb[j, v] = s
    return orb, sumb


def _ship_tables(k: Kernel) -> dict[str, Any]:
    hit = k.__dict__.get("_jit_ship")
    if hit is None:
        m = k.m
        adjb, _ = _byte_tables(list(m.adj), k.n)
        _, humb = _byte_tables([m.tiles[t].humans if t in m.cabins else 0 for t in range(k.n)], k.n)
        _, ones = _byte_tables([1] * k.n, k.n)
        boost = [s for s in m.shields if m.adj[s] & m.boosters]
        hit = k.__dict__["_jit_ship"] = {
            "full": k.full,
            "bfield": np.array(k.bfield, dtype=np.int64),
            "boff": np.array(k.boff, dtype=np.int64),
            "btile": np.array(k.btile, dtype=np.int64),
            "cover": np.array(k.cover, dtype=np.int64),
            "bshield": np.array(boost, dtype=np.int64),
            "bnear": np.array([m.adj[s] & m.boosters for s in boost], dtype=np.int64),
            "adjb": adjb, "humb": humb, "ones": ones,
        }
    return hit  # type: ignore[no-any-return]


def _attack_tables(k: Kernel, a: Attack) -> dict[str, Any]:
    cache = k.__dict__.setdefault("_jit_attacks", {})
    hit = cache.get(a)
    if hit is None:
        plan = k.plan(a)
        L = max(1, max(len(specs) for *_, specs in plan))
        nout = len(plan)
        G = np.zeros((nout, 4), dtype=np.int64)
        lm = np.zeros((nout, L), dtype=np.int64)
        olow = np.zeros((nout, L), dtype=np.int64)
        bear = [[k.bearing(side, tol, line) if a.kind == LARGE else () for line, _, _ in specs]
                for _, side, tol, _, specs in plan]
        C = max([1] + [len(b) for row in bear for b in row]) + 1
        bc = np.full((nout, L, C), -1, dtype=np.int64)
        bfree = np.zeros((nout, L, C), dtype=np.int64)
        for o, (w, side, _, vul, specs) in enumerate(plan):
            G[o] = (w, side, vul, len(specs))
            for li, (_, lmask, low) in enumerate(specs):
                lm[o, li] = lmask
                olow[o, li] = low
                for j, (c, free) in enumerate(bear[o][li]):
                    bc[o, li, j] = c
                    bfree[o, li, j] = free
        hit = cache[a] = {"kind": KIND.get(a.kind, 3), "G": G, "lm": lm, "olow": olow, "bc": bc, "bfree": bfree}
    return hit  # type: ignore[no-any-return]


def forward(k: Kernel, attacks: tuple[Attack, ...], dist: dict[int, int]) -> tuple[dict[int, int], int]:
    """``dist`` (packed state -> weight) after ``attacks`` under the default policy, and the states
    expanded; the caller checks :meth:`Kernel.compilable` and that the weights fit in int64."""
    S = _ship_tables(k)
    P = np.fromiter(dist.keys(), dtype=np.int64, count=len(dist))
    W = np.fromiter(dist.values(), dtype=np.int64, count=len(dist))
    memo = k.__dict__.get("_jit_memo")
    if memo is None:
        memo = k.__dict__["_jit_memo"] = (np.full(1 << 17, EMPTY, dtype=np.int64), np.zeros(1 << 17, dtype=np.int64),
                                          np.zeros(1, dtype=np.int64))
    expanded = 0
    for a in attacks:
        A = _attack_tables(k, a)
        expanded += len(P)
        cap = 1 << max(10, (2 * len(P) * A["G"].shape[0]).bit_length())
        keys = np.full(cap, EMPTY, dtype=np.int64)
        vals = np.zeros(cap, dtype=np.int64)
        n = _layer(P, W, keys, vals, S["full"], A["kind"], A["G"], A["lm"], A["olow"], A["bc"], A["bfree"],
                   S["bfield"], S["boff"], S["btile"], S["cover"], S["bshield"], S["bnear"], S["adjb"], S["humb"],
                   S["ones"], *memo)
        P, W = _compact(keys, vals, n)
    return dict(zip(P.tolist(), W.tolist())), expanded

