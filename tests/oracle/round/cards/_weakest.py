"""The weakest ships of a Combat Zone line or a Sabotage (rules §9.2(7), §9.2(10), §12.4).

The lowest value is hit; a tie hits the ship further ahead. Under five-player rules, with at least
three ships present, the second-weakest is hit too (more lightly).
"""

from __future__ import annotations

import numpy as np

from .. import track
from ..memo import Memo
from ..race import Race


def weakest(values: np.ndarray, pos: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Per run, the player with the lowest value among those present (ties: the one ahead)."""
    big = np.iinfo(np.int64).max
    v = np.where(present, values, big)
    cand = present & (v == v.min(axis=0))
    return np.argmax(np.where(cand, pos, track.OFF), axis=0)


def two_weakest(values: np.ndarray, pos: np.ndarray, present: np.ndarray,
                five: bool) -> tuple[np.ndarray, np.ndarray]:
    """The weakest, and the second-weakest (-1 where there is none: not five-player rules, or fewer
    than three ships present)."""
    ar = np.arange(values.shape[1])
    first = weakest(values, pos, present)
    second = np.full(values.shape[1], -1, dtype=np.int64)
    if five:
        rest = present.copy()
        rest[first, ar] = False
        many = present.sum(axis=0) >= 3
        if many.any():
            second = np.where(many, weakest(values, pos, rest), -1)
    return first, second


def contest(race: Race, cols: np.ndarray, memo: Memo) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The runs with at least two ships present (a ship alone ignores the card, rules §10.1(3), unless
    the table assumes the ship to be the weakest),
    their presence mask and each present ship's value (output 1 of ``memo``, declared in flight
    order; output 0 is the state after the declaration). None when no run qualifies."""
    pres = race.present(cols)
    ok = pres.sum(axis=0) >= 2
    if race.t.assume_weakest:  # the ship alone is taken to be the weakest (single-card odds)
        ok |= pres[0] & (pres.sum(axis=0) == 1)
    if not np.count_nonzero(ok):
        return None
    cols, pres = cols[ok], pres[:, ok]
    values = np.zeros(pres.shape, dtype=np.int64)
    p, sel = np.nonzero(pres)
    values[p, sel] = race.apply(memo, p, cols[sel])[1]
    return cols, pres, values
