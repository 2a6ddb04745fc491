"""The compiled forward pass (:func:`shipcheck.engine.exact.forward`) against the Python driver.

``odds`` hands large distributions of the default policy to the engine's compiled pass; the
Python driver (:class:`shipcheck.flight.kernel.Kernel`, the engine's functions called one state and
effect at a time) must give the same integer weights for the same packed states, and expand the
same states. Random small ships (shields, boosters, cannons, batteries, cabins, aliens; one hull
and two), random attack sequences, the full class III examples, and sequences longer than int64
weights allow (the Python driver carries on after 12 attacks).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipbuild import PILOT, ship, tile
from test_engine_exact import ATTACKS, HULL_A, HULL_B, SQUARES_I, tiles_on

from shipcheck.cards import find_card
from shipcheck.flight.chain import FlightModel, as_attacks
from shipcheck.flight.odds import COMPILED_ATTACKS, _engine, _forward_default, odds
from shipcheck.shipfile import load_ship

ROOT = Path(__file__).resolve().parents[1]

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _both(s: object, attacks: list[str]) -> tuple[dict[int, int], int]:
    atk = as_attacks(attacks)
    want = _forward_default(FlightModel(s).kernel, atk, engine="python")  # type: ignore[arg-type]
    got = _forward_default(FlightModel(s).kernel, atk, engine="compiled")  # type: ignore[arg-type]
    assert got == want
    return got


@settings(max_examples=150, deadline=None)
@given(tiles_on(SQUARES_I, 10), st.lists(ATTACKS, min_size=1, max_size=6))
def test_compiled_pass_equals_the_python_kernel(text: str, attacks: list[str]) -> None:
    _both(ship(PILOT + text), attacks)


@settings(max_examples=60, deadline=None)
@given(tiles_on([(c, r) for c in range(4) for r in range(8)], 8), st.lists(ATTACKS, min_size=1, max_size=5))
def test_compiled_pass_on_one_die_boards(text: str, attacks: list[str]) -> None:
    # IC: one die, rows sharing labels, so one roll can hit two lines (two cannons, two hits)
    grid = text.replace("at = [", "at = {col = ").replace("]\nkind", "}\nkind").replace(", ", ", row = ")
    _both(ship(grid, "IC"), attacks)


# a shield joined to a booster, batteries, cannons: boosted saves against large meteors and heavy
# shots (two charges), charged cannons paid before that
BOOSTED = (PILOT + tile((8, 7), "shield", "0333") + tile((9, 7), "shield_booster", "3333")
           + tile((6, 7), "battery", "3333", cells=3) + tile((7, 8), "battery", "3333", cells=2)
           + tile((7, 6), "double_cannon", "0333") + tile((8, 6), "cannon", "0333") + tile((6, 8), "cabin", "3333"))


@pytest.mark.parametrize("attacks", [["heavy-shot:front", "heavy-shot:right"] * 3,
                                     ["large-meteor:front", "large-meteor:right", "large-meteor:left"] * 2,
                                     ["light-shot:front", "small-meteor:right", "heavy-shot:left"] * 2])
def test_compiled_pass_with_boosted_shields_and_charged_cannons(attacks: list[str]) -> None:
    _both(ship(BOOSTED), attacks)


def test_one_cannon_shoots_one_of_two_meteors_of_a_roll() -> None:
    # IC rolls from the left hit grid rows 2 and 4 at once; the cannon on row 3 bears on both but
    # fires once
    def at(c: int, r: int) -> dict[str, int]:
        return {"col": c, "row": r}

    s = ship(tile(at(1, 3), "start_cabin", "3333") + tile(at(0, 2), "structural", "3333")
             + tile(at(0, 4), "structural", "3333") + tile(at(0, 3), "cannon", "0333", rot=270)
             + tile(at(1, 2), "battery", "3333", cells=2) + tile(at(1, 4), "double_cannon", "0333", rot=270), "IC")
    dist, _ = _both(s, ["large-meteor:left"] * 3)
    assert len(dist) > 1


@pytest.mark.parametrize("path", ["class-III-hauler.toml", "class-IIIa-longboat.toml"])
def test_compiled_pass_on_the_full_class_iii_ships(path: str) -> None:
    s = load_ship(EXAMPLES / path)
    sides = ("front", "right", "rear", "left")
    round_the_ship = [f"{'small' if i % 2 else 'large'}-meteor:{sides[i % 4]}" for i in range(9)]
    cards = [str(a) for c in ("III-10", "III-11", "III-16") for a in find_card(c).attacks()]
    for attacks in (round_the_ship, cards[:12], ["large-meteor:rear"] * 8):
        _both(s, attacks)


def test_past_twelve_attacks_the_python_engine_carries_on() -> None:
    attacks = ["light-shot:front", "large-meteor:front", "small-meteor:left", "heavy-shot:right"] * 4
    assert len(attacks) > COMPILED_ATTACKS
    s = load_ship(EXAMPLES / "class-I-scout.toml")
    dist, _ = _both(s, attacks)
    assert sum(dist.values()) == 36 ** len(attacks)  # Python ints past 2**63


@settings(max_examples=40, deadline=None)
@given(tiles_on(HULL_A, 5), tiles_on(HULL_B, 5), st.lists(ATTACKS, min_size=1, max_size=5))
def test_compiled_pass_on_two_hulls(a: str, b: str, attacks: list[str]) -> None:
    _both(ship(a + b, "IIA"), attacks)


def test_every_model_goes_to_the_compiled_pass() -> None:
    # two hulls, and crew tracked (an alien that leaves with its life support): the states are
    # words either way
    two_hulls = ship(tile(HULL_A[0], "cabin", "3333") + tile(HULL_B[0], "cabin", "3333")
                     + tile(HULL_A[1], "shield", "0333") + tile(HULL_B[1], "battery", "3333", cells=2), "IIA")
    crew = ship(PILOT + tile((8, 7), "cabin", "3333", crew="purple")
                + tile((9, 7), "life_support", "3333", color="purple") + tile((6, 7), "cabin", "3333"))
    assert FlightModel(two_hulls).multi_hull and FlightModel(crew, track_crew=True).initial()[2] is not None
    for s in (two_hulls, crew):
        assert _engine(FlightModel(s).kernel, "compiled") == "compiled"
        _both(s, ["heavy-shot:right", "large-meteor:left", "light-shot:front", "heavy-shot:rear"] * 2)


def test_odds_gives_the_same_answer_on_either_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    s = load_ship(EXAMPLES / "class-III-hauler.toml")
    attacks = [str(a) for a in find_card("III-10").attacks()]
    from shipcheck import runtime

    monkeypatch.setattr(runtime.state, "force", "plain")
    slow = odds(s, attacks)
    monkeypatch.setattr(runtime.state, "force", "compiled")
    fast = odds(s, attacks)
    assert fast.weights == slow.weights
    assert (fast.p_survive, fast.expected_lost, fast.states_expanded) == (slow.p_survive, slow.expected_lost,
                                                                          slow.states_expanded)


def test_without_numba_the_python_driver_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    from shipcheck import runtime

    s = load_ship(EXAMPLES / "class-III-hauler.toml")
    attacks = as_attacks([str(a) for a in find_card("III-10").attacks()])
    want = _forward_default(FlightModel(s).kernel, attacks, engine="python")
    monkeypatch.setattr(runtime, "compiled", lambda: False)  # numba missing, off or broken
    assert _forward_default(FlightModel(s).kernel, attacks, engine="compiled") == want


@pytest.fixture(scope="module")
def optimal_both() -> tuple[object, object]:
    """The optimal policy against III-10's meteors on the class III hauler, plain and compiled (its
    tail, once nothing is left to decide, flown by the compiled pass)."""
    from shipcheck import runtime

    s = load_ship(EXAMPLES / "class-III-hauler.toml")
    atk = [str(a) for a in find_card("III-10").attacks()]
    was = runtime.state.force
    try:
        runtime.state.force = "plain"
        plain = odds(s, atk, policy="optimal")
        runtime.state.force = "compiled"
        compiled = odds(s, atk, policy="optimal")
    finally:
        runtime.state.force = was
    return plain, compiled


def test_optimal_policy_same_on_both_engines(optimal_both: tuple[object, object]) -> None:
    plain, compiled = optimal_both
    assert compiled.weights == plain.weights  # type: ignore[attr-defined]
    assert compiled.p_survive == plain.p_survive  # type: ignore[attr-defined]
    assert compiled.expected_lost == plain.expected_lost  # type: ignore[attr-defined]
    assert compiled.differences == plain.differences  # type: ignore[attr-defined]
    # values worked out where a decision is left: the same count whichever engine flies the tail
    assert compiled.states_explored == plain.states_explored > 0  # type: ignore[attr-defined]
    assert compiled.p_survive >= compiled.baseline["p_survive"] - 1e-12  # type: ignore[attr-defined]


#: a fresh process: the compiled exact engine's first load, then which of the engine functions the
#: kernel calls hold no compiled code (numba would compile those later, at their first use, unannounced)
FIRST_LOAD = """
import re, sys
from pathlib import Path
import shipcheck
from shipcheck import engine, runtime
from shipcheck.flight.odds import prefer_compiled
if not prefer_compiled(shipcheck.load_ship(sys.argv[1])):
    print("plain"); raise SystemExit
