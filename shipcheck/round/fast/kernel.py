"""The round's rules for the built-in policies, compiled with numba: one run at a time, every card.

Each function here is the compiled twin of a method of the memoised engine, named after it
(:class:`~shipcheck.round.state.ShipModel`, :class:`~shipcheck.flight.FlightModel` and its
:class:`~shipcheck.kernel.Kernel`, the card modules of :mod:`shipcheck.round.cards`, the track and
the scoring), and must give the same numbers: ``tests/test_round_fast.py`` plays both engines on
random ships, decks and dice and compares every per-run array. Change a rule in both places.

A player's state is one ``int64`` row ``x`` (see :mod:`.tables`); ``S`` holds the ships' tables,
``C`` the cards'. Players are ``p``; hulls are indices into the ship's sorted hull groups, with
``-1`` meaning any battery (one hull, or the ship's whole stock) and ``-2`` none (hits in two
halves, which no shield defends).

This module imports numba: only the round engine imports it, and only when a round is flown.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# attack kinds, alien colours, specialisations, card types, causes (the orders of .tables, ALIENS,
# SPECIALISATIONS, engine.TYPES and race.CAUSES; fast.__init__ checks them). numpy integers, not
# Python ints: numba would compile a function once more for every literal argument
_i = np.int64
SMALL, LARGE, LIGHT, HEAVY = _i(0), _i(1), _i(2), _i(3)
PURPLE, ORANGE, CYAN = _i(0), _i(1), _i(2)
LAWYER, MANAGER, MERCHANT, TECHIE, DIPLOMAT = _i(0), _i(1), _i(2), _i(3), _i(4)
SPENT = 2  # the state row's column: the Techie's free charge used on this card
NONE = _i(-2)  # no hull
(SLAVERS, SMUGGLERS, PIRATES, STARDUST, EPIDEMIC, SABOTAGE, OPEN_SPACE, METEOR_SWARM, PLANETS, COMBAT_ZONE,
 ABANDONED_SHIP, ABANDONED_STATION) = (_i(t) for t in range(12))
NO_HUMANS, NO_ENGINES, LAPPED = _i(1), _i(2), _i(3)
WIN, TIE, LOSE = _i(2), _i(1), _i(0)
ALIEN = _i(-1)
ANY = _i(-1)  # any hull / no cannon / no player
ZERO = _i(0)
WAKE_PLACES = 2
# regions of the scratch array (no allocation inside the loop): per hull (at most 8), per cannon and
# per hold (at most 64), goods counts
POWER, LIVE, NDBL, BYH, CREWLESS, CV, CT, FN, FS, GAIN, LOAD, SAVE, KIND, TMP = (
    0, 8, 16, 24, 32, 40, 104, 168, 232, 296, 308, 320, 384, 385)
LAUNCH = _i(127)  # race.LAUNCH: the provenance of goods aboard at launch
OFF = _i(np.iinfo(np.int32).min // 2)
BIG = _i(np.iinfo(np.int64).max)
# R: the race's numbers
R_P, R_FIVE, R_WEAKEST, R_TRACK, R_BEST, R_LUXURY = range(6)
# rows and columns of the ship and card tables
from .tables import (  # noqa: E402
    ADJ,
    ALIENTILES,
    ALMASK,
    ASIDE,
    ATTD,
    ATTK,
    BATCAP,
    BATHOLD,
    BATTILE,
    BOOSTABLE,
    BOOSTERS,
    BRG,
    BRGFREE,
    CABIN,
    CABMASK,
    CANDBL,
    CANFWD,
    CANTILE,
    CANVAL,
    CAP,
    CBTILE,
    CCRED,
    CCREWCOST,
    CCREWPEN,
    CCREWREQ,
    CDAYS,
    CGOODS,
    CGOODSPEN,
    CI,
    COVER,
    CREWTILES,
    CSTR,
    CTYPE,
    EFF,
    ENGDBL,
    ENGPOW,
    ENGTILE,
    EPI,
    FURTILE,
    GIDX,
    GMASK,
    HCAB,
    HCHM,
    HOLDBAT,
    HOLDNORM,
    HOLDSPEC,
    HOLDTILE,
    HTGT,
    LAMT,
    LCRIT,
    LIFE,
    LINEM,
    LMAX,
    LNS,
    LPEN,
    LSD,
    LSK,
    LUXURY,
    MULTI,
    N_,
    NATT,
    NBAT,
    NCAN,
    NCB,
    NENG,
    NFUR,
    NGOODS,
    NHOLD,
    NHULL,
    NLINE,
    NPL,
    NPLG,
    OCELL,
    OFFS,
    OLINES,
    ONL,
    OSIDE,
    OTOL,
    PLG,
    SAB,
    SNB,
    SPEC,
    SQTILE,
    SUPPORTS,
    VULN,
    V,
)

# helpers are only called from compiled code: no Python wrappers to build
jit = njit(cache=True, nogil=True)


# -- bits --------------------------------------------------------------------------------------
_M1, _M2, _M4, _H01 = _i(0x5555555555555555), _i(0x3333333333333333), _i(0x0F0F0F0F0F0F0F0F), _i(0x0101010101010101)
_DEBRUIJN = _i(0x03F79D71B4CA8B09)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _k in range(64):
    _DEBRUIJN_INDEX[((((1 << _k) * 0x03F79D71B4CA8B09) & (2**64 - 1)) >> 58)] = _k


@jit
def popcount(x):  # type: ignore[no-untyped-def]
    """Set bits of a non-negative word (SWAR)."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return ((x * _H01) >> 56) & 255


