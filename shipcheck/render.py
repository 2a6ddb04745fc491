"""Drawing a ship in the terminal: the board grid with its printed labels, one small block a square.

Each square is a block 7 characters wide and 3 lines high: a tile shows its three-letter kind code
in the middle and its four *effective* sides (after rotation) on the edges (``│─`` single, ``║═``
double, ``▒▒▒`` an exhaust), so facing sides of neighbours stand next to each other and a bad joint
shows at a glance (``─═`` is single against double). Empty squares: ``·`` buildable, ``S`` the
start square, a digit for a die-unlocked square, a letter for a square of a hull; squares off the
ship are blank; a ``¦`` column marks a transdimensional seam.

Drawings are :class:`Styled` text: plain characters with named styles, written as ANSI colour
codes for a terminal (:meth:`Styled.ansi`) or handed to rich (``__rich__``). The module imports no
terminal library, so ``shipcheck check`` starts quickly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from shipcheck.topology import DIE_CHARS, HULL_CHARS, Board, Label

if TYPE_CHECKING:  # render draws the ship model's objects; it never builds one (model imports render)
    from shipcheck.model import Ship, Tile

CELL_W = 7
CELL_H = 3

# connector glyphs: (on a front/rear edge, on a left/right edge)
_CONNECTOR = {
    1: ("│", "─"),
    2: ("║", "═"),
    3: ("╬", "╬"),
}
_BARREL = ("▲", "▶", "▼", "◀")  # pointing N, E, S, W
_EXHAUST_NS = "▒▒▒"
_EXHAUST_EW = "▒"
# shield coverage: the corner between the two covered sides
_SHIELD_CORNER = {  # (row, column from the left or -1 from the right, glyph)
    frozenset((0, 1)): (0, -1, "◥"),
    frozenset((1, 2)): (CELL_H - 1, -1, "◢"),
    frozenset((2, 3)): (CELL_H - 1, 0, "◣"),
    frozenset((3, 0)): (0, 0, "◤"),
}

_KIND_STYLE = {
    "start_cabin": "bold bright_white",
    "cabin": "bright_white",
    "luxury_cabin": "bright_white",
    "stasis_chamber": "white",
    "engine": "bright_yellow",
    "double_engine": "bold bright_yellow",
    "cannon_engine": "bold bright_yellow",
    "cannon": "bright_magenta",
    "double_cannon": "bold bright_magenta",
    "bidirectional_cannon": "bold bright_magenta",
    "shield": "bright_cyan",
    "battery": "bright_green",
    "battery_hold": "bright_green",
    "reactor_furnace": "green",
    "cargo": "blue",
    "special_cargo": "red",
    "mixed_cargo": "magenta",
    "life_support": "bright_blue",
    "structural": "white",
    "plating": "white",
}
_ALIEN_LETTER = {"purple": "p", "orange": "o", "cyan": "c"}
_EDGE_STYLE = "grey70"
_FUNC_STYLE = "bold bright_red"
_SHIELD_STYLE = "bold bright_cyan"
_MARK_STYLE = "bold white on red"
_EMPTY_STYLE = "grey42"
_LABEL_STYLE = "bold"
_SEAM = "¦"

# SGR codes for the style words used here (a small subset of rich's style names)
_SGR = {
    "bold": "1", "black": "30", "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
    "cyan": "36", "white": "37", "bright_black": "90", "bright_red": "91", "bright_green": "92",
    "bright_yellow": "93", "bright_blue": "94", "bright_magenta": "95", "bright_cyan": "96",
    "bright_white": "97", "grey70": "38;5;249", "grey42": "38;5;242",
}
_SGR_BG = {"red": "41", "green": "42", "yellow": "43", "blue": "44", "magenta": "45", "cyan": "46",
           "white": "47", "black": "40", "heat1": "48;5;229", "heat2": "48;5;221", "heat3": "48;5;214",
           "heat4": "48;5;202", "heat5": "48;5;160"}


# CSS colours for the same style words (a dark-on-light page: bright colours darkened to stay readable)
_CSS = {
    "black": "#000", "red": "#b00", "green": "#070", "yellow": "#a60", "blue": "#15c", "magenta": "#a0a",
    "cyan": "#088", "white": "#555", "bright_black": "#777", "bright_red": "#d00", "bright_green": "#090",
    "bright_yellow": "#c80", "bright_blue": "#36f", "bright_magenta": "#c0c", "bright_cyan": "#0aa",
    "bright_white": "#000", "grey70": "#999", "grey42": "#bbb",
    "heat1": "#ffffaf", "heat2": "#ffd75f", "heat3": "#ffaf00", "heat4": "#ff5f00", "heat5": "#d70000",
}


def css_style(style: str) -> str:
    """Inline CSS for a style such as ``"bold white on red"``."""
    fg, _, bg = style.partition(" on ")
    out = []
    for w in fg.split():
        if w == "bold":
            out.append("font-weight: bold")
        elif w in _CSS:
            out.append(f"color: {_CSS[w]}")
    if bg.strip() in _CSS:
        out.append(f"background: {_CSS[bg.strip()]}")
        if "white" in fg:
            out = [o for o in out if not o.startswith("color")] + ["color: #fff"]
        elif "black" in fg:
            out = [o for o in out if not o.startswith("color")] + ["color: #000"]
    return "; ".join(out)


def sgr(style: str) -> str:
    """The ANSI escape for a style such as ``"bold white on red"`` (unknown words are ignored)."""
    fg, _, bg = style.partition(" on ")
    codes = [_SGR[w] for w in fg.split() if w in _SGR]
    codes += [_SGR_BG[w] for w in bg.split() if w in _SGR_BG]
    return f"\x1b[{';'.join(codes)}m" if codes else ""


class Styled:
    """Text with a style name per run of characters: ``segments`` is a list of (text, style)."""

    def __init__(self) -> None:
        self.segments: list[tuple[str, str]] = []

    def append(self, text: str, style: str | None = None) -> None:
        if text:
            self.segments.append((text, style or ""))

    @property
    def plain(self) -> str:
        return "".join(t for t, _ in self.segments)

    @property
    def spans(self) -> list[tuple[int, int, str]]:
        """(start, end, style) of every styled run."""
        out, at = [], 0
        for t, st in self.segments:
            if st:
                out.append((at, at + len(t), st))
            at += len(t)
        return out

    def ansi(self) -> str:
        """The text with ANSI colour codes (styles reset at every line end)."""
        parts = []
        for t, st in self.segments:
            code = sgr(st) if st else ""
            if not code:
                parts.append(t)
                continue
            # keep escapes off line ends so a pager or a cut line never bleeds colour
            parts.append("\n".join(f"{code}{piece}\x1b[0m" if piece else "" for piece in t.split("\n")))
        return "".join(parts)

    def rstrip(self) -> None:
        while self.segments and not self.segments[-1][0].strip():
            self.segments.pop()
        if self.segments:
            t, st = self.segments[-1]
            self.segments[-1] = (t.rstrip(), st)

    def __str__(self) -> str:
        return self.plain

    def html(self) -> str:
        """The text as an HTML ``<pre>`` block, styles as inline CSS (for notebooks)."""
        from html import escape

        parts = []
        for t, st in self.segments:
            css = css_style(st) if st else ""
            parts.append(f'<span style="{css}">{escape(t)}</span>' if css else escape(t))
        return ('<pre style="font-family: ui-monospace, Menlo, Consolas, monospace; line-height: 1.15">'
                + "".join(parts) + "</pre>")

    def __rich__(self) -> Any:
        from rich.text import Text

        out = Text(no_wrap=True, overflow="ignore")
        for t, st in self.segments:
            out.append(t, style=st or None)
        return out


@contextmanager
def narrow_cells() -> Iterator[None]:
    """Draw squares 5 characters wide instead of 7 inside the block (the tile code between its side
    connectors), for terminals too narrow for the usual drawing."""
    global CELL_W
    old, CELL_W = CELL_W, 5
    try:
        yield
    finally:
        CELL_W = old


def label_text(label: Label) -> str:
    """A board label as printed: ``7``, ``6-8`` for a run of three or more, else ``2/3``."""
    vals = list(label)
    if len(vals) == 1:
        return str(vals[0])
    if len(vals) >= 3 and vals == list(range(vals[0], vals[0] + len(vals))):
        return f"{vals[0]}-{vals[-1]}"
    return "/".join(str(v) for v in vals)


def legend() -> str:
    """One line explaining the glyphs."""
    return ("legend: │─ single  ║═ double  ╬ universal  ▲▶▼◀ barrel  ▒ exhaust  ◥ shielded corner  "
            "· empty  S start  ¦ seam  p/o/c alien")


def _tile_hint(t: Tile) -> str:
    """One character of extra information shown inside the block (bottom right)."""
    if t.alien:
        return _ALIEN_LETTER[t.alien]
    if t.kind == "life_support":
        return _ALIEN_LETTER.get(str(t.attr("color")), "?").upper()
    if t.kind in ("battery", "battery_hold"):
        return str(t.charges)
    if t.kind in ("cargo", "special_cargo", "mixed_cargo"):
        return str(t.attr("slots", ""))[:1]
    if t.crew == "empty":
        return "0"
    return ""


def _tile_block(t: Tile) -> list[list[tuple[str, str]]]:
    """The 3x7 block of a tile: a grid of (char, style)."""
    blank = ("", "")
    g: list[list[tuple[str, str]]] = [[(" ", blank[1]) for _ in range(CELL_W)] for _ in range(CELL_H)]
    mid_r, mid_c = CELL_H // 2, CELL_W // 2
    code = t.info.code
    style = _KIND_STYLE.get(t.kind, "")
    for k, ch in enumerate(code):
        g[mid_r][mid_c - 1 + k] = (ch, style)
    barrels, exhausts = set(t.barrels), set(t.exhausts)
    for s in range(4):
        if s in barrels:
            glyph, st = _BARREL[s], _FUNC_STYLE
            if s in (0, 2):
                g[0 if s == 0 else CELL_H - 1][mid_c] = (glyph, st)
            else:
                g[mid_r][CELL_W - 1 if s == 1 else 0] = (glyph, st)
            continue
        if s in exhausts:
            if s in (0, 2):
                r = 0 if s == 0 else CELL_H - 1
                for k, ch in enumerate(_EXHAUST_NS):
                    g[r][mid_c - 1 + k] = (ch, _FUNC_STYLE)
            else:
                g[mid_r][CELL_W - 1 if s == 1 else 0] = (_EXHAUST_EW, _FUNC_STYLE)
            continue
        c = t.eff[s]
        if not c:
            continue
        ns, ew = _CONNECTOR[c]
        if s in (0, 2):
            g[0 if s == 0 else CELL_H - 1][mid_c] = (ns, _EDGE_STYLE)
        else:
            g[mid_r][CELL_W - 1 if s == 1 else 0] = (ew, _EDGE_STYLE)
    covers = frozenset(t.covers)
    if covers in _SHIELD_CORNER:
        r, c, ch = _SHIELD_CORNER[covers]
        c = c % CELL_W
        g[r][c] = (ch, _SHIELD_STYLE)
    hint = _tile_hint(t)
    if hint:
        g[CELL_H - 1][CELL_W - 2] = (hint, style)
    return g


def _empty_block(board: Board, i: int, dice: tuple[int, ...]) -> list[list[tuple[str, str]]]:
    g = [[(" ", "") for _ in range(CELL_W)] for _ in range(CELL_H)]
    ch = board.char(i)
    mid = (CELL_H // 2, CELL_W // 2)
    if ch == ".":
        return g
    if ch == "S":
        g[mid[0]][mid[1]] = ("S", "bold")
    elif ch in DIE_CHARS:
        g[mid[0]][mid[1]] = (ch, "bold" if board.unlocked(i, dice) else _EMPTY_STYLE)
    elif ch in HULL_CHARS:
        g[mid[0]][mid[1]] = (ch, _EMPTY_STYLE)
    else:
        g[mid[0]][mid[1]] = ("·", _EMPTY_STYLE)
    return g


TAG_W = 3  # a mark's tag fits left of a tile's N connector: "C1", "RM", "100"


def _apply_mark(g: list[list[tuple[str, str]]], tag: str, style: str = _MARK_STYLE) -> None:
    for r in range(CELL_H):
        for c in range(CELL_W):
            g[r][c] = (g[r][c][0], style)
    for k, ch in enumerate(tag[:TAG_W]):
        g[0][k] = (ch, style)


# a heat ramp for chances: pale yellow for a small chance through orange to deep red for a likely one
HEAT = ((0.05, "black on heat1"), (0.15, "black on heat2"), (0.35, "black on heat3"), (0.65, "bold white on heat4"),
        (1.0, "bold white on heat5"))


def heat_tag(p: float) -> str:
    """A chance as a whole percentage that never loses a digit: "<1", "1" ... "99", "100" (certain only)."""
    if p >= 1:
        return "100"
    if p < 0.005:
        return "<1"
    return str(min(99, round(p * 100)))


def heat_style(p: float) -> str:
    return next(st for top, st in HEAT if p <= top)


def heat_marks(p_lost: Iterable[tuple[int, Any]]) -> tuple[dict[int, str], dict[int, str]]:
    """Tags (percentages) and heat styles of the squares with a chance of being lost."""
    tags, styles = {}, {}
    for sq, p in p_lost:
        f = float(p)
        if f > 0:
            tags[sq] = heat_tag(f)
            styles[sq] = heat_style(f)
    return tags, styles


def heat_legend() -> str:
    return "numbers: % chance the component is lost (colours: ≤5, ≤15, ≤35, ≤65, >65 %)"


def _seam_after(board: Board) -> set[int]:
    """Grid columns followed by a seam."""
    out = set()
    for a, b in board.seams:
        ca, cb = board.column_of_label(a), board.column_of_label(b)
        if ca is not None and cb is not None:
            out.add(min(ca, cb))
    return out


def render_ship(ship: Ship, *, marks: dict[int, str] | None = None, color: bool = True,
                mark_styles: dict[int, str] | None = None) -> Styled:
    """The ship drawn on its board, as :class:`Styled` text.

    ``marks`` maps grid indices to a short tag (``"C1"``): those squares are highlighted and the
    tag is written in the block's top-left corner. With ``color=False`` no styles are applied.
    """
    board = ship.board
    marks = marks or {}
    tiles = ship.by_index
    rlabels = [label_text(x) for x in board.rows]
    clabels = [label_text(x) for x in board.columns]
    if board.index_cells:
        # squares are written {col = i, row = j} on such boards: show the grid index beside the label
        rlabels = [f"{lab} r{j}" for j, lab in enumerate(rlabels)]
    lw = max(len(x) for x in rlabels) + 1
    seams = _seam_after(board)
    out = Styled()

    def add(s: str, style: str = "") -> None:
        out.append(s, style=style if color and style else None)

    # column labels (and the grid indices, where squares are written {col = i, row = j})
    headers = [clabels] + ([[f"c{j}" for j in range(board.width)]] if board.index_cells else [])
    for labels in headers:
        add(" " * lw)
        for c, lab in enumerate(labels):
            add(lab.center(CELL_W), _LABEL_STYLE)
            if c in seams:
                add(" ")
        add("\n")
    for r in range(board.height):
        blocks = []
        for c in range(board.width):
            i = r * board.width + c
            t = tiles.get(i)
            g = _tile_block(t) if t is not None else _empty_block(board, i, ship.dice)
            if i in marks:
                _apply_mark(g, marks[i], (mark_styles or {}).get(i, _MARK_STYLE))
            blocks.append(g)
        for line in range(CELL_H):
            add(rlabels[r].rjust(lw - 1) + " " if line == CELL_H // 2 else " " * lw,
                _LABEL_STYLE)
            for c, g in enumerate(blocks):
                # group runs of one style to keep the Text small
                run, run_style = "", None
                for ch, st in g[line]:
                    if st != run_style and run:
                        add(run, run_style or "")
                        run = ""
                    run_style = st
                    run += ch
                if run:
                    add(run, run_style or "")
                if c in seams:
                    add(_SEAM, "bold bright_magenta")
            add("\n")
    out.rstrip()
    return out


def render_tiles(entry: Any, *, color: bool = True) -> Styled:
    """A catalogue tile (kind, sides and attributes) drawn in its four rotations, side by side."""
    blocks = [_tile_block(entry.placed(rot=k)) for k in range(4)]
    out = Styled()

    def add(text: str, style: str = "") -> None:
        out.append(text, style if color and style else None)

    add("  ".join(f"rot {k * 90}".center(CELL_W + 2) for k in range(4)) + "\n")
    for line in range(CELL_H):
        for k, g in enumerate(blocks):
            add(" ")
            for ch, st in g[line]:
                add(ch, st)
            add("   " if k < 3 else "")
        add("\n")
    out.rstrip()
    return out


def render_ship_text(ship: Ship, *, marks: dict[int, str] | None = None) -> str:
    """The drawing as a plain string (no colour), one line per text row."""
    text = render_ship(ship, marks=marks, color=False).plain
    return "\n".join(line.rstrip() for line in text.splitlines())


def render_board(board: Board) -> str:
    """A board's mask drawn small: one character a square, labels on the top and left."""
    rlabels = [label_text(x) for x in board.rows]
    clabels = [label_text(x) for x in board.columns]
    lw = max(len(x) for x in rlabels) + 1
    cw = max(len(x) for x in clabels) + 1
    seams = _seam_after(board)
    lines = [" " * lw + "".join(lab.rjust(cw) + ("¦" if c in seams else "") for c, lab in enumerate(clabels))]
    for r, row in enumerate(board.cells):
        cells = []
        for c, ch in enumerate(row):
            glyph = {"#": "■", ".": " ", "S": "S"}.get(ch, ch)
            cells.append(glyph.rjust(cw) + (_SEAM if c in seams else ""))
        lines.append(rlabels[r].rjust(lw - 1) + " " + "".join(cells))
    return "\n".join(line.rstrip() for line in lines)
