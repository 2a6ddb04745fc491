"""Build the default opponents of `simulate --round` (``tiles/field/<class>/*.toml``).

For each class the round engine has a field of (I, II, III, IIIa) three ships are built together
from one pile of the 2007 catalogue's 140 tiles (the pilot cabins left out: each ship's stands
implied on its start square), as three players building from one table would: no physical tile
is in two ships. A seeded simulated annealing moves tiles between the pile and the ships (weld,
put back, exchange, turn, move, trade between ships); it keeps only legal ships and maximises the
sum of the three ships' scores. A score is what a careful player weighs, in rough credits:

- the ship's style: a **trader** values cargo (red-goods slots most) and shields, a **racer**
  engines and batteries, a **fighter** cannons; all value humans, engine power in Open Space
  without charges (the default policy charges a double engine only to reach power 1), firepower,
  battery cells, cargo and shielded sides, each up to a class target and little beyond;
- minus 4 credits per unit short of a checklist every ship meets: engine power and free firepower
  for the class (Open Space, the combat zone), and humans enough to pay the class's dearest
  abandoned ship (the default policy takes one while a human stays aboard) and then lose to its
  slavers, unless the ship's firepower at least ties them;
- minus its exposed connectors (stardust days, small meteors, the best-looking bonus) and its
  life supports serving no cabin;
- minus the components (and, less, the humans) the round's attacks are expected to cost it, from a
  quick line model: every attack (kind and side) of the round's cards, weighted by how often the
  deck holds it, hits the first component of the line each dice roll picks; shields, cannons
  bearing on large meteors and smooth sides stop what they stop, and what falls off counts.

The class I field also flies the learning flight, where life supports are structural: it boards no
alien. Each class's field is the best of a few annealings from the class's fixed seed, written as
ordinary ship files; rerunning writes the same files (with the same numpy). The tests check them
legal, of catalogue tiles, no tile twice in a class, within the documented bounds; `--table`
prints the figures of docs/rounds.md:

    python tools/build_field.py                    # every class (a few minutes)
    python tools/build_field.py --class III        # one class
    python tools/build_field.py --class I --dry-run --steps 20000
    python tools/build_field.py --table            # the shipped field in rounds
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shipcheck.advice.roundcards import round_cards  # noqa: E402
from shipcheck.cards import load_cards  # noqa: E402
from shipcheck.check.rules import check  # noqa: E402
from shipcheck.model import DIRECTION_SIDE, Side, Tile  # noqa: E402
from shipcheck.shipfile import catalogue, parse_ship  # noqa: E402
from shipcheck.topology import Board, builtin_board  # noqa: E402

STYLES = ("trader", "racer", "fighter")
CLASSES = {"I": "1", "II": "2", "III": "3", "IIIa": "3a"}  # class -> the round it flies
SEEDS = {"I": 101, "II": 202, "III": 303, "IIIa": 404}

# Per class level: what a ship needs before more of it is worth little (humans, engine power in
# Open Space, free firepower, cargo slots, battery cells).
TARGETS = {
    1: {"humans": 8, "engine": 4, "firepower": 3, "cargo": 6, "cells": 6},
    2: {"humans": 12, "engine": 5, "firepower": 4, "cargo": 9, "cells": 8},
    3: {"humans": 14, "engine": 7, "firepower": 5, "cargo": 12, "cells": 10},
}
# What every ship of the class has, whatever its style (a careful player's checklist: crew for
# slavers, epidemics and abandoned ships, engines for Open Space, cannons for the combat zone's
# firepower line); each unit short costs SHORT credits.
MINIMUM = {
    1: {"humans": 6, "engine": 3, "firepower": 2},
    2: {"humans": 8, "engine": 4, "firepower": 3},
    3: {"humans": 8, "engine": 6, "firepower": 4},
}
SHORT = 4.0
# Credits per unit up to the target (first number) and beyond it (second), per style. `engine` is the
# power in Open Space without charges (singles and the orange alien: the default policy charges a
# double engine only to reach power 1), `charged` what charges add to engine power or firepower.
VALUES: dict[str, dict[str, tuple[float, float]]] = {
    "trader": {"humans": (1.6, 0.4), "engine": (1.2, 0.3), "firepower": (1.2, 0.2), "charged": (0.3, 0.1),
               "cargo": (1.2, 0.15), "special": (1.5, 0.3), "cells": (0.5, 0.1), "shield": (1.0, 1.0)},
    "racer": {"humans": (1.2, 0.3), "engine": (3.0, 1.5), "firepower": (1.2, 0.3), "charged": (0.3, 0.1),
              "cargo": (0.4, 0.1), "special": (0.4, 0.1), "cells": (0.8, 0.3), "shield": (0.5, 0.5),
              "engine_charged": (0.6, 0.2)},
    "fighter": {"humans": (1.2, 0.3), "engine": (1.5, 0.4), "firepower": (1.8, 1.0), "charged": (1.2, 0.4),
                "cargo": (0.4, 0.1), "special": (0.4, 0.1), "cells": (0.6, 0.2), "shield": (0.5, 0.5)},
}
FIGHTER_FIREPOWER = {1: 7, 2: 9, 3: 11}  # a fighter's own targets: beat the class's enemies,
FIGHTER_HUMANS = {1: 6, 2: 8, 3: 10}  # so slavers take no crew from it: its minimum and target
RACER_ENGINE = {1: 5, 2: 7, 3: 10}  # a racer's own target: lead the race
EXPOSED = 2.0  # credits per exposed connector
IDLE = 1.0  # per life support that serves no cabin: a careful player welds something useful there
LOSS = 2.0  # credits per component expected lost to the round's attacks
HUMAN_LOSS = 0.5  # and per human lost with them (a ship without humans gives up)
STEPS = 100_000  # annealing steps of one restart
RESTARTS = 3
NAMES = {"trader": "Trader", "racer": "Racer", "fighter": "Fighter"}
ALIENS = ("orange", "purple")  # the engine and the cannon specialists
T = TypeVar("T")


@dataclass(frozen=True)
class Part:
    """A catalogue tile turned ``rot`` quarter-turns, with what the score reads of it."""

    tid: str
    rot: int
    kind: str
    eff: tuple[int, int, int, int]
    barrels: tuple[int, ...]
    exhausts: tuple[int, ...]
    covers: tuple[int, ...]
    slots: int
    special: int
    cells: int
    color: str | None


PILOT = Part("pilot", 0, "start_cabin", (3, 3, 3, 3), (), (), (), 0, 0, 0, None)


def parts(edition: str = "2007") -> dict[str, list[Part]]:
    """Every catalogue tile (no pilot cabins) in each of its distinct rotations."""
    out: dict[str, list[Part]] = {}
    for tid, a in catalogue(edition).items():
        if a.kind == "start_cabin":
            continue
        seen = set()
        out[tid] = []
        for rot in range(4):
            t = Tile(at=0, kind=a.kind, sides=a.sides, rot=rot, attrs=a.attrs, id=tid)
            key = (t.eff, t.barrels, t.exhausts, t.covers)
            if key in seen:
                continue
            seen.add(key)
            attrs = dict(a.attrs)
            slots = int(attrs.get("slots", 0))
            out[tid].append(Part(tid, rot, a.kind, t.eff, t.barrels, t.exhausts, t.covers,
                                 slots if a.kind == "cargo" else 0, slots if a.kind == "special_cargo" else 0,
                                 int(attrs.get("cells", 0)), attrs.get("color")))
    return out


def _p2d6(v: int) -> float:
    return (6 - abs(v - 7)) / 36 if 2 <= v <= 12 else 0.0


class Hull:
    """A class's board, the lines each dice roll picks, and the round's attacks with their weights."""

    def __init__(self, cls: str) -> None:
        self.cls = cls
        self.board: Board = builtin_board(cls)
        b = self.board
        self.level = b.level
        self.nb = b.nb
        self.squares = [i for i in range(b.size) if b.buildable(i)]
        assert b.start is not None
        self.start: int = b.start
        self.width = b.width
        # per attack side: [(probability, grid lines)] over the 2d6 sums
        self.rolls: dict[int, list[tuple[float, tuple[int, ...]]]] = {}
        for side in range(4):
            self.rolls[side] = [(_p2d6(v), b.lines_for(Side(side), v)) for v in range(2, 13)]
        weights: dict[tuple[str, int], float] = {}
        for card, w in round_cards(CLASSES[cls]).cards:
            for a in card.attacks():
                key = (a.size, int(DIRECTION_SIDE[a.side]))
                weights[key] = weights.get(key, 0.0) + float(w)
        self.attacks = sorted(weights.items())
        self.targets = TARGETS[min(self.level, 3)]
        # the crew a careful player keeps for the class's worst pair of crew cards: the dearest
        # abandoned ship (the default policy takes one while a human stays aboard) then slavers
        cards = [c for c in load_cards("2007") if c.level == min(self.level, 3)]
        self.abandoned = max(c.crew_cost or 0 for c in cards if c.type == "abandoned_ship")
        self.slavers = max((c.strength or 0, c.crew_penalty or 0) for c in cards if c.type == "slavers")
        # the class I field also flies the learning flight, where life supports are structural
        self.aliens = self.level > 1

    def line(self, side: int, k: int) -> list[int]:
        """Squares of line ``k`` (a column for front/rear, a row for the sides) from ``side`` inwards."""
        w, h = self.board.width, self.board.height
        if side == 0:
            return [r * w + k for r in range(h)]
        if side == 2:
            return [r * w + k for r in reversed(range(h))]
        if side == 3:
            return [k * w + c for c in range(w)]
        return [k * w + c for c in reversed(range(w))]


@dataclass
class Figures:
    """What the score reads of a legal ship."""

    exposed: int
    idle: int  # life supports joined to no cabin (the checker's W1 warning)
    humans: int
    aliens: dict[str, int]  # colour -> the cabin it boards
    engine: float  # in Open Space under the default policy
    engine_max: float
    firepower: float  # free
    firepower_max: float
    cargo: int
    special: int
    cells: int
    shields: frozenset[int]
    loss: float
    score: float


def _pieces(tiles: dict[int, Part], adj: dict[int, list[int]], gone: int) -> list[set[int]]:
    seen = {gone}
    out = []
    for s in tiles:
        if s in seen:
            continue
        comp = {s}
        seen.add(s)
        stack = [s]
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    comp.add(y)
                    stack.append(y)
        out.append(comp)
    return out


def _humans_of(piece: set[int], tiles: dict[int, Part]) -> int:
    return sum(2 for s in piece if tiles[s].kind in ("cabin", "start_cabin"))


def evaluate(hull: Hull, layout: dict[int, Part], style: str) -> Figures | None:
    """The ship's figures and score, or None when it breaks a construction rule."""
    nb = hull.nb
    tiles = dict(layout)
    tiles[hull.start] = PILOT
    adj: dict[int, list[int]] = {i: [] for i in tiles}
    exposed = 0
    for i, p in tiles.items():
        for s in range(4):
            j = nb[i][s]
            q = tiles.get(j) if j >= 0 else None
            if s in p.exhausts and (s != 2 or q is not None):
                return None
            if s in p.barrels and q is not None:
                return None
            c = p.eff[s]
            if q is None:
                exposed += c != 0
                continue
            d = q.eff[(s + 2) % 4]
            if (c == 0) != (d == 0) or c + d == 3:
                return None
            if c:
                adj[i].append(j)
    if len(_pieces(tiles, adj, -1)) != 1:
        return None
    # aliens: a cabin joined to a life support of the colour
    idle = sum(1 for i, p in tiles.items()
               if p.kind == "life_support" and not any(tiles[j].kind == "cabin" for j in adj[i]))
    hosts: dict[str, list[int]] = {}
    for i, p in tiles.items() if hull.aliens else ():
        if p.kind == "life_support" and p.color in ALIENS:
            for j in adj[i]:
                if tiles[j].kind == "cabin":
                    hosts.setdefault(p.color, []).append(j)
    counts = Counter(p.kind for p in tiles.values())
    cells = sum(p.cells for p in tiles.values())
    n1 = counts["engine"]
    n2 = counts["double_engine"]
    f1 = sum(1 if p.barrels == (0,) else 0.5 for p in tiles.values() if p.kind == "cannon")
    f2 = sum(2 if p.barrels == (0,) else 1 for p in tiles.values() if p.kind == "double_cannon")
    shields = frozenset(s for p in tiles.values() if p.kind == "shield" for s in p.covers) if cells else frozenset()
    loss = _loss(hull, tiles, adj, shields, cells > 0)
    best: Figures | None = None
    options: list[dict[str, int]] = [{}]
    for colour, cabins in sorted(hosts.items()):
        options += [dict(o, **{colour: c}) for o in list(options) for c in sorted(set(cabins))
                    if c not in o.values()]
    for aliens in options:
        humans = 2 * counts["cabin"] + 2 - 2 * len(aliens)
        engine = n1 + (2 if "orange" in aliens and n1 else 0)
        engine_max = n1 + 2 * n2 * (cells > 0) + (2 if "orange" in aliens else 0)
        firepower = f1 + (2 if "purple" in aliens and f1 else 0)
        firepower_max = f1 + f2 * (cells > 0) + (2 if "purple" in aliens and (f1 or f2) else 0)
        fig = Figures(exposed, idle, humans, aliens, engine, engine_max, firepower, firepower_max,
                      sum(p.slots for p in tiles.values()), sum(p.special for p in tiles.values()), cells,
                      shields, loss, 0.0)
        fig.score = score(hull, fig, style)
        if best is None or fig.score > best.score:
            best = fig
    return best


