"""Notebook manners: every result prints as one short line, draws itself where a picture helps,
lists all its public attributes in ``dir()``, and gives its tables as DataFrames with numeric
``col``/``row`` columns wherever rows are squares."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import pytest

import shipcheck

ROOT = Path(__file__).resolve().parents[1]
FREIGHTER = ROOT / "examples" / "class-II-freighter.toml"
START = ROOT / "examples" / "building" / "class-I-start.toml"


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    from shipcheck.round import simulate_round

    s = shipcheck.load_ship(FREIGHTER)
    loose = shipcheck.load_ship(ROOT / "examples" / "mistakes" / "loose-piece.toml")
    r = simulate_round(s, round=2, runs=40, seed=1)
    a = shipcheck.advise(shipcheck.load_ship(START), "cannon:0111", credits=False)
    rep = shipcheck.report(ROOT / "examples" / "blue-round1.toml", runs=40, seed=1)
    two = shipcheck.report(ROOT / "examples" / "blue-round1.toml", ROOT / "examples" / "class-I-scout.toml", runs=40,
                           seed=1, recommendations=False)
    sr = rep.ships[0]
    assert sr.advice is not None and sr.round is not None
    return {
        "Ship": s, "CheckReport": shipcheck.check(s), "FixResult": shipcheck.fix(loose),
        "OddsResult": shipcheck.odds(s, ["large-meteor:front"]),
        "SimulationResult": shipcheck.simulate(s, ["large-meteor:front"], runs=100, rng=1),
        "ShipStats": shipcheck.stats(s), "RoundResult": r, "PlayerResult": r.players[0], "Advice": a,
        "Placement": a.placements[0], "Report": rep, "Report (two ships)": two, "ShipReport": sr,
        "Recommendations": sr.advice, "Effect": sr.advice.measured[0], "Addition": sr.advice.additions[0],
        "MeteorData": sr.meteors, "HeatMap": sr.meteors.maps[0], "SwarmOdds": sr.meteors.swarms[0],
        "RoundView": sr.round, "ShipView": sr.view, "Table": sr.tables()["round"],
        "Distribution": sr.round.credits, "Comparison": two.comparison,
    }


NAMES = ["Ship", "CheckReport", "FixResult", "OddsResult", "SimulationResult", "ShipStats", "RoundResult",
         "PlayerResult", "Advice", "Placement", "Report", "Report (two ships)", "ShipReport", "Recommendations",
         "Effect", "Addition", "MeteorData", "HeatMap", "SwarmOdds", "RoundView", "ShipView", "Table", "Distribution",
         "Comparison"]


@pytest.mark.parametrize("name", NAMES)
def test_every_result_prints_as_one_short_line(results: dict[str, Any], name: str) -> None:
    text = repr(results[name])
    assert "\n" not in text and len(text) <= 300, (len(text), text[:400])


@pytest.mark.parametrize("name", ["Ship", "CheckReport", "FixResult", "OddsResult", "Advice", "Report",
                                  "Report (two ships)"])
def test_results_with_a_picture_draw_themselves(results: dict[str, Any], name: str) -> None:
    page = results[name]._repr_html_()
    assert "<svg" in page or "<pre" in page


def test_a_repair_in_a_notebook_marks_what_it_takes_off(results: dict[str, Any]) -> None:
    fix = results["FixResult"]  # the loose piece at (9,9) falls off: drawn with its mark, as `fix` draws it
    page = fix._repr_html_()
    assert "(9,9)" in page and "falls off" in page and ">X" in page.replace(" ", "")


def test_the_report_in_a_notebook_shows_the_ship_and_what_to_change(results: dict[str, Any]) -> None:
    rep = results["Report"]
    page = rep._repr_html_()
    s = rep.ships[0]
    assert "<svg" in page and s.name in page and f"{s.round.credits.mean:.2f}" in page
    assert escape(s.advice.measured[0].variant.text) in page  # as the page writes it
    assert len(page) < 400_000  # one drawing, not the whole page with every figure


@pytest.mark.parametrize("name", ["RoundResult", "PlayerResult", "Report", "ShipReport", "Recommendations", "Advice",
                                  "Placement"])
def test_every_public_attribute_is_in_dir(results: dict[str, Any], name: str) -> None:
    obj = results[name]
    shown = set(dir(obj))
    for attr in ("credits_mean", "p_finish", "p_survive", "credits_ci", "by_card_type", "expected_lost"):
        if hasattr(obj, attr):
            assert attr in shown, attr
    # and nothing listed that does not work
    assert all(hasattr(obj, a) for a in shown if not a.startswith("_"))


def test_round_result_forwards_the_ships_summaries_and_lists_them(results: dict[str, Any]) -> None:
    r = results["RoundResult"]
    assert {"credits_mean", "p_finish", "p_survive", "by_card_type"} <= set(dir(r))
    assert r.credits_mean == r.players[0].credits_mean and r.p_finish == r.players[0].p_finish


def test_placements_read_as_the_json_does(results: dict[str, Any]) -> None:
    a = results["Advice"]
    doc = a.to_dict()
    for p, d in zip(a.placements, doc["placements"], strict=True):
        assert list(p.at) == d["at"] and p.rot == d["rot"] and p.rot in (0, 90, 180, 270)
        assert a.ship.board.cell_name(p.index) == d["at"] and p.turns * 90 == p.rot
    df = a.to_frame()
    assert df["col"].dtype.kind == "i" and df["row"].dtype.kind == "i"
    assert [(c, r) for c, r in zip(df["col"], df["row"])] == [p.at for p in a.placements]


def test_recommendations_as_a_frame(results: dict[str, Any]) -> None:
    rec = results["Recommendations"]
    df = rec.to_frame()
    assert len(df) == len(rec.measured)
    assert list(df["change"]) == [e.variant.text for e in rec.measured]
    assert (df["credits_lo"] <= df["credits"]).all() and (df["credits"] <= df["credits_hi"]).all()
    # the square each change is about, as numbers (a policy has none)
    assert df["col"].dtype.name == "Int64" and df["row"].dtype.name == "Int64"
    for e, (_, row) in zip(rec.measured, df.iterrows(), strict=True):
        if e.variant.squares:
            label = e.variant.ship.board.cell_name(e.variant.squares[-1])
            assert [row["col"], row["row"]] == label and row["square"] in e.variant.text
        else:
            assert row["col"] is __import__("pandas").NA


def test_round_tables_are_data_frames(results: dict[str, Any]) -> None:
    import pandas as pd

    r = results["RoundResult"]
    by_type = r.by_card_type
    assert isinstance(by_type, pd.DataFrame) and by_type.index.name == "type"
    assert list(by_type.columns) == ["drawn", "expected_lost", "expected_credits", "expected_days", "p_gave_up",
                                     "expected_goods_value"]
    assert by_type.to_dict(orient="index") == r.players[0].card_types() == r.to_dict()["by_card_type"]
    by_source = r.by_source
    assert isinstance(by_source, pd.DataFrame) and list(by_source.index) == [p.name for p in r.players]
    assert (by_source[["cards", "goods", "arrival", "best_looking", "penalty"]].sum(axis=1)
            - by_source["credits"]).abs().max() < 1e-9


@pytest.mark.parametrize("module", ["shipcheck", "shipcheck.round"])
def test_lazy_modules_list_their_public_names(module: str) -> None:
    # names loaded on first use are in dir() before it, for a notebook's completion
    import importlib

    mod = importlib.import_module(module)
    assert set(mod.__all__) <= set(dir(mod))
