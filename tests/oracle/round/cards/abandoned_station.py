"""Abandoned Station (rules §9.2(4)): the first ship in flight order with crew at least the card's
number that accepts loads the goods and loses the days; no crew is lost. Five-player rules
(§12.2): a second ship may too, with 1 good fewer (the least valuable)."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race, Table
from ..state import CODE
from . import card_type
from ._offer import take_in_order


def _dock(t: Table, card: Card):  # type: ignore[no-untyped-def]
    def fn(gid: int, second: int) -> tuple[int, int, int]:
        p, m, pol, st = t.state(gid)
        view = t.view(gid)
        goods = tuple(sorted(card.goods, key=lambda c: CODE[c]))
        if second:
            goods = goods[:-1]
        if view.crew < (card.crew_required or 0) or not pol.abandoned_station(view, card, goods):
            return (gid, 0, 0)
        return (t.intern(p, m.load(st, [CODE[g] for g in goods])), 1, 0)
    return fn


@card_type("abandoned_station")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    memo = race.t.memo(("abandoned_station", card), _dock(race.t, card), 3, 2)
    take_in_order(race, card, cols, memo)
