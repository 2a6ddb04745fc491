"""What to change: legal what-if variants of a ship, ranked by their measured effect on credits.

:func:`variants` lists every legal single change: rotate a tile (turning a shield is one), remove a
tile, move one to an empty square (a move that covers exposed connectors says so), place a
set-aside component, or fly another policy. :func:`recommend` measures each against the ship as
built with **common random numbers**: a variant flies the very decks and dice the ship flew, so the
per-run differences of credits are paired and their mean has a small standard error. The search
screens every variant on a few runs of a stream of its own, then measures the most promising ones
again on the runs of ``seed``, so the effects reported are not inflated by the pick (docs/reports.md).

Changes to the ship (rotations, moves, removals, additions, swaps) are advice for the next build: a
welded ship cannot be changed. Policies are advice for the flight (:attr:`Variant.group`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from shipcheck.advice.pile import PileType, pile_types
from shipcheck.check.rules import check
from shipcheck.model import AsideTile, Ship, Tile, compatible
from shipcheck.round.result import paired

SIDE_WORDS = ("front", "right", "rear", "left")
#: what each kind of change is for: the next build (a welded ship cannot be changed) or the flight
GROUPS = {"rotate": "build", "shield": "build", "remove": "build", "move": "build", "cover": "build",
          "aside": "build", "add": "build", "swap": "build", "policy": "flight"}


@dataclass(frozen=True)
class Variant:
    """One what-if change: what it is in words, the ship it gives, and the policy it flies.

    ``tile`` names the catalogue tile an addition or a swap welds (``"2007:99"``), with the turn
    ``text`` gives; ``pile`` is its type in the pile (:class:`~shipcheck.advice.pile.PileType`).
    """

    kind: str  # rotate, shield, remove, move, cover, aside, add, swap, policy
    text: str
    ship: Ship = field(repr=False)
    policy: str = "default"
    squares: tuple[int, ...] = ()  # the squares the change touches (grid indices)
    tile: str | None = None
    pile: PileType | None = field(default=None, repr=False)
    score: float = 0.0  # the advisor's score (additions and swaps): what picks the squares to fly

    @property
    def group(self) -> str:
        """``"build"`` (a change for the next build: a welded ship cannot be changed) or ``"flight"``."""
        return GROUPS.get(self.kind, "build")


def _turn(t: Tile, k: int) -> Tile:
    return replace(t, rot=(t.rot + k) % 4)


def _looks(t: Tile) -> tuple[Any, ...]:
    """What a rotation can change: connectors, barrels, exhausts, shield cover."""
    return (t.eff, t.barrels, t.exhausts, t.covers)


def flight_signature(ship: Ship) -> tuple[Any, ...]:
    """What a flight can tell apart: per tile its kind, contents, barrels, exhausts and shield
    cover, the tiles it is joined to, and which of its open sides are connectors (a small meteor
    bounces off a smooth side and hits any connector; stardust and the best-looking ship count
    connectors of any type). Two ships with one signature fly every round alike, so a change that
    keeps it needs no measuring. On a wrap-around board every side counts (the first tile of a
    line may have a neighbour across the edge)."""
    from shipcheck.check.rules import Layout

    tiles = ship.by_index
    nb = ship.board.nb
    wrap = ship.board.wrap
    adj = Layout.of(ship, tiles).adj
    out = []
    for t in ship.tiles:
        sides = tuple(t.eff[s] != 0 if wrap or nb[t.at][s] < 0 or nb[t.at][s] not in tiles else None
                      for s in range(4))
        out.append((t.at, t.kind, t.attrs, t.crew, t.charge, t.goods, t.barrels, t.exhausts, t.covers, sides,
                    tuple(sorted(adj[t.at]))))
    return (tuple(out), ship.aside, ship.front, ship.dice)


def _with(ship: Ship, drop: set[int], add: Tile | None = None) -> Ship:
    tiles = [t for t in ship.tiles if t.at not in drop]
    if add is not None:
        tiles.append(add)
    return replace(ship, tiles=tuple(tiles))


def _relative(ship: Ship, sides: Sequence[int]) -> str:
    f = int(ship.front_side)
    return " and ".join(SIDE_WORDS[(s - f) % 4] for s in sorted(sides, key=lambda s: (s - f) % 4))


def _neighbours(ship: Ship, at: int) -> Iterator[int]:
    for j in ship.board.nb[at]:
        if j >= 0:
            yield j


def variants(ship: Ship, *, policies: Sequence[str] = (), moves: bool = True) -> list[Variant]:
    """Every legal single change of ``ship`` (see the module's docstring), in a stable order.

    Only variants that pass :func:`~shipcheck.check.rules.check` are kept, and only one of those that
    fly alike (:func:`flight_signature`): a turn that changes nothing a flight can tell (a
    symmetric tile, a tile whose turned connectors all stay joined) is skipped. ``policies`` adds
    one variant per other policy name.
    """
    name = ship.board.cell_text
    out: list[Variant] = []
    seen: set[tuple[Any, ...]] = set()
    base_exposed = check(ship).exposed_connectors

    def keep(v: Variant) -> None:
        key = (flight_signature(v.ship), v.policy)
        if key in seen:
            return
        rep = check(v.ship)
        if rep.legal:
            seen.add(key)
            if v.kind in ("move", "aside") and rep.exposed_connectors < base_exposed:
                covered = base_exposed - rep.exposed_connectors
                v = replace(v, kind="cover", text=f"{v.text}, covering {covered} exposed connector"
                            + ("s" if covered != 1 else ""))
            out.append(v)

    seen.add((flight_signature(ship), "default"))
    tiles = {t.at: t for t in ship.tiles}
    for t in ship.tiles:
        for k in (1, 2, 3):
            nt = _turn(t, k)
            if _looks(nt) == _looks(t):
                continue
            if t.kind == "shield":
                text = f"turn the shield at {name(t.at)} to cover the {_relative(ship, nt.covers)}"
                kind = "shield"
            else:
                text = f"rotate the {t.kind.replace('_', ' ')} at {name(t.at)} {90 * k}° clockwise"
                kind = "rotate"
            keep(Variant(kind, text, _with(ship, {t.at}, nt), squares=(t.at,)))
    for t in ship.tiles:
        if t.kind == "start_cabin":
            continue
        keep(Variant("remove", f"remove the {t.kind.replace('_', ' ')} at {name(t.at)}", _with(ship, {t.at}),
                     squares=(t.at,)))
    b = ship.board
    empty = [i for i in range(b.size) if i not in tiles and b.buildable(i, ship.dice)
             and any(j in tiles for j in _neighbours(ship, i))]
    if moves:
        for t in ship.tiles:
            if t.kind == "start_cabin":
                continue
            for q in empty:
                if not any(j in tiles and j != t.at for j in _neighbours(ship, q)):
                    continue
                for k in range(4):
                    nt = replace(_turn(t, k), at=q)
                    turn = f", turned {90 * k}°" if k else ""
                    keep(Variant("move", f"move the {t.kind.replace('_', ' ')} from {name(t.at)} to {name(q)}{turn}",
                                 _with(ship, {t.at}, nt), squares=(t.at, q)))
    for n, a in enumerate(ship.aside):
        for q in empty:
            for k in range(4):
                nt = Tile(at=q, kind=a.kind, sides=a.sides, rot=k, attrs=a.attrs, id=a.id)
                placed = replace(_with(ship, set(), nt), aside=ship.aside[:n] + ship.aside[n + 1:])
                turn = f", turned {90 * k}°" if k else ""
                keep(Variant("aside", f"place the set-aside {a.kind.replace('_', ' ')} at {name(q)}{turn}", placed,
                             squares=(q,)))
    for p in policies:
        if p != "default":
            out.append(Variant("policy", f"fly the {p} policy", ship, policy=p))
    return out


# -- tiles from the pile: additions and swaps --------------------------------------------------------
def _a(words: str) -> str:
    return ("an " if words[0] in "aeiou" else "a ") + words


def _what(ship: Ship, t: Tile) -> str:
    """What matters about a welded tile's turn: where its barrels point, what a shield covers."""
    if t.covers:
        return f", covering the {_relative(ship, t.covers)}"
    if t.barrels:
        return f", barrel{'s' if len(t.barrels) > 1 else ''} to the {_relative(ship, t.barrels)}"
    return ""


def _as(t: Tile) -> str:
    """Which catalogue tile, and how it is turned: ``" (as 2007:99 turned 90°)"``."""
    if not t.id:
        return ""
    return f" (as {t.id}" + (f" turned {90 * t.rot}°" if t.rot else "") + ")"


def _score_weights() -> dict[str, float]:
    from shipcheck.advice import WEIGHTS

    return WEIGHTS


def _used(ship: Ship) -> set[str]:
    """The catalogue ids the ship holds, welded or set aside: a change brings in another copy (T1)."""
    return {t.id for t in ship.tiles if t.id} | {a.id for a in ship.aside if a.id}


def _every_turn(ship: Ship, at: int, found: list[tuple[float, Ship]]) -> list[tuple[float, Ship]]:
    """Of the legal ships ``found`` with a new tile on ``at`` (every pattern, every turn, each with its
    score), one per way a round can tell them apart (:func:`flight_signature`: where a shield covers,
    where barrels point, which sides are open), best score first: each is flown, none is ruled out by
    the score alone."""
    seen: set[Any] = set()
    out = []
    for score, placed in sorted(found, key=lambda x: -x[0]):  # stable: catalogue order on equal scores
        sig = flight_signature(placed)
        if sig not in seen:
            seen.add(sig)
            out.append((score, placed))
    return out


def additions(ship: Ship, types: Sequence[PileType], *,
              per_type: int = 4) -> list[tuple[PileType, list[Variant], str]]:
    """For each pile type, its ``per_type`` best free squares (by the placement advisor's score,
    :func:`shipcheck.advice.advise` without flying, over every connector pattern of the type in the
    catalogue), and on each of them every turn of every pattern that a round can tell apart
    (:func:`_every_turn`): which way a shield faces or a barrel points is for the round to decide,
    not the score. Each addition names a copy the ship does not hold yet. When no square fits, why."""
    from shipcheck.advice import advise
    from shipcheck.advice.legal import candidate_squares

    name = ship.board.cell_text
    out: list[tuple[PileType, list[Variant], str]] = []
    free = candidate_squares(ship)
    used = _used(ship)
    for pt in types:
        if not free:
            out.append((pt, [], "every buildable square next to the ship is built"))
            continue
        found: dict[int, list[tuple[float, Ship]]] = {}
        for k in range(len(pt.patterns)):
            copy = pt.fresh(k, used)
            if copy is None:
                continue
            for p in advise(ship, copy, credits=False, exact=False).placements:
                found.setdefault(int(p.index), []).append((p.score, p.ship))
        chosen = sorted(found, key=lambda sq: (-max(sc for sc, _ in found[sq]), sq))[:per_type]
        vs = []
        for sq in chosen:
            for score, placed in _every_turn(ship, sq, found[sq]):
                t = placed.tile_at(sq)
                assert t is not None
                vs.append(Variant("add", f"add {_a(pt.name)} at {name(sq)}{_what(ship, t)}{_as(t)}", placed,
                                  squares=(sq,), tile=t.id, pile=pt, score=score))
        why = "" if vs else (f"none of the {pt.count} in the pile fits a free square beside the ship: its connectors "
                             "do not match the open ones there, or a barrel or an exhaust would be blocked")
        out.append((pt, vs, why))
    return out


def _fits(ship: Ship, at: int, t: Tile) -> bool:
    """A quick test a swap must pass before the checker: every side facing a tile joins it or is
    smooth against smooth, and no barrel or exhaust points at a tile (ordinary boards only)."""
    b = ship.board
    if b.seams or b.wrap:
        return True
    tiles = ship.by_index
    for s in range(4):
        j = b.nb[at][s]
        other = tiles.get(j) if j >= 0 else None
        if other is None:
            continue
        if s in t.barrels or s in t.exhausts:
            return False
        mine, theirs = t.eff[s], other.eff[(s + 2) % 4]
        if (mine == 0) != (theirs == 0) or (mine and not compatible(mine, theirs)):
            return False
    return True


def swaps(ship: Ship, types: Sequence[PileType], *, per_type: int = 3) -> list[Variant]:
    """For each pile type, its ``per_type`` best swaps: a tile of another type (never the pilot cabin)
    replaced by one of this type, squares ranked by the best advisor's score there (what the tile
    brings minus what the replaced one brought, exposed and blocked squares); on each of those
    squares every pattern and turn a round can tell apart (:func:`_every_turn`), best score first.
    Each swap names a copy the ship does not hold yet."""
    from shipcheck.advice.measure import tile_params

    w = _score_weights()
    name = ship.board.cell_text
    base = check(ship)
    b = ship.board
    used = _used(ship)
    out = []
    for pt in types:
        found: dict[int, list[tuple[float, Ship]]] = {}
        for old in ship.tiles:
            if old.kind == "start_cabin" or (old.kind, old.attrs) == (pt.kind, pt.attrs):
                continue
            lost = tile_params(ship, old)
            for k in range(len(pt.patterns)):
                pattern = pt.fresh(k, used - {old.id} if old.id else used)
                if pattern is None:
                    continue
                for rot in _rotations(pattern):
                    nt = Tile(at=old.at, kind=pt.kind, sides=pattern.sides, rot=rot, attrs=pattern.attrs,
                              id=pattern.id)
                    if not _fits(ship, old.at, nt):
                        continue
                    new = _with(ship, {old.at}, nt)
                    rep = check(new)
                    if not rep.legal:
                        continue
                    gained = tile_params(new, nt)
                    blocked = sum(1 for side in nt.barrels + nt.exhausts
                                  if (j := b.nb[old.at][side]) >= 0 and j not in ship.by_index
                                  and b.buildable(j, ship.dice))
                    score = (-w["exposed"] * (rep.exposed_connectors - base.exposed_connectors) - w["blocked"] * blocked
                             + sum(w[k] * float(gained[k] - lost[k]) for k in ("engine", "firepower", "crew", "cargo",
                                                                                "battery")))
                    found.setdefault(old.at, []).append((score, new))
        chosen = sorted(found, key=lambda sq: (-max(sc for sc, _ in found[sq]), sq))[:per_type]
        for sq in chosen:
            old_t = ship.tile_at(sq)
            assert old_t is not None
            for score, new in _every_turn(ship, sq, found[sq]):
                put = new.tile_at(sq)
                assert put is not None
                out.append(Variant("swap", f"swap the {old_t.kind.replace('_', ' ')} at {name(sq)} for {_a(pt.name)}"
                                           f"{_what(ship, put)}{_as(put)}", new, squares=(sq,), tile=put.id, pile=pt,
                                   score=score))
    return out


#: what each alien colour gives the ship (rules §7): the parameter its bonus adds to
ALIEN_GIVES = {"purple": "firepower", "orange": "engine power"}


def costs(ship: Ship, new: Ship, before: Any = None) -> str:
    """What a change takes away from the ship, in words, or "" when nothing falls: the sides no
    shield covers any more, the aliens it loses with the bonus they gave, and any fall in firepower,
    engine power (every double charged), humans, cargo slots or battery cells, each as a share of
    the ship's ("2 of the ship's 6 firepower"). ``before``: the ship's
    :func:`~shipcheck.flight.stats.stats`, when the caller has it."""
    from shipcheck.flight.stats import stats

    a = before if before is not None else stats(ship)
    b = stats(new)

    def num(x: Any) -> str:
        return f"{float(x):g}"

    have: dict[str, Fraction | int] = {
        "firepower": a.cannon.best_possible, "engine power": a.engine.best_possible, "humans": a.crew.humans,
        "cargo slots": a.cargo.normal + a.cargo.special, "battery cells": a.battery_capacity}
    now: dict[str, Fraction | int] = {
        "firepower": b.cannon.best_possible, "engine power": b.engine.best_possible, "humans": b.crew.humans,
        "cargo slots": b.cargo.normal + b.cargo.special, "battery cells": b.battery_capacity}
    parts = []
    fewer: dict[tuple[int, int], list[str]] = {}  # (shields before, after) -> the sides
    for d in ("front", "right", "rear", "left"):
        n, m = len(a.shield(d).shields), len(b.shield(d).shields)
        if m < n:
            fewer.setdefault((n, m), []).append(d)
    for (n, m), sides in fewer.items():
        over = f"over the {' and '.join(sides)}"
        parts.append(f"the shield {over}" if n == 1 and m == 0 else
                     f"{n - m} of the {n} shields {over}" + (" (none left there)" if m == 0 else ""))
    told = set()
    for colour in sorted({c for c, _ in a.crew.aliens} - {c for c, _ in b.crew.aliens}):
        what = ALIEN_GIVES.get(colour)
        if what is not None and now[what] < have[what]:
            parts.append(f"the {colour} alien and with it {num(have[what] - now[what])} of the ship's "
                         f"{num(have[what])} {what}")
            told.add(what)
        else:
            parts.append(f"the {colour} alien")
    for what in have:
        if what not in told and now[what] < have[what]:
            whose = "its" if parts else "the ship's"
            parts.append(f"all {whose} {what} ({num(have[what])})" if now[what] <= 0 else
                         f"{num(have[what] - now[what])} of {whose} {num(have[what])} {what}")
    if not parts:
        return ""
    return "it costs " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])


