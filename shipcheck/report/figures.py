"""The numbers each figure and table of a report shows: pure functions of a ship and its results.

Nothing here draws. Every ``*_data`` function returns a small frozen value holding exactly what
its figure shows (probabilities as exact fractions where the engine is exact), so tests can check
a figure's content on small ships by hand and :mod:`shipcheck.report.plots` only turns it into
ink. Squares are grid indices (``row * width + col``); labels for people come with the values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from shipcheck.cards import Card
from shipcheck.check.fix import FixResult
from shipcheck.check.rules import CheckReport
from shipcheck.flight.chain import DEFAULT_POLICY, FlightModel
from shipcheck.flight.odds import odds
from shipcheck.flight.stats import ShipStats, fmt_power
from shipcheck.model import BATTERY_KINDS, Ship
from shipcheck.render import label_text
from shipcheck.topology import DIE_CHARS, HULL_CHARS

DIRS = ("front", "right", "rear", "left")

# Square states of the board drawing.
TILE, EMPTY, START, LOCKED, HULL, OFF = "tile", "empty", "start", "locked", "hull", "off"


def round_name(key: Any) -> str:
    """``"round 3"``, ``"round 3a"``, ``"the learning flight"``."""
    return "the learning flight" if str(key) == "learning" else f"round {key}"


def pct(x: Fraction | float) -> str:
    """A probability for people: ``"12%"``, ``"<1%"`` for a small non-zero one, ``"100%"``."""
    v = float(x) * 100
    if v == 0:
        return "0%"
    if v < 0.5:
        return "<1%"
    if v > 99.5 and v < 100:
        return ">99%"
    return f"{v:.0f}%"


# -- the ship drawing ------------------------------------------------------------------------------
@dataclass(frozen=True)
class TileView:
    """One placed tile as drawn: sides are *board* sides (0 N, 1 E, 2 S, 3 W) after rotation."""

    at: int
    row: int
    col: int
    kind: str
    code: str  # the three-letter code of the terminal drawing
    connectors: tuple[int, int, int, int]  # 0 smooth, 1 single, 2 double, 3 universal
    barrels: tuple[int, ...]
    exhausts: tuple[int, ...]
    covers: tuple[int, ...]  # sides a shield covers
    exposed: tuple[int, ...]  # sides whose connector faces an empty square
    codes: tuple[str, ...]  # rule codes naming this square, in code order
    hint: str  # alien colour, life-support colour, charges or slots: one short word


@dataclass(frozen=True, repr=False)
class ShipView:
    """What the ship drawing shows: the board, every tile, exposed connectors and violations."""

    name: str
    board: str
    width: int
    height: int
    columns: tuple[str, ...]  # printed labels (and grid indices where squares are written by index)
    rows: tuple[str, ...]
    squares: tuple[str, ...]  # per grid square: tile, empty, start, locked, hull or off
    tiles: tuple[TileView, ...]
    violations: tuple[tuple[str, tuple[int, ...], str], ...]  # (code, squares, message)
    exposed: int
    legal: bool
    front: int  # board side that is the ship's front
    seams: tuple[int, ...] = ()  # grid columns followed by a seam

    def __repr__(self) -> str:
        return (f"<ShipView {self.name!r}: {len(self.tiles)} tiles on class {self.board}, "
                f"{'legal' if self.legal else 'ILLEGAL'}, {self.exposed} exposed connectors>")

    def tile_at(self, at: int) -> TileView | None:
        return next((t for t in self.tiles if t.at == at), None)


def _hint(t: Any) -> str:
    if t.alien:
        return t.alien
    if t.kind == "life_support":
        return str(t.attr("color"))
    if t.kind in BATTERY_KINDS:
        return f"{t.charges}/{t.capacity}"
    if t.kind in ("cargo", "special_cargo"):
        return f"{t.attr('slots')} slot" + ("s" if t.attr("slots") != 1 else "")
    if t.kind == "mixed_cargo":
        return f"{t.attr('slots')}+{t.attr('special_slots')}"
    if t.crew == "empty":
        return "empty"
    return ""


def ship_data(ship: Ship, report: CheckReport) -> ShipView:
    """The ship drawing's content: ``report`` is :func:`shipcheck.check` of ``ship``."""
    b = ship.board
    tiles = ship.by_index
    nb = b.nb
    by_square: dict[int, list[str]] = {}
    for v in report.violations:
        for c in v.cells:
            codes = by_square.setdefault(c, [])
            if v.code not in codes:
                codes.append(v.code)
    squares = []
    for i in range(b.size):
        ch = b.char(i)
        if i in tiles:
            squares.append(TILE)
        elif ch == ".":
            squares.append(OFF)
        elif ch == "S":
            squares.append(START)
        elif ch in DIE_CHARS:
            squares.append(EMPTY if b.unlocked(i, ship.dice) else LOCKED)
        elif ch in HULL_CHARS:
            squares.append(HULL)
        else:
            squares.append(EMPTY)
    views = []
    for t in ship.tiles:
        r, c = divmod(t.at, b.width)
        exposed = tuple(s for s in range(4) if t.eff[s] and (nb[t.at][s] < 0 or nb[t.at][s] not in tiles))
        views.append(TileView(
            at=t.at, row=r, col=c, kind=t.kind, code=t.info.code, connectors=t.eff,
            barrels=t.barrels, exhausts=t.exhausts, covers=t.covers, exposed=exposed,
            codes=tuple(by_square.get(t.at, ())), hint=_hint(t),
        ))
    seams = []
    for a, bb in b.seams:
        ca, cb = b.column_of_label(a), b.column_of_label(bb)
        if ca is not None and cb is not None:
            seams.append(min(ca, cb))
    columns = tuple(label_text(x) for x in b.columns)
    rows = tuple(label_text(x) for x in b.rows)
    if b.index_cells:  # squares are written {col = i, row = j} there: show the grid indices too
        columns = tuple(f"{lab}\nc{j}" for j, lab in enumerate(columns))
        rows = tuple(f"{lab}\nr{j}" for j, lab in enumerate(rows))
    return ShipView(
        name=ship_title(ship), board=b.name, width=b.width, height=b.height, columns=columns, rows=rows,
        squares=tuple(squares), tiles=tuple(views),
        violations=tuple((v.code, v.cells, v.message) for v in report.violations),
        exposed=report.exposed_connectors, legal=report.legal, front=int(ship.front_side),
        seams=tuple(sorted(seams)),
    )


