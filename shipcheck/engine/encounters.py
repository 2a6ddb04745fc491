"""The adventure cards, one function per card type, for the players of one run (rules digest §9.2).

Each card is resolved for the players present (flying, not in hyperspace) in flight order from the
leader, with the player's decisions asked where the rules let the player choose
(:mod:`.decide`). A ship (or a IIA half) left without humans leaves at once (:func:`leave_crewless`),
except in a Combat Zone, where it leaves after the card (base rulebook). The run's rows per player
are one array ``F`` (:data:`.layout.F_ROWS` rows, named by ``layout.F_*``): ``F[F_POS]`` track
positions, ``F[F_OUT]`` the cause a player gave up for (0 while flying), ``F[F_HH]`` the cards a
player still sits out in hyperspace, ``F[F_HH + 1]`` those a IIA half in hyperspace still spends
there while the other flies, ``F[F_CRED]`` the credits cards paid, ``F[F_SOLD]`` those of goods sold
by halves that left, then the rows a card compares and moves with; ``w`` the scratch arrays
(:func:`shipcheck.engine.run.play`).

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit

from .bits import popcount
from .crew import crew_count, diplomat, epidemic, lose_crew, lose_crew_default, manned
from .decide import asked, python, racing
from .defence import flight_step
from .goods import gain, gain_in, goods_counts, load, lose_goods, space
from .hull import come_back, destroy, exposed, hyperjump, leave_hull, send_away
from .layout import (
    ABANDONED_SHIP,
    ANY,
    ATTD,
    ATTK,
    AWAY,
    BIG,
    CCRED,
    CCREWCOST,
    CCREWPEN,
    CCREWREQ,
    CDAYS,
    CGOODS,
    CGOODSPEN,
    CI,
    COMBAT_ZONE,
    CSTR,
    CTYPE,
    D_COMBAT,
    D_GIVE_UP,
    D_HYPERSPACE,
    D_OPEN_SPACE,
    D_PLANET,
    D_REWARD,
    D_SHIP,
    D_STATION,
    F_CRED,
    F_HH,
    F_MOVERS,
    F_ON,
    F_ORDER,
    F_OUT,
    F_POS,
    F_SOLD,
    F_STEPS,
    F_VALUES,
    G_BEATEN,
    G_DIR,
    G_FIRST,
    G_FOUGHT,
    G_HEAVY,
    G_HIT,
    G_J,
    G_KIND,
    G_LINE,
    G_SECOND,
    G_SPARED,
    G_WHO,
    GAIN,
    GMASK,
    GN,
    HEAVY,
    HYPERSPACE,
    LAMT,
    LAPPED,
    LCRIT,
    LIVE,
    LNS,
    LOSE,
    LPEN,
    LSD,
    LSK,
    METEOR_SWARM,
    MULTI,
    NATT,
    NBAT,
    NEB,
    NGOODS,
    NHULL,
    NLINE,
    NO_ENGINES,
    NO_HUMANS,
    NPL,
    NPLG,
    OFF,
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
    VOLUNTARY,
    WIN,
    ZERO,
    V,
    _i,
)
from .power import engine, engine_top, fight, firepower, min_live
from .track import flying_in_order, move, move_many, weakest
from .views import copy_into


# -- who is there ---------------------------------------------------------------------------------
@jit(inline=True)
def present(F, p):  # type: ignore[no-untyped-def]
    """Player ``p`` flies and is not sitting the card out in hyperspace."""
    return F[F_OUT, p] == 0 and F[F_HH, p] == 0


@jit(inline=True)
def only_away_left(F, p):  # type: ignore[no-untyped-def]
    """The half flying left the flight while the other waits in hyperspace: the ship is now that
    half, in hyperspace for the cards it has left there."""
    F[F_HH, p] = F[F_HH + 1, p]
    F[F_HH + 1, p] = 0


@jit(inline=True)
def leave_crewless(S, p, x, F, prices):  # type: ignore[no-untyped-def]
    """A ship (or IIA half) without humans leaves the flight (rules §10.1, §10.2): a half leaving
    sells its goods for half (rounded up) into ``F[F_SOLD]``; when only a half in hyperspace is left the
    ship waits there with it; with nothing left it gives up."""
    if F[F_OUT, p] != 0:
        return
    nh = S[p, V, NHULL]
    mask = x[0]
    multi = S[p, V, MULTI]
    nlive = 0
    empty = 0
    for h in range(nh):
        if S[p, GMASK, h] & mask:
            nlive += 1
            if not manned(S, p, x, h if multi else ANY):
                empty |= 1 << h
    away = x[AWAY] != 0
    if nlive == 0:  # nothing left flying
        if away:
            come_back(S, p, x)
            only_away_left(F, p)
        else:
            F[F_OUT, p] = NO_HUMANS
        return
    if empty == 0:
        return
    if popcount(empty) == nlive and not away:
        F[F_OUT, p] = NO_HUMANS
        return
    for h in range(nh):
        if (empty >> h) & 1:
            F[F_SOLD, p] += leave_hull(S, p, x, h, prices)
    if popcount(empty) == nlive:
        come_back(S, p, x)
        only_away_left(F, p)


@jit(inline=True)
def crewless(S, R, X, F, prices, tmp):  # type: ignore[no-untyped-def]
    """:func:`leave_crewless` for every player."""
    for p in range(R[R_P]):
        if F[F_OUT, p] == 0:  # (leave_crewless looks at nothing else of a ship that left: no call)
            leave_crewless(S, p, X[p], F, prices)


@jit(inline=True)
def new_card(S, R, X, F):  # type: ignore[no-untyped-def]
    """Before each card: the cards left in hyperspace count down (a half whose two cards are over
    rejoins its ship) and the Techie's free charge is available again."""
    for p in range(R[R_P]):
        if F[F_HH, p] > 0:
            F[F_HH, p] -= 1
        if F[F_HH + 1, p] > 0:
            F[F_HH + 1, p] -= 1
            if F[F_HH + 1, p] == 0:
                come_back(S, p, X[p])
        X[p, SPENT] = 0


