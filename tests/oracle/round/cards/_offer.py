"""An offer that the first ships in flight order may take (Abandoned Ship, Abandoned Station):
one ship, or two under five-player rules (rules §12.2), the second on worse terms; the takers then
lose the card's days, rearmost first."""

from __future__ import annotations

from typing import Any

import numpy as np

from shipcheck.cards import Card

from ..memo import Memo
from ..race import Race


def take_in_order(race: Race, card: Card, cols: np.ndarray, memo: Memo) -> None:
    """``memo(state, second)`` gives (next state, taken, credits) for a ship offered the card
    (``second`` = 1 for the second taker); a ship that declines keeps its state."""
    room = 2 if race.t.five else 1
    taken = np.zeros(len(cols), dtype=np.int64)
    takers = np.zeros((race.P, len(cols)), dtype=bool)
    for p, sel in race.rank_loop(cols, race.present(cols)):
        open_ = taken[sel] < room
        p, sel = p[open_], sel[open_]
        c = cols[sel]
        vals: Any = race.apply(memo, p, c, np.minimum(taken[sel], 1))
        yes = vals[1] == 1
        race.credits[p[yes], c[yes]] += vals[2][yes]
        takers[p[yes], sel[yes]] = True
        taken[sel[yes]] += 1
        race.crewless(c)  # a crew given away to the last human: the ship leaves at once
    race.move_many(cols, takers, np.where(takers, -(card.days or 0), 0))
