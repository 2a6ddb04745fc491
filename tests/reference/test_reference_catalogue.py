"""The tile catalogues in tiles/catalogue/ against the reference tables in ../shared/reference."""

from __future__ import annotations

import csv
from collections import Counter

import pytest
from refdata import REFERENCE
from test_catalogue_data import EDITIONS, TOTALS, capacity, colour, tiles

# ------------------------------------------------------------ against the reference

SIDE = {"smooth": "0", "single": "1", "double": "2", "universal": "3"}


def reference(edition: str) -> dict[int, tuple]:
    """id -> (kind, sides, capacity, colour) in project terms."""
    out = {}
    with open(REFERENCE / f"tiles_{edition}.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            extra = dict(kv.split("=", 1) for kv in row["extra"].split(";") if "=" in kv)
            kind, col = row["kind"], None
            if kind == "starting_cabin":
                kind, col = "start_cabin", extra["color"]
            elif kind.startswith("life_support_"):
                kind, col = "life_support", kind.removeprefix("life_support_")
                alien = extra.get("alien")  # 2007 orange: "brown"; 2021: "brown(orange)", "purple"
                if alien is not None:
                    assert (alien == "purple") == (col == "purple"), row
            sides = "".join(SIDE[row[s]] for s in ("north", "east", "south", "west"))
            cap = int(row["capacity"]) if row["capacity"] else None
            out[int(row["id"])] = (kind, sides, cap, col)
    return out


def ours(edition: str) -> dict[int, tuple]:
    return {t["id"]: (t["kind"], t["sides"], capacity(t), colour(t)) for t in tiles(edition)}


@pytest.mark.parametrize("edition", EDITIONS)
def test_matches_reference_tile_by_tile(edition):
    ref, mine = reference(edition), ours(edition)
    assert len(ref) == TOTALS[edition]
    assert sorted(mine) == sorted(ref)
    diffs = {i: (mine[i], ref[i]) for i in ref if mine[i] != ref[i]}
    assert not diffs


@pytest.mark.parametrize("edition", EDITIONS)
def test_matches_reference_as_multiset(edition):
    ref = Counter(v[:3] for v in reference(edition).values())
    mine = Counter(v[:3] for v in ours(edition).values())
    assert mine == ref


@pytest.mark.parametrize("edition", EDITIONS)
def test_reference_functional_sides_agree(edition):
    # the reference's extra column: barrels N, exhausts S, shields N+E, as the format assumes
    with open(REFERENCE / f"tiles_{edition}.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            extra = dict(kv.split("=", 1) for kv in row["extra"].split(";") if "=" in kv)
            if "cannon" in row["kind"]:
                assert extra["barrel"] == "N", row
            if "engine" in row["kind"]:
                assert extra["exhaust"] == "S", row
            if row["kind"] == "shield":
                assert extra["covers"] == "N+E", row