@jit(inline=True)
def after_card(S, R, X, F, prices, tmp):  # type: ignore[no-untyped-def]
    """After each card: ships (or halves) without humans leave (in a Combat Zone only now), and a
    ship lapped by the leader gives up (rules §10.1)."""
    crewless(S, R, X, F, prices, tmp)
    lead = OFF
    for p in range(R[R_P]):
        if F[F_OUT, p] == 0 and F[F_POS, p] > lead:
            lead = F[F_POS, p]
    for p in range(R[R_P]):
        if F[F_OUT, p] == 0 and lead - F[F_POS, p] > R[R_TRACK]:
            F[F_OUT, p] = LAPPED


# -- decisions of the card's own ------------------------------------------------------------------
@jit
def take_reward(S, C, p, x, c, tmp):  # type: ignore[no-untyped-def]
    """Whether player ``p`` takes a defeated enemy's reward (and loses its days): always for the
    default policy; racing takes goods only without days, credits only at 2 a day or more."""
    if asked(S, p, D_REWARD):
        return python(S, p, D_REWARD, x, c, 0, 0, tmp) != 0
    if not racing(S, p):
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


# -- cards rolled a roll at a time -----------------------------------------------------------------
# A card whose dice decide (a meteor swarm; pirates' shots; a combat zone's shots) runs as steps: a
# call carries on from where the card's registers ``G`` (layout.G_*) say, up to the next roll it
# needs (the players it strikes in ``G[G_WHO]``, the attack's index, kind and direction) or to its
# end (it returns 0). A call with ``G[G_WHO] == 0`` starts the card; one with a roll waiting plays
# dice pair ``roll`` first. A run plays the card with its dice (:func:`rolled`); the exact odds
# (:mod:`.joint`) call the same steps with every roll in turn.
@jit
def _wait(G, j, who, kind, d):  # type: ignore[no-untyped-def]
    """Wait for the roll of attack ``j`` (``kind`` from direction ``d``) striking players ``who``."""
    G[G_J] = j
    G[G_WHO] = who
    G[G_KIND] = kind
    G[G_DIR] = d
    return 1


@jit
def _done(G):  # type: ignore[no-untyped-def]
    G[G_WHO] = 0
    return 0