text = Path(sys.modules["shipcheck.flight.kernel"].__file__).read_text()
called = set(re.findall(r'fn(?:_compiled)?\\("(\\w+)", "(\\w+)"\\)', text))
assert len(called) >= 10, called
print(sorted(f"{m}.{n}" for m, n in called if not engine.function(m, n, plain=False).signatures))
"""


def test_the_first_load_compiles_every_function_the_kernel_calls() -> None:
    # what `shipcheck compile` and a long search's first load run (odds.prefer_compiled): every
    # compiled function the kernel asks afterwards is in it, none compiles later without the bar
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", FIRST_LOAD, str(ROOT / "examples" / "class-II-freighter.toml")],
                         capture_output=True, text=True, check=True).stdout.strip()
    if out == "plain":
        pytest.skip("numba is not installed: nothing compiles")
    assert out == "[]"


#: a fresh process: the same small question again and again, each below the compiled pass's
#: threshold (a model of the ship kept between them with ``kept``); prints the answers asked, the
#: states expanded as plain Python, those of the first answer, whether every answer equals the first
#: and whether the compiled engine is loaded
MANY_SMALL = """
import sys
from shipcheck import load_ship, odds, runtime
from shipcheck.flight.chain import FlightModel
from shipcheck.flight.odds import COMPILED_FROM
if not runtime.compiled():
    print("plain"); raise SystemExit
