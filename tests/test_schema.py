"""The JSON Schemas: shipped up to date, accept every ship and board the loader accepts, and reject
the malformed corpus wherever a schema can say what is wrong."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from shipcheck.check.rules import RULES
from shipcheck.check.schema import NAMES, board_schema, schema_path, schema_text, ship_schema
from shipcheck.data import data_path

ROOT = Path(__file__).resolve().parents[1]
MALFORMED = ROOT / "tests" / "malformed"

# Malformed cases a JSON Schema cannot express; the loader alone catches them. Keep this list and
# the table in docs/schema.md the same (a test below checks that).
LOADER_ONLY = {
    "bad-toml": "not TOML at all: there is nothing to validate",
    "board-label-count": "the number of column labels must equal the grid's width",
    "board-ragged-rows": "every row of `cells` must have the same length",
    "board-seam-not-adjacent": "a seam must join two neighbouring columns",
    "missing-board-file": "the board file must exist",
    "two-start-cabins": "at most one start_cabin in a ship",
    "two-tiles-one-square": "at most one tile on a square",
    "huge-integer": "a number too long to read: no TOML parser builds a document to validate",
    "nested-arrays": "nested too deeply to read: no TOML parser builds a document to validate",
    "nested-meta-tables": "nesting deeper than 32 levels, anywhere (a schema fixes no depth for meta)",
    "board-not-utf8": "the board file is not UTF-8 text",
    "board-dev-zero": "the board file must be a regular file",
    "board-is-folder": "the board file must be a regular file",
    "board-nul-path": "the board path must name a file",
}

# TOML tells 2 from 2.0 and so do editors (taplo); JSON Schema's "integer" in Python accepts 2.0
Validator = jsonschema.validators.extend(
    jsonschema.Draft7Validator,
    type_checker=jsonschema.Draft7Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, x: isinstance(x, int) and not isinstance(x, bool)),
)
SHIP = Validator(ship_schema())
BOARD = Validator(board_schema())


def errors(validator: Any, doc: dict[str, Any]) -> list[str]:
    return [e.message for e in validator.iter_errors(doc)]


def test_schemas_are_valid_draft7() -> None:
    jsonschema.Draft7Validator.check_schema(ship_schema())
    jsonschema.Draft7Validator.check_schema(board_schema())


@pytest.mark.parametrize("name", NAMES)
def test_packaged_schema_is_up_to_date(name: str) -> None:
    assert schema_path(name).read_text(encoding="utf-8") == schema_text(name), (
        "run `python -m shipcheck.check.schema` to write the schemas again")


def ship_files() -> list[Path]:
    return sorted((ROOT / "examples").rglob("*.toml"))


@pytest.mark.parametrize("path", ship_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_example_ship_validates(path: Path) -> None:
    assert errors(SHIP, tomllib.loads(path.read_text(encoding="utf-8"))) == []


def test_every_rule_example_and_case_ship_validates() -> None:
    texts = [t for r in RULES.values() for t in (r.bad, r.good)]
    for case_file in sorted((ROOT / "tests" / "cases").glob("*.toml")):
        texts += [c["ship"] for c in tomllib.loads(case_file.read_text(encoding="utf-8"))["case"]]
    assert len(texts) > 100
    for text in texts:
        assert errors(SHIP, tomllib.loads(text)) == [], text


def test_every_board_file_validates() -> None:
    boards = sorted(data_path("boards").glob("*.toml")) + [MALFORMED / "boards" / "ok.toml"]
    for path in boards:
        assert errors(BOARD, tomllib.loads(path.read_text(encoding="utf-8"))) == [], path.name


def test_a_ship_file_is_not_a_board_file() -> None:
    ship = tomllib.loads((ROOT / "examples" / "blue-round1.toml").read_text(encoding="utf-8"))
    board = tomllib.loads(data_path("boards", "I.toml").read_text(encoding="utf-8"))
    assert errors(BOARD, ship) and errors(SHIP, board)


def malformed_errors(case: Path) -> list[str] | None:
    """Schema errors of a malformed case (its board file too); None when it is not TOML."""
    try:
        doc = tomllib.loads(case.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, ValueError, RecursionError):
        return None  # ValueError: a number past 4,300 digits; RecursionError: nesting too deep
    found = errors(SHIP, doc)
    ref = doc.get("board")
    if isinstance(ref, str) and "\x00" not in ref and (case.parent / ref).is_file():
        try:
            board = tomllib.loads((case.parent / ref).read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            return found
        found += errors(BOARD, board)
    return found


CASES = sorted(MALFORMED.glob("*.toml"))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_schema_rejects_the_malformed_corpus(case: Path) -> None:
    found = malformed_errors(case)
    if case.stem in LOADER_ONLY:
        assert not found, f"the schema now catches {case.stem}: take it off LOADER_ONLY and docs/schema.md"
    else:
        assert found, (f"the schema accepts {case.name}; if a schema cannot express the rule, add it to "
                       "LOADER_ONLY here and to the table in docs/schema.md")


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nkind = "cannon"\nsides = "1000"\n', "does not match"),
        ('format = 1\nclass = "I"\n[[tile]]\nat = [4, 7]\nkind = "cabin"\nsides = "1111"\n', "not valid"),
        ('format = 1\nclass = "IIIa"\n[[tile]]\nat = [7, 11]\nkind = "cabin"\nsides = "1111"\n', None),
        ('format = 1\nclass = "IC"\n[[tile]]\nat = [3, 3]\nkind = "cabin"\nsides = "1111"\n', "not valid"),
        ('format = 1\nclass = "IC"\n[[tile]]\nat = {col = 1, row = 3}\nkind = "cabin"\nsides = "1111"\n', None),
        ('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nid = "2021:33"\n', "is not one of"),
        ('format = 1\nclass = "I"\nedition = "2021"\n[[tile]]\nat = [8, 7]\nid = "2021:33"\n', None),
        ('format = 1\nclass = "II"\nedition = "2021"\n[[tile]]\nat = [7, 4]\nkind = "cabin"\nsides = "1111"\n',
         "not valid"),
        ('format = 1\nclass = "II"\n[[tile]]\nat = [7, 4]\nkind = "cabin"\nsides = "1111"\n', None),
        ('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nkind = "mixed_cargo"\nsides = "1111"\nslots = 2\n'
         'special_slots = 3\n', "greater than the maximum"),
        ('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nkind = "cargo"\nsides = "1111"\nslots = 1\n'
         'goods = ["blue", "green"]\n', "too long"),
        ('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nkind = "life_support"\nsides = "1111"\ncolor = "red"\n',
         "is not one of"),
        ('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nkind = "start_cabin"\nsides = "3333"\ncolor = "red"\n',
         None),
        ('format = 1\nclass = "I"\n[[aside]]\nkind = "cabin"\nsides = "1111"\ncrew = "purple"\n',
         "Additional properties"),
        ('format = 1\nclass = "I"\n[[tile]]\nat = [8, 7]\nid = "2007:5"\ncells = 3\n', "not valid"),
        ('format = 1\nclass = "IA"\nfront = "E"\n', None),
        ('format = 1\nclass = "IVC"\ndice = [2, 5]\n', None),
        ('format = 1\nclass = "IVC"\nfront = "E"\n', "False schema"),
    ],
)
def test_schema_decisions(text: str, word: str | None) -> None:
    """Hand-picked cases: each rule the schema encodes, and the legal look-alikes it must let through."""
    from shipcheck.shipfile import parse_ship

    found = errors(SHIP, tomllib.loads(text))
    if word is None:
        assert found == []
        parse_ship(text)  # the loader agrees
    else:
        assert any(word in e for e in found), found


def test_docs_list_the_loader_only_cases() -> None:
    page = (ROOT / "docs" / "schema.md").read_text(encoding="utf-8")
    for case in LOADER_ONLY:
        assert f"`{case}`" in page, case