# -- enemies: smugglers, slavers, pirates ----------------------------------------------------------
@jit
def enemies(S, C, R, X, F, c, G, roll, prices, w):  # type: ignore[no-untyped-def]
    """Smugglers, Slavers and Pirates (rules §9.2(6)) attack in flight order from the leader:
    firepower above the strength wins (the reward, if taken, with its days), equal does nothing, lower
    brings the penalty, unless the Diplomat sends them on; the enemy moves on after a tie or a loss.
    Five-player rules (§12.3): it must be beaten twice, the second winner getting 1 credit or 1 good
    fewer. Pirates mark every ship they beat, then roll each shot once for all of them (steps: see
    above)."""
    P = R[R_P]
    typ = C[c, CI, CTYPE]
    y, buf, gd, tmp, prov = w
    if G[G_WHO]:  # the shot G[G_J] at the ships beaten and still flying
        j = G[G_J]
        for p in range(P):
            if (G[G_WHO] >> p) & 1:
                flight_step(S, p, X[p], C[c, ATTK, j], C[c, ATTD, j], roll, j, buf, tmp)
                leave_crewless(S, p, X[p], F, prices)
        j += 1
    else:
        cnt = flying_in_order(F)
        need = 2 if R[R_FIVE] else 1
        defeats = 0
        beaten = 0
        pen = _i(1 if typ == SLAVERS else 2 if typ == SMUGGLERS else 3)
        for r in range(cnt):
            p = F[F_ORDER, r]
            if defeats >= need:
                continue
            x = X[p]
            res = fight(S, p, x, C[c, CI, CSTR], buf, tmp)
            if p == 0:
                G[G_FOUGHT] = res + 1
            if res == WIN:
                second = min(defeats, 1)
                if take_reward(S, C, p, x, c, tmp):
                    if typ == SMUGGLERS:
                        card_goods(C, c, second, gd)
                        load(S, p, x, gd, tmp, prov)
                    else:
                        F[F_CRED, p] += C[c, CI, CCRED] - second
                    F[F_MOVERS, p] = 1
                    F[F_STEPS, p] = -C[c, CI, CDAYS]
                defeats += 1
            elif res == LOSE and not diplomat(S, p, x, pen, c, tmp):
                beaten |= 1 << p
                if typ == SLAVERS:
                    lose_crew(S, p, x, C[c, CI, CCREWPEN], tmp)
                elif typ == SMUGGLERS:
                    lose_goods(S, p, x, C[c, CI, CGOODSPEN])
            leave_crewless(S, p, x, F, prices)
        move_many(F, R[R_TRACK])
        if typ != PIRATES:
            return _done(G)
        G[G_BEATEN] = beaten
        j = 0
    if j < C[c, CI, NATT]:
        who = 0
        for p in range(P):
            # present, not just flying: when the half that lost leaves (no humans) while the other
            # waits in hyperspace, that half is safe from the rest of the card (rules §11.2)
            if (G[G_BEATEN] >> p) & 1 and present(F, p):
                who |= 1 << p
        if who:
            return _wait(G, j, who, C[c, ATTK, j], C[c, ATTD, j])
    return _done(G)


# -- offers: abandoned ships and stations ----------------------------------------------------------
@jit
def _accepts_ship(S, C, p, x, c, cost, y, tmp):  # type: ignore[no-untyped-def]
    if asked(S, p, D_SHIP):
        return python(S, p, D_SHIP, x, c, cost, 0, tmp) != 0
    if racing(S, p) and C[c, CI, CCRED] < 2 * C[c, CI, CDAYS]:
        return False
    copy_into(y, x)  # the default: the crew paid, a human still aboard
    lose_crew_default(S, p, y, cost, tmp)
    return manned(S, p, y, ANY)


@jit
def _accepts_station(S, C, p, x, c, second, gd, prices, tmp):  # type: ignore[no-untyped-def]
    if asked(S, p, D_STATION):
        return python(S, p, D_STATION, x, c, second, 0, tmp) != 0
    return not racing(S, p) and gain(S, p, x, gd, prices, tmp) > 0


