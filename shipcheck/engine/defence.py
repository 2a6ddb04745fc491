"""Meteors and shots: which tile a roll reaches, how the player defends it, what is destroyed.

A roll is played in three steps, each written once: :func:`situation` (the lines the roll names,
the tile each meets first, whether it needs defending, the shields and the hull that defends),
a decision (the default policy's :func:`decide_default`, contract §4, or a flight policy of the
player's own, asked in Python), and :func:`apply_decision` (the charges drawn, checked against the
rules, and the tiles left to be destroyed). :func:`flight_step` puts them together, with the cyan
Techie's free charge lent to the decision, and destroys what the decision leaves open (pieces fall
off and crew goes with them: :func:`shipcheck.engine.hull.destroy`).

Part of the one home of the rules of flight (:mod:`shipcheck.engine`): plain functions in the
subset of Python numba compiles (:func:`shipcheck.runtime.jit`).
"""

from __future__ import annotations

from shipcheck.runtime import jit

from .bits import high_bit, low_bit
from .charges import draw, lend, lent_charges, settle
from .decide import asked, python
from .hull import destroy
from .layout import (
    ADJ,
    BATTILE,
    BOOSTABLE,
    BOOSTERS,
    BRG,
    BRGFREE,
    CANDBL,
    CANTILE,
    COVER,
    D_FLIGHT,
    DEC,
    DEC_BOOSTED,
    DEC_CANNON,
    DEC_DRAW,
    DEC_DRAWS,
    DEC_NDRAW,
    DEC_SHIELD,
    GIDX,
    GMASK,
    LARGE,
    LIGHT,
    LINEM,
    LMAX,
    MULTI,
    NBAT,
    NCAN,
    OCELL,
    OFFS,
    OLINES,
    ONL,
    OSIDE,
    OTOL,
    SAVE2,
    SIT,
    SIT_BOOSTED,
    SIT_HIT,
    SIT_HULL,
    SIT_LINE,
    SIT_NEED,
    SIT_NL,
    SIT_SHIELDS,
    SIT_SIDE,
    SIT_TOL,
    SMALL,
    VULN,
    V,
    _i,
)

#: the means of defence against a hit: a shield, a boosted shield (a shield and its booster), a
#: cannon fired down the line
SHIELD, BOOSTED, CANNON = 0, 1, 2


@jit(inline=True)
def stops(kind, means):  # type: ignore[no-untyped-def]
    """Whether ``means`` of defence stops a hit of ``kind`` on the lines it covers: a shield a small
    meteor or a light shot; a boosted shield anything (a shield that also stops large meteors and
    heavy shots, rules §8.7); a cannon that bears a large meteor (rules §8.3). What a decision
    leaves open (:func:`left_open`) asks it."""
    if means == SHIELD:
        return kind == SMALL or kind == LIGHT
    if means == CANNON:
        return kind == LARGE
    return True


@jit(inline=True)
def offers(kind, means):  # type: ignore[no-untyped-def]
    """Whether a roll of ``kind`` offers ``means`` of defence to choose: those that stop it, a
    boosted shield only against what a shield does not stop (where a boosted shield covers a side,
    its shield does, for a charge less). The default policy (:func:`decide_default`) and the
    optimal policy's search (:mod:`shipcheck.odds`, through :func:`shipcheck.flight.kernel.offers`)
    choose among these; a policy of one's own may raise any defence aboard (:func:`apply_decision`
    checks it, :func:`left_open` says what it stops)."""
    if means == BOOSTED:
        return stops(kind, BOOSTED) and not stops(kind, SHIELD)
    return stops(kind, means)


@jit(inline=True)
def cost(means, free):  # type: ignore[no-untyped-def]
    """The charges ``means`` of defence costs: a shield 1, a boosted shield 2 (shield and booster),
    a cannon 1 unless it fires free (``free``)."""
    if means == SHIELD:
        return 1
    if means == BOOSTED:
        return 2
    return 0 if free else 1


