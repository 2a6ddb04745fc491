"""One command line: every short flag means one option in every command, the same defaults and the
same checks of --round, --runs and --seed everywhere, and the flag table in docs/cli.md is the one
the commands use."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clikit import run

from shipcheck.cli import COMMANDS, build, cli
from shipcheck.cli._options import SHORT_FLAGS

ROOT = Path(__file__).resolve().parents[1]
SCOUT = str(ROOT / "examples" / "class-I-scout.toml")
START = str(ROOT / "examples" / "building" / "class-I-start.toml")


def options(name: str) -> list[tuple[list[str], list[str]]]:
    """(long names, short names) of each option of a command, --help included."""
    import typer

    cmd = build(name)
    ctx = typer.Context(cmd, info_name=name)
    out = []
    for p in cmd.get_params(ctx):
        if p.param_type_name != "option":
            continue
        names = [*p.opts, *p.secondary_opts]
        out.append(([n for n in names if n.startswith("--")], [n for n in names if not n.startswith("--")]))
    return out


def test_every_short_flag_means_one_option_in_every_command() -> None:
    seen: dict[str, set[str]] = {}
    for name in COMMANDS:
        for longs, shorts in options(name):
            for short in shorts:
                seen.setdefault(short, set()).update(longs)
    clashes = {s: sorted(ls) for s, ls in seen.items() if len(ls) > 1}
    assert not clashes, f"short flags with more than one meaning: {clashes}"
    # and each is the table's meaning (the table in shipcheck.cli._options, listed in docs/cli.md)
    for short, longs in seen.items():
        assert short in SHORT_FLAGS, f"{short} ({longs}) is not in the flag table"
        assert longs == {SHORT_FLAGS[short]}, (short, longs)


def test_the_root_options_follow_the_table() -> None:
    import typer

    ctx = typer.Context(cli, info_name="shipcheck")
    for p in cli.get_params(ctx):
        for short in [n for n in [*p.opts, *p.secondary_opts] if not n.startswith("--")]:
            assert SHORT_FLAGS[short] in p.opts


def test_docs_list_the_flag_table() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(-\w)` \| `(--[\w-]+)` \|", text, re.M))
    assert rows == SHORT_FLAGS


def test_every_command_is_documented_in_the_cli_reference() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f"`shipcheck {name}" in text, name


# -- the same checks of --round, --runs, --seed everywhere -------------------------------------------
WITH_ROUND = {
    "simulate": [SCOUT],
    "place": [START, "cannon:0111", "--no-exact", "--no-credits"],
    "report": [SCOUT, "--no-advice", "--out", "/nonexistent-dir/never-written"],
}
WITH_RUNS = {**WITH_ROUND, "simulate": [SCOUT, "--card", "I-09"]}


@pytest.mark.parametrize("name", sorted(WITH_ROUND))
@pytest.mark.parametrize("value", ["4", "0", "three", "3b"])
def test_round_is_checked_alike(name: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, name, *WITH_ROUND[name], "--round", value)
    assert code == 2 and out == ""
    assert err.startswith(f"shipcheck: error: bad `--round`; key `--round`; value '{value}' (expected 1, 2, 3, 3a or "
                          "learning)")
    assert err.count("\n") == 1


@pytest.mark.parametrize("name", sorted(WITH_RUNS))
@pytest.mark.parametrize("flag,value,message", [
    ("--runs", "0", "bad `--runs`; key `--runs`; value 0 (expected an integer >= 1)"),
    ("-n", "-5", "bad `--runs`; key `--runs`; value -5 (expected an integer >= 1)"),
    ("--seed", "-1", "bad `--seed`; key `--seed`; value -1 (expected an integer >= 0)"),
])
def test_runs_and_seed_are_checked_alike(name: str, flag: str, value: str, message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, name, *WITH_RUNS[name], flag, value)
    assert code == 2 and out == "" and err == f"shipcheck: error: {message}\n"


@pytest.mark.parametrize("name", sorted(WITH_RUNS))
def test_runs_not_a_number_is_a_usage_error(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, name, *WITH_RUNS[name], "--runs", "many")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("shipcheck: error:") and "--runs" in err and "Traceback" not in err


# -- defaults --------------------------------------------------------------------------------------
def test_help_states_the_default_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from shipcheck.defaults import RUNS_COMPARE, RUNS_FLIGHT, RUNS_ROUND

    monkeypatch.setenv("COLUMNS", "200")
    helps = {}
    for name in ("simulate", "place", "report"):
        code, out, _ = run(capsys, name, "--help")
        assert code == 0
        helps[name] = " ".join(out.split())
    assert f"default {RUNS_FLIGHT:,}" in helps["simulate"] and f"default {RUNS_ROUND:,}" in helps["simulate"]
    assert f"[default: {RUNS_COMPARE:,}]" in helps["place"] and f"[default: {RUNS_COMPARE:,}]" in helps["report"]


def test_library_defaults_are_the_commands() -> None:
    import inspect

    import shipcheck
    from shipcheck.defaults import RUNS_COMPARE, RUNS_FLIGHT, RUNS_ROUND

    def default(f: object, name: str) -> object:
        return inspect.signature(f).parameters[name].default  # type: ignore[arg-type]

    assert default(shipcheck.simulate, "runs") == RUNS_FLIGHT
    assert default(shipcheck.simulate_round, "runs") == RUNS_ROUND
    assert default(shipcheck.place, "runs") == RUNS_COMPARE == default(shipcheck.report, "runs")
    for f in (shipcheck.simulate_round, shipcheck.place, shipcheck.report):
        assert default(f, "round") is None and default(f, "seed") is None


@pytest.mark.parametrize("path,level", [("examples/class-I-scout.toml", "1"),
                                        ("examples/class-II-freighter.toml", "2"),
                                        ("examples/class-III-hauler.toml", "3")])
def test_simulate_round_flies_the_boards_level_by_default(path: str, level: str) -> None:
    import shipcheck

    r = shipcheck.simulate_round(ROOT / path, runs=2, seed=1, opponents=[])
    assert str(r.round) == level


@pytest.mark.parametrize("path,level", [("examples/class-I-scout.toml", "1"),
                                        ("examples/class-IIIa-longboat.toml", "3a"),
                                        ("examples/class-IVC-fleet.toml", "3")])
def test_place_and_report_fly_the_round_simulate_round_flies(path: str, level: str) -> None:
    # one default round for the library's three round-flying calls (class IIIa flies 3a in all)
    import shipcheck

    ship = shipcheck.load_ship(ROOT / path)
    assert str(shipcheck.simulate_round(ship, runs=2, seed=1, opponents=[]).round) == level
    assert str(shipcheck.advise(ship, "cannon:0111", credits=False, exact=False).round) == level
    assert str(shipcheck.report(ship, runs=10, seed=1, opponents=[], recommendations=False).round) == level


def test_place_seed_is_random_unless_given_and_reported(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    seeds = set()
    for _ in range(2):
        code, out, _ = run(capsys, "place", START, "cannon:0111", "--no-exact", "--runs", "3", "--top", "1",
                           "--format", "json")
        assert code == 0
        seeds.add(json.loads(out)["seed"])
    assert len(seeds) == 2
    code, out, _ = run(capsys, "place", START, "cannon:0111", "--no-exact", "--runs", "3", "--seed", "5", "--top", "1")
    assert code == 0 and "seed 5" in out
