"""Epidemic (rules §9.2(9)): each occupied cabin next to another occupied cabin loses one crew
member, human or alien, all at once (OQ14: ``[cards] epidemic`` of the round's rules, ``"adjacent"``
as the rulebook or ``"joined"`` by connectors; pilot and luxury cabins count, stasis chambers do not).
A ship left without humans leaves at once."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race, Table
from . import card_type


def _spread(t: Table):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int]:
        p, m, _pol, st = t.state(gid)
        return (t.intern(p, m.epidemic(st, t.rules.epidemic)),)
    return fn


@card_type("epidemic")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    pres = race.present(cols)
    memo = race.t.memo("epidemic", _spread(race.t), 1)
    p, sel = np.nonzero(pres)
    race.apply(memo, p, cols[sel])
