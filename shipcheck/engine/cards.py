"""The adventure cards, one function per card type, for the players of one run.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.jit.jit`).
"""

from __future__ import annotations

from shipcheck.jit import jit

from .bits import popcount
from .crew import crew_count, diplomat, humans, lose_crew
from .flight import flight_step
from .goods import gain, load, lose_goods
from .hull import destroy, exposed, leave_hull
from .layout import (
    ABANDONED_SHIP,
    ANY,
    ATTD,
    ATTK,
    BIG,
    CCRED,
    CCREWCOST,
    CCREWPEN,
    CCREWREQ,
    CDAYS,
    CGOODS,
    CGOODSPEN,
    CI,
    CREWLESS,
    CSTR,
    CTYPE,
    GMASK,
    HEAVY,
    LAMT,
    LCRIT,
    LIVE,
    LNS,
    LOSE,
    LPEN,
    LSD,
    LSK,
    MULTI,
    NATT,
    NBAT,
    NGOODS,
    NHULL,
    NLINE,
    NO_ENGINES,
    NO_HUMANS,
    NPL,
    NPLG,
    OFFS,
    PIRATES,
    PLG,
    POWER,
    R_FIVE,
    R_P,
    R_TRACK,
    R_WEAKEST,
    SAB,
    SAVE,
    SLAVERS,
    SMUGGLERS,
    SPENT,
    SQTILE,
    WIN,
    ZERO,
    V,
    _i,
)
from .power import engine, engine_top, fight, firepower, min_live
from .track import flying_in_order, move, move_many, order_of, weakest


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
