"""Engine power and firepower, and the fight against an enemy.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit

from .bits import low_bit
from .charges import all_charges, charged, charges_in, draw, free_charge, lend, lent_charges, settle
from .crew import bonus_alien, manager_with
from .decide import asked, python
from .hull import destroy
from .layout import (
    ADJ,
    BIG,
    BYH,
    CANDBL,
    CANFWD,
    CANTILE,
    CANVAL,
    CBTILE,
    CT,
    CV,
    D_FIGHT,
    ENGDBL,
    ENGPOW,
    ENGTILE,
    GIDX,
    GMASK,
    LIVE,
    LOSE,
    MULTI,
    NBAT,
    NCAN,
    NCB,
    NDBL,
    NENG,
    NHULL,
    OFFS,
    ORANGE,
    POWER,
    PURPLE,
    SAVE,
    SPENT,
    TIE,
    WIN,
    V,
    _i,
    alien_bonus,
)

#: the rule of an alien's bonus, shared with ``stats`` (its one home is in the layout, compiled
#: here with the engine)
_alien_bonus = jit(alien_bonus, inline=True, module=__name__)


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
    for h in range(nh):
        tmp[POWER + h] = 0
        tmp[NDBL + h] = 0
        tmp[LIVE + h] = 1 if S[p, GMASK, h] & mask else 0
    multi = S[p, V, MULTI]
    # the rows once: as plain Python an element of a row costs less than of the table
    tiles, dbl, pw = S[p, ENGTILE], S[p, ENGDBL], S[p, ENGPOW]
    for e in range(S[p, V, NENG]):
        t = tiles[e]
        if not (mask >> t) & 1:
            continue
        h = S[p, GIDX, t] if multi else 0  # (one hull: hull 0)
        if dbl[e]:
            if k > 0:  # (tmp[NDBL] counts for the charges only)
                tmp[NDBL + h] += 1
        else:
            tmp[POWER + h] += pw[e]
    for _ in range(k):
        best = -1
        for h in range(nh):
            if tmp[LIVE + h] and tmp[NDBL + h] > 0 and charged(S, p, x, h) and (best < 0 or tmp[POWER + h] < tmp[POWER + best]):
                best = h
        if best < 0:
            break
        tmp[NDBL + best] -= 1
        draw(S, p, x, best)
        tmp[POWER + best] += 2
    orange = bonus_alien(S, p, x, ORANGE)
    if orange >= 0:
        h = S[p, GIDX, orange]
        tmp[POWER + h] += _alien_bonus(tmp[POWER + h], manager_with(S, p, x, orange))
    return min_live(tmp, nh)


@jit(inline=True)
def min_live(tmp, nh):  # type: ignore[no-untyped-def]
    """The lowest engine power (``tmp[POWER]``) of the hulls aboard (``tmp[LIVE]``), 0 with none."""
    out = BIG
    for h in range(nh):
        if tmp[LIVE + h] and tmp[POWER + h] < out:
            out = tmp[POWER + h]
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
    # per hull (tmp[BYH]) only on IIA, where a purple alien counts its own half's firepower
    multi = S[p, V, MULTI]
    if multi:
        for h in range(S[p, V, NHULL]):
            tmp[BYH + h] = 0
    nc = S[p, V, NCAN]
    nch = 0
    total = 0
    fwd_b = 0
    ranked = k > 0 or boost >= 0  # the double cannons in order, for the charges or a boost only
    # the rows once: as plain Python an element of a row costs less than of the table
    tiles, dbl, val = S[p, CANTILE], S[p, CANDBL], S[p, CANVAL]
    for i in range(nc):
        t = tiles[i]
        if t == boost:
            fwd_b = S[p, CANFWD, i]
        if not (mask >> t) & 1:
            continue
        if dbl[i]:
            if not ranked:
                continue
            v = val[i]
            # insertion by (-value, tile)
            j = nch
            while j > 0 and (tmp[CV + j - 1] < v or (tmp[CV + j - 1] == v and tmp[CT + j - 1] > t)):
                tmp[CV + j] = tmp[CV + j - 1]
                tmp[CT + j] = tmp[CT + j - 1]
                j -= 1
            tmp[CV + j] = v
            tmp[CT + j] = t
            nch += 1
        else:
            v = val[i]
            total += v
            if multi:
                tmp[BYH + S[p, GIDX, t]] += v
    powered = 0
    if boost >= 0:
        b = boost
        for j in range(nch):
            if tmp[CT + j] == b:
                if draw(S, p, x, S[p, GIDX, b]) < 0:
                    return -1
                total += tmp[CV + j]
                if multi:
                    tmp[BYH + S[p, GIDX, b]] += tmp[CV + j]
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
        if multi:
            tmp[BYH + S[p, GIDX, b]] += bonus
    left = k
    for j in range(nch):
        if left <= 0:
            break
        t = tmp[CT + j]
        if (powered >> t) & 1:
            continue
        if draw(S, p, x, S[p, GIDX, t]) >= 0:
            total += tmp[CV + j]
            if multi:
                tmp[BYH + S[p, GIDX, t]] += tmp[CV + j]
            powered |= 1 << t
            left -= 1
    purple = bonus_alien(S, p, x, PURPLE)
    if purple >= 0:
        base = tmp[BYH + S[p, GIDX, purple]] if multi else total
        total += 2 * _alien_bonus(base, manager_with(S, p, x, purple))  # (half units)
    return total


@jit
def fight_choice(S, p, x, strength, tmp):  # type: ignore[no-untyped-def]
    """The built-in policies' declaration against an enemy of ``strength``: the fewest charges that
    beat it, else the fewest that tie it, else none; a cannon booster only when it costs no more
    (RoundPolicy.fight). Encoded as ``charges * 64 + boosted cannon + 1``; ``x`` is left unchanged."""
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
    for i in range(nb):
        tmp[SAVE + i] = x[och + i]
    spent = x[SPENT]
    while True:
        for k in range(top + 1):
            # firepower only spends charges: try each declaration on x and put the charges back
            fp = firepower(S, p, x, _i(k), _i(b), tmp)
            cost = have - all_charges(S, p, x)
            for i in range(nb):
                x[och + i] = tmp[SAVE + i]
            x[SPENT] = spent
            if fp < 0:
                continue
            if fp > target:
                if cost < wc or (cost == wc and wb >= 0 and b < 0):
                    wk, wb, wc = k, b, cost
                # more charges fire no less and cost no less: none with this boost does better
                break
            elif fp == target:
                if cost < tc or (cost == tc and tb >= 0 and b < 0):
                    tk, tb, tc = k, b, cost
        b += 1  # the next cannon a booster could boost (tile masks stop below bit 63)
        rest = opts >> b
        if rest == 0:
            break
        b += low_bit(rest)
    if wk >= 0:
        return wk * 64 + wb + 1
    if tk >= 0:
        return tk * 64 + tb + 1
    return 0


@jit
def fight(S, p, x, strength, buf, tmp):  # type: ignore[no-untyped-def]
    """Player ``p`` declares its firepower against an enemy of ``strength`` (its policy's choice;
    a choice the charges or boosters do not allow declares nothing) and spends it; a boosted cannon
    is destroyed after the check (rules §11.1). WIN, TIE or LOSE."""
    if asked(S, p, D_FIGHT):
        choice = python(S, p, D_FIGHT, x, strength, 0, 0, tmp)
    else:
        choice = fight_choice(S, p, x, strength, tmp)
    k = choice // 64
    b = choice % 64 - 1
    och, nb = S[0, OFFS, 0], S[p, V, NBAT]
    for i in range(nb):
        tmp[SAVE + i] = x[och + i]
    spent = x[SPENT]
    fp = -1
    if b < 0 or (boost_options(S, p, x) >> b) & 1:
        fp = firepower(S, p, x, _i(k), _i(b), tmp)
    if fp < 0:
        for i in range(nb):
            x[och + i] = tmp[SAVE + i]
        x[SPENT] = spent
        b = -1
        fp = firepower(S, p, x, _i(0), _i(-1), tmp)
    if b >= 0:
        destroy(S, p, x, _i(1) << b, buf)
    target = 2 * strength
    return WIN if fp > target else TIE if fp == target else LOSE