@jit(inline=True)
def boosted_ok(S, p, mask, shields):  # type: ignore[no-untyped-def]
    """Whether one of ``shields`` is joined to a shield booster aboard."""
    m = shields & S[p, V, BOOSTABLE]
    if m == 0:
        return False
    boosters = S[p, V, BOOSTERS] & mask
    while m:
        if S[p, ADJ, low_bit(m)] & boosters:
            return True
        m &= m - 1
    return False


@jit(inline=True)
def situation(S, p, x, kind, d, roll, tmp):  # type: ignore[no-untyped-def]
    """What the roll (dice pair ``roll`` of an attack of ``kind`` from direction ``d``) does to the
    ship undefended, into ``tmp[SIT + ...]`` (:func:`situation_lines`); the lines it names (0: a miss)."""
    o = S[p, OCELL + d, roll]
    nl = S[p, ONL + d, o]
    return situation_lines(S, p, x, kind, S[p, OSIDE + d, o], S[p, OTOL + d, o], nl,
                           S[p, OLINES + 4 * d, o], S[p, OLINES + 4 * d + 1, o] if nl > 1 else _i(-1), tmp)


@jit
def situation_lines(S, p, x, kind, side, tol, nl, line0, line1, tmp):  # type: ignore[no-untyped-def]
    """What an attack of ``kind`` from board ``side`` down ``nl`` lines (``line0``, ``line1``; bearing
    tolerance ``tol``) does to the ship undefended, into ``tmp[SIT + ...]``; returns ``nl``.

    The first tile of a line from the front or the left is the lowest grid index, from the rear or
    the right the highest; a hit needs defending when it does damage undefended (a small meteor
    only on a connector; plating's smooth sides stop everything). On a ship of several hulls the
    hull of the damaging hits defends, with its own shields and charges; hits in two hulls get no
    shield (rules §8.5, §11.4)."""
    mask = x[0]
    vul = S[p, VULN + kind, side]
    tmp[SIT + SIT_NL] = nl
    tmp[SIT + SIT_SIDE] = side
    tmp[SIT + SIT_TOL] = tol
    multi = S[p, V, MULTI]
    g = -1  # the hull of the damaging hits; -3 for two
    for li in range(nl):
        line = line0 if li == 0 else line1
        lm = S[p, LINEM + side, line] & mask
        k = -1
        need = 0
        if lm:
            k = low_bit(lm) if (side == 0 or side == 3) else high_bit(lm)
            need = (vul >> k) & 1
        tmp[SIT + SIT_LINE + li] = line
        tmp[SIT + SIT_HIT + li] = k
        tmp[SIT + SIT_NEED + li] = need
        if need and multi:
            gk = S[p, GIDX, k]
            g = gk if g == -1 or g == gk else -3
    if multi:
        hull = g if g >= 0 else -2
        shields = S[p, COVER, side] & S[p, GMASK, g] & mask if g >= 0 else 0
    else:
        hull = -1
        shields = S[p, COVER, side] & mask
    tmp[SIT + SIT_HULL] = hull
    tmp[SIT + SIT_SHIELDS] = shields
    tmp[SIT + SIT_BOOSTED] = 1 if shields and boosted_ok(S, p, mask, shields) else 0
    return nl


@jit(inline=True)
def _record(tmp, b):  # type: ignore[no-untyped-def]
    n = tmp[DEC + DEC_NDRAW]
    tmp[DEC + DEC_DRAW + n] = b
    tmp[DEC + DEC_NDRAW] = n + 1


@jit(inline=True)
def _pay(S, p, x, g, n, tmp):  # type: ignore[no-untyped-def]
    """``n`` charges for a defence drawn from ``x`` (of hull ``g``) and recorded in the decision:
    whether they were all there (else none is recorded; the caller puts ``x`` back)."""
    at = tmp[DEC + DEC_NDRAW]
    for _ in range(n):
        b = draw(S, p, x, g)
        if b < 0:
            tmp[DEC + DEC_NDRAW] = at
            return False
        _record(tmp, b)
    return True


