"""A whole run: the cards in order, then the scoring.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

import numpy as np

from shipcheck.engine.bits import low_bit
from shipcheck.engine.crew import alien_colours, has, humans
from shipcheck.engine.encounters import (
    after_card,
    crewless,
    epidemics,
    give_up,
    hyperspace,
    jumpers,
    new_card,
    offers,
    open_space,
    planets,
    rolled,
    sabotage,
    stardust,
)
from shipcheck.engine.goods import goods_counts
from shipcheck.engine.hull import come_back, exposed, lost, lost_tiles, lost_words
from shipcheck.engine.layout import (
    ABANDONED_SHIP,
    ABANDONED_STATION,
    ANY,
    ASIDE,
    AWAY,
    BIG,
    CAP,
    CI,
    COMBAT_ZONE,
    CTYPE,
    EPIDEMIC,
    F_CRED,
    F_HH,
    F_ORDER,
    F_OUT,
    F_POS,
    F_ROWS,
    F_SOLD,
    F_VALUES,
    GN,
    KIND,
    LAUNCH,
    LAWYER,
    LUXURY,
    MANAGER,
    MERCHANT,
    METEOR_SWARM,
    N_,
    NHOLD,
    OFF,
    OFFS,
    OPEN_SPACE,
    PIRATES,
    PLANETS,
    R_BEST,
    R_FIVE,
    R_LUXURY,
    R_P,
    SABOTAGE,
    SLAVERS,
    SMUGGLERS,
    STARDUST,
    TMP,
    V,
)
from shipcheck.engine.views import kept, unowned
from shipcheck.runtime import jit


@jit
def play(S, C, R, start, prices, arrival, init, purse, decks, rolls,  # type: ignore[no-untyped-def]
         o_credits, o_lost, o_survived, o_gave_up, o_days, o_place, o_card_credits, o_sources, by_type, tile_lost,
         depth):
    """Play every run (decks and dice of :mod:`shipcheck.round.chunks`'s layout), card by card, then
    the scoring (rules digest §13) into the outputs: per player and run the credits and their
    sources (``o_sources[p, run]``: round.chunks.SOURCES), components lost, survival, the cause of
    giving up, days, place, card credits; per card type the totals of round.chunks.ACCOUNT (the goods
    each type loaded still aboard in ``by_type[p, type, 5]``, half credits); per tile the runs it was
    lost in.

    Before each card: hyperspace counters count down, a half back from hyperspace rejoins, the
    Techie's free charge is available again, and players may give up (their policy); then the card
    (and jumps to hyperspace once it is revealed), ships without humans leave, lapped ships give up."""
    runs, size = decks.shape
    P = R[R_P]
    X = np.empty_like(init)
    F = np.zeros((F_ROWS, P), dtype=init.dtype)  # the run's rows per player (layout.F_*)
    lost0 = np.empty(P, dtype=init.dtype)
    mask0 = np.empty(P, dtype=init.dtype)
    b_out = np.empty(P, dtype=init.dtype)
    b_cred = np.empty(P, dtype=init.dtype)
    b_pos = np.empty(P, dtype=init.dtype)
    present = np.empty(P, dtype=init.dtype)
    tmp = np.zeros(TMP, dtype=init.dtype)
    prov = np.empty((P, 4, depth), dtype=init.dtype)
    y = np.empty(init.shape[1], dtype=init.dtype)
    buf = np.zeros(64, dtype=init.dtype)
    cnt = np.zeros(4, dtype=init.dtype)
    facts = np.zeros((P, 8), dtype=init.dtype)
    G = np.zeros(GN, dtype=init.dtype)
    # the arrays the run's functions are passed, viewed without an owner: no reference counting in
    # the calls per card, nor for the rows sliced from them (.views); ``owners`` keeps the arrays
    # made here alive to the end (the arguments are the caller's)
    owners = (X, tmp, prov, y, buf, cnt, G, F)
    X, tmp, prov, y, buf, cnt, G, F = (unowned(X), unowned(tmp), unowned(prov), unowned(y), unowned(buf),
                                       unowned(cnt), unowned(G), unowned(F))
    S, C, R, start, prices, arrival = (unowned(S), unowned(C), unowned(R), unowned(start), unowned(prices),
                                       unowned(arrival))
    rolls = unowned(rolls)
    w = (y, buf, cnt, tmp, prov)
    # the rows play itself reads and writes (the card functions are passed F)
    pos, out, cred, sold, hh = F[F_POS], F[F_OUT], F[F_CRED], F[F_SOLD], F[F_HH:F_HH + 2]
    values, order = F[F_VALUES], F[F_ORDER]
    jumps = jumpers(S, R)
    for run in range(runs):
        X[:] = init
        prov[:] = LAUNCH
        for p in range(P):
            pos[p] = start[p]
            out[p] = 0
            cred[p] = 0
            sold[p] = 0
            hh[0, p] = 0
            hh[1, p] = 0
        crewless(S, R, X, F, prices, tmp)  # a ship (or half) without humans at launch: OQ20
        for p in range(P):
            mask0[p] = X[p, 0]
            lost0[p] = lost_words(S, p, X[p, 0], X[p, 1], X[p, AWAY])
        for s in range(size):
            c = decks[run, s]
            ro = rolls[run, s]
            typ = C[c, CI, CTYPE]
            new_card(S, R, X, F)
            give_up(S, R, X, F, tmp)
            for p in range(P):
                b_out[p] = out[p]
                b_cred[p] = cred[p] + sold[p]
                b_pos[p] = pos[p]
                present[p] = out[p] == 0 and hh[0, p] == 0
            tmp[KIND] = typ
            if jumps:  # else nothing jumps, and the ships' crews are as the last card left them
                hyperspace(S, R, X, F, c, s == size - 1, prices, buf, tmp)
                crewless(S, R, X, F, prices, tmp)  # the jump's engine may take the humans with it
            if typ == METEOR_SWARM or typ == SLAVERS or typ == SMUGGLERS or typ == PIRATES or typ == COMBAT_ZONE:
                rolled(S, C, R, X, F, c, ro, G, prices, w)
            elif typ == ABANDONED_SHIP or typ == ABANDONED_STATION:
                offers(S, C, R, X, F, c, prices, w)
            elif typ == PLANETS:
                planets(S, C, R, X, F, c, prices, w)
            elif typ == OPEN_SPACE:
                open_space(S, C, R, X, F, prices, w)
            elif typ == SABOTAGE:
                sabotage(S, C, R, X, F, prices, ro, w)
            elif typ == STARDUST:
                stardust(S, R, X, F)
            elif typ == EPIDEMIC:
                epidemics(S, R, X, F)
            tmp[KIND] = LAUNCH
            after_card(S, R, X, F, prices, tmp)
            for p in range(P):
                # only what changed is added: as plain Python each add to the int64 outputs costs
                # conversions, and most cards change little of a ship
                if present[p]:
                    by_type[p, typ, 0] += 1
                m = X[p, 0]
                if jumps or m != mask0[p]:  # no half away: a tile is lost only from the mask
                    mask0[p] = m
                    now = lost_words(S, p, m, X[p, 1], X[p, AWAY])
                    if now != lost0[p]:
                        by_type[p, typ, 1] += now - lost0[p]
                        lost0[p] = now
                d = cred[p] + sold[p] - b_cred[p]
                if d != 0:
                    by_type[p, typ, 2] += d
                d = pos[p] - b_pos[p]
                if d != 0:
                    by_type[p, typ, 3] += d
                if b_out[p] == 0 and out[p] != 0:
                    by_type[p, typ, 4] += 1
        for p in range(P):  # halves still in hyperspace come back for the scoring (not lost)
            come_back(S, p, X[p])
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
            luxury, aboard, ocr = S[p, LUXURY], x[0], S[0, OFFS, 1]
            for k in range(S[p, V, N_]):
                if luxury[k] and (aboard >> k) & 1 and x[ocr + k] > 0:
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
            gone = lost_tiles(S, p, x[0], x[1], x[AWAY])
            while gone:
                tile_lost[p, low_bit(gone)] += 1
                gone &= gone - 1
            # the goods each card type loaded still aboard (last loaded leave first: Race.prov)
            goods_counts(S, p, x, cnt)
            for q in range(4):
                for i in range(cnt[q]):
                    src = prov[p, q, i]
                    if src != LAUNCH:
                        by_type[p, src, 5] += prices[q] * (2 if fin else 1)
        # places: whole ships first, then by position (stable by player)
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
    kept(owners)
