"""One chunk of rounds in flight: the arrays every card reads and writes, and their helpers.

Rows are players (0 is the ship, then the opponents in order), columns are runs. ``sid`` holds
interned state ids (:class:`~shipcheck.round.memo.Registry`), ``pos`` track positions, ``out`` the
cause a player gave up for (0 while flying), ``hyper`` the cards a player still spends in
hyperspace, ``half`` the cards one half of a class IIA ship still spends there while the other
flies (the half itself waits in the state's ``away``), ``credits`` the credits cards paid so far,
``sold`` the credits of goods sold by IIA halves that left the flight. Cards receive the race and
the columns of the runs that drew them (:mod:`shipcheck.round.cards`).

``prov[p, run, colour, i]`` is where the ``i``-th good of a colour aboard came from: the card type
that loaded it (its index in ``engine.TYPES``), or :data:`LAUNCH`. Goods of one colour are told
apart only by the order they came aboard: when some leave (sold, lost, a hold destroyed) the last
loaded go first, so the entries below the colour's count are always the goods aboard, and a load
writes its card type above the count it found (:meth:`Race.apply`).

The arrays of a card are small (the runs that drew it): ``np.count_nonzero(mask)`` stands for
``mask.any()``, which costs several times more on them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from . import track
from .memo import Memo, Registry
from .policy import RoundPolicy, View
from .state import RState, ShipModel

if TYPE_CHECKING:
    from shipcheck.round.rulebook import RoundRules

__all__ = ["CAUSES", "LAUNCH", "Race", "Table"]

# causes of giving up (rules §10.1), as stored in RoundResult arrays
FLYING, NO_HUMANS, NO_ENGINES, LAPPED, HYPERSPACE, VOLUNTARY = range(6)
CAUSES = ("finished", "no_humans", "no_engine_power", "lapped", "hyperspace_last_card", "voluntary")

ROLLS = 8  # rolls of two dice reserved per card slot (the most any card needs: 7 meteors, 3x2 sabotage)
LAUNCH = 127  # the provenance of goods aboard at launch (card types are 0..11)


class Table:
    """What lives as long as a worker: the players' models and policies, the state registry and
    the memo tables (shared by every chunk the worker runs)."""

    def __init__(self, models: list[ShipModel], policies: list[RoundPolicy], rules: RoundRules,
                 five: bool, assume_weakest: bool = False, purse: tuple[int, ...] = ()) -> None:
        self.models = models
        #: each player's credits before the round: the end-of-round payment takes no more
        self.purse = tuple(purse) + (0,) * (len(models) - len(purse))
        self.policies = policies
        self.rules = rules
        self.five = five
        self.assume_weakest = assume_weakest
        self.P = len(models)
        self.reg = Registry()
        self.memos: dict[Any, Memo] = {}
        self.prices = rules.goods
        #: the most goods of one colour a player can hold (the provenance stack's depth)
        self.goods_depth = max([sum(n + sp for _, n, sp, _ in m.holds) for m in models] + [1])
        self._n_counts = 0
        self._count_array = np.zeros((0, 4), dtype=np.int64)

    def state(self, gid: int) -> tuple[int, ShipModel, RoundPolicy, RState]:
        p = self.reg.players[gid]
        return p, self.models[p], self.policies[p], self.reg.states[gid]

    def view(self, gid: int) -> View:
        p, m, _pol, st = self.state(gid)
        return View(m, st, self.prices)

    def intern(self, p: int, st: RState) -> int:
        return self.reg.intern(p, st)

    def memo(self, key: Any, fn: Callable[[int, int], tuple[int, ...]], nout: int, nkeys: int = 1) -> Memo:
        m = self.memos.get(key)
        if m is None:
            m = self.memos[key] = Memo(fn, nout, nkeys)
        return m

    def goods_counts(self, ids: np.ndarray) -> np.ndarray:
        """``(len(ids), 4)``: goods of each colour aboard in the states ``ids`` (a half away in
        hyperspace included: its goods come back)."""
        states = self.reg.states
        have = self._n_counts
        if have < len(states):
            buf = self._count_array
            if len(buf) < len(states):
                buf = np.zeros((max(2 * len(buf), len(states), 64), 4), dtype=np.int64)
                buf[:have] = self._count_array[:have]
                self._count_array = buf
            for gid in range(have, len(states)):
                st = states[gid]
                row = buf[gid]
                for g in st[3]:
                    for x in g:
                        row[x] += 1
                for g in (st[5][3] if st[5] else ()):
                    for x in g:
                        row[x] += 1
            self._n_counts = len(states)
        return self._count_array[ids]



class Race:
    """The arrays of one chunk of runs (see the module docstring)."""

    def __init__(self, table: Table, n: int, decks: np.ndarray, rolls: np.ndarray) -> None:
        self.t = table
        self.n = n
        P = table.P
        self.P = P
        self.decks = decks
        self.rolls = rolls
        self.slot = 0
        self.last = decks.shape[1] - 1
        start = table.rules.start_positions(P)
        self.pos = np.repeat(np.asarray(start, dtype=np.int64)[:, None], n, axis=1)
        self.out = np.zeros((P, n), dtype=np.int8)
        self.hyper = np.zeros((P, n), dtype=np.int8)
        self.half = np.zeros((P, n), dtype=np.int8)
        self.credits = np.zeros((P, n), dtype=np.int64)
        self.sold = np.zeros((P, n), dtype=np.int64)
        self.sid = np.empty((P, n), dtype=np.int64)
        for p, m in enumerate(table.models):
            self.sid[p] = table.intern(p, m.initial())
        #: runs where a state changed since :meth:`crewless` last looked at them (what it does is a
        #: function of the states: in the other runs it would find nothing to do)
        self.touched = np.ones(n, dtype=bool)
        self.kind = LAUNCH  # the card type being played (the provenance of goods it loads)
        self.prov = np.full((P, n, 4, table.goods_depth), LAUNCH, dtype=np.int8)

    # -- who is where ----------------------------------------------------------------------------
    def present(self, cols: np.ndarray) -> np.ndarray:
        """``(players, len(cols))``: flying and not in hyperspace."""
        return (self.out | self.hyper)[:, cols] == 0  # out 0 (flying) and hyper 0

    def order(self, cols: np.ndarray, present: np.ndarray) -> np.ndarray:
        """Players by rank from the leader, ``(players, len(cols))``; absent players last."""
        return track.flight_order(self.pos[:, cols], present)

    def rank_loop(self, cols: np.ndarray, present: np.ndarray, *, rear_first: bool = False):  # type: ignore[no-untyped-def]
        """For each rank: (player per selected run, selected positions into ``cols``)."""
        order = self.order(cols, present)
        count = present.sum(axis=0)
        ranks = range(self.P)
        for r in ranks:
            sel = (r < count).nonzero()[0]
            if len(sel) == 0:
                continue
            # rank r from the rear among the present is rank count-1-r from the front
            p = order[count[sel] - 1 - r if rear_first else r, sel]
            yield p, sel

    # -- state changes ---------------------------------------------------------------------------
    def apply(self, memo: Memo, p: np.ndarray, c: np.ndarray, keys: Any = 0) -> np.ndarray:
        """Look up ``memo`` for players ``p`` in runs ``c`` (absolute columns), store output 0 as
        their new state ids, and return all outputs."""
        old = self.sid[p, c]
        vals = memo(old, keys)
        new = vals[0]
        changed = new != old
        if np.count_nonzero(changed):  # most often no state changes (a lookup that found nothing to do)
            self._loaded(p, c, old, new)
            self.sid[p, c] = new
            self.touched[c[changed]] = True
        return vals

    def _loaded(self, p: np.ndarray, c: np.ndarray, old: np.ndarray, new: np.ndarray) -> None:
        """Goods that came aboard (a colour's count grew from state ``old`` to ``new``) came from the card
        type being played."""
        t = self.t
        states = t.reg.states
        if all(states[a][3] == states[b][3] and states[a][5] == states[b][5]
               for a, b in zip(old.tolist(), new.tolist())):
            return  # most often: the same goods aboard and away
        before = t.goods_counts(old)
        gain = t.goods_counts(new) - before
        if not np.count_nonzero(gain > 0):
            return
        for colour in range(4):
            rows = (gain[:, colour] > 0).nonzero()[0]
            if not len(rows):
                continue
            for k in range(int(gain[rows, colour].max())):
                r = rows[gain[rows, colour] > k]
                self.prov[p[r], c[r], colour, before[r, colour] + k] = self.kind

    def crewless(self, cols: np.ndarray | None = None) -> None:
        """Ships (or IIA halves) without humans leave the flight at once (rules §10.1; in a Combat
        Zone only after the card, which the engine sees to): a half left alone while the other waits
        in hyperspace leaves and the ship waits there; a ship with nothing left flying gives up."""
        cols = np.arange(self.n) if cols is None else cols
        cols = cols[self.touched[cols]]  # in the others no state changed since it last looked
        if not len(cols):
            return
        self.touched[cols] = False  # until apply changes a state there
        p, i = (self.out[:, cols] == 0).nonzero()  # every player flying at once: each has its own row
        c = cols[i]
        vals = self.apply(_after_card(self.t), p, c)
        if not np.count_nonzero(vals[1:]):  # most often: every ship has humans in every half
            return
        _, credits, gone = vals
        self.sold[p, c] += credits
        self.give_up(p[gone == 1], c[gone == 1], NO_HUMANS)
        self.only_away_left(p[gone == 2], c[gone == 2])

    def only_away_left(self, p: np.ndarray, c: np.ndarray) -> None:
        """The half flying left the flight while the other was in hyperspace: the ship is now that
        half, in hyperspace for the cards it has left there."""
        self.hyper[p, c] = self.half[p, c]
        self.half[p, c] = 0

    def give_up(self, p: np.ndarray, c: np.ndarray, cause: int) -> None:
        keep = self.out[p, c] == 0
        self.out[p[keep], c[keep]] = cause

    def move(self, p: np.ndarray, c: np.ndarray, steps: np.ndarray) -> None:
        """Move players ``p`` of runs ``c`` (absolute columns, one mover per run) by ``steps``."""
        sel = steps != 0
        if np.count_nonzero(sel):
            track.move(self.pos, self.out == 0, p[sel], c[sel], steps[sel], self.t.rules.track)

    def move_many(self, cols: np.ndarray, movers: np.ndarray, steps: np.ndarray) -> None:
        """Several movers per run: ``movers`` a ``(players, len(cols))`` mask, ``steps`` their moves;
        gains move front-most first, losses rearmost first (rules §9.1(2))."""
        if not np.count_nonzero(movers):
            return
        back = (steps < 0) & movers
        fwd = (steps > 0) & movers
        for mask, rear_first in ((fwd, False), (back, True)):
            if not np.count_nonzero(mask):
                continue
            on = self.out[:, cols] == 0
            for p, sel in self.rank_loop(cols, on, rear_first=rear_first):
                hit = mask[p, sel]
                if np.count_nonzero(hit):
                    s = sel[hit]
                    self.move(p[hit], cols[s], steps[p[hit], s])

    def roll(self, cols: np.ndarray, j: int) -> np.ndarray:
        """Roll ``j`` of the current card slot for runs ``cols``: dice pair indices 0-35."""
        return self.rolls[cols, self.slot, j]


def _after_card(t: Table) -> Memo:
    """Memo ``state -> (state, credits, gone)``: halves without humans leave (``credits`` half the
    value of their goods), ``gone`` 1 when the ship is left without humans, 2 when only a half in
    hyperspace is left."""
    def fn(gid: int, _: int) -> tuple[int, int, int]:
        p, m, _pol, st = t.state(gid)
        hulls = m.live_hulls(st)
        if not hulls:  # nothing left flying
            return (t.intern(p, m.come_back(st)), 0, 2) if st[5] else (gid, 0, 1)
        empty = [h for h in hulls if m.humans(st, h if m.multi else None) == 0]
        if not empty:
            return (gid, 0, 0)
        if len(empty) == len(hulls) and not st[5]:
            return (gid, 0, 1)
        credits = 0
        for h in empty:
            st, c = m.leave_hull(st, h, t.prices)
            credits += c
        if len(empty) == len(hulls):
            return (t.intern(p, m.come_back(st)), credits, 2)
        return (t.intern(p, st), credits, 0)
    return t.memo("after", fn, 3)
