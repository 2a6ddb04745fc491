"""The flight track: moves counting empty spaces, flight order, the weakest ship.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit

from .layout import F_HH, F_MOVERS, F_ON, F_ORDER, F_OUT, F_POS, F_STEPS, F_VALUES, OFF


@jit(inline=True)
def _taken(F, mover, lo, hi, L):  # type: ignore[no-untyped-def]
    """The spaces of ``lo + 1 .. hi`` the others flying stand on, a lap of ``L`` spaces apart."""
    cnt = 0
    for q in range(F.shape[1]):
        if F[F_OUT, q] == 0 and q != mover:
            a = lo - F[F_POS, q]
            b = hi - F[F_POS, q]
            if -L < a < L and -L < b < L:  # within a lap: b // L - a // L without dividing
                cnt += (1 if a < 0 else 0) - (1 if b < 0 else 0)
            else:
                cnt += b // L - a // L
    return cnt


@jit(inline=True)
def move(F, mover, k, L):  # type: ignore[no-untyped-def]
    """track.move for one mover of the run's rows ``F`` (layout.F_*): ``k`` empty spaces (negative:
    back)."""
    if k == 0:
        return
    p0 = F[F_POS, mover]
    q = p0 + k
    for _ in range(F.shape[1] + 2):
        if k > 0:
            nq = p0 + k + _taken(F, mover, p0, q, L)
        else:
            nq = p0 + k - _taken(F, mover, q - 1, p0 - 1, L)
        if nq == q:
            break
        q = nq
    F[F_POS, mover] = q


@jit(inline=True)
def order_of(F):  # type: ignore[no-untyped-def]
    """track.flight_order: players by position (``F[F_POS]``), the leader first, absent ones
    (``F[F_ON]``) last, into ``F[F_ORDER]``; the count on."""
    P = F.shape[1]
    cnt = 0
    for i in range(P):
        F[F_ORDER, i] = i
    for i in range(1, P):
        j = i
        while j > 0:
            a, b = F[F_ORDER, j - 1], F[F_ORDER, j]
            ka = F[F_POS, a] if F[F_ON, a] else OFF
            kb = F[F_POS, b] if F[F_ON, b] else OFF
            if kb > ka:
                F[F_ORDER, j - 1], F[F_ORDER, j] = b, a
                j -= 1
            else:
                break
    for i in range(P):
        if F[F_ON, i]:
            cnt += 1
    return cnt


@jit(inline=True)
def move_many(F, L):  # type: ignore[no-untyped-def]
    """Race.move_many for the run's rows ``F`` (layout.F_*): the players ``F[F_MOVERS]`` move
    ``F[F_STEPS]``, gains front-most first, then losses rearmost first (no call when none moves: an
    enemy nobody beats, a planet nobody lands on; the moves are long code)."""
    for p in range(F.shape[1]):
        if F[F_MOVERS, p] and F[F_STEPS, p] != 0:
            _move_many(F, L)
            return


@jit
def _move_many(F, L):  # type: ignore[no-untyped-def]
    P = F.shape[1]
    for phase in range(2):
        any_ = False
        for p in range(P):
            if F[F_MOVERS, p] and ((phase == 0 and F[F_STEPS, p] > 0) or (phase == 1 and F[F_STEPS, p] < 0)):
                any_ = True
        if not any_:
            continue
        for p in range(P):
            F[F_ON, p] = F[F_OUT, p] == 0
        cnt = order_of(F)
        for r in range(cnt):
            p = F[F_ORDER, cnt - 1 - r] if phase == 1 else F[F_ORDER, r]
            if F[F_MOVERS, p] and ((phase == 0 and F[F_STEPS, p] > 0) or (phase == 1 and F[F_STEPS, p] < 0)):
                move(F, p, F[F_STEPS, p], L)


@jit(inline=True)
def flying_in_order(F):  # type: ignore[no-untyped-def]
    """A card's start: the players present (flying, not in hyperspace: ``F[F_HH]``) in flight order
    (``F[F_ORDER]``, ``F[F_ON]``), nobody moving yet (``F[F_MOVERS]``, ``F[F_STEPS]``); returns how
    many there are."""
    for p in range(F.shape[1]):
        F[F_ON, p] = F[F_OUT, p] == 0 and F[F_HH, p] == 0
        F[F_MOVERS, p] = 0
        F[F_STEPS, p] = 0
    return order_of(F)


@jit(inline=True)
def weakest(F, skip):  # type: ignore[no-untyped-def]
    """The player on (``F[F_ON]``), other than ``skip``, with the lowest ``F[F_VALUES]`` (ties: the
    one ahead)."""
    best = -1
    for p in range(F.shape[1]):
        if not F[F_ON, p] or p == skip:
            continue
        if (best < 0 or F[F_VALUES, p] < F[F_VALUES, best]
                or (F[F_VALUES, p] == F[F_VALUES, best] and F[F_POS, p] > F[F_POS, best])):
            best = p
    return best
