"""The placement advisor: where to weld the tile in hand, ranked by what it does to the ship.

>>> import shipcheck
>>> ship = shipcheck.parse_ship('format = 1\\nclass = "I"\\n')      # a lone pilot cabin
>>> df = shipcheck.place(ship, "shield:1111", exact=False)
>>> len(df), df.iloc[0]["rot"] in (0, 90, 180, 270)
(16, True)

:func:`advise` returns an :class:`Advice` (every legal placement, best first, with the numbers
behind its rank, and whether to set the tile aside); :func:`place` gives it as a DataFrame. The
rank looks ahead (:mod:`.growth`: never first a placement that closes the ship in while another
keeps it open), weighs a score of the placement's benefits (:data:`WEIGHTS`) and, by default, the
change in expected credits over whole rounds (:mod:`.credits`). The formulas: docs/placement.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shipcheck import validate as valid
from shipcheck.advice.growth import DRAWS, Growth, growth
from shipcheck.advice.legal import Candidate, distinct_rotations, legal_placements, weld, why_none
from shipcheck.advice.measure import Flight, fly, tile_params
from shipcheck.advice.roundcards import RoundCards, round_cards
from shipcheck.check.rules import check
from shipcheck.defaults import MAX_ROLLOUTS, MAX_RUNS_COMPARE, RUNS_COMPARE, default_round
from shipcheck.errors import InputError, Locator, suggest
from shipcheck.model import AsideTile, Ship, Tile
from shipcheck.validate import seed_of

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["WEIGHTS", "Advice", "Placement", "advise", "distinct_rotations", "legal_placements", "parse_tile",
           "parse_weights", "place", "weld"]

#: default weights of the score, in rough credits per unit: one more component aboard is worth about
#: a credit (it can carry, join and shield later tiles; 0 judges by the numbers alone), an exposed
#: connector costs about half a credit, and so does an empty square left unbuildable (a barrel or an
#: exhaust points at it) (stardust days, the best-looking-ship reward), a lost component one credit (rules §13),
#: surviving an attack card is worth about 20 (the round's arrival and goods), a point of engine
#: power or firepower or a crew place or a cargo slot about half a credit, a battery cell a quarter
WEIGHTS: dict[str, float] = {
    "weld": 1.0, "exposed": 0.5, "blocked": 0.5, "loss": 1.0, "survive": 20.0, "engine": 0.5, "firepower": 0.5, "crew": 0.5, "cargo": 0.5,
    "battery": 0.25, "outlook": 1.0,
}
#: the look-ahead's parts (rough credits: a square the ship can still reach is worth about a tile;
#: ``after`` looks one tile further, so that a tile with one connector drawn next finds a square
#: where it costs little, or none; ``future``, with ``rollouts``, the tiles the rollouts weld) and
#: the share of the score in the rank; see :mod:`.growth`
LOOK = {"room": 1.0, "options": 6.0, "fit": 10.0, "after": 20.0}
FUTURE = 20.0
SCORE_SHARE = 0.3
PARAMS = ("engine", "firepower", "crew", "cargo", "battery")


# -- input ----------------------------------------------------------------------------------------
def parse_tile(text: str | AsideTile | Tile, edition: str = "2007") -> AsideTile:
    """The tile in hand: a catalogue id (``"2007:5"``), or ``KIND:SIDES`` with the kind's attributes
    after another colon (``"cannon:0111"``, ``"battery:1113:cells=3"``,
    ``"mixed_cargo:1010:slots=3,special_slots=1"``); sides printed N E S W, as in ship files."""
    from shipcheck.shipfile import TILE_ATTRS, _tile_body, catalogue

    if isinstance(text, (AsideTile, Tile)):  # held to a ship file's rules too (a kind, four sides, its attributes)
        held: dict[str, Any] = {"kind": text.kind, "sides": text.sides, **dict(text.attrs)}
        try:
            _tile_body(held, file=None, loc=Locator(""), table="tile", index=0)
        except InputError as exc:
            raise InputError(f"bad tile: {exc.message.split(': ', 1)[-1]}", key="tile", value=repr(text),
                             expected=exc.expected) from None
        if isinstance(text, AsideTile):
            return text
        return AsideTile(kind=text.kind, sides=text.sides, attrs=text.attrs, id=text.id)
    valid.instance(text, str, key="tile", expected='a catalogue id "2007:5", KIND:SIDES[:NAME=VALUE,...] or a Tile')
    edition = valid.choice(edition, valid.EDITIONS, key="edition")

    spec = text.strip()
    head, _, rest = spec.partition(":")
    if head.isdigit() and len(head) == 4:  # a catalogue id
        if head != edition:
            raise InputError("catalogue id of another edition than the ship's", key="tile", value=spec,
                             expected=f'an id "{edition}:<number>"')
        entry = catalogue(edition).get(spec)
        if entry is None:
            raise InputError("no such tile in the catalogue", key="tile", value=spec,
                             expected=f"{edition}:1 to {edition}:{len(catalogue(edition))}")
        return entry
    sides, _, attr_text = rest.partition(":")
    raw: dict[str, Any] = {"kind": head, "sides": sides}
    for part in filter(None, (p.strip() for p in attr_text.split(","))):
        k, eq, v = part.partition("=")
        k = k.strip()
        if not eq:
            raise InputError("bad tile attribute", key="tile", value=spec, expected="NAME=VALUE, e.g. cells=3")
        if k not in TILE_ATTRS or k in raw:  # a tile's own attributes, each once (no load: crew, charge, goods)
            raise InputError(f"{'unknown' if k not in TILE_ATTRS else 'repeated'} tile attribute `{k}`", key="tile",
                             value=spec, expected="attributes " + ", ".join(TILE_ATTRS) + " (as the kind takes them)",
                             hint=None if k in TILE_ATTRS else suggest(k, TILE_ATTRS))
        v = v.strip()
        # only ASCII digits make a number ("²".isdigit() is true), and few of them: a longer value
        # stays text, for the tile's own check to refuse with the value shown
        raw[k] = int(v) if v.isascii() and v.isdigit() and len(v) <= 9 else v
    try:
        kind, sides, attrs = _tile_body(raw, file=None, loc=Locator(""), table="tile", index=0)
    except InputError as exc:
        raise InputError(f"bad tile: {exc.message.split(': ', 1)[-1]}", key="tile", value=spec,
                         expected=exc.expected or 'KIND:SIDES[:NAME=VALUE,...] or a catalogue id "2007:5"') from None
    return AsideTile(kind=kind, sides=sides, attrs=attrs)


def parse_weights(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """Weights over the defaults: ``"exposed=1,loss=3"`` or a mapping; unknown names and values that
    are not finite numbers are input errors (:func:`shipcheck.validate.weights`)."""
    return valid.weights(text, WEIGHTS)


# -- results --------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class Placement:
    """One legal placement and what it changes (``d_`` numbers are differences from the ship now).

    ``at`` is the square as the ship file and the JSON name it, ``(col, row)`` (board labels; grid
    indices on boards whose squares are written ``{col, row}``), ``rot`` the turn in degrees
    clockwise. ``index`` is the square's grid index (a :class:`~shipcheck.topology.Square`, what
    ``ship.tile_at`` takes) and ``turns`` the quarter turns.
    """

    index: int
    turns: int  # quarter turns clockwise
    ship: Ship
    exposed: int
    blocked: int  # empty buildable squares its barrels and exhausts point at: no tile may go there
    loss: Fraction | None
    survive: Fraction | None
    own: Fraction | None  # of ``loss``, the welded tile's own expected loss
    params: dict[str, Fraction | int]
    alien: bool  # a life support joined to a cabin (or a cabin to a life support): an alien may board
    shields: tuple[str, ...]
    exposes: tuple[str, ...]
    score: float
    rank: int = 0
    credits: float | None = None  # with ``credits=True``: change in expected credits over the round
    credits_ci: tuple[float, float] | None = None  # its 95 % interval (paired runs)
    growth: Growth | None = None  # what the ship can still become (look-ahead)
    value: float = 0.0  # what ranks it (see the module docstring)

    @property
    def at(self) -> tuple[int, int]:
        """The square as in the ship file and the JSON: ``(col, row)``."""
        from shipcheck.check.rules import _col_row

        return _col_row(self.ship.board, self.index)

    @property
    def rot(self) -> int:
        """The turn in degrees clockwise, as in ship files: 0, 90, 180 or 270."""
        return 90 * self.turns

    @property
    def square(self) -> str:
        """The square as printed: ``"(7,8)"``."""
        return self.ship.board.cell_text(self.index)

    def __repr__(self) -> str:
        worth = (f"credits {self.credits:+.2f} ({self.credits_ci[0]:+.2f} to {self.credits_ci[1]:+.2f}), "
                 if self.credits is not None and self.credits_ci is not None else "")
        return f"<Placement #{self.rank} {self.square} rot {self.rot}: {worth}score {self.score:+.2f}>"

    def to_dict(self) -> dict[str, Any]:
        b = self.ship.board

        def num(x: Fraction | int | None) -> float | int | None:
            if x is None:
                return None
            return int(x) if Fraction(x).denominator == 1 else float(x)

        d: dict[str, Any] = {
            "rank": self.rank, "at": b.cell_name(self.index), "rot": self.rot, "score": self.score,
            "exposed": self.exposed, "blocked": self.blocked, "loss": num(self.loss), "survive": num(self.survive), "own": num(self.own),
        }
        d.update({k: num(v) for k, v in self.params.items()})
        d.update({"alien": self.alien, "shields": list(self.shields), "exposes": list(self.exposes)})
        if self.growth is not None:
            g = self.growth
            d.update({"value": self.value, "room": g.room, "entrances": g.entrances, "fit": g.fit,
                      "options": g.options, "after": g.after, "closes_in": g.closed})
            if g.future is not None:
                d["future"] = g.future
        if self.credits is not None:
            d["credits"] = self.credits
            d["credits_ci"] = list(self.credits_ci or ())
        if self.loss is not None and self.survive is not None:
            d["fractions"] = {"loss": str(self.loss), "survive": str(self.survive), "own": str(self.own)}
        return d


@dataclass(frozen=True, repr=False)
class Advice:
    """Every legal placement of a tile, best first, and whether to set the tile aside instead."""

    ship: Ship
    tile: AsideTile
    round: str
    weights: dict[str, float]
    placements: tuple[Placement, ...]
    set_aside: bool
    reason: str
    exact: bool
    notes: tuple[str, ...] = ()
    runs: int | None = None  # rounds flown per placement (None: no credits flown)
    seed: int | None = None  # their seed
    ranking: str = ""  # how the rank was formed, in words

    def __repr__(self) -> str:
        n = len(self.placements)
        best = f", best {self.placements[0].square} rot {self.placements[0].rot}" if n else ""
        return (f"<Advice {_tile_text(self.tile)}, round {self.round}: {n} placement{'s' if n != 1 else ''}{best}; "
                f"{self.reason}>")

    def marks(self) -> dict[int, str]:
        """Each candidate square and the best rank found there (``"++"`` past 99), as ``place`` draws them."""
        out: dict[int, str] = {}
        for p in self.placements:
            out.setdefault(int(p.index), str(p.rank) if p.rank < 100 else "++")
        return out

    def _repr_html_(self) -> str:
        from html import escape

        from shipcheck.render import render_ship

        return f"<p>{escape(repr(self))}</p>" + render_ship(self.ship, marks=self.marks()).html()

    def to_dict(self) -> dict[str, Any]:
        return {
            "tile": _tile_text(self.tile), "round": self.round, "weights": self.weights,
            "set_aside": self.set_aside, "reason": self.reason,
            "placements": [p.to_dict() for p in self.placements], "notes": list(self.notes),
            "runs": self.runs, "seed": self.seed, "ranking": self.ranking,
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per placement, best first: ``rank``, ``col`` and ``row`` (numbers: the board's
        labels, as in ``at``), ``at`` (as in `check`'s cells), ``square`` (as printed), ``rot``
        (degrees), ``score`` and the numbers behind it (floats)."""
        import pandas as pd

        from shipcheck.check.rules import _col_row

        cols = ["rank", "col", "row", "at", "square", "rot", "value", "score", "exposed", "blocked", "loss", "survive",
                "own", *PARAMS, "alien", "shields", "exposes", "room", "entrances", "fit", "options", "after",
                "closes_in"]
        if any(p.growth is not None and p.growth.future is not None for p in self.placements):
            cols.insert(cols.index("closes_in"), "future")
        if any(p.credits is not None for p in self.placements):
            cols[7:7] = ["credits", "credits_ci"]
        rows = []
        for p in self.placements:
            d = p.to_dict()
            d.pop("fractions", None)
            d["col"], d["row"] = _col_row(self.ship.board, p.index)
            d["square"] = p.square
            d["shields"] = ", ".join(p.shields)
            d["exposes"] = ", ".join(p.exposes)
            rows.append(d)
        df = pd.DataFrame(rows, columns=cols).astype({"col": "int64", "row": "int64"})
        df.attrs.update({"set_aside": self.set_aside, "reason": self.reason, "round": self.round,
                         "tile": _tile_text(self.tile)})
        return df


