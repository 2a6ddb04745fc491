"""Drawing the report's figures: each ``plot_*(data, *, ax)`` draws one ``*_data`` value on an Axes.

The functions only draw: every number comes from :mod:`shipcheck.report.figures` (or the round and
recommendation data), so a figure cannot show something its tested data does not hold. They use
matplotlib's object API on the Axes they are given and never touch pyplot's global state. Shapes
are gathered into one collection per layer (a ship is hundreds of small shapes; one artist each
would make a report slow to save), and the ``*_figure`` builders lay figures out by hand for the
same reason.

Every figure comes in two looks (:class:`Look`): :data:`WIDE` for a screen, and :data:`PHONE`,
3.5 inches wide (336 CSS pixels, the width a figure gets on a 390-pixel phone) with no text under
:data:`PHONE_MIN_PT` points (11.6 pixels there): short tile codes on the ship, numbers without
the per cent sign on heat maps, labels above the bars. Two ships compared share each figure's
scales (:class:`Scales`): the same colour for the same chance, the same axes.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import matplotlib
import matplotlib.colors as mcolors
import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrow, FancyBboxPatch, Patch, Polygon, Rectangle, Wedge
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import blended_transform_factory

from shipcheck.errors import printable
from shipcheck.report.figures import DIRS, EMPTY, HULL, LOCKED, START, MeteorData, ShipView, TileView, pct
from shipcheck.report.palette import (
    ALIEN,
    ARROW,
    BAD,
    BARREL,
    FACE,
    FLAME,
    GOOD,
    GRID,
    INK,
    LABEL,
    MUTED,
    PIPE,
    SHIELD,
    WARN,
)

# unit vectors of board sides in drawing coordinates (x right, y down: the Axes is inverted)
_DX = (0.0, 1.0, 0.0, -1.0)
_DY = (-1.0, 0.0, 1.0, 0.0)
HALF = 0.44  # half the drawn tile; squares are 1 x 1
MARGIN = 0.8  # room for incoming arrows on one side of a heat map


class _Layers:
    """Shapes gathered per layer and added as one collection each."""

    def __init__(self) -> None:
        self.layers: dict[float, list[Any]] = {}

    def add(self, patch: Any, z: float) -> None:
        self.layers.setdefault(z, []).append(patch)

    def draw(self, ax: Axes) -> None:
        for z, patches in sorted(self.layers.items()):
            ax.add_collection(PatchCollection(patches, match_original=True, zorder=z))


def _limits(width: int, height: int, margin: int | None = None) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1) of a board drawing, y growing downwards; ``margin`` makes room on one side."""
    extra = [0.0, 0.0, 0.0, 0.0]
    if margin is not None:
        extra[margin] = MARGIN
    return (-1.1 - extra[3], width - 0.35 + extra[1], -1.1 - extra[0], height - 0.25 + extra[2])



# -- looks and shared scales ---------------------------------------------------------------------
PHONE_WIDTH = 3.5  # inches: 336 CSS pixels at 96 per inch, what a figure gets on a 390-pixel phone
PHONE_MIN_PT = 8.7  # points: 11.6 CSS pixels when the figure is shown 1:1


@dataclass(frozen=True)
class Look:
    """How a figure is laid out: for a wide screen, or for a phone (``phone=True``: every text at
    least :data:`PHONE_MIN_PT` points on a figure :data:`PHONE_WIDTH` inches wide)."""

    phone: bool = False

    def fs(self, size: float) -> float:
        """A font size: as given, or at least the phone's minimum."""
        return max(size, PHONE_MIN_PT) if self.phone else size

    @property
    def width(self) -> float:
        return PHONE_WIDTH if self.phone else 6.4

    @property
    def title(self) -> float:
        return 10.5 if self.phone else 12.0

    @property
    def wrap(self) -> int:
        """Characters of a title line."""
        return 36 if self.phone else 60

    @property
    def sub_wrap(self) -> int:
        """Characters of a subtitle line."""
        return 44 if self.phone else 87


WIDE = Look()
PHONE = Look(phone=True)


@dataclass(frozen=True)
class Scales:
    """Axes and colour scales shared by the figures of two ships compared (None: each its own)."""

    heat: mcolors.Normalize | None = None
    credits: tuple[tuple[float, float], float] | None = None  # (x limits, top share in %)
    lost: tuple[tuple[float, float], float] | None = None
    cards: tuple[tuple[str, ...], float] | None = None  # (card types in order, right limit)
    field: tuple[float, float] | None = None
    changes: tuple[float, float] | None = None
    sources: tuple[float, float] | None = None  # the credits' parts: the most negative and most positive stack


NO_SCALES = Scales()


def shared_scales(reports: Any) -> Scales:
    """The scales two (or more) ships' figures share: every heat map's top, the histograms' ranges,
    the card types and the bars' limits over all of them (``reports``: :class:`ShipReport` values)."""
    rounds = [r.round for r in reports if r.round is not None]
    tops = [float(m.max) for r in reports for m in r.meteors.maps]
    heat = mcolors.PowerNorm(0.5, vmin=0.0, vmax=max(max(tops, default=0.0), 0.05))
    out: dict[str, Any] = {"heat": heat}
    if rounds:
        for key, attr in (("credits", "credits"), ("lost", "lost")):
            dists = [getattr(v, attr) for v in rounds]
            lo = min(min(d.values) for d in dists)
            hi = max(max(d.values) for d in dists)
            top = max(max(d.shares) for d in dists) * 100
            out[key] = ((lo - 0.7, hi + 0.7), top)
        order: dict[str, float] = {}
        right = 0.1
        for v in rounds:
            for r in v.by_type:
                if _busy(r):
                    order[r.type] = order.get(r.type, 0.0) + r.lost + r.credits + r.goods + 10 * r.gave_up
                    right = max(right, r.lost, r.credits, r.goods)
        out["cards"] = (tuple(sorted(order, key=lambda t: -order[t])), right)
        lo_f = min([0.0] + [p.credits_ci[0] for v in rounds for p in v.players])
        hi_f = max([1.0] + [p.credits_ci[1] for v in rounds for p in v.players])
        out["field"] = (lo_f, hi_f)
        stacks = [x for v in rounds for x in _stacks(v)]
        if stacks:
            out["sources"] = (min(stacks + [0.0]), max(stacks + [1.0]))
    effects = [e for r in reports if r.advice is not None for e in _shown_effects(r.advice)]
    if effects:
        out["changes"] = (min(min(e.credits_ci[0] for e in effects), 0.0), max(max(e.credits_ci[1] for e in effects), 0.0))
    return Scales(**out)



