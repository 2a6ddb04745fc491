"""The command line: exit codes, the JSON keys of the contract, and the shipped examples."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from clikit import run

from shipcheck.cards import load_cards
from shipcheck.check.rules import RULES, check
from shipcheck.shipfile import dump_ship, load_ship, parse_ship

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
LEGAL = sorted(EXAMPLES.glob("*.toml"))
MISTAKES = sorted((EXAMPLES / "mistakes").glob("*.toml"))
BLUE = EXAMPLES / "blue-round1.toml"
CHECK_KEYS = {"ship", "class", "legal", "exposed_connectors", "violations"}
VIOLATION_KEYS = {"code", "name", "severity", "cells", "message"}
BOARD_KEYS = {"name", "level", "dice", "columns", "rows", "cells", "max_penalty", "verified"}
ALL_BOARDS = {"I", "II", "III", "IIIa", "II-2021", "IA", "IIA", "IC", "IIC", "IIIC", "IVC"}


def expected_code(path: Path) -> str:
    m = re.search(r"^# expect: ([A-Z]\d)", path.read_text(encoding="utf-8"), re.M)
    assert m, f"{path.name} has no '# expect: CODE' comment"
    return m.group(1)


# -- the app --------------------------------------------------------------------------------------
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert re.match(r"shipcheck \d+\.\d+", out)


@pytest.mark.parametrize("args", [["--bogus"], ["check", "--bogus", str(BLUE)], ["check"],
                                  ["check", str(BLUE), "--format", "yaml"], ["nosuchcommand"], []])
def test_usage_errors_exit_2_without_traceback(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert "Traceback" not in out + err
    assert err.strip() if args else (out + err).strip()  # no arguments at all: the help


@pytest.mark.parametrize("command", ["show", "check", "fix", "rules", "tiles", "boards", "cards"])
def test_every_command_has_help_with_an_example(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert "shipcheck " + command in out.replace("\n", " ")


# -- show -----------------------------------------------------------------------------------------
def test_show_draws_labels_and_header(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the header on one line
    code, out, _ = run(capsys, "show", str(BLUE))
    assert code == 0
    lines = out.splitlines()
    assert "class I" in lines[0] and "2007" in lines[0] and "16 tiles" in lines[0]
    assert re.search(r"5\s+6\s+7\s+8\s+9", lines[1])
    assert "PIL" in out and "ENG" in out and "CAN" in out
    assert "legend" in out


def test_show_warns_about_provisional_boards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", str(EXAMPLES / "class-IIC-seamrunner.toml"))
    assert code == 0
    assert "provisional" in out
    assert "¦" in out  # the seam


# -- check ----------------------------------------------------------------------------------------
def test_check_legal_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(BLUE))
    assert code == 0
    assert "legal: 0 errors" in out


def test_check_illegal_text_marks_squares(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLES / "mistakes" / "cannon-blocked.toml"))
    assert code == 1
    assert "K1 cannon-blocked" in out
    assert "(6,6) (7,6)" in out
    assert "ILLEGAL: 1 error" in out
    assert out.count("K1") >= 3  # two marked squares and the violation line


def test_check_json_single_file_is_the_contract_object(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "mistakes" / "single-vs-double.toml")
    code, out, _ = run(capsys, "check", path, "--format", "json")
    assert code == 1
    obj = json.loads(out)
    assert CHECK_KEYS <= set(obj)
    assert obj["ship"] == path
    assert obj["class"] == "I"
    assert obj["legal"] is False
    assert isinstance(obj["exposed_connectors"], int)
    for v in obj["violations"]:
        assert VIOLATION_KEYS <= set(v)
        assert all(isinstance(c, list) and len(c) == 2 for c in v["cells"])
    c2 = [v for v in obj["violations"] if v["code"] == "C2"]
    assert c2 and c2[0]["name"] == "single-vs-double" and c2[0]["severity"] == "error"
    assert [8, 7] in c2[0]["cells"]


def test_check_json_index_cells_on_iic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "c3.toml"
    p.write_text(RULES["C3"].bad, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(p), "--format", "json")
    assert code == 1
    obj = json.loads(out)
    c3 = next(v for v in obj["violations"] if v["code"] == "C3")
    assert c3["cells"] == [{"col": 1, "row": 2}, {"col": 2, "row": 2}]


def test_check_several_files_gives_a_list(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(BLUE), str(EXAMPLES / "mistakes" / "loose-piece.toml")]
    code, out, _ = run(capsys, "check", *files, "--format", "json")
    assert code == 1
    objs = json.loads(out)
    assert [o["ship"] for o in objs] == files
    assert [o["legal"] for o in objs] == [True, False]


def test_check_directory_gives_a_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLES / "mistakes"), "--format", "json")
    assert code == 1
    objs = json.loads(out)
    assert isinstance(objs, list) and len(objs) == len(MISTAKES)
    assert all(CHECK_KEYS <= set(o) for o in objs)


def test_check_directory_skips_board_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "tiny.toml").write_text(
        'format = 1\nname = "tiny"\ncolumns = [1, 2]\nrows = [1]\ncells = ["S#"]\n', encoding="utf-8")
    (tmp_path / "ship.toml").write_text('format = 1\nboard = "boards/tiny.toml"\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", str(tmp_path), "--format", "json")
    assert code == 0
    objs = json.loads(out)
    assert len(objs) == 1 and objs[0]["class"] == "tiny"


def test_check_select_and_ignore(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "mistakes" / "single-vs-double.toml")
    _, out, _ = run(capsys, "check", path, "--format", "json", "--select", "C2")
    assert {v["code"] for v in json.loads(out)["violations"]} == {"C2"}
    code, out, _ = run(capsys, "check", path, "--format", "json", "--ignore", "C2,S1")
    assert json.loads(out)["violations"] == [] and code == 0
    code, _, err = run(capsys, "check", path, "--select", "Z9")
    assert code == 2 and "Z9" in err


# -- the examples ---------------------------------------------------------------------------------
@pytest.mark.parametrize("path", LEGAL, ids=[p.stem for p in LEGAL])
def test_example_is_legal_and_clean(path: Path) -> None:
    report = check(load_ship(path))
    assert report.legal, [v.message for v in report.violations]
    assert not report.warnings, [v.message for v in report.warnings]


@pytest.mark.parametrize("path", LEGAL, ids=[p.stem for p in LEGAL])
def test_example_uses_catalogue_tiles_once(path: Path) -> None:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    ids = [t["id"] for t in doc.get("tile", []) if "id" in t]
    assert len(ids) == len(set(ids))
    assert all("kind" not in t for t in doc.get("tile", []))  # real catalogue tiles only


def test_examples_cover_every_class() -> None:
    classes = {load_ship(p).board.name for p in LEGAL}
    assert {"I", "II", "III", "IIIa", "IA", "IIA", "IIC", "IIIC", "IVC"} <= classes


@pytest.mark.parametrize("path", MISTAKES, ids=[p.stem for p in MISTAKES])
def test_mistake_is_illegal_with_its_code(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    want = expected_code(path)
    report = check(load_ship(path))
    assert not report.legal
    assert want in {v.code for v in report.violations}
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1 and want in out


@pytest.mark.parametrize("path", LEGAL + MISTAKES, ids=[p.stem for p in LEGAL + MISTAKES])
def test_round_trip(path: Path) -> None:
    ship = load_ship(path)
    assert parse_ship(dump_ship(ship), base_dir=path.parent) == ship


# -- fix ------------------------------------------------------------------------------------------
def test_fix_loose_piece_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "mistakes" / "loose-piece.toml")
    code, out, _ = run(capsys, "fix", path, "--format", "json")
    assert code == 0
    obj = json.loads(out)
    assert {"ship", "legal_before", "lost", "removed", "kept"} <= set(obj)
    assert obj["ship"] == path and obj["legal_before"] is False
    assert obj["lost"] == 1 and obj["removed"] == [[9, 9]] and obj["kept"] == 16


def test_fix_text_and_write(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_path = tmp_path / "fixed.toml"
    code, out, _ = run(capsys, "fix", str(EXAMPLES / "mistakes" / "single-vs-double.toml"), "--write", str(out_path))
    assert code == 0
    assert "take off" in out and "C2" in out
    fixed = load_ship(out_path)
    assert check(fixed).legal
    # refuses to overwrite, then overwrites with --force
    code, _, err = run(capsys, "fix", str(BLUE), "--write", str(out_path))
    assert code == 2 and "exists" in err
    code, _, _ = run(capsys, "fix", str(BLUE), "--write", str(out_path), "--force")
    assert code == 0
    assert load_ship(out_path).tiles == load_ship(BLUE).tiles


def test_fix_write_rebases_board_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "tiny.toml").write_text(
        'format = 1\nname = "tiny"\ncolumns = [1, 2, 3]\nrows = [1, 2]\ncells = ["#S#", "###"]\n', encoding="utf-8")
    ship = tmp_path / "ship.toml"
    ship.write_text('format = 1\nboard = "boards/tiny.toml"\n\n[[tile]]\nat = [1, 2]\nkind = "cargo"\n'
                    'sides = "0000"\nslots = 2\n', encoding="utf-8")
    out_path = tmp_path / "out" / "deeper" / "fixed.toml"
    out_path.parent.mkdir(parents=True)
    code, _, err = run(capsys, "fix", str(ship), "--write", str(out_path))
    assert code == 0, err
    fixed = load_ship(out_path)
    assert fixed.board.name == "tiny" and len([t for t in fixed.tiles if not t.implied]) == 0
    assert check(fixed).legal


def test_fix_impossible_exits_1_and_writes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "b2.toml"
    bad.write_text(RULES["B2"].bad, encoding="utf-8")
    out_path = tmp_path / "fixed.toml"
    code, out, _ = run(capsys, "fix", str(bad), "--write", str(out_path))
    assert code == 1
    assert not out_path.exists()
    assert "cannot be fixed" in out


# -- rules ----------------------------------------------------------------------------------------
def test_rules_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for c in RULES:
        assert c in out
    code, out, _ = run(capsys, "rules", "--format", "json")
    objs = json.loads(out)
    assert [o["code"] for o in objs] == list(RULES)
    assert all({"code", "name", "severity", "summary"} <= set(o) for o in objs)


@pytest.mark.parametrize("code", list(RULES))
def test_rules_code_explains_with_examples(capsys: pytest.CaptureFixture[str], code: str) -> None:
    rc, out, _ = run(capsys, "rules", code.lower())
    assert rc == 0
    assert out.startswith(f"{code} {RULES[code].name}")
    assert "Bad ship" in out and "Good ship" in out and "format = 1" in out
    rc, out, _ = run(capsys, "rules", code, "--format", "json")
    obj = json.loads(out)
    assert code in {v["code"] for v in obj["bad_report"]["violations"]}
    assert code not in {v["code"] for v in obj["good_report"]["violations"]}


def test_rules_unknown_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rules", "Z9")
    assert code == 2 and "Z9" in err


# -- tiles, boards, cards -------------------------------------------------------------------------
@pytest.mark.parametrize(("edition", "count"), [("2007", 144), ("2021", 156)])
def test_tiles_json(capsys: pytest.CaptureFixture[str], edition: str, count: int) -> None:
    code, out, _ = run(capsys, "tiles", "--edition", edition, "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == count
    assert rows[0]["id"].startswith(f"{edition}:")
    assert all({"id", "kind", "sides"} <= set(r) for r in rows)


def test_tiles_kind_filter_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tiles", "--kind", "engine", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and rows and {r["kind"] for r in rows} == {"engine"}
    assert {"id": "2007:64", "kind": "engine", "sides": "0300"} in rows
    code, out, _ = run(capsys, "tiles", "--kind", "battery")
    assert code == 0 and "cells=3" in out
    code, _, err = run(capsys, "tiles", "--kind", "warp_drive")
    assert code == 2 and "warp_drive" in err


def test_boards_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "boards", "--format", "json")
    assert code == 0
    objs = json.loads(out)
    assert {o["name"] for o in objs} == ALL_BOARDS
    for o in objs:
        assert BOARD_KEYS <= set(o)
    by = {o["name"]: o for o in objs}
    assert by["I"]["columns"] == [5, 6, 7, 8, 9] and by["I"]["max_penalty"] == 5 and by["I"]["verified"]
    assert by["IA"]["verified"] is False


def test_boards_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "boards")
    assert code == 0
    for name in ALL_BOARDS:
        assert name in out
    assert "(provisional)" in out


def test_cards(capsys: pytest.CaptureFixture[str]) -> None:
    all_cards = load_cards("2007")
    code, out, _ = run(capsys, "cards", "--format", "json")
    assert code == 0
    assert len(json.loads(out)) == len(all_cards)
    code, out, _ = run(capsys, "cards", "--level", "1", "--type", "meteor_swarm", "--format", "json")
    objs = json.loads(out)
    assert code == 0 and all(o["level"] == 1 and o["type"] == "meteor_swarm" for o in objs)
    code, out, _ = run(capsys, "cards", "--level", "2")
    assert code == 0 and "cards" in out
    code, _, err = run(capsys, "cards", "--type", "space_kraken")
    assert code == 2 and "space_kraken" in err


# -- error lines fit the terminal -------------------------------------------------------------------
@pytest.mark.parametrize("columns", [50, 80])
def test_error_lines_fold_to_the_terminal(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    # a misspelt kind says where the kinds are listed (not all 23 on one line), folded to the width
    monkeypatch.setenv("COLUMNS", str(columns))
    bad = tmp_path / "kind.toml"
    bad.write_text('format = 1\nclass = "I"\n[[tile]]\nat = [7, 7]\nkind = "cabbin"\nsides = "3333"\n',
                   encoding="utf-8")
    for args in (("check", str(bad)), ("show", str(bad)), ("tiles", "--kind", "cabbin")):
        code, _, err = run(capsys, *args)
        lines = err.splitlines()
        assert code == 2 and lines[0].startswith("shipcheck: error:") and len(lines) >= 2
        assert all(len(x) <= columns for x in lines) and all(x.startswith("  ") for x in lines[1:])
        text = " ".join(x.strip() for x in lines)
        assert "`shipcheck tiles --kinds`" in text and "did you mean `cabin`?" in text
        assert "stasis_chamber" not in text


def test_tiles_lists_the_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    from shipcheck.model import KINDS

    code, out, _ = run(capsys, "tiles", "--kinds", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and [r["kind"] for r in rows] == list(KINDS)
    assert {r["kind"]: r["copies"] for r in rows}["cannon"] == 23  # the 2007 catalogue (rules.md §2.2)
    code, out, _ = run(capsys, "tiles", "--kinds")
    assert code == 0 and all(k in out for k in KINDS)


def test_error_lines_stay_whole_for_scripts(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # stderr read by a script (no terminal, no COLUMNS): one line per error, for grep
    monkeypatch.delenv("COLUMNS", raising=False)
    code, _, err = run(capsys, "tiles", "--kind", "cabbin")
    assert code == 2 and len(err.splitlines()) == 1 and len(err) < 200


@pytest.mark.parametrize("columns", [50, 80, 120])
def test_top_help_never_cuts_inside_a_parenthesis(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    from shipcheck.cli import COMMANDS

    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, _ = run(capsys, "--help")
    listed = out.split("Commands:", 1)[1].splitlines()
    rows = {x.split()[0]: x for x in listed if x.strip() and x.startswith("  ") and x.split()[0] in COMMANDS}
    assert code == 0 and set(rows) == set(COMMANDS)
    for line in rows.values():
        assert line.count("(") == line.count(")"), line
        assert len(line) <= columns and not line.rstrip(".").endswith(("e.g", "(")), line


# -- a ship on standard input -----------------------------------------------------------------------
def _piped(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("args", [["check", "-"], ["show", "-"], ["stats", "-"], ["odds", "-", "-a", "small-meteor:front"],
                                  ["fix", "-"], ["place", "-", "cannon:0111", "--no-credits", "--no-exact"]])
def test_a_ship_may_come_on_standard_input(args: list[str], capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    blue = EXAMPLES / "blue-round1.toml"
    fmt = [] if args[0] == "show" else ["--format", "json"]
    code, want, _ = run(capsys, *[str(blue) if a == "-" else a for a in args], *fmt)
    _piped(monkeypatch, blue.read_bytes())
    code_piped, got, err = run(capsys, *args, *fmt)
    assert code_piped == code == 0, err
    if fmt:
        assert got.replace('"-"', f'"{blue}"') == want  # the same answer, the ship named as given
    else:
        assert got.splitlines()[-10:] == want.splitlines()[-10:]  # the same drawing under its header


def test_standard_input_is_read_once_and_named_in_errors(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _piped(monkeypatch, b'format = 1\nclass = "I"\nrot = 45\n')
    code, _, err = run(capsys, "check", "-")
    assert code == 2 and "<stdin>:3:" in err and "key `rot`" in err
    _piped(monkeypatch, (EXAMPLES / "blue-round1.toml").read_bytes())
    code, _, err = run(capsys, "check", "-", "-")
    assert code == 2 and "read once" in err
    _piped(monkeypatch, b"\xff\xfe")
    code, _, err = run(capsys, "stats", "-")
    assert code == 2 and "<stdin>:1: ship file is not UTF-8 text" in err
    monkeypatch.chdir(tmp_path)
    _piped(monkeypatch, (EXAMPLES / "mistakes" / "cannon-blocked.toml").read_bytes())
    code, _, err = run(capsys, "fix", "-", "--write", "-")
    assert code == 2 and "--write" in err and not (tmp_path / "-").exists()
    _piped(monkeypatch, (EXAMPLES / "mistakes" / "cannon-blocked.toml").read_bytes())
    code, _, err = run(capsys, "fix", "-", "--write", "fixed.toml")
    assert code == 0 and run(capsys, "check", "fixed.toml")[0] == 0
