"""Goods: what fits, loading, losing them.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit

from .charges import draw
from .layout import (
    ADJ,
    ANY,
    BATCAP,
    BATHOLD,
    BATTILE,
    FN,
    FS,
    FURTILE,
    GAIN,
    HOLDBAT,
    HOLDNORM,
    HOLDSPEC,
    HOLDTILE,
    KIND,
    LOAD,
    NBAT,
    NFUR,
    NHOLD,
    OFFS,
    V,
)


@jit(inline=True)
def room(x, mask, och, tile, bat, norm, spec):  # type: ignore[no-untyped-def]
    """ShipModel.hold_room of a hold, from its entries in the rows HOLDTILE, HOLDBAT, HOLDNORM and
    HOLDSPEC (the callers read each row once: as plain Python an element of a row costs less than
    of the table), ``mask`` the tiles aboard, ``och`` the row's first charge: (ordinary, special)
    slots."""
    if not (mask >> tile) & 1:
        return 0, 0
    if bat >= 0:
        return max(0, norm - x[och + bat]), spec
    return norm, spec


@jit(inline=True)
def _goods_in(S, p, x, within, cnt):  # type: ignore[no-untyped-def]
    # summed in locals, stored once: as plain Python each store in ``cnt`` costs as much as a sum
    o = S[0, OFFS, 2]
    c0 = c1 = c2 = c3 = 0
    tiles = S[p, HOLDTILE]
    for h in range(S[p, V, NHOLD]):
        if (within >> tiles[h]) & 1:
            c0 += x[o]
            c1 += x[o + 1]
            c2 += x[o + 2]
            c3 += x[o + 3]
        o += 4
    cnt[0], cnt[1], cnt[2], cnt[3] = c0, c1, c2, c3


@jit(inline=True)
def _goods_both(S, p, x, aboard, every):  # type: ignore[no-untyped-def]
    # goods_counts into ``aboard`` and goods_total into ``every`` in one pass over the holds
    o = S[0, OFFS, 2]
    mask = x[0]
    a0 = a1 = a2 = a3 = 0
    e0 = e1 = e2 = e3 = 0
    tiles = S[p, HOLDTILE]
    for h in range(S[p, V, NHOLD]):
        g0, g1, g2, g3 = x[o], x[o + 1], x[o + 2], x[o + 3]
        e0 += g0
        e1 += g1
        e2 += g2
        e3 += g3
        if (mask >> tiles[h]) & 1:
            a0 += g0
            a1 += g1
            a2 += g2
            a3 += g3
        o += 4
    aboard[0], aboard[1], aboard[2], aboard[3] = a0, a1, a2, a3
    every[0], every[1], every[2], every[3] = e0, e1, e2, e3


@jit(inline=True)
def goods_counts(S, p, x, cnt):  # type: ignore[no-untyped-def]
    """The goods of each colour in the holds aboard, into ``cnt``."""
    _goods_in(S, p, x, x[0], cnt)


@jit(inline=True)
def goods_total(S, p, x, cnt):  # type: ignore[no-untyped-def]
    """The goods of each colour aboard and in a half away in hyperspace (they come back), into ``cnt``."""
    _goods_in(S, p, x, x[0] | -1, cnt)


@jit
def space(S, p, x):  # type: ignore[no-untyped-def]
    """The slots of the holds aboard: (special, all)."""
    sp = 0
    tot = 0
    mask, och = x[0], S[0, OFFS, 0]
    tiles, bats, norms, specs = S[p, HOLDTILE], S[p, HOLDBAT], S[p, HOLDNORM], S[p, HOLDSPEC]
    for h in range(S[p, V, NHOLD]):
        a, b = room(x, mask, och, tiles[h], bats[h], norms[h], specs[h])
        sp += b
        tot += a + b
    return sp, tot


@jit(inline=True)
def fit_in(sp, tot, cnt, keep):  # type: ignore[no-untyped-def]
    """ShipModel.fit as counts per colour, into holds of ``sp`` special slots of ``tot`` (:func:`space`)."""
    keep[0] = min(cnt[0], sp)
    rest = max(0, tot - keep[0])
    for c in range(1, 4):
        keep[c] = min(cnt[c], rest)
        rest -= keep[c]


@jit
def fit(S, p, x, cnt, keep):  # type: ignore[no-untyped-def]
    """ShipModel.fit as counts per colour."""
    sp, tot = space(S, p, x)
    fit_in(sp, tot, cnt, keep)


@jit(inline=True)
def value_of(cnt, prices):  # type: ignore[no-untyped-def]
    v = 0
    for c in range(4):
        v += cnt[c] * prices[c]
    return v


@jit
def gain(S, p, x, new, prices, tmp):  # type: ignore[no-untyped-def]
    """View.gain: what the cargo gains in value by loading ``new`` (counts per colour)."""
    goods_counts(S, p, x, tmp[GAIN:GAIN + 4])
    sp, tot = space(S, p, x)
    return gain_in(sp, tot, new, prices, tmp)


@jit
def gain_in(sp, tot, new, prices, tmp):  # type: ignore[no-untyped-def]
    """:func:`gain` for the cargo ``tmp[GAIN:GAIN + 4]`` (:func:`goods_counts`) in holds of
    :func:`space` ``sp``, ``tot``: for several loads weighed against the same ship."""
    old = tmp[GAIN:GAIN + 4]
    pool = tmp[GAIN + 4:GAIN + 8]
    keep = tmp[GAIN + 8:GAIN + 12]
    for c in range(4):
        pool[c] = old[c] + new[c]
    fit_in(sp, tot, pool, keep)
    return value_of(keep, prices) - value_of(old, prices)


@jit
def arrange(S, p, x, keep, tmp):  # type: ignore[no-untyped-def]
    ogd = S[0, OFFS, 2]
    nh = S[p, V, NHOLD]
    fn = tmp[FN:FN + 64]
    fs = tmp[FS:FS + 64]
    mask, och = x[0], S[0, OFFS, 0]
    tiles, bats, norms, specs = S[p, HOLDTILE], S[p, HOLDBAT], S[p, HOLDNORM], S[p, HOLDSPEC]
    for h in range(nh):
        fn[h], fs[h] = room(x, mask, och, tiles[h], bats[h], norms[h], specs[h])
        if (mask >> tiles[h]) & 1:  # a half away keeps its goods
            for c in range(4):
                x[ogd + 4 * h + c] = 0
    # each good into the first hold with an ordinary slot left (red: a special one), else the
    # first with a special slot left; slots are only taken, so the first hold with one left only
    # moves on (hn, hs)
    hn = 0
    hs = 0
    for c in range(4):
        for _ in range(keep[c]):
            h = -1
            if c != 0:
                while hn < nh and fn[hn] <= 0:
                    hn += 1
                if hn < nh:
                    h = hn
                    fn[hn] -= 1
            if h < 0:
                while hs < nh and fs[hs] <= 0:
                    hs += 1
                if hs >= nh:
                    continue
                h = hs
                fs[hs] -= 1
            x[ogd + 4 * h + c] += 1


@jit
def load(S, p, x, new, tmp, prov):  # type: ignore[no-untyped-def]
    """ShipModel.load (reactor furnaces included); the goods that came aboard get the card type
    being played (``tmp[KIND]``) as their provenance in ``prov`` (Race.apply's bookkeeping)."""
    och, ogd = S[0, OFFS, 0], S[0, OFFS, 2]
    mask = x[0]
    pool = tmp[LOAD:LOAD + 4]
    keep = tmp[LOAD + 4:LOAD + 8]
    before = tmp[LOAD + 8:LOAD + 12]
    _goods_both(S, p, x, pool, before)
    for c in range(4):
        pool[c] += new[c]
    fit(S, p, x, pool, keep)
    left = 0
    for c in range(4):
        left += pool[c] - keep[c]
    for fi in range(S[p, V, NFUR]):
        f = S[p, FURTILE, fi]
        if not (mask >> f) & 1 or left == 0:
            continue
        for i in range(S[p, V, NBAT]):
            k = S[p, BATTILE, i]
            if (mask >> k) & 1 and (S[p, ADJ, f] >> k) & 1:
                cap = S[p, BATCAP, i]
                hh = S[p, BATHOLD, i]
                if hh >= 0:
                    for c in range(4):
                        cap -= x[ogd + 4 * hh + c]
                if x[och + i] < cap:
                    x[och + i] = cap
                    left -= 1
                    break
    arrange(S, p, x, keep, tmp)
    after = tmp[GAIN:GAIN + 4]
    goods_total(S, p, x, after)
    for c in range(4):
        for i in range(before[c], after[c]):
            prov[p, c, i] = tmp[KIND]


@jit
def lose_goods(S, p, x, n):  # type: ignore[no-untyped-def]
    """Lose the ``n`` most valuable goods aboard (hold by hold in grid order); for what is missing,
    battery charges (rules §9.4)."""
    ogd = S[0, OFFS, 2]
    mask = x[0]
    left = n
    while left:
        found = False
        for c in range(4):
            for h in range(S[p, V, NHOLD]):
                if (mask >> S[p, HOLDTILE, h]) & 1 and x[ogd + 4 * h + c] > 0:
                    x[ogd + 4 * h + c] -= 1
                    found = True
                    break
            if found:
                break
        if not found:
            break
        left -= 1
    for _ in range(left):
        if draw(S, p, x, ANY) < 0:
            break
