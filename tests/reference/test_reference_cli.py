"""What the CLI lists against the reference game facts in ../shared/reference: the tile catalogues
as multisets, and the board masks of the original and 2021 editions."""

from __future__ import annotations

import csv
import json
from collections import Counter

import pytest
from refdata import REFERENCE

from shipcheck.cli import main

SIDE = {"smooth": "0", "single": "1", "double": "2", "universal": "3"}
CAPACITY = ("cells", "slots")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    with pytest.raises(SystemExit) as ei:
        main([*args, "--format", "json"])
    assert ei.value.code in (0, None)
    return json.loads(capsys.readouterr().out)


def reference_tiles(edition: str) -> Counter[tuple[str, str, int | None]]:
    out: Counter[tuple[str, str, int | None]] = Counter()
    with open(REFERENCE / f"tiles_{edition}.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            kind = row["kind"]
            kind = {"starting_cabin": "start_cabin"}.get(kind, kind)
            if kind.startswith("life_support_"):
                kind = "life_support"
            sides = "".join(SIDE[row[s]] for s in ("north", "east", "south", "west"))
            cap = int(row["capacity"]) if row["capacity"] and kind in (
                "battery", "cargo", "special_cargo") else None
            out[(kind, sides, cap)] += 1
    return out


@pytest.mark.parametrize("edition", ["2007", "2021"])
def test_tiles_json_lists_exactly_the_reference_tiles(capsys: pytest.CaptureFixture[str], edition: str) -> None:
    listed = run_json(capsys, "tiles", "--edition", edition)
    assert isinstance(listed, list)
    mine = Counter((t["kind"], t["sides"], next((t[k] for k in CAPACITY if k in t), None)) for t in listed)
    assert mine == reference_tiles(edition)
    assert all(t["id"].startswith(f"{edition}:") for t in listed)


def mask(board: dict) -> dict[int, list[int]]:
    """{row label: [column labels]} of the buildable squares, as the reference writes masks."""
    out: dict[int, list[int]] = {}
    for r, row in zip(board["rows"], board["cells"]):
        cols = [c for c, ch in zip(board["columns"], row) if ch != "."]
        if cols:
            out[r] = cols
    return out


@pytest.mark.parametrize("name,edition,key", [
    ("I", "original_2007", "I"), ("II", "original_2007", "II"), ("III", "original_2007", "III"),
    ("IIIa", "original_2007", "IIIa"), ("II-2021", "second_2021", "II"), ("I", "second_2021", "learning_I"),
])
def test_board_masks_match_the_reference(capsys: pytest.CaptureFixture[str], name: str, edition: str,
                                         key: str) -> None:
    boards = {b["name"]: b for b in run_json(capsys, "boards")}  # type: ignore[union-attr]
    ref = json.loads((REFERENCE / "cards_and_boards.json").read_text())["ship_boards"][edition][key]
    assert mask(boards[name]) == {int(r): cols for r, cols in ref["rows"].items()}
    if "lost_component_cap_credits" in ref:
        assert boards[name]["max_penalty"] == ref["lost_component_cap_credits"]
    assert boards[name]["verified"] is True
    start = boards[name]["start"]
    assert start == [7, 7]
