"""The tile catalogues in tiles/catalogue/: format and hand counts (against the reference tables:
tests/reference/)."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

TILES = Path(__file__).resolve().parent.parent / "tiles" / "catalogue"
EDITIONS = ("2007", "2021")


# kind -> attributes it must carry (ship format spec §3)
ATTRS = {
    "start_cabin": {"color"},
    "cabin": set(),
    "engine": set(),
    "double_engine": set(),
    "cannon": set(),
    "double_cannon": set(),
    "shield": set(),
    "battery": {"cells"},
    "cargo": {"slots"},
    "special_cargo": {"slots"},
    "structural": set(),
    "life_support": {"color"},
}

# Counts per kind; 2007 from rules.md §2.2 (140 in the pile + 4 pilot cabins). 2021: the digest
# gives no mix ("another mix"), so these were counted once from the reference table and pinned.
KIND_COUNTS = {
    "2007": {
        "battery": 15, "cargo": 15, "special_cargo": 9, "cabin": 16, "structural": 8,
        "engine": 19, "double_engine": 7, "cannon": 23, "double_cannon": 8,
        "life_support": 12, "shield": 8, "start_cabin": 4,
    },
    "2021": {
        "battery": 17, "cargo": 15, "special_cargo": 9, "cabin": 17, "structural": 8,
        "engine": 21, "double_engine": 9, "cannon": 25, "double_cannon": 11,
        "life_support": 12, "shield": 8, "start_cabin": 4,
    },
}
TOTALS = {"2007": 144, "2021": 156}
START_IDS = {"2007": [31, 32, 33, 34], "2021": [33, 34, 52, 61]}  # ship-format spec §4


def load(edition: str) -> dict:
    with open(TILES / f"{edition}.toml", "rb") as fh:
        return tomllib.load(fh)


def tiles(edition: str) -> list[dict]:
    return load(edition)["tile"]


def capacity(tile: dict) -> int | None:
    """Battery cells, cargo slots or crew places, as the reference's ``capacity`` column."""
    if tile["kind"] in ("cabin", "start_cabin"):
        return 2
    return tile.get("cells", tile.get("slots"))


def colour(tile: dict) -> str | None:
    return tile.get("color")


# ------------------------------------------------------------ without the reference


@pytest.mark.parametrize("edition", EDITIONS)
def test_header_and_top_level(edition):
    text = (TILES / f"{edition}.toml").read_text(encoding="utf-8")
    assert text.startswith("# ") and "source:" in text.splitlines()[0]
    doc = load(edition)
    assert set(doc) == {"format", "edition", "tile"}
    assert doc["format"] == 1
    assert doc["edition"] == edition


@pytest.mark.parametrize("edition", EDITIONS)
def test_total_and_ids(edition):
    ids = [t["id"] for t in tiles(edition)]
    assert len(ids) == TOTALS[edition]
    assert ids == list(range(1, TOTALS[edition] + 1))  # one per id, ordered


@pytest.mark.parametrize("edition", EDITIONS)
def test_counts_per_kind(edition):
    assert Counter(t["kind"] for t in tiles(edition)) == KIND_COUNTS[edition]


def test_2007_pile_is_140_plus_4_pilot_cabins():
    # rules.md §2.2: 19+7 engines, 23+8 cannons, 6+6 life supports
    ts = tiles("2007")
    assert sum(t["kind"] != "start_cabin" for t in ts) == 140
    ls = Counter(t["color"] for t in ts if t["kind"] == "life_support")
    assert ls == {"purple": 6, "orange": 6}


@pytest.mark.parametrize("edition", EDITIONS)
def test_pilot_cabins(edition):
    starts = [t for t in tiles(edition) if t["kind"] == "start_cabin"]
    assert [t["id"] for t in starts] == START_IDS[edition]
    assert all(t["sides"] == "3333" for t in starts)  # rules.md §3.6(1)
    assert sorted(t["color"] for t in starts) == ["blue", "green", "red", "yellow"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_tile_is_well_formed(edition):
    for t in tiles(edition):
        kind = t["kind"]
        assert kind in ATTRS, t
        assert set(t) == {"id", "kind", "sides"} | ATTRS[kind], t
        assert re.fullmatch(r"[0-3]{4}", t["sides"]), t
        assert t["sides"] != "0000", t
        if "cannon" in kind:
            assert t["sides"][0] == "0", t  # barrel N written smooth
        if "engine" in kind:
            assert t["sides"][2] == "0", t  # exhaust S written smooth
        if kind == "battery":
            assert t["cells"] in (2, 3), t
        if kind == "cargo":
            assert t["slots"] in (2, 3), t  # rules.md §2.2: 2-3 containers
        if kind == "special_cargo":
            assert t["slots"] in (1, 2), t  # rules.md §2.2: 1-2 containers
        if kind == "life_support":
            assert t["color"] in ("purple", "orange"), t


@pytest.mark.parametrize("edition", EDITIONS)
def test_capacity_mix(edition):
    ts = tiles(edition)
    cells = Counter(t["cells"] for t in ts if t["kind"] == "battery")
    cargo = Counter(t["slots"] for t in ts if t["kind"] == "cargo")
    special = Counter(t["slots"] for t in ts if t["kind"] == "special_cargo")
    assert cells == ({2: 9, 3: 6} if edition == "2007" else {2: 11, 3: 6})
    assert cargo == {2: 9, 3: 6}
    assert special == {1: 6, 2: 3}
