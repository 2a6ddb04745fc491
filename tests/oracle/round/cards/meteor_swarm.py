"""Meteor Swarm (rules §9.2(5)): the meteors one at a time in printed order, each with one roll
for every ship flying (§8). A ship left without humans leaves at once: the meteors after that one
miss it."""

from __future__ import annotations

import numpy as np

from shipcheck.cards import Card

from ..race import Race
from . import _attacks, card_type


@card_type("meteor_swarm")
def resolve(race: Race, card: Card, cols: np.ndarray) -> None:
    for j, meteor in enumerate(card.meteors):
        _attacks.fly(race, race.present(cols), cols, meteor, j, race.roll(cols, j))
        race.crewless(cols)