def ship_title(ship: Ship) -> str:
    """The ship's name, else its file's stem, else its class; without control characters (it is
    printed, drawn and put in the page)."""
    from shipcheck.errors import printable

    if ship.name:
        return printable(ship.name)
    if ship.source:
        from pathlib import Path

        return printable(Path(ship.source).stem)
    return f"class {ship.board.name} ship"


# -- the round's meteor swarms (exact engine) --------------------------------------------------
def swarm_weights(deck: Any) -> list[tuple[Card, Fraction]]:
    """The meteor-swarm cards a round's deck (a :class:`~shipcheck.round.Deck`) can hold, each with its
    chance of being in it.

    A drawn deck takes ``k`` of the ``n`` cards of a level: each is in with probability ``k / n`` (a
    round-3 deck: 4 of the 20 level-I cards, 4 of the level-II, 8 of the level-III ones). The
    learning flight and a fixed deck hold each of their cards for sure (a card listed twice counts
    twice).
    """
    out: dict[str, tuple[Card, Fraction]] = {}

    def add(c: Card, w: Fraction) -> None:
        if c.type == "meteor_swarm":
            prev = out.get(c.id)
            out[c.id] = (c, w + (prev[1] if prev else 0))

    if deck.fixed or deck.learning:
        for c in deck.cards:
            add(c, Fraction(1))
    else:
        for _, idx, k in deck.plan:
            for i in idx:
                add(deck.cards[i], Fraction(k, len(idx)))
    return sorted(out.values(), key=lambda cw: (cw[0].level, cw[0].index))


