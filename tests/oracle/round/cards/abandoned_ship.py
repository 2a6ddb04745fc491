"""Abandoned Ship (rules §9.2(3)): the first ship in flight order that accepts gives the crew, takes
the credits and loses the days. Five-player rules (§12.2): a second ship may too, for 1 credit
fewer; both lose the days, rearmost first."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race, Table
from . import card_type
from ._offer import take_in_order


def _accept(t: Table, card: Card):  # type: ignore[no-untyped-def]
    def fn(gid: int, second: int) -> tuple[int, int, int]:
        p, m, pol, st = t.state(gid)
        view = t.view(gid)
        cost = card.crew_cost or 0
        if view.crew < cost or not pol.abandoned_ship(view, card, cost):
            return (gid, 0, 0)
        after = m.lose_crew(st, cost, pol.crew_order(view))
        return (t.intern(p, after), 1, (card.credits or 0) - second)
    return fn


@card_type("abandoned_ship")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    memo = race.t.memo(("abandoned_ship", card), _accept(race.t, card), 3, 2)
    take_in_order(race, card, cols, memo)