def _board_frame(ax: Axes, width: int, height: int, columns: tuple[str, ...], rows: tuple[str, ...],
                 *, fontsize: float = 9, margin: int | None = None) -> None:
    """Limits, equal aspect, no axes; the printed labels on the top and left."""
    x0, x1, y0, y1 = _limits(width, height, margin)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y1, y0)
    ax.set_aspect("equal")
    ax.axis("off")
    for c, lab in enumerate(columns):
        ax.text(c, -0.82, lab, ha="center", va="center", fontsize=fontsize, color=MUTED, fontweight="bold")
    for r, lab in enumerate(rows):
        ax.text(-0.85, r, lab, ha="center", va="center", fontsize=fontsize, color=MUTED, fontweight="bold")


def _empty_squares(ax: Axes, layers: _Layers, squares: tuple[str, ...], width: int, *, fontsize: float = 8) -> None:
    for i, state in enumerate(squares):
        if state not in (EMPTY, START, LOCKED, HULL):
            continue
        r, c = divmod(i, width)
        layers.add(Rectangle((c - HALF, r - HALF), 2 * HALF, 2 * HALF, fill=False, edgecolor=GRID, linewidth=0.8,
                             linestyle="dotted" if state == LOCKED else "dashed"), 1)
        if state == START:
            ax.text(c, r, "S", ha="center", va="center", fontsize=fontsize, color=GRID, fontweight="bold")


def _box(x: float, y: float, face: Any, edge: str, lw: float) -> FancyBboxPatch:
    return FancyBboxPatch((x - HALF + 0.04, y - HALF + 0.04), 2 * HALF - 0.08, 2 * HALF - 0.08,
                          boxstyle="round,pad=0.04,rounding_size=0.08", facecolor=face, edgecolor=edge,
                          linewidth=lw)


def _pipes(layers: _Layers, x: float, y: float, side: int, n: int) -> None:
    """``n`` pipes (1 single, 2 double, 3 universal) sticking out of a tile side."""
    dx, dy = _DX[side], _DY[side]
    px, py = -dy, dx  # along the side
    offsets = {1: (0.0,), 2: (-0.11, 0.11), 3: (-0.15, 0.0, 0.15)}[n]
    w, h = (0.06, 0.13) if dx == 0 else (0.13, 0.06)
    for o in offsets:
        cx, cy = x + dx * (HALF + 0.02) + px * o, y + dy * (HALF + 0.02) + py * o
        layers.add(Rectangle((cx - w / 2, cy - h / 2), w, h, facecolor=PIPE, edgecolor="none"), 3)


def _barrel(layers: _Layers, x: float, y: float, side: int) -> None:
    dx, dy = _DX[side], _DY[side]
    px, py = -dy, dx
    base, tip, w = HALF - 0.13, HALF + 0.1, 0.07
    pts = [(x + dx * base + px * w, y + dy * base + py * w), (x + dx * tip + px * w, y + dy * tip + py * w),
           (x + dx * tip - px * w, y + dy * tip - py * w), (x + dx * base - px * w, y + dy * base - py * w)]
    layers.add(Polygon(pts, closed=True, facecolor=BARREL, edgecolor="none"), 4)


def _flame(layers: _Layers, x: float, y: float, side: int) -> None:
    dx, dy = _DX[side], _DY[side]
    px, py = -dy, dx
    for (w, reach), colour in zip(((0.2, 0.2), (0.11, 0.12)), FLAME, strict=True):
        pts = [(x + dx * (HALF - 0.05) + px * w, y + dy * (HALF - 0.05) + py * w),
               (x + dx * (HALF + reach), y + dy * (HALF + reach)),
               (x + dx * (HALF - 0.05) - px * w, y + dy * (HALF - 0.05) - py * w)]
        layers.add(Polygon(pts, closed=True, facecolor=colour, edgecolor="none"), 4)


def _shield(layers: _Layers, x: float, y: float, covers: tuple[int, ...]) -> None:
    """A ring around the corner between the two covered sides."""
    if len(covers) != 2:
        return
    # outward direction of each side as an angle in data coordinates (y grows downwards)
    angle = {0: 270.0, 1: 0.0, 2: 90.0, 3: 180.0}
    a, b = sorted(angle[s] for s in covers)
    if b - a > 180:
        a, b = b, a + 360
    layers.add(Wedge((x, y), HALF + 0.02, a - 30, b + 30, width=0.07, facecolor=SHIELD, edgecolor="none"), 4)


def _phone_hint(hint: str) -> str:
    """A tile's hint in at most three characters: ``pur`` for purple, ``2`` for two cargo slots."""
    if hint in ALIEN:
        return hint[:3]
    if hint.endswith((" slot", " slots")):
        return hint.split()[0]
    if hint == "empty":
        return "0"
    return hint


def _tile(ax: Axes, layers: _Layers, t: TileView, *, fontsize: float, look: Look = WIDE,
          hints: bool = True) -> None:
    x, y = t.col, t.row
    error = any(c != "W1" for c in t.codes)
    layers.add(_box(x, y, FACE.get(t.kind, "#e5e7eb"), BAD if error else "#8a94a3", 2.4 if error else 0.9), 2)
    for s in range(4):
        if s in t.barrels:
            _barrel(layers, x, y, s)
        elif s in t.exhausts:
            _flame(layers, x, y, s)
        elif t.connectors[s]:
            _pipes(layers, x, y, s, t.connectors[s])
    if t.covers:
        _shield(layers, x, y, t.covers)
    for s in t.exposed:
        layers.add(Circle((x + _DX[s] * (HALF + 0.07), y + _DY[s] * (HALF + 0.07)), 0.075, facecolor="white",
                          edgecolor=BAD, linewidth=1.6), 6)
    hint_colour = ALIEN.get(t.hint, MUTED)
    if look.phone:
        # the three-letter code of the terminal drawing; the hint short, on a second line when it fits
        show_hint = bool(t.hint) and hints
        colour = hint_colour if t.hint in ALIEN and not show_hint else INK
        ax.text(x, y - 0.17 if show_hint else y, t.code, ha="center", va="center", fontsize=fontsize, color=colour,
                fontweight="bold", zorder=5)
        if show_hint:
            ax.text(x, y + 0.2, _phone_hint(t.hint), ha="center", va="center", fontsize=fontsize, color=hint_colour,
                    fontweight="bold" if t.hint in ALIEN else "normal", zorder=5)
    else:
        ax.text(x, y - 0.06, LABEL.get(t.kind, t.kind), ha="center", va="center", fontsize=fontsize, color=INK,
                zorder=5)
        if t.hint:
            ax.text(x, y + 0.2, t.hint, ha="center", va="center", fontsize=fontsize * 0.85, color=hint_colour,
                    fontweight="bold" if t.hint in ALIEN else "normal", zorder=5)
    if t.codes:
        ax.text(x - HALF + 0.06, y - HALF + 0.1, " ".join(t.codes), ha="left", va="center",
                fontsize=look.fs(fontsize * 0.85), color="white", fontweight="bold", zorder=7,
                bbox={"boxstyle": "round,pad=0.15", "facecolor": BAD if error else WARN, "edgecolor": "none"})