ship = load_ship(sys.argv[1])
kept = FlightModel(ship) if sys.argv[2:] == ["kept"] else None
q = ["small-meteor:left"] * 4 + ["large-meteor:left"] * 3
answers = [odds(ship, q, model=kept)]
one = runtime.state.plain_work
assert 0 < one < COMPILED_FROM / 3, one
while not runtime.loaded("exact") and len(answers) < 50:
    answers.append(odds(ship, q, model=kept))
answers.append(odds(ship, q, model=kept))  # on the compiled pass, unless still plain
same = all((a.weights, a.states_expanded) == (answers[0].weights, answers[0].states_expanded) for a in answers)
print(len(answers), runtime.state.plain_work, one, same, runtime.loaded("exact"))
"""


def _many_small(*args: str, env: dict[str, str] | None = None) -> tuple[int, int, int, str, str]:
    import subprocess
    import sys

    from shipcheck import runtime

    if env is None and not runtime.cached("exact"):  # (the suite compiles it first, where numba is)
        pytest.skip("numba is not installed, or the exact engine is not compiled")
    out = subprocess.run([sys.executable, "-c", MANY_SMALL, str(EXAMPLES / "class-III-hauler.toml"), *args],
                         capture_output=True, text=True, check=True, env=env).stdout.split()
    if out == ["plain"]:
        pytest.skip("numba is not installed")
    return int(out[0]), int(out[1]), int(out[2]), out[3], out[4]


def test_many_small_questions_load_the_cached_engine_once_they_cost_as_much() -> None:
    # each question alone is too small to pay for loading numba and the compiled pass; together
    # they are not: once the states expanded plain reach COMPILED_FROM, the cached engine is loaded
    from shipcheck.flight.odds import COMPILED_FROM

    n, work, one, same, loaded = _many_small()
    assert (same, loaded) == ("True", "True")
    # every question but the last two flew plain; the one before last, plain until the plain work
    # and the next pass's (its states times the attacks left) would have reached the threshold
    assert (n - 2) * one <= work < (n - 1) * one
    assert COMPILED_FROM - 2 * one < work < COMPILED_FROM


def test_questions_a_kept_model_remembers_cost_nothing_to_load() -> None:
    # the same question on a model kept between them expands no state again: it stays plain
    n, work, one, same, loaded = _many_small("kept")
    assert (n, work, same, loaded) == (51, one, "True", "False")


def test_many_small_questions_never_compile_an_engine_not_cached(tmp_path: Path) -> None:
    # loading pays for itself; compiling (half a minute) would not: with an empty cache they stay plain
    import os

    n, work, one, same, loaded = _many_small(env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert (n, work, same, loaded) == (51, 51 * one, "True", "False")
    assert not list(tmp_path.rglob("*.nbi"))  # numba's index of a compiled function: none written


#: a fresh process: the optimal policy against the attacks given, on the ship given; prints how many
#: values (tails included) the search had worked out when the compiled engine was loaded ("never"
#: where it stayed plain), and the answer's chance of survival and expected loss
OPTIMAL_LOAD = """
import sys
from shipcheck import load_ship, runtime
from shipcheck.flight import odds as O
if not runtime.cached("exact"):
    print("plain"); raise SystemExit
