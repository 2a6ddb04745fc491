"""Sabotage (rules §9.2(10)): the ship with the fewest crew (tie: the one ahead) rolls 2d6 for a
column, then 2d6 for a row; a component there is destroyed (pieces may fall off), else a new pair,
up to three pairs. A ship alone ignores it; five-player rules (§12.4) also hit the second-fewest,
with only the first two pairs (the same rolls).

The rolls of a card slot: pair ``t`` of coordinates is rolls ``2t`` (column) and ``2t + 1`` (row).
On a 1d6 board (IC/IIC) each coordinate is the first die of its roll (OQ3)."""

from __future__ import annotations

import functools

import numpy as np

from shipcheck.cards import Card
from shipcheck.model import Side
from shipcheck.topology import Board

from ..race import Race, Table
from . import card_type
from ._weakest import contest, two_weakest


@functools.lru_cache(maxsize=64)
def named_squares(board: Board, none: int) -> np.ndarray:
    """``(36, 36)``: the grid square a (column roll, row roll) pair of dice pair indices names on
    ``board``, ``none`` where it names none. A function of the board alone: worked out once per
    board (read-only), not once per ship and round flown."""
    tab = np.full((36, 36), none, dtype=np.int64)
    value = [(a // 6 + 1) + (a % 6 + 1) if board.dice == "2d6" else a // 6 + 1 for a in range(36)]
    cols = [board.lines_for(Side.N, v) for v in value]
    rows = [board.lines_for(Side.E, v) for v in value]
    for a in range(36):
        cs = cols[a]
        for r in range(36):
            rs = rows[r]
            if len(cs) == 1 and len(rs) == 1:
                tab[a, r] = rs[0] * board.width + cs[0]
    tab.flags.writeable = False
    return tab


def _squares(t: Table) -> tuple[np.ndarray, int]:
    """Per player, :func:`named_squares`, and the largest board size (the 'no square' key)."""
    hit = t.memos.get("sabotage-squares")
    if hit is not None:
        return hit  # type: ignore[return-value]
    size = max(m.ship.board.size for m in t.models)
    tab = np.stack([named_squares(m.ship.board, size) for m in t.models])
    t.memos["sabotage-squares"] = (tab, size)  # type: ignore[assignment]
    return tab, size


def _blast(t: Table):  # type: ignore[no-untyped-def]
    def fn(gid: int, sq: int) -> tuple[int, int]:
        p, m, _pol, st = t.state(gid)
        k = next((k for k, sqk in enumerate(m.fm.squares) if sqk == sq), -1)
        if k < 0 or not st[0] >> k & 1:
            return (gid, 0)
        return (t.intern(p, m.destroy(st, 1 << k)), 1)
    return fn


def _crew(t: Table):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int, int]:
        _p, m, _pol, st = t.state(gid)
        return (gid, m.crew_count(st))
    return t.memo("crew", fn, 2)


@card_type("sabotage")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    t = race.t
    got = contest(race, cols, _crew(t))
    if got is None:
        return
    cols, pres, values = got
    first, second = two_weakest(values, race.pos[:, cols], pres, t.five)
    tab, size = _squares(t)
    blast = t.memo("sabotage", _blast(t), 2, size + 1)
    for target, tries in ((first, 3), (second, 2)):
        live = np.flatnonzero(target >= 0)
        for k in range(tries):
            if len(live) == 0:
                break
            c = cols[live]
            who = target[live]
            sq = tab[who, race.roll(c, 2 * k), race.roll(c, 2 * k + 1)]
            _, hit = race.apply(blast, who, c, sq)
            live = live[hit == 0]
        race.crewless(cols)