@jit
def offers(S, C, R, X, F, c, prices, w):  # type: ignore[no-untyped-def]
    """Abandoned Ship (§9.2(3)): the first ship in flight order that accepts gives the crew, takes
    the credits and loses the days; Abandoned Station (§9.2(4)): the first with crew enough that
    accepts loads the goods and loses the days. Five-player rules (§12.2): a second taker, for 1 credit
    or 1 good fewer; the takers lose their days rearmost first."""
    typ = C[c, CI, CTYPE]
    y, buf, gd, tmp, prov = w
    cnt = flying_in_order(F)
    room_ = 2 if R[R_FIVE] else 1
    taken = 0
    for r in range(cnt):
        p = F[F_ORDER, r]
        if taken >= room_:
            continue
        x = X[p]
        second = min(taken, 1)
        ok = False
        if typ == ABANDONED_SHIP:
            cost = C[c, CI, CCREWCOST]
            if crew_count(S, p, x) >= cost and _accepts_ship(S, C, p, x, c, cost, y, tmp):
                ok = True
                lose_crew(S, p, x, cost, tmp)
                F[F_CRED, p] += C[c, CI, CCRED] - second
        else:
            card_goods(C, c, second, gd)
            if crew_count(S, p, x) >= C[c, CI, CCREWREQ] and _accepts_station(S, C, p, x, c, second, gd, prices,
                                                                               tmp):
                ok = True
                load(S, p, x, gd, tmp, prov)
        if ok:
            F[F_MOVERS, p] = 1
            F[F_STEPS, p] = -C[c, CI, CDAYS]
            taken += 1
        leave_crewless(S, p, x, F, prices)
    move_many(F, R[R_TRACK])


# -- planets --------------------------------------------------------------------------------------
@jit
def _planet_goods(C, c, i, shared, gd):  # type: ignore[no-untyped-def]
    for q in range(4):
        gd[q] = 0
    for q in range(C[c, NPLG, i] - shared):  # a shared planet: the least valuable good fewer
        gd[C[c, PLG + i, q]] += 1


@jit
def _planet_default(S, C, p, x, c, free, share, gd, prices, tmp):  # type: ignore[no-untyped-def]
    """The built-in policies' planet: the default's is the free one whose goods that fit add the
    most value (ties: the planet printed first), a shared one only when it adds more; -1 when none
    adds anything, and always for racing (it never lands)."""
    if racing(S, p):
        return -1
    npl = C[c, CI, NPL]
    best_g = 0
    best_free = 0
    best = -1
    goods_counts(S, p, x, tmp[GAIN:GAIN + 4])  # the cargo and the holds, once for every planet
    sp, tot = space(S, p, x)
    for phase in range(2):
        if phase == 1 and not share:
            break
        for i in range(npl):
            isfree = (free >> i) & 1
            if (phase == 0 and not isfree) or (phase == 1 and isfree):
                continue
            _planet_goods(C, c, i, phase, gd)
            g = gain_in(sp, tot, gd, prices, tmp)
            nf = 1 - phase
            if g > 0 and (best < 0 or g > best_g or (g == best_g and nf > best_free)):
                best_g, best_free, best = g, nf, i + 64 * phase
    return best


@jit
def planets(S, C, R, X, F, c, prices, w):  # type: ignore[no-untyped-def]
    """Planets (§9.2(2)): in flight order each ship may land on a free planet and load its goods; the
    landers then lose the card's days, rearmost first. Five-player rules (§12.1): one ship may land
    on a taken planet, taking one good fewer (the least valuable)."""
    y, buf, gd, tmp, prov = w
    cnt = flying_in_order(F)
    free = (1 << C[c, CI, NPL]) - 1
    share = R[R_FIVE]
    for r in range(cnt):
        p = F[F_ORDER, r]
        x = X[p]
        if asked(S, p, D_PLANET):
            pick = python(S, p, D_PLANET, x, c, free, share, tmp)
        else:
            pick = _planet_default(S, C, p, x, c, free, share, gd, prices, tmp)
        if pick < 0:
            continue
        i = pick % 64
        shared = pick // 64
        _planet_goods(C, c, i, shared, gd)
        load(S, p, x, gd, tmp, prov)
        F[F_MOVERS, p] = 1
        F[F_STEPS, p] = -C[c, CI, CDAYS]
        if shared:
            share = 0
        else:
            free &= ~(1 << i)
    move_many(F, R[R_TRACK])


