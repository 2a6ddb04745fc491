"""RoundPolicy's methods are the built-in policies' decisions, asked of the engine.

A policy of one's own that overrides every decision and answers it with ``super()`` is asked each
decision in Python (:mod:`shipcheck.round.decisions`), where the methods of
:class:`~shipcheck.round.policy.RoundPolicy` ask the engine's built-in code. Seed for seed and run
for run it must fly exactly as the built-in policy it derives from, which the engine flies without
asking Python; and as the oracle's built-in policy (``tests/oracle``, the slow reference).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle.round import policy as opolicy
from shipbuild import PILOT, ship, tile
from test_engine_vs_oracle import (
    BOOSTED_IIA,
    CARDS,
    CARDS_2021,
    EXPANSION,
    HOPPER,
    RARE,
    SLOW,
    TRADE,
    assert_same,
    both,
    ships,
)

from shipcheck.round.chunks import ROLLS, Job, build_table, play
from shipcheck.round.decisions import METHODS, asks
from shipcheck.round.deck import fixed_deck
from shipcheck.round.policy import DefaultPolicy, PlanetOption, RacingPolicy, RoundPolicy, View
from shipcheck.round.rulebook import round_rules
from shipcheck.round.state import CODE, ShipModel

# the decisions whose built-in answers RoundPolicy's methods give (flight decisions: flight.py)
ASKED = list(METHODS)


def _asking(base: type[RoundPolicy]) -> RoundPolicy:
    """A policy deriving from ``base`` that overrides every decision with ``super()``'s answer."""

    def forward(name: str):  # type: ignore[no-untyped-def]
        def method(self, *args):  # type: ignore[no-untyped-def]
            return getattr(super(cls, self), name)(*args)

        method.__name__ = name
        return method

    cls = type(f"Asking{base.__name__}", (base,), {name: forward(name) for name in ASKED})
    pol = cls()
    pol.oracle = opolicy.RacingPolicy if base is RacingPolicy else opolicy.DefaultPolicy  # type: ignore[attr-defined]
    return pol


def test_the_asking_policies_are_asked_every_decision():
    for base in (DefaultPolicy, RacingPolicy):
        pol = _asking(base)
        assert asks(pol) == sum(1 << i for i in range(1, len(METHODS) + 1))


def _fly(ships_: tuple, policies: tuple, cards: list, decks: np.ndarray, rolls: np.ndarray, *,
         round_: str, five: bool):  # type: ignore[no-untyped-def]
    deck = fixed_deck([c.full_id for c in cards], cards[0].edition)
    return play(build_table(Job(ships_, policies, round_rules(round_), deck, five, False)), deck.cards, decks, rolls)


def _check(players: tuple, names: tuple, cards: list, seed: int, *, runs: int, round_: str, five: bool) -> None:
    g = np.random.default_rng(seed)
    decks = np.argsort(g.random((runs, len(cards))), axis=1).astype(np.int16)
    rolls = g.integers(0, 36, size=(runs, len(cards), ROLLS), dtype=np.uint8)
    bases = tuple(RacingPolicy if n == "racing" else DefaultPolicy for n in names)
    built_in = _fly(players, tuple(b() for b in bases), cards, decks, rolls, round_=round_, five=five)
    asked, oracle = both(players, tuple(_asking(b) for b in bases), cards, decks, rolls, round_=round_, five=five)
    assert_same(asked, built_in)
    assert_same(asked, oracle)


@settings(max_examples=40, **SLOW)
@given(st.lists(ships(EXPANSION), min_size=1, max_size=5), st.data())
def test_asking_the_methods_flies_as_the_built_in_policies(players: list, data: st.DataObject):
    cards = data.draw(st.sampled_from([CARDS, CARDS_2021, TRADE]))
    n = data.draw(st.integers(1, 10))
    picks = [cards[i] for i in data.draw(st.lists(st.integers(0, len(cards) - 1), min_size=n, max_size=n))]
    names = tuple(data.draw(st.sampled_from(["default", "racing"])) for _ in players)
    five = len(players) == 5 or (len(players) == 4 and data.draw(st.booleans()))
    _check(tuple(players), names, picks, data.draw(st.integers(0, 2**32 - 1)), runs=12,
           round_=data.draw(st.sampled_from(["1", "2", "3"])), five=five)


@pytest.mark.parametrize("names", [("default",) * 5, ("racing",) * 5, ("racing", "default") * 2 + ("racing",)])
def test_asking_the_methods_through_every_card_fixed(names: tuple):
    """The rare-rules ships (a cannon booster, a furnace, sleepers, halves, a cyan Manager) through
    every card of both editions, five players."""
    players = (BOOSTED_IIA, HOPPER, *RARE)[:5]
    for seed, cards in ((1, list(CARDS)), (2, list(CARDS_2021))):
        _check(players, names, cards, seed, runs=20, round_="3", five=True)


# -- the methods called directly, on situations a round meets rarely --------------------------------
def _view(ship, st=None) -> View:  # type: ignore[no-untyped-def]
    m = ShipModel(ship)
    return View(m, st or m.initial(), {"red": 4, "yellow": 3, "green": 2, "blue": 1})


def test_a_planet_chosen_among_some_options_only():
    """A policy may hand ``super().planet`` fewer options than the card offers: the built-in choice
    among those (the most value added; a shared planet only when it adds more)."""
    card = next(c for c in CARDS if c.type == "planets" and len(c.planets) >= 3)
    view = _view(BOOSTED_IIA)
    pol = DefaultPolicy()
    full = tuple(PlanetOption(i, g) for i, g in enumerate(card.planets))
    best = pol.planet(view, card, full)
    assert best is not None
    gains = [view.gain(o.goods) for o in full]
    assert gains[best] == max(gains) and gains.index(max(gains)) == best
    rest = tuple(o for o in full if o.index != full[best].index)
    pick = pol.planet(view, card, rest)
    gains_rest = [view.gain(o.goods) for o in rest]
    assert pick is not None and gains_rest[pick] == max(gains_rest) and gains_rest.index(max(gains_rest)) == pick
    # with the best taken and offered to share (one good fewer): the shared one only when it adds more
    less = tuple(sorted(card.planets[best], key=CODE.__getitem__)[:-1])
    shared = rest + (PlanetOption(full[best].index, less, shared=True),)
    pick = pol.planet(view, card, shared)
    g_shared = view.gain(shared[-1].goods)
    assert pick == (len(shared) - 1 if g_shared > max(gains_rest) else gains_rest.index(max(gains_rest)))
    assert pol.planet(view, card, ()) is None
    assert RacingPolicy().planet(view, card, full) is None


def test_the_diplomat_built_in():
    s = ship(PILOT + tile((8, 7), "cabin", "3333", crew="cyan") + tile((8, 8), "life_support", "3333", color="cyan")
             + tile((6, 7), "cabin", "3333"), extra='[meta]\ncyan = "diplomat"\n')
    view = _view(s)
    card = next(c for c in CARDS if c.type == "slavers")
    pol = DefaultPolicy()
    assert [pol.diplomat(view, card, p) for p in ("days", "crew", "goods", "shots")] == [False, True, False, True]
    assert RacingPolicy().diplomat(view, card, "crew")
    # without him aboard the built-in policy has no Diplomat to use
    assert not pol.diplomat(_view(HOPPER), card, "crew")
