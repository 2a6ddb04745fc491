"""The numbers behind a placement's rank: what welding the tile changes on the ship.

``exposed`` (the checker's count of exposed connectors); ``loss`` and ``survive`` over the round's
attack cards, from the exact engine (:func:`shipcheck.odds`, default policy): every meteor swarm and
card with shots (a combat zone's shots taken as aimed at this ship) flown on the ship as built and
weighed by the chance the round's deck holds it (:mod:`.deck`), ``loss`` their sum and ``survive``
their weighted mean; ``own``, the welded tile's part of ``loss``; ``engine``, ``firepower`` (every
double charged, rules §7), ``crew``, ``cargo``, ``battery``; and the single attacks the tile
``shields`` against or ``exposes`` the ship to. Each number: docs/placement.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from shipcheck.advice.roundcards import RoundCards
from shipcheck.cards import Attack
from shipcheck.engine.layout import cannon_power, engine_power, hold_slots
from shipcheck.flight.chain import FlightModel
from shipcheck.flight.odds import OddsResult, odds
from shipcheck.model import CABIN_KINDS, Ship, Tile

__all__ = ["Flight", "fly", "tile_params"]


@dataclass(frozen=True)
class Flight:
    """A ship's exact figures over a round's attack cards; ``own`` figures are for one tile of it."""

    loss: Fraction  # expected components lost, summed card by card with the draw probabilities
    survive: Fraction  # chance of surviving an attack card, weighted by the draw probabilities
    own: Fraction  # of ``loss``, the expected loss of the tile on the square asked about
    single: dict[str, tuple[Fraction, Fraction]]  # per attack: (expected loss, of it the tile's own)


def round_attacks(rc: RoundCards) -> list[Attack]:
    """The distinct attacks (kind and side) the round's cards fly, in first-seen order."""
    seen: dict[str, Attack] = {}
    for card, _ in rc.cards:
        for a in card.attacks():
            seen.setdefault(str(a), a)
    return list(seen.values())


def fly(ship: Ship, rc: RoundCards, square: int | None = None) -> Flight:
    """Exact figures of ``ship`` over the round's attack cards, and the share of the tile on ``square``.

    One flight model serves every card, so transitions shared by several cards are worked out once.
    """
    model = FlightModel(ship)

    def own(r: OddsResult) -> Fraction:
        if square is None:
            return Fraction(0)
        return r.p_lost_at(square)

    loss = surv = mine = Fraction(0)
    for card, w in rc.cards:
        r = odds(ship, card.attacks(), model=model)
        loss += w * r.expected_lost
        surv += w * r.p_survive
        mine += w * own(r)
    total = rc.total_weight
    single = {}
    for a in round_attacks(rc):
        r = odds(ship, [a], model=model)
        single[str(a)] = (r.expected_lost, own(r))
    return Flight(loss, surv / total if total else Fraction(1), mine, single)


def tile_params(ship: Ship, t: Tile) -> dict[str, Fraction | int]:
    """Engine power, firepower, humans, cargo slots and battery cells the tile adds (every double
    charged; the engine's reading of the tile, :mod:`shipcheck.engine.layout`)."""
    engine = engine_power(t)
    fire = cannon_power(t, ship.ship_side("front"))
    hold = hold_slots(t)
    return {
        "engine": Fraction(engine[0] if engine else 0),
        "firepower": Fraction(fire[0] if fire else 0, 2),
        "crew": t.humans if t.kind in CABIN_KINDS else 0,
        "cargo": sum(hold) if hold else 0,
        "battery": t.capacity,
    }
