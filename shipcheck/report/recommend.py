"""What to change: legal what-if variants of a ship, ranked by their measured effect on credits.

:func:`variants` lists every legal single change: rotate a tile (turning a shield is one), remove a
tile, move one to an empty square (a move that covers exposed connectors says so), place a
set-aside component, or fly another policy. :func:`recommend` measures each against the ship as
built with **common random numbers**: a variant flies the very decks and dice the ship flew (the
round engine gives run ``r`` the same cards and rolls for the same seed whatever the ship), so the
per-run differences of credits are paired and their mean has a small standard error even when the
credits themselves vary a lot.

The search screens every variant on a few runs, then measures the most promising ones again on a
fresh stream (another seed), so the reported effects are not inflated by having been picked as the
best of many noisy guesses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..model import Ship, Tile
from ..round.result import paired
from ..rules import check

SIDE_WORDS = ("front", "right", "rear", "left")


@dataclass(frozen=True)
class Variant:
    """One what-if change: what it is in words, the ship it gives, and the policy it flies."""

    kind: str  # rotate, shield, remove, move, cover, aside, policy
    text: str
    ship: Ship
    policy: str = "default"
    squares: tuple[int, ...] = ()  # the squares the change touches


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
    from ..rules import Layout

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

    Only variants that pass :func:`~shipcheck.rules.check` are kept, and only one of those that
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


# -- measuring with common random numbers ----------------------------------------------------------
@dataclass(frozen=True)
class Effect:
    """A variant's measured effect: per-run paired differences (variant minus ship) of credits and
    of components lost, their means and 95 % intervals."""

    variant: Variant
    runs: int
    credits: float
    credits_ci: tuple[float, float]
    lost: float
    lost_ci: tuple[float, float]
    finish: float  # change of the chance to finish the round

    @property
    def sure(self) -> bool:
        """The credits interval excludes zero."""
        lo, hi = self.credits_ci
        return lo > 0 or hi < 0


Fly = Callable[[Ship, str, int, int], Any]  # (ship, policy, runs, seed) -> the ship's PlayerResult


@dataclass(frozen=True)
class Recommendations:
    """The ranked effects (best first), how many variants were screened, and the settings used.

    ``idle`` lists the measured changes that made no difference in any run (a turned tile whose
    new sides matter to no card); they are not in ``effects``.
    """

    effects: tuple[Effect, ...]
    screened: int
    runs: int
    screen_runs: int
    seed: int
    idle: tuple[Variant, ...] = ()

    def to_dict(self, ship: Ship) -> dict[str, Any]:
        name = ship.board.cell_name
        return {
            "screened": self.screened, "runs": self.runs, "screen_runs": self.screen_runs, "seed": self.seed,
            "changes": [{"change": e.variant.text, "kind": e.variant.kind, "policy": e.variant.policy,
                         "squares": [name(i) for i in e.variant.squares], "credits": e.credits,
                         "credits_ci": list(e.credits_ci), "lost": e.lost, "lost_ci": list(e.lost_ci),
                         "finish": e.finish} for e in self.effects],
        }


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
    return Effect(v, runs, c, cci, lo, lci, fin)


def recommend(ship: Ship, fly: Fly, *, runs: int, seed: int, screen_runs: int | None = None, top: int = 5,
              policies: Sequence[str] = (), candidates: Sequence[Variant] | None = None,
              base: Any = None) -> Recommendations:
    """Rank legal variants of ``ship`` by their effect on credits, with common random numbers.

    ``fly(ship, policy, runs, seed)`` flies a ship and returns its per-run arrays (``credits``,
    ``lost``, ``gave_up``); the same seed must give the same decks and dice whatever the ship.
    Every candidate is screened on ``screen_runs`` runs (default ``runs // 10``, at least 100 or
    ``runs``) of a stream derived from ``seed``; the ``top`` best by credits (then by fewer losses)
    are measured again on ``runs`` runs of ``seed`` itself, and those come back ranked by credits.
    ``base`` is the ship's own flight of those ``runs`` runs when the caller has it already.
    """
    cands = list(candidates) if candidates is not None else variants(ship, policies=policies)
    screened = len(cands)
    screen_runs = screen_runs or max(runs // 10, min(runs, 100))
    screen_seed = int(np.random.SeedSequence(seed).spawn(1)[0].generate_state(1, np.uint32)[0])
    idle: list[Variant] = []

    def ranked(vs: Sequence[Variant], n: int, sd: int, base: Any = None) -> list[Effect]:
        """Effects of ``vs`` on ``n`` runs of stream ``sd``, best first; idle variants set apart."""
        if base is None:
            base = fly(ship, "default", n, sd)
        out = []
        for v in vs:
            e = measure(fly, base, v, n, sd)
            if e is None:
                idle.append(v)
            else:
                out.append(e)
        return sorted(out, key=lambda e: (-e.credits, e.lost))

    if len(cands) > top:
        cands = [e.variant for e in ranked(cands, screen_runs, screen_seed)[:top]]
    effects = ranked(cands, runs, seed, base)
    return Recommendations(tuple(effects), screened, runs, screen_runs, seed, tuple(idle))
