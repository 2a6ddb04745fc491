"""`shipcheck report`: the folder it writes, its default, and bad input (exit 2, no traceback)."""

from __future__ import annotations

import contextlib
import io
import json
import math
from pathlib import Path

import pytest
from clikit import run

from shipcheck.cli import main

ROOT = Path(__file__).resolve().parents[1]
BLUE = str(ROOT / "examples" / "blue-round1.toml")
SCOUT = str(ROOT / "examples" / "class-I-scout.toml")


def test_report_into_the_default_folder_says_its_seed(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "report", BLUE, "--runs", "20", "--seed", "7", "--no-advice")
    assert code == 0, err
    page = tmp_path / "reports" / "blue-round-1" / "index.html"
    assert page.is_file() and (page.parent / "ship.svg").is_file() and (page.parent / "heat-all.png").is_file()
    assert "Blue, round 1: legal" in out and "reports/blue-round-1/index.html" in out
    assert "seed 7 (repeat with --seed 7)" in " ".join(out.split())
    # a seed not given is random, and said as well: the second run of
    # test_report_refuses_to_overwrite_a_users_file has none


@pytest.fixture(scope="module")
def two_ships(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    """One run of `shipcheck report BLUE SCOUT --format json --rules RULES ...` (its stdout, its --out
    folder and the rules file): the two-ship test and the rules file's test read it, drawn once."""
    tmp = tmp_path_factory.mktemp("two-ships")
    rules = tmp / "rules.toml"
    rules.write_text('format = 1\n[round.1]\ntrack = 30\n[cards]\nepidemic = "joined"\n', encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as ei:
        main(["report", BLUE, SCOUT, "--out", str(tmp / "cmp"), "--format", "json", "--runs", "60", "--seed", "5",
              "--opponent", SCOUT, "--no-advice", "--rules", str(rules)])
    assert not ei.value.code, err.getvalue()
    return out.getvalue(), tmp / "cmp", rules


def test_report_takes_a_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   two_ships: tuple[str, Path, Path]) -> None:
    # the notes say "--rules FILE changes it": report takes it, as simulate --round does
    _, folder, rules = two_ships
    doc = json.loads((folder / "report.json").read_text())
    assert doc["settings"]["rules"] == str(rules)
    assert doc["ships"][0]["round"]["rules"]["track"] == 30
    bad = tmp_path / "rules.toml"
    bad.write_text("format = 1\n[round.1]\ntrack = 0\n", encoding="utf-8")
    code, out, err = run(capsys, "report", BLUE, "--runs", "20", "--no-advice", "--rules", str(bad),
                         "--out", str(tmp_path / "s"))
    assert code == 2 and "rules.toml:3" in err and "round.1.track" in err and not (tmp_path / "s").exists()


def test_report_json_and_two_ships(two_ships: tuple[str, Path, Path]) -> None:
    out, folder, _ = two_ships
    doc = json.loads(out)
    assert [s["ship"] for s in doc["ships"]] == [BLUE, SCOUT]
    assert doc["round"] == 1 and doc["out"] == str(folder)
    assert doc["settings"]["seed"] == 5 and doc["settings"]["runs"] == 60
    assert {"a-ship.png", "b-ship.png", "a-heat-all.svg", "a-credits.png", "b-field.svg", "index.html"} <= {
        Path(f).name for f in doc["files"]}
    assert doc["ships"][0]["recommendations"] is None
    assert 0 <= doc["ships"][0]["meteors"]["p_survive"] <= 1
    # both ships flew the same decks and dice: the comparison is the mean of the run-by-run differences
    a, b = (s["round"]["credits"]["mean"] for s in doc["ships"])
    assert doc["comparison"]["credits"] == pytest.approx(b - a)
    assert doc["ships"][0]["round"]["opponents"][0]["name"] == "Scout"


def test_report_refuses_to_overwrite_a_users_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # long temporary paths stay whole
    # a working folder holding the user's files: the report goes into a folder named after the ship,
    # and says so; the user's files are left as they were
    (tmp_path / "index.html").write_text("mine")
    (tmp_path / "notes.txt").write_text("also mine")
    code, out, err = run(capsys, "report", BLUE, "--out", str(tmp_path), "--runs", "20", "--no-advice")
    own = tmp_path / "blue-round-1"
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["blue-round-1", "index.html", "notes.txt"]
    assert (tmp_path / "index.html").read_text() == "mine" and (own / "index.html").is_file()
    assert f"holds other files (2): the report goes into its own folder {own}" in " ".join(out.split())
    assert f"open {own / 'index.html'}" in " ".join(out.split())
    # again: the report's own folder is rewritten in place; seeds are random unless given, and every
    # output says which: the text as well as the page
    code, out, _ = run(capsys, "report", BLUE, "--out", str(tmp_path), "--runs", "20", "--no-advice")
    assert code == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["blue-round-1", "index.html", "notes.txt"]
    seed = json.loads((own / "report.json").read_text())["settings"]["seed"]
    assert f"20 rounds a ship, seed {seed} (repeat with --seed {seed})" in " ".join(out.split())
    # a file of the user's in the way inside the report's folder: refused, nothing written
    (own / "index.html").write_text("mine too")
    code, out, err = run(capsys, "report", BLUE, "--out", str(tmp_path), "--runs", "20", "--no-advice")
    assert code == 2
    assert err.startswith("shipcheck: error: ") and "index.html" in err and len(err.splitlines()) == 1
    assert (own / "index.html").read_text() == "mine too"


@pytest.mark.parametrize("args,needle", [
    (["--round", "4"], "--round"),
    (["--round", "3", "--edition", "2021"], "round"),
    (["--edition", "1999"], "--edition"),
    (["--opponent", "nope.toml"], "nope.toml"),
    (["--deck", "nope.toml"], "nope.toml"),
    (["--runs", "0"], "--runs"),
])
def test_report_bad_options(capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], needle: str) -> None:
    code, _, err = run(capsys, "report", BLUE, "--out", str(tmp_path / "x"), *args)
    assert code == 2 and needle in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_report_of_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "report", str(tmp_path / "nope.toml"), "--out", str(tmp_path / "x"))
    assert code == 2 and "nope.toml" in err