@dataclass(frozen=True, repr=False)
class SwarmOdds:
    """One meteor-swarm card flown on a fresh ship: exact survival and losses."""

    card: str  # full id, "2007:I-10"
    level: int
    meteors: tuple[str, ...]  # "small-meteor:front", ...
    in_deck: Fraction  # chance the card is in the round's deck
    p_survive: Fraction
    expected_lost: Fraction
    lost_distribution: tuple[tuple[int, Fraction], ...]

    def __repr__(self) -> str:
        return (f"<SwarmOdds {self.card}: {len(self.meteors)} meteors, in deck {float(self.in_deck):.0%}, "
                f"p_survive {float(self.p_survive):.4f}, expected_lost {float(self.expected_lost):.4f}>")


@dataclass(frozen=True, repr=False)
class HeatMap:
    """Per square, the chance it is lost when one of the round's meteor swarms comes.

    ``direction`` is a ship-relative side (``front``...) counting only the meteors from that side,
    or ``all`` for whole swarms. ``meteors`` is the expected number of meteors from that side in a
    swarm. The swarm is a card chosen with probability proportional to its chance of being in the
    deck (:attr:`SwarmOdds.in_deck`).
    """

    direction: str
    meteors: Fraction
    p_lost: tuple[tuple[int, Fraction], ...]  # (square, probability), tiles in grid order

    def __repr__(self) -> str:
        return f"<HeatMap {self.direction}: {len(self.p_lost)} tiles, max p_lost {float(self.max):.4f}>"

    @property
    def max(self) -> Fraction:
        return max((p for _, p in self.p_lost), default=Fraction(0))

    def get(self, at: int) -> Fraction | None:
        return next((p for sq, p in self.p_lost if sq == at), None)


@dataclass(frozen=True, repr=False)
class MeteorData:
    """The heat maps and the table of every meteor swarm of a round's levels."""

    round: int | str
    edition: str
    swarms: tuple[SwarmOdds, ...]
    maps: tuple[HeatMap, ...]  # front, right, rear, left, all
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (f"<MeteorData round {self.round}, edition {self.edition}: {len(self.swarms)} swarm cards, "
                f"p_survive {float(self.p_survive):.4f}, expected_lost {float(self.expected_lost):.4f}>")

    def map(self, direction: str) -> HeatMap:
        return next(m for m in self.maps if m.direction == direction)

    @property
    def p_survive(self) -> Fraction:
        """Survival of one swarm of the round, the card weighted as in the heat maps (1 without swarms)."""
        total = sum((s.in_deck for s in self.swarms), Fraction(0))
        if not total:
            return Fraction(1)
        return sum((s.in_deck * s.p_survive for s in self.swarms), Fraction(0)) / total

    @property
    def expected_lost(self) -> Fraction:
        total = sum((s.in_deck for s in self.swarms), Fraction(0))
        if not total:
            return Fraction(0)
        return sum((s.in_deck * s.expected_lost for s in self.swarms), Fraction(0)) / total


def meteor_data(ship: Ship, *, cards: Sequence[tuple[Card, Fraction]], round: int | str = "",
                edition: str = "2007") -> MeteorData:
    """Exact odds of every meteor swarm ``cards`` names, with its weight, and the loss heat maps.

    The weights (:func:`swarm_weights` of the round's deck) need not add up to 1: a swarm is taken
    to be each card with probability proportional to its weight. The default flight policy
    (docs/flight-model.md) flies a ship with full batteries into each swarm.
    """
    pairs = list(cards)
    model = FlightModel(ship)
    total = sum((w for _, w in pairs), Fraction(0)) or Fraction(1)
    squares = model.squares
    acc: dict[str, list[Fraction]] = {d: [Fraction(0)] * len(squares) for d in (*DIRS, "all")}
    count: dict[str, Fraction] = {d: Fraction(0) for d in (*DIRS, "all")}
    swarms = []
    for card, w in pairs:
        share = w / total
        whole = odds(ship, card.meteors, policy=DEFAULT_POLICY, model=model)
        for k, (_, p) in enumerate(whole.p_lost()):
            acc["all"][k] += share * p
        count["all"] += share * len(card.meteors)
        for d in DIRS:
            part = [a for a in card.meteors if a.side == d]
            if not part:
                continue
            count[d] += share * len(part)
            for k, (_, p) in enumerate(odds(ship, part, policy=DEFAULT_POLICY, model=model).p_lost()):
                acc[d][k] += share * p
        swarms.append(SwarmOdds(
            card=card.full_id, level=card.level, meteors=tuple(str(a) for a in card.meteors), in_deck=w,
            p_survive=whole.p_survive, expected_lost=whole.expected_lost,
            lost_distribution=tuple(whole.lost_distribution.items()),
        ))
    maps = tuple(HeatMap(d, count[d], tuple(zip(squares, acc[d], strict=True))) for d in (*DIRS, "all"))
    notes: tuple[str, ...] = ()
    if ship.cyan_specialisation == "techie":
        notes = ("the cyan Techie's free first charge of each card is not counted in these maps and this "
                 "table (the single-ship flight model); the round's figures count it",)
    return MeteorData(round, edition, tuple(swarms), maps, notes)