@jit(inline=True)
def needs_defence(tmp):  # type: ignore[no-untyped-def]
    """Whether a line of the situation in ``tmp`` needs defending."""
    for li in range(tmp[SIT + SIT_NL]):
        if tmp[SIT + SIT_NEED + li]:
            return True
    return False


@jit
def decide_default(S, p, x, kind, tmp):  # type: ignore[no-untyped-def]
    """Contract §4's decision against the situation in ``tmp``, into ``tmp[DEC + ...]``: a shield
    against a small meteor or a light shot that needs it; against a large meteor per line the first
    cannon that bears and is not used yet, free ones before those that cost a charge; a boosted
    shield for what is left open (large meteors, heavy shots); each charge from the first charged
    battery in grid order that may pay (its own hull on several hulls). ``x`` is left unchanged."""
    tmp[DEC + DEC_SHIELD] = 0
    tmp[DEC + DEC_BOOSTED] = 0
    tmp[DEC + DEC_CANNON] = -1
    tmp[DEC + DEC_CANNON + 1] = -1
    tmp[DEC + DEC_NDRAW] = 0
    nl = tmp[SIT + SIT_NL]
    hull = tmp[SIT + SIT_HULL]
    if not needs_defence(tmp):
        return
    och = S[0, OFFS, 0]
    nb = S[p, V, NBAT]
    for i in range(nb):
        tmp[SAVE2 + i] = x[och + i]
    if offers(kind, SHIELD):
        if tmp[SIT + SIT_SHIELDS] and _pay(S, p, x, _i(hull), cost(SHIELD, False), tmp):
            tmp[DEC + DEC_SHIELD] = 1
    else:
        mask = x[0]
        multi = S[p, V, MULTI]
        side = tmp[SIT + SIT_SIDE]
        tol = tmp[SIT + SIT_TOL]
        used = 0
        open_ = False
        for li in range(nl):
            pick = -1
            if tmp[SIT + SIT_NEED + li] and offers(kind, CANNON):
                brow = BRG + side * 2 * LMAX + tol * LMAX + tmp[SIT + SIT_LINE + li]
                for j in range(S.shape[2]):
                    c = S[p, brow, j]
                    if c < 0:
                        break
                    if (used >> c) & 1 or not (mask >> c) & 1:
                        continue
                    if _pay(S, p, x, _i(S[p, GIDX, c] if multi else -1), cost(CANNON, S[p, brow + BRGFREE, j] != 0),
                            tmp):
                        pick = c
                        break
            if pick >= 0:
                used |= 1 << pick
            elif tmp[SIT + SIT_NEED + li]:
                open_ = True
            tmp[DEC + DEC_CANNON + li] = pick
        if open_ and offers(kind, BOOSTED) and tmp[SIT + SIT_BOOSTED]:
            if _pay(S, p, x, _i(hull), cost(BOOSTED, False), tmp):
                tmp[DEC + DEC_BOOSTED] = 1
    for i in range(nb):
        x[och + i] = tmp[SAVE2 + i]


@jit(inline=True)
def _free_cannon(S, p, c):  # type: ignore[no-untyped-def]
    """Whether tile ``c`` is a cannon that fires without a charge."""
    for i in range(S[p, V, NCAN]):
        if S[p, CANTILE, i] == c:
            return not S[p, CANDBL, i]
    return False


@jit
def _bears(S, p, x, c, side, tol, line):  # type: ignore[no-untyped-def]
    brow = BRG + side * 2 * LMAX + tol * LMAX + line
    for j in range(S.shape[2]):
        t = S[p, brow, j]
        if t < 0:
            return False
        if t == c:
            return (x[0] >> c) & 1 == 1
    return False