def _priced(ship: Ship, effects: Sequence[Effect]) -> dict[int, Effect]:
    """Each effect of a change that takes something from the ship (not an addition, not a policy),
    its sentence saying what (:func:`costs`); by ``id`` of the original variant."""
    from shipcheck.flight.stats import stats

    before = None
    out: dict[int, Effect] = {}
    for e in effects:
        v = e.variant
        if id(v) in out or v.group != "build" or v.kind == "add":
            continue
        if before is None:
            before = stats(ship)
        cost = costs(ship, v.ship, before)
        if cost:
            out[id(v)] = replace(e, variant=replace(v, text=f"{v.text}; {cost}"))
    return out


def _rotations(t: AsideTile) -> tuple[int, ...]:
    from shipcheck.advice.legal import distinct_rotations

    return distinct_rotations(t)


# -- measuring with common random numbers ----------------------------------------------------------
@dataclass(frozen=True, repr=False)
class Effect:
    """A variant's measured effect: per-run paired differences (variant minus ship) of credits and
    of components lost, their means and 95 % intervals, over ``runs`` rounds of ``seed``."""

    variant: Variant
    runs: int
    credits: float
    credits_ci: tuple[float, float]
    lost: float
    lost_ci: tuple[float, float]
    finish: float  # change of the chance to finish the round
    seed: int | None = None

    @property
    def sure(self) -> bool:
        """The credits interval excludes zero."""
        lo, hi = self.credits_ci
        return lo > 0 or hi < 0

    @property
    def verdict(self) -> str:
        """``"gain"`` (the interval is above zero), ``"loss"`` (below) or ``"unclear"``."""
        lo, hi = self.credits_ci
        return "gain" if lo > 0 else "loss" if hi < 0 else "unclear"

    @property
    def how(self) -> str:
        """How it was measured, in words."""
        seed = f" (seed {self.seed})" if self.seed is not None else ""
        return (f"flown on the same {self.runs:,} rounds as the ship{seed}: the same decks and dice, "
                "the mean of the run-by-run differences with its 95% interval")

    def __repr__(self) -> str:
        lo, hi = self.credits_ci
        return (f"<Effect {self.variant.text!r}: credits {self.credits:+.2f} ({lo:+.2f} to {hi:+.2f}), "
                f"lost {self.lost:+.2f}, {self.runs} paired runs>")

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        name = ship.board.cell_name
        v = self.variant
        d: dict[str, Any] = {"change": v.text, "kind": v.kind, "group": v.group, "policy": v.policy,
                             "squares": [name(i) for i in v.squares]}
        if v.tile is not None:
            d["tile"] = v.tile
        d.update({"credits": self.credits, "credits_ci": list(self.credits_ci), "lost": self.lost,
                  "lost_ci": list(self.lost_ci), "finish": self.finish, "verdict": self.verdict,
                  "runs": self.runs, "measured": self.how})
        return d