def _plain(text: str) -> str:
    """Text from a file as it is to be drawn: control characters removed (fonts have no glyph for
    them, and matplotlib warns) and ``$`` escaped (matplotlib would read a pair as mathtext)."""
    return printable(text).replace("$", r"\$")


def _sub_lines(subtitle: str, width: int) -> str:
    return "\n".join(textwrap.fill(line, width) for line in subtitle.split("\n"))


def _titles(ax: Axes, title: str, subtitle: str, *, colour: str = MUTED, wrap: int | None = None,
            flush: bool = False, look: Look = WIDE) -> None:
    """A bold title and a grey subtitle over the Axes; ``flush`` starts them at the figure's left
    edge instead of the Axes' (charts whose tick labels take the left margin)."""
    title = _plain(title)
    subtitle = "\n".join(_plain(line) for line in subtitle.split("\n"))
    x = 0.0
    if flush:
        pos = ax.get_position()
        width = ax.get_figure(root=True).get_figwidth()  # type: ignore[union-attr]
        x = -(pos.x0 * width - 0.2) / (pos.width * width)
    tw = wrap or look.wrap
    sub = _sub_lines(subtitle, int(tw * 1.45) if wrap else look.sub_wrap)
    size = look.fs(8.5)
    # y given: matplotlib then skips measuring the axes' ticks to lift the title over them (none
    # are on top here), a tenth of a report's drawing
    t = ax.set_title(textwrap.fill(title, tw), fontsize=look.title, color=INK, fontweight="bold", loc="left",
                     pad=9 + size * 1.3 * (sub.count("\n") + 1), y=1.0)
    t.set_x(x)
    ax.annotate(sub, xy=(x, 1),
                xycoords="axes fraction", xytext=(0, 5), textcoords="offset points", fontsize=size, color=colour,
                ha="left", va="bottom")


def header_height(title: str, subtitle: str, look: Look = WIDE, wrap: int | None = None) -> float:
    """Inches the title and the subtitle of :func:`_titles` take over the Axes."""
    tw = wrap or look.wrap
    tl = len(textwrap.wrap(title, tw)) or 1
    sl = _sub_lines(subtitle, int(tw * 1.45) if wrap else look.sub_wrap).count("\n") + 1
    return (tl * look.title * 1.25 + sl * look.fs(8.5) * 1.3 + 16) / 72


