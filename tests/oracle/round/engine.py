"""The memoised round engine (the oracle): many rounds at once, card slot by card slot, every card
type's module once per distinct state. :func:`play_memo` takes the decks and dice of the engine's
layout (see :mod:`shipcheck.round.chunks`) and gives the same arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from shipcheck.cards import CARD_TYPES, Card
from shipcheck.model import Ship
from shipcheck.round.deck import Deck
from shipcheck.round.rulebook import RoundRules

from ..kernel import bits
from . import track
from .cards import RESOLVERS
from .policy import RoundPolicy
from .race import HYPERSPACE, LAPPED, LAUNCH, VOLUNTARY, Race, Table
from .scoring import score
from .state import COLOURS, ShipModel

__all__ = ["ACCOUNT", "SOURCES", "TYPES", "Chunk", "Job", "build_table", "play_memo"]

TYPES = tuple(CARD_TYPES)  # card type index used in per-type accounting
#: per card type and player, summed over runs: cards met, components lost, credits paid during the
#: flight (card rewards and goods sold by halves leaving), track spaces moved, gave up there, and the
#: sale value at the end of the goods it loaded still aboard, in half credits (full price counts 2)
ACCOUNT = ("drawn", "lost", "credits", "days", "gave_up", "goods_half")
#: where a run's credits come from (contract §5.1); the parts of a run add up to its credits
SOURCES = ("cards", "goods", "arrival", "best_looking", "penalty")


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


def build_table(job: Job) -> Table:
    models: list[ShipModel] = []
    for s in job.ships:
        same = next((m for m in models if m.ship == s), None)
        models.append(ShipModel(s, flight=same.fm if same is not None else None))
    return Table(models, list(job.policies), job.rules, job.five, job.assume_weakest, job.purse)


def _overrides(policies: list[RoundPolicy], name: str) -> bool:
    return any(getattr(type(p), name) is not getattr(RoundPolicy, name) for p in policies)


def _lost_now(race: Race) -> np.ndarray:
    def fn(gid: int, _: int) -> tuple[int, int]:
        _p, m, _pol, st = race.t.state(gid)
        return (gid, m.lost(st))
    memo = race.t.memo("lost", fn, 2)
    return memo(race.sid.reshape(-1))[1].reshape(race.P, race.n)


def _hyperspace(race: Race, card: Any, cols: np.ndarray) -> None:
    """Jumps to hyperspace once ``card`` is revealed (rules §11.2): the whole ship (``race.hyper``),
    or on a class IIA ship one half (``race.half``; the state keeps it ``away``) while the other
    flies on. A jump on the last card means giving up (a half: that half leaves the flight)."""
    t = race.t
    last = int(race.slot == race.last)

    def fn(gid: int, last: int) -> tuple[int, int, int]:
        p, m, pol, st = t.state(gid)
        if not m.engine_boosters or st[5]:
            return (gid, 0, 0)  # a half already away: the other waits for it
        want = pol.hyperspace(t.view(gid), card)
        if want is False or (not isinstance(want, bool) and not want):
            return (gid, 0, 0)
        if not m.multi:
            after = m.hyperjump(st)
            return (gid, 0, 0) if after is None else (t.intern(p, after), 1, 0)
        live = m.live_hulls(st)
        jumped = []
        for h in live:
            if want is True or h in want:  # type: ignore[operator]
                after = m.hyperjump(st, h)
                if after is not None:
                    st = after
                    jumped.append(h)
        if not jumped:
            return (gid, 0, 0)
        if len(jumped) == len(live):
            return (t.intern(p, st), 1, 0)
        if last:
            credits = 0
            for h in jumped:
                st, c = m.leave_hull(st, h, t.prices)
                credits += c
            return (t.intern(p, st), 3, credits)
        return (t.intern(p, m.send_away(st, jumped[0])), 2, 0)

    memo = t.memo(("hyperspace", card), fn, 3, 2)
    p, i = race.present(cols).nonzero()  # every player at once: each has its own row
    c = cols[i]
    _, jump, credits = race.apply(memo, p, c, last)
    race.sold[p, c] += credits
    whole, half = jump == 1, jump == 2
    race.hyper[p[whole], c[whole]] = 2  # this card and the next (rules §11.2)
    race.half[p[half], c[half]] = 2
    if last:
        race.give_up(p[whole], c[whole], HYPERSPACE)


def _come_back(race: Race, due: np.ndarray) -> None:
    """Halves in hyperspace whose time is up (``due``, ``(players, runs)``) rejoin their ships."""
    t = race.t

    def fn(gid: int, _: int) -> tuple[int]:
        p, m, _pol, st = t.state(gid)
        return (t.intern(p, m.come_back(st)),)

    memo = t.memo("come_back", fn, 1)
    p, c = np.nonzero(due)
    race.apply(memo, p, c)


def _new_card(race: Race, players: list[int]) -> None:
    """The Techie's free charge is available again on every card."""
    t = race.t

    def fn(gid: int, _: int) -> tuple[int]:
        p, _m, _pol, st = t.state(gid)
        return (t.intern(p, st[:6] + (0,)) if st[6] else gid,)

    memo = t.memo("new_card", fn, 1)
    race.apply(memo, np.repeat(players, race.n), np.tile(np.arange(race.n), len(players)))


