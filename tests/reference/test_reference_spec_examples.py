"""The contract's worked examples in ../shared/spec/examples: check, fix and odds (exact and Monte Carlo)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import run
from fixkit import brute_force_fix
from refdata import SPEC_EXAMPLES
from test_fix import assert_sound
from test_montecarlo import assert_agrees

from shipcheck.check.fix import fix
from shipcheck.flight.montecarlo import simulate
from shipcheck.flight.odds import odds
from shipcheck.shipfile import load_ship


def examples(kind: str) -> list[Path]:
    return sorted((SPEC_EXAMPLES / kind).glob("*.toml"))


def expected(path: Path) -> dict:
    """The worked answer beside an example: ``name.expected.json``."""
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def test_every_kind_has_examples() -> None:
    assert all(examples(k) for k in ("check", "fix", "odds"))


@pytest.mark.parametrize("path", examples("check"), ids=lambda p: p.stem)
def test_check_examples(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    """`check --format json` agrees with the worked example: legal, exposed connectors, and per error
    code the union of the cells reported (warnings aside), with exit code 0 or 1 to match."""
    want = expected(path)
    code, out, _ = run(capsys, "check", str(path), "--format", "json")
    got = json.loads(out)
    assert code == (0 if want["legal"] else 1)
    assert got["legal"] == want["legal"]
    assert got["exposed_connectors"] == want["exposed_connectors"]
    cells: dict[str, set[tuple[int, ...]]] = {}
    for v in got["violations"]:
        if v["severity"] == "error":
            cells.setdefault(v["code"], set()).update(tuple(c) for c in v["cells"])
    assert cells == {k: {tuple(c) for c in v} for k, v in want["violations"].items()}


@pytest.mark.parametrize("path", examples("fix"), ids=lambda p: p.stem)
def test_fix_examples(path: Path) -> None:
    s = load_ship(path)
    r = fix(s)
    assert r.lost == expected(path)["lost"]
    assert_sound(r)
    assert brute_force_fix(s) == expected(path)["lost"]


@pytest.mark.parametrize("path", examples("odds"), ids=lambda p: p.stem)
def test_odds_examples(path: Path) -> None:
    exp = expected(path)
    r = odds(load_ship(path), exp["attacks"])
    assert str(r.p_survive) == exp["fractions"]["p_survive"]
    assert str(r.expected_lost) == exp["fractions"]["expected_lost"]
    assert {str(k): str(v) for k, v in r.lost_distribution.items()} == exp["fractions"]["lost_distribution"]


@pytest.mark.parametrize("path", examples("odds"), ids=lambda p: p.stem)
def test_odds_examples_by_monte_carlo(path: Path) -> None:
    s = load_ship(path)
    attacks = path.read_text().splitlines()[0].split(":", 1)[1].split()
    res = simulate(s, attacks, runs=50_000, seed=7)
    assert_agrees(res, odds(s, attacks))
    assert abs(res.p_survive - expected(path)["p_survive"]) <= 4 * max(res.p_survive_se, 1e-12)