# -- open space -----------------------------------------------------------------------------------
@jit
def _open_space_default(S, p, x, tmp):  # type: ignore[no-untyped-def]
    """The default policy's charges on double engines in Open Space: the fewest that make the
    engine power at least 1 (of every half that can move at all: one that cannot leaves whatever is
    spent and must not stop the other); racing: all it can."""
    top = engine_top(S, p, x)
    if racing(S, p):
        return top
    # the ladder: engine only spends charges, so each rung is tried on x and the charges put back
    och, nb = S[0, OFFS, 0], S[p, V, NBAT]
    for i in range(nb):
        tmp[SAVE + i] = x[och + i]
    spent = x[SPENT]
    engine(S, p, x, top, tmp)
    for i in range(nb):
        x[och + i] = tmp[SAVE + i]
    x[SPENT] = spent
    keep = 0
    for h in range(S[p, V, NHULL]):
        if tmp[LIVE + h] and tmp[POWER + h] > 0:
            keep |= 1 << h
    if keep == 0:
        return 0
    # the top rung moves every half of ``keep`` (that is how ``keep`` was chosen): not tried again
    for kk in range(top):
        engine(S, p, x, kk, tmp)
        for i in range(nb):
            x[och + i] = tmp[SAVE + i]
        x[SPENT] = spent
        power_k = BIG
        for h in range(S[p, V, NHULL]):
            if (keep >> h) & 1 and tmp[POWER + h] < power_k:
                power_k = tmp[POWER + h]
        if power_k >= 1:
            return kk
    return top


@jit
def open_space(S, C, R, X, F, prices, w):  # type: ignore[no-untyped-def]
    """Open Space (§9.2(1)): from the leader, each ship declares its engine power and moves that many
    empty spaces; power 0 forces it to give up. On IIA each half has its own power: a half at 0
    leaves (its goods for half), the ship moves by the lowest of the others (§10.2); when the only
    half flying cannot move while the other is in hyperspace, it leaves and the ship waits there."""
    y, buf, gd, tmp, prov = w
    cnt = flying_in_order(F)
    for r in range(cnt):
        p = F[F_ORDER, r]
        x = X[p]
        if asked(S, p, D_OPEN_SPACE):
            k = python(S, p, D_OPEN_SPACE, x, 0, 0, 0, tmp)
        else:
            k = _open_space_default(S, p, x, tmp)
        value = engine(S, p, x, k, tmp)
        nh = S[p, V, NHULL]
        if x[AWAY] and value <= 0:
            for h in range(nh):
                if tmp[LIVE + h]:
                    F[F_SOLD, p] += leave_hull(S, p, x, h, prices)
            come_back(S, p, x)
            only_away_left(F, p)
            continue
        if S[p, V, MULTI]:
            nlive = 0
            nzero = 0
            for h in range(nh):
                if tmp[LIVE + h]:
                    nlive += 1
                    if tmp[POWER + h] <= 0:
                        nzero += 1
            if nlive > 1 and 0 < nzero < nlive:
                for h in range(nh):
                    if tmp[LIVE + h] and tmp[POWER + h] <= 0:
                        F[F_SOLD, p] += leave_hull(S, p, x, h, prices)
                        tmp[LIVE + h] = 0
                value = min_live(tmp, nh)
        if value <= 0:
            if F[F_OUT, p] == 0:
                F[F_OUT, p] = NO_ENGINES
        else:
            move(F, p, value, R[R_TRACK])


# -- combat zone ----------------------------------------------------------------------------------
@jit(inline=True)
def _contest(R, F):  # type: ignore[no-untyped-def]
    """The ships a Combat Zone line or a Sabotage looks at (``on``), and how many; 0 when it passes:
    a ship alone ignores it (§10.1(3)) unless it is taken to be the weakest."""
    cnt = 0
    for p in range(R[R_P]):
        F[F_ON, p] = present(F, p)
        if F[F_ON, p]:
            cnt += 1
    if cnt >= 2 or (R[R_WEAKEST] and F[F_ON, 0] and cnt == 1):
        return cnt
    return 0


