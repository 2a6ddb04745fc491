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
from .fix import FixResult, fix
from .flight import DEFAULT_POLICY, Decision, DefaultPolicy, FlightModel, Policy, Situation, parse_attack
from .model import KINDS, Ship, Side, Tile
from .montecarlo import SimulationResult, simulate
from .odds import OddsResult, OptimalPolicy, odds
from .rules import RULES, CheckReport, Violation, check
from .shipfile import catalogue, dump_ship, load_ship, parse_ship
from .stats import ShipStats, stats
from .topology import Board, builtin_board, load_board

__version__ = "0.1.0"


__all__ = [
    "Attack",
    "Board",
    "Card",
    "CheckReport",
    "FixResult",
    "ShipStats",
    "SimulationResult",
    "DEFAULT_POLICY",
    "Decision",
    "DefaultPolicy",
    "FlightModel",
    "InputError",
    "KINDS",
    "OddsResult",
    "OptimalPolicy",
    "Policy",
    "RULES",
    "Ship",
    "ShipFormatError",
    "Side",
    "Situation",
    "Tile",
    "Violation",
    "builtin_board",
    "catalogue",
    "check",
    "dump_ship",
    "find_card",
    "fix",
    "load_board",
    "load_cards",
    "load_ship",
    "odds",
    "parse_attack",
    "parse_ship",
    "simulate",
    "stats",
]
