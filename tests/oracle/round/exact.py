"""Exact odds of a sequence of cards with decisions: meteor swarms, enemies and combat zones.

The oracle: ``shipcheck.round.cardodds`` as it was before the cards' steps of the engine
(``shipcheck.engine.joint``), the cards written out once more in plain Python over the oracle's
round states (:mod:`oracle.round.state`), kept to hold the package's exact card odds to.

The exact engine of :mod:`shipcheck.odds` walks a fixed list of attacks. A card with decisions
branches on the ship's state: against an enemy the ship wins, ties or loses by the firepower its
policy declares, and only a loss brings the penalty (shots, crew, goods); in a combat zone each line
hits the weakest ship, which depends on the opponents too. This module pushes an exact distribution
over *joint* states (every player's round state, the track positions, who still flies) through the
cards in order, with the round's rules and policies (:mod:`shipcheck.round.state`,
:mod:`shipcheck.round.policy`): deterministic steps map a joint state to one joint state, each roll
of two dice to 36 equally likely ones, and equal joint states merge after every roll, so the cost
is (distinct joint states) x 36 per roll, as in ``odds``.

The ship is player 0 and the leader at the start; opponents follow at the round's start spacing.
Alone, a combat zone hits nobody (rules §10.1(3)) unless ``assume_weakest`` takes the ship to be
the weakest on every line. A ship left without humans leaves at once (after each meteor, shot or
fight), except in a combat zone, where it leaves after the card.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from shipcheck.cards import Attack, Card
from shipcheck.errors import InputError
from shipcheck.model import Ship
from shipcheck.round.rulebook import RoundRules, round_rules

from .policy import ENEMY_PENALTY as PENALTY
from .policy import RoundPolicy, View, resolve_policy
from .state import CODE, Firepower, RState, ShipModel

__all__ = ["CARD_TYPES", "CardOddsResult", "card_odds"]

CARD_TYPES = ("meteor_swarm", "pirates", "smugglers", "slavers", "combat_zone")
WIN, TIE, LOSE = "win", "tie", "lose"

Joint = tuple[tuple[int, ...], tuple[RState, ...], tuple[bool, ...]]  # positions, states, flying
Dist = dict[Joint, Fraction]
Tagged = dict[tuple[Joint, Any], Fraction]  # joint states tagged with who a card's shots strike
SIXTH = Fraction(1, 36)


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

    @property
    def p_survive(self) -> Fraction:
        return sum((p for st, p in self.distribution.items() if self.model.humans(st) > 0), Fraction(0))

    @property
    def lost_distribution(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = defaultdict(Fraction)
        for st, p in self.distribution.items():
            out[self.model.lost(st)] += p
        return dict(sorted(out.items()))

    @property
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


class _Game:
    """The players' models and policies, and the scalar moves of the track."""

    def __init__(self, ships: Sequence[Ship], policy: RoundPolicy, rules: RoundRules, five: bool,
                 assume_weakest: bool) -> None:
        self.models = [ShipModel(s) for s in ships]
        self.policies = [policy] + [resolve_policy("default")] * (len(ships) - 1)
        self.rules = rules
        self.five = five
        self.assume_weakest = assume_weakest
        self.P = len(ships)
        self._memo: dict[Any, Any] = {}

    def view(self, p: int, st: RState) -> View:
        return View(self.models[p], st, self.rules.goods)

    def memo(self, key: Any, fn: Any) -> Any:
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = fn()
        return hit

    # -- the track -------------------------------------------------------------------------------
    def order(self, j: Joint) -> list[int]:
        pos, _, fly = j
        return sorted((p for p in range(self.P) if fly[p]), key=lambda p: -pos[p])

    def move(self, pos: list[int], fly: tuple[bool, ...], p: int, steps: int) -> None:
        L = self.rules.track
        taken = {pos[q] % L for q in range(self.P) if q != p and fly[q]}
        step = 1 if steps > 0 else -1
        left = abs(steps)
        at = pos[p]
        while left:
            at += step
            if at % L not in taken:
                left -= 1
        pos[p] = at

    def lose_days(self, j: Joint, who: dict[int, int]) -> Joint:
        """Players ``who`` lose their days, rearmost first."""
        pos = list(j[0])
        for p in sorted(who, key=lambda q: pos[q]):
            if who[p]:
                self.move(pos, j[2], p, -who[p])
        return (tuple(pos), j[1], j[2])

    # -- one roll --------------------------------------------------------------------------------
    def roll(self, dist: Tagged, attack: Attack, j_index: int, hit: Any, at_once: bool = True) -> Tagged:
        """One meteor or shot over joint states tagged with who it strikes (``hit(joint, tag)``):
        each of the 36 dice pairs, one roll for every player struck; those left without humans
        leave at once (``at_once``; in a combat zone they leave after the card)."""
        out: Tagged = defaultdict(Fraction)
        cells = [m.fm.outcomes(attack)[1] for m in self.models]  # each pair's outcome, per player
        for (joint, tag), p in dist.items():
            who = hit(joint, tag)
            if not who:
                out[(joint, tag)] += p
                continue
            for pair in range(36):
                states = list(joint[1])
                for q in who:
                    states[q] = self.step(q, states[q], attack, j_index, cells[q][pair])
                fly = joint[2] if not at_once else self.leave(joint[2], states, who)
                out[((joint[0], tuple(states), fly), tag)] += p * SIXTH
        return dict(out)

    def step(self, q: int, st: RState, attack: Attack, j_index: int, oi: int) -> RState:
        """Player ``q``'s state after outcome ``oi`` of ``attack``, the ``j_index``-th of its card:
        worked out once per game (pairs of dice share outcomes, joint states share a player's state),
        for every attack of a card at once when the flight policy is stationary."""
        policy = self.policies[q].flight
        key = (q, st, attack, -1 if policy.stationary else j_index, oi)
        after = self._memo.get(key)
        if after is None:
            after = self._memo[key] = self.models[q].flight_step(st, attack, j_index, oi, policy)
        return after

    def leave(self, fly: tuple[bool, ...], states: Sequence[RState], who: Any) -> tuple[bool, ...]:
        """Players ``who`` left without humans leave at once."""
        if all(self.models[q].humans(states[q]) > 0 for q in who):
            return fly
        return tuple(f and (q not in who or self.models[q].humans(states[q]) > 0) for q, f in enumerate(fly))

    def after_card(self, dist: Dist) -> Dist:
        """Ships without humans leave the flight after a card (rules §10.1)."""
        out: Dist = defaultdict(Fraction)
        for (pos, states, fly), p in dist.items():
            fly2 = tuple(f and self.models[q].humans(states[q]) > 0 for q, f in enumerate(fly))
            out[(pos, states, fly2)] += p
        return dict(out)

    # -- cards -----------------------------------------------------------------------------------
    def fight(self, p: int, st: RState, strength: int) -> tuple[str, RState]:
        m = self.models[p]
        choice = self.policies[p].fight(self.view(p, st), strength)
        res = m.firepower(st, choice) or m.firepower(st, Firepower())
        assert res is not None
        fp, after, boosted = res
        if boosted >= 0:
            after = m.destroy(after, 1 << boosted)
        return (WIN if fp > 2 * strength else TIE if fp == 2 * strength else LOSE), after

    def enemy(self, card: Card, dist: Dist, event: dict[str, Any]) -> Dist:
        strength = card.strength or 0
        need = 2 if self.five else 1
        out: Tagged = defaultdict(Fraction)
        for joint, prob in dist.items():
            pos, states_t, fly = joint
            states = list(states_t)
            flying = list(fly)
            defeats = 0
            takers: dict[int, int] = {}
            losers = []
            for p in self.order(joint):
                if defeats >= need:
                    break
                result, states[p] = self.fight(p, states[p], strength)
                if p == 0:
                    event[result] += prob
                if result == WIN:
                    m, pol = self.models[p], self.policies[p]
                    if pol.take_reward(self.view(p, states[p]), card):
                        if card.type == "smugglers":
                            goods = sorted(CODE[g] for g in card.goods)
                            states[p] = m.load(states[p], goods[:-1] if defeats else goods)
                        elif p == 0:
                            event["credits"] += prob * ((card.credits or 0) - defeats)
                        takers[p] = card.days or 0
                    defeats += 1
                elif result == LOSE:
                    m, pol = self.models[p], self.policies[p]
                    if self.diplomat(p, states[p], card, PENALTY[card.type]):
                        states[p] = m.dismiss_diplomat(states[p])
                        continue  # not defeated: the enemy moves on (rules §11.5)
                    if card.type == "smugglers":
                        states[p] = m.lose_goods(states[p], card.goods_penalty or 0)
                    elif card.type == "slavers":
                        states[p] = m.lose_crew(states[p], card.crew_penalty or 0,
                                                pol.crew_order(self.view(p, states[p])))
                    losers.append(p)
                if self.models[p].humans(states[p]) == 0:
                    flying[p] = False  # left without humans: it leaves at once
            j2 = self.lose_days((pos, tuple(states), tuple(flying)), takers)
            out[(j2, tuple(losers))] += prob
        tagged = dict(out)
        if card.type == "pirates":  # every defeated ship is marked first, then each shot is rolled once
            for k, shot in enumerate(card.shots):
                tagged = self.roll(tagged, shot, k, lambda j, tag: tuple(p for p in tag if j[2][p]))
        return _untag(tagged)

    def diplomat(self, p: int, st: RState, card: Card, penalty: str) -> bool:
        """Whether player ``p`` uses the cyan Diplomat aboard against ``penalty``."""
        return self.models[p].has(st, "diplomat") and self.policies[p].diplomat(self.view(p, st), card, penalty)

    def new_card(self, dist: Dist) -> Dist:
        """The Techie's free charge is available again on every card."""
        out: Dist = defaultdict(Fraction)
        for (pos, states, fly), p in dist.items():
            out[(pos, tuple(st[:6] + (0,) if st[6] else st for st in states), fly)] += p
        return dict(out)

    def value(self, p: int, st: RState, criterion: str) -> tuple[int, RState]:
        m = self.models[p]
        k = self.policies[p].combat(self.view(p, st), criterion)
        if criterion == "crew":
            return m.crew_count(st), st
        if criterion == "engine_power":
            power, after = m.engine(st, k)
            return min(power.values(), default=0), after
        res = m.firepower(st, Firepower(k)) or m.firepower(st, Firepower())
        assert res is not None
        return res[0], res[1]

    def weakest(self, joint: Joint, criterion: str) -> tuple[Joint, list[tuple[int, int]]]:
        """The players hit by a line, with how much lighter (0 full, 1 second-weakest), and the
        joint state after the declarations."""
        pos, states_t, fly = joint
        present = [p for p in range(self.P) if fly[p]]
        if len(present) < 2:
            if self.assume_weakest and fly[0]:
                return joint, [(0, 0)]
            return joint, []
        states = list(states_t)
        vals = {}
        for p in present:
            vals[p], states[p] = self.value(p, states[p], criterion)
        ranked = sorted(present, key=lambda p: (vals[p], -pos[p]))
        hit = [(ranked[0], 0)]
        if self.five and len(present) >= 3:
            hit.append((ranked[1], 1))
        return (pos, tuple(states), fly), hit

    def combat(self, card: Card, dist: Dist, event: dict[str, Any]) -> Dist:
        for li, line in enumerate(card.lines):
            out: Tagged = defaultdict(Fraction)
            for joint, prob in dist.items():
                j2, hit = self.weakest(joint, line.criterion)
                spared = [p for p, _ in hit if self.diplomat(p, j2[1][p], card, line.penalty)]
                if spared:  # the line hits neither them nor anybody in their place
                    states = list(j2[1])
                    for p in spared:
                        states[p] = self.models[p].dismiss_diplomat(states[p])
                    j2 = (j2[0], tuple(states), j2[2])
                    hit = [(p, light) for p, light in hit if p not in spared]
                if any(p == 0 for p, _ in hit):
                    event["hit"][li] += prob
                if line.penalty == "days":
                    j2 = self.lose_days(j2, {p: (line.amount or 0) - light for p, light in hit})
                elif line.penalty in ("crew", "goods"):
                    states = list(j2[1])
                    for p, light in hit:
                        n = (line.amount or 0) - light
                        m = self.models[p]
                        states[p] = (m.lose_crew(states[p], n, self.policies[p].crew_order(self.view(p, states[p])))
                                     if line.penalty == "crew" else m.lose_goods(states[p], n))
                    j2 = (j2[0], tuple(states), j2[2])
                out[(j2, tuple(hit))] += prob
            tagged = dict(out)
            if line.penalty == "shots":  # the ship hit rolls; a second-weakest ignores the first heavy shot
                first_heavy = next((k for k, s in enumerate(line.shots) if s.size == "heavy"), -1)
                for k, shot in enumerate(line.shots):
                    def who(j: Joint, tag: Any, k: int = k, first_heavy: int = first_heavy) -> tuple[int, ...]:
                        return tuple(p for p, light in tag if not (light and k == first_heavy))
                    tagged = self.roll(tagged, shot, k, who, at_once=False)
            dist = _untag(tagged)
        return dist

    def meteors(self, card: Card, dist: Dist) -> Dist:
        tagged: Tagged = {(j, None): p for j, p in dist.items()}
        for k, meteor in enumerate(card.meteors):  # one roll per meteor for every ship flying
            tagged = self.roll(tagged, meteor, k, lambda j, tag: tuple(p for p in range(self.P) if j[2][p]))
        return _untag(tagged)


