"""Drawing the report's figures: each ``plot_*(data, *, ax)`` draws one ``*_data`` value on an Axes.

The functions only draw: every number comes from :mod:`shipcheck.report.data` (or the round and
recommendation data), so a figure cannot show something its tested data does not hold. They use
matplotlib's object API on the Axes they are given and never touch pyplot's global state. Shapes
are gathered into one collection per layer (a ship is hundreds of small shapes; one artist each
would make a report slow to save), and the ``*_figure`` builders lay figures out by hand for the
same reason.
"""

from __future__ import annotations

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

from .data import DIRS, EMPTY, HULL, LOCKED, START, MeteorData, ShipView, TileView, pct
from .palette import ALIEN, ARROW, BAD, BARREL, FACE, FLAME, GOOD, GRID, INK, LABEL, MUTED, PIPE, SHIELD, WARN

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


def _empty_squares(ax: Axes, layers: _Layers, squares: tuple[str, ...], width: int) -> None:
    for i, state in enumerate(squares):
        if state not in (EMPTY, START, LOCKED, HULL):
            continue
        r, c = divmod(i, width)
        layers.add(Rectangle((c - HALF, r - HALF), 2 * HALF, 2 * HALF, fill=False, edgecolor=GRID, linewidth=0.8,
                             linestyle="dotted" if state == LOCKED else "dashed"), 1)
        if state == START:
            ax.text(c, r, "S", ha="center", va="center", fontsize=8, color=GRID, fontweight="bold")


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


def _tile(ax: Axes, layers: _Layers, t: TileView, *, fontsize: float) -> None:
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
    ax.text(x, y - 0.06, LABEL.get(t.kind, t.kind), ha="center", va="center", fontsize=fontsize, color=INK,
            zorder=5)
    if t.hint:
        ax.text(x, y + 0.2, t.hint, ha="center", va="center", fontsize=fontsize * 0.85,
                color=ALIEN.get(t.hint, MUTED), fontweight="bold" if t.hint in ALIEN else "normal", zorder=5)
    if t.codes:
        ax.text(x - HALF + 0.06, y - HALF + 0.1, " ".join(t.codes), ha="left", va="center",
                fontsize=fontsize * 0.85, color="white", fontweight="bold", zorder=7,
                bbox={"boxstyle": "round,pad=0.15", "facecolor": BAD if error else WARN, "edgecolor": "none"})


def _titles(ax: Axes, title: str, subtitle: str, *, colour: str = MUTED, wrap: int = 60,
            flush: bool = False) -> None:
    """A bold title and a grey subtitle over the Axes; ``flush`` starts them at the figure's left
    edge instead of the Axes' (charts whose tick labels take the left margin)."""
    import textwrap

    x = 0.0
    if flush:
        pos = ax.get_position()
        width = ax.get_figure(root=True).get_figwidth()  # type: ignore[union-attr]
        x = -(pos.x0 * width - 0.2) / (pos.width * width)
    sub = "\n".join(textwrap.fill(line, int(wrap * 1.45)) for line in subtitle.split("\n"))
    t = ax.set_title(textwrap.fill(title, wrap), fontsize=12, color=INK, fontweight="bold", loc="left",
                     pad=9 + 11 * (sub.count("\n") + 1))
    t.set_x(x)
    ax.annotate(sub, xy=(x, 1),
                xycoords="axes fraction", xytext=(0, 5), textcoords="offset points", fontsize=8.5, color=colour,
                ha="left", va="bottom")


