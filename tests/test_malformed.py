"""Bad input: every malformed file gives exit 2, one clear message on stderr, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import run

from shipcheck.errors import InputError
from shipcheck.shipfile import load_ship
from shipcheck.topology import load_board

ROOT = Path(__file__).resolve().parents[1]
MALFORMED = ROOT / "tests" / "malformed"
CASES = sorted(MALFORMED.glob("*.toml"))


def expected(case: Path) -> list[str]:
    text = case.with_suffix(".expect").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 25
    for case in CASES:
        assert case.with_suffix(".expect").is_file(), f"{case.name} has no .expect sidecar"


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_check_rejects_malformed_file(case: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(case))
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    assert err.startswith("shipcheck: error: ")
    lines = err.strip().splitlines()
    wants = expected(case)
    count = next((int(w.split(":")[1]) for w in wants if w.startswith("lines:")), 1)
    assert len(lines) == count, err  # every mistake of the file, one line each
    assert all(line.startswith("shipcheck: error: ") for line in lines)
    assert all(case.name in line or "boards/" in line for line in lines)  # each names the file
    for want in wants:
        if want.startswith("lines:"):
            continue
        if want.startswith("!"):  # must not be shown (a value from a file the user did not name)
            assert want[1:] not in err, f"{want[1:]!r} shown in {err!r}"
        else:
            assert want in err, f"{want!r} not in {err!r}"


@pytest.mark.parametrize("case", ["rot-45", "board-bad-cell", "bad-toml"])
def test_python_m_shipcheck_exits_2_without_traceback(case: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "shipcheck", "check", str(MALFORMED / f"{case}.toml")],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    for want in expected(MALFORMED / f"{case}.toml"):
        assert (want[1:] not in proc.stderr) if want.startswith("!") else (want in proc.stderr)


def test_several_files_report_every_bad_one(capsys: pytest.CaptureFixture[str]) -> None:
    a, b = MALFORMED / "rot-45.toml", MALFORMED / "unknown-kind.toml"
    good = ROOT / "examples" / "blue-round1.toml"
    code, out, err = run(capsys, "check", str(a), str(good), str(b), "--format", "json")
    assert code == 2
    assert "rot-45.toml" in err and "unknown-kind.toml" in err
    assert len(err.strip().splitlines()) == 2
    assert '"legal": true' in out  # the readable ship is still reported


@pytest.mark.parametrize(
    ("case", "key", "value", "line"),
    [
        ("rot-45", "rot", 45, 13),
        ("sides-31x2", "sides", "31x2", 12),
        ("unknown-top-key", "colour", "blue", 3),
        ("catalogue-id-unknown", "id", "2007:999", 11),
        ("two-tiles-one-square", "at", [8, 7], 15),
        ("front-without-choose-front", "front", "E", 3),
    ],
)
def test_library_raises_input_error_with_location(case: str, key: str, value: object, line: int) -> None:
    with pytest.raises(InputError) as ei:
        load_ship(MALFORMED / f"{case}.toml")
    exc = ei.value
    assert exc.file is not None and exc.file.endswith(f"{case}.toml")
    assert exc.key == key
    assert exc.value == value
    assert exc.line == line


def test_library_names_the_board_file_and_hides_its_values() -> None:
    with pytest.raises(InputError) as ei:
        load_ship(MALFORMED / "board-bad-cell.toml")
    assert ei.value.file is not None and ei.value.file.endswith("bad-cell.toml")
    assert ei.value.key == "cells"
    assert ei.value.value is None and ei.value.private  # a board reached through a ship
    with pytest.raises(InputError) as ei:
        load_board(MALFORMED / "boards" / "bad-cell.toml")  # a board named directly shows its values
    assert ei.value.value == "X"


@pytest.mark.parametrize(("columns", "rows", "key"), [
    ("[1, 2, 3]", "[5, 5, 5]", "rows"),                     # one label on three rows
    ("[[2, 3], [2, 4], [2, 5]]", "[5, 6, 7]", "columns"),  # a value in three list labels
])
def test_a_roll_hitting_three_lines_is_a_board_error_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 columns: str, rows: str, key: str) -> None:
    board = tmp_path / "b.toml"
    board.write_text(f'format = 1\nname = "X"\nlevel = 1\ndice = "2d6"\ncolumns = {columns}\nrows = {rows}\n'
                     'cells = ["###", "#S#", "###"]\n', encoding="utf-8")
    with pytest.raises(InputError) as ei:
        load_board(board)
    assert ei.value.key == key and ei.value.line == (5 if key == "columns" else 6)
    assert f"a label names more than 2 {key}" in ei.value.message
    (tmp_path / "s.toml").write_text('format = 1\nboard = "b.toml"\n', encoding="utf-8")
    code, _, err = run(capsys, "stats", str(tmp_path / "s.toml"))
    assert code == 2 and "Traceback" not in err and "b.toml:" in err
    # two lines a roll are a board's right (rows labelled twice hit both)
    board.write_text('format = 1\nname = "X"\nlevel = 1\ndice = "2d6"\ncolumns = [1, 2, 3]\nrows = [5, 5, 6]\n'
                     'cells = ["###", "#S#", "###"]\n', encoding="utf-8")
    assert load_board(board).rows == ((5,), (5,), (6,))


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", str(tmp_path / "nope.toml"))
    assert code == 2
    assert "nope.toml" in err and "cannot read" in err


def test_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "latin1.toml"
    p.write_bytes(b'format = 1\nclass = "I"\nname = "caf\xe9"\n')
    code, _, err = run(capsys, "check", str(p))
    assert code == 2
    assert "latin1.toml" in err and "Traceback" not in err