@dataclass(frozen=True, repr=False)
class Addition:
    """One type of tile from the pile: its best free square on the ship, measured (``effect``), or
    why there is none (``reason``). ``tried`` squares were flown to find it."""

    pile: PileType
    effect: Effect | None
    tried: int
    reason: str = ""

    def __repr__(self) -> str:
        what = repr(self.effect) if self.effect is not None else self.reason
        return f"<Addition {self.pile.name!r} ({self.pile.count} in the pile): {what}>"

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        return {"tile": self.pile.name, "in_pile": self.pile.count, "squares_tried": self.tried,
                "best": self.effect.to_dict(ship) if self.effect is not None else None, "reason": self.reason}


Fly = Callable[[Ship, str, int, int], Any]  # (ship, policy, runs, seed) -> the ship's PlayerResult


@dataclass(frozen=True, repr=False)
class Recommendations:
    """The ranked effects (best first), how many variants were screened, and the settings used.

    ``effects`` holds the best changes to the ship (:attr:`build`, for the next build) and the other
    policies (:attr:`flight`), ranked by credits; ``additions`` the best free square of each of the
    pile's most common tiles. ``idle`` lists the changes that made no difference in any screened run
    (a turned tile whose new sides matter to no card); they are in neither.
    """

    effects: tuple[Effect, ...]
    screened: int
    runs: int
    screen_runs: int
    seed: int
    idle: tuple[Variant, ...] = ()
    additions: tuple[Addition, ...] = ()

    @property
    def build(self) -> tuple[Effect, ...]:
        """Changes of the ship, for the next build (a welded ship cannot be changed), best first."""
        return tuple(e for e in self.effects if e.variant.group == "build")

    @property
    def flight(self) -> tuple[Effect, ...]:
        """Other ways to fly the same ship (policies), best first."""
        return tuple(e for e in self.effects if e.variant.group == "flight")

    @property
    def measured(self) -> tuple[Effect, ...]:
        """Every measured effect, additions included, best first (no duplicates)."""
        seen: dict[int, Effect] = {}
        for e in (*self.effects, *(a.effect for a in self.additions if a.effect is not None)):
            seen.setdefault(id(e.variant), e)
        return tuple(sorted(seen.values(), key=lambda e: (-e.credits, e.lost)))

    @property
    def gains(self) -> tuple[Effect, ...]:
        """The measured changes that surely earn more (95 % interval above zero), best first."""
        return tuple(e for e in self.measured if e.verdict == "gain")

    @property
    def best(self) -> Effect | None:
        """The change that earns most, when one surely earns more; else None."""
        g = self.gains
        return g[0] if g else None

    def __repr__(self) -> str:
        best = self.best
        head = (f"best {best.variant.text!r} {best.credits:+.2f}" if best is not None
                else "no single change earns more")
        return (f"<Recommendations: {head}; {len(self.build)} build changes, {len(self.additions)} tiles from the "
                f"pile, {len(self.flight)} policies measured on {self.runs} paired runs; {self.screened} screened>")

    def to_frame(self) -> Any:
        """One row per measured change (additions included), best first: group, kind, change, the
        square it welds or turns a tile on (``square``, numeric ``col``/``row``; for a move where the
        tile goes; empty for a policy), credits with its interval, lost with its interval, finish,
        verdict, runs."""
        import pandas as pd

        from shipcheck.check.rules import _col_row

        rows = []
        for e in self.measured:
            v = e.variant
            at = v.squares[-1] if v.squares else None
            col, row = _col_row(v.ship.board, at) if at is not None else (None, None)
            rows.append({"group": v.group, "kind": v.kind, "change": v.text, "tile": v.tile,
                         "square": v.ship.board.cell_text(at) if at is not None else None, "col": col, "row": row,
                         "credits": e.credits, "credits_lo": e.credits_ci[0], "credits_hi": e.credits_ci[1],
                         "lost": e.lost, "lost_lo": e.lost_ci[0], "lost_hi": e.lost_ci[1], "finish": e.finish,
                         "verdict": e.verdict, "runs": e.runs})
        cols = ["group", "kind", "change", "tile", "square", "col", "row", "credits", "credits_lo", "credits_hi", "lost",
                "lost_lo", "lost_hi", "finish", "verdict", "runs"]
        return pd.DataFrame(rows, columns=cols).astype({"col": "Int64", "row": "Int64"})

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        return {
            "screened": self.screened, "runs": self.runs, "screen_runs": self.screen_runs, "seed": self.seed,
            "best": self.best.variant.text if self.best is not None else None,
            "changes": [e.to_dict(ship) for e in self.effects],
            "additions": [a.to_dict(ship) for a in self.additions],
        }