at = []
ask = O.OptimalPolicy._compile_when_long
def watch(self, ai):  # records when the engine came in; the search itself is left as it is
    ask(self, ai)
    if runtime.loaded("exact") and not at:
        at.append(len(self._value) + len(self._tails))
O.OptimalPolicy._compile_when_long = watch
r = O.odds(load_ship(sys.argv[1]), sys.argv[2:], policy="optimal")
print(at[0] if at else "never", r.p_survive, r.expected_lost)
"""
III_16 = ["light-shot:right", "light-shot:left", "light-shot:front", "light-shot:front", "heavy-shot:rear",
          "heavy-shot:rear"]


def _optimal_load(ship: str, attacks: list[str]) -> list[str]:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", OPTIMAL_LOAD, str(EXAMPLES / ship), *attacks],
                         capture_output=True, text=True, check=True).stdout.split()
    if out == ["plain"]:
        pytest.skip("numba is not installed, or the exact engine is not compiled")
    return out


def test_a_long_tail_loads_the_compiled_engine_before_the_search_starts() -> None:
    # III-16's six shots on the class III hauler: 348 ships before the last decision, two heavy shots
    # after it (13,000 tails): loading first costs less than the plain start it saves
    at, *answer = _optimal_load("class-III-hauler.toml", III_16)
    assert at == "0"
    default = odds(load_ship(EXAMPLES / "class-III-hauler.toml"), III_16)  # best everywhere that matters here
    assert answer == [str(default.p_survive), str(default.expected_lost)]


def test_a_short_search_stays_plain() -> None:
    # the class I scout against the same shots: 1,755 values and tails in all, less than loading costs
    at, *_ = _optimal_load("class-I-scout.toml", III_16)
    assert at == "never"