def _untag(tagged: Tagged) -> Dist:
    out: Dist = defaultdict(Fraction)
    for (joint, _), p in tagged.items():
        out[joint] += p
    return dict(out)


def card_odds(ship: Ship, cards: Sequence[Card], *, opponents: Sequence[Ship] = (), assume_weakest: bool = False,
              policy: str | RoundPolicy = "default", round: Any = None, five_player: bool | None = None
              ) -> CardOddsResult:
    """Exact odds of ``cards`` in order for ``ship`` (and its opponents), decisions by ``policy``.

    ``round`` picks the start spacing and track (default: the round of the ship's board level).
    A combat zone with no opponent needs ``assume_weakest`` (the ship hit on every line).
    """
    for c in cards:
        if c.type not in CARD_TYPES:
            raise InputError(f"card {c.full_id} ({c.type}) is not a card of attacks or fights", key="--card",
                             value=c.id, expected="meteor swarms, pirates, smugglers, slavers, combat zones "
                             "(fly other cards with simulate --round --deck)")
        if c.type == "combat_zone" and not opponents and not assume_weakest:
            raise InputError(f"card {c.full_id} (combat zone) hits the weakest ship: give the opponents "
                             "(--opponent) or take the ship to be the weakest (--assume-weakest)",
                             key="--card", value=c.id, expected="--opponent FILE or --assume-weakest")
    rules = round_rules(round if round is not None else {1: "1", 2: "2"}.get(ship.board.level, "3"))
    ships = (ship, *opponents)
    five = len(ships) == 5 if five_player is None else bool(five_player)
    pol = resolve_policy(policy)
    g = _Game(ships, pol, rules, five, assume_weakest)
    start = rules.start_positions(len(ships))
    initial: Joint = (start, tuple(m.initial() for m in g.models), (True,) * len(ships))
    dist: Dist = {initial: Fraction(1)}
    events = []
    for c in cards:
        dist = g.new_card(dist)
        ev: dict[str, Any] = {"card": c.full_id, "type": c.type}
        if c.type == "meteor_swarm":
            dist = g.meteors(c, dist)
        elif c.type == "combat_zone":
            ev["hit"] = [Fraction(0)] * len(c.lines)
            dist = g.combat(c, dist, ev)
        else:
            ev.update({WIN: Fraction(0), TIE: Fraction(0), LOSE: Fraction(0), "credits": Fraction(0)})
            dist = g.enemy(c, dist, ev)
        dist = g.after_card(dist)
        events.append(ev)
    mine: dict[RState, Fraction] = defaultdict(Fraction)
    for (_, states, _), p in dist.items():
        mine[states[0]] += p
    notes = []
    if assume_weakest and not opponents:
        notes.append("the ship is taken to be the weakest on every combat-zone line (--assume-weakest)")
    if opponents:
        notes.append(f"{len(opponents)} opponent(s) fly the default policy, from the round's start positions "
                     f"(the ship leads)")
    return CardOddsResult(ship, tuple(cards), pol.name, g.models[0], dict(mine), tuple(events), len(opponents),
                          assume_weakest, tuple(notes))
