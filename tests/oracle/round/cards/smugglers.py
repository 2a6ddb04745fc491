"""Smugglers (rules §9.2(6)): lose the N most valuable goods, then battery charges for the rest
(§9.4); the reward is goods."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race
from ..state import CODE, RState, ShipModel
from . import _enemies, card_type


@card_type("smugglers")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    goods = sorted((CODE[g] for g in card.goods), key=int)

    def reward(m: ShipModel, st: RState, second: int) -> tuple[RState, int]:
        return m.load(st, goods[:-1] if second else goods), 0

    n = card.goods_penalty or 0
    _enemies.attack_in_order(race, card, cols, reward, lambda m, st, pol: m.lose_goods(st, n))