# -- tables ------------------------------------------------------------------------------------
Row = tuple[str, ...]


@dataclass(frozen=True, repr=False)
class Table:
    """A table for the page: a title, column headers, rows of text, and notes under it."""

    title: str
    columns: Row
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = ()
    numeric: tuple[int, ...] = ()  # columns aligned right

    def __repr__(self) -> str:
        return f"<Table {self.title!r}: {len(self.rows)} rows x {len(self.columns)} columns>"

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "columns": list(self.columns), "rows": [list(r) for r in self.rows],
                "notes": list(self.notes)}


def check_table(report: CheckReport) -> Table:
    """The verdict of `check`: one row per violation (an empty table for a clean ship)."""
    b = report.ship.board
    rows = tuple((v.code, v.rule.name, v.severity, " ".join(b.cell_text(i) for i in v.cells), v.message)
                 for v in report.violations)
    verdict = "legal" if report.legal else f"ILLEGAL: {len(report.errors)} error(s)"
    if report.warnings:
        verdict += f", {len(report.warnings)} warning(s)"
    notes = (f"{verdict}; {report.exposed_connectors} exposed connector(s)",) + report.notes
    return Table("Construction check", ("code", "rule", "severity", "squares", "what"), rows, notes)


def fix_table(result: FixResult) -> Table:
    """The minimal repair of an illegal ship: each lost square and why."""
    b = result.ship.board
    tiles = result.ship.by_index
    if not result.fixable:
        return Table("Minimal fix", ("square", "component", "how", "rules"), (), (result.reason,))
    rows = []
    for i in result.removed:
        how = "taken off" if i in result.cut else "falls off"
        rows.append((b.cell_text(i), tiles[i].kind, how, " ".join(result.why.get(i, ()))))
    notes = (f"{result.lost} component(s) lost at the inspection ({result.reason}); "
             f"{result.kept} kept",)
    return Table("Minimal fix", ("square", "component", "how", "rules"), tuple(rows), notes)


def stats_table(s: ShipStats) -> Table:
    """The parameters of `stats`: crew, powers, batteries, cargo, shields, exposed connectors."""
    cell = s.ship.board.cell_text
    cr = s.crew
    aliens = ", ".join(f"{c} at {cell(i)}" for c, i in cr.aliens) or "none"

    def power(p: Any) -> str:
        ladder = " / ".join(fmt_power(v) for v in p.ladder)
        return f"{fmt_power(p.min)} to {fmt_power(p.max)}  (by charges spent: {ladder})"

    shields = "; ".join(f"{c.direction} {len(c.shields)}" + (f" ({len(c.boosted)} boosted)" if c.boosted else "")
                        for c in s.shields)
    cg = s.cargo
    rows = (
        ("crew", f"{cr.total} ({cr.humans} humans, aliens: {aliens})"),
        ("engine power", power(s.engine)),
        ("firepower", power(s.cannon)),
        ("batteries", f"{s.charges} of {s.battery_capacity} charges in {len(s.batteries)} component(s)"),
        ("cargo", f"{cg.normal} ordinary + {cg.special} special slots"),
        ("shields", shields),
        ("exposed connectors", f"{s.exposed_total} (" + ", ".join(
            f"{d} {n}" for d, n in zip(DIRS, s.exposed, strict=True)) + ")"),
    )
    return Table("Ship parameters", ("parameter", "value"), rows, s.notes)


