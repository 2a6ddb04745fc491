"""The flight track, vectorised over runs (rules digest §9.1, §10.1).

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


def _taken(pos: np.ndarray, on: np.ndarray, mover: np.ndarray, cols: np.ndarray, lo: np.ndarray,
           hi: np.ndarray, length: int) -> np.ndarray:
    """Per run, spaces in the interval (lo, hi] taken by the other markers on the track."""
    count = np.zeros(len(cols), dtype=np.int64)
    for p in range(pos.shape[0]):
        o = pos[p, cols].astype(np.int64)
        other = on[p, cols] & (mover != p)
        n = (hi - o) // length - (lo - o) // length
        count += np.where(other, n, 0)
    return count


def move(pos: np.ndarray, on: np.ndarray, mover: np.ndarray, cols: np.ndarray, steps: np.ndarray,
         length: int) -> None:
    """Move player ``mover[i]`` of run ``cols[i]`` by ``steps[i]`` empty spaces (negative: back).

    ``pos`` and ``on`` are ``(players, runs)``; ``pos`` is updated in place. Runs in ``cols`` must
    be distinct (one mover per run per call); callers order the calls (gains front-most first,
    losses rearmost first).
    """
    if len(cols) == 0:
        return
    p0 = pos[mover, cols].astype(np.int64)
    k = np.asarray(steps, dtype=np.int64)
    fwd = k > 0
    q = p0 + k
    # the k-th empty space ahead (behind) is the least fixed point of q = p + k + taken(p, q]
    for _ in range(pos.shape[0] + 2):
        ahead = _taken(pos, on, mover, cols, p0, q, length)
        behind = _taken(pos, on, mover, cols, q - 1, p0 - 1, length)
        nq = np.where(fwd, p0 + k + ahead, np.where(k < 0, p0 + k - behind, p0))
        if np.array_equal(nq, q):
            break
        q = nq
    pos[mover, cols] = q


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
