"""Many rounds at once on the engine (:mod:`shipcheck.engine`): the decks, the dice and the tables.

A chunk of runs draws, from its random generator and before anything else, every run's deck
(:meth:`Deck.draw <shipcheck.round.deck.Deck.draw>`) and then a block of :data:`ROLLS` rolls of two
dice per card slot, in that fixed layout: card slot ``s`` of run ``r`` uses rolls
``rolls[r, s, 0:8]`` whatever the card and whatever the ships (meteor ``j`` and shot ``j`` use roll
``j``, a sabotage's coordinate pair ``t`` rolls ``2t`` and ``2t + 1``). So **the same seed gives run
r the same deck and the same dice for any ships and policies** (common random numbers): two ship
variants compared with one seed differ only by what the ships do.

Every run flies on the engine, whatever the policies: the built-in ones (``default``, ``racing``)
are compiled with the rules, and a policy of one's own is asked in Python at the decisions it makes
(:mod:`shipcheck.round.decisions`), once per distinct question.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from shipcheck.cards import CARD_TYPES, Card
from shipcheck.model import Ship
from shipcheck.round.deck import Deck
from shipcheck.round.policy import RoundPolicy
from shipcheck.round.rulebook import RoundRules
from shipcheck.round.state import COLOURS, ShipModel

__all__ = ["ACCOUNT", "CAUSES", "ROLLS", "SOURCES", "TYPES", "Chunk", "Job", "Table", "build_table", "compile_note", "play",
           "run_chunk"]

TYPES = tuple(CARD_TYPES)  # card type index used in per-type accounting
#: per card type and player, summed over runs: cards met, components lost, credits paid during the
#: flight (card rewards and goods sold by halves leaving), track spaces moved, gave up there, and the
#: sale value at the end of the goods it loaded still aboard, in half credits (full price counts 2)
ACCOUNT = ("drawn", "lost", "credits", "days", "gave_up", "goods_half")
#: where a run's credits come from (contract §5.1); the parts of a run add up to its credits
SOURCES = ("cards", "goods", "arrival", "best_looking", "penalty")
#: causes of giving up (rules §10.1), as stored in RoundResult arrays (0: finished)
CAUSES = ("finished", "no_humans", "no_engine_power", "lapped", "hyperspace_last_card", "voluntary")
ROLLS = 8  # rolls of two dice reserved per card slot (the most any card needs: 7 meteors, 3x2 sabotage)


@dataclass(frozen=True, eq=False)
class Job:
    """Everything a worker needs to play chunks (picklable)."""

    ships: tuple[Ship, ...]
    policies: tuple[RoundPolicy, ...]
    rules: RoundRules
    deck: Deck
    five: bool
    assume_weakest: bool = False  # a ship alone is the weakest in combat zones and sabotage
    purse: tuple[int, ...] = ()  # each player's credits before the round (default none)


@dataclass
class Chunk:
    """One chunk's per-run arrays ``(players, runs)``, the credits by source ``(players, runs, 5)``
    (:data:`SOURCES`) and per-type totals ``(players, types, 6)`` (:data:`ACCOUNT`)."""

    credits: np.ndarray
    lost: np.ndarray
    survived: np.ndarray
    gave_up: np.ndarray
    days: np.ndarray
    place: np.ndarray
    card_credits: np.ndarray
    by_type: np.ndarray
    tile_lost: list[np.ndarray]
    sources: np.ndarray


class Table:
    """What lives as long as a worker: the players' models and policies, the round's rules, and the
    engine's tables built from them (once per deck)."""

    def __init__(self, models: list[ShipModel], policies: list[RoundPolicy], rules: RoundRules,
                 five: bool, assume_weakest: bool = False, purse: tuple[int, ...] = ()) -> None:
        self.models = models
        self.policies = policies
        self.rules = rules
        self.five = five
        self.assume_weakest = assume_weakest
        self.P = len(models)
        #: each player's credits before the round: the end-of-round payment takes no more
        self.purse = tuple(purse) + (0,) * (len(models) - len(purse))
        self.prices = rules.goods
        #: the most goods of one colour a player can hold (the depth of the goods' provenance)
        self.goods_depth = max([sum(n + sp for _, n, sp, _ in m.holds) for m in models] + [1])
        from shipcheck.runtime import new_key

        self.key = new_key()
        self._ships: dict[str, Any] | None = None  # the players' arrays, built at the first deck
        self._answers: Any = None

    def tables(self, cards: tuple[Card, ...]) -> dict[str, Any]:
        """The engine's arrays for these players (built once) and ``cards`` (once a process)."""
        from shipcheck.engine.layout import ASK, POLICY, TID, V, initial_rows, ship_tables
        from shipcheck.round.decisions import asks, base_policy

        hit = self._ships
        if hit is None:
            rules = self.rules
            S = ship_tables(self.models, rules)
            for p, pol in enumerate(self.policies):
                S[p, V, POLICY] = base_policy(pol)
                S[p, V, ASK] = asks(pol)
            S[:, V, TID] = self.key
            P = self.P
            hit = self._ships = {
                "S": S,
                "R": np.array([P, int(self.five), int(self.assume_weakest), rules.track, rules.best_looking,
                               rules.luxury, self.key], dtype=np.int64),
                "start": np.asarray(rules.start_positions(P), dtype=np.int64),
                "prices": np.array([self.prices[c] for c in COLOURS], dtype=np.int64),
                "arrival": np.asarray(rules.arrival_rewards(P, self.five), dtype=np.int64),
                "init": initial_rows(self.models, S),
                "purse": np.asarray(self.purse, dtype=np.int64),
                "depth": self.goods_depth,
            }
        return {**hit, "C": _card_tables(cards)}

    def asks_python(self) -> bool:
        """Whether some player's policy is asked in Python (a policy of one's own)."""
        from shipcheck.round.decisions import asks

        return any(asks(pol) for pol in self.policies)