def plot_ship(data: ShipView, *, ax: Axes, title: bool = True, legend: bool = True, wrap: int = 60,
              legend_columns: int = 3) -> None:
    """The ship drawn as tiles on its board: kinds, connectors, barrels, exhausts, shields, exposed
    connectors (red rings) and rule breaks (red outline with the codes); on a board whose front the
    player chooses, an arrow in the margin on the front side."""
    fontsize = 7.5 if data.width <= 7 else 6.8
    _board_frame(ax, data.width, data.height, data.columns, data.rows,
                 margin=data.front if data.front != 0 else None)
    layers = _Layers()
    _empty_squares(ax, layers, data.squares, data.width)
    for c in data.seams:
        ax.plot([c + 0.5, c + 0.5], [-0.5, data.height - 0.5], color="#c026d3", linewidth=1.2,
                linestyle=(0, (4, 3)), zorder=1)
    for t in data.tiles:
        _tile(ax, layers, t, fontsize=fontsize)
    layers.draw(ax)
    if data.front != 0:
        _front_arrow(ax, data)
    if title:
        errors = sum(1 for v in data.violations if v[0] != "W1")
        sub = f"class {data.board} · " + ("legal" if data.legal else "ILLEGAL")
        if errors:
            sub += f" ({errors} rule break{'s' if errors != 1 else ''})"
        sub += f" · {data.exposed} exposed connector{'s' if data.exposed != 1 else ''}"
        _titles(ax, data.name, sub, colour=MUTED if data.legal else BAD, wrap=wrap)
    if legend:
        ax.legend(handles=_ship_legend(data), loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=legend_columns,
                  frameon=False, fontsize=8, handlelength=1.4, columnspacing=1.2)


def _front_arrow(ax: Axes, data: ShipView) -> None:
    """An arrow and the word "front" in the margin of the side the player chose as the front."""
    side = data.front
    w, h = data.width, data.height
    cx = {1: w + 0.05, 3: -1.75}.get(side, (w - 1) / 2)
    cy = {0: -1.75, 2: h + 0.1}.get(side, (h - 1) / 2)
    ax.add_patch(FancyArrow(cx - 0.25 * _DX[side], cy - 0.25 * _DY[side], 0.5 * _DX[side], 0.5 * _DY[side],
                            width=0.07, head_width=0.28, head_length=0.22, color=INK, zorder=7))
    if side in (1, 3):
        ax.text(cx, cy + 0.3, "front", ha="center", va="top", fontsize=8.5, color=INK, fontweight="bold")
    else:
        ax.text(cx + 0.3, cy, "front", ha="left", va="center", fontsize=8.5, color=INK, fontweight="bold")


def _ship_legend(data: ShipView) -> list[Any]:
    handles: list[Any] = [
        Line2D([], [], color=PIPE, linewidth=3, label="connector (1/2/3 pipes)"),
        Line2D([], [], color=BARREL, linewidth=4, label="cannon barrel"),
        Patch(facecolor=FLAME[0], label="engine exhaust"),
        Line2D([], [], color=SHIELD, linewidth=4, label="shielded sides"),
        Line2D([], [], marker="o", color="none", markerfacecolor="white", markeredgecolor=BAD,
               markeredgewidth=1.6, markersize=7, label="exposed connector"),
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
                 norm: mcolors.Normalize | None = None) -> Any:
    """Per square, the chance it is lost when a meteor swarm of the round comes (meteors from one
    side, or ``all``); returns the colour mapping for a colour bar."""
    m = data.map(direction)
    norm = norm or heat_norm(data)
    cmap = matplotlib.colormaps[HEAT_CMAP]
    side = _heat_side(ship, direction)
    _board_frame(ax, ship.width, ship.height, ship.columns, ship.rows, fontsize=8, margin=side)
    layers = _Layers()
    _empty_squares(ax, layers, ship.squares, ship.width)
    fs = 8.5 if ship.width <= 7 else 7.5
    for t in ship.tiles:
        p = m.get(t.at) or Fraction(0)
        colour = cmap(norm(float(p))) if p > 0 else "#f4f5f7"
        layers.add(_box(t.col, t.row, colour, "#9aa3ad", 0.6), 2)
        dark = _luminance(colour) < 0.5
        ax.text(t.col, t.row + 0.08, pct(p), ha="center", va="center", fontsize=fs, fontweight="bold",
                color="white" if dark else INK, zorder=5)
        ax.text(t.col, t.row - 0.24, LABEL.get(t.kind, t.kind), ha="center", va="center", fontsize=fs * 0.7,
                color="white" if dark else MUTED, zorder=5)
    if side is not None:
        _incoming(layers, ship, side)
    layers.draw(ax)
    what = "meteors" if direction == "all" else "meteors from this side"
    _titles(ax, DIRECTION_TITLE[direction], f"chance each square is lost · {float(m.meteors):.1f} {what} per swarm")
    return matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)


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
                  margin: int | None = None) -> tuple[Figure, Axes]:
    """A figure whose Axes holds a board drawing at ``scale`` inches a square, with ``top`` and
    ``bottom`` inches for titles and legends."""
    x0, x1, y0, y1 = _limits(width, height, margin)
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    side = 0.15
    fig = Figure(figsize=(w + 2 * side, h + top + bottom))
    fw, fh = fig.get_size_inches()
    ax = fig.add_axes((side / fw, bottom / fh, w / fw, h / fh))
    return fig, ax


