"""``design``: the search for the ship that earns most in a round (contract §7; docs/design.md).

Starting ships (the class's field ships built from the same tiles, greedy constructions with the
look-ahead advisor, or the given half-built ship grown) are flown and the best kept. Then, each
generation, the best ship's neighbours (one move each, :mod:`.moves`) race in successive halving:
all fly a few rounds, the better half twice as many, and so on up to :data:`TOP_RUNS` rounds, on
the same decks and dice as the best ship (:mod:`.flights`); the winner replaces the best ship when
it earns more. Every random choice comes from the seed and every decision from flights that do not
depend on where they ran, so a seed and a budget give one ship on any number of workers.
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from shipcheck import validate as valid
from shipcheck.defaults import RUNS_COMPARE, default_round
from shipcheck.design.flights import Flights, FlightSpec
from shipcheck.design.moves import construct, neighbour
from shipcheck.design.tiles import Pool, catalogue_pool, pile_pool, tile_key
from shipcheck.errors import InputError
from shipcheck.model import Ship
from shipcheck.validate import seed_of

if TYPE_CHECKING:
    import pandas as pd

    from shipcheck.round import RoundResult

__all__ = ["BUDGET", "DesignResult", "Progress", "design"]

BUDGET = 2400  #: candidate ships flown by default (docs/design.md: measured on 2 cores)
MAX_BUDGET = 1_000_000  #: the most candidates one search may be asked to fly (weeks of CPU: a mistake, not a plan)
RUNGS = (100, 200, 400, 800)  #: rounds a candidate flies at each rung of successive halving
TOP_RUNS = RUNGS[-1]
NEIGHBOURS = 16  #: candidates a generation
CONSTRUCTIONS = 4  #: greedy constructions among the starting ships


@dataclass(frozen=True)
class Progress:
    """What a progress callback receives: flights made, the budget, the best mean so far, seconds."""

    evaluations: int
    budget: int
    best: float | None
    elapsed: float
    time_limit: float | None


@dataclass(frozen=True, repr=False)
class DesignResult:
    """The designed ship, what it earns (a fresh flight, not the search's), and how the search went.

    ``credits`` is the mean credits of ``flight`` (``runs`` rounds on a seed of its own against the
    field); ``history`` holds ``(evaluations, best mean so far)`` pairs, the best mean being the
    search's estimate over :data:`TOP_RUNS` rounds; ``stopped`` is None, ``"time"`` or ``"interrupted"``.
    """

    ship: Ship
    credits: float
    credits_ci: tuple[float, float]
    by_source: dict[str, float]
    field: tuple[tuple[str, float], ...]
    history: tuple[tuple[int, float], ...]
    evaluations: int
    budget: int
    seed: int
    round: str
    edition: str
    cls: str
    tiles_from: str
    stopped: str | None = None
    flight: RoundResult | None = None
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        best = max((c for _, c in self.field), default=None)
        beside = f" (field best {best:.2f})" if best is not None else ""
        stop = f", stopped: {self.stopped}" if self.stopped else ""
        return (f"<DesignResult class {self.cls}, round {self.round}: {len(self.ship.tiles)} tiles, credits "
                f"{self.credits:.2f}{beside}, {self.evaluations} of {self.budget} candidates, seed {self.seed}{stop}>")

    def to_dict(self) -> dict[str, Any]:
        """Contract §7's JSON (without ``ship``, the file the command wrote)."""
        return {
            "class": self.cls, "edition": self.edition, "round": _round_json(self.round), "seed": self.seed,
            "budget": self.budget, "evaluations": self.evaluations, "tiles": len(self.ship.tiles),
            "credits": {"mean": self.credits, "ci": list(self.credits_ci), "by_source": dict(self.by_source)},
            "field": [{"ship": n, "credits": {"mean": c}} for n, c in self.field],
            "history": [[e, m] for e, m in self.history], "stopped": self.stopped, "tiles_from": self.tiles_from,
            "notes": list(self.notes),
        }

    def to_frame(self) -> pd.DataFrame:
        """The convergence: one row per point of ``history`` (``evaluations``, ``best_mean``)."""
        import pandas as pd

        return pd.DataFrame(self.history, columns=["evaluations", "best_mean"])


def _round_json(key: str) -> int | str:
    return int(key) if key.isdigit() else key


def _start_ship(cls: str | None, start: Any, edition: str | None) -> tuple[Ship, frozenset[int]]:
    if start is not None:
        ship = valid.ship(start, key="start")
        from shipcheck.check.rules import check

        if not check(ship).legal:
            raise InputError("the ship to build on is not legal (see `shipcheck check`)", file=ship.source,
                             key="start", value=ship.source, expected="a legal ship (`shipcheck fix` mends one)")
        if cls is not None and cls != ship.board.name:
            raise InputError("the ship to build on is of another class", key="cls", value=cls,
                             expected=f"class {ship.board.name}, or no --class")
        return ship, frozenset(int(t.at) for t in ship.tiles)
    if cls is None:
        raise InputError("no class to design for", key="cls", value=None, expected='a class, e.g. "II"')
    from shipcheck.shipfile import parse_ship
    from shipcheck.topology import BUILTIN_CLASSES

    if not isinstance(cls, str) or cls not in BUILTIN_CLASSES:
        raise InputError("unknown ship class", key="cls", value=cls, expected="one of " + ", ".join(BUILTIN_CLASSES))
    ed = valid.edition(edition) or "2007"
    return parse_ship(f'format = 1\nclass = "{cls}"\nedition = "{ed}"\n'), frozenset()


def _warm_starts(base: Ship, pool: Pool, fixed: frozenset[int]) -> list[Ship]:
    """The field ships of the class built from tiles the pool holds (none when building on a ship)."""
    from collections import Counter

    from shipcheck.round.field import FIELD_CLASSES, field_ships

    if fixed or base.board.name not in FIELD_CLASSES:
        return []
    have = Counter(tile_key(t) for t in pool.tiles)
    out = []
    for s in field_ships(base.board.name):
        need = Counter(tile_key(t) for t in s.tiles if not t.implied)
        if s.edition == base.edition and not need - have:
            out.append(s)
    return out


def _cost(n: int) -> int:
    """Flights a race of ``n`` candidates takes (see :func:`_race`)."""
    if n <= 2:
        return n
    total = 0
    for _ in RUNGS[:-1]:
        total += n
        n = math.ceil(n / 2)
    return total + n


class _Search:
    def __init__(self, flights: Flights, budget: int, time_limit: float | None,
                 progress: Callable[[Progress], Any] | None) -> None:
        self.flights = flights
        self.budget = budget
        self.time_limit = time_limit
        self.progress = progress
        self.t0 = time.monotonic()
        self.best: tuple[Ship, str, float] | None = None
        self.history: list[tuple[int, float]] = []
        self.stopped: str | None = None

    def out_of_time(self) -> bool:
        if self.time_limit is not None and time.monotonic() - self.t0 >= self.time_limit:
            self.stopped = "time"
        return self.stopped is not None

    def tick(self) -> None:
        if self.progress is not None:
            self.progress(Progress(self.flights.flown, self.budget, self.best[2] if self.best else None,
                                   time.monotonic() - self.t0, self.time_limit))

    def race(self, ships: list[Ship]) -> tuple[Ship, str, float] | None:
        """Successive halving: every ship flies RUNGS[0] rounds, the better half RUNGS[1], ... the
        last two TOP_RUNS (two or fewer fly TOP_RUNS at once). The winner, its text and mean."""
        cands = list({_text(s): s for s in ships}.items())
        if not cands:
            return None
        rungs = RUNGS if len(cands) > 2 else RUNGS[-1:]
        for k, runs in enumerate(rungs):
            if self.out_of_time():
                return None
            means = self.flights.fly([t for t, _ in cands], runs)
            order = sorted(range(len(cands)), key=lambda i: (-means[i], i))
            self.tick()
            if k == len(rungs) - 1:
                i = order[0]
                return cands[i][1], cands[i][0], means[i]
            cands = [cands[i] for i in order[:math.ceil(len(cands) / 2)]]
        return None  # pragma: no cover

    def offer(self, won: tuple[Ship, str, float] | None) -> None:
        if won is not None and (self.best is None or won[2] > self.best[2]):
            self.best = won
        if self.best is not None:
            self.history.append((self.flights.flown, self.best[2]))

    def room(self, n: int) -> int:
        """The most candidates (up to ``n``) whose race fits in what is left of the budget."""
        left = self.budget - self.flights.flown
        while n > 0 and _cost(n) > left:
            n -= 1
        return n


def _run(search: _Search, starts: list[Ship], pool: Pool, fixed: frozenset[int], rng: np.random.Generator) -> None:
    search.offer(search.race(starts[:search.room(len(starts))]))
    while search.best is not None and not search.out_of_time():
        n = search.room(NEIGHBOURS)
        if n < 1:
            break
        ship = search.best[0]
        cands = []
        for _ in range(n):
            new = neighbour(ship, pool, rng, fixed=fixed)
            if new is not None and rng.random() < 0.3:  # now and then two moves at once
                new = neighbour(new, pool, rng, fixed=fixed) or new
            if new is not None:
                cands.append(new)
        if not cands:
            break
        search.offer(search.race(cands))


def design(
    cls: str | None = None,
    *,
    start: Ship | str | Path | None = None,
    edition: str | None = None,
    pile: str | Path | Pool | None = None,
    round: int | str | None = None,
    opponents: Sequence[Ship | str | Path] | None = None,
    budget: int = BUDGET,
    time_limit: float | None = None,
    rng: Any = None,
    seed: int | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    rules: str | Path | None = None,
    runs: int = RUNS_COMPARE,
    progress: Callable[[Progress], Any] | None = None,
) -> DesignResult:
    """Design a complete legal ship for class ``cls`` that earns as much as it can in the round.

    ``start``: a legal half-built ship whose tiles stay where they are (the class is its board's).
    ``pile``: a pile file (or a :class:`~shipcheck.design.tiles.Pool`) of the only tiles it may use;
    default the edition's catalogue, each tile at most once. ``round``, ``opponents``, ``rules``: as
    :func:`shipcheck.simulate_round` (default the board's level and the class's field). ``budget``:
    candidate ships flown; ``seed``/``rng``: the search's randomness (the same seed and budget give
    the same ship with any ``workers`` count or Dask ``scheduler``). ``time_limit``: seconds, then
    stop early (not reproducible). ``runs``: rounds of the final flight that measures the result.
    ``progress(Progress)`` after every batch of flights. A Ctrl-C (KeyboardInterrupt) stops the
    search and returns the best ship so far, ``stopped="interrupted"``.
    """
    base, fixed = _start_ship(cls, start, edition)
    ed = valid.edition(edition) or base.edition
    if ed != base.edition:
        raise InputError("the ship to build on is of another edition", key="edition", value=ed,
                         expected=base.edition)
    pool = pile if isinstance(pile, Pool) else catalogue_pool(ed) if pile is None else pile_pool(pile, ed)
    budget = valid.count(budget, key="budget", maximum=MAX_BUDGET)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real)
                                   or not 0 < time_limit < math.inf):
        raise InputError("bad time limit", key="time_limit", value=time_limit, expected="seconds, more than 0")
    progress = valid.callback(progress, key="progress", expected="a callable(Progress) or None", args=1)
    if workers is not None:
        workers = valid.count(workers, key="workers")
    runs = valid.count(runs, key="runs")
    key = valid.round_key(round) if round is not None else default_round(base.board)
    rules = valid.rules(rules)
    s = seed_of(rng, seed)
    ss = np.random.SeedSequence(s)
    search_ss, flight_ss, final_ss = ss.spawn(3)
    opponents = valid.opponents(opponents)  # (a list, read once: a generator too)
    opp = None if opponents is None else tuple(_text(o) for o in opponents)
    spec = FlightSpec(key, opp, int(flight_ss.generate_state(1, np.uint64)[0] >> 11), None if rules is None else str(rules))
    rng_ = np.random.default_rng(search_ss)
    search = _Search(Flights(spec, workers=workers, scheduler=scheduler), budget, time_limit, progress)
    starts = [base] if fixed else []
    try:  # a Ctrl-C from here on keeps the best ship so far (a starting ship, before any flight)
        starts += _warm_starts(base, pool, fixed)
        for r in rng_.spawn(CONSTRUCTIONS):
            if starts and search.out_of_time():  # the time limit: the starting ships built so far
                break
            starts.append(construct(base, pool, r, fixed=fixed))
        with search.flights:
            _run(search, starts, pool, fixed, rng_)
    except KeyboardInterrupt:
        search.stopped = "interrupted"
    return _result(search, starts[0] if starts else base, cls or base.board.name, ed, key, s, pool, runs,
                   int(final_ss.generate_state(1, np.uint64)[0] >> 11), opponents, rules)


