"""Enemies (rules §9.2(6)): Smugglers, Slavers and Pirates attack in flight order from the leader.

Firepower above the strength wins: the player may take the reward (and lose the days) and the
enemy is gone; equal: nothing happens; lower: the penalty; a tie or a loss sends the enemy on to the
next ship. Five-player rules (§12.3): the enemy must be defeated twice, the second winner gets
1 credit / 1 good fewer, and both winners lose the days, rearmost first. A loser may use the cyan
Diplomat (policy): no penalty (no shots), the enemy is not defeated and moves on (§11.5). A ship
left without humans by its fight (a boosted cannon destroyed) or its penalty leaves at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from shipcheck.cards import Card

from ..policy import ENEMY_PENALTY as PENALTY
from ..race import Race, Table
from ..state import RState, ShipModel

WIN, TIE, LOSE = 2, 1, 0

Reward = Callable[[ShipModel, RState, int], tuple[RState, int]]  # (model, state, second) -> (state, credits)


def _fight(t: Table, strength: int):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int, int]:
        p, m, pol, st = t.state(gid)
        choice = pol.fight(t.view(gid), strength)
        res = m.firepower(st, choice)
        if res is None:  # a policy asking for more than the charges allow declares nothing
            from ..state import Firepower
            res = m.firepower(st, Firepower())
            assert res is not None
        fp, after, boosted = res
        if boosted >= 0:
            after = m.destroy(after, 1 << boosted)
        result = WIN if fp > 2 * strength else TIE if fp == 2 * strength else LOSE
        return (t.intern(p, after), result)
    return fn


def _reward(t: Table, card: Card, reward: Reward):  # type: ignore[no-untyped-def]
    def fn(gid: int, second: int) -> tuple[int, int, int]:
        p, m, pol, st = t.state(gid)
        if not pol.take_reward(t.view(gid), card):
            return (gid, 0, 0)
        after, credits = reward(m, st, second)
        return (t.intern(p, after), 1, credits)
    return fn


def diplomat_memo(t: Table, key: object, card: Card, penalty: str):  # type: ignore[no-untyped-def]
    """Memo ``state -> (state, used)``: the policy uses the Diplomat aboard against ``penalty``."""
    def fn(gid: int, _: int) -> tuple[int, int]:
        p, m, pol, st = t.state(gid)
        if not m.has(st, "diplomat") or not pol.diplomat(t.view(gid), card, penalty):
            return (gid, 0)
        return (t.intern(p, m.dismiss_diplomat(st)), 1)
    return t.memo(("diplomat", key), fn, 2)


def attack_in_order(race: Race, card: Card, cols: np.ndarray, reward: Reward,
                    penalty: Callable[[ShipModel, RState, object], RState] | None) -> np.ndarray:
    """Play the enemy through the present ships in flight order; ``penalty(model, state, policy)``
    applies at once to each loser (None: the caller deals with the losers). Returns the
    ``(players, len(cols))`` mask of ships that lost."""
    t = race.t
    strength = card.strength or 0
    fight = t.memo(("fight", strength), _fight(t, strength), 2)
    rew = t.memo(("reward", card), _reward(t, card, reward), 3, 2)
    pen = None
    if penalty is not None:
        def pfn(gid: int, _: int) -> tuple[int]:
            p, m, pol, st = t.state(gid)
            return (t.intern(p, penalty(m, st, pol)),)
        pen = t.memo(("penalty", card), pfn, 1)
    diplomats = any(m.specialisation == "diplomat" for m in t.models)
    dip = diplomat_memo(t, card, card, PENALTY[card.type]) if diplomats else None
    need = 2 if t.five else 1
    defeats = np.zeros(len(cols), dtype=np.int64)
    takers = np.zeros((race.P, len(cols)), dtype=bool)
    lost = np.zeros((race.P, len(cols)), dtype=bool)
    for p, sel in race.rank_loop(cols, race.present(cols)):
        alive = defeats[sel] < need
        p, sel = p[alive], sel[alive]
        c = cols[sel]
        _, result = race.apply(fight, p, c)
        win = result == WIN
        if np.count_nonzero(win):
            pw, sw = p[win], sel[win]
            _, took, credits = race.apply(rew, pw, cols[sw], np.minimum(defeats[sw], 1))
            race.credits[pw, cols[sw]] += credits
            takers[pw[took == 1], sw[took == 1]] = True
            defeats[sw] += 1
        lose = result == LOSE
        if dip is not None and np.count_nonzero(lose):
            _, used = race.apply(dip, p[lose], c[lose])
            lose[np.flatnonzero(lose)[used == 1]] = False
        if np.count_nonzero(lose):
            lost[p[lose], sel[lose]] = True
            if pen is not None:
                race.apply(pen, p[lose], c[lose])
        race.crewless(c)
    race.move_many(cols, takers, np.where(takers, -(card.days or 0), 0))
    return lost
