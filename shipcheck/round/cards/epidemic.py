"""Epidemic (rules §9.2(9)): each occupied cabin joined to another occupied cabin loses one crew
member, human or alien, all at once (OQ14: "joined", as the English card; pilot and luxury cabins
count, stasis chambers do not)."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race, Table
from . import card_type


def _spread(t: Table):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int]:
        p, m, _pol, st = t.state(gid)
        return (t.intern(p, m.epidemic(st)),)
    return fn


@card_type("epidemic")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    pres = race.present(cols)
    memo = race.t.memo("epidemic", _spread(race.t), 1)
    for p in range(race.P):
        sel = np.flatnonzero(pres[p])
        race.apply(memo, np.full(len(sel), p), cols[sel])
