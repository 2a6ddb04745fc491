"""`shipcheck new` and `shipcheck schema`: a starter ship of every class passes `check`, and the
schema command prints the packaged schemas."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from clikit import run
from test_schema import SHIP, errors

from shipcheck.rules import check
from shipcheck.schema import schema_text
from shipcheck.shipfile import load_ship
from shipcheck.starter import starter_classes


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