@jit
def apply_decision(S, p, x, kind, tmp):  # type: ignore[no-untyped-def]
    """The decision in ``tmp[DEC + ...]`` against the situation in ``tmp[SIT + ...]``: its charges
    drawn from ``x`` (checked: batteries aboard holding them, as many as the shield, the charged
    cannons and the boosted shield cost, means of defence that exist and bear); the tiles it
    leaves to be destroyed."""
    och = S[0, OFFS, 0]
    mask = x[0]
    nd = tmp[DEC + DEC_NDRAW]
    if nd < 0 or nd > DEC_DRAWS:
        raise ValueError("a decision draws more charges than a roll can use")
    for i in range(nd):
        b = tmp[DEC + DEC_DRAW + i]
        if b < 0 or b >= S[p, V, NBAT] or not (mask >> S[p, BATTILE, b]) & 1 or x[och + b] <= 0:
            raise ValueError("the policy drew a charge from an empty or lost battery")
        x[och + b] -= 1
    shield = tmp[DEC + DEC_SHIELD]
    boosted = tmp[DEC + DEC_BOOSTED]
    nl = tmp[SIT + SIT_NL]
    spent = (cost(SHIELD, False) if shield else 0) + (cost(BOOSTED, False) if boosted else 0)
    for li in range(nl):
        c = tmp[DEC + DEC_CANNON + li]
        if c >= 0:
            spent += cost(CANNON, _free_cannon(S, p, c))
    if spent != nd:
        raise ValueError("the decision does not draw as many charges as it spends")
    if shield and not tmp[SIT + SIT_SHIELDS]:
        raise ValueError("no shield covers that side")
    if boosted and not tmp[SIT + SIT_BOOSTED]:
        raise ValueError("no boosted shield covers that side")
    return left_open(S, p, x, kind, tmp)


@jit
def left_open(S, p, x, kind, tmp):  # type: ignore[no-untyped-def]
    """The tiles the decision in ``tmp[DEC + ...]`` leaves to be destroyed against the situation in
    ``tmp[SIT + ...]`` (a bit per tile): what each defence stops. A cannon fired down a line stops
    a large meteor there (it must bear on it); a boosted shield stops anything on the lines no
    cannon stops; a shield stops small meteors and light shots; everything else that needs
    defending destroys the tile it hits. Its charges are not looked at (:func:`apply_decision`
    pays them)."""
    shield = tmp[DEC + DEC_SHIELD]
    boosted = tmp[DEC + DEC_BOOSTED]
    nl = tmp[SIT + SIT_NL]
    side = tmp[SIT + SIT_SIDE]
    tol = tmp[SIT + SIT_TOL]
    destroyed = 0
    for li in range(nl):
        k = tmp[SIT + SIT_HIT + li]
        if k < 0 or not tmp[SIT + SIT_NEED + li]:
            continue
        c = tmp[DEC + DEC_CANNON + li]
        if c >= 0:
            if not stops(kind, CANNON) or not _bears(S, p, x, c, side, tol, tmp[SIT + SIT_LINE + li]):
                raise ValueError("that cannon does not bear on that line")
            continue
        if boosted and stops(kind, BOOSTED):
            continue
        if shield and stops(kind, SHIELD):
            continue
        destroyed |= 1 << k
    return destroyed


@jit
def flight_step(S, p, x, kind, d, roll, ai, buf, tmp):  # type: ignore[no-untyped-def]
    """Dice pair ``roll`` of attack ``ai`` (``kind`` from direction ``d``) against player ``p``: the
    situation, the decision (the default policy's, or the player's own flight policy asked in
    Python) with the Techie's free charge lent to it, then what it leaves open destroyed (returned:
    a bit per tile hit, 0 when no tile was)."""
    if S[p, ONL + d, S[p, OCELL + d, roll]] == 0:
        return 0
    situation(S, p, x, kind, d, roll, tmp)  # (reads no charges: the same before the Techie's lend)
    own = asked(S, p, D_FLIGHT)
    if not own and not needs_defence(tmp):
        return 0  # the default draws nothing then, and nothing is destroyed (the lent charge comes back)
    i = lend(S, p, x)
    before = lent_charges(S, p, x, i)
    if own:
        python(S, p, D_FLIGHT, x, kind, d * 64 + roll, ai, tmp)
    else:
        decide_default(S, p, x, kind, tmp)
    destroyed = apply_decision(S, p, x, kind, tmp)
    settle(S, p, x, i, before)
    if destroyed:
        destroy(S, p, x, _i(destroyed), buf)
    return destroyed
