"""Ranking placements by expected credits: whole rounds flown by the round simulator.

Every placement's ship flies the same ``runs`` rounds as the ship without the tile: the same seed
gives run ``r`` the same deck and the same dice whatever the ship (common random numbers, see
:func:`shipcheck.round.simulate_round`), so the per-run differences of credits are paired and their
mean has a small standard error even though the credits of a round vary a lot. The opponents are
the default field of the ship's class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shipcheck.model import Ship

__all__ = ["CreditEffect", "credit_effects"]


@dataclass(frozen=True)
class CreditEffect:
    """Change in expected credits (and in components lost) over a round, with 95 % intervals."""

    credits: float
    credits_ci: tuple[float, float]
    lost: float
    lost_ci: tuple[float, float]


def credit_effects(ship: Ship, ships: Sequence[Ship], *, round: str, runs: int, seed: int,
                   progress: Callable[[int, int], Any] | None = None, rules: str | Path | None = None,
                   notes: list[str] | None = None) -> list[CreditEffect]:
    """For each ship of ``ships`` (the placements), its paired effect against ``ship`` over ``runs`` rounds.

    ``progress(done, total)`` is called after each ship is flown (``ship`` first, then ``ships``); an
    exception it raises stops the work and reaches the caller. ``rules``: a rules file, as
    :func:`shipcheck.simulate_round` takes it; the round's notes (its provisional values, the
    opponents) are added to ``notes`` when a list is given."""
    from shipcheck.round import simulate_round
    from shipcheck.round.result import paired

    def fly(s: Ship):  # type: ignore[no-untyped-def]
        return simulate_round(s, round=round, runs=runs, seed=seed, rules=rules, keep_runs=True)  # paired: every run

    total = len(ships) + 1
    flown = fly(ship)
    if notes is not None:
        notes.extend(flown.notes)
    base = flown.ship_result
    if progress is not None:
        progress(1, total)
    out = []
    for k, s in enumerate(ships):
        r = fly(s).ship_result
        if progress is not None:
            progress(k + 2, total)
        c, cci = paired(r.credits, base.credits)
        lo, lci = paired(r.lost, base.lost)
        out.append(CreditEffect(c, cci, lo, lci))
    return out

