"""Where a round's credits come from (contract §5.1) and the purse that never goes below zero (issue
18, rule 2), hand-derived, on the engine compiled and as plain Python.

Every run's credits are the sum of five parts: ``cards`` (card rewards, luxury-cabin, Manager and
Merchant bonuses), ``goods`` (sold at the end, half rounded up after giving up), ``arrival``,
``best_looking`` and ``penalty`` (minus what was paid for lost and set-aside components: the
board's cap, and no more than the purse held before the round plus this round's credits).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from clikit import run
from roundkit import A, C, D, fly, pair
from shipbuild import PILOT, ship, tile

import shipcheck
from shipcheck import runtime
from shipcheck.round.chunks import ACCOUNT, SOURCES, TYPES
from shipcheck.round.policy import DefaultPolicy
from shipcheck.round.result import by_source_lines

U, CAN, ENG = "3333", "0333", "3303"
SRC = {k: i for i, k in enumerate(SOURCES)}


@pytest.fixture(params=["compiled", "plain"])
def engine(request, monkeypatch):  # type: ignore[no-untyped-def]
    if request.param == "plain":
        monkeypatch.setattr(runtime.state, "force", "plain")
    return request.param


def parts(out, p: int = 0, run: int = 0) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Player ``p``'s credits of run ``run`` by source; checks they add up to its credits."""
    got = {k: int(out.sources[p, run, i]) for i, k in enumerate(SOURCES)}
    assert sum(got.values()) == out.credits[p, run]
    return got


def goods_value(out, p: int, card_type: str, runs: int = 3) -> float:  # type: ignore[no-untyped-def]
    """Per run, the sale value of the goods ``card_type`` loaded still aboard at the end."""
    return out.by_type[p, TYPES.index(card_type), ACCOUNT.index("goods_half")] / (2 * runs)


def trader() -> object:
    """Three double cannons at the front (2 each with a charge; one battery of 3), a 3-slot hold, two
    cabins besides the pilot cabin: 6 humans, engine power 1."""
    return ship(PILOT + tile((6, 6), "double_cannon", CAN) + tile((7, 6), "double_cannon", CAN)
                + tile((8, 6), "double_cannon", CAN) + tile((6, 7), "battery", U, cells=3)
                + tile((8, 7), "cargo", U, slots=3) + tile((7, 8), "engine", ENG)
                + tile((6, 8), "cabin", U) + tile((8, 8), "cabin", U), extra='name = "trader"\n')


def test_several_card_types_by_source(engine):
    # C (a 3-slot hold, 2 humans) leads D (4 humans) by 2 spaces. I-18 abandoned ship (2 crew, 3
    # credits, 1 day): C would be left without humans and declines; D gives 2, takes 3 and moves
    # -2 -> -3. I-15 planets (2 days): C lands on green+green (4 credits' worth, the most it gains)
    # and moves 0 -> -2; D has no hold. I-05 open space (power 1 each): C -2 -> -1, D -3 -> -2.
    # C arrives first (4), D second (3); neither shows an open connector: both best-looking (2).
    out = fly(["I-18", "I-15", "I-05"], [C(), D()])
    assert parts(out, 0) == {"cards": 0, "goods": 4, "arrival": 4, "best_looking": 2, "penalty": 0}
    assert parts(out, 1) == {"cards": 3, "goods": 0, "arrival": 3, "best_looking": 2, "penalty": 0}
    assert goods_value(out, 0, "planets") == 4 and goods_value(out, 1, "planets") == 0


def test_planets_smugglers_and_stations_show_the_goods_they_loaded(engine):
    # The trader alone. I-02 smugglers (strength 4): 3 charges make 6 > 4 (2 make a tie): it wins
    # yellow, green and blue (1 day). I-19 abandoned station (5 crew; yellow, green; 1 day): the
    # hold keeps the best 3 of Y G B + Y G: Y Y G; the blue and one green leave (last loaded of
    # their colour first: the smugglers' green stays). I-15 planets: yellow adds the most (Y Y Y):
    # the green goes (the smugglers'). Aboard at the end: Y from the smugglers, Y from the
    # station, Y from the planet: 3 credits each, 9 in all; first (4), best-looking alone (2).
    out = fly(["I-02", "I-19", "I-15"], [trader()])
    assert parts(out) == {"cards": 0, "goods": 9, "arrival": 4, "best_looking": 2, "penalty": 0}
    assert [goods_value(out, 0, t) for t in ("smugglers", "abandoned_station", "planets")] == [3, 3, 3]


def test_a_capped_penalty(engine):
    # A with 7 components set aside flies one Open Space alone: first (4), best-looking (2); the 7
    # cost 1 each, capped at class I's 5: it pays 5 (its round brought 6).
    aside = "".join('\n[[aside]]\nkind = "structural"\nsides = "1111"\n' for _ in range(7))
    s = ship(tile((7, 7), "start_cabin", "0010") + tile((7, 8), "engine", "1000") + aside)
    out = fly(["I-05"], [s])
    assert parts(out) == {"cards": 0, "goods": 0, "arrival": 4, "best_looking": 2, "penalty": -5}