def _loss(hull: Hull, tiles: dict[int, Part], adj: dict[int, list[int]], shields: frozenset[int],
          charged: bool) -> float:
    """Components expected lost to the round's attacks, one attack at a time, charges at hand."""
    falls: dict[int, float] = {}

    humans = _humans_of(set(tiles), tiles)

    def fall(t: int) -> float:
        if t not in falls:
            pieces = _pieces(tiles, adj, t)
            keep = max(pieces, key=lambda c: (_humans_of(c, tiles), len(c))) if pieces else set()
            falls[t] = len(tiles) - len(keep) + HUMAN_LOSS / LOSS * (humans - _humans_of(keep, tiles))
        return falls[t]

    w = hull.width
    total = 0.0
    for (size, side), weight in hull.attacks:
        exp = 0.0
        for p, lines in hull.rolls[side]:
            for k in lines:
                line = hull.line(side, k)
                first = next((s for s in line if s in tiles), None)
                if first is None:
                    continue
                if size == "small" and (tiles[first].eff[side] == 0 or side in shields):
                    continue
                if size == "light" and side in shields:
                    continue
                if size == "large":
                    near = (k,) if side == 0 else (k - 1, k, k + 1)
                    cannon = any(q.kind in ("cannon", "double_cannon") and side in q.barrels
                                 and (q.kind == "cannon" or charged)
                                 and (s % w if side in (0, 2) else s // w) in near for s, q in tiles.items())
                    if cannon:
                        continue
                exp += p * fall(first)
        total += weight * exp
    return total


def _capped(x: float, target: float, v: tuple[float, float]) -> float:
    return v[0] * min(x, target) + v[1] * max(0.0, x - target)


def score(hull: Hull, f: Figures, style: str) -> float:
    t = hull.targets
    v = VALUES[style]
    fp_target = FIGHTER_FIREPOWER[min(hull.level, 3)] if style == "fighter" else t["firepower"]
    s = _capped(f.humans, FIGHTER_HUMANS[min(hull.level, 3)] if style == "fighter" else t["humans"], v["humans"])
    engine_target = RACER_ENGINE[min(hull.level, 3)] if style == "racer" else t["engine"]
    s += _capped(f.engine, engine_target, v["engine"])
    s += _capped(f.firepower, fp_target, v["firepower"])
    s += _capped(f.firepower_max - f.firepower, fp_target, v["charged"])
    s += _capped(f.cargo, t["cargo"], v["cargo"])
    s += _capped(f.special, t["cargo"] / 3, v["special"])
    s += _capped(f.cells, t["cells"], v["cells"])
    s += _capped(len(f.shields), 4, v["shield"])  # sides covered
    if "engine_charged" in v:
        s += _capped(f.engine_max - f.engine, engine_target, v["engine_charged"])
    least = dict(MINIMUM[min(hull.level, 3)])
    strength, penalty = hull.slavers
    least["humans"] = max(least["humans"], hull.abandoned + (penalty if f.firepower_max < strength else 0) + 1)
    short = sum(max(0.0, m - getattr(f, k)) for k, m in least.items())
    return s - SHORT * short - EXPOSED * f.exposed - IDLE * f.idle - LOSS * f.loss


# -- the search -------------------------------------------------------------------------------------
def _legal(f: Figures | None) -> Figures:
    assert f is not None, "a kept ship is legal"
    return f


class Field:
    """Three ships of one class and the pile they share."""

    def __init__(self, hull: Hull, rng: np.random.Generator) -> None:
        self.hull = hull
        self.rng = rng
        self.parts = parts()
        self.pile = sorted(self.parts)
        self.ships: list[dict[int, Part]] = [{} for _ in STYLES]
        self.figs = [_legal(evaluate(hull, {}, s)) for s in STYLES]

    def total(self) -> float:
        return sum(f.score for f in self.figs)

    def _pick(self, seq: list[T]) -> T:
        return seq[int(self.rng.integers(len(seq)))]

    def _fits(self, layout: dict[int, Part], sq: int, tids: list[str]) -> list[Part]:
        """The turns of ``tids`` that fit on ``sq`` against the tiles around it (the whole ship is
        checked after): matching joints, barrels and exhausts free, nothing pointing at the square."""
        nb = self.hull.nb[sq]
        around: list[Part | None] = []
        for s in range(4):
            j = nb[s]
            q = (PILOT if j == self.hull.start else layout.get(j)) if j >= 0 else None
            if q is not None and ((s + 2) % 4 in q.barrels or (s + 2) % 4 in q.exhausts):
                return []
            around.append(q)
        out = []
        for tid in tids:
            for p in self.parts[tid]:
                ok = True
                for s in range(4):
                    q = around[s]
                    if q is None:
                        continue
                    c, d = p.eff[s], q.eff[(s + 2) % 4]
                    if (c == 0) != (d == 0) or c + d == 3 or s in p.barrels or s in p.exhausts:
                        ok = False
                        break
                if ok and all(s == 2 for s in p.exhausts):
                    out.append(p)
        return out

    def _frontier(self, k: int) -> list[int]:
        ship = self.ships[k]
        occupied = set(ship) | {self.hull.start}
        return [i for i in self.hull.squares if i not in occupied
                and any(j in occupied for j in self.hull.nb[i] if j >= 0)]

    def propose(self) -> tuple[list[tuple[int, dict[int, Part]]], list[str], list[str]] | None:
        """A move: the new layouts of the ships it changes, tiles taken from and given to the pile."""
        k = int(self.rng.integers(3))
        ship = self.ships[k]
        r = self.rng.random()
        if r < 0.3 or not ship:  # weld a tile from the pile
            frontier = self._frontier(k)
            if not frontier or not self.pile:
                return None
            sq = self._pick(frontier)
            fits = self._fits(ship, sq, self.pile)
            if not fits:
                return None
            p = self._pick(fits)
            return [(k, {**ship, sq: p})], [p.tid], []
        sq = self._pick(sorted(ship))
        old = ship[sq]
        rest = {i: q for i, q in ship.items() if i != sq}
        if r < 0.42:  # put one back
            return [(k, rest)], [], [old.tid]
        if r < 0.7:  # exchange one with the pile
            fits = self._fits(rest, sq, self.pile)
            if not fits:
                return None
            p = self._pick(fits)
            return [(k, {**rest, sq: p})], [p.tid], [old.tid]
        if r < 0.78:  # turn it
            fits = [q for q in self._fits(rest, sq, [old.tid]) if q != old]
            if not fits:
                return None
            return [(k, {**rest, sq: self._pick(fits)})], [], []
        if r < 0.9:  # move it to another square of the ship
            frontier = [i for i in self._frontier(k) if i != sq]
            if not frontier:
                return None
            to = self._pick(frontier)
            fits = self._fits(rest, to, [old.tid])
            if not fits:
                return None
            return [(k, {**rest, to: self._pick(fits)})], [], []
        j = (k + 1 + int(self.rng.integers(2))) % 3  # trade with another ship
        theirs = self.ships[j]
        if not theirs:
            return None
        sq2 = self._pick(sorted(theirs))
        rest2 = {i: q for i, q in theirs.items() if i != sq2}
        mine = self._fits(rest, sq, [theirs[sq2].tid])
        other = self._fits(rest2, sq2, [old.tid])
        if not mine or not other:
            return None
        return [(k, {**rest, sq: self._pick(mine)}), (j, {**rest2, sq2: self._pick(other)})], [], []

    def anneal(self, steps: int, t0: float = 3.0, t1: float = 0.03) -> None:
        best = (self.total(), [dict(s) for s in self.ships])
        for step in range(steps):
            temp = t0 * (t1 / t0) ** (step / steps)
            move = self.propose()
            if move is None:
                continue
            changes, taken, given = move
            figs = []
            for k, layout in changes:
                f = evaluate(self.hull, layout, STYLES[k])
                if f is None:
                    break
                figs.append(f)
            else:
                delta = sum(f.score - self.figs[k].score for f, (k, _) in zip(figs, changes))
                if delta >= 0 or self.rng.random() < math.exp(delta / temp):
                    for f, (k, layout) in zip(figs, changes):
                        self.ships[k] = layout
                        self.figs[k] = f
                    for tid in taken:
                        self.pile.remove(tid)
                    self.pile.extend(given)
                    self.pile.sort()
                    if self.total() > best[0]:
                        best = (self.total(), [dict(s) for s in self.ships])
        self.ships = best[1]
        self.figs = [_legal(evaluate(self.hull, s, st)) for s, st in zip(self.ships, STYLES)]


# -- files --------------------------------------------------------------------------------------------
def ship_text(hull: Hull, style: str, layout: dict[int, Part], fig: Figures, seed: int) -> str:
    b = hull.board
    name = f"{NAMES[style]} {hull.cls}"
    aliens = {sq: colour for colour, sq in fig.aliens.items()}
    lines = [
        f"# {name}: the {style} of the default class {hull.cls} field of `shipcheck simulate --round`.",
        f"# Built by tools/build_field.py (seed {seed}) with the other two ships of the field from one",
        "# pile of 2007 catalogue tiles (no tile in two ships); the pilot cabin stands on the start square.",
        "format = 1",
        f'class = "{hull.cls}"',
        f'name = "{name}"',
        "",
    ]
    for sq in sorted(layout, key=lambda i: (i // b.width, i % b.width)):
        p = layout[sq]
        col, row = b.cell_name(sq)
        lines += ["[[tile]]", f"at = [{col}, {row}]", f'id = "{p.tid}"']
        if p.rot:
            lines.append(f"rot = {p.rot * 90}")
        if sq in aliens:
            lines.append(f'crew = "{aliens[sq]}"')
        lines.append("")
    return "\n".join(lines)


def build(cls: str, *, seed: int | None = None, steps: int = STEPS, restarts: int = RESTARTS
          ) -> list[tuple[str, str, Figures]]:
    """The class's field as (style, ship file text, figures): the best of ``restarts`` annealings,
    each from its own stream of ``SeedSequence(seed)``."""
    seed = SEEDS[cls] if seed is None else seed
    hull = Hull(cls)
    best: Field | None = None
    for child in np.random.SeedSequence(seed).spawn(restarts):
        field = Field(hull, np.random.default_rng(child))
        field.anneal(steps)
        print(f"{cls}: restart score {field.total():.1f}", file=sys.stderr)
        if best is None or field.total() > best.total():
            best = field
    assert best is not None
    out = []
    for style, layout, fig in zip(STYLES, best.ships, best.figs):
        text = ship_text(hull, style, layout, fig, seed)
        report = check(parse_ship(text))
        assert not report.violations and report.exposed_connectors == fig.exposed, (cls, style, report)
        out.append((style, text, fig))
    return out


# -- the figures of docs/rounds.md ---------------------------------------------------------------
EXAMPLES = {"I": "class-I-scout.toml", "II": "class-II-freighter.toml", "III": "class-III-hauler.toml",
            "IIIa": "class-IIIa-longboat.toml"}


def table(cls: str, *, runs: int = 2000, seed: int = 1) -> str:
    """The markdown table of the class's field as shipped, beside the class's example ship: what
    `shipcheck stats` says of each, and how each does in the class's round (``runs`` rounds, one
    seed) as an opponent of the example ship (seats 2-4) and in seat 1 against the rest."""
    from shipcheck import load_ship, simulate_round
    from shipcheck.flight.stats import stats
    from shipcheck.round.field import field_ships

    rnd = CLASSES[cls]
    field = list(field_ships(cls))
    example = load_ship(ROOT / "examples" / EXAMPLES[cls])
    as_opponents = simulate_round(example, round=rnd, runs=runs, seed=seed)
    rows = ["| ship | tiles | exposed | crew | engine power | firepower | battery cells | cargo slots | shields "
            "| finish (seat 2-4) | lost | credits | finish (seat 1) | credits (seat 1) |",
            "|---|--:|--:|---|---|---|--:|---|---|--:|--:|--:|--:|--:|"]
    for i, ship in enumerate([*field, example]):
        st = stats(ship).to_dict()
        crew = st["crew"]
        aliens = [c for c, n in crew["aliens"].items() if n]
        e, f = st["engine_power"], st["firepower"]
        covered = [w for w, v in st["shields"].items() if v["shields"]]
        shields = "all sides" if len(covered) == 4 else ", ".join(covered) or "none"
        cargo = str(st["cargo"]["normal"]) + (f" + {st['cargo']['special']} red" if st["cargo"]["special"] else "")
        if i < len(field):
            opp = as_opponents.players[1 + i]
            others = [s for s in field if s is not ship] + [example]
            seat1 = simulate_round(ship, round=rnd, opponents=others, runs=runs, seed=seed).players[0]
            name = ship.name
        else:
            opp = seat1 = as_opponents.players[0]
            name = f"*{ship.name}* (example, seat 1)"
        rows.append(
            f"| {name} | {len(ship.tiles)} | {st['exposed_connectors']} "
            f"| {crew['humans']}{' + ' + ', '.join(aliens) if aliens else ''} "
            f"| {e['min']:g}-{e['max']:g} | {f['min']:g}-{f['max']:g} | {st['batteries']['capacity']} "
            f"| {cargo} | {shields} "
            f"| {100 * opp.p_finish:.0f} % | {opp.expected_lost:.1f} | {opp.credits_mean:.1f} "
            f"| {100 * seat1.p_finish:.0f} % | {seat1.credits_mean:.1f} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--class", dest="cls", action="append", choices=sorted(CLASSES), help="default: every class")
    ap.add_argument("--steps", type=int, default=STEPS, help=f"annealing steps of a restart (default {STEPS})")
    ap.add_argument("--restarts", type=int, default=RESTARTS, help=f"annealings per class (default {RESTARTS})")
    ap.add_argument("--seed", type=int, default=None, help="default: the class's fixed seed")
    ap.add_argument("--dry-run", action="store_true", help="print the figures, write nothing")
    ap.add_argument("--table", action="store_true",
                    help="build nothing: print the shipped field's figures and round results (docs/rounds.md)")
    args = ap.parse_args()
    for cls in args.cls or list(CLASSES):
        if args.table:
            print(f"Class {cls}, round {CLASSES[cls]}:\n\n{table(cls)}\n")
            continue
        folder = ROOT / "tiles" / "field" / cls
        for i, (style, text, f) in enumerate(build(cls, seed=args.seed, steps=args.steps, restarts=args.restarts)):
            print(f"{cls:4s} {style:7s} score {f.score:6.1f}  exposed {f.exposed}  humans {f.humans}  "
                  f"aliens {','.join(f.aliens) or '-'}  engine {f.engine:g}/{f.engine_max:g}  "
                  f"firepower {f.firepower:g}/{f.firepower_max:g}  cargo {f.cargo}+{f.special}  cells {f.cells}  "
                  f"shields {''.join('NESW'[s] for s in sorted(f.shields)) or '-'}  risk {f.loss:.2f}")
            if not args.dry_run:
                folder.mkdir(parents=True, exist_ok=True)
                (folder / f"{i + 1}-{style}.toml").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
