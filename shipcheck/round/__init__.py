"""Whole rounds: the ship and its opponents race through a deck of adventure cards.

Rooms: :mod:`~shipcheck.round.rulebook` (the round's numbers, ``tiles/rounds.toml``),
:mod:`~shipcheck.round.deck` (decks as the rules build them), :mod:`~shipcheck.round.state` (a
player's ship and state), :mod:`~shipcheck.round.policy` (decisions), :mod:`~shipcheck.round.chunks`
(chunks of runs on :mod:`shipcheck.engine`, the one home of the rules), :mod:`~shipcheck.round.decisions`
(what the engine asks a policy of one's own), :mod:`~shipcheck.round.cardodds` (exact odds of cards),
:mod:`~shipcheck.round.result` and :mod:`~shipcheck.round.simulate` (the API).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: public name -> submodule; loaded on first use, so importing a light submodule (the CLI asks
#: ``shipcheck.round.cardodds`` which card types it plays) does not load numpy
_EXPORTS = {
    "CAUSES": "chunks", "Deck": "deck", "DefaultPolicy": "policy", "Firepower": "state",
    "PlanetOption": "policy", "PlayerResult": "result", "RacingPolicy": "policy", "RoundPolicy": "policy",
    "RoundResult": "result", "RoundRules": "rulebook", "ShipModel": "state", "View": "policy",
    "build_deck": "deck", "fixed_deck": "deck", "load_deck_file": "deck", "round_rules": "rulebook",
    "simulate_round": "simulate",
}

__all__ = [
    "CAUSES", "Deck", "DefaultPolicy", "Firepower", "PlanetOption", "PlayerResult", "RacingPolicy", "RoundPolicy",
    "RoundResult", "RoundRules", "ShipModel", "View", "build_deck", "fixed_deck", "load_deck_file", "round_rules",
    "simulate_round",
]

if TYPE_CHECKING:
    from shipcheck.round.chunks import CAUSES
    from shipcheck.round.deck import Deck, build_deck, fixed_deck, load_deck_file
    from shipcheck.round.policy import DefaultPolicy, PlanetOption, RacingPolicy, RoundPolicy, View
    from shipcheck.round.result import PlayerResult, RoundResult
    from shipcheck.round.rulebook import RoundRules, round_rules
    from shipcheck.round.simulate import simulate_round
    from shipcheck.round.state import Firepower, ShipModel


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'shipcheck.round' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # the lazy names too, so that a notebook's completion lists them before their first use
    return sorted(set(globals()) | set(_EXPORTS))
