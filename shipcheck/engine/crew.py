"""Crew: humans and aliens aboard, sleepers waking, crew lost to a card, an epidemic, the Diplomat.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.jit.jit`).
"""

from __future__ import annotations

from shipcheck.jit import jit

from .bits import low_bit
from .layout import (
    ADJ,
    ALIEN,
    ALMASK,
    ANY,
    CABIN,
    CABMASK,
    CYAN,
    DIPLOMAT,
    EPI,
    GIDX,
    HCAB,
    HCHM,
    HTGT,
    LIFE,
    MANAGER,
    MULTI,
    N_,
    NHULL,
    OFFS,
    SPEC,
    WAKE_PLACES,
    V,
)


@jit
def humans(S, p, x, h):  # type: ignore[no-untyped-def]
    """ShipModel.humans (``h`` a hull index, -1 all)."""
    ocr = S[0, OFFS, 1]
    m = x[0] & S[p, V, CABMASK]
    t = 0
    while m:
        k = low_bit(m)
        m &= m - 1
        c = x[ocr + k]
        if c > 0 and (h < 0 or S[p, GIDX, k] == h):
            t += c
    return t


@jit
def alien_tile(S, p, x, col):  # type: ignore[no-untyped-def]
    """The cabin ShipModel.aliens gives for ``col`` (the last one), or -1."""
    ocr = S[0, OFFS, 1]
    m = x[0] & S[p, V, ALMASK + col]
    out = -1
    while m:
        k = low_bit(m)
        m &= m - 1
        if x[ocr + k] == ALIEN:
            out = k
    return out


@jit
def alien_colours(S, p, x):  # type: ignore[no-untyped-def]
    n = 0
    for col in range(3):
        if alien_tile(S, p, x, col) >= 0:
            n += 1
    return n


@jit
def crew_count(S, p, x):  # type: ignore[no-untyped-def]
    return humans(S, p, x, ANY) + alien_colours(S, p, x)


@jit
def bonus_alien(S, p, x, col):  # type: ignore[no-untyped-def]
    k = alien_tile(S, p, x, col)
    if k >= 0 and S[p, ADJ, k] & S[p, V, LIFE + col] & x[0]:
        return k
    return -1


@jit
def has(S, p, x, spec):  # type: ignore[no-untyped-def]
    return S[p, V, SPEC] == spec and alien_tile(S, p, x, CYAN) >= 0


@jit
def manager_with(S, p, x, alien):  # type: ignore[no-untyped-def]
    """ShipModel.manager_with: the Manager aboard, on IIA in the half of the alien in cabin ``alien``."""
    if S[p, V, SPEC] != MANAGER:
        return False
    k = alien_tile(S, p, x, CYAN)
    return k >= 0 and (not S[p, V, MULTI] or S[p, GIDX, k] == S[p, GIDX, alien])


@jit
def wake(S, p, x):  # type: ignore[no-untyped-def]
    """FlightModel.wake on the row's mask."""
    ocr = S[0, OFFS, 1]
    mask = x[0]
    n = S[p, V, N_]
    for h in range(S[p, V, NHULL]):
        chm = S[p, HCHM, h]
        if chm == 0:
            continue
        cab = S[p, HCAB, h]
        awake = False
        for k in range(n):
            if (cab >> k) & 1 and (mask >> k) & 1 and x[ocr + k] > 0:
                awake = True
                break
        if not awake:
            continue
        tgt = S[p, HTGT, h]
        for k in range(n):
            if not (tgt >> k) & 1 or not (mask >> k) & 1 or x[ocr + k] < 0:
                continue
            for s in range(n):
                if not (chm >> s) & 1:
                    continue
                while x[ocr + k] < WAKE_PLACES and (mask >> s) & 1 and x[ocr + s] > 0:
                    x[ocr + k] += 1
                    x[ocr + s] -= 1


@jit
def lose_crew(S, p, x, n):  # type: ignore[no-untyped-def]
    """ShipModel.lose_crew in the default crew order (humans cabin by cabin, aliens last)."""
    ocr = S[0, OFFS, 1]
    mask = x[0]
    left = n
    for phase in range(2):
        for k in range(S[p, V, N_]):
            if not S[p, CABIN, k]:
                continue
            c = x[ocr + k]
            if (phase == 0 and c <= 0) or (phase == 1 and c != ALIEN):
                continue
            while left and (mask >> k) & 1 and x[ocr + k] != 0:
                x[ocr + k] = 0 if x[ocr + k] == ALIEN else x[ocr + k] - 1
                left -= 1
    if left != n:
        wake(S, p, x)


@jit
def epidemic(S, p, x):  # type: ignore[no-untyped-def]
    ocr = S[0, OFFS, 1]
    mask = x[0]
    n = S[p, V, N_]
    occupied = 0
    for k in range(n):
        if S[p, CABIN, k] and (mask >> k) & 1 and x[ocr + k] != 0:
            occupied |= 1 << k
    hit = 0
    for k in range(n):
        if (occupied >> k) & 1 and S[p, EPI, k] & occupied:
            hit |= 1 << k
    if hit == 0:
        return
    for k in range(n):
        if (hit >> k) & 1:
            x[ocr + k] = 0 if x[ocr + k] == ALIEN else x[ocr + k] - 1
    wake(S, p, x)


@jit
def diplomat(S, p, x, pen):  # type: ignore[no-untyped-def]
    """RoundPolicy.diplomat for the built-in policies (crew and shots), played: the Diplomat leaves
    (ShipModel.dismiss_diplomat). Whether he was used."""
    if (pen != 1 and pen != 3) or not has(S, p, x, DIPLOMAT):
        return False
    k = alien_tile(S, p, x, CYAN)
    x[S[0, OFFS, 1] + k] = 0
    wake(S, p, x)
    return True