def _distinct(vs: Sequence[Variant]) -> list[Variant]:
    """``vs`` with one variant per change and square: of several turns (or catalogue tiles) of one
    kind of tile on one square, the first (the best ranked) stands for them."""
    seen: set[Any] = set()
    out = []
    for v in vs:
        key = (v.kind, v.squares, (v.pile.kind, v.pile.attrs) if v.pile is not None else v.text)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def measure(fly: Fly, base: Any, v: Variant, runs: int, seed: int) -> Effect | None:
    """The effect of ``v`` against ``base`` (the ship's result of ``runs`` runs with ``seed``);
    None when the variant did exactly what the ship did in every run."""
    r = fly(v.ship, v.policy, runs, seed)
    if (np.array_equal(r.credits, base.credits) and np.array_equal(r.lost, base.lost)
            and np.array_equal(r.gave_up, base.gave_up)):
        return None
    c, cci = paired(r.credits, base.credits)
    lo, lci = paired(r.lost, base.lost)
    fin = float(np.mean(r.gave_up == 0) - np.mean(base.gave_up == 0))
    return Effect(v, runs, c, cci, lo, lci, fin, seed)


#: tile types of the pile the search brings in (the most common ones), and squares flown per type
PILE_TYPES = 8
PER_TYPE = 4
SWAPS_PER_TYPE = 3
FINAL_PER_TYPE = 2  # of each type's additions, those measured again on the report's own runs


