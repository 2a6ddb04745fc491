"""Properties of the checker on random ships (hypothesis).

- Random ships on every built-in board never crash the checker, and what it reports is sane.
- Mirror symmetry: on class I (symmetric about its middle column), IIIC (a torus) and every other
  board drawn symmetrically, the violations of ``ship.mirrored()`` are the mirror images of the
  original's; exposed counts are equal.
- Translation invariance on the IIIC torus.
- Round trip: ``parse_ship(dump_ship(s)) == s``.
- A layout worked out from the ship without one tile, that tile welded back (the advisor's way),
  is the layout worked out whole.

Ships are generated as ship-file text (``at = {col, row}``) and loaded with ``parse_ship``, so the
loader is exercised too. The one rule that is not symmetric is the S1 tie-break (the first square in
row-major order wins a tie between equally large pieces); where such a tie decides the ship, only the
number of S1 squares is compared.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shipcheck.check.rules import Layout, check
from shipcheck.model import CREW_VALUES, GOODS, KINDS, Ship
from shipcheck.shipfile import catalogue, dump_ship, parse_ship
from shipcheck.topology import BUILTIN_CLASSES, builtin_board

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALL_BOARDS = list(BUILTIN_CLASSES)
NON_PILOT_KINDS = sorted(k for k in KINDS if k != "start_cabin")
NAME_ALPHABET = st.characters(
    codec="utf-8", exclude_categories=("Cc", "Cs"), include_characters="\t\"\\"
)
META_VALUES = st.one_of(
    st.integers(-1000, 1000), st.booleans(), st.text(NAME_ALPHABET, max_size=8),
    st.lists(st.integers(0, 9), max_size=3),
)


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string without control characters is TOML


@st.composite
def tile_body(draw: st.DrawFn, kind: str, edition: str) -> list[str]:
    """The lines of one inline or catalogue tile (everything except `at`)."""
    lines: list[str] = []
    use_catalogue = kind != "start_cabin" and draw(st.integers(0, 4)) == 0
    if use_catalogue:
        ids = sorted(t for t, a in catalogue(edition).items() if a.kind != "start_cabin")
        tid = draw(st.sampled_from(ids))
        lines.append(f"id = {_toml_str(tid)}")
        info = KINDS[catalogue(edition)[tid].kind]
        attrs = dict(catalogue(edition)[tid].attrs)
    else:
        info = KINDS[kind]
        functional = set(info.barrels + info.exhausts)
        sides = "".join("0" if i in functional else str(draw(st.integers(0, 3))) for i in range(4))
        lines += [f"kind = {_toml_str(kind)}", f'sides = "{sides}"']
        attrs = {}
        for name, allowed in info.attrs.items():
            if name not in info.required and not draw(st.booleans()):
                continue
            if allowed is None:
                value: Any = draw(st.sampled_from(["blue", "red", "green", "yellow"]))
            elif kind == "mixed_cargo" and name == "special_slots":
                continue
            else:
                value = draw(st.sampled_from(allowed))
            attrs[name] = value
        if kind == "mixed_cargo":
            attrs["special_slots"] = draw(st.integers(1, attrs["slots"]))
        for name, value in attrs.items():
            lines.append(f"{name} = {json.dumps(value)}")
    rot = draw(st.sampled_from([0, 90, 180, 270]))
    if rot:
        lines.append(f"rot = {rot}")
    if info.crew and draw(st.booleans()):
        lines.append(f"crew = {_toml_str(draw(st.sampled_from(CREW_VALUES)))}")
    if info.charge and draw(st.booleans()):
        cap = attrs.get("cells", attrs.get("slots", 0))
        lines.append(f"charge = {draw(st.integers(0, cap))}")
    elif info.goods and info.name != "battery_hold" and draw(st.booleans()):
        slots = attrs.get("slots", 0)
        red_room = {"special_cargo": slots, "mixed_cargo": attrs.get("special_slots", 0)}.get(info.name, 0)
        goods = draw(st.lists(st.sampled_from(GOODS), max_size=slots))
        while goods.count("red") > red_room:
            goods.remove("red")
        lines.append(f"goods = {json.dumps(goods)}")
    return lines


@st.composite
def ship_texts(
    draw: st.DrawFn, boards: list[str] = ALL_BOARDS, max_tiles: int = 14, extras: bool = False,
    dice: bool = True,
) -> str:
    """Ship-file text of a random ship on one of ``boards``: random squares (any grid square, so
    B1 happens), random kinds, sides, rotations and crew, at most one pilot cabin."""
    cls = draw(st.sampled_from(boards))
    edition = "2021" if cls == "II" and draw(st.booleans()) else "2007"
    board = builtin_board(cls, edition)
    out = ["format = 1", f'class = "{cls}"']
    if edition != "2007":
        out.append(f'edition = "{edition}"')
    if board.choose_front:
        out.append(f'front = "{draw(st.sampled_from("NESW"))}"')
    if dice and board.die_squares and draw(st.booleans()):
        out.append(f"dice = {draw(st.lists(st.integers(1, 6), min_size=1, max_size=2))}")
    if extras and draw(st.booleans()):
        out.append(f"name = {_toml_str(draw(st.text(NAME_ALPHABET, max_size=12)))}")
    # mostly a dense window of the grid (so tiles touch), sometimes squares anywhere
    hh, ww = draw(st.integers(1, min(board.height, 4))), draw(st.integers(1, min(board.width, 4)))
    r0, c0 = draw(st.integers(0, board.height - hh)), draw(st.integers(0, board.width - ww))
    window = [(r0 + r) * board.width + c0 + c for r in range(hh) for c in range(ww)]
    squares = draw(st.lists(st.sampled_from(window), unique=True, max_size=max_tiles))
    squares += draw(st.lists(st.integers(0, board.size - 1).filter(lambda i: i not in squares),
                             unique=True, max_size=3))
    pilot = draw(st.sampled_from(squares)) if squares and draw(st.booleans()) else None
    for i in squares:
        kind = "start_cabin" if i == pilot else draw(st.sampled_from(NON_PILOT_KINDS))
        r, c = divmod(i, board.width)
        out += ["", "[[tile]]", f"at = {{col = {c}, row = {r}}}"]
        out += draw(tile_body(kind, edition))
    if extras:
        for _ in range(draw(st.integers(0, 2))):
            out += ["", "[[aside]]"]
            body = draw(tile_body(draw(st.sampled_from(NON_PILOT_KINDS)), edition))
            out += [x for x in body if x.split(" ", 1)[0] in ("id", "kind", "sides", "cells", "slots",
                                                               "special_slots", "color")]
        meta = draw(st.dictionaries(st.from_regex(r"[a-z][a-z0-9_-]{0,6}", fullmatch=True), META_VALUES,
                                    max_size=3))
        if meta:
            out += ["", "[meta]"] + [f"{k} = {_meta_value(v)}" for k, v in meta.items()]
    return "\n".join(out) + "\n"


def _meta_value(v: Any) -> str:
    if isinstance(v, str):
        return _toml_str(v)
    return json.dumps(v)


# -- helpers ---------------------------------------------------------------------------------------
def mirror_index(ship: Ship, i: int) -> int:
    r, c = divmod(i, ship.board.width)
    return r * ship.board.width + (ship.board.width - 1 - c)


def tie_decides_the_ship(ship: Ship) -> bool:
    """Whether, in a hull without the pilot cabin, two or more pieces share the largest size."""
    tiles = ship.by_index
    pieces = Layout.of(ship, tiles).pieces()
    hulls = ship.board.hulls(ship.dice)
    pilot = ship.pilot
    pilot_hull = hulls[pilot.at] if pilot is not None else None
    for h in {h for h in hulls if h is not None}:
        if pilot is not None and pilot_hull == h:
            continue
        sizes = [len(p) for p in pieces if any(hulls[i] == h for i in p)]
        if sizes and Counter(sizes)[max(sizes)] > 1:
            return True
    return False


def compare_codes(expected: dict[str, set[int]], got: dict[str, set[int]], tie: bool) -> None:
    if tie:
        assert len(expected.pop("S1", set())) == len(got.pop("S1", set()))
    assert expected == got


def tile_key(t: Any) -> tuple:
    return (t.at, t.kind, t.eff, tuple(sorted(t.barrels)), tuple(sorted(t.exhausts)),
            tuple(sorted(t.covers)), t.attrs, t.crew, t.charge, t.goods, t.implied)


# -- properties ------------------------------------------------------------------------------------
@SETTINGS
@given(ship_texts())
def test_random_ships_never_crash(text: str) -> None:
    ship = parse_ship(text)
    report = check(ship)
    assert report.exposed_connectors >= 0
    assert report.exposed_connectors == sum(report.exposed_by_side)
    assert report.legal == (not report.errors)
    allowed = set(ship.by_index) | ({ship.board.start} if ship.board.start is not None else set())
    for v in report.violations:
        assert v.cells, v
        assert set(v.cells) <= allowed, (v, sorted(allowed))
        v.to_dict(ship)  # every violation serialises
    report.to_dict()


@SETTINGS
@given(ship_texts(), st.data())
def test_a_layout_with_a_tile_welded_equals_the_whole_layout(text: str, data: st.DataObject) -> None:
    from dataclasses import replace

    ship = parse_ship(text)
    if not ship.tiles:
        return
    t = data.draw(st.sampled_from(ship.tiles))
    without = replace(ship, tiles=tuple(x for x in ship.tiles if x is not t))
    welded = Layout.welded(replace(ship), Layout(without), t.at)
    whole = Layout(ship)
    for name in ("occ", "conn", "beside", "pairs", "joined", "bad", "notable", "tiles"):
        assert getattr(welded, name) == getattr(whole, name), name
    assert welded.piece_masks() == whole.piece_masks()


# Boards whose drawing is symmetric about the middle column: I, II (both editions), III, IIIa, IA
# (its front E/W swaps), IC/IIC (the seam is the middle line), IIIC (torus) and IVC while no die is
# rolled (hulls A/B and C/D swap; the die numbers are not symmetric). Not IIA.
MIRROR_BOARDS = ["I", "II", "III", "IIIa", "IA", "IC", "IIC", "IIIC", "IVC"]


def test_mirror_boards_are_symmetric() -> None:
    for name in MIRROR_BOARDS:
        board = builtin_board(name)
        for i in range(board.size):
            r, c = divmod(i, board.width)
            m = board.char(r * board.width + board.width - 1 - c)
            a = board.char(i)
            same_class = {a, m} <= set("ABCD") or {a, m} <= set("123456")
            assert a == m or same_class, (name, i)


@SETTINGS
@given(ship_texts(boards=MIRROR_BOARDS, dice=False))
def test_mirror_symmetry(text: str) -> None:
    ship = parse_ship(text)
    mirrored = ship.mirrored()
    # mirroring keeps the squares' contents, kinds and functional directions mirrored
    assert sorted(mirror_index(ship, t.at) for t in ship.tiles) == sorted(t.at for t in mirrored.tiles)
    back = mirrored.mirrored()
    assert [tile_key(t) for t in back.tiles] == [tile_key(t) for t in ship.tiles]
    for t in ship.tiles:
        m = mirrored.tile_at(mirror_index(ship, t.at))
        assert m is not None and m.kind == t.kind
        assert m.eff == (t.eff[0], t.eff[3], t.eff[2], t.eff[1])
        flip = {0: 0, 1: 3, 2: 2, 3: 1}
        assert sorted(m.barrels) == sorted(flip[s] for s in t.barrels)
        assert sorted(m.exhausts) == sorted(flip[s] for s in t.exhausts)
        assert sorted(m.covers) == sorted(flip[s] for s in t.covers)
    # the mirrored ship is a valid ship file again
    assert parse_ship(dump_ship(mirrored)) == mirrored

    r1, r2 = check(ship), check(mirrored)
    assert r1.exposed_connectors == r2.exposed_connectors
    # a mirrored catalogue tile is no printed tile (it keeps no id): T1 has nothing to mirror
    expected = {code: {mirror_index(ship, i) for i in cells} for code, cells in r1.codes().items() if code != "T1"}
    compare_codes(expected, r2.codes(), tie_decides_the_ship(ship) or tie_decides_the_ship(mirrored))


@SETTINGS
@given(ship_texts(boards=["IIIC"]), st.integers(0, 5), st.integers(0, 5))
def test_torus_translation_invariance(text: str, dx: int, dy: int) -> None:
    ship = parse_ship(text)
    w, h = ship.board.width, ship.board.height

    def move(i: int) -> int:
        r, c = divmod(i, w)
        return ((r + dy) % h) * w + (c + dx) % w

    from dataclasses import replace

    moved = replace(ship, tiles=tuple(replace(t, at=move(t.at)) for t in ship.tiles))
    r1, r2 = check(ship), check(moved)
    assert r1.exposed_connectors == r2.exposed_connectors
    expected = {code: {move(i) for i in cells} for code, cells in r1.codes().items()}
    compare_codes(expected, r2.codes(), tie_decides_the_ship(ship) or tie_decides_the_ship(moved))


@SETTINGS
@given(ship_texts(extras=True))
def test_round_trip(text: str) -> None:
    ship = parse_ship(text)
    dumped = dump_ship(ship)
    again = parse_ship(dumped)
    assert again == ship, dumped
    assert dump_ship(again) == dumped


# -- dump_ship edge cases: strings that need escapes, quoted keys, dates --
def test_round_trip_name_with_newline() -> None:
    ship = parse_ship('format = 1\nclass = "I"\nname = "Blue\\nround 1"\n')
    assert parse_ship(dump_ship(ship)) == ship


def test_round_trip_meta_key_needing_quotes() -> None:
    ship = parse_ship('format = 1\nclass = "I"\n\n[meta]\n"made by" = "me"\n')
    assert parse_ship(dump_ship(ship)) == ship


def test_round_trip_meta_date() -> None:
    ship = parse_ship('format = 1\nclass = "I"\n\n[meta]\nbuilt = 2024-05-01\n')
    assert parse_ship(dump_ship(ship)) == ship