def plot_ship(data: ShipView, *, ax: Axes, title: bool = True, legend: bool = True, wrap: int = 60,
              legend_columns: int = 3, look: Look = WIDE) -> None:
    """The ship drawn as tiles on its board: kinds, connectors, barrels, exhausts, shields, exposed
    connectors (red rings) and rule breaks (red outline with the codes); on a board whose front the
    player chooses, an arrow in the margin on the front side. On a phone (``look=PHONE``) tiles
    show their three-letter codes, and a key under the legend names them."""
    fontsize = look.fs(7.5 if data.width <= 7 else 6.8)
    _board_frame(ax, data.width, data.height, data.columns, data.rows, fontsize=look.fs(9),
                 margin=data.front if data.front != 0 else None)
    layers = _Layers()
    _empty_squares(ax, layers, data.squares, data.width, fontsize=look.fs(8))
    for c in data.seams:
        ax.plot([c + 0.5, c + 0.5], [-0.5, data.height - 0.5], color="#c026d3", linewidth=1.2,
                linestyle=(0, (4, 3)), zorder=1)
    hints = _phone_hints_fit(data) if look.phone else True
    for t in data.tiles:
        _tile(ax, layers, t, fontsize=fontsize, look=look, hints=hints)
    layers.draw(ax)
    if data.front != 0:
        _front_arrow(ax, data, look)
    if title:
        _titles(ax, data.name, _ship_subtitle(data), colour=MUTED if data.legal else BAD, wrap=wrap, look=look)
    if legend:
        ax.legend(handles=_ship_legend(data, look), loc="upper center", bbox_to_anchor=(0.5, 0.0),
                  ncol=legend_columns, frameon=False, fontsize=look.fs(8), handlelength=1.4, columnspacing=1.2)
        if look.phone:
            ax.annotate(_code_key(data, hints), xy=(0.5, 0), xycoords="axes fraction", ha="center", va="top",
                        xytext=(0, -14 * (-(-len(_ship_legend(data, look)) // legend_columns)) - 6),
                        textcoords="offset points", fontsize=look.fs(8), color=MUTED)


def _ship_subtitle(data: ShipView) -> str:
    errors = sum(1 for v in data.violations if v[0] != "W1")
    sub = f"class {data.board} · " + ("legal" if data.legal else "ILLEGAL")
    if errors:
        sub += f" ({errors} rule break{'s' if errors != 1 else ''})"
    return sub + f" · {data.exposed} exposed connector{'s' if data.exposed != 1 else ''}"


def _phone_hints_fit(data: ShipView) -> bool:
    """Whether a second line of text fits a tile on the phone: squares of at least 30 pixels."""
    x0, x1, _, _ = _limits(data.width, data.height, data.front if data.front != 0 else None)
    return (PHONE_WIDTH - 0.3) / (x1 - x0) * 96 >= 30


KEY_WRAP = 52  # characters of a line of the phone's code key


def _code_key(data: ShipView, hints: bool) -> str:
    """The phone drawing's key: each three-letter code shown and its kind; what the second line says."""
    seen: dict[str, str] = {}
    for t in data.tiles:
        seen.setdefault(t.code, t.kind.replace("_", " ").replace("start cabin", "pilot cabin"))
    entries = [f"{c}\u00a0{k.replace(' ', chr(0xa0))}" for c, k in seen.items()]
    if hints:
        entries.append("under a code: charges/cells, cargo slots, alien or life-support colour")
    elif any(t.hint in ALIEN for t in data.tiles):
        entries.append("a coloured code: an alien of that colour")
    # whole entries on a line (no break inside "EN2 double engine")
    return textwrap.fill(" · ".join(entries), KEY_WRAP).replace("\u00a0", " ")


def _front_arrow(ax: Axes, data: ShipView, look: Look = WIDE) -> None:
    """An arrow and the word "front" in the margin of the side the player chose as the front."""
    side = data.front
    w, h = data.width, data.height
    cx = {1: w + 0.05, 3: -1.75}.get(side, (w - 1) / 2)
    cy = {0: -1.75, 2: h + 0.1}.get(side, (h - 1) / 2)
    ax.add_patch(FancyArrow(cx - 0.25 * _DX[side], cy - 0.25 * _DY[side], 0.5 * _DX[side], 0.5 * _DY[side],
                            width=0.07, head_width=0.28, head_length=0.22, color=INK, zorder=7))
    if side in (1, 3):
        ax.text(cx, cy + 0.3, "front", ha="center", va="top", fontsize=look.fs(8.5), color=INK, fontweight="bold")
    else:
        ax.text(cx + 0.3, cy, "front", ha="left", va="center", fontsize=look.fs(8.5), color=INK, fontweight="bold")


def _ship_legend(data: ShipView, look: Look = WIDE) -> list[Any]:
    short = look.phone
    handles: list[Any] = [
        Line2D([], [], color=PIPE, linewidth=3, label="connector" if short else "connector (1/2/3 pipes)"),
        Line2D([], [], color=BARREL, linewidth=4, label="barrel" if short else "cannon barrel"),
        Patch(facecolor=FLAME[0], label="exhaust" if short else "engine exhaust"),
        Line2D([], [], color=SHIELD, linewidth=4, label="shield cover" if short else "shielded sides"),
        Line2D([], [], marker="o", color="none", markerfacecolor="white", markeredgecolor=BAD,
               markeredgewidth=1.6, markersize=7, label="exposed" if short else "exposed connector"),
    ]
    if any(v[0] != "W1" for v in data.violations):
        handles.append(Patch(facecolor="white", edgecolor=BAD, linewidth=2, label="rule break"))
    return handles


# -- heat maps -----------------------------------------------------------------------------------
HEAT_CMAP = "YlOrRd"
DIRECTION_TITLE = {"front": "Meteors from the front", "right": "Meteors from the right",
                   "rear": "Meteors from the rear", "left": "Meteors from the left", "all": "Whole meteor swarms"}


def heat_norm(data: MeteorData) -> mcolors.Normalize:
    """One colour scale for every map of a report: a square root, so 1 % and 5 % look different."""
    top = max((float(m.max) for m in data.maps), default=0.0)
    return mcolors.PowerNorm(0.5, vmin=0.0, vmax=max(top, 0.05))


def _heat_side(ship: ShipView, direction: str) -> int | None:
    return None if direction == "all" else (DIRS.index(direction) + ship.front) % 4


def plot_heatmap(data: MeteorData, ship: ShipView, direction: str, *, ax: Axes,
                 norm: mcolors.Normalize | None = None, look: Look = WIDE) -> Any:
    """Per square, the chance it is lost when a meteor swarm of the round comes (meteors from one
    side, or ``all``); returns the colour mapping for a colour bar. ``norm``: the colour scale (two
    ships compared share one); on a phone the numbers are per cent without the sign and the tiles
    carry no kind."""
    m = data.map(direction)
    norm = norm or heat_norm(data)
    cmap = matplotlib.colormaps[HEAT_CMAP]
    side = _heat_side(ship, direction)
    _board_frame(ax, ship.width, ship.height, ship.columns, ship.rows, fontsize=look.fs(8), margin=side)
    layers = _Layers()
    _empty_squares(ax, layers, ship.squares, ship.width, fontsize=look.fs(8))
    fs = look.fs(8.5 if ship.width <= 7 else 7.5)
    for t in ship.tiles:
        p = m.get(t.at) or Fraction(0)
        colour = cmap(norm(float(p))) if p > 0 else "#f4f5f7"
        layers.add(_box(t.col, t.row, colour, "#9aa3ad", 0.6), 2)
        dark = _luminance(colour) < 0.5
        if look.phone:
            ax.text(t.col, t.row, pct(p).rstrip("%"), ha="center", va="center", fontsize=fs, fontweight="bold",
                    color="white" if dark else INK, zorder=5)
            continue
        ax.text(t.col, t.row + 0.08, pct(p), ha="center", va="center", fontsize=fs, fontweight="bold",
                color="white" if dark else INK, zorder=5)
        ax.text(t.col, t.row - 0.24, LABEL.get(t.kind, t.kind), ha="center", va="center", fontsize=fs * 0.7,
                color="white" if dark else MUTED, zorder=5)
    if side is not None:
        _incoming(layers, ship, side)
    layers.draw(ax)
    _titles(ax, DIRECTION_TITLE[direction], _heat_subtitle(m, direction, look), look=look)
    return matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)


def _heat_subtitle(m: Any, direction: str, look: Look) -> str:
    what = "meteors" if direction == "all" else "meteors from this side"
    chance = "chance (%) each square is lost" if look.phone else "chance each square is lost"
    return f"{chance} · {float(m.meteors):.1f} {what} per swarm"


def _incoming(layers: _Layers, ship: ShipView, side: int) -> None:
    """Arrows in the margin of the board side the meteors come from."""
    w, h = ship.width, ship.height
    kw: dict[str, Any] = {"width": 0.07, "head_width": 0.28, "head_length": 0.22, "color": ARROW, "alpha": 0.85}
    if side in (0, 2):
        y0 = -1.85 if side == 0 else h + 0.45
        for x in np.linspace(0, w - 1, min(w, 5)):
            layers.add(FancyArrow(x, y0, 0, 0.5 if side == 0 else -0.5, **kw), 7)
    else:
        x0 = w + 0.4 if side == 1 else -1.85
        for y in np.linspace(0, h - 1, min(h, 4)):
            layers.add(FancyArrow(x0, y, -0.5 if side == 1 else 0.5, 0, **kw), 7)


def _luminance(colour: Any) -> float:
    r, g, b = mcolors.to_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


# -- whole figures, laid out by hand -------------------------------------------------------------
def _board_figure(width: int, height: int, *, scale: float, top: float, bottom: float,
                  margin: int | None = None, look: Look = WIDE) -> tuple[Figure, Axes]:
    """A figure whose Axes holds a board drawing at ``scale`` inches a square, with ``top`` and
    ``bottom`` inches for titles and legends; on a phone the figure is the phone's width and the
    scale follows from it."""
    x0, x1, y0, y1 = _limits(width, height, margin)
    side = 0.15
    if look.phone:
        scale = (PHONE_WIDTH - 2 * side) / (x1 - x0)
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    fig = Figure(figsize=(w + 2 * side, h + top + bottom))
    fw, fh = fig.get_size_inches()
    ax = fig.add_axes((side / fw, bottom / fh, w / fw, h / fh))
    return fig, ax


def ship_figure(data: ShipView, look: Look = WIDE) -> Figure:
    """The ship drawing, sized to the board (on a phone: to the phone's width)."""
    margin = data.front if data.front != 0 else None
    if look.phone:
        columns = 2
        rows = -(-len(_ship_legend(data, look)) // columns)
        key = _code_key(data, _phone_hints_fit(data)).count("\n") + 1
        top = header_height(data.name, _ship_subtitle(data), look, look.wrap)
        fig, ax = _board_figure(data.width, data.height, scale=0.0, top=top, look=look, margin=margin,
                                bottom=0.12 + rows * 0.2 + key * look.fs(8) * 1.25 / 72 + 0.1)
        plot_ship(data, ax=ax, wrap=look.wrap, legend_columns=columns, look=look)
        return fig
    wrap = max(20, int(((data.width + 0.75) * 0.72) * 8))  # characters of the title that fit the width
    lines = len(textwrap.wrap(data.name, wrap)) or 1
    columns = 3 if data.width >= 6 else 2  # a legend as wide as the board
    fig, ax = _board_figure(data.width, data.height, scale=0.72, top=0.4 + 0.22 * lines,
                            bottom=0.55 if columns == 3 else 0.72, margin=margin)
    plot_ship(data, ax=ax, wrap=wrap, legend_columns=columns)
    return fig


def heat_figure(data: MeteorData, ship: ShipView, direction: str, look: Look = WIDE,
                norm: mcolors.Normalize | None = None) -> Figure:
    """One heat map with its colour bar underneath (``norm``: a colour scale shared with another ship)."""
    top = header_height(DIRECTION_TITLE[direction], _heat_subtitle(data.map(direction), direction, look), look) \
        if look.phone else 0.6
    fig, ax = _board_figure(ship.width, ship.height, scale=0.6, top=top, bottom=0.7 if look.phone else 0.6,
                            margin=_heat_side(ship, direction), look=look)
    norm = norm or heat_norm(data)
    mappable = plot_heatmap(data, ship, direction, ax=ax, norm=norm, look=look)
    fw, fh = fig.get_size_inches()
    cax = fig.add_axes((0.15, 0.3 / fh, 0.7, 0.12 / fh) if look.phone else (0.2, 0.22 / fh, 0.6, 0.12 / fh))
    bar = fig.colorbar(mappable, cax=cax, orientation="horizontal")
    vmax = float(norm.vmax or 1.0)
    ticks = [t for t in (0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0) if t <= vmax + 1e-9]
    if look.phone and len(ticks) > 6:
        ticks = [t for t in ticks if t not in (0.3, 0.75)]
    bar.set_ticks(ticks, labels=[f"{t:.0%}" for t in ticks])
    bar.ax.tick_params(labelsize=look.fs(8), colors=MUTED, length=2)
    bar.outline.set_visible(False)
    return fig


# -- the round -----------------------------------------------------------------------------------
CARD_TYPE_LABEL = {
    "open_space": "open space", "planets": "planets", "meteor_swarm": "meteor swarm", "abandoned_ship": "abandoned ship",
    "abandoned_station": "abandoned station", "slavers": "slavers", "smugglers": "smugglers", "pirates": "pirates",
    "combat_zone": "combat zone", "stardust": "stardust", "epidemic": "epidemic", "sabotage": "sabotage",
}


def _clean(ax: Axes, look: Look = WIDE) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.spines["left"].set_color(GRID)
    ax.spines["bottom"].set_color(GRID)
    ax.tick_params(colors=MUTED, labelsize=look.fs(8.5))


def _distribution_subtitle(data: Any, note: str) -> str:
    lo, hi = data.ci
    pct_of = dict(data.percentiles)
    sub = f"mean {data.mean:.1f} ({lo:.1f} to {hi:.1f}) · 90% of rounds {pct_of[5]} to {pct_of[95]}"
    return sub + (f" · {note}" if note else "")


def plot_distribution(data: Any, *, ax: Axes, title: str, unit: str, colour: str = GOOD,
                      negative: str = BAD, note: str = "", look: Look = WIDE,
                      scale: tuple[tuple[float, float], float] | None = None) -> None:
    """Bars of a whole-number distribution (share of rounds per value), the mean and its interval.
    ``scale``: (x limits, top share in %) shared with another ship, so both read alike."""
    vals = np.asarray(data.values)
    shares = np.asarray(data.shares) * 100
    colours = [negative if v < 0 else colour for v in vals]
    width = 0.85 if len(vals) < 60 else 1.0
    ax.bar(vals, shares, width=width, color=colours, edgecolor="none", zorder=2)
    lo, hi = data.ci
    ax.axvspan(lo, hi, color=INK, alpha=0.12, zorder=1, linewidth=0)
    ax.axvline(data.mean, color=INK, linewidth=1.4, linestyle="--", zorder=3)
    top = float(shares.max()) if len(shares) else 1.0
    if scale is not None:
        ax.set_xlim(*scale[0])
        top = max(top, scale[1])
    ax.set_ylim(0, top * 1.22)
    ax.annotate(f"mean {data.mean:.1f}", xy=(data.mean, top * 1.12), ha="left", va="center", fontsize=look.fs(8.5),
                color=INK, xytext=(4, 0), textcoords="offset points")
    _clean(ax, look)
    ax.set_ylabel("% of rounds", fontsize=look.fs(8.5), color=MUTED)
    ax.set_xlabel(unit, fontsize=look.fs(8.5), color=MUTED)
    ax.yaxis.grid(True, color="#eef0f3", zorder=0)
    ax.set_axisbelow(True)
    _titles(ax, title, _distribution_subtitle(data, note), flush=True, look=look)
    x0, x1 = scale[0] if scale is not None else (float(vals.min()) if len(vals) else 0.0,
                                                  float(vals.max()) if len(vals) else 1.0)
    if x1 - x0 <= (8 if look.phone else 13):
        ax.set_xticks(range(int(np.ceil(x0)), int(np.floor(x1)) + 1))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6 if look.phone else 10, integer=True))


def plot_credits(data: Any, *, ax: Axes, look: Look = WIDE,
                 scale: tuple[tuple[float, float], float] | None = None) -> None:
    """The credits the round earns (a :class:`~shipcheck.report.figures.RoundView`)."""
    unit = "credits" if look.phone else "credits (rewards, goods, arrival, minus lost components)"
    plot_distribution(data.credits, ax=ax, title="Credits this round", unit=unit, note=f"finishes {data.p_finish:.0%}",
                      look=look, scale=scale)


def plot_losses(data: Any, *, ax: Axes, look: Look = WIDE,
                scale: tuple[tuple[float, float], float] | None = None) -> None:
    """Components lost in the round."""
    plot_distribution(data.lost, ax=ax, title="Components lost",
                      unit="components lost" if look.phone else "components lost in the round",
                      colour="#e76f51", note=f"a human aboard at the end {data.p_survive:.0%}", look=look, scale=scale)


def _card_rows(data: Any, order: tuple[str, ...] | None) -> list[Any]:
    by = {r.type: r for r in data.by_type}
    if order is not None:
        from shipcheck.report.figures import CardTypeRow

        return [by.get(t) or CardTypeRow(t, 0.0, 0.0, 0.0, 0.0) for t in order]
    return sorted((r for r in data.by_type if _busy(r)), key=lambda r: -(r.lost + r.credits + r.goods + 10 * r.gave_up))


def _busy(r: Any) -> bool:
    """A card type that brought or cost the ship something."""
    return bool(r.lost or r.credits or r.goods or r.gave_up)


CARD_SUBTITLE = ("credit rewards, goods still aboard at the end (their sale value) and components lost per kind "
                 "of card, and where the ship gives up")


def _card_subtitle(data: Any, rows: list[Any]) -> str:
    shown = {r.type for r in rows}
    idle = [CARD_TYPE_LABEL.get(r.type, r.type) for r in data.by_type if r.type not in shown]
    return CARD_SUBTITLE + ("\nnothing earned, loaded or lost: " + ", ".join(idle) if idle else "")


def _card_bars(ax: Axes, rows: list[Any], h: float = 0.27) -> list[Any]:
    """Each card type's bars centred on its label: only the bars it has (a meteor swarm's losses
    alone sit on the swarm's line, not beside the next label). The legend's handles, one a kind."""
    from matplotlib.patches import Patch

    bars = (("credits", "credit rewards", SOURCE_COLOURS["cards"]), ("goods", "goods value", SOURCE_COLOURS["goods"]),
            ("lost", "components lost", "#e76f51"))
    drawn = [[a for a, _, _ in bars if getattr(r, a)] for r in rows]
    for attr, _, colour in bars:
        at = [(k + (have.index(attr) - (len(have) - 1) / 2) * h, getattr(r, attr))
              for k, (r, have) in enumerate(zip(rows, drawn, strict=True)) if attr in have]
        if at:
            ax.barh([p for p, _ in at], [v for _, v in at], height=h, color=colour, zorder=2)
    return [Patch(color=colour, label=label) for _, label, colour in bars]


def plot_card_types(data: Any, *, ax: Axes, look: Look = WIDE,
                    scale: tuple[tuple[str, ...], float] | None = None) -> None:
    """Per card type: components lost and credits earned per round, and the share of rounds ended there.
    Card types that did none of these are named under the title. ``scale``: (card types in order,
    right limit) shared with another ship."""
    rows = _card_rows(data, scale[0] if scale is not None else None)
    names = [CARD_TYPE_LABEL.get(r.type, r.type) for r in rows]
    if look.phone:  # no room on the right: where it gives up goes under the name
        names = [n + (f"\ngives up {r.gave_up:.1%}" if r.gave_up >= 0.0005 else "") for n, r in zip(names, rows)]
    y = np.arange(len(rows))
    handles = _card_bars(ax, rows)
    right = max([r.credits for r in rows] + [r.goods for r in rows] + [r.lost for r in rows] + [0.1])
    if scale is not None:
        right = max(right, scale[1])
    if not look.phone:
        for k, r in enumerate(rows):
            if r.gave_up >= 0.0005:
                ax.text(right * 1.02, k, f"gives up {r.gave_up:.1%}", va="center", ha="left", fontsize=8, color=BAD)
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlim(0, right * (1.08 if look.phone else 1.35))
    _clean(ax, look)
    if look.phone:
        for label, r in zip(ax.get_yticklabels(), rows, strict=True):
            if r.gave_up >= 0.0005:
                label.set_color(BAD)
    ax.xaxis.grid(True, color="#eef0f3", zorder=0)
    ax.set_axisbelow(True)
    ax.set_xlabel("per round, on average", fontsize=look.fs(8.5), color=MUTED)
    # under the whole figure, centred on it: the names take the left margin
    fig = ax.get_figure(root=True)
    assert fig is not None
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.02), bbox_transform=fig.transFigure,
              ncol=2 if look.phone else 3, frameon=False, fontsize=look.fs(8))
    _titles(ax, "Card by card", _card_subtitle(data, rows), flush=True, look=look)