def recommend(ship: Ship, fly: Fly, *, runs: int, seed: int, screen_runs: int | None = None, top: int = 5,
              policies: Sequence[str] = (), candidates: Sequence[Variant] | None = None,
              base: Any = None, pile: int | Sequence[PileType] = PILE_TYPES, edition: str | None = None,
              per_type: int = PER_TYPE, swaps_per_type: int = SWAPS_PER_TYPE) -> Recommendations:
    """Rank legal variants of ``ship`` by their effect on credits, with common random numbers.

    ``fly(ship, policy, runs, seed)`` flies a ship and returns its per-run arrays (``credits``,
    ``lost``, ``gave_up``); the same seed must give the same decks and dice whatever the ship.

    The candidates are the single changes of :func:`variants` (or ``candidates``) and, for the
    ``pile`` most common tile types of the edition's pile (0: none; or the types themselves), up to ``per_type`` free squares
    each (:func:`additions`) and ``swaps_per_type`` swapped squares (:func:`swaps`), each in every
    turn a round can tell apart. Every candidate is screened on ``screen_runs`` runs (default
    ``runs // 10``, at least 100 or ``runs``) of a stream derived from ``seed``; then, on ``runs``
    runs of ``seed`` itself, the ``top`` best changes of the ship (by credits, then fewer losses),
    every other policy, and each pile type's two best additions are measured again, and those come
    back (each type with the better of its two). ``base`` is the ship's own flight of those ``runs`` runs
    when the caller has it already.
    """
    cands = list(candidates) if candidates is not None else variants(ship, policies=policies)
    if isinstance(pile, int):
        types: Sequence[PileType] = pile_types(edition or ship.edition)[:pile] if pile > 0 else ()
    else:
        types = tuple(pile)
    added = additions(ship, types, per_type=per_type) if types else []
    pool = cands + (swaps(ship, types, per_type=swaps_per_type) if types else []) + [v for _, vs, _ in added for v in vs]
    screened = len(pool)
    screen_runs = screen_runs or max(runs // 10, min(runs, 100))
    screen_seed = int(np.random.SeedSequence(seed).spawn(1)[0].generate_state(1, np.uint32)[0])
    idle: list[Variant] = []

    def flown(vs: Sequence[Variant], n: int, sd: int, base: Any = None) -> dict[int, Effect]:
        """Effects of ``vs`` on ``n`` runs of stream ``sd``, by variant; idle variants set apart."""
        if base is None:
            base = fly(ship, "default", n, sd)
        out = {}
        for v in vs:
            e = measure(fly, base, v, n, sd)
            if e is None:
                idle.append(v)
            else:
                out[id(v)] = e
        return out

    def rank(es: Any) -> list[Effect]:
        return sorted(es, key=lambda e: (-e.credits, e.lost))

    if len(pool) > top:
        first = flown(pool, screen_runs, screen_seed)
        build = _distinct([e.variant for e in rank(first.values()) if e.variant.group == "build"])[:top]
        flight = [v for v in pool if v.group == "flight" and id(v) in first]
        best_added = []
        for _, vs, _ in added:  # each type's two best, so the final runs pick its square and turn
            tried = rank(first[id(v)] for v in vs if id(v) in first)
            best_added += [e.variant for e in tried[:FINAL_PER_TYPE]]
    else:
        build = [v for v in pool if v.group == "build"]
        flight = [v for v in pool if v.group == "flight"]
        best_added = [v for _, vs, _ in added for v in vs]
    final = list({id(v): v for v in (*build, *flight, *best_added)}.values())
    effects = flown(final, runs, seed, base)
    effects |= _priced(ship, list(effects.values()))  # a change that takes something away says what
    chosen = rank(effects[id(v)] for v in (*build, *flight) if id(v) in effects)
    adds = []
    for pt, vs, why in added:
        measured = rank(effects[id(v)] for v in vs if id(v) in effects)
        if measured:
            adds.append(Addition(pt, measured[0], len(vs)))
        else:
            adds.append(Addition(pt, None, len(vs), why or "no square made a difference in any round"))
    return Recommendations(tuple(chosen), screened, runs, screen_runs, seed, tuple(idle), tuple(adds))