def ship_figure(data: ShipView) -> Figure:
    """The ship drawing, sized to the board."""
    import textwrap

    margin = data.front if data.front != 0 else None
    wrap = max(20, int(((data.width + 0.75) * 0.72) * 8))  # characters of the title that fit the width
    lines = len(textwrap.wrap(data.name, wrap)) or 1
    columns = 3 if data.width >= 6 else 2  # a legend as wide as the board
    fig, ax = _board_figure(data.width, data.height, scale=0.72, top=0.4 + 0.22 * lines,
                            bottom=0.55 if columns == 3 else 0.72, margin=margin)
    plot_ship(data, ax=ax, wrap=wrap, legend_columns=columns)
    return fig


def heat_figure(data: MeteorData, ship: ShipView, direction: str) -> Figure:
    """One heat map with its colour bar underneath."""
    fig, ax = _board_figure(ship.width, ship.height, scale=0.6, top=0.6, bottom=0.6,
                            margin=_heat_side(ship, direction))
    norm = heat_norm(data)
    mappable = plot_heatmap(data, ship, direction, ax=ax, norm=norm)
    fw, fh = fig.get_size_inches()
    cax = fig.add_axes((0.2, 0.22 / fh, 0.6, 0.12 / fh))
    bar = fig.colorbar(mappable, cax=cax, orientation="horizontal")
    top = float(norm.vmax or 1.0)
    ticks = [t for t in (0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0) if t <= top + 1e-9]
    bar.set_ticks(ticks, labels=[f"{t:.0%}" for t in ticks])
    bar.ax.tick_params(labelsize=8, colors=MUTED, length=2)
    bar.outline.set_visible(False)
    return fig


# -- the round -----------------------------------------------------------------------------------
CARD_TYPE_LABEL = {
    "open_space": "open space", "planets": "planets", "meteor_swarm": "meteor swarm", "abandoned_ship": "abandoned ship",
    "abandoned_station": "abandoned station", "slavers": "slavers", "smugglers": "smugglers", "pirates": "pirates",
    "combat_zone": "combat zone", "stardust": "stardust", "epidemic": "epidemic", "sabotage": "sabotage",
}


def _clean(ax: Axes) -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.spines["left"].set_color(GRID)
    ax.spines["bottom"].set_color(GRID)
    ax.tick_params(colors=MUTED, labelsize=8.5)


