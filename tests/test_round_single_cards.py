"""Honest single cards: `odds --card` and `simulate --card` on enemies and combat zones decide the
fight from the ship's firepower (win, tie: nothing, lose: the penalty) and the combat-zone lines
from the ship against its opponents; `--card` may be repeated."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from clikit import run

import shipcheck
from shipcheck.cards import find_card
from shipcheck.errors import InputError
from shipcheck.round.cardodds import card_odds
from tests.roundkit import A, D, gunship

ROOT = Path(__file__).resolve().parents[1]
SCOUT = str(ROOT / "examples" / "class-I-scout.toml")


def test_pirates_tie_costs_nothing():
    # I-03 pirates, strength 5: the gunship ties with both charges; no shot is taken
    r = card_odds(gunship(), [find_card("I-03")])
    assert r.events[0]["tie"] == 1 and r.p_survive == 1 and r.expected_lost == 0


def test_pirates_lost_fight_takes_the_shots():
    # A (firepower 0) loses: shots light, heavy, light from the front. Column 7 is A's only column:
    # each shot rolls 7 with chance 1/6; the first such shot destroys the pilot cabin (no shield)
    # and A, left without humans, leaves at once: the later shots miss it. P(survive) = (5/6)^3;
    # E[lost] = P(>= 1 hit) (only the cabin is lost).
    r = card_odds(A(), [find_card("I-03")])
    assert r.events[0]["lose"] == 1
    none = Fraction(5, 6) ** 3
    assert r.p_survive == none
    assert r.expected_lost == 1 - none


def test_slavers_penalty_is_crew():
    # I-01, 3 crew: A's 2 humans go and it has no human left; D keeps one
    assert card_odds(A(), [find_card("I-01")]).p_survive == 0
    assert card_odds(D(), [find_card("I-01")]).p_survive == 1


def test_combat_zone_needs_opponents_or_assume_weakest():
    with pytest.raises(InputError, match="assume_weakest"):
        card_odds(A(), [find_card("I-16")])
    alone = card_odds(A(), [find_card("I-16")], assume_weakest=True)
    assert alone.events[0]["hit"] == [1, 1, 1]
    # against D (more crew, same power and firepower, behind): A is hit on line 1 (crew) only; it
    # then falls behind D, which is hit on the ties of lines 2 and 3
    vs = card_odds(A(), [find_card("I-16")], opponents=[D()])
    assert vs.events[0]["hit"] == [1, 0, 0] and vs.expected_lost == 0


def test_repeated_meteor_cards_are_the_attacks_in_order():
    s = shipcheck.load_ship(SCOUT)
    r = card_odds(s, [find_card("I-09"), find_card("I-11")])
    e = shipcheck.odds(s, [*find_card("I-09").attacks(), *find_card("I-11").attacks()])
    assert r.p_survive == e.p_survive and r.expected_lost == e.expected_lost


@pytest.mark.parametrize("cards,kw", [
    (["I-03"], {}),
    (["I-16", "I-03"], {"assume_weakest": True}),
    (["I-16"], {"opponents": ["examples/blue-round1.toml"]}),
])
def test_exact_and_monte_carlo_agree(cards, kw):
    s = shipcheck.load_ship(SCOUT)
    opp = [shipcheck.load_ship(ROOT / o) for o in kw.get("opponents", [])]
    exact = card_odds(s, [find_card(c) for c in cards], opponents=opp, assume_weakest=kw.get("assume_weakest", False))
    mc = shipcheck.simulate_round(s, opponents=opp, deck=cards, runs=20_000, seed=3,
                                  assume_weakest=kw.get("assume_weakest", False))
    p = float(exact.p_survive)
    assert abs(mc.p_survive - p) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / mc.runs) + 1e-12
    assert abs(mc.expected_lost - float(exact.expected_lost)) <= 4 * mc.expected_lost_se + 1e-12


def test_cli_odds_and_simulate_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", SCOUT, "--card", "I-03", "--card", "I-16", "--assume-weakest",
                       "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["exact"] is True and d["cards"] == ["2007:I-03", "2007:I-16"] and d["assume_weakest"] is True
    assert d["card_outcomes"][0]["tie"] == 1.0
    code, out, _ = run(capsys, "simulate", SCOUT, "--card", "I-03", "--card", "I-16", "--assume-weakest",
                       "--runs", "2000", "--seed", "1", "--format", "json")
    assert code == 0
    m = json.loads(out)
    assert m["exact"] is False and m["cards"] == d["cards"]
    code, out, _ = run(capsys, "odds", SCOUT, "--card", "I-03")
    assert code == 0 and "pirates: win 0.0 %, tie 100.0 %" in out


@pytest.mark.parametrize("args,key", [
    (["odds", SCOUT, "--card", "I-16"], "--card"),                       # alone, no flag
    (["odds", SCOUT, "--card", "I-05"], "--card"),                       # open space: no fight, not dropped
    (["odds", SCOUT, "--card", "I-03", "--policy", "optimal"], "--policy"),
    (["odds", SCOUT, "--attack", "small-meteor:front", "--assume-weakest"], "--assume-weakest"),
    (["simulate", SCOUT, "--card", "I-09", "--opponent", SCOUT], "--opponent"),
])
def test_cli_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str], args: list[str], key: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and key in err and "Traceback" not in err