def first_difference(got: object, want: object, where: str = "report.json") -> str | None:
    """Where two JSON documents differ (None when they agree): the same keys, lengths, strings and
    integers, and floats equal to 12 significant digits (a sum taken in another order changes the
    last bits of an interval, not the report)."""
    if isinstance(want, dict) and isinstance(got, dict):
        if list(got) != list(want):
            return f"{where}: keys {list(got)} != {list(want)}"
        return next((d for k in want if (d := first_difference(got[k], want[k], f"{where}.{k}"))), None)
    if isinstance(want, list) and isinstance(got, list):
        if len(got) != len(want):
            return f"{where}: {len(got)} items != {len(want)}"
        return next((d for i, (g, w) in enumerate(zip(got, want))
                     if (d := first_difference(g, w, f"{where}[{i}]"))), None)
    if isinstance(want, float) or isinstance(got, float):
        ok = isinstance(got, (int, float)) and isinstance(want, (int, float)) and not isinstance(got, bool) \
            and math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)
        return None if ok else f"{where}: {got!r} != {want!r}"
    return None if (type(got), got) == (type(want), want) else f"{where}: {got!r} != {want!r}"


def test_first_difference_sees_what_matters() -> None:
    doc = {"a": [1, 0.1 + 0.2, "x"], "b": {"c": True}}
    assert first_difference({"a": [1, 0.3, "x"], "b": {"c": True}}, doc) is None
    assert first_difference({"a": [1, 0.3001, "x"], "b": {"c": True}}, doc) == "report.json.a[1]: 0.3001 != 0.30000000000000004"
    assert first_difference({"a": [1, 0.3, "y"], "b": {"c": True}}, doc) == "report.json.a[2]: 'y' != 'x'"
    assert first_difference({"a": [1, 0.3, "x"], "b": {"c": 1}}, doc) == "report.json.b.c: 1 != True"
    assert first_difference({"a": [1, 0.3], "b": {}}, doc) == "report.json.a: 2 items != 3"


@pytest.mark.slow
def test_the_sample_report_is_current(monkeypatch: pytest.MonkeyPatch) -> None:
    """reports/freighter is what `shipcheck report examples/class-II-freighter.toml --seed 1 --out
    reports/freighter` writes today (docs/reports.md): same numbers, same files."""
    import shipcheck
    from shipcheck.report.output import read_manifest

    monkeypatch.chdir(ROOT)
    sample = ROOT / "reports" / "freighter"
    rep = shipcheck.report("examples/class-II-freighter.toml", seed=1)
    committed = json.loads((sample / "report.json").read_text(encoding="utf-8"))
    stale = first_difference(json.loads(json.dumps(rep.to_dict())), committed)
    assert stale is None, (
        f"the sample is stale at {stale}: shipcheck report examples/class-II-freighter.toml --seed 1 --out "
        "reports/freighter")
    names = {f"{k}.{ext}" for k in rep.figures() for ext in ("png", "svg")} | {"index.html", "report.json"}
    assert set(read_manifest(sample)) == names
    assert all((sample / n).is_file() for n in names)