def swarm_table(m: MeteorData) -> Table:
    """Exact odds of every meteor swarm of the round's levels."""
    rows = []
    for s in m.swarms:
        dist = " ".join(f"{k}:{pct(p)}" for k, p in s.lost_distribution)
        rows.append((s.card, ", ".join(_short_attack(a) for a in s.meteors), pct(s.in_deck),
                     pct(s.p_survive), f"{float(s.expected_lost):.2f}", dist))
    notes = (
        "each card flown alone on the ship as it launches, full batteries, default policy; "
        f"'in deck' is the chance the deck of {round_name(m.round)} holds the card",
        f"a swarm of this round (cards weighted by 'in deck'): survival {pct(m.p_survive)}, "
        f"expected loss {float(m.expected_lost):.2f} components",
        *m.notes,
    )
    return Table(f"Meteor swarms of {round_name(m.round)} (exact)",
                 ("card", "meteors", "in deck", "survive", "expected lost", "components lost: chance"),
                 tuple(rows), notes, numeric=(2, 3, 4))


def _short_attack(a: str) -> str:
    """``"large-meteor:front"`` -> ``"L front"``; shots keep their word."""
    kind, _, side = a.partition(":")
    size = {"small-meteor": "s", "large-meteor": "L"}.get(kind, kind)
    return f"{size} {side}"


# -- the round (Monte Carlo) --------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class Distribution:
    """A whole-number outcome over the runs: each value seen and its share, the mean with its 95 %
    interval, and percentiles."""

    values: tuple[int, ...]
    shares: tuple[float, ...]
    mean: float
    ci: tuple[float, float]
    percentiles: tuple[tuple[int, int], ...]  # (percent, value)

    def __repr__(self) -> str:
        lo, hi = self.ci
        return f"<Distribution mean {self.mean:.4g} ({lo:.4g} to {hi:.4g}) over {len(self.values)} values>"

    def share(self, value: int) -> float:
        return dict(zip(self.values, self.shares, strict=True)).get(value, 0.0)


PERCENTS = (5, 50, 95)


def distribution(a: Any) -> Distribution:
    """The :class:`Distribution` of an array of whole numbers."""
    import numpy as np

    from shipcheck.round.result import mean_ci

    x = np.asarray(a, dtype=np.int64)
    vals, counts = np.unique(x, return_counts=True)
    mean, ci = mean_ci(x)
    pcs = np.percentile(x, PERCENTS, method="inverted_cdf")
    return Distribution(tuple(int(v) for v in vals), tuple(int(c) / len(x) for c in counts), mean, ci,
                        tuple((p, int(v)) for p, v in zip(PERCENTS, pcs, strict=True)))


@dataclass(frozen=True)
class CardTypeRow:
    """Per card type, per round: how many such cards come, and what they cost or bring the ship."""

    type: str
    drawn: float  # cards of the type met
    lost: float  # components lost on them
    credits: float  # credits earned on them
    gave_up: float  # share of rounds the ship gave up on such a card
    goods: float = 0.0  # sale value of the goods they loaded still aboard at the end


@dataclass(frozen=True)
class PlayerRow:
    """One ship of the field: its credits and its chance to finish."""

    name: str
    ship: bool  # the ship the report is about
    credits: float
    credits_ci: tuple[float, float]
    p_finish: float
    p_finish_ci: tuple[float, float]
    p_survive: float
    by_source: tuple[tuple[str, float], ...] = ()  # mean credits per run by source (contract §5.1)
    days: float = 0.0  # mean final track position, spaces from the leader's start
    lost: float = 0.0  # mean components lost
    exposed: int = 0  # exposed connectors of the ship as it launches
    firepower: float = 0.0  # the most firepower it can bring (every charge spent)
    card_credits: tuple[tuple[str, float], ...] = ()  # per card type: credits earned on it per run
    card_goods: tuple[tuple[str, float], ...] = ()  # per card type: goods it loaded still aboard, per run
    engine: float = 0.0  # the most engine power it can bring (every charge spent)
    cargo: int = 0  # cargo slots, special ones included
    front_open: int = 0  # connectors open to the front (what small meteors from the front hit)
    card_lost: tuple[tuple[str, float], ...] = ()  # per card type: components lost on it per run

    def source(self, name: str) -> float:
        return dict(self.by_source).get(name, 0.0)