def _voluntary(race: Race) -> None:
    t = race.t

    def fn(gid: int, _: int) -> tuple[int, int]:
        _p, _m, pol, _st = t.state(gid)
        return (gid, int(pol.give_up(t.view(gid))))

    memo = t.memo("give_up", fn, 2)
    p, c = np.nonzero(race.out == 0)
    quit_ = memo(race.sid[p, c])[1] == 1
    race.give_up(p[quit_], c[quit_], VOLUNTARY)


def play_memo(table: Table, cards: tuple[Card, ...], decks: np.ndarray, rolls: np.ndarray) -> Chunk:
    """:func:`play` on the memoised engine: every card type's module, once per distinct state."""
    n, size = decks.shape
    race = Race(table, n, decks, rolls)
    P = race.P
    type_of = np.asarray([TYPES.index(c.type) for c in cards], dtype=np.int64)
    by_type = np.zeros((P, len(TYPES), len(ACCOUNT)), dtype=np.int64)
    hyper_policy = _overrides(table.policies, "hyperspace") and any(m.engine_boosters for m in table.models)
    quit_policy = _overrides(table.policies, "give_up")
    techies = [p for p, m in enumerate(table.models) if m.specialisation == "techie"]
    race.crewless()  # a ship (or half) without humans at launch leaves at once (OQ20)
    lost = _lost_now(race)
    for s in range(size):
        race.slot = s
        np.maximum(race.hyper - 1, 0, out=race.hyper)
        if hyper_policy:
            back = race.half == 1
            np.maximum(race.half - 1, 0, out=race.half)
            if back.any():
                _come_back(race, back)
        if techies:
            _new_card(race, techies)
        if quit_policy:
            _voluntary(race)
        before_out = race.out.copy()
        before_credits = race.credits + race.sold
        before_pos = race.pos.copy()
        present = race.present(np.arange(n))
        col = decks[:, s]
        order = np.argsort(col, kind="stable")
        srt = col[order]
        cuts = np.flatnonzero(np.diff(srt)) + 1
        for grp in np.split(order, cuts):
            card = cards[int(col[grp[0]])]
            race.kind = TYPES.index(card.type)
            if hyper_policy:
                _hyperspace(race, card, grp)
                race.crewless(grp)  # the jump's engine destroyed may take the humans with it
            RESOLVERS[card.type](race, card, grp)
        race.kind = LAUNCH
        race.crewless()  # after every card (in a Combat Zone only now)
        lap = track.lapped(race.pos, race.out == 0, table.rules.track)
        if np.count_nonzero(lap):
            pp, cc = np.nonzero(lap)
            race.give_up(pp, cc, LAPPED)
        now = _lost_now(race)
        # per player and run: drawn, lost, credits, days, gave_up (ACCOUNT) on the card type the run drew
        parts = np.stack([present, now - lost, race.credits + race.sold - before_credits, race.pos - before_pos,
                          (before_out == 0) & (race.out != 0)], axis=-1).astype(np.int64)
        np.add.at(by_type[:, :, :5], (slice(None), type_of[col]), parts)
        lost = now
    if hyper_policy:  # halves still in hyperspace come back for the scoring (not lost)
        _come_back(race, np.ones((P, n), dtype=bool))
    sc = score(race)
    by_type[:, :, ACCOUNT.index("goods_half")] = _goods_by_type(race, sc["finished"])
    start = np.asarray(table.rules.start_positions(P), dtype=np.int64)[:, None]
    tile_lost = []
    for p, m in enumerate(table.models):
        uniq, counts = np.unique(race.sid[p], return_counts=True)
        tl = np.zeros(m.n, dtype=np.int64)
        for gid, c in zip(uniq.tolist(), counts.tolist()):
            st = table.reg.states[gid]
            for k in bits(m.full & ~(st[0] | st[4])):  # neither aboard nor gone with a half that left
                tl[k] += c
        tile_lost.append(tl)
    return Chunk(
        credits=sc["credits"].astype(np.int32),
        lost=sc["lost"].astype(np.int16),
        survived=sc["humans"] > 0,
        gave_up=race.out.copy(),
        days=(race.pos - start).astype(np.int32),
        place=sc["place"].astype(np.int8),
        card_credits=(race.credits + race.sold).astype(np.int32),
        by_type=by_type,
        tile_lost=tile_lost,
        sources=np.stack([sc[k] for k in SOURCES], axis=-1).astype(np.int32),
    )


def _goods_by_type(race: Race, finished: np.ndarray) -> np.ndarray:
    """``(players, types)``: per card type, the sale value of the goods it loaded still aboard at the
    end, summed over runs, in half credits (full price after a finished flight, half after giving
    up, before the total's rounding)."""
    t = race.t
    P, n = race.P, race.n
    out = np.zeros((P, len(TYPES)), dtype=np.int64)
    counts = t.goods_counts(race.sid.reshape(-1)).reshape(P, n, 4)
    price = np.asarray([t.prices[c] for c in COLOURS], dtype=np.int64)
    depth = race.prov.shape[-1]
    aboard = np.arange(depth)[None, None, None, :] < counts[..., None]  # (P, n, 4, depth)
    weight = np.where(finished, 2, 1)[:, :, None, None] * price[None, None, :, None]
    src = race.prov.astype(np.int64)
    for p in range(P):
        sel = aboard[p] & (src[p] != LAUNCH)
        if sel.any():
            w = np.broadcast_to(weight[p], sel.shape)[sel]
            out[p] = np.bincount(src[p][sel], weights=w, minlength=len(TYPES))[: len(TYPES)].astype(np.int64)
    return out
