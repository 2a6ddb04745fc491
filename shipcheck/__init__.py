"""shipcheck: check Galaxy Trucker ships, fix them, and compute the odds of a flight.

>>> import shipcheck
>>> ship = shipcheck.parse_ship('format = 1\\nclass = "I"\\n')   # a lone pilot cabin
>>> shipcheck.check(ship).legal
True
>>> str(shipcheck.odds(ship, ["small-meteor:front"]).p_survive)
'5/6'
"""

from __future__ import annotations

from .cards import Attack, Card, find_card, load_cards
from .errors import InputError, ShipFormatError
from .flight import DEFAULT_POLICY, Decision, DefaultPolicy, FlightModel, Policy, Situation, parse_attack
from .model import KINDS, Ship, Side, Tile
from .odds import OddsResult, OptimalPolicy, odds
from .rules import RULES, CheckReport, Violation, check
from .shipfile import catalogue, dump_ship, load_ship, parse_ship
from .topology import Board, builtin_board, load_board

__version__ = "0.1.0"


def fix(ship: Ship):  # type: ignore[no-untyped-def]
    """The fewest lost components that make ``ship`` legal (see :mod:`shipcheck.fix`)."""
    from .fix import fix as _fix

    return _fix(ship)


def simulate(ship: Ship, attacks, **kwargs):  # type: ignore[no-untyped-def]
    """Monte Carlo odds (see :func:`shipcheck.montecarlo.simulate`)."""
    from .montecarlo import simulate as _simulate

    return _simulate(ship, attacks, **kwargs)


def stats(ship: Ship):  # type: ignore[no-untyped-def]
    """Ship parameters (see :func:`shipcheck.stats.stats`)."""
    from .stats import stats as _stats

    return _stats(ship)


__all__ = [
    "Attack", "Board", "Card", "CheckReport", "DEFAULT_POLICY", "Decision", "DefaultPolicy", "FlightModel",
    "InputError", "KINDS", "OddsResult", "OptimalPolicy", "Policy", "RULES", "Ship", "ShipFormatError", "Side",
    "Situation", "Tile", "Violation", "builtin_board", "catalogue", "check", "dump_ship", "find_card", "fix",
    "load_board", "load_cards", "load_ship", "odds", "parse_attack", "parse_ship", "simulate", "stats",
]