def plot_field(data: Any, *, ax: Axes, look: Look = WIDE, scale: tuple[float, float] | None = None) -> None:
    """The ship against its opponents: mean credits with 95 % intervals, and the chance to finish.
    ``scale``: the credits' range shared with another ship."""
    rows = data.players
    y = np.arange(len(rows))
    colours = [ACCENT if r.ship else "#9aa3ad" for r in rows]
    means = [r.credits for r in rows]
    err = np.array([[r.credits - r.credits_ci[0] for r in rows], [r.credits_ci[1] - r.credits for r in rows]])
    ax.barh(y, means, color=colours, height=0.6, zorder=2)
    ax.errorbar(means, y, xerr=err, fmt="none", ecolor=INK, elinewidth=1, capsize=3, zorder=3)
    lo = min(0.0, min(means))
    hi = max(means + [1.0])
    if scale is not None:
        lo, hi = min(lo, scale[0]), max(hi, scale[1])
    if look.phone:
        ax.set_yticks(y, [f"{_short(r.name, 16)}\nfinishes {r.p_finish:.0%}" for r in rows])
        ax.set_xlim(lo * 1.1, hi * 1.1 + 0.5)
    else:
        for k, r in enumerate(rows):
            ax.text(hi * 1.08 + 0.5, k, f"finishes {r.p_finish:.0%}", va="center", ha="left", fontsize=8.5,
                    color=INK if r.ship else MUTED, fontweight="bold" if r.ship else "normal")
        ax.set_yticks(y, [_short(r.name) for r in rows])
        ax.set_xlim(lo * 1.1, hi * 1.45 + 1)
    ax.invert_yaxis()
    ax.axvline(0, color=GRID, linewidth=0.8)
    _clean(ax, look)
    for label, r in zip(ax.get_yticklabels(), rows, strict=True):
        if r.ship:
            label.set_fontweight("bold")
            label.set_color(INK)
    ax.set_xlabel("mean credits this round (95% interval)", fontsize=look.fs(8.5), color=MUTED)
    _titles(ax, "Against the field", "the same decks and dice for every ship", flush=True, look=look)


