"""The weakest ships of a Combat Zone line or a Sabotage (rules §9.2(7), §9.2(10), §12.4).

The lowest value is hit; a tie hits the ship further ahead. Under five-player rules, with at least
three ships present, the second-weakest is hit too (more lightly).
"""

from __future__ import annotations

import numpy as np

from .. import track


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