@jit
def _line_shot(C, c, G, j):  # type: ignore[no-untyped-def]
    """Wait for shot ``j`` of the combat line ``G[G_LINE]`` at the ships it hits (0 when none)."""
    li = G[G_LINE]
    who = 0
    if not G[G_SPARED] & 1:
        who |= 1 << G[G_FIRST]
    if G[G_SECOND] >= 0 and j != G[G_HEAVY] and not G[G_SPARED] & 2:
        who |= 1 << G[G_SECOND]
    if who == 0:
        return 0
    return _wait(G, j, who, C[c, LSK + li, j], C[c, LSD + li, j])


@jit
def combat_zone(S, C, R, X, F, c, G, roll, w):  # type: ignore[no-untyped-def]
    """Combat Zone (§9.2(7)): three lines in order, each hitting the ship weakest in its criterion
    (fewest crew, lowest engine power, lowest firepower; ties: the ship ahead), declared with the
    policy's charges (built in: none), with its penalty: days, crew, goods (then charges), or shots
    (steps: see above). Five-player rules (§12.4) also hit the second-weakest, 1 day, crew or good
    fewer and spared the first heavy shot. The Diplomat spares a ship hit: the line then hits nobody
    in its place. A ship left without humans leaves only after the card."""
    P = R[R_P]
    y, buf, gd, tmp, prov = w
    if G[G_WHO]:  # shot G[G_J] of line G[G_LINE]: the weakest, then the second-weakest
        li = G[G_LINE]
        j = G[G_J]
        kind, d = C[c, LSK + li, j], C[c, LSD + li, j]
        for who in (G[G_FIRST], G[G_SECOND]):
            if who >= 0 and (G[G_WHO] >> who) & 1:
                flight_step(S, who, X[who], kind, d, roll, j, buf, tmp)
        for k in range(j + 1, C[c, LNS, li]):
            if _line_shot(C, c, G, k):
                return 1
        li += 1
    else:
        li = 0
    while li < C[c, CI, NLINE]:
        G[G_LINE] = li
        cnt = _contest(R, F)
        if cnt == 0:
            li += 1
            continue
        crit = C[c, LCRIT, li]
        for p in range(P):
            if not F[F_ON, p]:
                continue
            x = X[p]
            k = python(S, p, D_COMBAT, x, crit, c, 0, tmp) if asked(S, p, D_COMBAT) else ZERO
            if crit == 0:
                F[F_VALUES, p] = crew_count(S, p, x)
            elif crit == 1:
                F[F_VALUES, p] = engine(S, p, x, k, tmp)
            else:
                F[F_VALUES, p] = firepower(S, p, x, k, ANY, tmp)
        first = weakest(F, ANY)
        second = -1
        if R[R_FIVE] and cnt >= 3:
            second = weakest(F, first)
        pen = C[c, LPEN, li]
        amt = C[c, LAMT, li]
        spare1 = diplomat(S, first, X[first], pen, c, tmp)
        spare2 = second >= 0 and diplomat(S, second, X[second], pen, c, tmp)
        if (first == 0 and not spare1) or (second == 0 and not spare2):
            G[G_HIT] |= 1 << li
        if pen == 0:
            for p in range(P):
                F[F_MOVERS, p] = 0
                F[F_STEPS, p] = 0
            if not spare1:
                F[F_MOVERS, first] = 1
                F[F_STEPS, first] = -amt
            if second >= 0 and not spare2:
                F[F_MOVERS, second] = 1
                F[F_STEPS, second] = -(amt - 1)
            move_many(F, R[R_TRACK])
        elif pen == 1 or pen == 2:
            for who, n, spared in ((first, amt, spare1), (second, amt - 1, spare2)):
                if who < 0 or spared or (who == second and amt <= 1):
                    continue
                if pen == 1:
                    lose_crew(S, who, X[who], n, tmp)
                else:
                    lose_goods(S, who, X[who], n)
        else:
            G[G_FIRST] = first
            G[G_SECOND] = second
            G[G_SPARED] = (1 if spare1 else 0) + (2 if spare2 else 0)
            G[G_HEAVY] = -1
            for j in range(C[c, LNS, li]):
                if C[c, LSK + li, j] == HEAVY:
                    G[G_HEAVY] = j
                    break
            for j in range(C[c, LNS, li]):
                if _line_shot(C, c, G, j):
                    return 1
        li += 1
    return _done(G)