@functools.lru_cache(maxsize=16)
def _card_tables(cards: tuple[Card, ...]) -> np.ndarray:
    """The engine's array of a deck's cards, built once a process (a search flies one deck again
    and again; the engine only reads it)."""
    from shipcheck.engine.layout import card_tables

    return card_tables(cards, TYPES)


def build_table(job: Job) -> Table:
    return Table(ShipModel.of_players(job.ships), list(job.policies), job.rules, job.five, job.assume_weakest, job.purse)


def run_chunk(table: Table, deck: Deck, g: np.random.Generator, n: int,
              tick: Callable[[int], Any] | None = None) -> Chunk:
    """Play ``n`` rounds with the random stream ``g``: decks first, then the dice (a fixed layout).
    ``tick(runs_done)``: see :func:`play`."""
    decks = deck.draw(g, n)
    rolls = g.integers(0, 36, size=(n, decks.shape[1], ROLLS), dtype=np.uint8)
    return play(table, deck.cards, decks, rolls, tick=tick)


def play(table: Table, cards: tuple[Card, ...], decks: np.ndarray, rolls: np.ndarray,
         tick: Callable[[int], Any] | None = None, *, plain: bool = False) -> Chunk:
    """Play rounds with given decks (``(runs, slots)`` indices into ``cards``) and dice
    (``(runs, slots, ROLLS)`` pair indices 0-35, ``6 * (die1 - 1) + die2 - 1``) on the engine.
    ``tick(runs_done)`` after each slice the plain engine flies; ``plain``: fly plain Python even
    where numba compiles (for comparisons)."""
    from shipcheck import engine, runtime
    from shipcheck.round.decisions import Answers

    t = table.tables(cards)
    n = decks.shape[0]
    out = engine.Outputs(table.P, n, len(TYPES), len(ACCOUNT), len(SOURCES), max(m.n for m in table.models))
    if table._answers is None or table._answers.cards != tuple(cards):
        table._answers = Answers(table, cards)
    table._answers.bound()
    runtime.state.callbacks[table.key] = table._answers
    try:
        engine.play(t, np.ascontiguousarray(decks, dtype=np.int64), np.ascontiguousarray(rolls, dtype=np.int64),
                    out, plain=plain, tick=tick)
    finally:
        runtime.state.callbacks.pop(table.key, None)
    return Chunk(credits=out.credits, lost=out.lost, survived=out.survived, gave_up=out.gave_up, days=out.days,
                 place=out.place, card_credits=out.card_credits, by_type=out.by_type,
                 tile_lost=[out.tile_lost[p, : m.n].copy() for p, m in enumerate(table.models)], sources=out.sources)


def compile_note() -> str | None:
    """A line to show before a round whose engine compiles first (its first use), or runs plain."""
    from shipcheck import engine, runtime

    if runtime.loaded("round"):
        return None
    if not runtime.compiled():
        return f"the round engine runs as plain Python, much slower: {runtime.reason()}"
    return None if runtime.cached("round") else engine.ENTRIES["round"][0]