def _tile_text(t: AsideTile) -> str:
    if t.id:
        return t.id
    attrs = ",".join(f"{k}={v}" for k, v in t.attrs)
    return f"{t.kind}:{t.sides}" + (f":{attrs}" if attrs else "")


# -- the work -------------------------------------------------------------------------------------
def flight_key(c: Candidate) -> tuple[Any, ...]:
    """What the flight engines can tell apart about the welded tile: two placements with the same key
    fly the same (a tile turned so that its connectors, joins, barrels and shield cover stay the same).

    The engines read a tile's sides only as "connector or smooth" (a small meteor bounces off a smooth
    side, plating shrugs off a hit on one), and the rest of the ship is the same in every candidate.
    """
    from shipcheck.check.rules import Layout

    t = c.tile
    joins = tuple(Layout.of(c.ship).adj[c.at])
    return (c.at, t.kind, t.attrs, t.crew, tuple(x != 0 for x in t.eff), joins, tuple(sorted(t.barrels)),
            tuple(sorted(t.exhausts)), tuple(sorted(t.covers)))


def _blocked(c: Candidate) -> int:
    """Empty buildable squares the welded tile's barrels and exhausts point at."""
    b, t = c.ship.board, c.tile
    out = 0
    for side in t.barrels + t.exhausts:
        j = b.nb[c.at][side]
        if j >= 0 and c.ship.tile_at(j) is None and b.buildable(j, c.ship.dice):
            out += 1
    return out


