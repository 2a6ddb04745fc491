"""The rule registry: every rule is documented, its examples show what they claim, and it has cases."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from shipcheck.check.rules import RULES, check
from shipcheck.shipfile import parse_ship

CASES_DIR = Path(__file__).resolve().parent / "cases"
CODES = sorted(RULES)

# Registry examples known to be wrong (reported to the lead; rules.py is not ours to edit). Strict:
# once an example is mended the test XPASSes and fails, so the entry is removed.
def test_registry_is_keyed_by_code() -> None:
    assert CODES, "no rules registered"
    for code, rule in RULES.items():
        assert rule.code == code
    names = [r.name for r in RULES.values()]
    assert len(set(names)) == len(names), "rule names are unique"


@pytest.mark.parametrize("code", CODES)
def test_rule_metadata(code: str) -> None:
    rule = RULES[code]
    assert re.fullmatch(r"[A-Z]\d", rule.code), rule.code
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name
    assert rule.severity in ("error", "warning")
    assert rule.summary.strip() and rule.why.strip()
    assert rule.bad.strip() and rule.good.strip()


@pytest.mark.parametrize("code", CODES)
def test_bad_example_reports_the_code(code: str) -> None:
    rule = RULES[code]
    report = check(parse_ship(rule.bad))
    assert code in report.codes(), f"{code} bad example reports {report.violations}"
    if rule.severity == "error":
        assert not report.legal


@pytest.mark.parametrize("code", CODES)
def test_good_example_is_legal_and_clean(code: str) -> None:
    rule = RULES[code]
    report = check(parse_ship(rule.good))
    assert report.legal, f"{code} good example has errors: {report.errors}"
    assert code not in report.codes(), f"{code} good example reports {report.violations}"


def _cases(code: str) -> list[dict]:
    path = CASES_DIR / f"{code}.toml"
    assert path.is_file(), f"no case file tests/cases/{code}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")).get("case", [])


@pytest.mark.parametrize("code", CODES)
def test_every_code_has_cases(code: str) -> None:
    cases = _cases(code)
    names = [c["name"] for c in cases]
    assert len(set(names)) == len(names), "case names are unique within a file"
    for name in names:
        assert re.fullmatch(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)*", name), name

    def reports(c: dict) -> bool:
        return code in c.get("expect", {}) or code in c.get("warnings", {})

    # "legal": a legal ship on which the code is not reported; "illegal": the code is reported
    clean = [c for c in cases if c["legal"] and not reports(c)]
    hits = [c for c in cases if reports(c)]
    assert len(clean) >= 1, f"{code}: no legal case"
    assert len(hits) >= 2, f"{code}: fewer than two cases that report it"
    if RULES[code].severity == "error":
        assert all(not c["legal"] for c in hits)


def test_no_case_file_for_an_unknown_code() -> None:
    stems = {p.stem for p in CASES_DIR.glob("*.toml")}
    assert stems <= set(RULES), stems - set(RULES)