SOURCE_COLOURS = {"cards": "#2a9d8f", "goods": "#4c78a8", "arrival": "#8e6cc0", "best_looking": "#e09f3e",
                  "penalty": "#d7263d"}
SOURCE_LABEL = {"cards": "card rewards", "goods": "goods", "arrival": "arrival", "best_looking": "best-looking",
                "penalty": "penalty"}


def _stacks(view: Any) -> list[float]:
    """Per player, the ends of the credits' parts stacked: negatives to the left, positives to the right."""
    out = []
    for p in view.players:
        if p.by_source:
            out.append(sum(v for _, v in p.by_source if v < 0))
            out.append(sum(v for _, v in p.by_source if v > 0))
    return out


SOURCES_TITLE = "Where the credits come from"


def _sources_subtitle(data: Any) -> str:
    head = "mean credits a round by source, for the ship and each opponent; ◆ the total"
    return head + (f"\n{data.gap.sentence}" if data.gap is not None else "")


def plot_sources(data: Any, *, ax: Axes, look: Look = WIDE, scale: tuple[float, float] | None = None) -> None:
    """The credits of a round split by source (contract §5.1), one stacked bar per ship: card
    rewards, goods, arrival and the best-looking bonus to the right of zero, the penalty to the
    left, a diamond at the total; the biggest gap to the field in words under the title.
    ``scale``: the range shared with another ship."""
    rows = [p for p in data.players if p.by_source]
    y = np.arange(len(rows))
    seen: set[str] = set()
    for k, p in enumerate(rows):
        left_pos, left_neg = 0.0, 0.0
        for name, v in p.by_source:
            if v == 0:
                continue
            start = left_pos if v > 0 else left_neg
            ax.barh(k, v, left=start, height=0.62, color=SOURCE_COLOURS.get(name, GRID), edgecolor="white",
                    linewidth=0.6, zorder=2, label=SOURCE_LABEL.get(name, name) if name not in seen else None)
            seen.add(name)
            if v > 0:
                left_pos += v
            else:
                left_neg += v
        ax.plot([p.credits], [k], marker="D", color=INK, markersize=6 if look.phone else 5, zorder=4,
                linestyle="none")
    lo, hi = min(_stacks(data) + [0.0]), max(_stacks(data) + [1.0])
    if scale is not None:
        lo, hi = min(lo, scale[0]), max(hi, scale[1])
    pad = 0.04 * (hi - lo)
    ax.set_xlim(lo - pad, hi + pad)
    ax.axvline(0, color=INK, linewidth=0.8, zorder=3)
    width = 16 if look.phone else 24
    ax.set_yticks(y, [_short(p.name, width) for p in rows])
    ax.invert_yaxis()
    _clean(ax, look)
    for label, p in zip(ax.get_yticklabels(), rows, strict=True):
        if p.ship:
            label.set_fontweight("bold")
            label.set_color(INK)
    ax.xaxis.grid(True, color="#eef0f3", zorder=0)
    ax.set_axisbelow(True)
    ax.set_xlabel("credits a round, on average", fontsize=look.fs(8.5), color=MUTED)
    order = [SOURCE_LABEL[k] for k in SOURCE_COLOURS if k in seen]
    handles, labels = ax.get_legend_handles_labels()
    by_label = dict(zip(labels, handles, strict=True))
    fig = ax.get_figure(root=True)
    assert fig is not None
    ax.legend([by_label[x] for x in order], order, loc="lower center", bbox_to_anchor=(0.5, 0.02),
              bbox_transform=fig.transFigure, ncol=3 if look.phone else 5, frameon=False, fontsize=look.fs(8),
              handlelength=1.0 if look.phone else 2.0, columnspacing=0.8 if look.phone else 2.0)
    _titles(ax, SOURCES_TITLE, _sources_subtitle(data), flush=True, look=look)


