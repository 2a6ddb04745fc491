"""Battery charges: drawing them hull by hull, and the cyan Techie's free charge.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit

from .crew import alien_tile
from .layout import BATTILE, CYAN, GIDX, MULTI, NBAT, NONE, OFFS, SPEC, SPENT, TECHIE, V


@jit(inline=True)
def _allowed(S, p, i, h):  # type: ignore[no-untyped-def]
    return h == -1 or (h >= 0 and (not S[p, V, MULTI] or S[p, GIDX, S[p, BATTILE, i]] == h))


@jit(inline=True)
def first_charged(S, p, x, h):  # type: ignore[no-untyped-def]
    """The first battery aboard of hull ``h`` holding a charge, or -1."""
    och = S[0, OFFS, 0]
    mask = x[0]
    for i in range(S[p, V, NBAT]):
        if x[och + i] > 0 and (mask >> S[p, BATTILE, i]) & 1 and _allowed(S, p, i, h):
            return i
    return -1


@jit(inline=True)
def draw(S, p, x, h):  # type: ignore[no-untyped-def]
    """Take one charge from the first charged battery aboard of hull ``h``; the battery or -1."""
    i = first_charged(S, p, x, h)
    if i >= 0:
        x[S[0, OFFS, 0] + i] -= 1
    return i


@jit(inline=True)
def charged(S, p, x, h):  # type: ignore[no-untyped-def]
    """ShipModel._left: a charge left in hull ``h``."""
    return first_charged(S, p, x, h) >= 0


@jit(inline=True)
def charges_in(S, p, x):  # type: ignore[no-untyped-def]
    och = S[0, OFFS, 0]
    mask = x[0]
    t = 0
    for i in range(S[p, V, NBAT]):
        if (mask >> S[p, BATTILE, i]) & 1:
            t += x[och + i]
    return t


@jit(inline=True)
def all_charges(S, p, x):  # type: ignore[no-untyped-def]
    och = S[0, OFFS, 0]
    t = 0
    for i in range(S[p, V, NBAT]):
        t += x[och + i]
    return t


@jit(inline=True)
def techie_hull(S, p, x):  # type: ignore[no-untyped-def]
    """ShipModel.techie_hull as a hull index, or NONE."""
    if S[p, V, SPEC] != TECHIE or x[SPENT]:
        return NONE
    k = alien_tile(S, p, x, CYAN)
    if k < 0:
        return NONE
    h = S[p, GIDX, k]
    return h if charged(S, p, x, h) else NONE


@jit(inline=True)
def free_charge(S, p, x):  # type: ignore[no-untyped-def]
    return 0 if techie_hull(S, p, x) == NONE else 1


@jit(inline=True)
def hull_charges(S, p, x, h):  # type: ignore[no-untyped-def]
    och = S[0, OFFS, 0]
    mask = x[0]
    t = 0
    for i in range(S[p, V, NBAT]):
        if (mask >> S[p, BATTILE, i]) & 1 and _allowed(S, p, i, h):
            t += x[och + i]
    return t


@jit(inline=True)
def lend(S, p, x):  # type: ignore[no-untyped-def]
    """ShipModel.lend: the battery the Techie's free charge is lent to, or -1."""
    h = techie_hull(S, p, x)
    if h == NONE:
        return -1
    i = first_charged(S, p, x, h)
    if i >= 0:
        x[S[0, OFFS, 0] + i] += 1
    return i


@jit(inline=True)
def settle(S, p, x, i, before):  # type: ignore[no-untyped-def]
    """ShipModel.settle: ``before`` is the Techie's half's charges once lent (no battery lost since)."""
    if i < 0:
        return
    if hull_charges(S, p, x, S[p, GIDX, S[p, BATTILE, i]]) < before:
        x[SPENT] = 1
    else:
        x[S[0, OFFS, 0] + i] -= 1


@jit(inline=True)
def lent_charges(S, p, x, i):  # type: ignore[no-untyped-def]
    return 0 if i < 0 else hull_charges(S, p, x, S[p, GIDX, S[p, BATTILE, i]])
