"""The terminal drawing of a ship."""

from __future__ import annotations

from pathlib import Path

from shipcheck.render import label_text, legend, render_board, render_ship, render_ship_text
from shipcheck.shipfile import load_ship, parse_ship
from shipcheck.topology import builtin_board

ROOT = Path(__file__).resolve().parents[1]
BLUE = ROOT / "examples" / "blue-round1.toml"


def test_labels_and_kind_codes() -> None:
    text = render_ship_text(load_ship(BLUE))
    lines = text.splitlines()
    assert lines[0].split() == ["5", "6", "7", "8", "9"]
    row_labels = [ln.split()[0] for ln in lines[1:] if ln[:2].strip().isdigit()]
    assert row_labels == ["5", "6", "7", "8", "9"]
    for code in ("PIL", "CAB", "ENG", "CAN", "SHD", "BAT", "CRG"):
        assert code in text


def test_fits_a_terminal_for_class_iii() -> None:
    ship = load_ship(ROOT / "examples" / "class-III-hauler.toml")
    assert max(len(ln) for ln in render_ship_text(ship).splitlines()) <= 80


def test_sides_are_drawn_after_rotation() -> None:
    ship = parse_ship('format = 1\nclass = "I"\n\n[[tile]]\nat = [8, 7]\nkind = "cabin"\nsides = "1200"\nrot = 90\n')
    lines = render_ship_text(ship).splitlines()
    row7 = next(i for i, ln in enumerate(lines) if ln.startswith("7"))
    # rot 90: single moves N->E, double E->S
    assert "CAB ─" in lines[row7]
    assert "║" in lines[row7 + 1]


def test_barrels_and_exhausts() -> None:
    ship = parse_ship('format = 1\nclass = "I"\n\n[[tile]]\nat = [7, 6]\nkind = "cannon"\nsides = "0010"\n'
                      '\n[[tile]]\nat = [7, 8]\nkind = "engine"\nsides = "1000"\n'
                      '\n[[tile]]\nat = [8, 7]\nkind = "cannon"\nsides = "0010"\nrot = 90\n')
    text = render_ship_text(ship)
    assert "▲" in text and "▶" in text and "▒▒▒" in text


def test_empty_squares() -> None:
    text = render_ship_text(parse_ship('format = 1\nclass = "I"\n'))
    assert "PIL" in text  # the implied pilot cabin
    assert text.count("·") == 17
    ivc = render_ship_text(parse_ship('format = 1\nclass = "IVC"\n'))
    assert "A" in ivc and "5" in ivc


def test_marks_highlight() -> None:
    ship = load_ship(BLUE)
    start = ship.board.start
    assert start is not None
    plain = render_ship_text(ship, marks={start: "B2"})
    assert "B2" in plain
    drawn = render_ship(ship, marks={start: "B2"}, color=True)
    styles = {style for _, _, style in drawn.spans}
    assert any("red" in s for s in styles)
    assert "\x1b[1;37;41m" in drawn.ansi()  # bold white on red
    no_color = render_ship(ship, marks={start: "B2"}, color=False)
    assert not no_color.spans


def test_labels_compact_and_legend() -> None:
    assert label_text((7,)) == "7"
    assert label_text((6, 7, 8)) == "6-8"
    assert label_text((2, 3)) == "2/3"
    assert "single" in legend() and "\n" not in legend()
    small = render_board(builtin_board("IA"))
    assert "6-8" in small and "S" in small
