"""The round compiled to integer tables for the compiled kernel (:mod:`.kernel`).

Every table is an ``int64`` array with the players on the first axis, padded to the largest ship
(``-1`` or 0 where a player has fewer tiles, batteries, holds...). The tables are read off the
same :class:`~shipcheck.round.state.ShipModel` and :class:`~shipcheck.flight.FlightModel` objects
the memoised engine uses, so both engines start from one description of each ship; the rules
that act on them are written twice (here in :mod:`.kernel`, there in :mod:`shipcheck.round.state`,
the flight model and the card modules) and held to the same numbers by
``tests/test_round_fast.py``.

A player's state in a run is one row of ``int64``: ``[mask, gone, charges per battery, crew per
tile, goods per hold and colour]`` (offsets in :attr:`Ships.off`), the round state of
:mod:`shipcheck.round.state` with the goods of a hold as counts per colour (a hold's goods are a
sorted tuple there, so the two say the same).
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from shipcheck.cards import Card
from shipcheck.flight import ALIEN
from shipcheck.model import ALIENS, Side

from ..rulebook import RoundRules
from ..state import CODE, SPECIALISATIONS, ShipModel

__all__ = ["CARD_FIELDS", "SHIP_FIELDS", "Cards", "Ships", "card_tables", "initial_rows", "ship_tables"]

KINDS = ("small-meteor", "large-meteor", "light-shot", "heavy-shot")
DIRECTIONS = ("front", "right", "rear", "left")
CRITERIA = ("crew", "engine_power", "firepower")
PENALTIES = ("days", "crew", "goods", "shots")
MAX_TILES = 62  # masks are int64 words

SHIP_FIELDS = (
    "off",  # [charges, crew, goods] offsets into a state row, and the row's width
    "n", "multi", "spec", "aside", "cap", "nhull",
    "adj", "gidx", "cabin", "luxury", "aliencol", "isalien", "supports", "freec",
    "gmask", "hcab", "htgt", "hchm", "life", "crewtiles",
    "nbat", "battile", "batcap", "bathold",
    "nhold", "holdtile", "holdnorm", "holdspec", "holdbat",
    "neng", "engtile", "engpow", "engdbl",
    "ncan", "cantile", "canval", "candbl", "canfwd",
    "ncb", "cbtile", "nfur", "furtile",
    "eff", "snb", "sqtile", "sab",
    "linem", "vuln", "cover", "boostable", "boosters",
    "brg", "brgfree",
    "ocell", "oside", "otol", "onl", "olines",
)
CARD_FIELDS = (
    "ctype", "cstr", "cdays", "ccred", "ccrewpen", "cgoodspen", "ccrewcost", "ccrewreq",
    "ngoods", "cgoods", "npl", "nplg", "plg", "natt", "akind", "adir",
    "nline", "lcrit", "lpen", "lamt", "lns", "lkind", "ldir",
)
Ships = namedtuple("Ships", SHIP_FIELDS)  # type: ignore[misc]
Cards = namedtuple("Cards", CARD_FIELDS)  # type: ignore[misc]


def _pad(rows: list[list[Any]], fill: int = -1, width: int | None = None) -> np.ndarray:
    w = max([len(r) for r in rows] + [width or 1])
    out = np.full((len(rows), w), fill, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def ship_tables(models: list[ShipModel], prices: dict[str, int], rules: RoundRules, order: tuple[str, ...]) -> Ships:
    """The players' ships as :class:`Ships` (``order``: the colour codes' names, most valuable first)."""
    P = len(models)
    N = max(m.n for m in models)
    B = max([len(m.batteries) for m in models] + [1])
    H = max([len(m.holds) for m in models] + [1])
    och, ocr = 2, 2 + B
    ogd = ocr + N
    width = ogd + 4 * H
    t: dict[str, Any] = {"off": np.array([och, ocr, ogd, width], dtype=np.int64)}

    def per_tile(fn: Any, fill: int = 0) -> np.ndarray:
        out = np.full((P, N), fill, dtype=np.int64)
        for p, m in enumerate(models):
            for k in range(m.n):
                out[p, k] = fn(m, k)
        return out

    t["n"] = np.array([m.n for m in models], dtype=np.int64)
    t["multi"] = np.array([int(m.multi) for m in models], dtype=np.int64)
    t["spec"] = np.array([-1 if m.specialisation is None else SPECIALISATIONS.index(m.specialisation)
                          for m in models], dtype=np.int64)
    t["aside"] = np.array([m.aside for m in models], dtype=np.int64)
    caps = [rules.cap_for(m.ship.board.name, m.ship.board.max_penalty)[0] for m in models]
    t["cap"] = np.array([-1 if c is None else c for c in caps], dtype=np.int64)
    t["nhull"] = np.array([len(m.hulls) for m in models], dtype=np.int64)
    t["adj"] = per_tile(lambda m, k: m.adj[k])
    t["gidx"] = per_tile(lambda m, k: m.hulls.index(m.group[k]))
    t["cabin"] = per_tile(lambda m, k: int(k in m.cabins))
    t["luxury"] = per_tile(lambda m, k: int(k in m.luxury))
    t["aliencol"] = per_tile(lambda m, k: ALIENS.index(m.alien_colour[k]) if k in m.alien_colour else -1, -1)
    t["isalien"] = per_tile(lambda m, k: int(k in m.fm.supports))
    t["supports"] = per_tile(lambda m, k: m.fm.supports.get(k, 0))
    t["freec"] = per_tile(lambda m, k: int(m.fm.free_cannon.get(k, False)))
    t["gmask"] = _pad([[sum(1 << k for k in range(m.n) if m.group[k] == h) for h in m.hulls] for m in models], 0, 1)
    # per hull (FlightModel.hull_crew, in the same sorted order as ShipModel.hulls): cabins,
    # the cabins sleepers wake into, stasis chambers
    t["hcab"] = _pad([[sum(1 << k for k in hc[0]) for hc in m.fm.hull_crew] for m in models], 0)
    t["htgt"] = _pad([[sum(1 << k for k in hc[1]) for hc in m.fm.hull_crew] for m in models], 0)
    t["hchm"] = _pad([[sum(1 << k for k in hc[2]) for hc in m.fm.hull_crew] for m in models], 0)
    t["life"] = np.array([[m.life[c] for c in ALIENS] for m in models], dtype=np.int64)
    t["crewtiles"] = np.array([sum(1 << k for k in m.fm.crew_tiles) for m in models], dtype=np.int64)
    t["nbat"] = np.array([len(m.batteries) for m in models], dtype=np.int64)
    t["battile"] = _pad([list(m.batteries) for m in models], -1, B)
    t["batcap"] = _pad([[m.tiles[k].capacity for k in m.batteries] for m in models], 0, B)
    hold_of = [{k: h for h, (k, _, _, _) in enumerate(m.holds)} for m in models]
    t["bathold"] = _pad([[hold_of[p].get(k, -1) if m.tiles[k].kind == "battery_hold" else -1 for k in m.batteries]
                         for p, m in enumerate(models)], -1, B)
    t["nhold"] = np.array([len(m.holds) for m in models], dtype=np.int64)
    t["holdtile"] = _pad([[h[0] for h in m.holds] for m in models], -1, H)
    t["holdnorm"] = _pad([[h[1] for h in m.holds] for m in models], 0, H)
    t["holdspec"] = _pad([[h[2] for h in m.holds] for m in models], 0, H)
    t["holdbat"] = _pad([[h[3] for h in m.holds] for m in models], -1, H)
    t["neng"] = np.array([len(m.engines) for m in models], dtype=np.int64)
    t["engtile"] = _pad([[e[0] for e in m.engines] for m in models])
    t["engpow"] = _pad([[e[1] for e in m.engines] for m in models], 0)
    t["engdbl"] = _pad([[int(e[2]) for e in m.engines] for m in models], 0)
    t["ncan"] = np.array([len(m.cannons) for m in models], dtype=np.int64)
    t["cantile"] = _pad([[c[0] for c in m.cannons] for m in models])
    t["canval"] = _pad([[c[1] for c in m.cannons] for m in models], 0)
    t["candbl"] = _pad([[int(c[2]) for c in m.cannons] for m in models], 0)
    t["canfwd"] = _pad([[int(m.forward[c[0]]) for c in m.cannons] for m in models], 0)
    t["ncb"] = np.array([len(m.cannon_boosters) for m in models], dtype=np.int64)
    t["cbtile"] = _pad([list(m.cannon_boosters) for m in models])
    t["nfur"] = np.array([len(m.furnaces) for m in models], dtype=np.int64)
    t["furtile"] = _pad([list(m.furnaces) for m in models])
    eff = np.zeros((P, N, 4), dtype=np.int64)
    snb = np.full((P, N, 4), -1, dtype=np.int64)
    for p, m in enumerate(models):
        for k in range(m.n):
            for s in range(4):
                eff[p, k, s] = int(bool(m.tiles[k].eff[s]))
                snb[p, k, s] = m.side_nb[k][s]
    t["eff"], t["snb"] = eff, snb
    # sabotage: the square named by two rolls, and the tile on a square
    size = max(m.ship.board.size for m in models)
    sab = np.full((P, 36, 36), size, dtype=np.int64)
    sqtile = np.full((P, size + 1), -1, dtype=np.int64)
    for p, m in enumerate(models):
        b = m.ship.board
        value = [(a // 6 + 1) + (a % 6 + 1) if b.dice == "2d6" else a // 6 + 1 for a in range(36)]
        for a in range(36):
            cs = b.lines_for(Side.N, value[a])
            for r in range(36):
                rs = b.lines_for(Side.E, value[r])
                if len(cs) == 1 and len(rs) == 1:
                    sab[p, a, r] = rs[0] * b.width + cs[0]
        for k, sq in enumerate(m.fm.squares):
            if sqtile[p, sq] < 0:  # the first tile on a square, as the memoised engine looks it up
                sqtile[p, sq] = k
    t["sab"], t["sqtile"] = sab, sqtile
    # the flight kernel's geometry (shipcheck.kernel.Kernel), per player
    kern = [m.fm.kernel for m in models]
    L = max(max(m.ship.board.width, m.ship.board.height) for m in models)
    linem = np.zeros((P, 4, L), dtype=np.int64)
    vuln = np.zeros((P, 4, 4), dtype=np.int64)
    cover = np.zeros((P, 4), dtype=np.int64)
    for p, kr in enumerate(kern):
        for side in range(4):
            for line, lm in kr.lines[side].items():
                linem[p, side, line] = lm
            cover[p, side] = kr.cover[side]
            for ki, kind in enumerate(KINDS):
                vuln[p, ki, side] = kr.vuln[(kind, side)]
    t["linem"], t["vuln"], t["cover"] = linem, vuln, cover
    t["boostable"] = np.array([kr.boostable for kr in kern], dtype=np.int64)
    t["boosters"] = np.array([kr.booster_mask for kr in kern], dtype=np.int64)
    C = max([len(m.fm.cannons) for m in models] + [1])
    brg = np.full((P, 4, 2, L, C), -1, dtype=np.int64)
    brgfree = np.zeros((P, 4, 2, L, C), dtype=np.int64)
    for p, kr in enumerate(kern):
        for side in range(4):
            for tol in range(2):
                for line in range(L):
                    for j, (c, free) in enumerate(kr.bearing(side, tol, line)):
                        brg[p, side, tol, line, j] = c
                        brgfree[p, side, tol, line, j] = int(free)
    t["brg"], t["brgfree"] = brg, brgfree
    # dice: per attack direction, the outcome of each of the 36 pairs, and each outcome's side,
    # bearing tolerance and lines (the flight model's outcomes, shared with the exact engine)
    from shipcheck.cards import Attack

    outs = [[kr.outcomes(Attack("small", d)) for d in DIRECTIONS] for kr in kern]
    O = max(len(o) for per in outs for o in per)
    NL = max([len(o[3]) for per in outs for os in per for o in os] + [1])
    ocell = np.zeros((P, 4, 36), dtype=np.int64)
    oside = np.zeros((P, 4, O), dtype=np.int64)
    otol = np.zeros((P, 4, O), dtype=np.int64)
    onl = np.zeros((P, 4, O), dtype=np.int64)
    olines = np.zeros((P, 4, O, NL), dtype=np.int64)
    for p, m in enumerate(models):
        for d, direction in enumerate(DIRECTIONS):
            _, cell36 = m.fm.outcomes(Attack("small", direction))
            ocell[p, d] = cell36
            for o, (_w, side, tol, lines) in enumerate(outs[p][d]):
                oside[p, d, o] = side
                otol[p, d, o] = tol
                onl[p, d, o] = len(lines)
                olines[p, d, o, : len(lines)] = lines
    t["ocell"], t["oside"], t["otol"], t["onl"], t["olines"] = ocell, oside, otol, onl, olines
    return Ships(**{k: np.ascontiguousarray(t[k], dtype=np.int64) for k in SHIP_FIELDS})


def initial_rows(models: list[ShipModel], S: Ships) -> np.ndarray:
    """``(players, width)``: each player's launch state as a state row."""
    och, ocr, ogd, width = (int(v) for v in S.off)
    rows = np.zeros((len(models), width), dtype=np.int64)
    for p, m in enumerate(models):
        mask, charges, crew, goods, gone = m.initial()
        rows[p, 0] = mask
        rows[p, 1] = gone
        rows[p, och: och + len(charges)] = charges
        rows[p, ocr: ocr + len(crew)] = [ALIEN if c == ALIEN else c for c in crew]
        for h, g in enumerate(goods):
            for c in g:
                rows[p, ogd + 4 * h + c] += 1
    return rows


