"""End-of-flight scoring (rules digest §13), vectorised over runs.

Left to right as the flight board says: rewards, goods, penalties. Ships that finished get the
arrival reward of their place (five-player rules: the two front-most both get the top one, §12.5;
class IIA: ships with both halves arrive ahead of ships with one, §13.1(3)) and, when their exposed
connectors are fewest (ties all win; five players: the two lowest counts), the best-looking bonus.
Goods sell at full price, or half the total rounded up after giving up; the Merchant adds 1 credit
per red and yellow good, never halved; luxury cabins and the Manager pay only a completed flight.
Lost components, set-aside ones included, cost 1 credit each up to the board's cap; with a Lawyer
aboard at the end they are not paid (OQ17, taken as no payment at all). The purse never goes below
zero (FAQ: "Simplesmente devolva todos os seus créditos para o banco"): a player pays at most the
credits in the purse before the round plus those of this round (``Table.purse``).

The credits of a run come from five sources (:data:`~shipcheck.round.chunks.SOURCES`, contract
§5.1) that add up to them exactly: ``cards`` (card rewards; luxury cabins, the Manager and the
Merchant), ``goods`` (sold at the end, and by halves that left), ``arrival``, ``best_looking`` and
``penalty`` (minus what was paid).
"""

from __future__ import annotations

import numpy as np

from . import track
from .race import Race, Table

__all__ = ["FACTS", "score"]

FACTS = ("goods", "goods_half", "merchant", "luxury", "manager", "penalty", "exposed", "humans", "whole", "lost")


def _facts(t: Table):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int, ...]:
        p, m, _pol, st = t.state(gid)
        value = m.goods_value(st, t.prices)
        goods = m.goods_list(st)
        merchant = sum(1 for c in goods if c in (0, 1)) if m.has(st, "merchant") else 0
        aliens = m.aliens(st)
        manager = 0
        if m.has(st, "manager"):
            others = len(aliens) - 1
            manager = 1 if others == 0 else 3 if others == 1 else 6
        lost = m.lost(st)
        cap, _why = t.rules.cap_for(m.ship.board.name, m.ship.board.max_penalty)
        penalty = lost + m.aside
        if cap is not None:
            penalty = min(penalty, cap)
        if m.has(st, "lawyer"):
            penalty = 0
        whole = 1 if st[4] == 0 else 0
        return (gid, value, (value + 1) // 2, merchant, m.luxury_passengers(st), manager, penalty,
                m.exposed(st), m.humans(st), whole, lost)
    return t.memo("facts", fn, 1 + len(FACTS))


def facts(race: Race) -> dict[str, np.ndarray]:
    """Per player and run, the facts of the final state (see :data:`FACTS`)."""
    memo = _facts(race.t)
    vals = memo(race.sid.reshape(-1)).reshape(1 + len(FACTS), race.P, race.n)
    return {name: vals[i + 1] for i, name in enumerate(FACTS)}


def score(race: Race) -> dict[str, np.ndarray]:
    """Credits of every player and run at the end of the flight, with their parts."""
    t = race.t
    f = facts(race)
    P, n = race.P, race.n
    ar = np.arange(n)
    fin = race.out == 0
    # places among the ships that finished: whole ships first, then by position
    key = np.where(fin, f["whole"] * (1 << 40) + race.pos, track.OFF)
    order = np.argsort(-key, axis=0, kind="stable")
    rank = np.empty((P, n), dtype=np.int64)
    for r in range(P):
        rank[order[r], ar] = r
    rewards = np.asarray(t.rules.arrival_rewards(P, t.five), dtype=np.int64)
    arrival = np.where(fin, rewards[rank], 0)
    place = np.where(fin, rank + 1, 0)
    # best-looking ship among the ships that finished (whole ones only, if any finished whole)
    any_whole = (fin & (f["whole"] == 1)).any(axis=0)
    eligible = fin & ((f["whole"] == 1) | ~any_whole[None, :])
    big = np.iinfo(np.int64).max
    ex = np.where(eligible, f["exposed"], big)
    srt = np.sort(ex, axis=0)
    bar = srt[1] if (t.five and P >= 2) else srt[0]
    bar = np.where(eligible.sum(axis=0) >= 2, bar, srt[0]) if t.five and P >= 2 else bar
    best = eligible & (ex <= bar[None, :])
    bonus = np.where(best, t.rules.best_looking, 0)
    goods = np.where(fin, f["goods"], f["goods_half"]) + race.sold
    cards = race.credits + f["merchant"] + np.where(fin, f["luxury"] * t.rules.luxury + f["manager"], 0)
    earned = cards + goods + arrival + bonus
    purse = np.asarray(t.purse, dtype=np.int64)[:, None]
    paid = np.minimum(f["penalty"], purse + earned)
    return {"credits": earned - paid, "cards": cards, "goods": goods, "arrival": arrival, "best_looking": bonus,
            "penalty": -paid, "place": place, "humans": f["humans"], "lost": f["lost"], "finished": fin}