def sources_figure(data: Any, look: Look = WIDE, scale: tuple[float, float] | None = None) -> Figure:
    """:func:`plot_sources` laid out: a bar a ship, the title with the gap's sentence, the legend under."""
    names = [p for p in data.players if p.by_source]
    top = header_height(SOURCES_TITLE, _sources_subtitle(data), look)
    if look.phone:
        longest = max((len(line) for p in names for line in _short(p.name, 16).split("\n")), default=8)
        fig, ax = _chart(PHONE_WIDTH, top + 0.95 + 0.5 * len(names), left=0.2 + longest * look.fs(8.5) * 0.55 / 72,
                         top=top, bottom=0.95, right=0.15)
    else:
        longest = max((len(line) for p in names for line in _short(p.name).split("\n")), default=8)
        fig, ax = _chart(6.4, top + 0.8 + 0.45 * len(names), left=0.3 + 0.075 * longest, top=top, bottom=0.8)
    plot_sources(data, ax=ax, look=look, scale=scale)
    return fig


def _short(name: str, width: int = 24) -> str:
    """A name in at most two lines of ``width`` characters (an ellipsis cuts the rest)."""
    lines = textwrap.wrap(_plain(name), width)
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), width, placeholder="…")]
    return "\n".join(lines)


SHOWN_CHANGES = 12  # changes in the figure, at most


def _shown_effects(data: Any) -> list[Any]:
    """The changes the figure shows: every measured one (additions and policies too), best first."""
    effects = list(getattr(data, "measured", data.effects))
    return effects[:SHOWN_CHANGES]


def _verdict_colour(e: Any) -> str:
    lo, hi = e.credits_ci
    return GOOD if lo > 0 else BAD if hi < 0 else "#9aa3ad"