def _codes(goods: tuple[str, ...]) -> list[int]:
    return sorted(CODE[g] for g in goods)


def card_tables(cards: tuple[Card, ...], types: tuple[str, ...]) -> Cards:
    """The cards a deck can hold as :class:`Cards` (``types``: the card type index order)."""
    K = len(cards)
    t: dict[str, Any] = {}

    def ints(fn: Any) -> np.ndarray:
        return np.array([fn(c) or 0 for c in cards], dtype=np.int64)

    t["ctype"] = np.array([types.index(c.type) for c in cards], dtype=np.int64)
    t["cstr"] = ints(lambda c: c.strength)
    t["cdays"] = ints(lambda c: c.days)
    t["ccred"] = ints(lambda c: c.credits)
    t["ccrewpen"] = ints(lambda c: c.crew_penalty)
    t["cgoodspen"] = ints(lambda c: c.goods_penalty)
    t["ccrewcost"] = ints(lambda c: c.crew_cost)
    t["ccrewreq"] = ints(lambda c: c.crew_required)
    t["ngoods"] = ints(lambda c: len(c.goods or ()))
    t["cgoods"] = _pad([_codes(c.goods or ()) for c in cards], 0)
    planets = [list(c.planets or ()) for c in cards]
    t["npl"] = np.array([len(p) for p in planets], dtype=np.int64)
    NP = max([len(p) for p in planets] + [1])
    G = max([len(g) for p in planets for g in p] + [1])
    nplg = np.zeros((K, NP), dtype=np.int64)
    plg = np.zeros((K, NP, G), dtype=np.int64)
    for i, ps in enumerate(planets):
        for j, g in enumerate(ps):
            nplg[i, j] = len(g)
            plg[i, j, : len(g)] = _codes(g)
    t["nplg"], t["plg"] = nplg, plg
    attacks = [list(c.meteors or ()) if c.type == "meteor_swarm" else list(c.shots or ()) for c in cards]
    t["natt"] = np.array([len(a) for a in attacks], dtype=np.int64)
    t["akind"] = _pad([[KINDS.index(a.kind) for a in att] for att in attacks], 0)
    t["adir"] = _pad([[DIRECTIONS.index(a.side) for a in att] for att in attacks], 0)
    lines = [list(c.lines or ()) for c in cards]
    NLN = max([len(x) for x in lines] + [1])
    S = max([len(ln.shots) for x in lines for ln in x] + [1])
    t["nline"] = np.array([len(x) for x in lines], dtype=np.int64)
    lcrit = np.zeros((K, NLN), dtype=np.int64)
    lpen = np.zeros((K, NLN), dtype=np.int64)
    lamt = np.zeros((K, NLN), dtype=np.int64)
    lns = np.zeros((K, NLN), dtype=np.int64)
    lkind = np.zeros((K, NLN, S), dtype=np.int64)
    ldir = np.zeros((K, NLN, S), dtype=np.int64)
    for i, x in enumerate(lines):
        for j, ln in enumerate(x):
            lcrit[i, j] = CRITERIA.index(ln.criterion)
            lpen[i, j] = PENALTIES.index(ln.penalty)
            lamt[i, j] = ln.amount or 0
            lns[i, j] = len(ln.shots)
            for s, a in enumerate(ln.shots):
                lkind[i, j, s] = KINDS.index(a.kind)
                ldir[i, j, s] = DIRECTIONS.index(a.side)
    t.update(lcrit=lcrit, lpen=lpen, lamt=lamt, lns=lns, lkind=lkind, ldir=ldir)
    return Cards(**{k: np.ascontiguousarray(t[k], dtype=np.int64) for k in CARD_FIELDS})
