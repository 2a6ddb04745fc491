"""Exact odds of fight cards (:func:`shipcheck.round.cardodds.card_odds`, on the engine's joint states:
:mod:`shipcheck.engine.joint`) against the oracle and against the round engine, roll for roll.

- The oracle (``tests/oracle/round/exact.py``: the cards written out once more in plain Python over
  the oracle's round states) gives the same fractions on one-hull ships: survival, the distribution
  of components lost, each tile's chance of being lost, and what each card did to the ship (fights
  won, tied, lost, credits; the combat lines that hit it). Random ships, opponents and cards of both
  editions, seeded (``derandomize``), and fixed examples: every fight card of both editions on the
  example ships.
- The round engine (the same card steps, played with given dice) flown once with every combination
  of the card's dice gives, counted, exactly the distribution ``card_odds`` computes, on every
  board (IIA halves leaving on their own included, which the oracle's card odds do not know).
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracle.round.exact import card_odds as oracle_card_odds
from test_engine_vs_oracle import ships

from shipcheck.cards import load_cards
from shipcheck.round.cardodds import card_odds, rolls_needed
from shipcheck.round.chunks import ROLLS, Job, build_table, play
from shipcheck.round.deck import fixed_deck
from shipcheck.round.policy import resolve_policy
from shipcheck.round.rulebook import round_rules
from shipcheck.round.state import ShipModel
from shipcheck.shipfile import load_ship

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FIGHTS = ("meteor_swarm", "pirates", "smugglers", "slavers", "combat_zone")
CARDS = [c for ed in ("2007", "2021") for c in load_cards(ed) if c.type in FIGHTS]
SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
            derandomize=True)


def one_hull(s: object) -> bool:
    return not s.board.has_hulls  # type: ignore[attr-defined]


def crewed(s: object) -> bool:
    m = ShipModel(s)  # type: ignore[arg-type]
    return m.humans(m.initial()) > 0


def assert_same_as_oracle(s: object, cards: list, opponents: list, weakest: bool) -> None:
    got = card_odds(s, cards, opponents=opponents, assume_weakest=weakest)  # type: ignore[arg-type]
    want = oracle_card_odds(s, cards, opponents=opponents, assume_weakest=weakest)  # type: ignore[arg-type]
    assert got.p_survive == want.p_survive
    assert got.lost_distribution == want.lost_distribution
    assert got.p_lost() == want.p_lost()
    assert got.events == want.events
    assert sum(got.distribution.values()) == 1


def fightable(cards: list, opponents: list, weakest: bool) -> bool:
    return all(c.type != "combat_zone" or opponents or weakest for c in cards)


@settings(max_examples=60, **SLOW)
@given(ships(), st.lists(ships(), max_size=2), st.lists(st.sampled_from(CARDS), min_size=1, max_size=2),
       st.booleans())
def test_card_odds_equal_the_oracle_on_one_hull_ships(s, opponents, cards, weakest) -> None:  # type: ignore[no-untyped-def]
    # the oracle flies a ship without humans from launch, and knows no half leaving: ships of one
    # hull with humans aboard
    assume(all(one_hull(x) and crewed(x) for x in (s, *opponents)))
    assume(fightable(cards, opponents, weakest))
    assume(sum(rolls_needed(c) for c in cards) <= 9)
    assert_same_as_oracle(s, cards, opponents, weakest)


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.full_id)
def test_every_fight_card_equals_the_oracle_on_the_examples(card) -> None:  # type: ignore[no-untyped-def]
    hauler = load_ship(EXAMPLES / "class-III-hauler.toml")
    scout = load_ship(EXAMPLES / "class-I-scout.toml")
    freighter = load_ship(EXAMPLES / "class-II-freighter.toml")
    assert_same_as_oracle(hauler, [card], [], True)
    if rolls_needed(card) <= 4:
        assert_same_as_oracle(freighter, [card], [scout, hauler], False)


def every_roll(s: object, card: object, opponents: list, weakest: bool) -> dict[tuple[int, bool], Fraction]:
    """(components lost, survived) of the ship over the round engine's runs of ``card`` alone, one
    run per combination of its dice."""
    n = rolls_needed(card)  # type: ignore[arg-type]
    combos = np.array(list(itertools.product(range(36), repeat=n)), dtype=np.uint8).reshape(36 ** n, n)
    runs = len(combos)
    rolls = np.zeros((runs, 1, ROLLS), dtype=np.uint8)
    rolls[:, 0, :n] = combos
    deck = fixed_deck([card.id], card.edition)  # type: ignore[attr-defined]
    ships_ = (s, *opponents)
    job = Job(ships_, tuple(resolve_policy("default") for _ in ships_), round_rules({1: "1", 2: "2"}.get(
        s.board.level, "3")), deck, len(ships_) == 5, weakest)  # type: ignore[attr-defined]
    ch = play(build_table(job), deck.cards, np.zeros((runs, 1), dtype=np.int64), rolls)
    counts = Counter(zip(ch.lost[0].tolist(), ch.survived[0].tolist()))
    return {k: Fraction(v, runs) for k, v in counts.items()}


def exact_outcomes(r: object) -> dict[tuple[int, bool], Fraction]:
    out: dict[tuple[int, bool], Fraction] = {}
    for st_, p in r.distribution.items():  # type: ignore[attr-defined]
        k = (r.model.lost(st_), r.model.humans(st_) > 0)  # type: ignore[attr-defined]
        out[k] = out.get(k, Fraction(0)) + p
    return out


@settings(max_examples=40, **SLOW)
@given(ships(), st.lists(ships(), max_size=2), st.sampled_from([c for c in CARDS if rolls_needed(c) <= 2]),
       st.booleans())
def test_card_odds_equal_the_round_engine_over_every_roll(s, opponents, card, weakest) -> None:  # type: ignore[no-untyped-def]
    assume(fightable([card], opponents, weakest))
    got = card_odds(s, [card], opponents=opponents, assume_weakest=weakest)
    assert exact_outcomes(got) == every_roll(s, card, opponents, weakest)


@pytest.mark.parametrize("card", [c for c in CARDS if rolls_needed(c) == 3][:3], ids=lambda c: c.full_id)
def test_three_rolls_on_two_hulls_equal_the_round_engine(card) -> None:  # type: ignore[no-untyped-def]
    twin = load_ship(EXAMPLES / "class-IIA-twins.toml")
    scout = load_ship(EXAMPLES / "class-I-scout.toml")
    got = card_odds(twin, [card], opponents=[scout])
    assert exact_outcomes(got) == every_roll(twin, card, [scout], False)


@pytest.mark.parametrize("name", ["coward", "last-first", "greedy", "spender", "no-shields"])
def test_policies_of_ones_own_equal_the_oracle(name: str) -> None:
    # the ship's own policy is asked in Python at the decisions it overrides, the rest built in
    from test_engine_vs_oracle import HOPPER, own

    pol = own(name)
    scout = load_ship(EXAMPLES / "class-I-scout.toml")
    freighter = load_ship(EXAMPLES / "class-II-freighter.toml")
    cards = [c for c in CARDS if c.edition == "2007" and c.id in ("I-01", "I-03", "I-16", "II-02", "I-09", "I-10")]
    for me, opponents in ((freighter, [scout, HOPPER]), (HOPPER, [freighter]), (freighter, [])):
        for c in cards:
            weakest = not opponents
            got = card_odds(me, [c], opponents=opponents, assume_weakest=weakest, policy=pol)
            want = oracle_card_odds(me, [c], opponents=opponents, assume_weakest=weakest,
                                    policy=pol.oracle())  # type: ignore[attr-defined]
            assert (got.p_survive, got.lost_distribution, got.events) == (want.p_survive, want.lost_distribution,
                                                                          want.events), c.full_id


def test_the_plain_and_the_compiled_joint_pass_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    from shipcheck import runtime

    if not runtime.compiled():
        pytest.skip("numba is not importable here")
    s = load_ship(EXAMPLES / "class-III-hauler.toml")
    opp = [load_ship(EXAMPLES / "class-I-scout.toml"), load_ship(EXAMPLES / "class-II-freighter.toml")]
    cards = {c.id: c for c in CARDS if c.edition == "2007"}
    results = []
    for plain in (True, False):
        monkeypatch.setattr(runtime.state, "force", "plain" if plain else "compiled")
        for ids, o in ((["III-16"], []), (["II-01", "I-03", "I-10"], opp)):
            r = card_odds(s, [cards[i] for i in ids], opponents=o, assume_weakest=not o)
            results.append((plain, r.distribution, r.events))
    assert results[0][1:] == results[2][1:] and results[1][1:] == results[3][1:]


def test_a_flight_policy_of_ones_own_on_one_roll_equals_the_oracle() -> None:
    # round.decisions.flight_step asks the policy in Python at the engine's decision point
    from oracle.round.state import ShipModel as OracleModel
    from test_engine_vs_oracle import _flight_policy

    from shipcheck.flight.chain import DEFAULT_POLICY, parse_attack
    from shipcheck.round.decisions import flight_step

    s = load_ship(EXAMPLES / "class-II-freighter.toml")
    m, om = ShipModel(s), OracleModel(s)
    pol = _flight_policy()
    moved = 0
    for text in ("light-shot:front", "small-meteor:left", "large-meteor:front", "heavy-shot:right"):
        a = parse_attack(text)
        for oi in range(len(m.fm.outcomes(a)[0])):
            want = om.flight_step(om.initial(), a, 0, oi, pol)
            assert flight_step(m, m.initial(), a, 0, oi, pol) == want
            assert flight_step(m, m.initial(), a, 0, oi, DEFAULT_POLICY) == om.flight_step(om.initial(), a, 0, oi,
                                                                                            DEFAULT_POLICY)
            moved += want != om.flight_step(om.initial(), a, 0, oi, DEFAULT_POLICY)
    assert moved  # the policy made a difference somewhere
