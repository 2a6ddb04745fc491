"""Terminal manners: finding and drawing tiles, heat maps that never cut a number and tell 1 % from
50 %, one tile count everywhere, card levels, planets per planet, readable help, completion."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clikit import run

from shipcheck.render import HEAT, heat_style, heat_tag, render_ship
from shipcheck.shipfile import catalogue, parse_ship, rotated

ROOT = Path(__file__).resolve().parents[1]


# -- tiles --sides / --id -------------------------------------------------------------------------
def test_rotated_moves_each_side_clockwise() -> None:
    # a quarter turn: the printed N side now faces E, E faces S, ...
    assert [rotated("1230", k) for k in range(4)] == ["1230", "0123", "3012", "2301"]


@pytest.mark.parametrize("tid", ["2007:5", "2007:64", "2021:1"])
def test_tiles_sides_finds_a_known_tile_in_every_rotation(tid: str, capsys: pytest.CaptureFixture[str]) -> None:
    edition = tid.split(":")[0]
    printed = catalogue(edition)[tid].sides
    for rot in (0, 90, 180, 270):
        lying = rotated(printed, rot // 90)
        code, out, _ = run(capsys, "tiles", "--edition", edition, "--sides", lying, "--any-rotation", "--format", "json")
        assert code == 0
        hits = {r["id"]: r["rot"] for r in json.loads(out)}
        assert tid in hits
        # the rot given turns the printed tile into what lies on the table
        assert rotated(printed, hits[tid] // 90) == lying
        # a ship file with that id and rot shows exactly those connectors
        ship = parse_ship(f'format = 1\nclass = "I"\nedition = "{edition}"\n[[tile]]\nat = [8, 7]\n'
                          f'id = "{tid}"\nrot = {hits[tid]}\n')
        placed = next(t for t in ship.tiles if t.id == tid)
        assert "".join(map(str, placed.eff)) == lying


def test_tiles_sides_without_rotation_is_as_printed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tiles", "--sides", "1113", "--format", "json")
    assert code == 0 and all(r["sides"] == "1113" and r["rot"] == 0 for r in json.loads(out))
    code, out, _ = run(capsys, "tiles", "--sides", "1311")  # only 1113 tiles exist in 2007
    assert code == 0 and "0 tiles" in out and "--any-rotation" in out


@pytest.mark.parametrize("args", [["--sides", "12x3"], ["--sides", "11113"], ["--any-rotation"], ["--id", "2007:999"],
                                  ["--id", "1999:5"]])
def test_tiles_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tiles", *args)
    assert code == 2 and out == "" and err.startswith("shipcheck: error:")


def test_tiles_id_draws_the_tile_in_four_rotations(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run(capsys, "tiles", "--id", "2007:5")  # a battery, sides 1113 (universal W)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("2007:5: battery (BAT), sides 1113")
    assert [x for x in re.split(r"\s{2,}", lines[1].strip())] == ["rot 0", "rot 90", "rot 180", "rot 270"]
    mid = lines[3]
    assert mid.count("BAT") == 4
    # rot 0: universal (╬) on the W side; rot 180: on the E side
    west_east = re.findall(r"(\S) BAT (\S)", mid)
    assert west_east == [("╬", "─"), ("─", "─"), ("─", "╬"), ("─", "─")]
    assert lines[2].split() == ["│", "╬", "│", "│"]  # the N sides: universal at rot 90


# -- heat maps ------------------------------------------------------------------------------------
def test_heat_tags_never_cut_a_number() -> None:
    assert heat_tag(1.0) == "100" and heat_tag(0.999) == "99" and heat_tag(0.5) == "50"
    assert heat_tag(0.01) == "1" and heat_tag(0.001) == "<1"
    ship = parse_ship('format = 1\nclass = "I"\n')
    pilot = ship.tiles[0].at
    text = render_ship(ship, marks={pilot: heat_tag(1.0)}, color=False).plain
    assert "100" in text


def test_heat_colours_tell_one_percent_from_fifty() -> None:
    styles = [heat_style(p) for p in (0.01, 0.1, 0.3, 0.5, 0.9)]
    assert len(set(styles)) == 5 and styles == [st for _, st in HEAT]


def test_odds_draws_percentages_whole(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    # a lone pilot cabin: a large meteor from the front hits it on a 7 (6/36 = 17 %)
    path = ROOT / "examples" / "blue-round1.toml"
    code, out, _ = run(capsys, "odds", str(path), "--attack", "large-meteor:front")
    assert code == 0 and "% chance the component is lost" in out
    tags = re.findall(r"^\s*(\d+|<1)\s", out, re.M)
    assert tags  # the tags on the drawing are whole numbers


# -- counts, cards, help --------------------------------------------------------------------------
def test_one_tile_count_in_check_and_fix(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # headers on one line
    p = tmp_path / "s.toml"
    p.write_text('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nkind = "cargo"\nsides = "0001"\nslots = 2\n'
                 '[[tile]]\nat = [9, 9]\nkind = "cargo"\nsides = "1000"\nslots = 2\n', encoding="utf-8")
    _, check_out, _ = run(capsys, "check", str(p), "--no-draw")
    _, fix_out, _ = run(capsys, "fix", str(p))
    said = "2 tiles + the pilot cabin on the start square"
    assert said in check_out.splitlines()[0] and said in fix_out.splitlines()[0]
    assert "kept: 2 tiles (the pilot cabin on the start square among them)" in fix_out


def test_card_level_out_of_range_is_an_input_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "cards", "--level", "5")
    assert code == 2 and out == "" and "level 5" in err and "1, 2, 3" in err
    code, _, err = run(capsys, "cards", "--edition", "2021", "--level", "3")
    assert code == 2 and "1, 2" in err


def test_planets_grouped_per_planet(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "--type", "planets", "--format", "json")
    first = json.loads(out)[0]
    code, out, _ = run(capsys, "cards", "--type", "planets")
    flat = " ".join(out.split())
    groups = " | ".join(f"{n}: {', '.join(g)}" for n, g in enumerate(first["planets"], 1))
    assert code == 0 and f"planets {groups}" in flat


@pytest.mark.parametrize("command", ["show", "check", "fix", "rules", "stats", "odds", "simulate", "tiles", "boards",
                                     "cards", "new", "schema"])
def test_help_has_no_markup_accidents(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert "%%" not in out and "\\b" not in out and "[bold" not in out
    assert "INTEGER RANGE" not in out and "TEXT" not in out.split("Options:")[-1]


def test_shell_completion(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_SHIPCHECK_COMPLETE", "complete_bash")  # Typer: complete_<shell>
    monkeypatch.setenv("COMP_WORDS", "shipcheck ch")
    monkeypatch.setenv("COMP_CWORD", "1")
    code, out, _ = run(capsys, "ch")
    assert code == 0 and "check" in out.split()  # bash (Typer): one candidate a line


@pytest.mark.parametrize("width", [60, 80, 120])
def test_stats_fold_to_the_terminal_width(width: int) -> None:
    from shipcheck.flight.stats import render_stats, stats
    from shipcheck.shipfile import load_ship

    st = stats(load_ship(ROOT / "examples" / "class-III-hauler.toml"))
    folded = render_stats(st, width=width)
    assert max(len(ln) for ln in folded.splitlines()) <= width
    wide = render_stats(st)
    # folding moves words between lines, never changes or cuts them: "(10,8) 3/36" stays whole
    assert folded.split() == wide.split()
    assert re.findall(r"\(\d+,\d+\) \d+/36", " ".join(folded.split())) == re.findall(r"\(\d+,\d+\) \d+/36", wide)
