"""Tiles and losses: what is destroyed, the pieces that fall off, the crew that goes with them, exposed
connectors, a IIA half leaving the flight.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit
from shipcheck.topology import exposed_connectors

from .bits import low_bit, popcount
from .charges import draw, lend, lent_charges, settle
from .crew import wake
from .layout import (
    ACROSS,
    ADJ,
    ALIEN,
    ALIENTILES,
    ANY,
    AWAY,
    BATTILE,
    CABMASK,
    CONNS,
    CREWTILES,
    EBTILE,
    ENGDBL,
    ENGTILE,
    GIDX,
    GMASK,
    HOLDTILE,
    MULTI,
    N_,
    NBAT,
    NEB,
    NENG,
    NHOLD,
    NHULL,
    OFFS,
    SAVE2,
    SUPPORTS,
    V,
    _i,
)

#: the rule of an exposed connector, shared with the checker (its one home is in the geometry layer,
#: compiled here with the engine)
_exposed_on = jit(exposed_connectors, inline=True, module=__name__)


@jit
def lost(S, p, x):  # type: ignore[no-untyped-def]
    """Components that left the ship in flight (not halves that left the flight or wait in hyperspace)."""
    return lost_words(S, p, x[0], x[1], x[AWAY])


@jit(inline=True)
def lost_words(S, p, mask, left, away):  # type: ignore[no-untyped-def]
    """:func:`lost` from the row's words ``mask`` (``x[0]``), ``left`` (``x[1]``) and ``away``
    (``x[AWAY]``): for the per-card loops, which need no row view for it (a view costs reference
    counting)."""
    return popcount(lost_tiles(S, p, mask, left, away))


@jit(inline=True)
def lost_tiles(S, p, mask, left, away):  # type: ignore[no-untyped-def]
    """The components lost in flight, a bit per tile: those neither aboard (``mask``) nor in a half
    that left the flight (``left``) or waits in hyperspace (``away``). What :func:`lost` counts,
    and what the per-tile chances of a loss (rounds, exact odds, Monte Carlo) read."""
    return ((_i(1) << S[p, V, N_]) - 1) & ~mask & ~left & ~away


@jit
def exposed(S, p, x):  # type: ignore[no-untyped-def]
    """Exposed connectors of the tiles aboard (stardust, the best-looking ship): per side, the rule's
    own function (:func:`shipcheck.topology.exposed_connectors`) over the tiles aboard, their
    connectors on that side and those with a tile aboard across it. Which tiles have a tile aboard
    across a side is worked out from the tiles not aboard, few against the tiles aboard: those with
    a tile across it, less those across from a tile not aboard (an empty square or the board's
    edge, a tile lost, one of a half that left or waits in hyperspace)."""
    mask = x[0]
    gone = ((_i(1) << S[p, V, N_]) - 1) & ~mask
    out = 0
    for s in range(4):
        faced = S[p, CONNS, 4 + s]
        m = gone
        while m:
            faced &= ~S[p, ACROSS + s, low_bit(m)]
            m &= m - 1
        out += popcount(_exposed_on(mask, S[p, CONNS, s], faced))
    return out


@jit
def canon(S, p, x, left):  # type: ignore[no-untyped-def]
    """ShipModel.canon for the tiles ``left`` that just left: their charges, crew and goods dropped
    (those of tiles gone before are 0 already)."""
    och, ocr, ogd = S[0, OFFS, 0], S[0, OFFS, 1], S[0, OFFS, 2]
    for i in range(S[p, V, NBAT]):
        if (left >> S[p, BATTILE, i]) & 1:
            x[och + i] = 0
    m = left
    while m:
        x[ocr + low_bit(m)] = 0
        m &= m - 1
    for h in range(S[p, V, NHOLD]):
        if (left >> S[p, HOLDTILE, h]) & 1:
            for c in range(4):
                x[ogd + 4 * h + c] = 0


@jit
def pieces(S, p, mask, out):  # type: ignore[no-untyped-def]
    """FlightModel.pieces into ``out``; returns their number."""
    adj = S[p, ADJ]  # the row once: as plain Python an element of a row costs less than of the table
    rem = mask
    cnt = 0
    while rem:
        low = rem & -rem
        comp = low
        frontier = low
        while frontier:
            nxt = 0
            f = frontier
            while f:
                nxt |= adj[low_bit(f)]
                f &= f - 1
            nxt &= mask & ~comp
            comp |= nxt
            frontier = nxt
        out[cnt] = comp
        cnt += 1
        rem &= ~comp
    return cnt


@jit
def piece_humans(S, p, x, piece):  # type: ignore[no-untyped-def]
    """The humans in the cabins of ``piece``."""
    ocr = S[0, OFFS, 1]
    m = piece & S[p, V, CABMASK]
    t = 0
    while m:
        c = x[ocr + low_bit(m)]
        m &= m - 1
        if c > 0:
            t += c
    return t


@jit
def _better(S, p, x, a, b):  # type: ignore[no-untyped-def]
    """Piece ``a`` kept before piece ``b``: more humans, more components, first square first."""
    ha, hb = piece_humans(S, p, x, a), piece_humans(S, p, x, b)
    if ha != hb:
        return ha > hb
    ca, cb = popcount(a), popcount(b)
    if ca != cb:
        return ca > cb
    return low_bit(a) < low_bit(b)


@jit
def split(S, p, x, mask, buf):  # type: ignore[no-untyped-def]
    """FlightModel.split with the row's crew."""
    cnt = pieces(S, p, mask, buf)
    if cnt <= 1:
        return mask
    if not S[p, V, MULTI]:
        best = buf[0]
        for i in range(1, cnt):
            if _better(S, p, x, buf[i], _i(best)):
                best = buf[i]
        return best
    kept = 0
    for h in range(S[p, V, NHULL]):
        g = S[p, GMASK, h]
        best = -1
        for i in range(cnt):
            if buf[i] & g and (best < 0 or _better(S, p, x, buf[i], _i(best))):
                best = buf[i]
        if best >= 0:
            kept |= best
    return kept


