"""The flight track: moves counting empty spaces, flight order, the weakest ship.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.jit.jit`).
"""

from __future__ import annotations

from shipcheck.jit import jit

from .layout import OFF


@jit(inline=True)
def _taken(pos, out, mover, lo, hi, L):  # type: ignore[no-untyped-def]
    """The spaces of ``lo + 1 .. hi`` the others flying stand on, a lap of ``L`` spaces apart."""
    cnt = 0
    for q in range(pos.shape[0]):
        if out[q] == 0 and q != mover:
            a = lo - pos[q]
            b = hi - pos[q]
            if -L < a < L and -L < b < L:  # within a lap: b // L - a // L without dividing
                cnt += (1 if a < 0 else 0) - (1 if b < 0 else 0)
            else:
                cnt += b // L - a // L
    return cnt


@jit(inline=True)
def move(pos, out, mover, k, L):  # type: ignore[no-untyped-def]
    """track.move for one mover: ``k`` empty spaces (negative: back)."""
    if k == 0:
        return
    p0 = pos[mover]
    q = p0 + k
    for _ in range(pos.shape[0] + 2):
        if k > 0:
            nq = p0 + k + _taken(pos, out, mover, p0, q, L)
        else:
            nq = p0 + k - _taken(pos, out, mover, q - 1, p0 - 1, L)
        if nq == q:
            break
        q = nq
    pos[mover] = q


@jit(inline=True)
def order_of(pos, on, order):  # type: ignore[no-untyped-def]
    """track.flight_order: players by position, the leader first, absent ones last; the count on."""
    P = pos.shape[0]
    cnt = 0
    for i in range(P):
        order[i] = i
    for i in range(1, P):
        j = i
        while j > 0:
            a, b = order[j - 1], order[j]
            ka = pos[a] if on[a] else OFF
            kb = pos[b] if on[b] else OFF
            if kb > ka:
                order[j - 1], order[j] = b, a
                j -= 1
            else:
                break
    for i in range(P):
        if on[i]:
            cnt += 1
    return cnt


@jit
def move_many(pos, out, movers, steps, L, order, on):  # type: ignore[no-untyped-def]
    """Race.move_many: gains front-most first, then losses rearmost first."""
    P = pos.shape[0]
    for phase in range(2):
        any_ = False
        for p in range(P):
            if movers[p] and ((phase == 0 and steps[p] > 0) or (phase == 1 and steps[p] < 0)):
                any_ = True
        if not any_:
            continue
        for p in range(P):
            on[p] = out[p] == 0
        cnt = order_of(pos, on, order)
        for r in range(cnt):
            p = order[cnt - 1 - r] if phase == 1 else order[r]
            if movers[p] and ((phase == 0 and steps[p] > 0) or (phase == 1 and steps[p] < 0)):
                move(pos, out, p, steps[p], L)


@jit(inline=True)
def flying_in_order(pos, out, hh, order, on, movers, steps):  # type: ignore[no-untyped-def]
    """A card's start: the players present (flying, not in hyperspace: ``hh[0]``) in flight order
    (``order``, ``on``), nobody moving yet; returns how many there are."""
    for p in range(pos.shape[0]):
        on[p] = out[p] == 0 and hh[0, p] == 0
        movers[p] = 0
        steps[p] = 0
    return order_of(pos, on, order)


@jit(inline=True)
def weakest(values, pos, present, skip):  # type: ignore[no-untyped-def]
    best = -1
    for p in range(values.shape[0]):
        if not present[p] or p == skip:
            continue
        if best < 0 or values[p] < values[best] or (values[p] == values[best] and pos[p] > pos[best]):
            best = p
    return best
