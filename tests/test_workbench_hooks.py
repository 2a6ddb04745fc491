"""What the library gained for the workbench: a ship file rewritten to hold an edited ship with its
comments kept (rewrite_ship_text), and long work stopped from its progress callback."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from proctools import children
from shipbuild import COMMENTED

import shipcheck
from shipcheck.model import Tile
from shipcheck.shipfile import catalogue, dump_ship, parse_ship, rewrite_ship_text

ROOT = Path(__file__).resolve().parents[1]
SCOUT = ROOT / "examples" / "class-I-scout.toml"


def square(ship: shipcheck.Ship, label: list[int]) -> int:
    return next(i for i in range(ship.board.size) if ship.board.cell_name(i) == label)


def test_an_unchanged_ship_gives_back_the_text_as_it_is() -> None:
    s = parse_ship(COMMENTED)
    assert rewrite_ship_text(COMMENTED, s) == COMMENTED


def test_edits_keep_every_comment_of_what_did_not_change() -> None:
    s = parse_ship(COMMENTED)
    cargo = s.tile_at(square(s, [8, 7]))
    engine = s.tile_at(square(s, [7, 8]))
    assert cargo is not None and engine is not None
    tiles = [t for t in s.tiles if t.at not in (cargo.at, engine.at)]
    tiles.append(replace(cargo, goods=("blue",), rot=1))              # changed in place
    tiles.append(replace(engine, at=s.board.square(square(s, [6, 8]))))  # moved
    tiles.append(Tile(at=square(s, [7, 6]), kind="structural", sides="1111"))  # new
    edited = replace(s, tiles=tuple(tiles), name="Renamed", aside=(catalogue()["2007:5"],))
    out = rewrite_ship_text(COMMENTED, edited)
    assert parse_ship(out) == edited
    for comment in ("# My ship for round 2.  Keep this comment!", "# --- the cockpit ---", "# keys in my own order",
                    "# an engine below the cockpit", "# smooth all round: it falls off",
                    'owner = "me"           # mine'):
        assert comment in out
    assert 'name = "Renamed"   # trailing comment' in out
    assert "at = [6, 8]" in out and "at = [7, 8]" not in out  # the engine's table followed it
    assert 'goods = ["blue"]' in out and "rot = 90" in out
    assert out.index("# smooth all round") < out.index("# an engine below the cockpit")  # order kept
    assert "[[aside]]" in out and 'id = "2007:5"' in out


def test_removed_tiles_lose_their_tables_and_an_empty_ship_is_still_a_file() -> None:
    s = parse_ship(COMMENTED)
    bare = parse_ship(dump_ship(replace(s, tiles=(), meta=())))  # the pilot cabin stays, implied
    out = rewrite_ship_text(COMMENTED, bare)
    assert "[[tile]]" not in out and "[meta]" not in out
    assert out.startswith("# My ship for round 2.  Keep this comment!")
    assert parse_ship(out) == bare


def test_text_that_cannot_be_edited_is_written_anew() -> None:
    s = parse_ship(COMMENTED)
    assert rewrite_ship_text("not toml at all [", s) == dump_ship(s)


SHIPS = sorted((ROOT / "examples").glob("*.toml")) + sorted((ROOT / "examples" / "building").glob("*.toml"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPS), st.data())
def test_any_edit_reads_back_as_the_edited_ship(path: Path, data: st.DataObject) -> None:
    text = path.read_text(encoding="utf-8")
    s = parse_ship(text, base_dir=path.parent)
    tiles = list(t for t in s.tiles if not t.implied)
    free = [i for i in range(s.board.size) if s.board.buildable(i) and s.tile_at(i) is None]
    for _ in range(data.draw(st.integers(0, 4))):
        op = data.draw(st.sampled_from(["remove", "turn", "move", "add"]))
        if op in ("remove", "turn", "move") and tiles:
            k = data.draw(st.integers(0, len(tiles) - 1))
            t = tiles.pop(k)
            if op == "turn":
                tiles.append(replace(t, rot=(t.rot + 1) % 4))
            elif op == "move" and free:
                dest = free.pop(data.draw(st.integers(0, len(free) - 1)))
                free.append(t.at)
                tiles.append(replace(t, at=s.board.square(dest)))
            elif op == "remove":
                free.append(t.at)
        elif op == "add" and free:
            dest = free.pop(data.draw(st.integers(0, len(free) - 1)))
            tiles.append(Tile(at=s.board.square(dest), kind="structural", sides="1111"))
    pilot = [t for t in s.tiles if t.implied]
    edited = replace(s, tiles=tuple(tiles + pilot))
    edited = parse_ship(dump_ship(edited), base_dir=path.parent)  # the ship as a file would hold it
    out = rewrite_ship_text(text, edited, base_dir=path.parent)
    assert parse_ship(out, base_dir=path.parent) == edited
    first_comment = next((ln for ln in text.splitlines() if ln.startswith("#")), None)
    if first_comment is not None:
        assert first_comment in out  # never a rewrite from scratch for these edits


# -- stopping long work from its progress callback ---------------------------------------------------
class Stop(Exception):
    pass


def test_a_round_stops_at_the_first_progress_that_raises() -> None:
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        raise Stop()

    with pytest.raises(Stop):
        shipcheck.simulate_round(SCOUT, runs=5000, seed=1, batch=500, progress=progress)
    assert seen == [500]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_round_on_workers_stops_them_all_when_progress_raises() -> None:
    before = set(children(os.getpid()))
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise Stop()

    with pytest.raises(Stop):
        shipcheck.simulate_round(SCOUT, runs=40_000, seed=1, batch=1000, workers=2,
                                 progress=progress)
    import time

    deadline = time.monotonic() + 10
    while set(children(os.getpid())) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(children(os.getpid())) - before == set()


def test_the_credits_ranking_reports_progress_and_stops_when_asked() -> None:
    ship = shipcheck.parse_ship('format = 1\nclass = "I"\n')
    calls: list[tuple[int, int]] = []
    advice = shipcheck.advise(ship, "2007:68", runs=30, progress=lambda d, t: calls.append((d, t)))
    total = calls[-1][1]
    assert calls == [(k, total) for k in range(1, total + 1)]
    assert total >= 2 and all(p.credits is not None for p in advice.placements)

    def stop(done: int, total: int) -> None:
        raise Stop()

    with pytest.raises(Stop):
        shipcheck.advise(ship, "2007:68", runs=30, progress=stop)
    with pytest.raises(shipcheck.InputError):
        shipcheck.advise(ship, "2007:68", runs=30, progress=3)  # type: ignore[arg-type]


# -- ship documents as TOML ------------------------------------------------------------------------
@pytest.mark.parametrize("path", SHIPS, ids=lambda p: p.stem)
def test_toml_text_writes_a_ship_document_back_as_it_was(path: Path) -> None:
    import tomllib

    from shipcheck.shipfile import toml_text

    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    assert tomllib.loads(toml_text(doc)) == doc


def test_toml_text_refuses_what_toml_cannot_hold() -> None:
    from shipcheck.shipfile import toml_text

    for doc in ({"format": None}, {"tile": [{"at": [1, None]}]}, {"meta": {"x": {"y": None}}}):
        with pytest.raises(shipcheck.InputError, match="TOML cannot hold"):
            toml_text(doc)  # type: ignore[arg-type]
