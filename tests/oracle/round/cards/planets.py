"""Planets (rules §9.2(2)): in flight order each ship may land on a free planet (policy), loads its
goods, and the landers then lose the card's days, rearmost first. Five-player rules (§12.1): one
ship may land on a taken planet and take one good fewer (the least valuable)."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..policy import PlanetOption
from ..race import Race, Table
from ..state import CODE
from . import card_type


def _land(t: Table, card: Card):  # type: ignore[no-untyped-def]
    n = len(card.planets)

    def fn(gid: int, key: int) -> tuple[int, int, int]:
        free, share = key >> 1, key & 1
        p, m, pol, st = t.state(gid)
        opts = [PlanetOption(i, g) for i, g in enumerate(card.planets) if free >> i & 1]
        if share:
            for i, g in enumerate(card.planets):
                if not free >> i & 1:
                    less = sorted(g, key=lambda c: CODE[c])[:-1]  # drops the least valuable
                    opts.append(PlanetOption(i, tuple(less), shared=True))
        if not opts:
            return (gid, -1, 0)
        pick = pol.planet(t.view(gid), card, tuple(opts))
        if pick is None:
            return (gid, -1, 0)
        o = opts[pick]
        after = m.load(st, [CODE[g] for g in o.goods])
        return (t.intern(p, after), o.index, int(o.shared))

    return fn, 1 << (n + 1)


@card_type("planets")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    t = race.t
    fn, nkeys = _land(t, card)
    memo = t.memo(("planets", card), fn, 3, nkeys)
    m = len(cols)
    free = np.full(m, (1 << len(card.planets)) - 1, dtype=np.int64)
    share = np.full(m, 1 if t.five else 0, dtype=np.int64)
    landed = np.zeros((race.P, m), dtype=bool)
    for p, sel in race.rank_loop(cols, race.present(cols)):
        _, choice, shared = race.apply(memo, p, cols[sel], free[sel] << 1 | share[sel])
        ok = choice >= 0
        landed[p[ok], sel[ok]] = True
        took = ok & (shared == 0)
        free[sel[took]] &= ~(np.int64(1) << choice[took])
        share[sel[ok & (shared == 1)]] = 0
    race.move_many(cols, landed, np.where(landed, -(card.days or 0), 0))
