"""Slavers (rules §9.2(6)): lose N crew, the player's choice (policy: humans first, aliens last);
the reward is credits. A ship left without humans gives up after the card (§10.1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from shipcheck.cards import Card

from ..policy import View
from ..race import Race
from ..state import RState, ShipModel
from . import _enemies, card_type


@card_type("slavers")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    credits = card.credits or 0
    n = card.crew_penalty or 0
    prices = race.t.prices

    def reward(m: ShipModel, st: RState, second: int) -> tuple[RState, int]:
        return st, credits - second

    def penalty(m: ShipModel, st: RState, pol: Any) -> RState:
        return m.lose_crew(st, n, pol.crew_order(View(m, st, prices)))

    _enemies.attack_in_order(race, card, cols, reward, penalty)
