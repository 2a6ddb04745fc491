"""Meteors and shots for the players of some runs, through each player's flight model.

One roll (a dice pair index 0-35) per run serves every player hit by the same meteor or shot
(rules §1.2(2)); each player's board turns it into an outcome (line, side) as in
:meth:`FlightModel.outcomes <shipcheck.flight.chain.FlightModel.outcomes>`, and the transition is the
flight model's, memoised per (state, outcome).
"""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Attack

from ..race import Race, Table


def _cells(t: Table, attack: Attack) -> tuple[np.ndarray, int]:
    """Per player, the outcome index of each of the 36 dice pairs; and the most outcomes."""
    key = ("cells", attack.kind, attack.side)
    hit = t.memos.get(key)
    if hit is None:
        rows = []
        n_out = 1
        for m in t.models:
            outs, cell36 = m.fm.outcomes(attack)
            rows.append(cell36)
            n_out = max(n_out, len(outs))
        hit = t.memos[key] = (np.asarray(rows, dtype=np.int64), n_out)  # type: ignore[assignment]
    return hit  # type: ignore[return-value]


def fly(race: Race, hit: np.ndarray, cols: np.ndarray, attack: Attack, j: int, roll: np.ndarray) -> None:
    """Attack ``j`` of the card hits the players ``hit`` (``(players, len(cols))``) of runs ``cols``
    with the dice ``roll`` (one per run)."""
    t = race.t
    cells, n_out = _cells(t, attack)
    stationary = all(pol.flight.stationary for pol in t.policies)
    key = ("attack", attack.kind, attack.side, -1 if stationary else j)

    def fn(gid: int, oi: int) -> tuple[int]:
        p, m, pol, st = t.state(gid)
        outs, _ = m.fm.outcomes(attack)
        if oi >= len(outs):
            return (gid,)
        return (t.intern(p, m.flight_step(st, attack, j, oi, pol.flight)),)

    memo = t.memo(key, fn, 1, n_out)
    p, sel = hit.nonzero()  # every player hit at once: each has its own row
    race.apply(memo, p, cols[sel], cells[p, roll[sel]])
