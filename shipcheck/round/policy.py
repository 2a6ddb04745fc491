"""Decisions in a round, as swappable policy objects.

A :class:`RoundPolicy` answers the questions a card asks a player: charges on engines or cannons,
whether to take a reward, where to land, whether to use an abandoned ship or station, which crew to
lose, whether to give up or jump to hyperspace. Each method gets a :class:`View` of the player's
ship and state (and the card) and must depend on nothing else: the engine asks once per distinct
state and card and reuses the answer for every run that reaches them. Battery decisions against
meteors and shots are the flight policy's (:attr:`RoundPolicy.flight`, contract §4).

:class:`DefaultPolicy` is contract §5's careful player; :class:`RacingPolicy` spends charges on
engines and keeps its flight days. Subclass :class:`RoundPolicy` (or either) to play another way,
and pass the object to :func:`shipcheck.simulate_round`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shipcheck.cards import Card
from shipcheck.flight.chain import DEFAULT_POLICY, Policy
from shipcheck.round.state import CODE, COLOURS, Firepower, RState, ShipModel

__all__ = ["POLICIES", "DefaultPolicy", "PlanetOption", "RacingPolicy", "RoundPolicy", "View", "resolve_policy"]


#: what an enemy does to a ship that lost to it, as :meth:`RoundPolicy.diplomat` is told
ENEMY_PENALTY = {"slavers": "crew", "smugglers": "goods", "pirates": "shots"}


@dataclass(frozen=True, eq=False)
class View:
    """What a policy sees: one player's ship model and state, and the goods prices."""

    model: ShipModel
    state: RState
    prices: dict[str, int]

    @property
    def humans(self) -> int:
        return self.model.humans(self.state)

    @property
    def crew(self) -> int:
        """Humans and aliens aboard (rules §4.3)."""
        return self.model.crew_count(self.state)

    @property
    def charges(self) -> int:
        return self.model.charges_in(self.state)

    @property
    def free_charge(self) -> int:
        """1 when the cyan Techie makes the next charge spent on this card free, else 0."""
        return self.model.free_charge(self.state)

    def value(self, goods: list[int]) -> int:
        return sum(self.prices[COLOURS[c]] for c in goods)

    def gain(self, goods: tuple[str, ...] | list[str]) -> int:
        """Credits the cargo gains in value by loading ``goods`` (most valuable that fit kept)."""
        old = self.model.goods_list(self.state)
        new = self.model.fit(self.state, old + [CODE[g] for g in goods])
        return self.value(new) - self.value(old)

    def engine_ladder(self) -> list[int]:
        """Engine power for 0, 1, ... charges spent on double engines."""
        return self.model.engine_ladder(self.state)

    def fire_options(self) -> list[tuple[int, int, Firepower]]:
        """Every firepower declaration the charges allow: ``(charges spent, half units, choice)``,
        without a cannon booster first."""
        m, st = self.model, self.state
        top = m.usable_fire_charges(st)
        out = []
        have = sum(st[1])
        for boost in (-1,) + m.boost_options(st):
            for k in range(top + 1):
                res = m.firepower(st, Firepower(k, boost))
                if res is None:
                    continue
                fp, after, _ = res
                out.append((have - sum(after[1]), fp, Firepower(k, boost)))
        return out


@dataclass(frozen=True)
class PlanetOption:
    """A planet a player may land on: its printed position, its goods, and whether it is already
    taken (five-player rules: one player may share a planet, taking one good fewer)."""

    index: int
    goods: tuple[str, ...]
    shared: bool = False


