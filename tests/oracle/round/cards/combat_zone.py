"""Combat Zone (rules §9.2(7)): three lines in order; each hits the ship weakest in its criterion
(fewest crew, lowest engine power, lowest firepower; ties: the ship ahead) with its penalty: days,
crew, goods (then charges), or shots the hit ship rolls. Parameters are declared from the leader
with the policy's charges (default none). A ship left without humans leaves only after the card.
A ship alone ignores the card (§10.1(3)); five-player rules (§12.4) also hit the second-weakest,
with 1 day / 1 crew / 1 good fewer and without the first heavy shot. A ship hit may use the cyan
Diplomat (policy): the line then hits it not, nor anybody in its place (§11.5)."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card, CombatLine

from ..race import Race, Table
from . import _attacks, card_type
from ._enemies import diplomat_memo
from ._weakest import contest, two_weakest


def _declare(t: Table, criterion: str):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int, int]:
        p, m, pol, st = t.state(gid)
        k = pol.combat(t.view(gid), criterion)
        if criterion == "crew":
            return (gid, m.crew_count(st))
        if criterion == "engine_power":
            power, after = m.engine(st, k)
            return (t.intern(p, after), min(power.values(), default=0))
        from ..state import Firepower
        res = m.firepower(st, Firepower(k))
        assert res is not None
        fp, after, _ = res
        return (t.intern(p, after), fp)
    return fn


def _loss(t: Table, what: str, n: int):  # type: ignore[no-untyped-def]
    def fn(gid: int, _: int) -> tuple[int]:
        p, m, pol, st = t.state(gid)
        if what == "crew":
            after = m.lose_crew(st, n, pol.crew_order(t.view(gid)))
        else:
            after = m.lose_goods(st, n)
        return (t.intern(p, after),)
    return t.memo(("loss", what, n), fn, 1)


def _line(race: Race, card: Card, li: int, line: CombatLine, cols: np.ndarray) -> None:
    t = race.t
    got = contest(race, cols, t.memo(("combat", line.criterion), _declare(t, line.criterion), 2))
    if got is None:
        return
    cols, pres, values = got
    first, second = two_weakest(values, race.pos[:, cols], pres, t.five)
    ar = np.arange(len(cols))
    has1 = np.ones(len(cols), dtype=bool)
    has2 = second >= 0
    if any(m.specialisation == "diplomat" for m in t.models):
        dip = diplomat_memo(t, (card, li), card, line.penalty)
        has1 &= race.apply(dip, first, cols)[1] == 0
        if has2.any():
            has2[np.flatnonzero(has2)[race.apply(dip, second[has2], cols[has2])[1] == 1]] = False
    if line.penalty == "days":
        movers = np.zeros(pres.shape, dtype=bool)
        steps = np.zeros(pres.shape, dtype=np.int64)
        movers[first[has1], ar[has1]] = True
        steps[first[has1], ar[has1]] = -(line.amount or 0)
        movers[second[has2], ar[has2]] = True
        steps[second[has2], ar[has2]] = -((line.amount or 0) - 1)
        race.move_many(cols, movers, steps)
    elif line.penalty in ("crew", "goods"):
        n = line.amount or 0
        race.apply(_loss(t, line.penalty, n), first[has1], cols[has1])
        if has2.any() and n > 1:
            race.apply(_loss(t, line.penalty, n - 1), second[has2], cols[has2])
    else:
        first_heavy = next((j for j, s in enumerate(line.shots) if s.size == "heavy"), -1)
        for j, shot in enumerate(line.shots):
            hit = np.zeros(pres.shape, dtype=bool)
            hit[first[has1], ar[has1]] = True
            if j != first_heavy:
                hit[second[has2], ar[has2]] = True
            _attacks.fly(race, hit, cols, shot, j, race.roll(cols, j))


@card_type("combat_zone")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    for li, line in enumerate(card.lines):
        _line(race, card, li, line, cols)
