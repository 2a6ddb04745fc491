"""`shipcheck new` and `shipcheck schema`: a starter ship of every class passes `check`, and the
schema command prints the packaged schemas."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from clikit import run
from test_schema import SHIP, errors

from shipcheck.check.rules import check
from shipcheck.check.schema import schema_text
from shipcheck.check.starter import starter_classes
from shipcheck.shipfile import load_ship


@pytest.mark.parametrize(("cls", "edition"), starter_classes(), ids=lambda x: x)
def test_new_ship_passes_check(cls: str, edition: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = run(capsys, "new", "--class", cls, "--edition", edition, "--name", f'Test "{cls}"')
    assert code == 0, err
    path = tmp_path / "ship.toml"
    path.write_text(text, encoding="utf-8")
    ship = load_ship(path)
    assert ship.name == f'Test "{cls}"' and ship.edition == edition
    report = check(ship)
    assert report.legal and not report.violations
    assert len([t for t in ship.tiles if not t.implied]) == 5  # pilot cabin, cannon, engine, cabin, battery
    assert text.count("\n# ") >= 5  # it is commented
    assert errors(SHIP, tomllib.loads(text)) == []
    code, out, _ = run(capsys, "check", str(path), "--no-draw")
    assert code == 0 and "legal" in out


def test_new_rejects_an_unknown_class(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "new", "--class", "V")
    assert code == 2 and out == "" and "--class" in err


@pytest.mark.parametrize("which", ["ship", "board"])
def test_schema_command_prints_the_packaged_schema(which: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", which)
    assert code == 0
    assert out == schema_text(which)
    assert json.loads(out)["title"].startswith(f"shipcheck {which} file")


# -- a starter that builds ------------------------------------------------------------------------
@pytest.mark.parametrize(("cls", "edition"), starter_classes(), ids=lambda x: x)
def test_new_then_place_finds_squares(cls: str, edition: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    _, text, _ = run(capsys, "new", "--class", cls, "--edition", edition)
    path = tmp_path / "ship.toml"
    path.write_text(text, encoding="utf-8")
    assert check(load_ship(path)).exposed_connectors > 0  # open connectors to build on
    for tile in ("cannon:0111", "shield:1111", "battery:1113:cells=2", "double_cannon:0222", "structural:1111"):
        code, out, err = run(capsys, "place", str(path), tile, "--no-credits", "--no-exact", "--format", "json")
        assert code == 0, err
        doc = json.loads(out)
        assert doc["placements"] and not doc["set_aside"], (cls, tile, doc["reason"])


def _ship(tmp_path: Path, tiles: str) -> str:
    path = tmp_path / "s.toml"
    path.write_text('format = 1\nclass = "I"\n' + tiles, encoding="utf-8")
    return str(path)


def _tile(at: tuple[int, int], kind: str, sides: str) -> str:
    return f'[[tile]]\nat = [{at[0]}, {at[1]}]\nkind = "{kind}"\nsides = "{sides}"\n'


@pytest.mark.parametrize("tiles,tile,why", [
    # every outer side smooth
    (_tile((7, 7), "start_cabin", "0000"), "shield:1111", "the ship has no open connector"),
    # a double connector open; the tile has single ones only
    (_tile((7, 7), "start_cabin", "2000"), "cannon:0111",
     "no open connector of a type the tile joins: the ship's are double, the tile's single"),
    # the one open connector faces the square in front of a cannon's barrel
    (_tile((7, 7), "start_cabin", "0130") + _tile((7, 8), "engine", "3300") + _tile((8, 8), "cannon", "0003"),
     "shield:1111", "every square beside an open connector ((8,7)) is in front of a barrel or behind an exhaust"),
])
def test_place_says_why_nothing_fits(tiles: str, tile: str, why: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = _ship(tmp_path, tiles)
    code, out, _ = run(capsys, "place", path, tile, "--no-credits", "--no-exact", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["placements"] == [] and doc["set_aside"]
    assert why in doc["reason"], doc["reason"]
    code, out, _ = run(capsys, "place", path, tile, "--no-credits", "--no-exact")
    assert why in " ".join(out.split())
