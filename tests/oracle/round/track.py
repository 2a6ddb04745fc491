"""The flight track of many runs at once (rules digest §9.1, §10.1).

Positions are unwrapped integers (spaces flown; the leader starts on 0), one row per player and one
column per run. The track is a loop of ``length`` spaces: two markers never share a space, so a
space is taken when any other marker still on the track stands on it modulo ``length``. Moves count
empty spaces only. A ship is lapped when the leader's marker overtakes it, i.e. when the leader is
more than ``length`` spaces ahead (The Big Expansion: "se a miniatura da sua Nave for ultrapassada
pela miniatura do Líder").
"""

from __future__ import annotations

import numpy as np

__all__ = ["flight_order", "lapped", "move"]

OFF = np.iinfo(np.int32).min // 2  # sort key of a marker that is off the track


def _taken(others: list[int], lo: int, hi: int, length: int) -> int:
    """Spaces in the interval (lo, hi] taken by the markers at ``others``."""
    return sum((hi - o) // length - (lo - o) // length for o in others)


def move(pos: np.ndarray, on: np.ndarray, mover: np.ndarray, cols: np.ndarray, steps: np.ndarray,
         length: int) -> None:
    """Move player ``mover[i]`` of run ``cols[i]`` by ``steps[i]`` empty spaces (negative: back).

    ``pos`` and ``on`` are ``(players, runs)``; ``pos`` is updated in place. Runs in ``cols`` must
    be distinct (one mover per run per call); callers order the calls (gains front-most first,
    losses rearmost first). Worked out run by run in Python: a card moves the ships of a run or two.
    """
    players = range(pos.shape[0])
    for p, c, k in zip(np.asarray(mover).tolist(), np.asarray(cols).tolist(), np.asarray(steps).tolist()):
        p0 = int(pos[p, c])
        others = [int(pos[o, c]) for o in players if o != p and on[o, c]]
        q = p0 + k
        # the k-th empty space ahead (behind) is the least fixed point of q = p + k + taken(p, q]
        for _ in range(len(players) + 2):
            if k > 0:
                nq = p0 + k + _taken(others, p0, q, length)
            elif k < 0:
                nq = p0 + k - _taken(others, q - 1, p0 - 1, length)
            else:
                nq = p0
            if nq == q:
                break
            q = nq
        pos[p, c] = q


def flight_order(pos: np.ndarray, present: np.ndarray) -> np.ndarray:
    """``(players, runs)`` player indices by rank, the leader first; absent players last.

    Positions of players present are distinct, so the order is strict.
    """
    key = np.where(present, pos, OFF)
    return np.argsort(-key, axis=0, kind="stable")


def lapped(pos: np.ndarray, flying: np.ndarray, length: int) -> np.ndarray:
    """Players flying that the leader (the front-most ship flying) has lapped."""
    lead = np.max(np.where(flying, pos, OFF), axis=0)
    return flying & (lead[None, :] - pos > length)