def plot_distribution(data: Any, *, ax: Axes, title: str, unit: str, colour: str = GOOD,
                      negative: str = BAD, note: str = "") -> None:
    """Bars of a whole-number distribution (share of rounds per value), the mean and its interval."""
    vals = np.asarray(data.values)
    shares = np.asarray(data.shares) * 100
    colours = [negative if v < 0 else colour for v in vals]
    width = 0.85 if len(vals) < 60 else 1.0
    ax.bar(vals, shares, width=width, color=colours, edgecolor="none", zorder=2)
    lo, hi = data.ci
    ax.axvspan(lo, hi, color=INK, alpha=0.12, zorder=1, linewidth=0)
    ax.axvline(data.mean, color=INK, linewidth=1.4, linestyle="--", zorder=3)
    top = float(shares.max()) if len(shares) else 1.0
    ax.set_ylim(0, top * 1.22)
    ax.annotate(f"mean {data.mean:.1f}", xy=(data.mean, top * 1.12), ha="left", va="center", fontsize=8.5,
                color=INK, xytext=(4, 0), textcoords="offset points")
    pct_of = dict(data.percentiles)
    _clean(ax)
    ax.set_ylabel("% of rounds", fontsize=8.5, color=MUTED)
    ax.set_xlabel(unit, fontsize=8.5, color=MUTED)
    ax.yaxis.grid(True, color="#eef0f3", zorder=0)
    ax.set_axisbelow(True)
    sub = f"mean {data.mean:.1f} ({lo:.1f} to {hi:.1f}) · 90% of rounds {pct_of[5]} to {pct_of[95]}"
    _titles(ax, title, sub + (f" · {note}" if note else ""), flush=True)
    if len(vals) and vals.max() - vals.min() <= 12:
        ax.set_xticks(range(int(vals.min()), int(vals.max()) + 1))


def plot_credits(data: Any, *, ax: Axes) -> None:
    """The credits the round earns (a :class:`~shipcheck.report.data.RoundView`)."""
    plot_distribution(data.credits, ax=ax, title="Credits this round", unit="credits (rewards, goods, arrival, "
                      "minus lost components)", note=f"finishes {data.p_finish:.0%}")


def plot_losses(data: Any, *, ax: Axes) -> None:
    """Components lost in the round."""
    plot_distribution(data.lost, ax=ax, title="Components lost", unit="components lost in the round",
                      colour="#e76f51", note=f"a human aboard at the end {data.p_survive:.0%}")


def plot_card_types(data: Any, *, ax: Axes) -> None:
    """Per card type: components lost and credits earned per round, and the share of rounds ended there.
    Card types that did none of these are named under the title."""
    rows = sorted((r for r in data.by_type if r.lost or r.credits or r.gave_up),
                  key=lambda r: -(r.lost + r.credits + 10 * r.gave_up))
    idle = [CARD_TYPE_LABEL.get(r.type, r.type) for r in data.by_type if not (r.lost or r.credits or r.gave_up)]
    names = [CARD_TYPE_LABEL.get(r.type, r.type) for r in rows]
    y = np.arange(len(rows))
    h = 0.38
    ax.barh(y - h / 2, [r.credits for r in rows], height=h, color=GOOD, label="credit rewards", zorder=2)
    ax.barh(y + h / 2, [r.lost for r in rows], height=h, color="#e76f51", label="components lost", zorder=2)
    right = max([r.credits for r in rows] + [r.lost for r in rows] + [0.1])
    for k, r in enumerate(rows):
        if r.gave_up >= 0.0005:
            ax.text(right * 1.02, k, f"gives up {r.gave_up:.1%}", va="center", ha="left", fontsize=8, color=BAD)
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlim(0, right * 1.35)
    _clean(ax)
    ax.xaxis.grid(True, color="#eef0f3", zorder=0)
    ax.set_axisbelow(True)
    ax.set_xlabel("per round, on average", fontsize=8.5, color=MUTED)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False, fontsize=8)
    sub = "credit rewards and components lost per kind of card, and where the ship gives up"
    if idle:
        sub += "\nno reward in credits, nothing lost: " + ", ".join(idle)
    _titles(ax, "Card by card", sub, flush=True)


