"""Every command's text fits the terminal (COLUMNS, default 80): tables drop their lesser columns
or fold, long lines wrap with an indent, drawings use narrower squares; help too. Notes come one
line per provisional value naming its ships, and -q/--quiet hides them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from clikit import run

from shipcheck.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
BLUE = str(ROOT / "examples" / "blue-round1.toml")
SCOUT = str(ROOT / "examples" / "class-I-scout.toml")
FREIGHTER = str(ROOT / "examples" / "class-II-freighter.toml")
HAULER = str(ROOT / "examples" / "class-III-hauler.toml")
HALF = str(ROOT / "examples" / "building" / "class-III-half.toml")
START = str(ROOT / "examples" / "building" / "class-I-start.toml")
BLOCKED = str(ROOT / "examples" / "mistakes" / "cannon-blocked.toml")

# every command with text output, with its widest cases (class III drawings, long tables)
CASES: dict[str, list[str]] = {
    "show": ["show", HAULER],
    "check": ["check", HAULER],
    "check many": ["check", str(ROOT / "examples")],
    "fix": ["fix", BLOCKED, "--keep", "6,6", "--alternatives", "2"],
    "place": ["place", HALF, "shield:1111", "--no-credits"],
    "place credits": ["place", START, "cannon:0111", "--no-exact", "--runs", "20", "--seed", "1"],
    "rules": ["rules"],
    "rules C3": ["rules", "C3"],
    "stats": ["stats", HAULER],
    "odds": ["odds", HAULER, "--card", "III-10"],
    "odds fight": ["odds", SCOUT, "--card", "I-03", "--card", "I-16", "--assume-weakest"],
    "simulate": ["simulate", FREIGHTER, "--card", "II-09", "--runs", "500", "--seed", "1"],
    "simulate round": ["simulate", FREIGHTER, "--round", "2", "--runs", "50", "--seed", "1"],
    "report": ["report", BLUE, "--runs", "20", "--no-advice", "--seed", "1"],
    "tiles": ["tiles"],
    "tiles id": ["tiles", "--id", "2007:5"],
    "boards": ["boards"],
    "cards": ["cards"],
    "new": ["new", "--class", "IVC"],
    # the hauler without its [meta] note (see `designed`): class III drawn, no starting ships to build
    "design": ["design", "--from", "hauler.toml", "--seed", "1", "--budget", "4", "--plot"],
}


@pytest.fixture(scope="module")
def blue_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path, list[Path]]:
    """The report case (`shipcheck report BLUE --runs 20 --no-advice --seed 1`), computed once: every
    width, loud and quiet, renders it (`shipcheck.cli.reporting.say`). The text names the folder and
    counts the files it holds, so the files are named (``file_names``), not drawn."""
    import shipcheck
    from shipcheck.report.output import file_names

    assert CASES["report"] == NOTED["report"] == ["report", BLUE, "--runs", "20", "--no-advice", "--seed", "1"]
    rep = shipcheck.report(BLUE, runs=20, seed=1, recommendations=False)
    folder = tmp_path_factory.mktemp("report") / "r"
    return rep, folder, [folder / n for n in file_names(rep)]


@pytest.fixture(scope="module")
def designed(tmp_path_factory: pytest.TempPathFactory) -> object:
    """The design case (`shipcheck design --from hauler.toml --seed 1 --budget 4 --plot`), searched
    once: every width draws its text (`shipcheck.cli.designing`) from the one result. The hauler is
    full, so no search builds starting ships on the class III board; its [meta] note, a line that
    would be printed as it stands, is left out."""
    from shipcheck.design import design

    assert CASES["design"] == ["design", "--from", "hauler.toml", "--seed", "1", "--budget", "4", "--plot"]
    hauler = tmp_path_factory.mktemp("design") / "hauler.toml"
    hauler.write_text(Path(HAULER).read_text(encoding="utf-8").split("[meta]")[0], encoding="utf-8")
    return design(start=hauler, seed=1, budget=4)


@pytest.fixture
def command(capsys: pytest.CaptureFixture[str], request: pytest.FixtureRequest) -> Callable[..., tuple[int, str, str]]:
    """``command(case, *args)``: the exit code, stdout and stderr of the case's command; the report
    and design cases' text is said of the one report (:func:`blue_report`) or design
    (:func:`designed`) rather than computed again."""
    def out(case: str, *args: str) -> tuple[int, str, str]:
        if case == "design":
            from shipcheck.cli.designing import _text

            capsys.readouterr()
            _text(request.getfixturevalue("designed"), None, "--plot" in args, "--quiet" in args)
            got = capsys.readouterr()
            return 0, got.out, got.err
        if case != "report":
            return run(capsys, *args)
        from shipcheck.cli.reporting import say

        capsys.readouterr()
        rep, folder, written = request.getfixturevalue("blue_report")  # (made on the first report case)
        if "--out" in args:  # the folder the command would name
            folder = Path(args[args.index("--out") + 1])
        say(rep, folder, written, quiet="--quiet" in args)  # type: ignore[arg-type]
        got = capsys.readouterr()
        return 0, got.out, got.err

    return out


def test_every_command_has_a_width_case() -> None:
    # schema prints JSON only; serve prints one line, its address, and serves until stopped
    # (compile prints one line, or a bar on a terminal)
    assert {c.split()[0] for c in CASES} | {"schema", "serve", "compile"} == set(COMMANDS)


@pytest.mark.parametrize("columns", [60, 80, 120])
@pytest.mark.parametrize("case", sorted(CASES))
def test_text_fits_the_terminal(case: str, columns: int, command: Callable[..., tuple[int, str, str]],
                                monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("NO_COLOR", "1")
    args = CASES[case] + (["--out", str(tmp_path / "r")] if case == "report" else [])
    code, out, err = command(case, *args)
    assert code in (0, 1) and out.strip(), err
    # `new` prints a file to keep: its lines fit 80 columns whatever the terminal
    limit = 80 if case == "new" else columns
    wide = [line for line in out.splitlines() if len(line) > limit]
    assert not wide, f"{len(wide)} lines wider than {limit}: {wide[:2]}"


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("args", [["boards"], ["tiles", "--sides", "1311", "--any-rotation"], ["cards"],
                                  ["tiles", "--edition", "2021", "--kind", "special_cargo"], ["rules"]])
def test_tables_cut_no_word(args: list[str], columns: int, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    # a narrow table wraps its cells between words; it never cuts one short with an ellipsis
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run(capsys, *args)
    assert code == 0 and "…" not in out, [x for x in out.splitlines() if "…" in x][:3]
    head = next(x for x in out.splitlines() if x.split()[:1] in (["id"], ["name"], ["code"]))
    assert head.split()[-1] in ("topology", "rot", "details", "attributes", "summary"), head  # no column cropped


def test_without_columns_the_width_is_80(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    _, out, _ = run(capsys, "place", HALF, "shield:1111", "--no-credits")
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize("columns", [60, 80, 120])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_fits_the_terminal(command: str, columns: int, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= columns


def test_the_place_table_keeps_its_main_columns(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def head(columns: int) -> list[str]:
        monkeypatch.setenv("COLUMNS", str(columns))
        _, out, _ = run(capsys, "place", START, "cannon:0111", "--no-exact", "--runs", "20", "--seed", "1")
        line = next(x for x in out.splitlines() if x.startswith("rank"))
        return line.replace("95% interval", "95%-interval").replace("shields / exposes", "shields").split()

    narrow, wide = head(60), head(200)
    assert narrow[:4] == ["rank", "square", "rot", "value"] and set(narrow) < set(wide)
    assert {"credits", "cells", "cargo", "crew", "score", "room", "95%-interval"} <= set(wide)


def test_folded_lines_keep_every_word(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def policy(columns: int) -> list[str]:
        monkeypatch.setenv("COLUMNS", str(columns))
        _, out, _ = run(capsys, "odds", FREIGHTER, "--card", "II-09")
        lines = out.split("policy:", 1)[1].splitlines()
        para = [lines[0]]
        k = 1
        while k < len(lines) and lines[k].startswith("  ") and not lines[k].startswith("   "):
            para.append(lines[k])
            k += 1
        return para

    monkeypatch.setenv("NO_COLOR", "1")
    wide, narrow = policy(300), policy(60)
    assert len(wide) == 1 and len(narrow) > 1
    assert " ".join(narrow).split() == wide[0].split()  # words move between lines, none is lost


def test_a_fold_never_parts_a_number_from_its_unit_or_a_seed_from_its_number() -> None:
    from shipcheck.cli._common import fold

    line = "lost: 2.492 components; place: gave up: 7 %, #1: 12 %, #2: 25 %; seed 1082876498542913 (repeat)"
    for w in range(30, len(line)):
        lines = fold(line, w)
        assert " ".join(" ".join(lines).split()) == line
        assert not any(x.strip() in ("%", "seed") or x.endswith((" seed", "seed")) or x.lstrip().startswith("%")
                       for x in lines), (w, lines)


# -- notes ----------------------------------------------------------------------------------------
NOTED = {
    "simulate round": ["simulate", FREIGHTER, "--round", "2", "--runs", "20", "--seed", "1"],
    "place": ["place", str(ROOT / "examples" / "mistakes" / "loose-piece.toml"), "shield:1111", "--no-credits",
              "--no-exact"],
    "report": ["report", BLUE, "--runs", "20", "--no-advice", "--seed", "1"],
    "check": ["check", str(ROOT / "examples" / "class-IIA-twins.toml")],
    "odds": ["odds", str(ROOT / "examples" / "mistakes" / "loose-piece.toml"), "--card", "I-09"],
    "stats": ["stats", str(ROOT / "examples" / "class-IIA-twins.toml")],
}


@pytest.mark.parametrize("case", sorted(NOTED))
def test_quiet_hides_the_notes(case: str, command: Callable[..., tuple[int, str, str]],
                               monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    args = NOTED[case] + (["--out", str(tmp_path / "r")] if case == "report" else [])
    _, loud, _ = command(case, *args)
    _, quiet, _ = command(case, *args, "--quiet")
    assert "note:" in loud and "note:" not in quiet
    def rest(out: str) -> list[str]:
        return [x for x in out.splitlines() if x.strip() and not x.startswith(("note:", "  "))]

    assert rest(loud) == rest(quiet)


def test_round_notes_name_the_ships_once(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    code, out, _ = run(capsys, "simulate", FREIGHTER, "--round", "2", "--runs", "20", "--seed", "1", "--notes")
    notes = [x for x in out.splitlines() if x.startswith("note:")]
    assert code == 0 and len(notes) == len(set(notes))
    caps = [x for x in notes if "cap" in x]
    assert len(caps) == 1 and caps[0].endswith("(for every ship)")