@jit
def low_bit(x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit (de Bruijn multiplication; ``x`` non-zero)."""
    return _DEBRUIJN_INDEX[(((x & -x) * _DEBRUIJN) >> 58) & 63]


@jit
def high_bit(x):  # type: ignore[no-untyped-def]
    """Index of the highest set bit (``x`` non-zero, below 2**63)."""
    k = 0
    for s in (32, 16, 8, 4, 2, 1):
        if x >> s:
            x >>= s
            k += s
    return k


# -- crew ----------------------------------------------------------------------------------------
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


# -- tiles and losses ------------------------------------------------------------------------------
@jit
def lost(S, p, x):  # type: ignore[no-untyped-def]
    return S[p, V, N_] - popcount(x[0]) - popcount(x[1])


@jit
def exposed(S, p, x):  # type: ignore[no-untyped-def]
    mask = x[0]
    out = 0
    for k in range(S[p, V, N_]):
        if not (mask >> k) & 1:
            continue
        for s in range(4):
            if S[p, EFF + s, k]:
                j = S[p, SNB + s, k]
                if j < 0 or not (mask >> j) & 1:
                    out += 1
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
                b = f & -f
                nxt |= S[p, ADJ, low_bit(b)]
                f ^= b
            nxt &= mask & ~comp
            comp |= nxt
            frontier = nxt
        out[cnt] = comp
        cnt += 1
        rem &= ~comp
    return cnt


@jit
def piece_humans(S, p, x, piece):  # type: ignore[no-untyped-def]
    ocr = S[0, OFFS, 1]
    t = 0
    for k in range(S[p, V, N_]):
        if (piece >> k) & 1 and S[p, CABIN, k] and x[ocr + k] > 0:
            t += x[ocr + k]
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


# -- charges ---------------------------------------------------------------------------------------
@jit
def _allowed(S, p, i, h):  # type: ignore[no-untyped-def]
    return h == -1 or (h >= 0 and (not S[p, V, MULTI] or S[p, GIDX, S[p, BATTILE, i]] == h))


@jit
def first_charged(S, p, x, h):  # type: ignore[no-untyped-def]
    """The first battery aboard of hull ``h`` holding a charge, or -1."""
    och = S[0, OFFS, 0]
    mask = x[0]
    for i in range(S[p, V, NBAT]):
        if x[och + i] > 0 and (mask >> S[p, BATTILE, i]) & 1 and _allowed(S, p, i, h):
            return i
    return -1


@jit
def draw(S, p, x, h):  # type: ignore[no-untyped-def]
    """Take one charge from the first charged battery aboard of hull ``h``; the battery or -1."""
    i = first_charged(S, p, x, h)
    if i >= 0:
        x[S[0, OFFS, 0] + i] -= 1
    return i


@jit
def charged(S, p, x, h):  # type: ignore[no-untyped-def]
    """ShipModel._left: a charge left in hull ``h``."""
    return first_charged(S, p, x, h) >= 0


@jit
def charges_in(S, p, x):  # type: ignore[no-untyped-def]
    och = S[0, OFFS, 0]
    mask = x[0]
    t = 0
    for i in range(S[p, V, NBAT]):
        if (mask >> S[p, BATTILE, i]) & 1:
            t += x[och + i]
    return t


@jit
def all_charges(S, p, x):  # type: ignore[no-untyped-def]
    och = S[0, OFFS, 0]
    t = 0
    for i in range(S[p, V, NBAT]):
        t += x[och + i]
    return t


# -- the cyan Techie and Diplomat -------------------------------------------------------------------
@jit
def techie_hull(S, p, x):  # type: ignore[no-untyped-def]
    """ShipModel.techie_hull as a hull index, or NONE."""
    if S[p, V, SPEC] != TECHIE or x[SPENT]:
        return NONE
    k = alien_tile(S, p, x, CYAN)
    if k < 0:
        return NONE
    h = S[p, GIDX, k]
    return h if charged(S, p, x, h) else NONE


@jit
def free_charge(S, p, x):  # type: ignore[no-untyped-def]
    return 0 if techie_hull(S, p, x) == NONE else 1


@jit
def hull_charges(S, p, x, h):  # type: ignore[no-untyped-def]
    och = S[0, OFFS, 0]
    mask = x[0]
    t = 0
    for i in range(S[p, V, NBAT]):
        if (mask >> S[p, BATTILE, i]) & 1 and _allowed(S, p, i, h):
            t += x[och + i]
    return t


@jit
def lend(S, p, x):  # type: ignore[no-untyped-def]
    """ShipModel.lend: the battery the Techie's free charge is lent to, or -1."""
    h = techie_hull(S, p, x)
    if h == NONE:
        return -1
    i = first_charged(S, p, x, h)
    if i >= 0:
        x[S[0, OFFS, 0] + i] += 1
    return i


@jit
def settle(S, p, x, i, before):  # type: ignore[no-untyped-def]
    """ShipModel.settle: ``before`` is the Techie's half's charges once lent (no battery lost since)."""
    if i < 0:
        return
    if hull_charges(S, p, x, S[p, GIDX, S[p, BATTILE, i]]) < before:
        x[SPENT] = 1
    else:
        x[S[0, OFFS, 0] + i] -= 1


@jit
def lent_charges(S, p, x, i):  # type: ignore[no-untyped-def]
    return 0 if i < 0 else hull_charges(S, p, x, S[p, GIDX, S[p, BATTILE, i]])


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


# -- meteors and shots (the flight kernel's default policy) --------------------------------------
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


# -- engine power ----------------------------------------------------------------------------------
@jit
def engine(S, p, x, k, tmp):  # type: ignore[no-untyped-def]
    """ShipModel.engine: power and presence per hull in ``tmp[POWER]``, ``tmp[LIVE]``, charges
    spent from ``x`` (the Techie's first free); returns the lowest power of the hulls aboard (0 with
    none)."""
    if k <= 0:
        return _engine(S, p, x, k, tmp)
    i = lend(S, p, x)
    before = lent_charges(S, p, x, i)
    out = _engine(S, p, x, k, tmp)
    settle(S, p, x, i, before)
    return out


@jit
def _engine(S, p, x, k, tmp):  # type: ignore[no-untyped-def]
    mask = x[0]
    nh = S[p, V, NHULL]
    power = tmp[POWER:POWER + 8]
    live = tmp[LIVE:LIVE + 8]
    ndbl = tmp[NDBL:NDBL + 8]
    for h in range(nh):
        power[h] = 0
        ndbl[h] = 0
        live[h] = 1 if S[p, GMASK, h] & mask else 0
    for e in range(S[p, V, NENG]):
        t = S[p, ENGTILE, e]
        if not (mask >> t) & 1:
            continue
        if S[p, ENGDBL, e]:
            ndbl[S[p, GIDX, t]] += 1
        else:
            power[S[p, GIDX, t]] += S[p, ENGPOW, e]
    for _ in range(k):
        best = -1
        for h in range(nh):
            if live[h] and ndbl[h] > 0 and charged(S, p, x, h) and (best < 0 or power[h] < power[best]):
                best = h
        if best < 0:
            break
        ndbl[best] -= 1
        draw(S, p, x, best)
        power[best] += 2
    orange = bonus_alien(S, p, x, ORANGE)
    if orange >= 0:
        h = S[p, GIDX, orange]
        if power[h] > 0:
            power[h] += 3 if manager_with(S, p, x, orange) else 2
    return min_live(power, live, nh)


@jit
def min_live(power, live, nh):  # type: ignore[no-untyped-def]
    out = BIG
    for h in range(nh):
        if live[h] and power[h] < out:
            out = power[h]
    return 0 if out == BIG else out


@jit
def engine_top(S, p, x):  # type: ignore[no-untyped-def]
    """The most charges double engines aboard can take (ShipModel.engine_ladder's length - 1)."""
    mask = x[0]
    dbl = 0
    for e in range(S[p, V, NENG]):
        if S[p, ENGDBL, e] and (mask >> S[p, ENGTILE, e]) & 1:
            dbl += 1
    return min(charges_in(S, p, x) + free_charge(S, p, x), dbl)


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


# -- firepower -------------------------------------------------------------------------------------
@jit
def boost_options(S, p, x):  # type: ignore[no-untyped-def]
    """Cannons a cannon booster aboard could boost, as a mask."""
    mask = x[0]
    out = 0
    for b in range(S[p, V, NCB]):
        bt = S[p, CBTILE, b]
        if not (mask >> bt) & 1:
            continue
        for i in range(S[p, V, NCAN]):
            t = S[p, CANTILE, i]
            if (mask >> t) & 1 and (S[p, ADJ, bt] >> t) & 1:
                out |= 1 << t
    return out


@jit
def firepower(S, p, x, k, boost, tmp):  # type: ignore[no-untyped-def]
    """ShipModel.firepower in half units with ``k`` charges and cannon ``boost`` boosted (-1: none);
    charges spent from ``x`` (the Techie's first free); -1 when the charges do not suffice (the
    state is then spoilt)."""
    if k <= 0 and boost < 0:
        return _firepower(S, p, x, k, boost, tmp)
    i = lend(S, p, x)
    before = lent_charges(S, p, x, i)
    out = _firepower(S, p, x, k, boost, tmp)
    if out >= 0:
        settle(S, p, x, i, before)
    return out


@jit
def _firepower(S, p, x, k, boost, tmp):  # type: ignore[no-untyped-def]
    mask = x[0]
    nh = S[p, V, NHULL]
    byh = tmp[BYH:BYH + 8]
    for h in range(nh):
        byh[h] = 0
    nc = S[p, V, NCAN]
    cv = tmp[CV:CV + 64]
    ct = tmp[CT:CT + 64]
    nch = 0
    total = 0
    fwd_b = 0
    for i in range(nc):
        t = S[p, CANTILE, i]
        if t == boost:
            fwd_b = S[p, CANFWD, i]
        if not (mask >> t) & 1:
            continue
        v = S[p, CANVAL, i]
        if S[p, CANDBL, i]:
            # insertion by (-value, tile)
            j = nch
            while j > 0 and (cv[j - 1] < v or (cv[j - 1] == v and ct[j - 1] > t)):
                cv[j] = cv[j - 1]
                ct[j] = ct[j - 1]
                j -= 1
            cv[j] = v
            ct[j] = t
            nch += 1
        else:
            total += v
            byh[S[p, GIDX, t]] += v
    powered = 0
    if boost >= 0:
        b = boost
        for j in range(nch):
            if ct[j] == b:
                if draw(S, p, x, S[p, GIDX, b]) < 0:
                    return -1
                total += cv[j]
                byh[S[p, GIDX, b]] += cv[j]
                powered |= 1 << b
                break
        booster = -1
        for i in range(S[p, V, NCB]):
            bt = S[p, CBTILE, i]
            if (mask >> bt) & 1 and (S[p, ADJ, bt] >> b) & 1:
                booster = bt
                break
        if draw(S, p, x, S[p, GIDX, booster]) < 0:
            return -1
        bonus = 6 if fwd_b else 3
        total += bonus
        byh[S[p, GIDX, b]] += bonus
    left = k
    for j in range(nch):
        if left <= 0:
            break
        t = ct[j]
        if (powered >> t) & 1:
            continue
        if draw(S, p, x, S[p, GIDX, t]) >= 0:
            total += cv[j]
            byh[S[p, GIDX, t]] += cv[j]
            powered |= 1 << t
            left -= 1
    purple = bonus_alien(S, p, x, PURPLE)
    if purple >= 0:
        base = byh[S[p, GIDX, purple]] if S[p, V, MULTI] else total
        if base > 0:
            total += 6 if manager_with(S, p, x, purple) else 4
    return total


@jit
def fight(S, p, x, strength, y, buf, tmp):  # type: ignore[no-untyped-def]
    """RoundPolicy.fight's declaration played (cards/_enemies._fight): WIN, TIE or LOSE."""
    target = 2 * strength
    mask = x[0]
    dbl = 0
    for i in range(S[p, V, NCAN]):
        if S[p, CANDBL, i] and (mask >> S[p, CANTILE, i]) & 1:
            dbl += 1
    top = min(charges_in(S, p, x) + free_charge(S, p, x), dbl)
    have = all_charges(S, p, x)
    opts = boost_options(S, p, x)
    # the cheapest option that wins, else ties: (cost, boosted, enumeration order)
    wk, wb, wc, tk, tb, tc = -1, -1, BIG, -1, -1, BIG
    b = -1
    och, nb = S[0, OFFS, 0], S[p, V, NBAT]
    saved = tmp[SAVE:SAVE + 64]
    for i in range(nb):
        saved[i] = x[och + i]
    spent = x[SPENT]
    while True:
        for k in range(top + 1):
            # firepower only spends charges: try each declaration on x and put the charges back
            fp = firepower(S, p, x, _i(k), _i(b), tmp)
            cost = have - all_charges(S, p, x)
            for i in range(nb):
                x[och + i] = saved[i]
            x[SPENT] = spent
            if fp < 0:
                continue
            if fp > target:
                if cost < wc or (cost == wc and wb >= 0 and b < 0):
                    wk, wb, wc = k, b, cost
            elif fp == target:
                if cost < tc or (cost == tc and tb >= 0 and b < 0):
                    tk, tb, tc = k, b, cost
        b += 1
        while b < 63 and not (opts >> b) & 1:
            b += 1
        if b >= 63:
            break
    if wk >= 0:
        k, b = wk, wb
    elif tk >= 0:
        k, b = tk, tb
    else:
        k, b = 0, -1
    fp = firepower(S, p, x, _i(k), _i(b), tmp)
    if b >= 0:
        destroy(S, p, x, 1 << b, buf)
    return WIN if fp > target else TIE if fp == target else LOSE


# -- goods -----------------------------------------------------------------------------------------
@jit
def room(S, p, x, h):  # type: ignore[no-untyped-def]
    """ShipModel.hold_room of hold ``h``: (ordinary, special) slots."""
    if not (x[0] >> S[p, HOLDTILE, h]) & 1:
        return 0, 0
    bi = S[p, HOLDBAT, h]
    if bi >= 0:
        return max(0, S[p, HOLDNORM, h] - x[S[0, OFFS, 0] + bi]), S[p, HOLDSPEC, h]
    return S[p, HOLDNORM, h], S[p, HOLDSPEC, h]


@jit
def goods_counts(S, p, x, cnt):  # type: ignore[no-untyped-def]
    ogd = S[0, OFFS, 2]
    for c in range(4):
        cnt[c] = 0
    for h in range(S[p, V, NHOLD]):
        for c in range(4):
            cnt[c] += x[ogd + 4 * h + c]


@jit
def fit(S, p, x, cnt, keep):  # type: ignore[no-untyped-def]
    """ShipModel.fit as counts per colour."""
    sp = 0
    tot = 0
    for h in range(S[p, V, NHOLD]):
        a, b = room(S, p, x, h)
        sp += b
        tot += a + b
    keep[0] = min(cnt[0], sp)
    rest = max(0, tot - keep[0])
    for c in range(1, 4):
        keep[c] = min(cnt[c], rest)
        rest -= keep[c]


@jit
def value_of(cnt, prices):  # type: ignore[no-untyped-def]
    v = 0
    for c in range(4):
        v += cnt[c] * prices[c]
    return v


@jit
def gain(S, p, x, new, prices, tmp):  # type: ignore[no-untyped-def]
    """View.gain: what the cargo gains in value by loading ``new`` (counts per colour)."""
    old = tmp[GAIN:GAIN + 4]
    pool = tmp[GAIN + 4:GAIN + 8]
    keep = tmp[GAIN + 8:GAIN + 12]
    goods_counts(S, p, x, old)
    for c in range(4):
        pool[c] = old[c] + new[c]
    fit(S, p, x, pool, keep)
    return value_of(keep, prices) - value_of(old, prices)


@jit
def arrange(S, p, x, keep, tmp):  # type: ignore[no-untyped-def]
    ogd = S[0, OFFS, 2]
    nh = S[p, V, NHOLD]
    fn = tmp[FN:FN + 64]
    fs = tmp[FS:FS + 64]
    for h in range(nh):
        fn[h], fs[h] = room(S, p, x, h)
        for c in range(4):
            x[ogd + 4 * h + c] = 0
    for c in range(4):
        for _ in range(keep[c]):
            h = -1
            if c != 0:
                for hh in range(nh):
                    if fn[hh] > 0:
                        h = hh
                        fn[hh] -= 1
                        break
            if h < 0:
                for hh in range(nh):
                    if fs[hh] > 0:
                        h = hh
                        fs[hh] -= 1
                        break
                if h < 0:
                    continue
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
    goods_counts(S, p, x, before)
    goods_counts(S, p, x, pool)
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
    goods_counts(S, p, x, after)
    for c in range(4):
        for i in range(before[c], after[c]):
            prov[p, c, i] = tmp[KIND]


@jit
def lose_goods(S, p, x, n):  # type: ignore[no-untyped-def]
    ogd = S[0, OFFS, 2]
    left = n
    while left:
        found = False
        for c in range(4):
            for h in range(S[p, V, NHOLD]):
                if x[ogd + 4 * h + c] > 0:
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


# -- the track -------------------------------------------------------------------------------------
@jit
def _taken(pos, out, mover, lo, hi, L):  # type: ignore[no-untyped-def]
    cnt = 0
    for q in range(pos.shape[0]):
        if out[q] == 0 and q != mover:
            o = pos[q]
            cnt += (hi - o) // L - (lo - o) // L
    return cnt


@jit
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


@jit
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


@jit
def flying_in_order(pos, out, order, on, movers, steps):  # type: ignore[no-untyped-def]
    """A card's start: the players flying in flight order (``order``, ``on``), nobody moving yet;
    returns how many fly."""
    for p in range(pos.shape[0]):
        on[p] = out[p] == 0
        movers[p] = 0
        steps[p] = 0
    return order_of(pos, on, order)


@jit
def weakest(values, pos, present, skip):  # type: ignore[no-untyped-def]
    best = -1
    for p in range(values.shape[0]):
        if not present[p] or p == skip:
            continue
        if best < 0 or values[p] < values[best] or (values[p] == values[best] and pos[p] > pos[best]):
            best = p
    return best


# -- the cards -------------------------------------------------------------------------------------
@jit
def take_reward(C, c, racing):  # type: ignore[no-untyped-def]
    if not racing:
        return True
    if C[c, CI, CTYPE] == SMUGGLERS:
        return C[c, CI, CDAYS] == 0
    return C[c, CI, CCRED] >= 2 * C[c, CI, CDAYS]


@jit
def card_goods(C, c, second, out):  # type: ignore[no-untyped-def]
    """The card's goods as counts (the least valuable dropped for a second taker)."""
    for i in range(4):
        out[i] = 0
    n = C[c, CI, NGOODS] - (1 if second else 0)
    for i in range(n):
        out[C[c, CGOODS, i]] += 1


@jit
def enemies(S, C, R, X, pos, out, cred, sold, c, ro, pol, prices, w):  # type: ignore[no-untyped-def]
    """cards/_enemies.attack_in_order with each enemy's reward and penalty (and pirates' shots); a
    ship left without humans leaves at once (Race.crewless)."""
    P = R[R_P]
    typ = C[c, CI, CTYPE]
    order, on, movers, steps, y, buf, gd, tmp, prov = w
    cnt = flying_in_order(pos, out, order, on, movers, steps)
    need = 2 if R[R_FIVE] else 1
    defeats = 0
    beaten = 0
    for r in range(cnt):
        p = order[r]
        if defeats >= need:
            continue
        x = X[p]
        res = fight(S, p, x, C[c, CI, CSTR], y, buf, tmp)
        if res == WIN:
            second = min(defeats, 1)
            if take_reward(C, c, pol[p]):
                if typ == SMUGGLERS:
                    card_goods(C, c, second, gd)
                    load(S, p, x, gd, tmp, prov)
                else:
                    cred[p] += C[c, CI, CCRED] - second
                movers[p] = 1
                steps[p] = -C[c, CI, CDAYS]
            defeats += 1
        elif res == LOSE and not diplomat(S, p, x, _i(1 if typ == SLAVERS else 2 if typ == SMUGGLERS else 3)):
            beaten |= 1 << p
            if typ == SLAVERS:
                lose_crew(S, p, x, C[c, CI, CCREWPEN])
            elif typ == SMUGGLERS:
                lose_goods(S, p, x, C[c, CI, CGOODSPEN])
        leave_crewless(S, p, x, out, sold, prices, tmp)
    move_many(pos, out, movers, steps, R[R_TRACK], order, on)
    if typ == PIRATES and beaten:
        for j in range(C[c, CI, NATT]):
            for p in range(P):
                if (beaten >> p) & 1 and out[p] == 0:
                    flight_step(S, p, X[p], C[c, ATTK, j], C[c, ATTD, j], ro[j], buf)
                    leave_crewless(S, p, X[p], out, sold, prices, tmp)


@jit
def offers(S, C, R, X, pos, out, cred, sold, c, pol, prices, w):  # type: ignore[no-untyped-def]
    """cards/_offer.take_in_order for an abandoned ship or station."""
    typ = C[c, CI, CTYPE]
    order, on, movers, steps, y, buf, gd, tmp, prov = w
    cnt = flying_in_order(pos, out, order, on, movers, steps)
    room_ = 2 if R[R_FIVE] else 1
    taken = 0
    for r in range(cnt):
        p = order[r]
        if taken >= room_:
            continue
        x = X[p]
        second = min(taken, 1)
        ok = False
        if typ == ABANDONED_SHIP:
            cost = C[c, CI, CCREWCOST]
            if crew_count(S, p, x) >= cost and (not pol[p] or C[c, CI, CCRED] >= 2 * C[c, CI, CDAYS]):
                y[:] = x
                lose_crew(S, p, y, cost)
                if humans(S, p, y, ANY) > 0:
                    ok = True
                    x[:] = y
                    cred[p] += C[c, CI, CCRED] - second
        else:
            card_goods(C, c, second, gd)
            if crew_count(S, p, x) >= C[c, CI, CCREWREQ] and not pol[p] and gain(S, p, x, gd, prices, tmp) > 0:
                ok = True
                load(S, p, x, gd, tmp, prov)
        if ok:
            movers[p] = 1
            steps[p] = -C[c, CI, CDAYS]
            taken += 1
        leave_crewless(S, p, x, out, sold, prices, tmp)
    move_many(pos, out, movers, steps, R[R_TRACK], order, on)


@jit
def planets(S, C, R, X, pos, out, cred, c, pol, prices, w):  # type: ignore[no-untyped-def]
    order, on, movers, steps, y, buf, gd, tmp, prov = w
    cnt = flying_in_order(pos, out, order, on, movers, steps)
    npl = C[c, CI, NPL]
    free = (1 << npl) - 1
    share = R[R_FIVE]
    for r in range(cnt):
        p = order[r]
        if pol[p]:
            continue  # the racing policy never lands
        x = X[p]
        best_g = 0
        best_free = 0
        best_i = -1
        best_shared = 0
        for phase in range(2):
            if phase == 1 and not share:
                break
            for i in range(npl):
                isfree = (free >> i) & 1
                if (phase == 0 and not isfree) or (phase == 1 and isfree):
                    continue
                for q in range(4):
                    gd[q] = 0
                for q in range(C[c, NPLG, i] - phase):
                    gd[C[c, PLG + i, q]] += 1
                g = gain(S, p, x, gd, prices, tmp)
                nf = 1 - phase
                if g > 0 and (best_i < 0 or g > best_g or (g == best_g and nf > best_free)):
                    best_g, best_free, best_i, best_shared = g, nf, i, phase
        if best_i < 0:
            continue
        for q in range(4):
            gd[q] = 0
        for q in range(C[c, NPLG, best_i] - best_shared):
            gd[C[c, PLG + best_i, q]] += 1
        load(S, p, x, gd, tmp, prov)
        movers[p] = 1
        steps[p] = -C[c, CI, CDAYS]
        if best_shared:
            share = 0
        else:
            free &= ~(1 << best_i)
    move_many(pos, out, movers, steps, R[R_TRACK], order, on)


@jit
def open_space(S, C, R, X, pos, out, sold, pol, prices, w):  # type: ignore[no-untyped-def]
    P = R[R_P]
    order, on, movers, steps, y, buf, gd, tmp, prov = w
    for p in range(P):
        on[p] = out[p] == 0
    cnt = order_of(pos, on, order)
    for r in range(cnt):
        p = order[r]
        x = X[p]
        top = engine_top(S, p, x)
        k = top
        if not pol[p]:
            k = 0
            # the ladder: engine only spends charges, so each rung is tried on x and the charges put back
            och, nb = S[0, OFFS, 0], S[p, V, NBAT]
            saved = tmp[SAVE:SAVE + 64]
            for i in range(nb):
                saved[i] = x[och + i]
            spent = x[SPENT]
            # hulls that can move at all (ShipModel.engine_ladder): one that cannot leaves whatever is spent
            engine(S, p, x, top, tmp)
            for i in range(nb):
                x[och + i] = saved[i]
            x[SPENT] = spent
            keep = 0
            for h in range(S[p, V, NHULL]):
                if tmp[LIVE + h] and tmp[POWER + h] > 0:
                    keep |= 1 << h
            for kk in range(top + 1):
                if keep == 0:
                    break
                engine(S, p, x, kk, tmp)
                for i in range(nb):
                    x[och + i] = saved[i]
                x[SPENT] = spent
                power_k = BIG
                for h in range(S[p, V, NHULL]):
                    if (keep >> h) & 1 and tmp[POWER + h] < power_k:
                        power_k = tmp[POWER + h]
                if power_k >= 1:
                    k = kk
                    break
        value = engine(S, p, x, k, tmp)
        power = tmp[POWER:POWER + 8]
        live = tmp[LIVE:LIVE + 8]
        nh = S[p, V, NHULL]
        if S[p, V, MULTI]:
            nlive = 0
            nzero = 0
            for h in range(nh):
                if live[h]:
                    nlive += 1
                    if power[h] <= 0:
                        nzero += 1
            if nlive > 1 and 0 < nzero < nlive:
                for h in range(nh):
                    if live[h] and power[h] <= 0:
                        sold[p] += leave_hull(S, p, x, h, prices)
                        live[h] = 0
                value = min_live(power, live, nh)
        if value <= 0:
            if out[p] == 0:
                out[p] = NO_ENGINES
        else:
            move(pos, out, p, value, R[R_TRACK])


@jit
def combat_zone(S, C, R, X, pos, out, c, ro, w, values):  # type: ignore[no-untyped-def]
    P = R[R_P]
    order, on, movers, steps, y, buf, gd, tmp, prov = w
    for li in range(C[c, CI, NLINE]):
        cnt = 0
        for p in range(P):
            on[p] = out[p] == 0
            if on[p]:
                cnt += 1
        if not (cnt >= 2 or (R[R_WEAKEST] and on[0] and cnt == 1)):
            continue
        crit = C[c, LCRIT, li]
        for p in range(P):
            if not on[p]:
                continue
            x = X[p]
            if crit == 0:
                values[p] = crew_count(S, p, x)
            elif crit == 1:
                values[p] = engine(S, p, x, ZERO, tmp)
            else:
                values[p] = firepower(S, p, x, ZERO, ANY, tmp)
        first = weakest(values, pos, on, ANY)
        second = -1
        if R[R_FIVE] and cnt >= 3:
            second = weakest(values, pos, on, first)
        pen = C[c, LPEN, li]
        amt = C[c, LAMT, li]
        spare1 = diplomat(S, first, X[first], pen)
        spare2 = second >= 0 and diplomat(S, second, X[second], pen)
        if pen == 0:
            for p in range(P):
                movers[p] = 0
                steps[p] = 0
            if not spare1:
                movers[first] = 1
                steps[first] = -amt
            if second >= 0 and not spare2:
                movers[second] = 1
                steps[second] = -(amt - 1)
            move_many(pos, out, movers, steps, R[R_TRACK], order, on)
        elif pen == 1 or pen == 2:
            for who, n, spared in ((first, amt, spare1), (second, amt - 1, spare2)):
                if who < 0 or spared or (who == second and amt <= 1):
                    continue
                if pen == 1:
                    lose_crew(S, who, X[who], n)
                else:
                    lose_goods(S, who, X[who], n)
        else:
            heavy = -1
            for j in range(C[c, LNS, li]):
                if C[c, LSK + li, j] == HEAVY:
                    heavy = j
                    break
            for j in range(C[c, LNS, li]):
                kind, d = C[c, LSK + li, j], C[c, LSD + li, j]
                if not spare1:
                    flight_step(S, first, X[first], kind, d, ro[j], buf)
                if second >= 0 and j != heavy and not spare2:
                    flight_step(S, second, X[second], kind, d, ro[j], buf)


@jit
def sabotage(S, C, R, X, pos, out, sold, prices, ro, w, values):  # type: ignore[no-untyped-def]
    P = R[R_P]
    order, on, movers, steps, y, buf, gd, tmp, prov = w
    cnt = 0
    for p in range(P):
        on[p] = out[p] == 0
        if on[p]:
            cnt += 1
    if not (cnt >= 2 or (R[R_WEAKEST] and on[0] and cnt == 1)):
        return
    for p in range(P):
        if on[p]:
            values[p] = crew_count(S, p, X[p])
    first = weakest(values, pos, on, ANY)
    second = -1
    if R[R_FIVE] and cnt >= 3:
        second = weakest(values, pos, on, first)
    for who, tries in ((first, 3), (second, 2)):
        if who < 0:
            continue
        x = X[who]
        for k in range(tries):
            sq = S[who, SAB + ro[2 * k], ro[2 * k + 1]]
            t = S[who, SQTILE, sq]
            if t >= 0 and (x[0] >> t) & 1:
                destroy(S, who, x, 1 << t, buf)
                break
        leave_crewless(S, who, x, out, sold, prices, tmp)


@jit
def stardust(S, R, X, pos, out, w):  # type: ignore[no-untyped-def]
    P = R[R_P]
    order, on, movers, steps, y, buf, gd, tmp, prov = w
    for p in range(P):
        movers[p] = out[p] == 0
        steps[p] = -exposed(S, p, X[p]) if movers[p] else 0
    move_many(pos, out, movers, steps, R[R_TRACK], order, on)


@jit
def leave_crewless(S, p, x, out, sold, prices, tmp):  # type: ignore[no-untyped-def]
    """Race.crewless for player ``p``: a ship (or IIA half) without humans leaves at once; a half
    leaving sells its goods for half (rounded up) into ``sold``."""
    if out[p] != 0:
        return
    live = tmp[CREWLESS:CREWLESS + 8]
    nh = S[p, V, NHULL]
    nlive = 0
    empty = 0
    for h in range(nh):
        live[h] = 1 if S[p, GMASK, h] & x[0] else 0
        if live[h]:
            nlive += 1
            if humans(S, p, x, h if S[p, V, MULTI] else ANY) == 0:
                empty |= 1 << h
    if nlive == 0:  # nothing left flying
        out[p] = NO_HUMANS
        return
    if empty == 0:
        return
    if popcount(empty) == nlive:
        out[p] = NO_HUMANS
        return
    for h in range(nh):
        if (empty >> h) & 1:
            sold[p] += leave_hull(S, p, x, h, prices)


@jit
def crewless(S, R, X, out, sold, prices, tmp):  # type: ignore[no-untyped-def]
    """Race.crewless for every player."""
    for p in range(R[R_P]):
        leave_crewless(S, p, X[p], out, sold, prices, tmp)


# -- a whole run -----------------------------------------------------------------------------------
@jit
def play(S, C, R, start, prices, arrival, pol, init, purse, decks, rolls,  # type: ignore[no-untyped-def]
         o_credits, o_lost, o_survived, o_gave_up, o_days, o_place, o_card_credits, o_sources, by_type, tile_lost,
         depth):
    """Play every run: engine.play's loop, card by card, then scoring.py's credits and their sources
    (``o_sources[p, run]``: engine.SOURCES) and the goods each card type loaded still aboard
    (``by_type[p, type, 5]``, half credits)."""
    runs, size = decks.shape
    P = R[R_P]
    L = R[R_TRACK]
    X = np.empty_like(init)
    pos = np.empty(P, dtype=np.int64)
    out = np.empty(P, dtype=np.int64)
    cred = np.empty(P, dtype=np.int64)
    sold = np.empty(P, dtype=np.int64)
    lost0 = np.empty(P, dtype=np.int64)
    b_out = np.empty(P, dtype=np.int64)
    b_cred = np.empty(P, dtype=np.int64)
    b_pos = np.empty(P, dtype=np.int64)
    present = np.empty(P, dtype=np.int64)
    values = np.zeros(P, dtype=np.int64)
    tmp = np.zeros(TMP, dtype=np.int64)
    prov = np.empty((P, 4, depth), dtype=np.int64)
    w = (np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64),
         np.zeros(P, dtype=np.int64), np.empty(init.shape[1], dtype=np.int64), np.zeros(64, dtype=np.int64),
         np.zeros(4, dtype=np.int64), tmp, prov)
    buf = w[5]
    cnt = w[6]
    facts = np.zeros((P, 8), dtype=np.int64)
    for run in range(runs):
        X[:] = init
        prov[:] = LAUNCH
        for p in range(P):
            pos[p] = start[p]
            out[p] = 0
            cred[p] = 0
            sold[p] = 0
        crewless(S, R, X, out, sold, prices, tmp)
        for p in range(P):
            lost0[p] = lost(S, p, X[p])
        for s in range(size):
            c = decks[run, s]
            ro = rolls[run, s]
            typ = C[c, CI, CTYPE]
            tmp[KIND] = typ
            for p in range(P):
                b_out[p] = out[p]
                b_cred[p] = cred[p] + sold[p]
                b_pos[p] = pos[p]
                present[p] = out[p] == 0
                X[p, SPENT] = 0  # the Techie's free charge, once per card
            if typ == METEOR_SWARM:
                for j in range(C[c, CI, NATT]):
                    for p in range(P):
                        if out[p] == 0:
                            flight_step(S, p, X[p], C[c, ATTK, j], C[c, ATTD, j], ro[j], buf)
                    crewless(S, R, X, out, sold, prices, tmp)
            elif typ == SLAVERS or typ == SMUGGLERS or typ == PIRATES:
                enemies(S, C, R, X, pos, out, cred, sold, c, ro, pol, prices, w)
            elif typ == ABANDONED_SHIP or typ == ABANDONED_STATION:
                offers(S, C, R, X, pos, out, cred, sold, c, pol, prices, w)
            elif typ == PLANETS:
                planets(S, C, R, X, pos, out, cred, c, pol, prices, w)
            elif typ == OPEN_SPACE:
                open_space(S, C, R, X, pos, out, sold, pol, prices, w)
            elif typ == COMBAT_ZONE:
                combat_zone(S, C, R, X, pos, out, c, ro, w, values)
            elif typ == SABOTAGE:
                sabotage(S, C, R, X, pos, out, sold, prices, ro, w, values)
            elif typ == STARDUST:
                stardust(S, R, X, pos, out, w)
            elif typ == EPIDEMIC:
                for p in range(P):
                    if present[p]:
                        epidemic(S, p, X[p])
            tmp[KIND] = LAUNCH
            crewless(S, R, X, out, sold, prices, tmp)  # after every card (in a Combat Zone only now)
            lead = OFF
            for p in range(P):
                if out[p] == 0 and pos[p] > lead:
                    lead = pos[p]
            for p in range(P):
                if out[p] == 0 and lead - pos[p] > L:
                    out[p] = LAPPED
            for p in range(P):
                now = lost(S, p, X[p])
                by_type[p, typ, 0] += present[p]
                by_type[p, typ, 1] += now - lost0[p]
                by_type[p, typ, 2] += cred[p] + sold[p] - b_cred[p]
                by_type[p, typ, 3] += pos[p] - b_pos[p]
                by_type[p, typ, 4] += 1 if (b_out[p] == 0 and out[p] != 0) else 0
                lost0[p] = now
        # -- scoring.score ---------------------------------------------------------------------------
        any_whole = False
        for p in range(P):
            x = X[p]
            value = 0
            merchant = 0
            ogd = S[0, OFFS, 2]
            is_merchant = has(S, p, x, MERCHANT)
            for h in range(S[p, V, NHOLD]):
                for q in range(4):
                    value += x[ogd + 4 * h + q] * prices[q]
                    if is_merchant and q <= 1:
                        merchant += x[ogd + 4 * h + q]
            manager = 0
            if has(S, p, x, MANAGER):
                others = alien_colours(S, p, x) - 1
                manager = 1 if others == 0 else 3 if others == 1 else 6
            lst = lost(S, p, x)
            penalty = lst + S[p, V, ASIDE]
            if S[p, V, CAP] >= 0:
                penalty = min(penalty, S[p, V, CAP])
            if has(S, p, x, LAWYER):
                penalty = 0
            lux = 0
            for k in range(S[p, V, N_]):
                if S[p, LUXURY, k] and (x[0] >> k) & 1 and x[S[0, OFFS, 1] + k] > 0:
                    lux += 1
            whole = 1 if x[1] == 0 else 0
            fin = out[p] == 0
            facts[p, 0] = value if fin else (value + 1) // 2
            facts[p, 1] = merchant
            facts[p, 2] = (lux * R[R_LUXURY] + manager) if fin else 0
            facts[p, 3] = penalty
            facts[p, 4] = exposed(S, p, x)
            facts[p, 5] = humans(S, p, x, ANY)
            facts[p, 6] = whole
            facts[p, 7] = lst
            if fin and whole:
                any_whole = True
            for k in range(S[p, V, N_]):
                if not ((x[0] | x[1]) >> k) & 1:
                    tile_lost[p, k] += 1
            # the goods each card type loaded still aboard (last loaded leave first: Race.prov)
            goods_counts(S, p, x, cnt)
            for q in range(4):
                for i in range(cnt[q]):
                    src = prov[p, q, i]
                    if src != LAUNCH:
                        by_type[p, src, 5] += prices[q] * (2 if fin else 1)
        # places: whole ships first, then by position (stable by player)
        order = w[0]
        for i in range(P):
            order[i] = i
        for i in range(1, P):
            j = i
            while j > 0:
                a, b = order[j - 1], order[j]
                ka = facts[a, 6] * (1 << 40) + pos[a] if out[a] == 0 else OFF
                kb = facts[b, 6] * (1 << 40) + pos[b] if out[b] == 0 else OFF
                if kb > ka:
                    order[j - 1], order[j] = b, a
                    j -= 1
                else:
                    break
        n_elig = 0
        lo1 = BIG
        lo2 = BIG
        for p in range(P):
            elig = out[p] == 0 and (facts[p, 6] == 1 or not any_whole)
            values[p] = facts[p, 4] if elig else BIG
            if elig:
                n_elig += 1
            v = values[p]
            if v < lo1:
                lo2 = lo1
                lo1 = v
            elif v < lo2:
                lo2 = v
        bar = lo2 if (R[R_FIVE] and P >= 2 and n_elig >= 2) else lo1
        for rank in range(P):
            p = order[rank]
            fin = out[p] == 0
            elig = fin and (facts[p, 6] == 1 or not any_whole)
            bonus = R[R_BEST] if (elig and values[p] <= bar) else 0
            arr = arrival[rank] if fin else 0
            cards = cred[p] + facts[p, 1] + facts[p, 2]
            goods = facts[p, 0] + sold[p]
            earned = cards + goods + arr + bonus
            paid = min(facts[p, 3], purse[p] + earned)
            o_credits[p, run] = earned - paid
            o_sources[p, run, 0] = cards
            o_sources[p, run, 1] = goods
            o_sources[p, run, 2] = arr
            o_sources[p, run, 3] = bonus
            o_sources[p, run, 4] = -paid
            o_place[p, run] = rank + 1 if fin else 0
            o_lost[p, run] = facts[p, 7]
            o_survived[p, run] = facts[p, 5] > 0
            o_gave_up[p, run] = out[p]
            o_days[p, run] = pos[p] - start[p]
            o_card_credits[p, run] = cred[p] + sold[p]
