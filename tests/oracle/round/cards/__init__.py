"""Adventure card types, one module each (rules digest §9.2).

A card type is a function ``resolve(race, card, cols)`` registered under the type's name with
:func:`card_type`: it plays ``card`` for the runs ``cols`` of ``race``
(:class:`~shipcheck.round.race.Race`), in flight order, reading and writing the race's arrays.
Per-player work goes through memo tables (:meth:`Table.memo <shipcheck.round.race.Table.memo>`)
so that Python runs once per distinct state, not once per run. To add a card type, write one
module here with its ``resolve`` and its data in the card catalogue (``tiles/cards/``), and import
the module below. The built-in policies fly on a compiled twin of these rules
(:mod:`shipcheck.round.fast`); a deck holding the new type flies on these modules until the kernel
plays it too (:data:`~shipcheck.round.fast.COMPILED_TYPES`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from shipcheck.cards import Card

    from ..race import Race

Resolver = Callable[["Race", "Card", np.ndarray], None]
RESOLVERS: dict[str, Resolver] = {}


def card_type(name: str) -> Callable[[Resolver], Resolver]:
    """Register ``resolve`` as the way cards of type ``name`` are played."""

    def deco(fn: Resolver) -> Resolver:
        RESOLVERS[name] = fn
        return fn

    return deco


from . import (  # noqa: E402  (the modules register themselves)
    abandoned_ship,
    abandoned_station,
    combat_zone,
    epidemic,
    meteor_swarm,
    open_space,
    pirates,
    planets,
    sabotage,
    slavers,
    smugglers,
    stardust,
)

__all__ = ["RESOLVERS", "card_type", "abandoned_ship", "abandoned_station", "combat_zone", "epidemic",
           "meteor_swarm", "open_space", "pirates", "planets", "sabotage", "slavers", "smugglers", "stardust"]