def plot_recommendations(data: Any, *, ax: Axes, wrap: int = 46, look: Look = WIDE,
                         scale: tuple[float, float] | None = None) -> None:
    """Each change's effect on credits with its 95 % interval (paired runs), best first. On a phone
    each change's words stand above its bar, across the whole width."""
    effects = _shown_effects(data)
    if look.phone:
        ys, labels = _stacked_rows([e.variant.text for e in effects], PHONE_CHANGE_WRAP)
    else:
        ys = list(range(len(effects)))
        labels = [textwrap.fill(e.variant.text, wrap) for e in effects]
    for y, e in zip(ys, effects):
        lo, hi = e.credits_ci
        colour = _verdict_colour(e)
        ax.plot([lo, hi], [y, y], color=colour, linewidth=2.2, solid_capstyle="round", zorder=2)
        ax.plot([e.credits], [y], marker="o", color=colour, markersize=7, zorder=3)
    ax.axvline(0, color=INK, linewidth=0.9, zorder=1)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5 if look.phone else 6))
    if scale is not None:
        pad = 0.06 * (scale[1] - scale[0] or 1.0)
        ax.set_xlim(scale[0] - pad, scale[1] + pad)
    _clean(ax, look)
    if look.phone:
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
        trans = blended_transform_factory(ax.transAxes, ax.transData)
        for y, text in zip(ys, labels):
            ax.text(0.0, y - 0.32, text, transform=trans, ha="left", va="bottom", fontsize=look.fs(8.5), color=INK)
        ax.set_ylim(max(ys, default=0) + 0.5, -0.5 - 0.0)
    else:
        ax.set_yticks(ys, labels, fontsize=8)
        ax.set_ylim(len(effects) - 0.5, -0.5)
    ax.xaxis.grid(True, color="#eef0f3", zorder=0)
    ax.set_xlabel("change in mean credits this round (95% interval)", fontsize=look.fs(8.5), color=MUTED)
    _titles(ax, "What to change", _changes_subtitle(data), flush=True, look=look)


PHONE_CHANGE_WRAP = 48  # characters of a change's line on the phone
ROW_LINE = 0.42  # data units a line of a change's words takes on the phone


def _stacked_rows(texts: list[str], wrap: int) -> tuple[list[float], list[str]]:
    """Bar positions with room above each for its words (phone layout), and the wrapped words."""
    ys, labels = [], []
    y = -0.5
    for t in texts:
        lines = textwrap.fill(t, wrap)
        y += ROW_LINE * (lines.count("\n") + 1) + 0.5
        ys.append(y)
        labels.append(lines)
        y += 0.25
    return ys, labels


def _changes_subtitle(data: Any) -> str:
    return f"each change flown on the same {data.runs:,} decks and dice as the ship"


ACCENT = "#3b5bdb"


def _chart(width: float, height: float, *, left: float = 1.0, top: float = 0.75, bottom: float = 0.55,
           right: float = 0.3) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((left / width, bottom / height, 1 - (left + right) / width, 1 - (top + bottom) / height))
    return fig, ax


def _distribution_figure(data: Any, plot: Any, title: str, note: str, look: Look, scale: Any) -> Figure:
    if look.phone:
        top = header_height(title, _distribution_subtitle(data, note), look)
        fig, ax = _chart(PHONE_WIDTH, top + 2.3, left=0.55, top=top, bottom=0.5, right=0.15)
    else:
        fig, ax = _chart(6.4, 3.4, left=0.7)
    plot(ax=ax, look=look, scale=scale)
    return fig


def credits_figure(data: Any, look: Look = WIDE, scale: tuple[tuple[float, float], float] | None = None) -> Figure:
    return _distribution_figure(data.credits, lambda **kw: plot_credits(data, **kw), "Credits this round",
                                f"finishes {data.p_finish:.0%}", look, scale)


def losses_figure(data: Any, look: Look = WIDE, scale: tuple[tuple[float, float], float] | None = None) -> Figure:
    return _distribution_figure(data.lost, lambda **kw: plot_losses(data, **kw), "Components lost",
                                f"a human aboard at the end {data.p_survive:.0%}", look, scale)


def card_types_figure(data: Any, look: Look = WIDE, scale: tuple[tuple[str, ...], float] | None = None) -> Figure:
    rows = _card_rows(data, scale[0] if scale is not None else None)
    shown = len(rows)
    if look.phone:
        top = header_height("Card by card", _card_subtitle(data, rows), look)
        longest = max((len(CARD_TYPE_LABEL.get(r.type, r.type)) for r in rows), default=8)
        left = 0.2 + longest * look.fs(8.5) * 0.55 / 72
        fig, ax = _chart(PHONE_WIDTH, top + 1.1 + 0.52 * max(2, shown), left=left, top=top, bottom=1.1, right=0.15)
    else:
        fig, ax = _chart(6.4, 1.9 + 0.5 * max(2, shown), left=1.45, top=1.1, bottom=0.8)
    plot_card_types(data, ax=ax, look=look, scale=scale)
    return fig


def field_figure(data: Any, look: Look = WIDE, scale: tuple[float, float] | None = None) -> Figure:
    if look.phone:
        longest = max((len(line) for r in data.players for line in _short(r.name, 16).split("\n")), default=8)
        longest = max(longest, len("finishes 100%"))
        top = header_height("Against the field", "the same decks and dice for every ship", look)
        fig, ax = _chart(PHONE_WIDTH, top + 0.6 + 0.62 * len(data.players), top=top, bottom=0.55, right=0.2,
                         left=0.2 + longest * look.fs(8.5) * 0.55 / 72)
    else:
        longest = max((len(line) for r in data.players for line in _short(r.name).split("\n")), default=8)
        fig, ax = _chart(6.4, 1.3 + 0.5 * len(data.players), left=0.3 + 0.075 * longest)
    plot_field(data, ax=ax, look=look, scale=scale)
    return fig


def recommendations_figure(data: Any, look: Look = WIDE, scale: tuple[float, float] | None = None) -> Figure:
    effects = _shown_effects(data)
    if look.phone:
        ys, _ = _stacked_rows([e.variant.text for e in effects], PHONE_CHANGE_WRAP)
        top = header_height("What to change", _changes_subtitle(data), look)
        units = (ys[-1] + 0.5 + 0.5) if ys else 1.0
        fig, ax = _chart(PHONE_WIDTH, top + 0.6 + 0.3 * units, left=0.15, top=top, bottom=0.6, right=0.2)
    else:
        lines = sum(max(1, -(-len(e.variant.text) // 46)) for e in effects)
        fig, ax = _chart(6.4, 1.4 + 0.2 * lines + 0.25 * len(effects), left=2.9)
    plot_recommendations(data, ax=ax, look=look, scale=scale)
    return fig