def test_the_purse_never_goes_below_zero(engine):
    # I-11 meteors, the first rolling 7: A's pilot cabin is destroyed, A leaves without humans and
    # gave up: no arrival, no bonus, nothing earned; it owes 1 for the cabin. From an empty purse
    # it pays nothing (FAQ: "Simplesmente devolva todos os seus créditos para o banco"); from a
    # purse of 3 it pays the 1.
    rolls = [[pair(3, 4), pair(1, 1), pair(1, 1)]]
    empty = fly(["I-11"], [A()], rolls=rolls)
    assert parts(empty) == {"cards": 0, "goods": 0, "arrival": 0, "best_looking": 0, "penalty": 0}
    full = fly(["I-11"], [A()], rolls=rolls, purse=(3,))
    assert parts(full) == {"cards": 0, "goods": 0, "arrival": 0, "best_looking": 0, "penalty": -1}
    # a round that brings less than the penalty: 7 aside tiles cost 5 (class I's cap); flying third
    # behind D and A through Open Space, the ship earns 2 (third) + 2 (best-looking: nobody shows
    # an open connector) = 4 and pays those 4 from an empty purse, all 5 from a purse of 10
    aside = "".join('\n[[aside]]\nkind = "structural"\nsides = "1111"\n' for _ in range(7))
    s = ship(tile((7, 7), "start_cabin", "0010") + tile((7, 8), "engine", "1000") + aside)
    out = fly(["I-05"], [D(), A(), s])
    assert parts(out, 2) == {"cards": 0, "goods": 0, "arrival": 2, "best_looking": 2, "penalty": -4}
    out = fly(["I-05"], [D(), A(), s], purse=(0, 0, 10))
    assert parts(out, 2) == {"cards": 0, "goods": 0, "arrival": 2, "best_looking": 2, "penalty": -5}


class Quitter(DefaultPolicy):
    name = "quitter"

    def give_up(self, view):  # type: ignore[no-untyped-def]
        return True


def test_a_ship_that_gives_up_sells_its_goods_for_half():
    # C with yellow + green (5) gives up before the first card: half, rounded up: 3 credits of
    # goods, and no arrival or bonus; the goods came aboard at launch (no card type loaded them).
    out = fly(["I-05"], [C(["yellow", "green"])], policy=Quitter())
    assert parts(out) == {"cards": 0, "goods": 3, "arrival": 0, "best_looking": 0, "penalty": 0}
    assert out.by_type[0, :, ACCOUNT.index("goods_half")].sum() == 0


def test_by_source_in_the_library_json_frames_and_text():
    r = shipcheck.simulate_round("examples/class-I-scout.toml", round=1, runs=300, seed=3, keep_runs=True)
    for p in r.players:
        assert np.array_equal(p.sources.sum(axis=1), p.credits)  # every run adds up exactly
        assert sum(p.by_source.values()) == pytest.approx(p.credits_mean)
        assert set(p.by_source) == set(SOURCES)
    d = json.loads(json.dumps(r.to_dict()))
    assert set(d["credits"]["by_source"]) == set(SOURCES)
    assert all(set(o["credits"]["by_source"]) == set(SOURCES) for o in d["opponents"])
    assert all("expected_goods_value" in v for v in d["by_card_type"].values())
    assert d["purse"] == 0
    f = r.to_frame()
    assert (f[list(SOURCES)].sum(axis=1) == f["credits"]).all()
    bs = r.by_source
    assert list(bs.columns) == [*SOURCES, "credits"] and list(bs.index) == [p.name for p in r.players]
    assert bs.loc[r.ship_result.name, "credits"] == pytest.approx(r.credits_mean)
    lines = by_source_lines(r)
    assert lines[0].startswith("credits by source") and "field" in lines[0]
    assert [ln.split()[0] for ln in lines[1:]] == ["cards", "goods", "arrival", "best", "penalty", "total"]


def test_purse_in_the_library_and_on_the_command_line(capsys):
    from shipcheck.errors import InputError

    a = shipcheck.simulate_round("examples/class-I-scout.toml", round=1, runs=400, seed=5, keep_runs=True)
    b = shipcheck.simulate_round("examples/class-I-scout.toml", round=1, runs=400, seed=5, purse=100, keep_runs=True)
    assert a.credits.min() >= 0 and b.credits.min() < 0  # the scout sometimes owes more than it earns
    assert (b.credits <= a.credits).all() and b.to_dict()["purse"] == 100
    assert a.ship_result.by_source["penalty"] > b.ship_result.by_source["penalty"]
    with pytest.raises(InputError, match="purse"):
        shipcheck.simulate_round("examples/class-I-scout.toml", round=1, runs=10, purse=-1)
    code, out, _ = run(capsys, "simulate", "examples/class-I-scout.toml", "--round", "1", "--runs", "400",
                       "--seed", "5", "--purse", "100", "--format", "json")
    assert code == 0 and json.loads(out)["credits"]["mean"] == pytest.approx(b.credits_mean)
    code, out, _ = run(capsys, "simulate", "examples/class-I-scout.toml", "--round", "1", "--runs", "200",
                       "--seed", "5")
    assert code == 0 and "credits by source" in out
    code, _, err = run(capsys, "simulate", "examples/class-I-scout.toml", "--attack", "small-meteor:front",
                       "--purse", "3")
    assert code == 2 and "--purse" in err
