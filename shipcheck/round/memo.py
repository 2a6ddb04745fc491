"""Interned player states and per-state lookup tables: the round engine's vectorisation.

Every (player, round state) met in any run gets a global integer id. A :class:`Memo` is a table
from state id (and a small key, such as a meteor's outcome) to a few integers, filled on first use
by a Python function of one state: resolving a card for thousands of runs is a numpy gather from
these tables, and Python runs once per distinct (state, card) pair, not once per run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .state import RState

__all__ = ["MISSING", "Memo", "Registry"]

MISSING = np.iinfo(np.int64).min


class Registry:
    """Global ids of (player, state) pairs."""

    def __init__(self) -> None:
        self._ids: dict[tuple[int, RState], int] = {}
        self.states: list[RState] = []
        self.players: list[int] = []

    def intern(self, player: int, st: RState) -> int:
        key = (player, st)
        i = self._ids.get(key)
        if i is None:
            i = self._ids[key] = len(self.states)
            self.states.append(st)
            self.players.append(player)
        return i

    def __len__(self) -> int:
        return len(self.states)


class Memo:
    """A table ``(key, state id) -> nout integers`` filled on demand by ``fn(state id, key)``."""

    __slots__ = ("fn", "nout", "nkeys", "table")

    def __init__(self, fn: Callable[[int, int], tuple[int, ...]], nout: int, nkeys: int = 1) -> None:
        self.fn = fn
        self.nout = nout
        self.nkeys = nkeys
        self.table = np.full((nkeys, nout, 256), MISSING, dtype=np.int64)

    def _grow(self, top: int) -> None:
        cap = self.table.shape[2]
        while cap <= top:
            cap *= 2
        new = np.full((self.nkeys, self.nout, cap), MISSING, dtype=np.int64)
        new[:, :, : self.table.shape[2]] = self.table
        self.table = new

    def __call__(self, ids: np.ndarray, keys: Any = 0) -> np.ndarray:
        """``(nout, len(ids))`` values for the states ``ids`` (and per-state ``keys``)."""
        if len(ids) == 0:
            return np.empty((self.nout, 0), dtype=np.int64)
        top = int(ids.max())
        if top >= self.table.shape[2]:
            self._grow(top)
        if isinstance(keys, (int, np.integer)):
            k = int(keys)
            vals = self.table[k][:, ids]
            miss = vals[0] == MISSING
            if miss.any():
                for s in np.unique(ids[miss]).tolist():
                    self.table[k, :, s] = self.fn(s, k)
                vals = self.table[k][:, ids]
            return vals
        vals = self.table[keys, :, ids].T
        miss = vals[0] == MISSING
        if miss.any():
            pairs = np.unique(np.stack([keys[miss], ids[miss]]), axis=1)
            for k, s in pairs.T.tolist():
                self.table[k, :, s] = self.fn(s, k)
            vals = self.table[keys, :, ids].T
        return vals