# -- the other cards ------------------------------------------------------------------------------
@jit
def meteor_swarm(S, C, R, X, F, c, G, roll, prices, buf, tmp):  # type: ignore[no-untyped-def]
    """Meteor Swarm (§9.2(5)): the meteors one at a time in printed order, each with one roll for
    every ship present (steps: see above); a ship left without humans leaves at once and the rest
    miss it."""
    P = R[R_P]
    j = 0
    if G[G_WHO]:
        j = G[G_J]
        for p in range(P):
            # every ship left without humans leaves (crewless): only one hit can have become so, or
            # one that may jump (a half coming back from hyperspace may have none)
            hit = 0
            if (G[G_WHO] >> p) & 1:
                hit = flight_step(S, p, X[p], C[c, ATTK, j], C[c, ATTD, j], roll, j, buf, tmp)
            if F[F_OUT, p] == 0 and (hit != 0 or may_jump(S, p)):
                leave_crewless(S, p, X[p], F, prices)
        j += 1
    if j < C[c, CI, NATT]:
        who = 0
        for p in range(P):
            if present(F, p):
                who |= 1 << p
        if who:
            return _wait(G, j, who, C[c, ATTK, j], C[c, ATTD, j])
    return _done(G)


@jit
def card_step(S, C, R, X, F, c, G, roll, prices, w):  # type: ignore[no-untyped-def]
    """The next step of a card rolled a roll at a time (see above): 1 while it waits for a roll,
    0 once it is over."""
    typ = C[c, CI, CTYPE]
    if typ == METEOR_SWARM:
        return meteor_swarm(S, C, R, X, F, c, G, roll, prices, w[1], w[3])
    if typ == COMBAT_ZONE:
        return combat_zone(S, C, R, X, F, c, G, roll, w)
    return enemies(S, C, R, X, F, c, G, roll, prices, w)


@jit
def rolled(S, C, R, X, F, c, ro, G, prices, w):  # type: ignore[no-untyped-def]
    """A card of :func:`card_step` played with the dice ``ro`` (attack ``j`` rolls pair ``ro[j]``)."""
    for i in range(GN):
        G[i] = 0
    typ = C[c, CI, CTYPE]
    roll = ZERO
    while True:
        # card_step's choice, made here: a call of card_step at every roll would pass each array
        # (and count a reference to it) once more
        if typ == METEOR_SWARM:
            more = meteor_swarm(S, C, R, X, F, c, G, roll, prices, w[1], w[3])
        elif typ == COMBAT_ZONE:
            more = combat_zone(S, C, R, X, F, c, G, roll, w)
        else:
            more = enemies(S, C, R, X, F, c, G, roll, prices, w)
        if not more:
            break
        roll = ro[G[G_J]]


@jit
def sabotage(S, C, R, X, F, prices, ro, w):  # type: ignore[no-untyped-def]
    """Sabotage (§9.2(10)): the ship with the fewest crew (tie: the one ahead) rolls a column and a
    row; a component there is destroyed (pieces may fall off), else a new pair, up to three pairs.
    Five-player rules (§12.4) also hit the second-fewest, with the first two pairs (the same rolls).
    The rolls of pair ``t``: ``2t`` (column) and ``2t + 1`` (row)."""
    y, buf, gd, tmp, prov = w
    cnt = _contest(R, F)
    if cnt == 0:
        return
    for p in range(R[R_P]):
        if F[F_ON, p]:
            F[F_VALUES, p] = crew_count(S, p, X[p])
    first = weakest(F, ANY)
    second = -1
    if R[R_FIVE] and cnt >= 3:
        second = weakest(F, first)
    for who, tries in ((first, 3), (second, 2)):
        if who < 0:
            continue
        x = X[who]
        for k in range(tries):
            sq = S[who, SAB + ro[2 * k], ro[2 * k + 1]]
            t = S[who, SQTILE, sq]
            if t >= 0 and (x[0] >> t) & 1:
                destroy(S, who, x, _i(1) << t, buf)
                break
        leave_crewless(S, who, x, F, prices)


