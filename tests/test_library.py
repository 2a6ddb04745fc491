"""Library manners: board labels in every repr, summary-line reprs, drawings for notebooks,
`to_frame()` with numeric columns, floats next to exact fractions, `check_many`."""

from __future__ import annotations

import gc
import pickle
import weakref
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

import shipcheck
from shipcheck.topology import Square

ROOT = Path(__file__).resolve().parents[1]
FREIGHTER = ROOT / "examples" / "class-II-freighter.toml"
LOOSE = ROOT / "examples" / "mistakes" / "loose-piece.toml"
LONGBOAT = ROOT / "examples" / "class-IIIa-longboat.toml"


def test_py_typed_ships_with_the_package() -> None:
    assert (Path(shipcheck.__file__).parent / "py.typed").is_file()


def test_squares_are_indices_that_show_labels() -> None:
    ship = shipcheck.load_ship(FREIGHTER)
    b = ship.board
    for t in ship.tiles:
        assert isinstance(t.at, Square)
        assert repr(t.at) == b.cell_text(t.at)  # "(col,row)" by the printed labels
        assert f"{t.at}" == str(int(t.at))  # formatting still gives the number
    sq = ship.tiles[0].at
    assert pickle.loads(pickle.dumps(sq)) == sq and repr(pickle.loads(pickle.dumps(sq))) == repr(sq)
    assert "at=" not in repr(ship.tiles[0]) and repr(sq) in repr(ship.tiles[0])


def test_no_public_repr_shows_a_grid_index() -> None:
    ship = shipcheck.load_ship(LOOSE)
    report = shipcheck.check(ship)
    repair = shipcheck.fix(ship)
    # the loose cargo hold stands at (9,9), grid index 34 on class I (row 4 * width 5 + col 4... of 5x5)
    idx = int(repair.removed[0])
    assert repr(report.violations[0]) == "<Violation S1 (9,9): 1 component(s) not joined to the ship: (9,9)>"
    assert repr(repair.removed) == "((9,9),)" and str(idx) not in repr(repair)
    assert repr(repair) == "<FixResult: lose 1 (falls off (9,9)), 16 kept>"


def test_compact_reprs_are_one_summary_line() -> None:
    ship = shipcheck.load_ship(LOOSE)
    for obj in (ship, shipcheck.check(ship), shipcheck.fix(ship), shipcheck.stats(ship),
                shipcheck.odds(ship, ["small-meteor:front"])):
        text = repr(obj)
        assert "\n" not in text and len(text) < 200, text
    assert repr(shipcheck.check(ship)).endswith("ILLEGAL: 1 error (S1), 0 warnings, 1 exposed connector>")
    lone = shipcheck.parse_ship('format = 1\nclass = "I"\nname = "Solo"\n')
    assert repr(lone) == "<Ship 'Solo': 0 tiles + the pilot cabin on the start square, class I, edition 2007>"


def test_to_toml_loads_back_as_the_same_ship() -> None:
    ship = shipcheck.load_ship(FREIGHTER)
    assert shipcheck.parse_ship(ship.to_toml()) == ship


def test_notebook_drawings() -> None:
    ship = shipcheck.load_ship(LOOSE)
    html = ship._repr_html_()
    assert html.count("<pre") == 1 and "CRG" in html and "<script" not in html
    report_html = shipcheck.check(ship)._repr_html_()
    assert "S1" in report_html and "background" in report_html  # the offending square is highlighted
    from rich.console import Console

    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(ship)
    console.print(shipcheck.check(ship))
    text = console.export_text()
    assert "PIL" in text and "S1 disconnected" in text


def test_odds_offer_floats_next_to_fractions() -> None:
    lone = shipcheck.parse_ship('format = 1\nclass = "I"\n')
    r = shipcheck.odds(lone, ["small-meteor:front"])
    assert r.p_survive == Fraction(5, 6)  # the pilot cabin's exposed N connector is hit on a 7: 6/36
    assert float(r) == r.p_survive_float == pytest.approx(5 / 6)
    assert isinstance(r.p_survive_float, float) and r.expected_lost_float == pytest.approx(1 / 6)
    assert r.lost_distribution_float == {0: pytest.approx(5 / 6), 1: pytest.approx(1 / 6)}


def test_one_tiles_loss_is_its_entry_of_every_tiles() -> None:
    ship = shipcheck.load_ship(LONGBOAT)
    r = shipcheck.odds(ship, ["large-meteor:front", "small-meteor:left"])
    each = r.p_lost()
    assert any(p for _, p in each) and all(r.p_lost_at(sq) == p for sq, p in each)
    empty = next(i for i in range(ship.board.size) if ship.tile_at(i) is None)
    with pytest.raises(shipcheck.InputError, match="no tile of the ship stands on that square"):
        r.p_lost_at(empty)


def test_to_frame_columns_are_numeric_labels() -> None:
    ship = shipcheck.load_ship(LONGBOAT)  # class IIIa: rows labelled 11 (front) down to 3
    r = shipcheck.odds(ship, ["large-meteor:front"])
    df = r.to_frame()
    assert list(df.columns) == ["col", "row", "square", "kind", "p_lost", "p_lost_exact"]
    assert df["col"].dtype.kind == "i" and df["row"].dtype.kind == "i"
    assert set(df["row"]) <= set(range(3, 12))
    grid = df.pivot(index="row", columns="col", values="p_lost")
    for t, p in r.p_lost():
        col, row = (int(x) for x in repr(t).strip("()").split(","))
        assert grid.loc[row, col] == pytest.approx(float(p))
    assert (df["p_lost"] == [float(x) for x in df["p_lost_exact"]]).all()


