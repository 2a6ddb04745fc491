"""A commented starter ship for any built-in class: the text `shipcheck new` prints.

The starter is a small legal ship (pilot cabin, cannon, engine, cabin, battery) placed round the
start square, or round the square nearest the middle of the board where a class has none; it is
checked before it is returned, so it always passes `shipcheck check`. Its outer sides carry open
universal connectors, which join a connector of any type, so `shipcheck place` finds squares on it
for ordinary tiles; each open connector is exposed until something is welded to it.
"""

from __future__ import annotations

import textwrap

from shipcheck.errors import InputError
from shipcheck.shipfile import _toml_string
from shipcheck.topology import BUILTIN_CLASSES, Board, builtin_board

# (row offset, col offset, kind, sides, extra lines) around the pilot cabin; sides N E S W at rotation 0
_PARTS: tuple[tuple[int, int, str, str, str], ...] = (
    (0, 0, "start_cabin", "3333", "the pilot cabin: 4 universal connectors, 2 humans"),
    (-1, 0, "cannon", "0333", "barrel at N (written 0); universal connectors: S joins the pilot cabin, E and W are "
     "open"),
    (1, 0, "engine", "3303", "universal at N; the exhaust at S (written 0) points to the rear; E and W open"),
    (0, 1, "cabin", "3333", "2 humans by default; crew = \"purple\" would need a joined life support; N, E, S open"),
    (0, -1, "battery", "3333", "cells = 2 or 3; charge (optional) says how many are left; N, S, W open"),
)


def _square_text(board: Board, i: int) -> str:
    name = board.cell_name(i)
    if isinstance(name, dict):
        return f"{{col = {name['col']}, row = {name['row']}}}"
    return f"[{name[0]}, {name[1]}]"


def _candidates(board: Board) -> list[int]:
    """Squares to build round: the start square, else buildable squares nearest the middle."""
    if board.start is not None:
        return [board.start]
    mid_r, mid_c = (board.height - 1) / 2, (board.width - 1) / 2
    squares = [i for i in range(board.size) if board.buildable(i)]
    return sorted(squares, key=lambda i: (abs(i // board.width - mid_r) + abs(i % board.width - mid_c), i))


def _text(cls: str, edition: str, board: Board, centre: int, name: str | None) -> str | None:
    r0, c0 = divmod(centre, board.width)
    hulls = board.hulls()
    lines = [
        f"# A starter ship for class {cls}, made by `shipcheck new`.",
        "# Check it: shipcheck check FILE; build on it: shipcheck place FILE TILE",
        "# Squares are [column, row] by the numbers printed on the board edges"
        + (";\n# on this board {col = i, row = j}, 0-based grid indices." if board.index_cells else "."),
        "# Sides are 4 digits for N E S W as printed (rotation 0):",
        "# 0 smooth, 1 single, 2 double, 3 universal; `rot = 90` turns a tile a quarter",
        "# clockwise. A catalogue tile can be named instead: id = \"2007:5\".",
        "# Every key is described in shipcheck's docs/ship-format.md; the boards:",
        "# shipcheck boards.",
        "",
        "format = 1",
        f'class = "{cls}"',
    ]
    if edition != "2007":
        lines.append(f'edition = "{edition}"                # the tile catalogue `id` refers to')
    else:
        lines.append('# edition = "2021"               # the 2021 tile catalogue (default 2007)')
    lines.append(f"name = {_toml_string(name or 'My ship')}")
    if board.choose_front:
        lines.append('front = "N"          # the player chooses the front on this board: N, E, S or W')
    if board.die_squares:
        lines.append("# dice = [2, 5]       # the two rolls that unlocked die squares on this board")
    if not board.verified:
        lines.append(f"# Board {board.name} is provisional: its geometry comes from secondary sources.")
    for dr, dc, kind, sides, comment in _PARTS:
        r, c = r0 + dr, c0 + dc
        if not (0 <= r < board.height and 0 <= c < board.width):
            return None
        i = r * board.width + c
        if not board.buildable(i) or hulls[i] != hulls[centre]:
            return None
        if kind == "start_cabin" and board.start is None:
            comment += "; this board has no start square: place it anywhere (unplaced, it counts as lost)"
        lines += ["", *textwrap.wrap(comment, 78, initial_indent="# ", subsequent_indent="# "), "[[tile]]", f"at = {_square_text(board, i)}", f'kind = "{kind}"',
                  f'sides = "{sides}"']
        if kind == "battery":
            lines.append("cells = 2")
    return "\n".join(lines) + "\n"


def starter_ship(cls: str, *, edition: str = "2007", name: str | None = None) -> str:
    """The text of a commented, legal starter ship of a built-in class."""
    from shipcheck.check.rules import check
    from shipcheck.shipfile import parse_ship

    if cls not in BUILTIN_CLASSES:
        raise InputError("unknown ship class", key="class", value=cls, expected="one of " + ", ".join(BUILTIN_CLASSES))
    if edition not in ("2007", "2021"):
        raise InputError("unknown edition", key="edition", value=edition, expected='"2007" or "2021"')
    board = builtin_board(cls, edition)
    for centre in _candidates(board):
        text = _text(cls, edition, board, centre, name)
        if text is None:
            continue
        report = check(parse_ship(text, file="<starter>"))
        if not report.violations:
            return text
    raise InputError(f"no room for a starter ship on board {board.name}", key="class", value=cls)  # pragma: no cover


def starter_classes() -> list[tuple[str, str]]:
    """Every (class, edition) pair `new` accepts where the boards differ."""
    out: list[tuple[str, str]] = [(c, "2007") for c in BUILTIN_CLASSES]
    out.append(("II", "2021"))
    return out


__all__ = ["starter_classes", "starter_ship"]
