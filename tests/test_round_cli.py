"""`simulate --round` through the CLI as a script and a player would use it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import run

ROOT = Path(__file__).resolve().parents[1]
SCOUT = str(ROOT / "examples" / "class-I-scout.toml")
BLUE = str(ROOT / "examples" / "blue-round1.toml")


def test_round_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", SCOUT, "--round", "1", "--opponent", BLUE, "--runs", "300",
                       "--seed", "4", "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["round"] == 1 and d["runs"] == 300 and d["seed"] == 4 and d["ship"] == SCOUT
    assert len(d["opponents"]) == 1 and d["opponents"][0]["ship"] == BLUE
    assert "mean" in d["credits"] and "p_finish" in d


def test_round_text_names_policies_opponents_and_provisional_values(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('format = 1\nedition = "2007"\ncards = ["I-05", "I-13"]\n')
    code, out, _ = run(capsys, "simulate", SCOUT, "--round", "1", "--deck", str(deck), "--runs", "50",
                       "--seed", "1", "--policy", "racing")
    assert code == 0
    assert "credits: mean" in out and "this ship racing" in out and "opponents:" in out
    assert "Trader I" in out  # the default field
    assert "provisional track" in out
    assert "open space" in out and "planets" in out


@pytest.mark.parametrize("args,key", [
    (["--round", "5"], "--round"),
    (["--round", "1", "--attack", "small-meteor:front"], "--round"),
    (["--round", "1", "--policy", "optimal"], "--policy"),
    (["--opponent", BLUE, "--card", "I-09"], "--opponent"),
    (["--card", "I-09", "--policy", "racing"], "--policy"),
    (["--round", "1", "--deck", "/nonexistent/deck.toml"], "deck"),
])
def test_round_bad_usage_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], key: str) -> None:
    code, out, err = run(capsys, "simulate", SCOUT, *args, "--runs", "5")
    assert code == 2 and "Traceback" not in err and err.startswith("shipcheck: error:")
    assert key in err


def test_round_text_shows_the_goods_each_card_type_loaded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Planets pay in goods, not credits: the text table's goods column is the JSON's
    expected_goods_value (a deck without dice: every run the same)."""
    deck = tmp_path / "deck.toml"
    deck.write_text('format = 1\nedition = "2007"\ncards = ["I-05", "I-13"]\n')
    args = ("simulate", SCOUT, "--round", "1", "--deck", str(deck), "--opponent", BLUE, "--runs", "20", "--seed", "1")
    code, out, _ = run(capsys, *args, "--format", "json")
    assert code == 0
    goods = json.loads(out)["by_card_type"]["planets"]["expected_goods_value"]
    assert goods > 0
    code, out, _ = run(capsys, *args)
    assert code == 0
    header = next(ln for ln in out.splitlines() if ln.strip().startswith("card") and "goods" in ln).split()
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("planets")).split()
    assert float(row[header.index("goods")]) == pytest.approx(goods, abs=0.005)


def test_round_counts_provisional_values_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # a level-II round rests on several provisional values: one line counts them, --notes lists them,
    # JSON keeps them all; cautions (the default field) are printed in full either way
    ship = str(ROOT / "examples" / "class-II-freighter.toml")
    args = ("simulate", ship, "--round", "2", "--runs", "40", "--seed", "3")
    code, out, _ = run(capsys, *args, "--format", "json")
    kept = [n for n in json.loads(out)["notes"] if "provisional" in n]
    assert code == 0 and len(kept) >= 2
    code, out, _ = run(capsys, *args)
    lines = [x for x in out.splitlines() if x.startswith("note:")]
    assert code == 0 and f"note: {len(kept)} values are provisional: `--notes` lists them" in lines
    assert not any(x.startswith("note: provisional") for x in lines)
    assert "note: opponents: the default class II field (Trader II, Racer II, Fighter II)" in lines
    code, listed, _ = run(capsys, *args, "--notes")
    assert code == 0 and "`--notes` lists" not in listed
    assert sum(x.startswith("note:") and "provisional" in x for x in listed.splitlines()) >= len(kept) - 1
    code, out, _ = run(capsys, *args, "--notes", "--quiet")
    assert code == 0 and "note:" not in out
