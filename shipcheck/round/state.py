"""A player's ship in a round: its description, and its state as a policy sees it.

A round state is the tuple ``(mask, charges, crew, goods, gone, away, spent)``: the flight model's
:data:`~shipcheck.flight.chain.State` and the goods per hold, the tiles of halves that left (class
IIA), a half in hyperspace and the Techie's used free charge (each field: docs/architecture.md, "A
round state"). It is the engine's state row (:mod:`shipcheck.engine.layout`) written as tuples:
:meth:`ShipModel.row` and :meth:`ShipModel.state_of` turn one into the other.

:class:`ShipModel` describes a ship's tiles for the engine's tables (its cabins, holds, engines,
cannons, boosters, specialisation...) and answers questions about a state for the policies
(:class:`~shipcheck.round.policy.View`) and the exact odds of cards: every such answer is the
engine's (:mod:`shipcheck.engine`), the one home of the rules, called on the state's row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shipcheck.cards import Attack, Card
from shipcheck.engine.layout import CABINS as CABINS
from shipcheck.engine.layout import SPECIALISATIONS as SPECIALISATIONS
from shipcheck.engine.layout import Description
from shipcheck.flight.chain import FlightModel
from shipcheck.model import ALIENS, Ship

if TYPE_CHECKING:
    import numpy as np

__all__ = ["COLOURS", "Away", "Firepower", "RState", "ShipModel"]

COLOURS = ("red", "yellow", "green", "blue")
CODE = {c: i for i, c in enumerate(COLOURS)}

Goods = tuple[tuple[int, ...], ...]
#: a half in hyperspace: its tiles, and the charges, crew and goods of those tiles (else ``()``)
Away = tuple[int, tuple[int, ...], tuple[int, ...], Goods] | tuple[()]
RState = tuple[int, tuple[int, ...], tuple[int, ...], Goods, int, Away, int]


@dataclass(frozen=True)
class Firepower:
    """A firepower declaration: ``charges`` on charged cannons, and optionally a cannon booster used
    on cannon tile ``boost`` (1 more charge; the cannon is destroyed after the check)."""

    charges: int = 0
    boost: int = -1


class ShipModel(Description):
    """One player's ship in a round: its description (:class:`~shipcheck.engine.layout.Description`)
    on top of a flight model, and the engine's answers about its states."""

    def __init__(self, ship: Ship, *, flight: FlightModel | None = None) -> None:
        super().__init__(ship, flight or FlightModel(ship, track_crew=True))

    @classmethod
    def of(cls, ship: Ship) -> ShipModel:
        """The model of ``ship``, made once and kept on it, as its layout is: the same opponents fly
        in every round of a search (not pickled: :meth:`Ship.__getstate__`)."""
        model = ship.__dict__.get("_model")
        if model is None:
            model = ship.__dict__["_model"] = cls(ship)
        return model  # type: ignore[no-any-return]

    @classmethod
    def of_players(cls, ships: Sequence[Ship]) -> list[ShipModel]:
        """The players' models, in order: a ship's kept one (:meth:`of`); a ship equal to an
        earlier player's flies a model of its own on that player's flight model."""
        models: list[ShipModel] = []
        for s in ships:
            same = next((m for m in models if m.ship == s), None)
            models.append(cls(s, flight=same.fm) if same is not None else cls.of(s))
        return models

    # -- the engine's tables and rows ------------------------------------------------------------
    def tables(self, epidemic: str = "adjacent") -> np.ndarray:
        """This ship alone as the engine's table ``S`` (player 0; the board's own cap)."""
        cache = self.__dict__.setdefault("_tables", {})
        S = cache.get(epidemic)
        if S is None:
            from shipcheck.engine.layout import SoloRules, ship_tables

            S = cache[epidemic] = ship_tables([self], SoloRules(epidemic))
        return S

    def _offsets(self) -> tuple[int, int, int, int]:
        from shipcheck.engine.layout import OFFS

        och, ocr, ogd, width = (int(v) for v in self.tables()[0, OFFS, :4])
        return och, ocr, ogd, width

    def row(self, st: RState) -> np.ndarray:
        """The engine's state row of ``st``."""
        import numpy as np

        och, ocr, ogd, width = self._offsets()
        x = np.zeros(width, dtype=np.int64)
        mask, charges, crew, goods, gone, away, spent = st
        x[0], x[1], x[2] = mask, gone, spent
        x[och:och + len(charges)] = charges
        x[ocr:ocr + len(crew)] = crew
        for h, g in enumerate(goods):
            for c in g:
                x[ogd + 4 * h + c] += 1
        if away:
            tiles, a_ch, a_crew, a_goods = away
            x[3] = tiles
            for i, k in enumerate(self.batteries):
                if tiles >> k & 1:
                    x[och + i] = a_ch[i]
            for k in range(self.n):
                if tiles >> k & 1:
                    x[ocr + k] = a_crew[k]
            for h, (k, _, _, _) in enumerate(self.holds):
                if tiles >> k & 1:
                    for c in a_goods[h]:
                        x[ogd + 4 * h + c] += 1
        return x

    def state_of(self, x: np.ndarray, offsets: Sequence[int] | None = None) -> RState:
        """The round state a state row holds (the fields of tiles neither aboard nor away read 0);
        ``offsets``: those of the table the row belongs to (default this ship's own, :meth:`tables`)."""
        return self.states_of(x.reshape(1, -1), offsets)[0]

    def states_of(self, rows: np.ndarray, offsets: Sequence[int] | None = None) -> list[RState]:
        """:meth:`state_of` for each of ``rows`` (``(n, width)``)."""
        import numpy as np

        och, ocr, ogd = (int(v) for v in (offsets or self._offsets())[:3])
        n = self.n
        bit = np.int64(1) << np.arange(n, dtype=np.int64)
        bats = np.asarray(self.batteries, dtype=np.int64)
        hold_tiles = np.asarray([k for k, _, _, _ in self.holds], dtype=np.int64)
        nh = len(self.holds)

        def fields(on: np.ndarray) -> tuple[list[Any], list[Any], list[Any]]:
            aboard = (on[:, None] & bit) != 0
            cr = np.where(aboard, rows[:, ocr:ocr + n], 0).tolist()
            ch = (np.where(aboard[:, bats], rows[:, och:och + len(bats)], 0).tolist() if len(bats)
                  else [[] for _ in range(len(on))])
            if nh:
                counts = rows[:, ogd:ogd + 4 * nh].reshape(len(on), nh, 4)
                held = np.where(aboard[:, hold_tiles][:, :, None], counts, 0).tolist()
            else:
                held = [[] for _ in range(len(on))]
            return ch, cr, held

        def goods(held: list[list[int]]) -> Goods:
            return tuple(tuple(c for c in range(4) for _ in range(h[c])) for h in held)

        head = rows[:, :4].tolist()
        ch, cr, held = fields(rows[:, 0])
        away_rows = np.nonzero(rows[:, 3])[0]
        away: dict[int, Away] = {}
        if len(away_rows):
            ach, acr, aheld = fields(rows[away_rows, 3])
            for j, i in enumerate(away_rows.tolist()):
                away[i] = (head[i][3], tuple(ach[j]), tuple(acr[j]), goods(aheld[j]))
        return [(h[0], tuple(ch[i]), tuple(cr[i]), goods(held[i]), h[1], away.get(i, ()), h[2])
                for i, h in enumerate(head)]

    def _call(self, module: str, name: str, st: RState, *args: Any) -> tuple[Any, np.ndarray]:
        """``engine.module.name(S, 0, row, *args)`` on ``st``'s row: its result and the row after."""
        import numpy as np


        x = self.row(st)
        fn = _function(module, name)
        with np.errstate(over="ignore"):
            r = fn(self.tables(), 0, x, *args)
        return r, x

    def _ask(self, module: str, name: str, st: RState, *args: Any) -> Any:
        return self._call(module, name, st, *args)[0]

    def _change(self, module: str, name: str, st: RState, *args: Any) -> RState:
        return self.state_of(self._call(module, name, st, *args)[1])

    @staticmethod
    def _tmp() -> np.ndarray:
        import numpy as np

        from shipcheck.engine.layout import TMP

        return np.zeros(TMP, dtype=np.int64)

    @staticmethod
    def _buf() -> np.ndarray:
        import numpy as np

        return np.zeros(64, dtype=np.int64)

    def _hull_index(self, hull: int | None) -> int:
        return -1 if hull is None or not self.multi else self.hulls.index(hull)

    # -- the launch state ------------------------------------------------------------------------
    def initial(self) -> RState:
        mask, charges, crew = self.fm.initial()
        assert crew is not None
        goods = tuple(tuple(sorted(CODE[g] for g in self.tiles[k].goods)) for k, _, _, _ in self.holds)
        return (mask, charges, crew, goods, 0, (), 0)

    # -- crew ------------------------------------------------------------------------------------
    def humans(self, st: RState, hull: int | None = None) -> int:
        """Awake humans aboard (of one hull when ``hull`` is given)."""
        return int(self._ask("crew", "humans", st, self._hull_index(hull)))

    def aliens(self, st: RState) -> dict[str, int]:
        """Colour -> cabin tile of each alien aboard."""
        from shipcheck.engine import layout

        out = {}
        for colour in ALIENS:
            k = int(self._ask("crew", "alien_tile", st, getattr(layout, colour.upper())))
            if k >= 0:
                out[colour] = k
        return dict(sorted(out.items(), key=lambda kv: kv[1]))

    def crew_count(self, st: RState) -> int:
        """Humans and aliens (rules §4.3); sleepers are not crew."""
        return int(self._ask("crew", "crew_count", st))

    def has(self, st: RState, spec: str) -> bool:
        """A cyan alien with specialisation ``spec`` is aboard."""
        return self.specialisation == spec and "cyan" in self.aliens(st)

    def live_hulls(self, st: RState) -> tuple[int, ...]:
        mask = st[0]
        return tuple(h for h in self.hulls if any(mask >> k & 1 and self.group[k] == h for k in range(self.n)))

    def crew_order(self, st: RState) -> tuple[int, ...]:
        """The default order crew is lost in: humans cabin by cabin in grid order, aliens last (contract §5)."""
        from shipcheck.engine.layout import ORDER

        tmp = self._tmp()
        m = int(self._ask("crew", "crew_order_default", st, tmp))
        return tuple(int(k) for k in tmp[ORDER:ORDER + m])

    def lose_crew(self, st: RState, n: int, order: Sequence[int]) -> RState:
        """Lose ``n`` crew from the tiles in ``order`` (each tile emptied before the next: humans one
        by one, an alien at once); if short, all there is. Sleepers then wake (contract §4)."""
        from shipcheck.engine.layout import ORDER

        tmp = self._tmp()
        order = [int(k) for k in order if 0 <= int(k) < self.n][:64]
        tmp[ORDER:ORDER + len(order)] = order
        return self._change("crew", "lose_crew_in", st, n, tmp, len(order))

    def epidemic(self, st: RState, rule: str = "adjacent") -> RState:
        """An Epidemic's effect (rules §9.2(9), OQ14: ``rule`` ``"adjacent"`` or ``"joined"``)."""
        from shipcheck import engine

        x = self.row(st)
        engine.function("crew", "epidemic")(self.tables(rule), 0, x)
        return self.state_of(x)

    def dismiss_diplomat(self, st: RState) -> RState:
        """The cyan Diplomat used: he leaves the ship, one crew member fewer (rules §11.5)."""
        return self._change("crew", "diplomat", st, 1, 0, self._tmp())  # (against crew: the built-in yes)

    # -- tiles and losses ------------------------------------------------------------------------
    def lost(self, st: RState) -> int:
        """Components that left the ship in flight (halves that left or are away are not lost)."""
        return int(self._ask("hull", "lost", st))

    def exposed(self, st: RState) -> int:
        return int(self._ask("hull", "exposed", st))

    def destroy(self, st: RState, bits: int) -> RState:
        """Tiles ``bits`` destroyed; pieces that fall off are lost, aliens leave with their last life
        support, sleepers wake after a crew loss."""
        return self._change("hull", "destroy", st, bits, self._buf())

    def flight_step(self, st: RState, attack: Attack, ai: int, oi: int) -> RState:
        """Outcome ``oi`` of ``attack`` (attack ``ai`` of its card) against the ship, defended as the
        engine's default flight policy decides, the Techie's free charge lent to it (another flight
        policy: :func:`shipcheck.round.decisions.flight_step`)."""
        from shipcheck.engine.layout import DIRECTIONS, KINDS

        roll = self.fm.outcomes(attack)[1].index(oi)
        kind, d = KINDS.index(attack.kind), DIRECTIONS.index(attack.side)
        return self._change("defence", "flight_step", st, kind, d, roll, ai, self._buf(), self._tmp())

    # -- charges ---------------------------------------------------------------------------------
    def charges_in(self, st: RState, hull: int | None = None) -> int:
        if hull is None:
            return int(self._ask("charges", "charges_in", st))
        return int(self._ask("charges", "hull_charges", st, self._hull_index(hull)))

    def free_charge(self, st: RState) -> int:
        """1 when the Techie's free charge is available on this card, else 0."""
        return int(self._ask("charges", "free_charge", st))

    # -- engine power and firepower --------------------------------------------------------------
    def engine(self, st: RState, k: int) -> tuple[dict[int, int], RState]:
        """Engine power per hull with ``k`` charges on double engines and the state with the charges
        spent (rules §7.1, §11.4; the Techie's first charge is free)."""
        from shipcheck.engine.layout import LIVE, POWER

        tmp = self._tmp()
        _, x = self._call("power", "engine", st, k, tmp)
        power = {h: int(tmp[POWER + i]) for i, h in enumerate(self.hulls) if tmp[LIVE + i]}
        return power, self.state_of(x)

    def engine_ladder(self, st: RState) -> list[int]:
        """The ship's engine power for 0, 1, ... double engines powered (one charge each, the Techie's
        first one free): its lowest hull among those that can reach a power above 0 at all."""
        top = int(self._ask("power", "engine_top", st))
        powers = [self.engine(st, k)[0] for k in range(top + 1)]
        keep = [h for h, v in powers[-1].items() if v > 0]
        return [min((pw[h] for h in keep), default=0) for pw in powers]

    def boost_options(self, st: RState) -> tuple[int, ...]:
        """Cannons a cannon booster aboard could boost (joined to it, aboard), in grid order."""
        m = int(self._ask("power", "boost_options", st))
        return tuple(k for k in range(self.n) if m >> k & 1)

    def firepower(self, st: RState, choice: Firepower) -> tuple[int, RState, int] | None:
        """Firepower in half units for a declaration, the state with the charges spent, and the tile
        to destroy after the check (-1 for none); None when the charges or boosters do not allow it."""
        if choice.boost >= 0 and choice.boost not in self.boost_options(st):
            return None
        fp, x = self._call("power", "firepower", st, choice.charges, choice.boost, self._tmp())
        if fp < 0:
            return None
        return int(fp), self.state_of(x), choice.boost

    def usable_fire_charges(self, st: RState) -> int:
        """The most double cannons the charges (and the Techie) can power."""
        dbl = sum(1 for t, _, d in self.cannons if d and st[0] >> t & 1)
        return min(self.charges_in(st) + self.free_charge(st), dbl)

    # -- goods -----------------------------------------------------------------------------------
    def goods_list(self, st: RState) -> list[int]:
        return sorted(c for g in st[3] for c in g)

    def goods_value(self, st: RState, prices: dict[str, int]) -> int:
        return sum(prices[COLOURS[c]] for c in self.goods_list(st))

    def fit(self, st: RState, goods: Sequence[int]) -> list[int]:
        """The most valuable of ``goods`` that fit the holds aboard (red only in special slots)."""
        import numpy as np

        cnt = np.zeros(4, dtype=np.int64)
        for c in goods:
            cnt[c] += 1
        keep = np.zeros(4, dtype=np.int64)
        self._ask("goods", "fit", st, cnt, keep)
        return [c for c in range(4) for _ in range(int(keep[c]))]

    def load(self, st: RState, new: Sequence[int]) -> RState:
        """Gain goods: keep the most valuable that fit (a reactor furnace burns one left over to
        recharge a battery, rules §11.3)."""
        import numpy as np

        cnt = np.zeros(4, dtype=np.int64)
        for c in new:
            cnt[c] += 1
        depth = max(1, sum(a + b for _, a, b, _ in self.holds))
        return self._change("goods", "load", st, cnt, self._tmp(), np.zeros((1, 4, depth), dtype=np.int64))

    def lose_goods(self, st: RState, n: int) -> RState:
        """Lose the ``n`` most valuable goods; for what is missing, battery charges (rules §9.4)."""
        return self._change("goods", "lose_goods", st, n)

    # -- halves (class IIA) and hyperspace -------------------------------------------------------
    def hyperjump(self, st: RState, hull: int | None = None) -> RState | None:
        """Hyperspace (rules §11.2) with an engine booster (of ``hull``, when given); None when no
        engine or charges allow it."""
        done, x = self._call("hull", "hyperjump", st, self._hull_index(hull) if hull is not None else -1,
                             self._buf(), self._tmp())
        return self.state_of(x) if done else None

    def leave_hull(self, st: RState, hull: int, prices: dict[str, int]) -> tuple[RState, int]:
        """One half leaves the flight: half the credits (rounded up) for its goods; its tiles go back
        to the table (not lost). Returns the state and the credits."""
        import numpy as np

        p = np.array([prices[c] for c in COLOURS], dtype=np.int64)
        credits, x = self._call("hull", "leave_hull", st, self.hulls.index(hull), p)
        return self.state_of(x), int(credits)

    def send_away(self, st: RState, hull: int) -> RState:
        return self._change("hull", "send_away", st, self.hulls.index(hull))

    def come_back(self, st: RState) -> RState:
        return self._change("hull", "come_back", st)

    # -- the built-in policies' decisions -------------------------------------------------------
    # Each asks the function the engine flies for the built-in default (or racing) policy, on this
    # ship's own table: a policy of one's own calling RoundPolicy's method gets the same answer.
    def _builtin(self, racing: bool) -> np.ndarray:
        """This ship's table (:meth:`tables`) flying the built-in racing policy, or the default one."""
        cache = self.__dict__.setdefault("_tables", {})
        S = cache.get(("builtin", racing))
        if S is None:
            from shipcheck.engine.layout import POLICY, V

            S = self.tables().copy()
            S[0, V, POLICY] = int(racing)
            cache["builtin", racing] = S
        return S

    def _decide(self, module: str, name: str, racing: bool, st: RState, card: Card | None, *args: Any,
                C: np.ndarray | None = None) -> int:
        """``engine.module.name`` on ``st``'s row: ``(S, p, x, *args)``, or with ``card``
        ``(S, C, p, x, c, *args)`` (``C``: the card's table, when not :func:`card_table`'s); the
        row is a copy, ``st`` stays as it is."""
        import numpy as np


        fn = _function(module, name)
        S, x = self._builtin(racing), self.row(st)
        with np.errstate(over="ignore"):
            if card is None:
                return int(fn(S, 0, x, *args))
            return int(fn(S, card_table(card) if C is None else C, 0, x, 0, *args))

    def open_space_choice(self, st: RState, racing: bool = False) -> int:
        """The built-in charges on double engines in Open Space (``engine.encounters._open_space_default``)."""
        return self._decide("encounters", "_open_space_default", racing, st, None, self._tmp())

    def fight_choice(self, st: RState, strength: int) -> Firepower:
        """The built-in declaration against an enemy of ``strength`` (``engine.power.fight_choice``)."""
        k, b = divmod(self._decide("power", "fight_choice", False, st, None, strength, self._tmp()), 64)
        return Firepower(k, b - 1)

    def takes_reward(self, st: RState, card: Card, racing: bool = False) -> bool:
        """Whether the built-in policy takes ``card``'s reward (``engine.encounters.take_reward``)."""
        return bool(self._decide("encounters", "take_reward", racing, st, card, self._tmp()))

    def accepts_ship(self, st: RState, card: Card, crew_cost: int, racing: bool = False) -> bool:
        """Whether the built-in policy gives ``crew_cost`` crew for an abandoned ship
        (``engine.encounters._accepts_ship``)."""
        import numpy as np

        y = np.zeros_like(self.row(st))
        return bool(self._decide("encounters", "_accepts_ship", racing, st, card, crew_cost, y, self._tmp()))

    def accepts_station(self, st: RState, card: Card, goods: Sequence[str], prices: dict[str, int],
                        racing: bool = False) -> bool:
        """Whether the built-in policy docks at an abandoned station for ``goods``
        (``engine.encounters._accepts_station``)."""
        return bool(self._decide("encounters", "_accepts_station", racing, st, card, 0, _counts(goods),
                                 _prices(prices), self._tmp()))

    def planet_choice(self, st: RState, card: Card, free: int, share: bool, prices: dict[str, int],
                      racing: bool = False, offered: int | None = None) -> int:
        """The built-in planet (``engine.encounters._planet_default``): ``i + 64`` for planet ``i`` shared
        (five-player rules), ``i`` for a free one, -1 to pass. ``free``: the free planets (a bit
        each); ``share``: whether a taken one may be shared; ``offered``: the planets to choose
        among, when not all of them."""
        import numpy as np

        from shipcheck.engine.layout import NPLG

        C = card_table(card)
        if offered is not None:
            C = C.copy()
            for i in range(len(card.planets)):
                if not offered >> i & 1:
                    C[0, NPLG, i] = 0  # nothing to gain: never chosen
        return self._decide("encounters", "_planet_default", racing, st, card, free, int(share),
                            np.zeros(4, dtype=np.int64), _prices(prices), self._tmp(), C=C)

    def uses_diplomat(self, st: RState, penalty: str) -> bool:
        """Whether the built-in policy uses the cyan Diplomat against ``penalty`` (one of
        ``engine.layout.PENALTIES``; ``engine.crew.diplomat``): False when he is not aboard."""
        from shipcheck.engine.layout import PENALTIES

        return bool(self._decide("crew", "diplomat", False, st, None, PENALTIES.index(penalty), 0, self._tmp()))

    # -- scoring facts ---------------------------------------------------------------------------
    def luxury_passengers(self, st: RState) -> int:
        mask, crew = st[0], st[2]
        return sum(1 for k in self.luxury if mask >> k & 1 and crew[k] > 0)