def _alien_option(c: Candidate) -> bool:
    from shipcheck.check.rules import Layout

    t = c.tile
    if t.kind not in ("life_support", "cabin"):
        return False
    want = "cabin" if t.kind == "life_support" else "life_support"
    tiles = c.ship.by_index
    return any(tiles[j].kind == want for j in Layout.of(c.ship).adj[c.at])


def advise(
    ship: Ship | str | Path,
    tile: str | AsideTile | Tile,
    *,
    round: str | int | None = None,
    top: int | None = None,
    weigh: str | Mapping[str, float] | None = None,
    exact: bool = True,
    credits: bool = True,
    runs: int = RUNS_COMPARE,
    seed: int | None = None,
    progress: Callable[[int, int], Any] | None = None,
    rules: str | Path | None = None,
    rollouts: int = 0,
) -> Advice:
    """Every legal placement of ``tile`` on ``ship``, ranked by score (see the module docstring).

    ``round``: the round whose cards weigh the exact loss (default: the board's level; ``"learning"``
    for the learning flight). ``top``: keep the best ``top``. ``exact=False`` leaves the exact loss and
    survival out (``None``) and ranks by the rest, for speed. ``credits`` (the default) flies every
    placement through ``runs`` whole rounds of the round simulator, with the same decks and dice as
    the ship without the tile (``seed``), and ranks by the change in expected credits (see
    :mod:`.credits`); the score breaks ties. ``credits=False`` ranks by the score alone, without
    flying a round (fast: what a building bot calls many times). ``progress(done, total)`` is called
    as the ships of the credits ranking are flown (the ship without the tile first); an exception it
    raises stops the work and reaches the caller. ``rules``: a rules file overriding the round's
    provisional numbers, as :func:`shipcheck.simulate_round` takes it (its deck weighs the exact loss
    too); the round's notes say what is provisional. ``rollouts``: also play the next draws out in
    that many seeded rollouts (:func:`.growth.future`) and weigh the tiles they weld in the rank.
    """
    ship = valid.ship(ship)
    hand = parse_tile(tile, ship.edition)
    weights = parse_weights(weigh)
    rnd = default_round(ship.board) if round is None else valid.round_key(round)
    top = valid.top(top)
    exact = bool(valid.flag(exact, key="exact"))
    credits = bool(valid.flag(credits, key="credits"))
    rollouts = valid.count(rollouts, key="rollouts", minimum=0, maximum=MAX_ROLLOUTS)
    run_bytes = 0
    if credits:
        from shipcheck.round.result import RUN_BYTES

        run_bytes = 2 * 5 * RUN_BYTES  # the ship's runs and one placement's, up to five players each
    runs = valid.runs(runs, minimum=2, maximum=MAX_RUNS_COMPARE, run_bytes=run_bytes, what="ranking by credits: keeping the per-run results of")
    seed = seed_of(None, seed)  # None: one fresh seed, shared by every placement (paired runs)
    progress = valid.callback(progress, key="progress", expected="a callable(done, total) or None", args=2)
    rules = valid.rules(rules)
    levels = None
    if rules is not None:  # a rules file may change the deck too: its attack cards weigh the exact loss
        from shipcheck.round import round_rules

        rr = round_rules(rnd, rules)
        levels = rr.deck
    rc: RoundCards = round_cards(rnd, ship.edition, levels=levels)
    base = check(ship)
    cands = legal_placements(ship, hand, base=base)
    notes = []
    if not base.legal:
        notes.append("the ship is illegal already: placements are those that add no rule break")
    if not ship.board.verified:
        notes.append(f"board {ship.board.name} is provisional (verified = false)")
    if exact and len(cands) > 1:  # many exact questions: compiled from the first (loaded once per process)
        from shipcheck.flight.odds import prefer_compiled

        prefer_compiled(ship)
    if credits and cands:
        from shipcheck import engine

        engine.ready()  # compiled (on its first use, with its bar) before the first round
    base_flight: Flight | None = fly(ship, rc) if exact and cands else None
    flights: dict[tuple[Any, ...], Flight] = {}
    placed = []
    for c in cands:
        flight = None
        if base_flight is not None:
            key = flight_key(c)
            flight = flights.get(key)
            if flight is None:
                flight = flights[key] = fly(c.ship, rc, c.at)
        params = tile_params(ship, c.tile)
        exposed = c.report.exposed_connectors - base.exposed_connectors
        loss = survive = own = None
        shields: tuple[str, ...] = ()
        exposes: tuple[str, ...] = ()
        if flight is not None and base_flight is not None:
            loss = flight.loss - base_flight.loss
            survive = flight.survive - base_flight.survive
            own = flight.own
            before = base_flight.single
            shields = tuple(a for a, (v, o) in flight.single.items() if v - o < before[a][0])
            exposes = tuple(a for a, (v, _) in flight.single.items() if v > before[a][0])
        blocked = _blocked(c)
        score = weights["weld"] - weights["exposed"] * exposed - weights["blocked"] * blocked + sum(weights[k] * float(params[k]) for k in PARAMS)
        if loss is not None and survive is not None:
            score += -weights["loss"] * float(loss) + weights["survive"] * float(survive)
        placed.append(Placement(ship.board.square(c.at), c.rot, c.ship, exposed, blocked, loss, survive, own, params, _alien_option(c),
                                shields, exposes, score))
    flown_seed = 0
    if credits:
        flown_seed = seed  # random unless given (above); the result says which
    if credits and placed:
        from shipcheck.advice.credits import credit_effects

        # placements that fly alike fly whole rounds alike too: one simulation per flight key
        keys = [flight_key(c) for c in cands]
        first = {k: i for i, k in reversed(list(enumerate(keys)))}
        order = sorted(first.values())
        effects = dict(zip(order, credit_effects(ship, [placed[i].ship for i in order], round=rc.round, runs=runs,
                                                 seed=flown_seed, progress=progress, rules=rules,
                                                 notes=notes)))
        placed = [replace(p, credits=effects[first[k]].credits, credits_ci=effects[first[k]].credits_ci)
                  for p, k in zip(placed, keys)]
    placed, ranking = _look_ahead(placed, weights["outlook"], credits, rollouts)
    ranked = tuple(replace(p, rank=k + 1) for k, p in enumerate(placed))
    if top is not None:
        ranked = ranked[:top]
    aside, reason = _verdict(placed, credits) if placed else (
        True, f"no legal placement: {why_none(ship, hand, base=base)}; set the tile aside (or put it back)")
    return Advice(ship, hand, rc.round, weights, ranked, aside, reason, base_flight is not None, tuple(notes),
                  runs=runs if credits else None, seed=seed if credits else None, ranking=ranking)