ENEMIES = ("pirates", "slavers", "smugglers")
#: the parts of a round's credits (contract §5.1), in words
SOURCE_WORDS = {"cards": "card rewards", "goods": "goods", "arrival": "arrival", "best_looking": "the best-looking bonus",
                "penalty": "the penalty"}


@dataclass(frozen=True)
class Gap:
    """The biggest gap between the ship and the field: against the best opponent, how many credits
    (``credits``: ship minus opponent), the source that makes most of it (``part`` of it), why in
    words, and the whole sentence."""

    opponent: str
    credits: float
    source: str
    part: float
    why: str
    sentence: str

    def to_dict(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "credits": self.credits, "source": self.source, "part": self.part,
                "sentence": self.sentence}


def _why(source: str, me: PlayerRow, other: PlayerRow, ahead_is_me: bool) -> str:
    """Why one ship gets more of ``source`` than the other, in a few words (``it`` is the opponent)."""
    who, whose = ("you", "your") if ahead_is_me else ("it", "its")
    a, b = (me, other) if ahead_is_me else (other, me)
    if source == "arrival":
        d = a.days - b.days
        # the cause in the ships' parameters: engine power moves a ship along the track
        power = f", with engine power up to {a.engine:g} against {b.engine:g}" if a.engine != b.engine else ""
        if d >= 0.5:
            return f"{who} fl{'y' if ahead_is_me else 'ies'} {d:.0f} space{'s' if round(d) != 1 else ''} further{power}"
        return (f"{who} finish{'' if ahead_is_me else 'es'} more often ({pct(a.p_finish)} against {pct(b.p_finish)})"
                f"{power}")
    if source in ("goods", "cards"):
        # the card type that makes most of the difference
        mine, theirs = dict(a.card_goods if source == "goods" else a.card_credits), \
            dict(b.card_goods if source == "goods" else b.card_credits)
        diff = {t: mine.get(t, 0.0) - theirs.get(t, 0.0) for t in set(mine) | set(theirs)}
        top = max(diff, key=lambda t: (diff[t], t), default=None)
        if top is None or diff[top] <= 0:
            return f"{whose} {'goods sell' if source == 'goods' else 'cards pay'} for more"
        kind = top.replace("_", " ")
        if source == "goods":
            slots = f", with {a.cargo} cargo slots against {b.cargo}" if a.cargo != b.cargo else ""
            return f"{who} bring{'' if ahead_is_me else 's'} home {diff[top]:.1f} more in goods from {kind}{slots}"
        why = f"{who} earn{'' if ahead_is_me else 's'} {diff[top]:.1f} more on {kind}"
        if top in ENEMIES and a.firepower != b.firepower:
            why += f" (firepower up to {a.firepower:g} against {b.firepower:g})"
        return why
    if source == "best_looking":
        return (f"{who} {'show' if ahead_is_me else 'shows'} fewer exposed connectors ({a.exposed} against "
                f"{b.exposed})")
    return f"{who} lose{'' if ahead_is_me else 's'} {b.lost - a.lost:.1f} fewer components" + _losses(b, a, ahead_is_me)


def _losses(loser: PlayerRow, winner: PlayerRow, loser_is_other: bool) -> str:
    """Where the ship losing more components loses them: the card type making most of the difference,
    and for meteors the connectors it leaves open to the front (what small meteors hit)."""
    mine, theirs = dict(loser.card_lost), dict(winner.card_lost)
    diff = {t: mine.get(t, 0.0) - theirs.get(t, 0.0) for t in set(mine) | set(theirs)}
    top = max(diff, key=lambda t: (diff[t], t), default=None)
    if top is None or diff[top] < 0.05:
        return ""
    who = "it loses" if loser_is_other else "you lose"
    out = f" ({who} {diff[top]:.1f} more to {top.replace('_', ' ')}"
    if top == "meteor_swarm" and loser.front_open != winner.front_open:
        out += f", with {loser.front_open} connectors open to the front against {winner.front_open}"
    return out + ")"