@jit
def after_loss(S, p, x, old, new):  # type: ignore[no-untyped-def]
    """FlightModel.after_loss; leaves ``new`` as the row's mask."""
    ocr = S[0, OFFS, 1]
    left = old & ~new
    loss = False
    m = left & S[p, V, CREWTILES]
    while m:
        if x[ocr + low_bit(m)] != 0:
            loss = True
        m &= m - 1
    m = new & S[p, V, ALIENTILES]
    while m:
        k = low_bit(m)
        m &= m - 1
        if x[ocr + k] == ALIEN:
            sup = S[p, SUPPORTS, k]
            if sup & left and not sup & new:
                x[ocr + k] = 0
                loss = True
    m = left
    while m:
        x[ocr + low_bit(m)] = 0
        m &= m - 1
    x[0] = new
    if loss:
        wake(S, p, x)


@jit
def destroy(S, p, x, bits, buf):  # type: ignore[no-untyped-def]
    """ShipModel.destroy."""
    mask = x[0]
    if not bits & mask:
        return
    new = split(S, p, x, mask & ~bits, buf)
    after_loss(S, p, x, mask, new)
    canon(S, p, x, mask & ~new)


@jit
def leave_hull(S, p, x, h, prices):  # type: ignore[no-untyped-def]
    """ShipModel.leave_hull: the credits (half its goods, rounded up)."""
    ogd = S[0, OFFS, 2]
    mask = x[0]
    tiles = mask & S[p, GMASK, h]
    value = 0
    for hh in range(S[p, V, NHOLD]):
        if (tiles >> S[p, HOLDTILE, hh]) & 1:
            for c in range(4):
                value += x[ogd + 4 * hh + c] * prices[c]
    x[0] = mask & ~tiles
    x[1] |= tiles
    canon(S, p, x, tiles)
    return (value + 1) // 2


@jit
def send_away(S, p, x, h):  # type: ignore[no-untyped-def]
    """Half ``h`` jumps to hyperspace while the other flies on (rules §11.2.3): its tiles leave
    ``mask`` for ``away``, their charges, crew and goods wait in their fields (one half at a time)."""
    tiles = x[0] & S[p, GMASK, h]
    x[AWAY] = tiles
    x[0] &= ~tiles


@jit
def come_back(S, p, x):  # type: ignore[no-untyped-def]
    """The half in hyperspace rejoins the flight."""
    x[0] |= x[AWAY]
    x[AWAY] = 0


@jit
def hyperjump(S, p, x, h, buf, tmp):  # type: ignore[no-untyped-def]
    """Hyperspace (rules §11.2): one charge boosts an engine joined to an engine booster aboard (of
    hull ``h``, or any with ``h`` -1), a double engine one charge more (the Techie's first is free);
    the engine is destroyed. The booster's single engines first, then its doubles, in grid order.
    Whether it jumped (else ``x`` is as it was)."""
    och = S[0, OFFS, 0]
    nb = S[p, V, NBAT]
    mask = x[0]
    multi = S[p, V, MULTI]
    i = lend(S, p, x)
    before = lent_charges(S, p, x, i)
    for j in range(nb):
        tmp[SAVE2 + j] = x[och + j]
    for e in range(S[p, V, NEB]):
        b = S[p, EBTILE, e]
        if not (mask >> b) & 1 or (h >= 0 and S[p, GIDX, b] != h):
            continue
        for phase in range(2):
            for en in range(S[p, V, NENG]):
                t = S[p, ENGTILE, en]
                if S[p, ENGDBL, en] != phase or not (mask >> t) & 1 or not (S[p, ADJ, b] >> t) & 1:
                    continue
                for j in range(nb):
                    x[och + j] = tmp[SAVE2 + j]
                if draw(S, p, x, S[p, GIDX, b] if multi else ANY) >= 0 and (
                        phase == 0 or draw(S, p, x, S[p, GIDX, t] if multi else ANY) >= 0):
                    settle(S, p, x, i, before)
                    destroy(S, p, x, _i(1) << t, buf)
                    return True
    for j in range(nb):
        x[och + j] = tmp[SAVE2 + j]
    settle(S, p, x, i, before)  # nothing spent: the lent charge is taken back
    return False
