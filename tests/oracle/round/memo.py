"""Interned player states and per-state lookup tables: the round engine's vectorisation.

Every (player, round state) met in any run gets a global integer id. A :class:`Memo` is a table
from state id (and a small key, such as a meteor's outcome) to a few integers, filled on first use
by a Python function of one state: resolving a card for many runs is a lookup in these tables,
and the rules run once per distinct (state, card) pair, not once per run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .state import RState

__all__ = ["Memo", "Registry"]

SMALL = 64  # pairs a lookup loops over in Python (numpy's per-call cost is the larger below)


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
    """A table ``(key, state id) -> nout integers`` filled on demand by ``fn(state id, key)``.

    Kept as a dict over the pairs met (most states are met by few runs, so a dense table over
    every state id would be mostly empty). A call of at most :data:`SMALL` pairs (most: a card
    drawn by a run or two) is a Python loop over them; a longer one deduplicates them with numpy
    first. Either way ``fn`` runs for the new pairs in ascending order.
    """

    __slots__ = ("fn", "nout", "nkeys", "table")

    def __init__(self, fn: Callable[[int, int], tuple[int, ...]], nout: int, nkeys: int = 1) -> None:
        self.fn = fn
        self.nout = nout
        self.nkeys = nkeys
        self.table: dict[int, tuple[int, ...]] = {}

    def __call__(self, ids: np.ndarray, keys: Any = 0) -> np.ndarray:
        """``(nout, len(ids))`` values for the states ``ids`` (and per-state ``keys``)."""
        if len(ids) == 0:
            return np.empty((self.nout, 0), dtype=np.int64)
        combined = ids * self.nkeys + keys if self.nkeys > 1 else ids
        table, fn, nk = self.table, self.fn, self.nkeys
        if len(combined) <= SMALL:
            pairs = combined.tolist()
            for u in sorted({u for u in pairs if u not in table}):
                table[u] = fn(*divmod(u, nk))
            return np.array([table[u] for u in pairs], dtype=np.int64).T
        uniq, inv = np.unique(combined, return_inverse=True)
        rows = []
        for u in uniq.tolist():
            v = table.get(u)
            if v is None:
                v = table[u] = fn(*divmod(u, nk))
            rows.append(v)
        return np.array(rows, dtype=np.int64).T[:, inv.reshape(-1)]
