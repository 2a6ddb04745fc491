"""`fix`: the exact minimum repair (shipcheck.check.fix), checked by hand and against brute force."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from fixkit import brute_force_fix
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipcheck.check.fix import CONSTRUCTION, FixResult, fix
from shipcheck.check.rules import check
from shipcheck.model import KINDS, Ship, Tile
from shipcheck.shipfile import load_ship, parse_ship
from shipcheck.topology import builtin_board


def ship(text: str, base_dir: Path | None = None) -> Ship:
    return parse_ship(text, base_dir=base_dir)


def tile(at: str, kind: str, sides: str, extra: str = "") -> str:
    return f'\n[[tile]]\nat = {at}\nkind = "{kind}"\nsides = "{sides}"\n{extra}'


def construction_errors(s: Ship) -> list[tuple[str, tuple[int, ...]]]:
    return [(v.code, v.cells) for v in check(s).violations if v.code in CONSTRUCTION]


def names(s: Ship, squares) -> list:
    return [s.board.cell_name(i) for i in squares]


def assert_sound(r: FixResult) -> None:
    """The repair is legal and its bookkeeping adds up."""
    assert r.fixable and r.fixed is not None
    assert construction_errors(r.fixed) == []
    assert r.lost == len(r.removed) == len(r.cut) + len(r.fell_off)
    assert r.kept + r.lost == len(r.ship.tiles)
    assert sorted(r.cut + r.fell_off) == list(r.removed)
    assert {t.at for t in r.fixed.tiles} == {t.at for t in r.ship.tiles} - set(r.removed)


# -- hand-made cases ------------------------------------------------------------------------------
PILOT = tile("[7, 7]", "start_cabin", "3333")


def test_rulebook_cabin_or_battery() -> None:
    # C2 between the cabin [8,6] and the battery [8,7]; the engine [8,8] hangs from the battery.
    s = ship('format = 1\nclass = "I"\n' + PILOT
             + tile("[7, 6]", "structural", "0330")
             + tile("[8, 6]", "cabin", "0023")
             + tile("[8, 7]", "battery", "1013", "cells = 2\n")
             + tile("[8, 8]", "engine", "1000"))
    r = fix(s)
    assert_sound(r)
    assert r.lost == 1 and not r.legal_before
    assert names(s, r.removed) == [[8, 6]]
    assert names(s, r.cut) == [[8, 6]] and r.fell_off == ()
    assert r.why == {r.removed[0]: ["C2"]}
    d = r.to_dict("blue.toml")
    assert {k: d[k] for k in ("ship", "legal_before", "lost", "removed", "kept")} == {
        "ship": "blue.toml", "legal_before": False, "lost": 1, "removed": [[8, 6]], "kept": 4}
    assert d["fixable"] is True and d["cut"] == [[8, 6]] and d["fell_off"] == []
    assert d["crew_violations"] == []
    json.dumps(d)


def test_branch_makes_the_other_tile_cheaper() -> None:
    # X [7,6] carries [7,5] and [6,6]; its smooth E faces the single W of Z [8,6] (C1).
    # Removing X (the earlier square) loses 3; removing Z loses 1.
    s = ship('format = 1\nclass = "I"\n' + PILOT
             + tile("[7, 6]", "structural", "3033")
             + tile("[7, 5]", "structural", "0030")
             + tile("[6, 6]", "structural", "0300")
             + tile("[8, 6]", "structural", "0031")
             + tile("[8, 7]", "structural", "3003"))
    assert [c for c, _ in construction_errors(s)] == ["C1"]
    r = fix(s)
    assert_sound(r)
    assert r.lost == 1 and names(s, r.removed) == [[8, 6]]
    assert brute_force_fix(s) == 1


def test_falling_branch_counts_as_lost() -> None:
    # The engine [8,8] is turned (exhaust W, E1) so it must go; [8,9] hangs only from it and falls.
    s = ship('format = 1\nclass = "I"\n' + PILOT
             + tile("[8, 7]", "structural", "0033")
             + tile("[8, 8]", "engine", "0303", "rot = 90\n")
             + tile("[8, 9]", "structural", "3000"))
    assert [c for c, _ in construction_errors(s)] == ["E1"]
    r = fix(s)
    assert_sound(r)
    assert r.lost == 2
    assert names(s, r.cut) == [[8, 8]] and names(s, r.fell_off) == [[8, 9]]
    assert r.why[r.fell_off[0]] == []
    assert brute_force_fix(s) == 2


WRAP_BOARD = """format = 1
name = "T4"
columns = [1, 2, 3, 4]
rows = [1, 2, 3, 4]
cells = ["####", "####", "####", "####"]
wrap = {wrap}
"""

WRAP_SHIP = ('format = 1\nboard = "t4.toml"\n'
             + tile("[1, 1]", "structural", "0330")
             + tile("[1, 2]", "structural", "3000")
             + tile("[2, 1]", "structural", "0303")
             + tile("[3, 1]", "structural", "0333")
             + tile("[4, 1]", "structural", "0303")
             + tile("[3, 2]", "structural", "3030")
             + tile("[3, 3]", "structural", "3030")
             + tile("[3, 4]", "engine", "3000"))


@pytest.mark.parametrize("wrap", [True, False])
def test_wrap_board(tmp_path: Path, wrap: bool) -> None:
    # Across the left/right edge [4,1] E universal meets [1,1] W smooth (C1); across the
    # top/bottom edge the engine [3,4] blows on [3,1] (E2). Cheapest: [4,1] and the engine.
    (tmp_path / "t4.toml").write_text(WRAP_BOARD.format(wrap=str(wrap).lower()))
    s = ship(WRAP_SHIP, tmp_path)
    r = fix(s)
    assert_sound(r)
    if wrap:
        assert sorted(c for c, _ in construction_errors(s)) == ["C1", "E2"]
        assert r.lost == 2
        assert names(s, r.removed) == [[4, 1], [3, 4]]
        assert names(s, r.cut) == [[4, 1], [3, 4]]
    else:
        assert r.lost == 0 and r.legal_before and r.removed == ()
    assert brute_force_fix(s) == r.lost


def iic(b_west: str) -> Ship:
    return ship('format = 1\nclass = "IIC"\n'
                + tile("{col = 0, row = 2}", "structural", "0300")
                + tile("{col = 1, row = 2}", "structural", "0303")
                + tile("{col = 2, row = 2}", "structural", "010" + b_west)
                + tile("{col = 3, row = 2}", "structural", "0011")
                + tile("{col = 3, row = 3}", "structural", "1000"))


def test_seam() -> None:
    # Across the seam universal meets single: C3, so the two sides are separate pieces and the
    # smaller one (no pilot on IIC) is lost; universal-universal across the seam is legal.
    s = iic("1")
    assert [c for c, _ in construction_errors(s)] == ["C3", "S1"]
    r = fix(s)
    assert_sound(r)
    assert r.lost == 2
    d = r.to_dict()
    assert d["removed"] == [{"col": 0, "row": 2}, {"col": 1, "row": 2}]
    assert d["cut"] == [] and len(d["fell_off"]) == 2
    assert brute_force_fix(s) == 2
    assert fix(iic("3")).lost == 0


def test_two_hulls_keep_one_piece_each() -> None:
    # IIA: hull A keeps the pair [4,6]-[5,6] and loses the lone [3,8]; hull B keeps the three
    # tiles of row 8 and loses the pair [8,6]-[9,6]. The halves need not be joined.
    s = ship('format = 1\nclass = "IIA"\n'
             + tile("[4, 6]", "structural", "0300") + tile("[5, 6]", "structural", "0003")
             + tile("[3, 8]", "structural", "0000")
             + tile("[8, 6]", "structural", "0300") + tile("[9, 6]", "structural", "0003")
             + tile("[9, 8]", "structural", "0300") + tile("[10, 8]", "structural", "0303")
             + tile("[11, 8]", "structural", "0003"))
    r = fix(s)
    assert_sound(r)
    assert r.lost == 3
    assert names(s, r.removed) == [[8, 6], [9, 6], [3, 8]]
    assert brute_force_fix(s) == 3


IVC_TILES = (tile("[5, 3]", "structural", "0300")      # hull A
             + tile("[6, 3]", "structural", "0303")    # die square 1: joins A and B when unlocked
             + tile("[7, 3]", "structural", "0003")    # hull B
             + tile("[4, 4]", "structural", "0000")    # hull A, alone
             + tile("[6, 5]", "structural", "0000")    # die square 5
             + tile("[8, 8]", "structural", "0000"))   # hull D, alone


def test_ivc_dice_unlock_and_merge() -> None:
    # dice 1 and 3: A, B and C form one hull; [4,4] is a second piece of it, [6,5] is locked.
    s = ship(f'format = 1\nclass = "IVC"\ndice = [1, 3]\n{IVC_TILES}')
    r = fix(s)
    assert_sound(r)
    assert names(s, r.removed) == [[4, 4], [6, 5]]
    assert brute_force_fix(s) == 2


def test_ivc_other_dice() -> None:
    # dice 2 and 4: [6,3] is locked (B1); A holds two lone tiles (one goes); die squares 2 and 4
    # merge B, C and D, where [7,3] and [8,8] are two pieces (one goes); [6,5] is locked.
    s = ship(f'format = 1\nclass = "IVC"\ndice = [2, 4]\n{IVC_TILES}')
    r = fix(s)
    assert_sound(r)
    assert r.lost == 4
    assert brute_force_fix(s) == 4


@pytest.mark.parametrize(("front", "lost"), [("W", 0), ("N", 1)])
def test_chosen_front_sets_the_rear(front: str, lost: int) -> None:
    # IA: an engine right of the pilot with its exhaust to the E is legal only when E is the rear.
    s = ship(f'format = 1\nclass = "IA"\nfront = "{front}"\n'
             + tile("{col = 2, row = 2}", "start_cabin", "3333")
             + tile("{col = 3, row = 2}", "engine", "3000", "rot = 270\n"))
    r = fix(s)
    assert_sound(r)
    assert r.lost == lost
    if lost:
        assert r.to_dict()["removed"] == [{"col": 3, "row": 2}] and r.why[r.removed[0]] == ["E1"]


def test_b2_pilot_off_start_is_unfixable() -> None:
    s = ship('format = 1\nclass = "I"\n' + tile("[7, 8]", "start_cabin", "3333")
             + tile("[8, 8]", "structural", "0000"))
    r = fix(s)
    assert not r.fixable and r.lost is None and r.removed == () and r.fixed is None
    assert "pilot cabin" in r.reason
    d = r.to_dict()
    assert d["fixable"] is False and d["lost"] is None and d["removed"] == []
    assert brute_force_fix(s) is None


def test_b2_start_square_taken_is_unfixable() -> None:
    s = ship('format = 1\nclass = "I"\n' + tile("[7, 7]", "structural", "3333"))
    r = fix(s)
    assert not r.fixable and r.lost is None
    assert brute_force_fix(s) is None


def test_already_legal() -> None:
    s = ship('format = 1\nclass = "I"\n' + PILOT + tile("[7, 8]", "engine", "3000"))
    r = fix(s)
    assert r.legal_before and r.lost == 0 and r.removed == () and r.kept == 2
    assert r.fixed == s


def test_crew_errors_are_reported_not_removed() -> None:
    s = ship('format = 1\nclass = "I"\n' + PILOT
             + tile("[8, 7]", "cabin", "0003", 'crew = "purple"\n')
             + tile("[9, 7]", "structural", "0000"))
    r = fix(s)
    assert_sound(r)
    assert r.lost == 1 and names(s, r.removed) == [[9, 7]]
    assert [v.code for v in r.crew] == ["A1"]
    assert r.to_dict()["crew_violations"][0]["cells"] == [[8, 7]]


def test_pilot_kept_on_start_board_even_when_dearer() -> None:
    # Dropping the pilot would keep the 3-tile row, but the contract keeps the pilot cabin.
    s = ship('format = 1\nclass = "I"\n' + tile("[7, 7]", "start_cabin", "0000")
             + tile("[6, 8]", "structural", "0300") + tile("[7, 8]", "structural", "1303")
             + tile("[8, 8]", "structural", "0003"))
    r = fix(s)
    assert_sound(r)
    assert r.lost == 3 and r.fixed is not None and r.fixed.pilot is not None
    assert brute_force_fix(s) == 3


def test_aside_not_counted() -> None:
    s = ship('format = 1\nclass = "I"\n' + PILOT + tile("[9, 9]", "structural", "0000")
             + '\n[[aside]]\nkind = "cabin"\nsides = "1111"\n')
    r = fix(s)
    assert r.lost == 1 and r.kept == 1


# -- properties -----------------------------------------------------------------------------------
KIND_POOL = ("structural", "cabin", "engine", "double_engine", "cannon", "double_cannon",
             "bidirectional_cannon", "cannon_engine", "shield", "battery")
SIDE_POOL = "012333"  # universal-heavy, so pieces join often enough to be interesting


@st.composite
def random_tile(draw, at: int, kinds=KIND_POOL) -> Tile:
    kind = draw(st.sampled_from(kinds))
    info = KINDS[kind]
    sides = "".join("0" if k in info.barrels + info.exhausts else draw(st.sampled_from(SIDE_POOL))
                    for k in range(4))
    rot = draw(st.sampled_from((0, 0, 1, 2, 3)))  # upright engines and cannons more often
    attrs = (("cells", 2),) if kind == "battery" else ()
    return Tile(at=at, kind=kind, sides=sides, rot=rot, attrs=attrs)


@st.composite
def random_ship(draw, board_name: str, max_tiles: int, dice: tuple[int, ...] = (),
                only_buildable: bool = False) -> Ship:
    board = builtin_board(board_name)
    squares = [i for i in range(board.size)
               if not only_buildable or board.buildable(i, dice)]
    start = board.start
    chosen = draw(st.lists(st.sampled_from(squares), unique=True, max_size=max_tiles))
    tiles = [draw(random_tile(i)) for i in chosen if i != start]
    if start is not None:
        pilot_sides = draw(st.sampled_from(("3333", "1111", "2222", "3030", "0303", "1230", "0000")))
        tiles.append(Tile(at=start, kind="start_cabin", sides=pilot_sides))
    return Ship(board=board, tiles=tuple(tiles), dice=dice)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_ship("I", 9, only_buildable=True))
def test_property_class_i_exact(s: Ship) -> None:
    r = fix(s)  # (a) no crash
    assert r.fixable
    assert_sound(r)  # (b) the fixed ship has no construction error
    assert brute_force_fix(s) == r.lost  # (c) no smaller removal exists


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_ship("I", 9))
def test_property_class_i_off_board_squares(s: Ship) -> None:
    r = fix(s)
    assert_sound(r)
    assert brute_force_fix(s) == r.lost


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_ship("IIIC", 9))
def test_property_torus_exact(s: Ship) -> None:
    r = fix(s)
    assert_sound(r)
    assert brute_force_fix(s) == r.lost


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_ship("IIIC", 36))
def test_property_torus_fixed_is_legal(s: Ship) -> None:
    assert_sound(fix(s))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([(1, 3), (2, 4), (5, 6), (1,), ()]).flatmap(
    lambda d: random_ship("IVC", 9, dice=d, only_buildable=True)))
def test_property_ivc_hulls_exact(s: Ship) -> None:
    r = fix(s)
    assert_sound(r)
    assert brute_force_fix(s) == r.lost


SPLIT_BOARD = """format = 1
name = "AB"
columns = [1, 2, 3, 4]
rows = [1, 2, 3]
cells = ["AB..", "....", "BBBB"]
"""

SPLIT_SHIP = ('format = 1\nboard = "ab.toml"\n'
              + tile("[1, 1]", "structural", "0300") + tile("[2, 1]", "structural", "0003")
              + tile("[1, 3]", "structural", "0300") + tile("[2, 3]", "structural", "0303")
              + tile("[3, 3]", "structural", "0003") + tile("[4, 3]", "structural", "1000"))


def test_piece_spanning_two_hulls(tmp_path: Path) -> None:
    # The pair [1,1]-[2,1] is hull A's ship, but in hull B it is a piece besides B's ship (row 3):
    # the contract makes it S1 there, so fix loses [2,1] as well as the lone [4,3].
    (tmp_path / "ab.toml").write_text(SPLIT_BOARD)
    s = ship(SPLIT_SHIP, tmp_path)
    r = fix(s)
    assert_sound(r)
    assert r.lost == 2 and names(s, r.removed) == [[2, 1], [4, 3]]


def test_checker_agrees_on_piece_spanning_two_hulls(tmp_path: Path) -> None:
    (tmp_path / "ab.toml").write_text(SPLIT_BOARD)
    s = ship(SPLIT_SHIP, tmp_path)
    assert brute_force_fix(s) == 2


def test_deterministic() -> None:
    s = ship('format = 1\nclass = "I"\n' + PILOT + tile("[6, 7]", "structural", "0000")
             + tile("[8, 7]", "structural", "0000"))
    first = fix(s)
    assert all(fix(s).removed == first.removed for _ in range(3))


def test_solver_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    # HiGHS writes a banner to the C-level stdout unless silenced before anything else: it would
    # corrupt `fix --format json`
    s = load_ship(Path(__file__).resolve().parents[1] / "examples" / "mistakes" / "loose-piece.toml")
    capfd.readouterr()
    assert fix(s).lost == 1
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_solver_prints_nothing_in_a_fresh_process() -> None:
    # HiGHS prints its banner once a process, on the first solver built: only a fresh process sees it
    code = ("import sys\nfrom shipcheck.shipfile import load_ship\nfrom shipcheck.check.fix import fix\n"
            "assert fix(load_ship(sys.argv[1]), alternatives=1).lost == 1\n")
    ship = Path(__file__).resolve().parents[1] / "examples" / "mistakes" / "loose-piece.toml"
    done = subprocess.run([sys.executable, "-c", code, str(ship)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""


def test_no_private_name_of_highspy_or_numba() -> None:
    """The package reaches HiGHS and numba through their public names only (``highspy._Highs`` was one)."""
    package = Path(__file__).resolve().parents[1] / "shipcheck"
    found = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                names = [f"{node.value.id}.{node.attr}"]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [f"{node.module}.{a.name}" for a in node.names]
            for n in names:
                parts = n.split(".")
                if parts[0] in ("highspy", "numba") and any(p.startswith("_") for p in parts[1:]):
                    found.append(f"{path.relative_to(package)}:{node.lineno} {n}")
    assert not found, found


# -- T1: a catalogue tile named twice ---------------------------------------------------------------
def _ids(s: Ship, squares) -> list:
    return sorted(t.id for t in s.tiles if t.at in squares)


def test_tile_used_twice_keeps_one_copy() -> None:
    # 2007:1 (battery, W universal) three times round the pilot: two copies go, the ship is legal
    s = ship('format = 1\nclass = "I"\n' + PILOT + '\n[[tile]]\nat = [8, 7]\nid = "2007:1"\n'
             '\n[[tile]]\nat = [6, 7]\nid = "2007:1"\nrot = 180\n\n[[tile]]\nat = [7, 6]\nid = "2007:1"\nrot = 270\n')
    r = fix(s)
    assert_sound(r)
    assert r.lost == 2 and r.fell_off == ()
    assert [t.id for t in r.fixed.tiles].count("2007:1") == 1
    assert all(r.why[i] == ["T1"] for i in r.removed)


def test_tile_used_twice_with_a_copy_set_aside() -> None:
    # the set-aside copy cannot be removed: the welded one goes
    s = ship('format = 1\nclass = "I"\n' + PILOT + '\n[[tile]]\nat = [8, 7]\nid = "2007:1"\n'
             '\n[[aside]]\nid = "2007:1"\n')
    r = fix(s)
    assert_sound(r)
    assert names(s, r.removed) == [[8, 7]]
    assert check(r.fixed).legal