def _verdict(placed: list[Placement], credits: bool) -> tuple[bool, str]:
    """Whether to set the tile aside, and why: the rank looks ahead, the advice weighs what the best
    placement brings now (its credits when flown, else its score)."""
    if credits:
        best = max(p.credits or 0.0 for p in placed)
        if best <= 0:
            return True, f"no placement raises the expected credits (best {best:+.2f}): set the tile aside (or put it back)"
        return False, f"best placement raises the expected credits by {best:+.2f}"
    best = max(p.score for p in placed)
    if best <= 0:
        return True, f"no placement improves the ship (best score {best:.2f}): set the tile aside (or put it back)"
    return False, f"best placement scores {best:.2f}"


def _look_ahead(placed: list[Placement], outlook: float, credits: bool,
                rollouts: int = 0) -> tuple[list[Placement], str]:
    """The placements ranked by what the ship can still become, and that rule in words."""
    out = []
    rollouts = rollouts if outlook else 0
    for p in placed:
        g = growth(p.ship, rollouts=rollouts)
        look = sum(w * getattr(g, k) for k, w in LOOK.items()) + FUTURE * (g.future or 0.0)
        out.append(replace(p, growth=g, value=outlook * look + SCORE_SHARE * p.score + (p.credits or 0.0)))
    open_ = any(p.growth is not None and not p.growth.closed for p in out)
    out.sort(key=lambda p: (open_ and p.growth is not None and p.growth.closed, -p.value, -p.score, p.index, p.turns))
    ahead = (f" + {FUTURE:g} x future: the tiles taken from the next {DRAWS} draws, mean of {rollouts} seeded"
             " rollouts" if rollouts else "")
    words = (f"value = {outlook:g} x look-ahead (room + 6 x options + 10 x fit + 20 x after the next tile{ahead})"
             " + 0.3 x score"
             + (" + change in credits" if credits else "")
             + "; a placement that closes the ship in never first while another keeps it open")
    return out, words


def place(
    ship: Ship | str | Path,
    tile: str | AsideTile | Tile,
    *,
    round: str | int | None = None,
    top: int | None = None,
    weigh: str | Mapping[str, float] | None = None,
    exact: bool = True,
    credits: bool = True,
    runs: int = RUNS_COMPARE,
    seed: int | None = None,
    progress: Callable[[int, int], Any] | None = None,
    rules: str | Path | None = None,
    rollouts: int = 0,
) -> pd.DataFrame:
    """:func:`advise` as a DataFrame, one row per legal placement, best first (``df.attrs`` holds
    ``set_aside`` and ``reason``)."""
    return advise(ship, tile, round=round, top=top, weigh=weigh, exact=exact, credits=credits, runs=runs,
                  seed=seed, progress=progress, rules=rules, rollouts=rollouts).to_frame()