def _counts(goods: Sequence[str]) -> np.ndarray:
    import numpy as np

    cnt = np.zeros(4, dtype=np.int64)
    for g in goods:
        cnt[CODE[g]] += 1
    return cnt


def _prices(prices: dict[str, int]) -> np.ndarray:
    import numpy as np

    return np.array([prices[c] for c in COLOURS], dtype=np.int64)


_FUNCTIONS: dict[tuple[str, str, bool], Any] = {}


def _function(module: str, name: str) -> Any:
    """:func:`shipcheck.engine.function` ``(module, name)``, looked up once per process and engine
    (a lookup costs as much as a small call)."""
    from shipcheck import engine, runtime

    key = (module, name, runtime.started())
    fn = _FUNCTIONS.get(key)
    if fn is None:
        fn = _FUNCTIONS[key] = engine.function(module, name, plain=not key[2])
    return fn


_CARD_TABLES: dict[Card, np.ndarray] = {}


def card_table(card: Card) -> np.ndarray:
    """``card`` alone as the engine's table ``C`` (card 0)."""
    C = _CARD_TABLES.get(card)
    if C is None:
        from shipcheck.cards import CARD_TYPES
        from shipcheck.engine.layout import card_tables

        if len(_CARD_TABLES) > 512:
            _CARD_TABLES.clear()
        C = _CARD_TABLES[card] = card_tables((card,), tuple(CARD_TYPES))
    return C
