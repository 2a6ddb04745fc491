"""Defaults shared by the library and the command line: one number of runs per kind of work, and
the round a ship flies unless told.

Kinds of work: a Monte Carlo flight through given attacks or cards (:func:`shipcheck.simulate`,
``simulate --attack/--card``) is cheap per run; a whole round (:func:`shipcheck.simulate_round`,
``simulate --round``) costs a deck per run; a comparison flies every candidate (each placement of
``place``, each ship and change of ``report``) on the same decks and dice, so it needs fewer runs
per candidate to rank them.
"""

from __future__ import annotations

from typing import Any

RUNS_FLIGHT = 100_000  #: Monte Carlo flights through given attacks or cards
RUNS_ROUND = 10_000  #: whole rounds
RUNS_COMPARE = 2_000  #: rounds per candidate, when candidates are compared on common numbers

#: the most runs one call takes, per kind of work: beyond them a run would take hours to days on
#: one core (flights ~10^7 a minute, rounds ~2*10^6 a minute, a comparison flies dozens of
#: candidates), so a typo such as ``--runs 1000000000000`` is refused rather than left running
MAX_RUNS_FLIGHT = 10**10
MAX_RUNS_ROUND = 10**8
MAX_RUNS_COMPARE = 10**6
MAX_ROLLOUTS = 1000  #: the placement advisor's rollouts (``place --rollouts``), each 24 draws played out

ROUNDS = ("learning", "1", "2", "3", "3a")


def default_round(board: Any) -> str:
    """The round a ship flies unless told: its board's level (``"3a"`` for class IIIa, ``"3"`` past
    level 3: no deck has level-IV cards)."""
    if board.name == "IIIa":
        return "3a"
    return str(min(max(int(board.level), 1), 3))


__all__ = ["MAX_ROLLOUTS", "MAX_RUNS_COMPARE", "MAX_RUNS_FLIGHT", "MAX_RUNS_ROUND", "ROUNDS", "RUNS_COMPARE", "RUNS_FLIGHT",
           "RUNS_ROUND", "default_round"]
