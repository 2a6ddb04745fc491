"""Small ships and helpers for the round tests (hand-derived situations).

Ships on the class I board (columns 5-9, rows 5-9, pilot cabin on (7,7)), every one legal with no
exposed connector unless said:

- ``A``: pilot cabin and one engine below it. Crew 2, engine power 1, firepower 0.
- ``B``: pilot cabin, two structural modules beside it and three engines below. Power 3.
- ``C``: ``A`` plus a 3-slot cargo hold right of the pilot cabin (``goods`` optional).
- ``D``: ``A`` plus a cabin left of the pilot cabin. Crew 4 (the cabin comes first in row-major order).
- ``E``: ``A`` with its pilot cabin's front and left connectors exposed (2 exposed connectors).
- ``G``: gunship: single cannons on (6,6) and (8,6)... see :func:`gunship`. Firepower 1 free,
  +2 per charge on a double cannon, 2 charges.
"""

from __future__ import annotations

import numpy as np

from shipcheck.cards import find_card
from shipcheck.model import Ship
from shipcheck.round.chunks import ROLLS, Chunk, Job, build_table, play
from shipcheck.round.deck import fixed_deck
from shipcheck.round.policy import RoundPolicy, resolve_policy
from shipcheck.round.rulebook import round_rules
from tests.shipbuild import ship, tile

ENGINE = tile((7, 8), "engine", "1000")


def A() -> Ship:
    return ship(tile((7, 7), "start_cabin", "0010") + ENGINE, extra='name = "A"\n')


def B() -> Ship:
    return ship(tile((7, 7), "start_cabin", "0111") + tile((6, 7), "structural", "0110")
                + tile((8, 7), "structural", "0011") + tile((6, 8), "engine", "1000") + ENGINE
                + tile((8, 8), "engine", "1000"), extra='name = "B"\n')


def C(goods: list[str] | None = None) -> Ship:
    kw = {"goods": goods} if goods else {}
    return ship(tile((7, 7), "start_cabin", "0110") + tile((8, 7), "cargo", "0001", slots=3, **kw) + ENGINE,
                extra='name = "C"\n')


def D() -> Ship:
    return ship(tile((7, 7), "start_cabin", "0011") + tile((6, 7), "cabin", "0100") + ENGINE, extra='name = "D"\n')


def E() -> Ship:
    return ship(tile((7, 7), "start_cabin", "1011") + ENGINE, extra='name = "E"\n')


def gunship() -> Ship:
    """Pilot cabin (all universal), a double cannon above it, a battery (2) and a single cannon on
    the left, a structural module and a double cannon on the right, an engine below: firepower 1
    free, 3 with one charge, 5 with both charges."""
    return ship(
        tile((7, 7), "start_cabin", "3333") + tile((7, 6), "double_cannon", "0010")
        + tile((6, 7), "battery", "1100", cells=2) + tile((6, 6), "cannon", "0010")
        + tile((8, 7), "structural", "1001") + tile((8, 6), "double_cannon", "0010") + ENGINE,
        extra='name = "G"\n')


def hopper() -> Ship:
    """Pilot cabin, an engine below it, an engine booster on the left joined to a second engine
    below the booster, a battery (2) on the right. Power 2."""
    return ship(tile((7, 7), "start_cabin", "0111") + ENGINE + tile((6, 7), "engine_booster", "0110")
                + tile((6, 8), "engine", "1000") + tile((8, 7), "battery", "0001", cells=2),
                extra='name = "H"\n')


def fly(cards: list[str], ships: list[Ship], *, rolls: list[list[int]] | None = None, round: str = "1",
        runs: int = 3, policy: str | RoundPolicy = "default", five: bool | None = None,
        rules: str | None = None, purse: tuple[int, ...] = ()) -> Chunk:
    """Fly a fixed deck with fixed dice: ``rolls[slot][j]`` is the dice pair index (6*(d1-1)+d2-1) of
    roll ``j`` of card ``slot`` (default all 0: double one, a sum of 2, which names no line on I)."""
    deck = fixed_deck(cards)
    pol = resolve_policy(policy)
    job = Job(tuple(ships), (pol,) * len(ships), round_rules(round, rules), deck,
              len(ships) == 5 if five is None else five, purse=purse)
    table = build_table(job)
    r = np.zeros((runs, len(cards), ROLLS), dtype=np.uint8)
    if rolls is not None:
        for s, row in enumerate(rolls):
            r[:, s, : len(row)] = row
    decks = np.broadcast_to(np.arange(len(cards), dtype=np.int16), (runs, len(cards)))
    return play(table, deck.cards, decks, r)


def pair(d1: int, d2: int) -> int:
    """The dice pair index of a roll."""
    return 6 * (d1 - 1) + d2 - 1


def card(cid: str):  # type: ignore[no-untyped-def]
    return find_card(cid)
