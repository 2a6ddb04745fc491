"""Open Space (rules §9.2(1)): from the leader, each ship declares its engine power and moves that
many empty spaces; power 0 forces it to give up (§10.1). On a ship of several hulls (IIA) each half
has its own power: a half at 0 leaves, the ship moves by the lowest of the others (§10.2); when the
only half flying has no power while the other is in hyperspace, it leaves and the ship waits there."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import NO_ENGINES, Race, Table
from . import card_type


def _declare(t: Table):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int, int, int, int]:
        p, m, pol, st = t.state(gid)
        k = pol.open_space(t.view(gid))
        power, after = m.engine(st, k)
        credits = 0
        if st[5] and min(power.values(), default=0) <= 0:
            for h in power:
                after, c = m.leave_hull(after, h, t.prices)
                credits += c
            return (t.intern(p, m.come_back(after)), 0, credits, 1)
        if m.multi and len(power) > 1:
            zero = [h for h, v in power.items() if v <= 0]
            if zero and len(zero) < len(power):
                for h in zero:
                    after, c = m.leave_hull(after, h, t.prices)
                    credits += c
                power = {h: v for h, v in power.items() if v > 0}
        return (t.intern(p, after), min(power.values(), default=0), credits, 0)
    return fn


@card_type("open_space")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    memo = race.t.memo("open_space", _declare(race.t), 4)
    for p, sel in race.rank_loop(cols, race.present(cols)):
        c = cols[sel]
        _, power, credits, alone = race.apply(memo, p, c)
        race.sold[p, c] += credits  # halves that left sold their goods
        race.only_away_left(p[alone == 1], c[alone == 1])
        zero = (power <= 0) & (alone == 0)
        race.give_up(p[zero], c[zero], NO_ENGINES)
        go = power > 0
        race.move(p[go], c[go], power[go])
