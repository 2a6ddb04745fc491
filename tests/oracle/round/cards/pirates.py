"""Pirates (rules §9.2(6)): every defeated ship is marked first, then each shot is rolled once and
hits all of them (§1.2(2)); the reward is credits. A ship left without humans leaves at once: the
shots after that one miss it."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race
from ..state import RState, ShipModel
from . import _attacks, _enemies, card_type


@card_type("pirates")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    credits = card.credits or 0

    def reward(m: ShipModel, st: RState, second: int) -> tuple[RState, int]:
        return st, credits - second

    lost = _enemies.attack_in_order(race, card, cols, reward, None)
    if not lost.any():
        return
    for j, shot in enumerate(card.shots):
        _attacks.fly(race, lost & race.present(cols), cols, shot, j, race.roll(cols, j))
        race.crewless(cols)
