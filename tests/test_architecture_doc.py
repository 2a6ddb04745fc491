"""docs/architecture.md cannot drift from the code: every function, class or module it names in the
package exists, and its table of the rules of flight names one home per rule, for every card type,
with the features that use it."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from shipcheck.cards import CARD_TYPES

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
TEXT = PAGE.read_text(encoding="utf-8")
PACKAGE = ROOT / "shipcheck"
#: the features a rule's row may name (the page's legend above the table)
FEATURES = ("odds", "card MC", "rounds", "heat map", "advisor", "check")
#: a dotted name in backticks, such as `engine.defence.apply_decision` or `shipcheck.runtime.plain_package`
DOTTED = re.compile(r"`((?:shipcheck\.)?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")


def resolve(name: str) -> Any:
    """The object ``shipcheck.<name>`` names: the longest importable module, then attributes."""
    parts = (name if name.startswith("shipcheck.") else f"shipcheck.{name}").split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)  # AttributeError: the page names something that is gone
        return obj
    raise ModuleNotFoundError(name)


def top_level() -> set[str]:
    """The package's own top-level modules and subpackages (``engine``, ``round``, ``odds``...)."""
    return {p.stem for p in PACKAGE.glob("*.py")} | {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}


def rules_table() -> list[tuple[str, str, str]]:
    """(rule, home, used by) per row of the table under "Rules of flight"."""
    section = TEXT.split("## Rules of flight", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and not set(cells[0]) <= {"-"} and cells[0] != "rule":
            rows.append((cells[0], cells[1], cells[2]))
    return rows


ROWS = rules_table()


def test_the_table_is_there() -> None:
    assert len(ROWS) >= 40, "the table of the rules of flight in docs/architecture.md was not found"


@pytest.mark.parametrize("rule,home,used", ROWS, ids=[r[1].strip("`") for r in ROWS])
def test_each_rule_names_one_home_that_exists(rule: str, home: str, used: str) -> None:
    names = re.findall(r"`([^`]+)`", home)
    assert len(names) == 1, f"{rule!r}: one home, not {names}"
    obj = resolve(names[0])
    assert callable(obj), f"{names[0]} is not a function or a class"
    features = [u.strip() for u in used.split(",")]
    assert features and all(f in FEATURES for f in features), f"{rule!r}: features {features} (known: {FEATURES})"


def test_every_card_type_has_a_row() -> None:
    text = " ".join(rule.lower() for rule, _, _ in ROWS)
    missing = [t for t in CARD_TYPES if t.replace("_", " ") not in text]
    assert not missing, f"card types without a row in the rules table: {missing}"


def test_every_name_the_page_gives_in_the_package_exists() -> None:
    """The prose and the layer table too: a module, function or class renamed or removed fails here."""
    ours = top_level()
    names = sorted({n for n in DOTTED.findall(TEXT) if n.removeprefix("shipcheck.").split(".")[0] in ours})
    assert len(names) > 40
    gone = []
    for n in names:
        try:
            resolve(n)
        except (ImportError, AttributeError):
            gone.append(n)
    assert not gone, f"docs/architecture.md names what the package no longer has: {gone}"


def test_the_layer_drawing_names_no_module_that_is_gone() -> None:
    """The drawing's words that look like a module of the package are modules of the package."""
    drawing = TEXT.split("```text", 1)[1].split("```", 1)[0]
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
               for p in PACKAGE.rglob("*.py")}
    names = {m.rsplit(".", 1)[-1] for m in modules} | {m.split(".")[1] for m in modules if "." in m}
    for stale in ("kernel_jit", "memo", "fast", "_reference", "race", "scoring", "track"):
        if stale not in names:
            assert not re.search(rf"\b{stale}\b", drawing), f"the layer drawing still shows {stale!r}"