class RoundPolicy:
    """Decisions of a player in a round. Methods must be pure functions of their arguments.

    Each method's own answer is the built-in policy's (:class:`DefaultPolicy`, or
    :class:`RacingPolicy` for a subclass of it), asked of the engine's code that flies it
    (:mod:`shipcheck.engine`), so a method of one's own may call ``super()`` for exactly what the
    built-in policy would decide."""

    name = "custom"
    #: battery decisions against meteors and shots (contract §4)
    flight: Policy = DEFAULT_POLICY

    @property
    def _racing(self) -> bool:
        """Whether the built-in decisions are racing's (else the default's)."""
        return isinstance(self, RacingPolicy)

    def open_space(self, view: View) -> int:
        """Double engines to power in Open Space (a charge each; with the cyan Techie the first is
        free): the fewest that make the engine power at least 1; racing: every one it can."""
        return view.model.open_space_choice(view.state, self._racing)

    def fight(self, view: View, strength: int) -> Firepower:
        """Firepower declared against an enemy of ``strength``: the fewest charges that beat it,
        else the fewest that tie it, else none (a cannon booster only when it costs no more)."""
        return view.model.fight_choice(view.state, strength)

    def combat(self, view: View, criterion: str) -> int:
        """Charges spent on ``engine_power`` or ``firepower`` on a Combat Zone line (built in: none)."""
        return 0

    def take_reward(self, view: View, card: Card) -> bool:
        """Take a defeated enemy's reward (and its flight days): always; racing takes goods only
        without days, credits only at 2 a day or more."""
        return view.model.takes_reward(view.state, card, self._racing)

    def planet(self, view: View, card: Card, options: tuple[PlanetOption, ...]) -> int | None:
        """Position in ``options`` of the planet to land on, or None to pass: the one whose goods
        that fit add the most value (ties: the planet printed first), a shared one only when it
        adds more; racing never lands."""
        free = sum(1 << o.index for o in options if not o.shared)
        shared = sum(1 << o.index for o in options if o.shared)
        taken = (1 << len(card.planets)) - 1 & ~free
        pick = view.model.planet_choice(view.state, card, free, shared != 0, view.prices, self._racing,
                                        offered=None if shared in (0, taken) else free | shared)
        if pick < 0:
            return None
        index, is_shared = pick % 64, pick >= 64
        return next(i for i, o in enumerate(options) if o.index == index and o.shared == is_shared)

    def abandoned_ship(self, view: View, card: Card, crew_cost: int) -> bool:
        """Give ``crew_cost`` crew for the ship's credits (and its days) when a human is left
        aboard; racing only at 2 credits a day or more."""
        return view.model.accepts_ship(view.state, card, crew_cost, self._racing)

    def abandoned_station(self, view: View, card: Card, goods: tuple[str, ...]) -> bool:
        """Dock (crew permitting) for the station's goods (and its days) when they add value;
        racing never docks."""
        return view.model.accepts_station(view.state, card, goods, view.prices, self._racing)

    def crew_order(self, view: View) -> tuple[int, ...]:
        """Tiles to take lost crew from, in order (each emptied before the next)."""
        return view.model.crew_order(view.state)

    def give_up(self, view: View) -> bool:
        """Give up before the next card is revealed (built in: never)."""
        return False

    def hyperspace(self, view: View, card: Card) -> bool | tuple[int, ...]:
        """Jump to hyperspace with an engine booster once ``card`` is revealed (rules §11.2): True
        sends every half that can jump (the whole ship on one hull); on a ship of two halves (class
        IIA) a tuple of hull groups (``view.model.hulls``) sends only those halves, each with a
        booster of its own; a half that jumps alone leaves the other to fly the card and the next
        (built in: never)."""
        return False

    def diplomat(self, view: View, card: Card, penalty: str) -> bool:
        """Use the cyan Diplomat (once; he then leaves the ship) against an effect that has hit the
        player: ``penalty`` is ``"crew"`` (slavers, a combat-zone crew line), ``"goods"``
        (smugglers, a goods line), ``"shots"`` (pirates, a shots line) or ``"days"`` (a days line).
        An enemy the ship lost to is then not defeated and moves on; a combat-zone line hits
        nobody. Built-in rule (provisional): against crew and shots, the effects that cost humans
        or components (False when he is not aboard)."""
        return view.model.uses_diplomat(view.state, penalty)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other: Any) -> bool:
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(sorted(self.__dict__.items()))))


class DefaultPolicy(RoundPolicy):
    """Contract §5: charges kept for defence, rewards taken, the best planet, abandoned ships and
    stations used when the crew allows, crew lost humans first."""

    name = "default"


class RacingPolicy(RoundPolicy):
    """Flight days first: every charge it can spend on engines in Open Space; never lands, docks or
    trades days for goods; takes a credit reward (enemy, abandoned ship) only when it pays at least
    2 credits a day. (The engine's built-in racing code; :class:`RoundPolicy`'s methods ask it.)"""

    name = "racing"


POLICIES: dict[str, type[RoundPolicy]] = {"default": DefaultPolicy, "racing": RacingPolicy}


def resolve_policy(spec: Any, *, key: str = "policy") -> RoundPolicy:
    """A policy from a name in :data:`POLICIES` or a :class:`RoundPolicy` object."""
    from shipcheck.validate import policy

    spec = policy(spec, POLICIES, key=key, kind=RoundPolicy)
    return spec if isinstance(spec, RoundPolicy) else POLICIES[spec]()
