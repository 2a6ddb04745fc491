"""shipcheck: check Galaxy Trucker ships, fix them, and compute the odds of a flight.

>>> import shipcheck
>>> ship = shipcheck.parse_ship('format = 1\\nclass = "I"\\n')   # a lone pilot cabin
>>> shipcheck.check(ship).legal
True
>>> str(shipcheck.odds(ship, ["small-meteor:front"]).p_survive)
'5/6'

The public names below are imported on first use, so ``import shipcheck`` loads no numpy, scipy,
pandas or rich. Four functions share their module's name (``fix``, ``odds``, ``report``, ``stats``):
``shipcheck.fix`` is the function; reach the module with ``from shipcheck.check.fix import ...``.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from shipcheck._version import __version__ as __version__

#: public name -> the submodule that defines it
_EXPORTS: dict[str, str] = {
    "Advice": "advice", "advise": "advice", "place": "advice",
    "Attack": "cards", "Card": "cards", "find_card": "cards", "load_cards": "cards",
    "InputError": "errors", "ShipFormatError": "errors", "UnknownNameError": "errors",
    "DesignResult": "design", "design": "design",
    "FixResult": "check.fix", "fix": "check.fix",
    "DEFAULT_POLICY": "flight.chain", "Decision": "flight.chain", "DefaultPolicy": "flight.chain", "FlightModel": "flight.chain",
    "Policy": "flight.chain", "Situation": "flight.chain", "parse_attack": "flight.chain",
    "KINDS": "model", "Ship": "model", "Side": "topology", "Tile": "model",
    "SimulationResult": "flight.montecarlo", "simulate": "flight.montecarlo",
    "OddsResult": "flight.odds", "OptimalPolicy": "flight.odds", "odds": "flight.odds",
    "Report": "report", "report": "report",
    "RoundResult": "round", "simulate_round": "round",
    "RULES": "check.rules", "CheckReport": "check.rules", "Violation": "check.rules", "check": "check.rules",
    "catalogue": "shipfile", "dump_ship": "shipfile", "load_ship": "shipfile", "parse_ship": "shipfile",
    "ShipStats": "flight.stats", "stats": "flight.stats",
    "Board": "topology", "builtin_board": "topology", "load_board": "topology", "Square": "topology",
    "check_many": "check.walk",
}

#: the public API; a test keeps it equal to the names of _EXPORTS
__all__ = [
    "Advice", "Attack", "Board", "Card", "CheckReport", "DEFAULT_POLICY", "Decision", "DefaultPolicy",
    "DesignResult", "FixResult", "FlightModel", "InputError", "KINDS", "OddsResult", "OptimalPolicy", "Policy", "RULES", "Report",
    "RoundResult", "Ship", "ShipFormatError", "ShipStats", "Side", "SimulationResult", "Situation", "Square", "Tile",
    "UnknownNameError", "Violation", "advise", "builtin_board", "catalogue", "check", "check_many", "design",
    "dump_ship",
    "find_card", "fix", "load_board", "load_cards", "load_ship", "odds", "parse_attack", "parse_ship", "place",
    "report", "simulate", "simulate_round", "stats",
]

if TYPE_CHECKING:  # what type checkers and editors see; at run time the names load lazily
    from shipcheck.advice import Advice, advise, place
    from shipcheck.cards import Attack, Card, find_card, load_cards
    from shipcheck.check.fix import FixResult, fix
    from shipcheck.check.rules import RULES, CheckReport, Violation, check
    from shipcheck.check.walk import check_many
    from shipcheck.design import DesignResult, design
    from shipcheck.errors import InputError, ShipFormatError, UnknownNameError
    from shipcheck.flight.chain import (
        DEFAULT_POLICY,
        Decision,
        DefaultPolicy,
        FlightModel,
        Policy,
        Situation,
        parse_attack,
    )
    from shipcheck.flight.montecarlo import SimulationResult, simulate
    from shipcheck.flight.odds import OddsResult, OptimalPolicy, odds
    from shipcheck.flight.stats import ShipStats, stats
    from shipcheck.model import KINDS, Ship, Tile
    from shipcheck.report import Report, report
    from shipcheck.round import RoundResult, simulate_round
    from shipcheck.shipfile import catalogue, dump_ship, load_ship, parse_ship
    from shipcheck.topology import Board, Side, Square, builtin_board, load_board


class _Package(types.ModuleType):
    """The package module: public names load on first access, and a submodule bound by the import
    system never hides the public function of the same name."""

    def __getattr__(self, name: str) -> Any:
        module = _EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module 'shipcheck' has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", __name__), name)
        super().__setattr__(name, value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in _EXPORTS:
            return  # `import shipcheck.check.fix` binds the module; `shipcheck.fix` stays the function
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(_EXPORTS))


sys.modules[__name__].__class__ = _Package
