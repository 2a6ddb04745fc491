"""The attack cards of a round and the chance that its deck holds each (rules digest §14).

A round's deck takes, from the edition's 20 cards of each level, a number of each level: round 1
8 of level I, round 2 4 of I and 8 of II, round 3 (and 3a) 4 of I, 4 of II and 8 of III; the
learning flight flies the 8 starred level-I cards. These come from the round simulator's table,
``tiles/rounds.toml``, read here without importing the simulator. A card of level L is in the deck
with probability (cards of L drawn) / (cards of L in the edition). The advisor weighs each meteor
swarm and each card with shots (pirates, a combat zone's shots line) by that probability.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from shipcheck.cards import Card, load_cards
from shipcheck.data import data_path
from shipcheck.errors import InputError

__all__ = ["RoundCards", "decks", "round_cards"]

_LEVELS = {"I": 1, "II": 2, "III": 3}


@functools.cache
def decks() -> dict[str, dict[int, int] | None]:
    """Round -> cards of each level its deck draws; None: the learning flight's starred cards."""
    doc = tomllib.loads(data_path("rounds.toml").read_text(encoding="utf-8"))
    out: dict[str, dict[int, int] | None] = {}
    for key, table in doc.get("round", {}).items():
        deck = table.get("deck")
        out[str(key)] = None if deck == "learning" else {_LEVELS[k]: int(n) for k, n in deck.items()}
    return out


@dataclass(frozen=True)
class RoundCards:
    """The attack cards a round can draw, each with the probability that its deck holds it."""

    round: str
    edition: str
    cards: tuple[tuple[Card, Fraction], ...]

    @property
    def total_weight(self) -> Fraction:
        """Expected number of attack cards in the deck."""
        return sum((w for _, w in self.cards), Fraction(0))


def round_cards(round: str | int, edition: str = "2007", *,
                levels: Sequence[tuple[int, int]] | None = None) -> RoundCards:
    """The meteor swarms and cards with shots of ``round``'s deck, with their draw probabilities.

    ``levels``: the cards of each level the deck takes, ``(level, count)`` pairs as a rules file's
    ``RoundRules.deck`` gives them, in place of the packaged round's."""
    key = str(round).strip().lower()
    table = decks()
    if key not in table:
        raise InputError("unknown round", key="--round", value=round,
                         expected=", ".join(sorted(table, key=lambda k: (not k[0].isdigit(), k))))
    try:
        cards = load_cards(edition)
    except ValueError as exc:
        raise InputError(str(exc), key="edition", value=edition, expected="2007 or 2021") from None
    plan = table[key] if levels is None else dict(levels)
    out = []
    if plan is None:
        out = [(c, Fraction(1)) for c in cards if c.learning and c.level == 1 and c.attacks()]
    else:
        for level, drawn in sorted(plan.items()):
            pool = [c for c in cards if c.level == level]
            if len(pool) < drawn:
                raise InputError(f"the {edition} edition has {len(pool)} level-{level} cards; round {key} "
                                 f"draws {drawn}", key="--round", value=round,
                                 expected="a round whose card levels the edition has (2021: learning, 1, 2)")
            out += [(c, Fraction(drawn, len(pool))) for c in pool if c.attacks()]
    return RoundCards(key, edition, tuple(out))
