"""The flight commands: stats, odds and simulate, through the CLI as a script would use them."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from clikit import run
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
BLUE = ROOT / "examples" / "blue-round1.toml"
FREIGHTER = ROOT / "examples" / "class-II-freighter.toml"
ODDS_KEYS = {"exact", "p_survive", "expected_lost", "lost_distribution", "tiles"}


def lone_pilot(tmp_path: Path) -> Path:
    p = tmp_path / "pilot.toml"
    p.write_text('format = 1\nclass = "I"\n')
    return p


@pytest.mark.parametrize("command", ["stats", "odds", "simulate"])
def test_help_has_an_example(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert f"shipcheck {command}" in out.replace("\n", " ")


def test_odds_json_contract_keys_and_values(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "odds", str(lone_pilot(tmp_path)), "--attack", "small-meteor:front",
                       "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert ODDS_KEYS <= d.keys() and d["exact"] is True
    assert d["p_survive"] == pytest.approx(5 / 6, abs=1e-12)
    assert d["lost_distribution"] == {"0": pytest.approx(5 / 6), "1": pytest.approx(1 / 6)}
    assert d["tiles"] == [{"at": [7, 7], "p_lost": pytest.approx(1 / 6)}]
    assert d["fractions"]["p_survive"] == "5/6"


def test_odds_card_equals_its_attacks(capsys: pytest.CaptureFixture[str]) -> None:
    _, by_card, _ = run(capsys, "odds", str(FREIGHTER), "--card", "I-09", "--format", "json")
    _, by_list, _ = run(capsys, "odds", str(FREIGHTER), "-a", "large-meteor:front", "-a", "small-meteor:left",
                        "-a", "small-meteor:right", "--format", "json")
    a, b = json.loads(by_card), json.loads(by_list)
    assert a["fractions"] == b["fractions"]


def test_odds_optimal_reports_the_default_alongside(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", str(BLUE), "--card", "II-11", "--policy", "optimal", "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["policy"] == "optimal"
    assert (d["p_survive"], -d["expected_lost"]) >= (d["default_policy"]["p_survive"],
                                                      -d["default_policy"]["expected_lost"])
    assert isinstance(d["differences"], list)


def test_odds_text_shows_fractions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "odds", str(lone_pilot(tmp_path)), "--attack", "small-meteor:front")
    assert code == 0
    assert "5/6" in out and "default policy" in out


@pytest.mark.parametrize("args,needle", [
    (["--attack", "big-meteor:front"], "--attack"),
    (["--attack", "small-meteor:up"], "small-meteor:up"),
    (["--card", "IX-99"], "IX-99"),
    (["--card", "I-05"], "open_space"),          # no meteors or shots
    ([], "--attack"),                            # neither
    (["--attack", "small-meteor:front", "--card", "I-09"], "--attack"),  # both
])
def test_odds_bad_input_exits_2(capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> None:
    code, out, err = run(capsys, "odds", str(BLUE), *args)
    assert code == 2
    assert "Traceback" not in out + err
    assert needle in err


def test_simulate_json_is_reproducible_and_close_to_exact(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", str(FREIGHTER), "--card", "I-09", "--runs", "40000", "--seed", "11", "--format", "json"]
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args, "--workers", "2")
    a, b = json.loads(first), json.loads(second)
    assert a == b
    assert a["exact"] is False and a["runs"] == 40000 and a["seed"] == 11
    assert {"p_survive_ci", "expected_lost_ci"} <= a.keys()
    _, ex, _ = run(capsys, "odds", str(FREIGHTER), "--card", "I-09", "--format", "json")
    exact = Fraction(json.loads(ex)["fractions"]["expected_lost"])
    lo, hi = a["expected_lost_ci"]
    width = hi - lo
    # 4 standard errors either side (the 95 % interval is ~3.9 SE wide)
    assert lo - width <= float(exact) <= hi + width


def test_simulate_precision(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "simulate", str(lone_pilot(tmp_path)), "-a", "small-meteor:front",
                       "--precision", "0.01", "--seed", "1", "--batch", "5000", "--format", "json")
    assert code == 0
    d = json.loads(out)
    lo, hi = d["p_survive_ci"]
    assert hi - lo <= 0.01


def test_simulate_bad_precision_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", str(BLUE), "-a", "small-meteor:front", "--precision", "2")
    assert code == 2 and "precision" in err


def test_stats_json_and_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "stats", str(lone_pilot(tmp_path)), "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["ship"].endswith("pilot.toml")
    code, out, _ = run(capsys, "stats", str(FREIGHTER))
    assert code == 0
    assert "Engine power" in out and "small-meteor" in out


@pytest.mark.slow
def test_simulate_on_a_local_dask_cluster_gives_the_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    args = ["simulate", str(BLUE), "--card", "I-09", "--runs", "30000", "--seed", "5", "--format", "json"]
    _, alone, _ = run(capsys, *args)
    code, on_dask, _ = run(capsys, *args, "--dask", "--workers", "2")
    assert code == 0
    assert json.loads(alone) == json.loads(on_dask)


def test_simulate_says_when_the_precision_was_not_reached(capsys: pytest.CaptureFixture[str]) -> None:
    # a width no run count within the cap reaches: the text says so, as the JSON does
    args = ("simulate", str(BLUE), "-a", "small-meteor:front", "--precision", "1e-10", "--seed", "1")
    code, out, _ = run(capsys, *args, "--format", "json")
    assert code == 0 and any("precision" not in n or "narrowed" in n for n in json.loads(out)["notes"])
    code, out, _ = run(capsys, *args)
    assert code == 0 and "note: stopped at 10,000,000 runs, the most --precision flies: the 95 % interval of " \
        "p_survive is" in " ".join(out.split()) and "wide, not 1e-10" in " ".join(out.split())
    code, out, _ = run(capsys, *args, "-q")
    assert code == 0 and "note:" not in out


def test_simulate_without_attacks_names_every_way_to_say_what_to_fly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", str(BLUE), "-n", "10")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "--attack" in err and "--card" in err and "--round" in err
    code, _, err = run(capsys, "odds", str(BLUE))
    assert code == 2 and "--attack" in err and "--card" in err and "--round" not in err


# -- an uncertain outcome never shows as certain -----------------------------------------------------
def test_percent_of_an_uncertain_outcome_is_never_100_or_0() -> None:
    from shipcheck.cli._common import pct

    # the survival: 9,795,158,237 of 9,795,520,512 dice outcomes (99.9963 %)
    assert pct(Fraction(9795158237, 9795520512)) == "99.996 %"
    assert pct(Fraction(1, 10**9)) == "0.0000001 %"
    assert pct(1 - Fraction(1, 10**20)) == ">99.999999999999 %" and pct(Fraction(1, 10**20)) == "<0.000000000001 %"
    # certain and ordinary outcomes keep their two decimals
    assert (pct(Fraction(1)), pct(Fraction(0)), pct(Fraction(35, 36))) == ("100.00 %", "  0.00 %", " 97.22 %")


@given(st.fractions(min_value=0, max_value=1))
def test_percent_keeps_certainty_apart(p) -> None:
    from shipcheck.cli._common import pct

    shown = pct(p).strip(" %<>")
    assert (float(shown) in (0.0, 100.0)) == (p in (0, 1))