def field_gap(players: Sequence[PlayerRow]) -> Gap | None:
    """The ship (the row with ``ship``) against the best opponent: the gap in credits, the source
    that makes most of it, and a sentence: "you earn 4.1 less than Racer II, 3.2 of it from
    arrival: it flies 6 spaces further". None without opponents or sources."""
    me = next((p for p in players if p.ship), None)
    others = [p for p in players if not p.ship]
    if me is None or not others or not me.by_source:
        return None
    best = max(others, key=lambda p: p.credits)
    gap = me.credits - best.credits
    parts = {k: me.source(k) - best.source(k) for k, _ in me.by_source}
    source = min(parts, key=lambda k: parts[k]) if gap < 0 else max(parts, key=lambda k: parts[k])
    part = parts[source]
    more = "less" if gap < 0 else "more"
    field = "" if gap < 0 else ", the best of the field"
    if abs(gap) < 0.05:
        sentence = f"You earn as much as {best.name}, the best of the field ({me.credits:.1f} credits a round)."
        return Gap(best.name, gap, source, part, "", sentence)
    why = _why(source, me, best, ahead_is_me=gap > 0)
    words = SOURCE_WORDS.get(source, source)
    if abs(part) <= abs(gap) + 0.05:
        sentence = f"You earn {abs(gap):.1f} {more} than {best.name}{field}, {abs(part):.1f} of it from {words}: {why}"
    else:  # one part is more than the whole gap: the others make some of it up
        sentence = (f"You earn {abs(gap):.1f} {more} than {best.name}{field}: {abs(part):.1f} {more} from {words} "
                    f"alone ({why}), made up in part by the others")
    # a second shortfall as real (a credit or more, a quarter of the first) is named with its cause too
    if gap < 0:
        second = min((k for k in parts if k != source), key=lambda k: parts[k], default=None)
        if second is not None and parts[second] <= -1.0 and parts[second] <= 0.25 * part:
            sentence += (f"; and {abs(parts[second]):.1f} less from {SOURCE_WORDS.get(second, second)}: "
                         f"{_why(second, me, best, ahead_is_me=False)}")
    return Gap(best.name, gap, source, part, why, sentence + ".")


@dataclass(frozen=True, repr=False)
class RoundView:
    """What the round's figures show for the ship (player 0) of a :class:`~shipcheck.round.RoundResult`."""

    round: str
    runs: int
    seed: int
    deck: Any  # "drawn" or the card ids
    policy: str
    credits: Distribution
    lost: Distribution
    p_survive: float
    p_survive_ci: tuple[float, float]
    p_finish: float
    p_finish_ci: tuple[float, float]
    gave_up: tuple[tuple[str, float], ...]  # (cause, share of runs)
    by_type: tuple[CardTypeRow, ...]
    players: tuple[PlayerRow, ...]
    notes: tuple[str, ...]
    gap: Gap | None = None  # the biggest gap to the field, with its sentence

    def __repr__(self) -> str:
        c = self.credits
        return (f"<RoundView round {self.round}, {self.runs} runs: credits {c.mean:.2f} ({c.ci[0]:.2f} to "
                f"{c.ci[1]:.2f}), p_finish {self.p_finish:.3f}, lost {self.lost.mean:.2f}, {len(self.players)} ships>")


def _player_row(k: int, p: Any) -> PlayerRow:
    """One ship's row of the field: its round figures and the parameters the gap sentence names."""
    import numpy as np

    from shipcheck.check.rules import check
    from shipcheck.errors import printable
    from shipcheck.flight.stats import stats

    st, rep, types = stats(p.ship), check(p.ship), p.card_types()
    front = rep.exposed_by_side[int(p.ship.front_side)]  # by board side: the ship's front
    return PlayerRow(printable(p.name), k == 0, p.credits_mean, tuple(p.credits_ci), p.p_finish, tuple(p.p_finish_ci),
                     p.p_survive, tuple(p.by_source.items()), float(np.mean(p.days, dtype=np.float64)),
                     p.expected_lost, rep.exposed_connectors, float(st.cannon.max),
                     tuple((t, v["expected_credits"]) for t, v in types.items()),
                     tuple((t, v.get("expected_goods_value", 0.0)) for t, v in types.items()),
                     engine=float(st.engine.max), cargo=st.cargo.normal + st.cargo.special, front_open=front,
                     card_lost=tuple((t, v["expected_lost"]) for t, v in types.items()))