def plot_field(data: Any, *, ax: Axes) -> None:
    """The ship against its opponents: mean credits with 95 % intervals, and the chance to finish."""
    rows = data.players
    y = np.arange(len(rows))
    colours = [ACCENT if r.ship else "#9aa3ad" for r in rows]
    means = [r.credits for r in rows]
    err = np.array([[r.credits - r.credits_ci[0] for r in rows], [r.credits_ci[1] - r.credits for r in rows]])
    ax.barh(y, means, color=colours, height=0.6, zorder=2)
    ax.errorbar(means, y, xerr=err, fmt="none", ecolor=INK, elinewidth=1, capsize=3, zorder=3)
    lo = min(0.0, min(means))
    hi = max(means + [1.0])
    for k, r in enumerate(rows):
        ax.text(hi * 1.08 + 0.5, k, f"finishes {r.p_finish:.0%}", va="center", ha="left", fontsize=8.5,
                color=INK if r.ship else MUTED, fontweight="bold" if r.ship else "normal")
    ax.set_yticks(y, [_short(r.name) for r in rows])
    ax.invert_yaxis()
    ax.set_xlim(lo * 1.1, hi * 1.45 + 1)
    ax.axvline(0, color=GRID, linewidth=0.8)
    _clean(ax)
    for label, r in zip(ax.get_yticklabels(), rows, strict=True):
        if r.ship:
            label.set_fontweight("bold")
            label.set_color(INK)
    ax.set_xlabel("mean credits this round (95% interval)", fontsize=8.5, color=MUTED)
    _titles(ax, "Against the field", "the same decks and dice for every ship", flush=True)


def _short(name: str, width: int = 24) -> str:
    """A name in at most two lines of ``width`` characters (an ellipsis cuts the rest)."""
    import textwrap

    lines = textwrap.wrap(name, width)
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), width, placeholder="…")]
    return "\n".join(lines)


def plot_recommendations(data: Any, *, ax: Axes, wrap: int = 46) -> None:
    """Each change's effect on credits with its 95 % interval (paired runs), best first."""
    import textwrap

    effects = list(data.effects)
    y = np.arange(len(effects))
    for k, e in enumerate(effects):
        lo, hi = e.credits_ci
        colour = GOOD if lo > 0 else BAD if hi < 0 else "#9aa3ad"
        ax.plot([lo, hi], [k, k], color=colour, linewidth=2.2, solid_capstyle="round", zorder=2)
        ax.plot([e.credits], [k], marker="o", color=colour, markersize=7, zorder=3)
    ax.axvline(0, color=INK, linewidth=0.9, zorder=1)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=6))
    ax.set_yticks(y, [textwrap.fill(e.variant.text, wrap) for e in effects], fontsize=8)
    ax.invert_yaxis()
    ax.set_ylim(len(effects) - 0.5, -0.5)
    _clean(ax)
    ax.xaxis.grid(True, color="#eef0f3", zorder=0)
    ax.set_xlabel("change in mean credits this round (95% interval)", fontsize=8.5, color=MUTED)
    _titles(ax, "What to change", f"each change flown on the same {data.runs:,} decks and dice as the ship",
            flush=True)


ACCENT = "#3b5bdb"


def _chart(width: float, height: float, *, left: float = 1.0, top: float = 0.75, bottom: float = 0.55,
           right: float = 0.3) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((left / width, bottom / height, 1 - (left + right) / width, 1 - (top + bottom) / height))
    return fig, ax


def credits_figure(data: Any) -> Figure:
    fig, ax = _chart(6.4, 3.4, left=0.7)
    plot_credits(data, ax=ax)
    return fig


def losses_figure(data: Any) -> Figure:
    fig, ax = _chart(6.4, 3.4, left=0.7)
    plot_losses(data, ax=ax)
    return fig


def card_types_figure(data: Any) -> Figure:
    shown = sum(1 for r in data.by_type if r.lost or r.credits or r.gave_up)
    fig, ax = _chart(6.4, 1.9 + 0.42 * max(2, shown), left=1.45, top=1.1, bottom=0.95)
    plot_card_types(data, ax=ax)
    return fig


def field_figure(data: Any) -> Figure:
    longest = max((len(line) for r in data.players for line in _short(r.name).split("\n")), default=8)
    fig, ax = _chart(6.4, 1.3 + 0.5 * len(data.players), left=0.3 + 0.075 * longest)
    plot_field(data, ax=ax)
    return fig


def recommendations_figure(data: Any) -> Figure:
    lines = sum(max(1, -(-len(e.variant.text) // 46)) for e in data.effects)
    fig, ax = _chart(6.4, 1.4 + 0.2 * lines + 0.25 * len(data.effects), left=2.9)
    plot_recommendations(data, ax=ax)
    return fig