def test_to_frame_on_index_boards_uses_grid_indices() -> None:
    ship = shipcheck.load_ship(ROOT / "examples" / "class-IIC-seamrunner.toml")
    df = shipcheck.odds(ship, ["small-meteor:front"]).to_frame()
    assert df["col"].between(0, ship.board.width - 1).all() and df["row"].between(0, ship.board.height - 1).all()


def test_check_report_to_frame() -> None:
    df = shipcheck.check(shipcheck.load_ship(LOOSE)).to_frame()
    assert df[["code", "col", "row"]].values.tolist() == [["S1", 9, 9]]
    empty = shipcheck.check(shipcheck.load_ship(FREIGHTER)).to_frame()
    assert len(empty) == 0 and "col" in empty.columns


def test_odds_draw_in_rich_with_heat_tags() -> None:
    from rich.console import Console

    lone = shipcheck.parse_ship('format = 1\nclass = "I"\n')
    r = shipcheck.odds(lone, ["large-meteor:front"])  # the pilot cabin is hit on a 7: 6/36, 17 %
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(r)
    text = console.export_text()
    assert "17" in text and "% chance" in text and "<OddsResult 1 attack" in text
    assert "17" in r._repr_html_()


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "mistakes").glob("*.toml")), ids=lambda p: p.stem)
def test_violations_are_small_frozen_records(path: Path) -> None:
    """A violation from `check` (sentence written on first reading) behaves as one built with its sentence."""
    import copy
    from dataclasses import FrozenInstanceError

    ship = shipcheck.load_ship(path)
    fresh = shipcheck.check(ship).violations
    assert fresh
    for v in fresh:
        twin = shipcheck.Violation(v.code, v.cells, v.message)
        assert v == twin and twin == v and hash(v) == hash(twin) and repr(v) == repr(twin)
        assert v.to_dict(ship) == twin.to_dict(ship)
        assert v != shipcheck.Violation(v.code, v.cells, v.message + ".")
        assert v != shipcheck.Violation(v.code, v.cells[:-1], v.message) and v != (v.code, v.cells, v.message)
        with pytest.raises(FrozenInstanceError):
            v.code = "C1"  # type: ignore[misc]
    again = shipcheck.check(ship).violations  # sentences not read yet
    for back in (pickle.loads(pickle.dumps(again)), copy.deepcopy(again)):
        assert back == fresh and [repr(v) for v in back] == [repr(v) for v in fresh]
        assert [type(c) for v in back for c in v.cells] == [type(c) for v in fresh for c in v.cells]
    assert len(set(fresh) | set(again)) == len(set(fresh))


def test_a_violation_matches_by_position_as_a_record_does() -> None:
    """`match v: case Violation(code, cells, message)` works as it did on the dataclass record."""
    ship = shipcheck.load_ship(Path(__file__).resolve().parents[1] / "examples" / "mistakes" / "cannon-blocked.toml")
    v = shipcheck.check(ship).violations[0]
    match v:
        case shipcheck.Violation(code, cells, message):
            assert (code, cells, message) == (v.code, v.cells, v.message) and code == "K1"
        case _:
            raise AssertionError("no match")


@pytest.mark.parametrize("rot", [90, -1, 4, 1.0, True, "1", None])
def test_a_tile_built_by_hand_with_a_bad_rotation_is_an_input_error(rot: object) -> None:
    # Tile.rot counts quarter turns (the repr shows degrees): rot=90 failed deep inside check()
    from shipcheck.errors import InputError
    from shipcheck.model import Tile

    with pytest.raises(InputError) as exc:
        Tile(at=5, kind="cabin", sides="1111", rot=rot)  # type: ignore[arg-type]
    assert exc.value.key == "rot" and "quarter turns" in str(exc.value)
    assert repr(Tile(at=5, kind="cabin", sides="1111", rot=1)).endswith("rot=90>")


def test_a_checked_ship_pickles_as_it_loaded() -> None:
    # a check keeps the ship's layout on it for the next question; a pickle carries the ship alone
    ship = shipcheck.load_ship(Path(__file__).parents[1] / "examples" / "class-III-hauler.toml")
    assert shipcheck.check(ship).legal and "_layout" in vars(ship)
    again = pickle.loads(pickle.dumps(ship))
    assert "_layout" not in vars(again) and again == ship
    assert shipcheck.check(again).to_dict() == shipcheck.check(ship).to_dict()


def test_a_checked_ship_is_freed_when_dropped() -> None:
    # the layout a check keeps on the ship holds no reference back to it: no cycle for the collector
    ship = shipcheck.load_ship(Path(__file__).parents[1] / "examples" / "class-III-hauler.toml")
    copy = replace(ship)
    gone = weakref.ref(copy)
    was = gc.isenabled()
    gc.disable()
    try:
        assert shipcheck.check(copy).legal and "_layout" in vars(copy)
        del copy
        assert gone() is None
    finally:
        if was:
            gc.enable()


def test_a_ship_made_from_another_ships_tiles_keeps_them_in_order() -> None:
    ship = shipcheck.load_ship(Path(__file__).parents[1] / "examples" / "class-III-hauler.toml")
    assert replace(ship).tiles is ship.tiles  # in order and on labelled squares already: kept
    shuffled = replace(ship, tiles=tuple(reversed(ship.tiles)))  # a plain tuple: sorted again
    assert shuffled.tiles == ship.tiles and [t.at for t in shuffled.tiles] == sorted(t.at for t in ship.tiles)
