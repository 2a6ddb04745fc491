"""The library's argument checks (shipcheck.validate) and the functions that use them: every bad
argument is an InputError naming the argument, the value and what was expected, never an
AttributeError, a TypeError or a bare ValueError, and never silently accepted."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import shipcheck
from shipcheck import validate as valid
from shipcheck.errors import InputError
from shipcheck.shipfile import load_ship

ROOT = Path(__file__).resolve().parents[1]
START = ROOT / "examples" / "building" / "class-I-start.toml"
SCOUT = ROOT / "examples" / "class-I-scout.toml"


@pytest.fixture(scope="module")
def start() -> shipcheck.Ship:
    return load_ship(START)


@pytest.fixture(scope="module")
def scout() -> shipcheck.Ship:
    return load_ship(SCOUT)


def refused(call, key: str, *words: str) -> InputError:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError) as exc:
        call()
    err = exc.value
    assert type(err) in (InputError, shipcheck.UnknownNameError), type(err)
    assert err.key == key, err
    for w in words:
        assert w in str(err), (w, str(err))
    return err


# -- the validators --------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [0, -5, True, 2.0, "10", None, np.float64(3)])
def test_runs_refuses_what_is_not_a_whole_number_of_runs(value: object) -> None:
    refused(lambda: valid.runs(value), "runs", "expected an integer >= 1")


def test_runs_minimum_and_numpy_integers() -> None:
    assert valid.runs(np.int64(12), minimum=10) == 12
    refused(lambda: valid.runs(9, minimum=10), "runs", "value 9", ">= 10")


def test_runs_past_the_memory_are_refused_with_the_estimate() -> None:
    err = refused(lambda: valid.runs(10**20, run_bytes=40, what="keeping the results of"), "runs",
                  "would need about", "of memory", "is available")
    assert err.value == 10**20
    assert valid.runs(1000, run_bytes=40) == 1000


@pytest.mark.parametrize("value, key, words", [
    (-1, "seed", ("value -1", ">= 0")), ("7", "seed", ("value '7'",)), (1.5, "seed", ()),
    (False, "seed", ("value <bool>",)),
])
def test_seed(value: object, key: str, words: tuple[str, ...]) -> None:
    refused(lambda: valid.seed(value), key, *words)
    assert valid.seed(None) is None and valid.seed(0) == 0 and valid.seed(2**80) == 2**80


@pytest.mark.parametrize("value, hint", [(0, None), ("5", None), ("lerning", "learning"), (1.0, None),
                                         (True, None), ("3b", "3")])
def test_round_key(value: object, hint: str | None) -> None:
    err = refused(lambda: valid.round_key(value), "round", "expected 1, 2, 3, 3a or learning")
    assert err.hint == hint
    assert [valid.round_key(v) for v in (1, "2", " 3A ", "learning", np.int8(3))] == ["1", "2", "3a", "learning", "3"]


def test_top_and_weights() -> None:
    assert valid.top(None) is None and valid.top(3) == 3
    refused(lambda: valid.top(0), "top", ">= 1")
    w = valid.weights("loss=3, exposed=1", {"loss": 1.0, "exposed": 0.5, "weld": 1.0})
    assert w == {"loss": 3.0, "exposed": 1.0, "weld": 1.0}
    assert valid.weights({"loss": 2}, {"loss": 1.0}) == {"loss": 2.0}
    for text in ("loss=nan", "loss=inf", "loss=-inf", "loss=1e999", "loss=", "loss", "loss=fast"):
        refused(lambda text=text: valid.weights(text, {"loss": 1.0}), "weigh", "finite number")
    for bad in ({"loss": math.nan}, {"loss": True}, {"loss": None}):
        refused(lambda bad=bad: valid.weights(bad, {"loss": 1.0}), "weigh", "finite number")
    err = refused(lambda: valid.weights("los=1", {"loss": 1.0}), "weigh", "unknown weight")
    assert err.hint == "loss"
    refused(lambda: valid.weights(5, {"loss": 1.0}), "weigh", "value 5")


def test_choice_policy_edition_flag_callback() -> None:
    err = refused(lambda: valid.policy("defualt", ("default", "racing"), kind=int), "policy",
                  "expected default or racing (in Python also a int object)")
    assert err.hint == "default"
    assert valid.policy(3, ("default",), kind=int) == 3
    assert valid.edition(2021) == "2021" and valid.edition(None) is None
    assert refused(lambda: valid.edition("2017"), "edition", "2007 or 2021").hint in ("2007", "2021")
    assert valid.flag(np.bool_(True), key="exact") is True and valid.flag(None, key="x", none=True) is None
    refused(lambda: valid.flag("yes", key="exact"), "exact", "True or False")
    refused(lambda: valid.callback(5, key="progress", expected="a callable"), "progress", "a callable")


def test_ship_opponents_rules_deck(scout: shipcheck.Ship) -> None:
    assert valid.ship(scout) is scout and valid.ship(str(SCOUT)).name == scout.name
    refused(lambda: valid.ship(None), "ship", "value None", "a Ship or a ship file path")
    assert valid.opponents(None) is None and valid.opponents((scout, SCOUT))[1].name == scout.name
    refused(lambda: valid.opponents(5), "opponents", "value 5")
    refused(lambda: valid.opponents(scout), "opponents", "a list: [the ship]")
    refused(lambda: valid.opponents(str(SCOUT)), "opponents", "a list")
    refused(lambda: valid.opponents([scout] * 5), "opponents", "too many opponents", "at most 4")
    refused(lambda: valid.opponents([scout, 3]), "opponents", "value 3")
    assert valid.rules(None) is None and valid.rules("r.toml") == Path("r.toml")
    refused(lambda: valid.rules(5), "rules", "value 5")
    refused(lambda: valid.rules(""), "rules")
    assert valid.deck(None) is None and valid.deck(["I-05"]).ids == ["I-05"]
    refused(lambda: valid.deck([]), "deck", "an empty deck")
    refused(lambda: valid.deck(5), "deck", "value 5")
    refused(lambda: valid.deck(["I-99"]), "cards", "no card I-99 in edition 2007")


def test_as_option_names_the_command_line_option() -> None:
    err = valid.as_option(refused(lambda: valid.runs(0), "runs"))
    assert err.key == "--runs" and str(err).startswith("<input>: bad --runs;")
    other = InputError("bad", file="ship.toml", key="runs")
    assert valid.as_option(other) is other  # errors in files keep their keys


# -- the library functions (issue 18's list) ------------------------------------------------------------
def test_place_and_advise_check_their_arguments(start: shipcheck.Ship) -> None:
    fast = {"credits": False, "exact": False}
    refused(lambda: shipcheck.place(start, None, **fast), "tile", "value None")
    refused(lambda: shipcheck.place(start, 5, **fast), "tile", "value 5")
    refused(lambda: shipcheck.place(start, "cannon:0111", weigh=5, **fast), "weigh", "value 5")
    refused(lambda: shipcheck.place(start, "cannon:0111", top=0, **fast), "top", "value 0")
    refused(lambda: shipcheck.place(start, "cannon:0111", runs=-5, exact=False), "runs", "value -5", ">= 2")
    refused(lambda: shipcheck.place(start, "cannon:0111", runs=1, exact=False), "runs", ">= 2")
    refused(lambda: shipcheck.place(start, "cannon:0111", round=0, **fast), "round", "value 0")
    refused(lambda: shipcheck.place(start, "cannon:0111", seed=-1, **fast), "seed", "value -1")
    refused(lambda: shipcheck.place(start, "cannon:0111", exact="no", credits=False), "exact")
    refused(lambda: shipcheck.place(start, "cannon:0111", weigh="loss=nan", **fast), "weigh", "loss=nan")
    refused(lambda: shipcheck.advise(None, "cannon:0111", **fast), "ship", "value None")
    refused(lambda: shipcheck.place(start, "cannon:0111", round="4"), "round", "1, 2, 3, 3a or learning")
    # the same rounds whatever the ranking, as on the command line
    refused(lambda: shipcheck.place(start, "cannon:0111", round="4", **fast), "round", "1, 2, 3, 3a or learning")
    # a ship file path is a ship, as in simulate_round and report
    assert len(shipcheck.place(str(START), "cannon:0111", **fast)) == len(shipcheck.place(start, "cannon:0111", **fast))


@pytest.mark.parametrize("spec, words", [
    ("battery:1113:cells=²", ("bad `cells`", "cells=²")),
    ("battery:1113:cells=" + "9" * 5000, ("bad `cells`",)),
    ("battery:1113:cells=٣", ("bad `cells`",)),
])
def test_tile_attributes_are_ascii_numbers(start: shipcheck.Ship, spec: str, words: tuple[str, ...]) -> None:
    refused(lambda: shipcheck.place(start, spec, credits=False, exact=False), "tile", *words)


def test_place_refuses_runs_that_would_take_days_up_front(start: shipcheck.Ship) -> None:
    refused(lambda: shipcheck.place(start, "cannon:0111", runs=10**17), "runs", "too many runs",
            "at most 1,000,000 runs a call")


def test_runs_past_the_maximum_are_refused() -> None:
    assert valid.runs(100, maximum=100) == 100
    err = refused(lambda: valid.runs(101, maximum=100), "runs", "too many runs for one call (101)",
                  "at most 100 runs a call")
    assert err.value == 101


def test_simulate_round_checks_its_arguments(scout: shipcheck.Ship) -> None:
    kw = {"runs": 10, "seed": 1}
    refused(lambda: shipcheck.simulate_round(scout, opponents=5, **kw), "opponents", "value 5")
    refused(lambda: shipcheck.simulate_round(scout, rules=5, **kw), "rules", "value 5")
    refused(lambda: shipcheck.simulate_round(scout, round=0, **kw), "round", "value 0")
    refused(lambda: shipcheck.simulate_round(scout, policy="bogus", **kw), "policy", "'bogus'", "default or racing",
            "RoundPolicy")
    refused(lambda: shipcheck.simulate_round(scout, opponent_policy="optimal", **kw), "opponent_policy", "'optimal'")
    refused(lambda: shipcheck.simulate_round(scout, deck=[], **kw), "deck", "an empty deck")
    refused(lambda: shipcheck.simulate_round(scout, edition="2017", **kw), "edition", "2007 or 2021")
    refused(lambda: shipcheck.simulate_round(scout, five_player="yes", **kw), "five_player", "True or False")
    refused(lambda: shipcheck.simulate_round(None, **kw), "ship", "value None")
    refused(lambda: shipcheck.simulate_round(scout, runs="x", seed=1), "runs", "value 'x'")
    refused(lambda: shipcheck.simulate_round(scout, runs=10**12, seed=1), "runs", "at most 100,000,000 runs a call")


def test_report_checks_its_arguments(scout: shipcheck.Ship) -> None:
    kw = {"recommendations": False, "seed": 1}
    refused(lambda: shipcheck.report(None), "ship", "value None")
    refused(lambda: shipcheck.report(scout, 5, **kw), "other", "value 5")
    refused(lambda: shipcheck.report(scout, runs="x", **kw), "runs", "value 'x'", ">= 10")
    refused(lambda: shipcheck.report(scout, runs=5, **kw), "runs", "value 5", ">= 10")
    refused(lambda: shipcheck.report(scout, runs=10**20, **kw), "runs", "at most 1,000,000 runs a call")
    refused(lambda: shipcheck.report(scout, round=0, **kw), "round", "value 0")
    refused(lambda: shipcheck.report(scout, opponents=5, **kw), "opponents", "value 5")
    refused(lambda: shipcheck.report(scout, deck=[], **kw), "deck", "an empty deck")
    refused(lambda: shipcheck.report(scout, progress=5, **kw), "progress", "value 5")


def test_the_other_library_functions_refuse_what_they_cannot_use(scout: shipcheck.Ship) -> None:
    refused(lambda: shipcheck.check_many(5), "paths", "value 5")
    refused(lambda: shipcheck.check_many([SCOUT, 5]), "paths", "value 5")
    refused(lambda: shipcheck.dump_ship(5), "ship", "value 5")
    refused(lambda: shipcheck.check(None), "ship", "value None")
    refused(lambda: shipcheck.odds(scout, None), "attacks")
    refused(lambda: shipcheck.odds(scout, ["small-meteor:front"], policy="bogus"), "policy", "'bogus'")
    refused(lambda: shipcheck.simulate(scout, ["small-meteor:front"], runs="x"), "runs", "value 'x'")
