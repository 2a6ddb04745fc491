"""A whole run: the cards in order, then the scoring.

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

import numpy as np

from shipcheck.runtime import jit

from .bits import low_bit
from .crew import alien_colours, has, humans
from .encounters import (
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
from .goods import goods_counts
from .hull import come_back, exposed, lost, lost_tiles, lost_words
from .layout import (
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
from .views import copy_into, kept, unowned


@jit
def play(T, decks, rolls, outs, depth):  # type: ignore[no-untyped-def]
    """Play every run (decks and dice of :mod:`shipcheck.round.chunks`'s layout), card by card, then
    the scoring (rules digest §13), into the outputs. ``T``: the tables ``(S, C, R, start, prices,
    arrival, init, purse)``; ``outs``: the outputs ``(credits, lost, survived, gave_up, days, place,
    card_credits, sources, by_type, tile_lost)``: per player and run the credits and their sources
    (``sources[p, run]``: round.chunks.SOURCES), components lost, survival, the cause of giving up,
    days, place, card credits; per card type the totals of round.chunks.ACCOUNT (the goods each type
    loaded still aboard in ``by_type[p, type, 5]``, half credits); per tile the runs it was lost in."""
    S, C, R, start, prices, arrival, init, purse = T
    by_type, tile_lost = outs[8], outs[9]
    runs, size = decks.shape
    P = R[R_P]
    X = np.empty_like(init)
    F = np.zeros((F_ROWS, P), dtype=init.dtype)  # the run's rows per player (layout.F_*)
    B = np.empty((6, P), dtype=init.dtype)  # per player: lost and mask at the card's start, out, credits, position, present
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
    owners = (X, tmp, prov, y, buf, cnt, G, F, B)
    X, tmp, prov, y, buf, cnt, G, F, B = (unowned(X), unowned(tmp), unowned(prov), unowned(y), unowned(buf),
                                          unowned(cnt), unowned(G), unowned(F), unowned(B))
    S, C, R, start, prices, arrival = (unowned(S), unowned(C), unowned(R), unowned(start), unowned(prices),
                                       unowned(arrival))
    rolls = unowned(rolls)
    w = (y, buf, cnt, tmp, prov)
    jumps = jumpers(S, R)
    for run in range(runs):
        _launch(S, R, X, F, B, init, start, prices, prov, tmp)
        for s in range(size):
            _card(S, C, R, X, F, B, decks[run, s], rolls[run, s], s == size - 1, jumps, prices, G, w, by_type)
        for p in range(P):  # halves still in hyperspace come back for the scoring (not lost)
            come_back(S, p, X[p])
        any_whole = _facts(S, R, X, F, prices, prov, cnt, facts, by_type, tile_lost)
        _score(R, F, facts, any_whole, arrival, start, purse, run, outs)
    kept(owners)


@jit(inline=True)
def _launch(S, R, X, F, B, init, start, prices, prov, tmp):  # type: ignore[no-untyped-def]
    """A run's start: every ship as built, on its start space, nothing earned; a ship (or half)
    without humans at launch leaves (OQ20); ``B``'s lost and mask rows as launched."""
    for p in range(X.shape[0]):
        copy_into(X[p], init[p])
    prov[:] = LAUNCH
    pos, out, cred, sold, hh = F[F_POS], F[F_OUT], F[F_CRED], F[F_SOLD], F[F_HH:F_HH + 2]
    for p in range(R[R_P]):
        pos[p] = start[p]
        out[p] = 0
        cred[p] = 0
        sold[p] = 0
        hh[0, p] = 0
        hh[1, p] = 0
    crewless(S, R, X, F, prices, tmp)
    for p in range(R[R_P]):
        B[1, p] = X[p, 0]
        B[0, p] = lost_words(S, p, X[p, 0], X[p, 1], X[p, AWAY])


@jit(inline=True)
def _card(S, C, R, X, F, B, c, ro, last, jumps, prices, G, w, by_type):  # type: ignore[no-untyped-def]
    """Card ``c`` (its dice ``ro``; ``last``: the deck's last card): before it the hyperspace
    counters, the Techie's charge and giving up; the card; after it ships without humans and lapped
    ships leave; then what it did, added to ``by_type`` by its type."""
    y, buf, cnt, tmp, prov = w
    pos, out, cred, sold, hh = F[F_POS], F[F_OUT], F[F_CRED], F[F_SOLD], F[F_HH:F_HH + 2]
    lost0, mask0, b_out, b_cred, b_pos, present = B[0], B[1], B[2], B[3], B[4], B[5]
    P = R[R_P]
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
        hyperspace(S, R, X, F, c, last, prices, buf, tmp)
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


@jit(inline=True)
def _facts(S, R, X, F, prices, prov, cnt, facts, by_type, tile_lost):  # type: ignore[no-untyped-def]
    """What the scoring reads of each ship at the end (``facts[p]``: goods' value, the Merchant's
    goods, luxury passengers and the Manager, the penalty, exposed connectors, humans, whole, lost),
    the tiles lost (``tile_lost``) and the goods each card type loaded still aboard; whether some
    ship that finished is whole."""
    out = F[F_OUT]
    any_whole = False
    for p in range(R[R_P]):
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
    return any_whole


@jit(inline=True)
def _score(R, F, facts, any_whole, arrival, start, purse, run, outs):  # type: ignore[no-untyped-def]
    """The places (whole ships first, then by position, stable by player), the best-looking bonus,
    the arrival rewards and the penalty paid from the purse: run ``run``'s outputs in ``outs``."""
    o_credits, o_lost, o_survived, o_gave_up, o_days, o_place, o_card_credits, o_sources = (
        outs[0], outs[1], outs[2], outs[3], outs[4], outs[5], outs[6], outs[7])
    P = R[R_P]
    pos, out, cred, sold = F[F_POS], F[F_OUT], F[F_CRED], F[F_SOLD]
    values, order = F[F_VALUES], F[F_ORDER]
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
