"""`fix --keep` and `fix --alternatives`: the integer program against brute force over every removal
set of small ships, by hand on the examples, and on the command line."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
from clikit import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fix import assert_sound, random_tile

from shipcheck.check.fix import CONSTRUCTION, fix
from shipcheck.check.rules import check
from shipcheck.errors import InputError
from shipcheck.model import Ship, Tile
from shipcheck.shipfile import load_ship
from shipcheck.topology import builtin_board

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = ROOT / "examples" / "mistakes" / "cannon-blocked.toml"


def brute_best(ship: Ship, keep: set[int]) -> tuple[tuple[int, int], list[frozenset[int]]]:
    """The best (keep squares lost, components lost) over every removal set that leaves no
    construction error, and every removal set achieving it. The pilot cabin on the start square
    stays (contract)."""
    squares = sorted(t.at for t in ship.tiles)
    start = ship.board.start
    pilot = ship.pilot
    must = pilot.at if pilot is not None and start is not None and pilot.at == start else None
    found: dict[tuple[int, int], list[frozenset[int]]] = {}
    for lost in range(len(squares) + 1):
        for gone in combinations(squares, lost):
            if must in gone:
                continue
            rep = check(ship.without(set(gone)))
            if any(v.code in CONSTRUCTION or v.code == "B2" for v in rep.violations):
                continue
            found.setdefault((len(keep & set(gone)), lost), []).append(frozenset(gone))
    best = min(found)
    return best, found[best]


@st.composite
def compact_ship(draw: st.DrawFn) -> tuple[Ship, set[int]]:
    """Up to 8 tiles round the start square of class I, and up to 2 of their squares to keep."""
    board = builtin_board("I")
    start = board.start
    assert start is not None
    r0, c0 = divmod(start, board.width)
    near = [r * board.width + c for r in range(r0 - 1, r0 + 2) for c in range(c0 - 1, c0 + 3)
            if board.buildable(r * board.width + c) and r * board.width + c != start]
    chosen = draw(st.lists(st.sampled_from(near), unique=True, min_size=2, max_size=7))
    tiles = [draw(random_tile(i)) for i in chosen]
    pilot = draw(st.sampled_from(("3333", "1111", "2222", "3030", "1230")))
    ship = Ship(board=board, tiles=(*tiles, Tile(at=start, kind="start_cabin", sides=pilot)))
    keep = set(draw(st.lists(st.sampled_from(chosen), unique=True, max_size=2)))
    return ship, keep


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(compact_ship())
def test_keep_and_alternatives_against_brute_force(case: tuple[Ship, set[int]]) -> None:
    ship, keep = case
    r = fix(ship, keep=sorted(keep), alternatives=4)
    assert r.fixable
    (keep_lost, lost), best_sets = brute_best(ship, keep)
    # the program's answer is as good as the best removal set: keep squares first, then fewest lost
    assert (len(r.keep_lost), r.lost) == (keep_lost, lost)
    assert set(r.keep_lost) <= keep and set(r.keep) == keep
    assert r.min_lost == brute_best(ship, set())[0][1]
    # every repair listed is one of the best, each different, as many as exist (up to 1 + 4)
    repairs = [r, *r.alternatives]
    removed = [frozenset(a.removed) for a in repairs]
    assert len(set(removed)) == len(removed) == min(5, len(best_sets))
    assert set(removed) <= set(best_sets)
    for a in repairs:
        assert_sound(a)
        assert a.lost == lost and len(a.keep_lost) == keep_lost
    assert not any(a.alternatives for a in r.alternatives)


def test_keep_costs_more_and_says_so() -> None:
    ship = load_ship(BLOCKED)
    plain = fix(ship)
    assert plain.lost == 1 and [ship.board.cell_name(i) for i in plain.removed] == [[6, 6]]
    kept = fix(ship, keep=[(6, 6)])
    # keeping the cannon at (6,6) means taking off the cabin it fires into, and the cannon above it
    assert [ship.board.cell_name(i) for i in kept.removed] == [[7, 5], [7, 6]]
    assert kept.lost == 2 and kept.min_lost == 1 and kept.keep_lost == ()
    assert "costs 1 more than the minimum" in kept.reason
    # squares by label, by text and by grid index name the same tile
    index = next(i for i in range(ship.board.size) if ship.board.cell_name(i) == [6, 6])
    assert fix(ship, keep=["6,6"]).removed == fix(ship, keep=[index]).removed == kept.removed


def test_keep_a_square_no_legal_ship_keeps() -> None:
    # an engine turned sideways (E1) can never stay
    ship = load_ship(ROOT / "examples" / "mistakes" / "engine-sideways.toml")
    bad = next(v for v in check(ship).violations if v.code == "E1").cells[0]
    r = fix(ship, keep=[bad])
    assert r.keep_lost == (bad,) and r.lost == r.min_lost == fix(ship).lost
    assert "no legal ship keeps" in r.reason


def test_keep_squares_show_their_labels() -> None:
    # like `removed`, the squares asked for print as the board's labels, not grid indices
    ship = load_ship(BLOCKED)
    r = fix(ship, keep=["6,6"])
    assert repr(r.keep) == "((6,6),)" and repr(r.removed) == "((7,5), (7,6))"
    sideways = load_ship(ROOT / "examples" / "mistakes" / "engine-sideways.toml")
    bad = next(v for v in check(sideways).violations if v.code == "E1").cells[0]
    assert repr(fix(sideways, keep=[int(bad)]).keep_lost) == f"({bad!r},)"


def test_keep_one_square_by_its_label() -> None:
    # keep=(7,5) is the square (7,5), as results print it, not grid indices 7 and 5
    ship = load_ship(BLOCKED)
    assert fix(ship, keep=(7, 5)).keep == fix(ship, keep=[(7, 5)]).keep == fix(ship, keep="7,5").keep
    assert [ship.board.cell_name(i) for i in fix(ship, keep=(7, 5)).keep] == [[7, 5]]


@pytest.mark.parametrize("keep", [[(99, 99)], ["x"], [(5, 5)], 5.5, None, [1.5], (99, 99)])
def test_bad_keep_is_an_input_error(keep: object) -> None:
    with pytest.raises(InputError):
        fix(load_ship(BLOCKED), keep=keep)  # (5,5): a square of the board with no tile


def test_cli_keep_and_alternatives(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "fix", str(BLOCKED), "--keep", "6,6", "--alternatives", "2", "--format", "json")
    doc = json.loads(out)
    assert code == 0
    # the contract's keys keep their meaning; the new ones are added
    assert {"ship", "legal_before", "lost", "removed", "kept"} <= set(doc)
    assert doc["removed"] == [[7, 5], [7, 6]] and doc["lost"] == 2 and doc["kept"] == 14
    assert doc["keep"] == [[6, 6]] and doc["keep_lost"] == [] and doc["min_lost"] == 1
    assert doc["alternatives"] == []
    code, out, _ = run(capsys, "fix", str(BLOCKED), "--keep", "6,6")
    assert code == 0 and "kept as asked: (6,6)" in out and "the minimum without --keep is 1 lost" in out


def test_cli_lists_alternatives(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # two loose cabins side by side: either may go, one of them must
    p = tmp_path / "s.toml"
    p.write_text('format = 1\nclass = "I"\n'
                 '[[tile]]\nat = [7, 6]\nkind = "cabin"\nsides = "0010"\n'
                 '[[tile]]\nat = [8, 7]\nkind = "cabin"\nsides = "0001"\n', encoding="utf-8")
    ship = load_ship(p)
    r = fix(ship, alternatives=3)
    (kl, lost), best = brute_best(ship, set())
    assert len([r, *r.alternatives]) == len(best)
    code, out, _ = run(capsys, "fix", str(p), "--alternatives", "3", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and len(doc["alternatives"]) == len(best) - 1
    assert {frozenset(map(tuple, a["removed"])) for a in doc["alternatives"]} | {
        frozenset(map(tuple, doc["removed"]))} == {frozenset(tuple(ship.board.cell_name(i)) for i in s) for s in best}


@pytest.mark.parametrize("args", [["--keep", "99,99"], ["--keep", "5,5"], ["--alternatives", "-1"]])
def test_cli_bad_keep(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "fix", str(BLOCKED), *args)
    assert code == 2 and out == "" and err.startswith("shipcheck: error:") and len(err.splitlines()) == 1


def test_a_square_named_by_col_and_row_is_read_by_name_in_either_order() -> None:
    from shipcheck.check.fix import square_of
    from shipcheck.shipfile import load_ship as load

    root = Path(__file__).resolve().parents[1] / "examples"
    index_board = load(root / "class-IIC-seamrunner.toml").board  # squares named {col, row} by grid index
    assert square_of(index_board, "row=2,col=3") == square_of(index_board, "col=3,row=2") == 2 * index_board.width + 3
    label_board = load(root / "class-I-scout.toml").board
    assert square_of(label_board, "row=8,col=7") == square_of(label_board, "7,8")
    with pytest.raises(InputError, match=r"e\.g\. col=\d+,row=\d+ \(grid indices\)"):
        square_of(index_board, "99,99")
    with pytest.raises(InputError):
        square_of(label_board, "row=8,x=7")
