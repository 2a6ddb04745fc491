"""Meteors and shots: which tile a roll reaches, how the player defends it, what is destroyed.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.jit.jit`).
"""

from __future__ import annotations

from shipcheck.jit import jit

from .bits import high_bit, low_bit
from .charges import draw, lend, lent_charges, settle
from .hull import destroy
from .layout import (
    ADJ,
    BOOSTABLE,
    BOOSTERS,
    BRG,
    BRGFREE,
    COVER,
    GIDX,
    GMASK,
    LARGE,
    LIGHT,
    LINEM,
    LMAX,
    MULTI,
    N_,
    OCELL,
    OFFS,
    OLINES,
    ONL,
    OSIDE,
    OTOL,
    SMALL,
    VULN,
    V,
    _i,
)


@jit
def _boosted(S, p, mask, shields):  # type: ignore[no-untyped-def]
    s_all = shields & S[p, V, BOOSTABLE]
    for s in range(S[p, V, N_]):
        if (s_all >> s) & 1 and S[p, ADJ, s] & S[p, V, BOOSTERS] & mask:
            return True
    return False


@jit
def flight_step(S, p, x, kind, d, roll, buf):  # type: ignore[no-untyped-def]
    """Kernel.play for the outcome of dice pair ``roll`` of an attack of ``kind`` from direction ``d``
    (ShipModel.flight_step: the Techie's free charge lent to the defence)."""
    if S[p, ONL + d, S[p, OCELL + d, roll]] == 0:
        return
    i = lend(S, p, x)
    before = lent_charges(S, p, x, i)
    destroyed = defend(S, p, x, kind, d, roll)
    settle(S, p, x, i, before)
    if destroyed:
        destroy(S, p, x, _i(destroyed), buf)


@jit
def defend(S, p, x, kind, d, roll):  # type: ignore[no-untyped-def]
    """The defence against a roll, charges spent: the tiles it leaves to be destroyed."""
    o = S[p, OCELL + d, roll]
    nl = S[p, ONL + d, o]
    side = S[p, OSIDE + d, o]
    tol = S[p, OTOL + d, o]
    mask = x[0]
    vul = S[p, VULN + kind, side]
    hits = 0
    nh = 0
    hl0 = -1
    hl1 = -1
    hk0 = -1
    hk1 = -1
    for li in range(nl):
        line = S[p, OLINES + 4 * d + li, o]
        lm = S[p, LINEM + side, line] & mask
        if lm == 0:
            continue
        k = low_bit(lm) if (side == 0 or side == 3) else high_bit(lm)
        if (vul >> k) & 1:
            if nh == 0:
                hl0, hk0 = line, k
            else:
                hl1, hk1 = line, k
            hits |= 1 << k
            nh += 1
    if nh == 0:
        return 0
    multi = S[p, V, MULTI]
    if multi:
        g0 = S[p, GIDX, hk0]
        if nh == 1 or S[p, GIDX, hk1] == g0:
            hull = g0
            shields = S[p, COVER, side] & S[p, GMASK, g0] & mask
        else:
            hull = -2
            shields = 0
    else:
        hull = -1
        shields = S[p, COVER, side] & mask
    if kind == SMALL or kind == LIGHT:
        if shields and draw(S, p, x, _i(hull)) >= 0:
            return 0
        destroyed = hits
    else:
        open_hits = 0
        if kind == LARGE:
            used = 0
            for i in range(nh):
                line = hl0 if i == 0 else hl1
                k = hk0 if i == 0 else hk1
                shot = -1
                brow = BRG + side * 2 * LMAX + tol * LMAX + line
                for j in range(S.shape[2]):
                    c = S[p, brow, j]
                    if c < 0:
                        break
                    if (used >> c) & 1 or not (mask >> c) & 1:
                        continue
                    if S[p, brow + BRGFREE, j]:
                        shot = c
                        break
                    if draw(S, p, x, _i(S[p, GIDX, c] if multi else -1)) >= 0:
                        shot = c
                        break
                if shot >= 0:
                    used |= 1 << shot
                else:
                    open_hits |= 1 << k
        else:
            open_hits = hits
        if open_hits and _boosted(S, p, mask, shields):
            b1 = draw(S, p, x, _i(hull))
            if b1 >= 0:
                if draw(S, p, x, _i(hull)) >= 0:
                    open_hits = 0
                else:
                    x[S[0, OFFS, 0] + b1] += 1
        destroyed = open_hits
    return destroyed
