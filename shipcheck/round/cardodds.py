"""Exact odds of a sequence of cards with decisions: meteor swarms, enemies and combat zones.

A card with decisions branches on the state: an enemy's penalty comes only with a loss, a combat
zone's line hits the weakest ship, which depends on the opponents too. This module pushes an exact
distribution over *joint* states (every player's state row, the track, who still flies) through the
cards in order, on the engine's own card steps (:func:`shipcheck.engine.encounters.card_step`,
:mod:`shipcheck.engine.joint`) with the round's policies: each roll branches into the outcomes that
differ for the ships it strikes, equal joint states merge after every roll, and probabilities are
whole numbers over 36^rolls, as fractions.

The ship is player 0 and the leader; opponents follow at the round's start spacing. Alone, a combat
zone hits nobody (rules §10.1(3)) unless ``assume_weakest``. The round's rules apply, but nothing
happens between the cards (giving up, hyperspace): docs/flight-model.md, "How the exact odds are
computed", and docs/architecture.md, "Exact odds of cards with fights".
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from shipcheck.cards import Card
from shipcheck.errors import InputError
from shipcheck.model import Ship
from shipcheck.round.policy import RoundPolicy, resolve_policy
from shipcheck.round.rulebook import RoundRules, round_rules
from shipcheck.round.state import RState, ShipModel

__all__ = ["CARD_TYPES", "CardOddsResult", "card_odds"]

CARD_TYPES = ("meteor_swarm", "pirates", "smugglers", "slavers", "combat_zone")
WIN, TIE, LOSE = "win", "tie", "lose"


@dataclass(frozen=True, eq=False)
class CardOddsResult:
    """Exact outcome of a card sequence for the ship: the distribution of its final state, and per
    card what happened to it (``fights``: P(win), P(tie), P(lose) per enemy card met; ``hit``: per
    combat zone, the probability each line hit the ship)."""

    ship: Ship
    cards: tuple[Card, ...]
    policy: str
    model: ShipModel = field(repr=False)
    distribution: dict[RState, Fraction] = field(repr=False)
    events: tuple[dict[str, Any], ...] = ()
    opponents: int = 0
    assume_weakest: bool = False
    notes: tuple[str, ...] = ()

    @cached_property
    def p_survive(self) -> Fraction:
        return sum((p for st, p in self.distribution.items() if self.model.humans(st) > 0), Fraction(0))

    @cached_property
    def lost_distribution(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = defaultdict(Fraction)
        for st, p in self.distribution.items():
            out[self.model.lost(st)] += p
        return dict(sorted(out.items()))

    @cached_property
    def expected_lost(self) -> Fraction:
        return sum((k * p for k, p in self.lost_distribution.items()), Fraction(0))

    def p_lost(self) -> list[tuple[int, Fraction]]:
        """Per tile (grid index), the probability it left the ship."""
        out = []
        for k, sq in enumerate(self.model.fm.squares):
            out.append((sq, sum((p for st, p in self.distribution.items() if not (st[0] | st[4]) >> k & 1),
                                Fraction(0))))
        return out

    def to_dict(self) -> dict[str, Any]:
        b = self.ship.board
        return {
            "exact": True,
            "cards": [c.full_id for c in self.cards],
            "policy": self.policy,
            "p_survive": float(self.p_survive),
            "expected_lost": float(self.expected_lost),
            "lost_distribution": {str(k): float(v) for k, v in self.lost_distribution.items()},
            "tiles": [{"at": b.cell_name(sq), "p_lost": float(p)} for sq, p in self.p_lost()],
            "card_outcomes": [{k: (float(v) if isinstance(v, Fraction) else
                                   [float(x) for x in v] if isinstance(v, list) else v) for k, v in e.items()}
                              for e in self.events],
            "opponents": self.opponents,
            "assume_weakest": self.assume_weakest,
            "board_verified": b.verified,
            "notes": list(self.notes),
            "fractions": {"p_survive": str(self.p_survive), "expected_lost": str(self.expected_lost)},
        }


def flyable(cards: Sequence[Card], *, opponents: bool, assume_weakest: bool) -> None:
    """Raise an :class:`InputError` (naming ``cards``) for a card :func:`card_odds` cannot fly: one that
    is not of attacks or fights, or a combat zone with no ``opponents`` and no ``assume_weakest``."""
    for c in cards:
        if c.type not in CARD_TYPES:
            raise InputError(f"card {c.full_id} ({c.type}) is not a card of attacks or fights", key="cards",
                             value=c.id, expected="meteor swarms, pirates, smugglers, slavers, combat zones "
                             "(other cards fly in whole rounds)")
        if c.type == "combat_zone" and not opponents and not assume_weakest:
            raise InputError(f"card {c.full_id} (combat zone) hits the weakest ship: give the opponents "
                             "(`opponents`), or take the ship to be the weakest (`assume_weakest`)", key="cards", value=c.id,
                             expected="`opponents` or `assume_weakest`")


def card_odds(ship: Ship, cards: Sequence[Card], *, opponents: Sequence[Ship] = (), assume_weakest: bool = False,
              policy: str | RoundPolicy = "default", round: Any = None, five_player: bool | None = None
              ) -> CardOddsResult:
    """Exact odds of ``cards`` in order for ``ship`` (and its opponents), decisions by ``policy``.

    ``round`` picks the start spacing and track (default: the round of the ship's board level).
    A combat zone with no opponent needs ``assume_weakest`` (the ship hit on every line).
    """
    flyable(cards, opponents=bool(opponents), assume_weakest=assume_weakest)
    rules = round_rules(round if round is not None else {1: "1", 2: "2"}.get(ship.board.level, "3"))
    ships = (ship, *opponents)
    five = len(ships) == 5 if five_player is None else bool(five_player)
    pol = resolve_policy(policy)
    # the pass builds many small dicts and tuples and no reference cycles: the cyclic collector's
    # sweeps over a process with the compiled engine loaded would cost more than the pass itself
    # (as in :func:`shipcheck.flight.odds.odds`); paused, and what is left is collected afterwards
    was = gc.isenabled()
    gc.disable()
    try:
        (model, mine), events = _play(ships, tuple(cards), pol, rules, five, assume_weakest)
    finally:
        if was:
            gc.enable()
    notes = []
    if assume_weakest and not opponents:
        notes.append("the ship is taken to be the weakest on every combat-zone line (--assume-weakest)")
    if opponents:
        notes.append(f"{len(opponents)} opponent(s) fly the default policy, from the round's start positions "
                     f"(the ship leads)")
    return CardOddsResult(ship, tuple(cards), pol.name, model, mine, tuple(events), len(opponents),
                          assume_weakest, tuple(notes))


def rolls_needed(card: Card) -> int:
    """The most rolls of two dice ``card`` can need (one per meteor or shot)."""
    if card.type == "meteor_swarm":
        return len(card.meteors or ())
    if card.type == "pirates":
        return len(card.shots or ())
    if card.type == "combat_zone":
        return sum(len(line.shots) for line in card.lines or () if line.penalty == "shots")
    return 0


#: exact passes over fight cards asked in this process so far (:func:`_plain_pass`)
_passes = [0]


def _plain_pass() -> bool:
    """Whether this pass flies the plain copy of the engine rather than the compiled one (the same
    rules, the same numbers): compiled where it is loaded in this process already; else plain for
    the process's first pass (a one-shot ``shipcheck odds`` costs less plain, about 0.1 s, than
    loading numba, about 0.5 s); compiled from the second pass on (a notebook, ``place``, the
    workbench), 5-7 times faster. ``shipcheck.runtime.state.force`` forces one."""
    from shipcheck import runtime

    _passes[0] += 1
    if runtime.state.force == "plain":
        return True
    if runtime.loaded("joint"):
        return False
    if runtime.state.force == "compiled" or _passes[0] > 1:
        return not runtime.compiled()
    return True


def _play(ships: Sequence[Ship], cards: tuple[Card, ...], pol: RoundPolicy, rules: RoundRules, five: bool,
          assume_weakest: bool) -> tuple[tuple[ShipModel, dict[RState, Fraction]], list[dict[str, Any]]]:
    """The cards on the engine's joint states (:mod:`shipcheck.engine.joint`): the ship's final
    distribution and, per card, what it met."""
    import numpy as np

    from shipcheck import engine, runtime
    from shipcheck.engine import layout as L
    from shipcheck.round.chunks import Table
    from shipcheck.round.decisions import Answers

    models = ShipModel.of_players(ships)
    table = Table(models, [pol] + [resolve_policy("default")] * (len(ships) - 1), rules, five, assume_weakest)
    t = table.tables(cards)
    S, C, R = t["S"], t["C"], t["R"]
    P, W = len(ships), int(S[0, L.OFFS, 3])
    plain = _plain_pass()
    o_pos, o_out, o_cred, o_sold, o_hh, o_g, length = (
        int(v) for v in engine.function("joint", "layout_of", plain=True)(P, W))
    if not plain:  # compiled (on its first use, with a progress bar) for these types, on no states
        # (read-only, as the states below are: numba compiles a writable array's call apart)
        none = np.frombuffer(b"", dtype=np.int64).reshape(0, length)
        plain = not engine.compiled_call("joint", lambda: engine.function("joint", "card", plain=False)(
            S, C, R, 0, none, 1, t["prices"], t["depth"]))[0]
    v0 = engine.function("joint", "begin", plain=plain)(S, R, t["init"], t["start"], t["prices"])
    step = engine.function("joint", "card", plain=plain)
    dist: dict[bytes, int] = {np.asarray(v0, dtype=np.int64).tobytes(): 1}  # weights out of ``denom``
    denom = 1
    events: list[dict[str, Any]] = []
    runtime.state.callbacks[table.key] = Answers(table, cards)
    try:
        for ci, c in enumerate(cards):
            rolls = rolls_needed(c)
            if rolls > 12:  # int64 weights: 36**12 < 2**63
                raise InputError(f"card {c.full_id} rolls {rolls} times: more than the exact engine takes (12)",
                                 key="--card", value=c.id)
            full = 36 ** rolls
            keys = list(dist)
            states = np.frombuffer(b"".join(keys), dtype=np.int64).reshape(len(keys), length)
            with np.errstate(over="ignore"):
                after, src, wts = step(S, C, R, ci, states, full, t["prices"], t["depth"])
            denom *= full
            came = [dist[k] for k in keys]
            fought = [0, 0, 0, 0]
            hit = [0] * len(c.lines or ())
            credits = 0
            cols = after[:, [o_g + L.G_FOUGHT, o_g + L.G_HIT, o_cred]].tolist()
            after[:, o_g:o_g + L.GN] = 0  # what the card met, read: the joint states merge without it
            after[:, o_cred:o_cred + P] = 0
            after[:, o_sold:o_sold + P] = 0
            raw = after.tobytes()
            size = 8 * length
            new: dict[bytes, int] = {}
            for j, (i, w, (f, h, cr)) in enumerate(zip(src.tolist(), wts.tolist(), cols)):
                weight = came[i] * w
                fought[f] += weight
                if h:
                    for li in range(len(hit)):
                        if h >> li & 1:
                            hit[li] += weight
                credits += weight * cr
                k = raw[j * size:(j + 1) * size]
                new[k] = new.get(k, 0) + weight
            dist = new
            ev: dict[str, Any] = {"card": c.full_id, "type": c.type}
            if c.type == "combat_zone":
                ev["hit"] = [Fraction(h, denom) for h in hit]
            elif c.type != "meteor_swarm":
                ev.update({WIN: Fraction(fought[1 + int(L.WIN)], denom), TIE: Fraction(fought[1 + int(L.TIE)], denom),
                           LOSE: Fraction(fought[1 + int(L.LOSE)], denom), "credits": Fraction(credits, denom)})
            events.append(ev)
    finally:
        runtime.state.callbacks.pop(table.key, None)
    m = models[0]
    offsets = tuple(int(v) for v in S[0, L.OFFS, :4])
    ship_rows: dict[bytes, int] = {}  # the ship's own row: opponents' states summed out
    for k, w in dist.items():
        r = k[:8 * W]
        ship_rows[r] = ship_rows.get(r, 0) + w
    rows = np.frombuffer(b"".join(ship_rows), dtype=np.int64).reshape(len(ship_rows), W)
    mine: dict[RState, Fraction] = defaultdict(Fraction)
    for st, w in zip(m.states_of(rows, offsets), ship_rows.values()):
        mine[st] += Fraction(w, denom)
    return (m, dict(mine)), events
