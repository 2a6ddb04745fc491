"""Stardust (rules §9.2(8)): starting with the last ship, each loses 1 flight day per exposed
connector."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race, Table
from . import card_type


def exposed_memo(t: Table):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int, int]:
        _p, m, _pol, st = t.state(gid)
        return (gid, m.exposed(st))
    return t.memo("exposed", fn, 2)


@card_type("stardust")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    pres = race.present(cols)
    memo = exposed_memo(race.t)
    steps = np.zeros(pres.shape, dtype=np.int64)
    p, sel = np.nonzero(pres)
    steps[p, sel] = -memo(race.sid[p, cols[sel]])[1]
    race.move_many(cols, pres, steps)
