"""Crew: humans and aliens aboard, sleepers waking, crew lost to a card, an epidemic, the Diplomat.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit

from .bits import low_bit
from .decide import asked, python
from .layout import (
    ADJ,
    ALIEN,
    ALMASK,
    ANY,
    CABIN,
    CABMASK,
    CYAN,
    D_CREW,
    D_DIPLOMAT,
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
    ORDER,
    SPEC,
    WAKE_PLACES,
    V,
)


@jit(inline=True)
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


@jit(inline=True)
def manned(S, p, x, h):  # type: ignore[no-untyped-def]
    """Whether :func:`humans` is above 0, stopping at the first cabin with a human: for the check
    after every card and attack whether a ship (or half) is left without humans."""
    ocr = S[0, OFFS, 1]
    m = x[0] & S[p, V, CABMASK]
    while m:
        k = low_bit(m)
        m &= m - 1
        if x[ocr + k] > 0 and (h < 0 or S[p, GIDX, k] == h):
            return True
    return False


@jit(inline=True)
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


@jit(inline=True)
def bonus_alien(S, p, x, col):  # type: ignore[no-untyped-def]
    k = alien_tile(S, p, x, col)
    if k >= 0 and S[p, ADJ, k] & S[p, V, LIFE + col] & x[0]:
        return k
    return -1


@jit(inline=True)
def has(S, p, x, spec):  # type: ignore[no-untyped-def]
    return S[p, V, SPEC] == spec and alien_tile(S, p, x, CYAN) >= 0


@jit(inline=True)
def manager_with(S, p, x, alien):  # type: ignore[no-untyped-def]
    """ShipModel.manager_with: the Manager aboard, on IIA in the half of the alien in cabin ``alien``."""
    if S[p, V, SPEC] != MANAGER:
        return False
    k = alien_tile(S, p, x, CYAN)
    return k >= 0 and (not S[p, V, MULTI] or S[p, GIDX, k] == S[p, GIDX, alien])


@jit
def wake(S, p, x):  # type: ignore[no-untyped-def]
    """Sleepers woken after a crew loss (contract §4): per hull that still holds an awake human,
    into the empty places of its ordinary cabins and pilot cabin (2 each; a cabin an alien left
    counts as empty, a luxury cabin never), cabins and chambers in grid order. The caller decides
    that a crew loss happened."""
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
def crew_order_default(S, p, x, tmp):  # type: ignore[no-untyped-def]
    """The default order crew is lost in (contract §5), into ``tmp[ORDER + ...]``: the cabins aboard
    holding humans in grid order, then those holding an alien. Returns how many."""
    ocr = S[0, OFFS, 1]
    cabins = x[0] & S[p, V, CABMASK]
    m = 0
    for phase in range(2):
        rest = cabins
        while rest:  # in grid order
            k = low_bit(rest)
            rest &= rest - 1
            c = x[ocr + k]
            if (phase == 0 and c > 0) or (phase == 1 and c == ALIEN):
                tmp[ORDER + m] = k
                m += 1
    return m


@jit
def lose_crew_in(S, p, x, n, tmp, m):  # type: ignore[no-untyped-def]
    """Lose ``n`` crew from the tiles ``tmp[ORDER:ORDER + m]`` in order, each emptied before the
    next (humans one by one, an alien at once); if short, all there is. Sleepers then wake."""
    ocr = S[0, OFFS, 1]
    mask = x[0]
    left = n
    for i in range(m):
        k = tmp[ORDER + i]
        while left and (mask >> k) & 1 and x[ocr + k] != 0:
            x[ocr + k] = 0 if x[ocr + k] == ALIEN else x[ocr + k] - 1
            left -= 1
    if left != n:
        wake(S, p, x)


@jit
def lose_crew_default(S, p, x, n, tmp):  # type: ignore[no-untyped-def]
    """Lose ``n`` crew in the default order."""
    lose_crew_in(S, p, x, n, tmp, crew_order_default(S, p, x, tmp))


@jit
def lose_crew(S, p, x, n, tmp):  # type: ignore[no-untyped-def]
    """Player ``p`` loses ``n`` crew in the order its policy chooses (decision ``crew_order``)."""
    if asked(S, p, D_CREW):
        m = python(S, p, D_CREW, x, n, 0, 0, tmp)
    else:
        m = crew_order_default(S, p, x, tmp)
    lose_crew_in(S, p, x, n, tmp, m)


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
def diplomat(S, p, x, pen, c, tmp):  # type: ignore[no-untyped-def]
    """The cyan Diplomat used against penalty ``pen`` (0 days, 1 crew, 2 goods, 3 shots) of card
    ``c``, if aboard and the policy says so (built in: against crew and shots): he leaves the ship
    (one crew member fewer; sleepers wake). Whether he was used."""
    if not has(S, p, x, DIPLOMAT):
        return False
    if asked(S, p, D_DIPLOMAT):
        if not python(S, p, D_DIPLOMAT, x, c, pen, 0, tmp):
            return False
    elif pen != 1 and pen != 3:
        return False
    k = alien_tile(S, p, x, CYAN)
    x[S[0, OFFS, 1] + k] = 0
    wake(S, p, x)
    return True
