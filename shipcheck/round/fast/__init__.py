"""The compiled fast path of the round engine, for the built-in policies.

:func:`shipcheck.round.engine.play` sends a chunk here when every player flies a built-in policy
(``default`` or ``racing``, with the contract's flight policy) and every ship has at most
:data:`~.tables.MAX_TILES` tiles; anything else (a custom :class:`~shipcheck.round.RoundPolicy`,
a custom flight policy) is played by the memoised engine. Both engines read the same decks and dice
and give the same numbers, run for run (``tests/test_round_fast.py``).

The kernel (:mod:`.kernel`) is compiled by numba on first use and cached on disk next to the
module (or in numba's user cache when that folder is read-only), so later processes load it in
a fraction of a second. ``SHIPCHECK_ROUND_ENGINE=memo`` in the environment forces the memoised
engine (for comparisons).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as np

from shipcheck.flight import DefaultPolicy as FlightDefault

from ..policy import DefaultPolicy, RacingPolicy
from ..state import COLOURS
from .tables import MAX_TILES, card_tables, initial_rows, ship_tables

if TYPE_CHECKING:
    from shipcheck.cards import Card

    from ..engine import Chunk
    from ..race import Table

__all__ = ["COMPILED_TYPES", "ENGINE_ENV", "compile_note", "fallback_reason", "play"]

ENGINE_ENV = "SHIPCHECK_ROUND_ENGINE"
#: card types the kernel plays (a new card type flies on the memoised engine until it does)
COMPILED_TYPES = frozenset(("slavers", "smugglers", "pirates", "stardust", "epidemic", "sabotage", "open_space",
                            "meteor_swarm", "planets", "combat_zone", "abandoned_ship", "abandoned_station"))
_BUILT_IN = (DefaultPolicy, RacingPolicy)


def fallback_reason(table: Table, cards: tuple[Card, ...] | None = None) -> str | None:
    """Why the chunks of ``table`` (with ``cards``) go to the memoised engine, or None when the fast
    path plays them."""
    if os.environ.get(ENGINE_ENV, "").strip().lower() == "memo":
        return f"{ENGINE_ENV}=memo"
    for p in table.policies:
        if type(p) not in _BUILT_IN or p.__dict__ or type(p.flight) is not FlightDefault:
            return f"policy {p.name!r} is not a built-in policy"
    for c in cards or ():
        if c.type not in COMPILED_TYPES:
            return f"card type {c.type!r} has no compiled twin"
    for m in table.models:
        if m.n > MAX_TILES:
            return f"a ship of {m.n} tiles (the fast path takes at most {MAX_TILES})"
    try:
        _compiled(table, cards or ())
    except ValueError as exc:
        return str(exc)
    return None


def compile_note() -> str | None:
    """A line to show before a round when the kernel is not in numba's disk cache (it will be
    compiled, once); None when it is cached, the memoised engine is forced, or numba cannot say."""
    if os.environ.get(ENGINE_ENV, "").strip().lower() == "memo":
        return None
    try:
        from . import kernel

        dispatcher: Any = kernel.play
        cached = bool(dispatcher._cache._cache_file._load_index())  # numba's cache index (not public API)
    except Exception:  # another numba: say nothing
        return None
    return None if cached else "compiling the round engine for its first use (about half a minute; cached afterwards)"


def _compiled(table: Table, cards: tuple[Card, ...]) -> dict[str, Any]:
    """The tables of ``table``'s players and of ``cards``, built once per table and deck."""
    cache = table.__dict__.setdefault("_fast", {})
    hit = cache.get("ships")
    if hit is None:
        from ..engine import TYPES

        rules = table.rules
        S = ship_tables(table.models, rules)
        P = table.P
        hit = cache["ships"] = {
            "S": S,
            "R": np.array([P, int(table.five), int(table.assume_weakest), rules.track, rules.best_looking,
                           rules.luxury], dtype=np.int64),
            "start": np.asarray(rules.start_positions(P), dtype=np.int64),
            "prices": np.array([table.prices[c] for c in COLOURS], dtype=np.int64),
            "arrival": np.asarray(rules.arrival_rewards(P, table.five), dtype=np.int64),
            "pol": np.array([int(type(p) is RacingPolicy) for p in table.policies], dtype=np.int64),
            "init": initial_rows(table.models, S),
            "purse": np.asarray(table.purse, dtype=np.int64),
            "types": TYPES,
        }
    key = ("cards", cards)
    if key not in cache:
        cache[key] = card_tables(cards, hit["types"])
    return {**hit, "C": cache[key]}


def play(table: Table, cards: tuple[Card, ...], decks: np.ndarray, rolls: np.ndarray) -> Chunk:
    """:func:`shipcheck.round.engine.play` on the compiled kernel (the caller checked
    :func:`fallback_reason` with the same cards)."""
    from ..engine import ACCOUNT, SOURCES, Chunk
    from . import kernel

    t = _compiled(table, cards)
    n = decks.shape[0]
    P = table.P
    nt = len(t["types"])
    credits = np.zeros((P, n), dtype=np.int32)
    lost = np.zeros((P, n), dtype=np.int16)
    survived = np.zeros((P, n), dtype=np.bool_)
    gave_up = np.zeros((P, n), dtype=np.int8)
    days = np.zeros((P, n), dtype=np.int32)
    place = np.zeros((P, n), dtype=np.int8)
    card_credits = np.zeros((P, n), dtype=np.int32)
    sources = np.zeros((P, n, len(SOURCES)), dtype=np.int32)
    by_type = np.zeros((P, nt, len(ACCOUNT)), dtype=np.int64)
    tile_lost = np.zeros((P, max(m.n for m in table.models)), dtype=np.int64)
    kernel.play(t["S"], t["C"], t["R"], t["start"], t["prices"], t["arrival"], t["pol"], t["init"], t["purse"],
                np.ascontiguousarray(decks, dtype=np.int64), np.ascontiguousarray(rolls, dtype=np.int64),
                credits, lost, survived, gave_up, days, place, card_credits, sources, by_type, tile_lost,
                table.goods_depth)
    return Chunk(credits=credits, lost=lost, survived=survived, gave_up=gave_up, days=days, place=place,
                 card_credits=card_credits, by_type=by_type,
                 tile_lost=[tile_lost[p, : m.n].copy() for p, m in enumerate(table.models)], sources=sources)