def _text(ship: Ship) -> str:
    """The ship file a flight reads (in this process or a worker's): a board file named by its whole
    path, which reads the same from any folder."""
    from shipcheck.shipfile import dump_ship
    from shipcheck.topology import BUILTIN_CLASSES

    if ship.board_ref is not None and ship.board_ref not in BUILTIN_CLASSES and ship.board.source:
        ship = replace(ship, board_ref=str(Path(ship.board.source).resolve()))
    return dump_ship(ship)


def _result(search: _Search, first: Ship, cls: str, edition: str, key: str, seed: int, pool: Pool, runs: int,
            final_seed: int, opponents: Any, rules: Any) -> DesignResult:
    """The result: the best ship flown, else ``first`` (a starting ship, when time ran out or Ctrl-C
    came before any flight), flown afresh unless interrupted."""
    from shipcheck.check.rules import check

    best = search.best[0] if search.best is not None else first
    best = replace(best, name=f"Designed {cls} (seed {seed})", source=None)
    assert check(best).legal
    history = tuple(search.history)
    if search.stopped == "interrupted":  # no time for a fresh flight: the search's own estimate
        mean = search.best[2] if search.best is not None else float("nan")
        return DesignResult(best, mean, (mean, mean), {}, (), history, search.flights.flown, search.budget, seed,
                            key, edition, cls, pool.source, "interrupted",
                            notes=("interrupted: credits are the search's estimate over "
                                   f"{TOP_RUNS} rounds, not a fresh flight",))
    from shipcheck.round import simulate_round

    r = simulate_round(best, round=key, opponents=opponents, runs=runs, seed=final_seed, rules=rules)
    me = r.ship_result
    field = tuple((p.name, float(p.credits_mean)) for p in r.opponents)
    notes = list(r.notes)
    if search.stopped == "time":
        notes.insert(0, f"stopped by the time limit after {search.flights.flown} of {search.budget} candidates: "
                        "not reproducible")
    lo, hi = me.credits_ci
    return DesignResult(best, float(me.credits_mean), (float(lo), float(hi)),
                        {k: float(v) for k, v in me.by_source.items()}, field, history, search.flights.flown,
                        search.budget, seed, key, edition, cls, pool.source, search.stopped, r, tuple(notes))