def round_data(result: Any) -> RoundView:
    """The round figures' numbers, from a :class:`~shipcheck.round.RoundResult`."""


    me = result.players[0]
    rows = tuple(CardTypeRow(t, v["drawn"], v["expected_lost"], v["expected_credits"], v["p_gave_up"],
                             v.get("expected_goods_value", 0.0))
                 for t, v in me.card_types().items())
    players = tuple(_player_row(k, p) for k, p in enumerate(result.players))
    return RoundView(
        round=str(result.round), runs=result.runs, seed=result.seed, deck=result.deck.describe(), policy=me.policy,
        credits=distribution(me.credits), lost=distribution(me.lost), p_survive=me.p_survive,
        p_survive_ci=tuple(me.p_survive_ci), p_finish=me.p_finish, p_finish_ci=tuple(me.p_finish_ci),
        gave_up=tuple(me.gave_up_shares.items()), by_type=rows, players=players, notes=tuple(result.notes),
        gap=field_gap(players),
    )


def round_table(v: RoundView) -> Table:
    """The round's summary, as ``simulate --round`` gives it."""
    c, lo = v.credits, v.lost
    pcs = ", ".join(f"{p}%: {x}" for p, x in c.percentiles)
    deck = v.deck if isinstance(v.deck, str) else ", ".join(v.deck)
    rows: tuple[tuple[str, str], ...] = (
        ("credits", f"{c.mean:.2f} (95% interval {c.ci[0]:.2f} to {c.ci[1]:.2f}); percentiles {pcs}"),
        ("finishes the round", f"{pct(v.p_finish)} ({pct(v.p_finish_ci[0])} to {pct(v.p_finish_ci[1])})"),
        ("a human aboard at the end", f"{pct(v.p_survive)} ({pct(v.p_survive_ci[0])} to {pct(v.p_survive_ci[1])})"),
        ("components lost", f"{lo.mean:.2f} (95% interval {lo.ci[0]:.2f} to {lo.ci[1]:.2f})"),
        ("gives up", ", ".join(f"{cause.replace('_', ' ')} {pct(p)}" for cause, p in v.gave_up) or "never"),
        ("rounds flown", f"{v.runs:,} (seed {v.seed}); deck {deck}; policy {v.policy}"),
    )
    me = next((p for p in v.players if p.ship), None)
    others = [p for p in v.players if not p.ship]
    if me is not None and me.by_source:
        parts = ", ".join(f"{SOURCE_WORDS[k].removeprefix('the ')} {x:+.2f}" for k, x in me.by_source)
        if others:
            field = ", ".join(f"{SOURCE_WORDS[k].removeprefix('the ')} {sum(o.source(k) for o in others) / len(others):+.2f}"
                              for k, _ in me.by_source)
            parts += f"; the field's mean: {field}"
        rows = rows[:1] + (("where the credits come from", parts),) + rows[1:]
    # the round's notes (provisional values...) are the report's: the page lists them once, at its end
    return Table(f"Round {v.round}", ("", "value"), rows)


_WHO = re.compile(r"the ship|opponent \d+ \(([^)]*)\)")


def merge_notes(notes: Sequence[str]) -> tuple[str, ...]:
    """Notes once each, and one note for what several ships share: "provisional cap for the ship" and
    "... for opponent 1 (Trader II)" with the same words after become "provisional cap for the ship
    and Trader II: ...". Order: first seen."""
    groups: dict[tuple[str, str], list[str]] = {}
    for n in notes:
        m = _WHO.search(n)
        if m is None:
            groups.setdefault((n, ""), [])
            continue
        who = m.group(1) or m.group(0)
        names = groups.setdefault((n[:m.start()], n[m.end():]), [])
        if who not in names:
            names.append(who)
    out = []
    for (head, tail), names in groups.items():
        if not names:
            out.append(head)
        else:
            joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            out.append(f"{head}{joined}{tail}")
    return tuple(dict.fromkeys(out))