@jit
def stardust(S, R, X, F):  # type: ignore[no-untyped-def]
    """Stardust (§9.2(8)): starting with the last ship, each present loses 1 day per exposed connector."""
    for p in range(R[R_P]):
        F[F_MOVERS, p] = present(F, p)
        F[F_STEPS, p] = -exposed(S, p, X[p]) if F[F_MOVERS, p] else 0
    move_many(F, R[R_TRACK])


@jit
def epidemics(S, R, X, F):  # type: ignore[no-untyped-def]
    """Epidemic (§9.2(9)): every ship present loses crew from its cabins next to (or, by the rules
    file, joined to) another occupied cabin (:func:`shipcheck.engine.crew.epidemic`)."""
    for p in range(R[R_P]):
        if present(F, p):
            epidemic(S, p, X[p])


# -- before a card --------------------------------------------------------------------------------
@jit(inline=True)
def may_jump(S, p):  # type: ignore[no-untyped-def]
    """Whether player ``p`` can ever jump to hyperspace: engine boosters aboard at launch and a
    policy of its own that decides (the built-in policies never jump)."""
    return S[p, V, NEB] and asked(S, p, D_HYPERSPACE)


@jit
def jumpers(S, R):  # type: ignore[no-untyped-def]
    """Whether any player :func:`may_jump`: without one, :func:`hyperspace` does nothing and no
    half is ever away, so a run need not call it nor look for crewless ships after it."""
    for p in range(R[R_P]):
        if may_jump(S, p):
            return True
    return False


@jit
def hyperspace(S, R, X, F, c, last, prices, buf, tmp):  # type: ignore[no-untyped-def]
    """Jumps to hyperspace once card ``c`` is revealed (rules §11.2), for the players whose policy
    decides to (the built-in policies never do): the whole ship sits out this card and the next, or on
    a class IIA ship one half while the other flies on (it waits in ``away``). A jump on the last
    card is giving up (a half: that half leaves the flight, its goods for half)."""
    for p in range(R[R_P]):
        if not present(F, p) or not may_jump(S, p):
            continue
        x = X[p]
        if x[AWAY]:
            continue  # a half already away: the other waits for it
        want = python(S, p, D_HYPERSPACE, x, c, 0, 0, tmp)
        if want == 0:
            continue
        if not S[p, V, MULTI]:
            if hyperjump(S, p, x, ANY, buf, tmp):
                F[F_HH, p] = 2  # this card and the next
                if last:
                    F[F_OUT, p] = HYPERSPACE
            continue
        live = 0
        jumped = 0
        for h in range(S[p, V, NHULL]):
            if not S[p, GMASK, h] & x[0]:
                continue
            live |= 1 << h
            if (want < 0 or (want >> h) & 1) and hyperjump(S, p, x, _i(h), buf, tmp):
                jumped |= 1 << h
        if jumped == 0:
            continue
        if jumped == live:
            F[F_HH, p] = 2
            if last:
                F[F_OUT, p] = HYPERSPACE
        elif last:
            for h in range(S[p, V, NHULL]):
                if (jumped >> h) & 1:
                    F[F_SOLD, p] += leave_hull(S, p, x, h, prices)
        else:
            first = 0
            while not (jumped >> first) & 1:
                first += 1
            send_away(S, p, x, first)
            F[F_HH + 1, p] = 2


@jit(inline=True)
def give_up(S, R, X, F, tmp):  # type: ignore[no-untyped-def]
    """Players whose policy decides to give up before the card is revealed (rules §10.1; the
    built-in policies never do)."""
    for p in range(R[R_P]):
        if F[F_OUT, p] == 0 and asked(S, p, D_GIVE_UP) and python(S, p, D_GIVE_UP, X[p], 0, 0, 0, tmp):
            F[F_OUT, p] = VOLUNTARY
