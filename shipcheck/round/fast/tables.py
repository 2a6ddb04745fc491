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
from shipcheck.model import ALIENS, Side

from ..rulebook import RoundRules
from ..state import CODE, SPECIALISATIONS, ShipModel

__all__ = ["CARD_FIELDS", "SHIP_FIELDS", "Cards", "Ships", "card_tables", "initial_rows", "ship_tables"]

KINDS = ("small-meteor", "large-meteor", "light-shot", "heavy-shot")
DIRECTIONS = ("front", "right", "rear", "left")
CRITERIA = ("crew", "engine_power", "firepower")
PENALTIES = ("days", "crew", "goods", "shots")
MAX_TILES = 62  # masks are int64 words

# per-player numbers: V[p, row]
N_, MULTI, SPEC, ASIDE, CAP, NHULL, CREWTILES, BOOSTABLE, BOOSTERS, NBAT, NHOLD, NENG, NCAN, NCB, NFUR, CABMASK = range(16)
ALMASK = 16  # ALMASK + colour: cabins of an alien of that colour at launch
LIFE = 19  # LIFE + colour: life supports of that colour
# per tile: T[p, row, tile] (EFF + side, SNB + side: connector and neighbour tile per side)
ADJ, GIDX, CABIN, LUXURY, ALIENCOL, ISALIEN, SUPPORTS, EFF, SNB = 0, 1, 2, 3, 4, 5, 6, 7, 11
# per hull HU[p, row, hull]; per battery BA; per hold HO; per engine EN; per cannon CA; lists LI
GMASK, HCAB, HTGT, HCHM = range(4)
BATTILE, BATCAP, BATHOLD = range(3)
HOLDTILE, HOLDNORM, HOLDSPEC, HOLDBAT = range(4)
ENGTILE, ENGPOW, ENGDBL = range(3)
CANTILE, CANVAL, CANDBL, CANFWD = range(4)
CBTILE, FURTILE = range(2)
# per outcome of an attack direction: OI[p, row, direction, outcome]
OSIDE, OTOL, ONL = range(3)

SHIP_FIELDS = (
    "off",  # [charges, crew, goods] offsets into a state row, and the row's width
    "V", "T", "HU", "BA", "HO", "EN", "CA", "LI",
    "sab", "sqtile",  # sabotage: square named by two rolls; first tile on a square
    "linem", "vuln", "cover",  # tiles per (side, line); tiles a hit damages per (kind, side); shields per side
    "BRG",  # [free?, side, tolerance, line, j]: cannons bearing on a large meteor, free ones first
    "ocell", "OI", "olines",  # outcome of each dice pair per direction; outcomes' side, tolerance, lines
)
# per card: CI[card, row]; its goods, planets' goods, meteors or shots, combat lines and their shots
CTYPE, CSTR, CDAYS, CCRED, CCREWPEN, CGOODSPEN, CCREWCOST, CCREWREQ, NGOODS, NPL, NATT, NLINE = range(12)
CARD_FIELDS = (
    "CI", "cgoods",
    "nplg", "plg",  # goods per planet, and their codes
    "ATT",  # [kind, direction] per meteor or shot
    "LN",  # [criterion, penalty, amount, shots] per combat line
    "LS",  # [kind, direction] per combat line's shot
)
Ships: Any = namedtuple("Ships", SHIP_FIELDS)  # type: ignore[misc]  # (fields from a tuple)
Cards: Any = namedtuple("Cards", CARD_FIELDS)  # type: ignore[misc]


def _pad(rows: list[list[Any]], fill: int = -1, width: int | None = None) -> np.ndarray:
    w = max([len(r) for r in rows] + [width or 1])
    out = np.full((len(rows), w), fill, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def _rows(rows: list[list[list[int]]], fill: int = -1) -> np.ndarray:
    """``(players, rows, width)`` from per-player lists of equal-count rows, padded."""
    P, R = len(rows), len(rows[0])
    w = max([len(r) for per in rows for r in per] + [1])
    out = np.full((P, R, w), fill, dtype=np.int64)
    for p, per in enumerate(rows):
        for i, r in enumerate(per):
            out[p, i, : len(r)] = r
    return out


def ship_tables(models: list[ShipModel], rules: RoundRules) -> Any:
    """The players' ships as :class:`Ships`."""
    P = len(models)
    N = max(m.n for m in models)
    B = max([len(m.batteries) for m in models] + [1])
    H = max([len(m.holds) for m in models] + [1])
    och, ocr = 2, 2 + B
    ogd = ocr + N
    t: dict[str, Any] = {"off": np.array([och, ocr, ogd, ogd + 4 * H], dtype=np.int64)}
    V = np.zeros((P, LIFE + len(ALIENS)), dtype=np.int64)
    T = np.zeros((P, SNB + 4, N), dtype=np.int64)
    T[:, ALIENCOL] = -1
    T[:, SNB:] = -1
    kern = [m.fm.kernel for m in models]
    for p, m in enumerate(models):
        cap = rules.cap_for(m.ship.board.name, m.ship.board.max_penalty)[0]
        V[p, :ALMASK] = [m.n, int(m.multi), -1 if m.specialisation is None else SPECIALISATIONS.index(m.specialisation),
                       m.aside, -1 if cap is None else cap, len(m.hulls), sum(1 << k for k in m.fm.crew_tiles),
                       kern[p].boostable, kern[p].booster_mask, len(m.batteries), len(m.holds), len(m.engines),
                       len(m.cannons), len(m.cannon_boosters), len(m.furnaces), sum(1 << k for k in m.cabins)]
        V[p, ALMASK:ALMASK + 3] = [sum(1 << k for k, c in m.alien_colour.items() if c == col) for col in ALIENS]
        V[p, LIFE:] = [m.life[c] for c in ALIENS]
        for k in range(m.n):
            T[p, ADJ, k] = m.adj[k]
            T[p, GIDX, k] = m.hulls.index(m.group[k])
            T[p, CABIN, k] = int(k in m.cabins)
            T[p, LUXURY, k] = int(k in m.luxury)
            T[p, ALIENCOL, k] = ALIENS.index(m.alien_colour[k]) if k in m.alien_colour else -1
            T[p, ISALIEN, k] = int(k in m.fm.supports)
            T[p, SUPPORTS, k] = m.fm.supports.get(k, 0)
            for s in range(4):
                T[p, EFF + s, k] = int(bool(m.tiles[k].eff[s]))
                T[p, SNB + s, k] = m.side_nb[k][s]
    t["V"], t["T"] = V, T
    # per hull (FlightModel.hull_crew, in the sorted order of ShipModel.hulls): its tiles, cabins,
    # the cabins sleepers wake into, stasis chambers
    t["HU"] = _rows([[[sum(1 << k for k in range(m.n) if m.group[k] == h) for h in m.hulls],
                      [sum(1 << k for k in hc[0]) for hc in m.fm.hull_crew],
                      [sum(1 << k for k in hc[1]) for hc in m.fm.hull_crew],
                      [sum(1 << k for k in hc[2]) for hc in m.fm.hull_crew]] for m in models], 0)
    hold_of = [{k: h for h, (k, _, _, _) in enumerate(m.holds)} for m in models]
    t["BA"] = _rows([[list(m.batteries), [m.tiles[k].capacity for k in m.batteries],
                      [hold_of[p].get(k, -1) if m.tiles[k].kind == "battery_hold" else -1 for k in m.batteries]]
                     for p, m in enumerate(models)])
    t["HO"] = _rows([[[h[i] for h in m.holds] for i in range(4)] for m in models])
    t["EN"] = _rows([[[e[0] for e in m.engines], [e[1] for e in m.engines], [int(e[2]) for e in m.engines]]
                     for m in models])
    t["CA"] = _rows([[[c[0] for c in m.cannons], [c[1] for c in m.cannons], [int(c[2]) for c in m.cannons],
                      [int(m.forward[c[0]]) for c in m.cannons]] for m in models])
    t["LI"] = _rows([[list(m.cannon_boosters), list(m.furnaces)] for m in models])
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
    C = max([len(m.fm.cannons) for m in models] + [1])
    brg = np.full((P, 2, 4, 2, L, C), -1, dtype=np.int64)
    for p, kr in enumerate(kern):
        for side in range(4):
            for tol in range(2):
                for line in range(L):
                    for j, (c, free) in enumerate(kr.bearing(side, tol, line)):
                        brg[p, 0, side, tol, line, j] = c
                        brg[p, 1, side, tol, line, j] = int(free)
    t["BRG"] = brg
    # dice: per attack direction, the outcome of each of the 36 pairs, and each outcome's side,
    # bearing tolerance and lines (the flight model's outcomes, shared with the exact engine)
    from shipcheck.cards import Attack

    outs = [[kr.outcomes(Attack("small", d)) for d in DIRECTIONS] for kr in kern]
    n_out = max(len(o) for per in outs for o in per)
    NL = max([len(o[3]) for per in outs for os in per for o in os] + [1])
    ocell = np.zeros((P, 4, 36), dtype=np.int64)
    oi = np.zeros((P, 3, 4, n_out), dtype=np.int64)
    olines = np.zeros((P, 4, n_out, NL), dtype=np.int64)
    for p, m in enumerate(models):
        for d, direction in enumerate(DIRECTIONS):
            ocell[p, d] = m.fm.outcomes(Attack("small", direction))[1]
            for o, (_w, side, tol, lines) in enumerate(outs[p][d]):
                oi[p, :, d, o] = (side, tol, len(lines))
                olines[p, d, o, : len(lines)] = lines
    t["ocell"], t["OI"], t["olines"] = ocell, oi, olines
    return Ships(**{k: np.ascontiguousarray(t[k], dtype=np.int64) for k in SHIP_FIELDS})


def initial_rows(models: list[ShipModel], S: Any) -> np.ndarray:
    """``(players, width)``: each player's launch state as a state row."""
    och, ocr, ogd, width = (int(v) for v in S.off)
    rows = np.zeros((len(models), width), dtype=np.int64)
    for p, m in enumerate(models):
        mask, charges, crew, goods, gone = m.initial()
        rows[p, 0] = mask
        rows[p, 1] = gone
        rows[p, och: och + len(charges)] = charges
        rows[p, ocr: ocr + len(crew)] = crew  # ALIEN (-1) as itself
        for h, g in enumerate(goods):
            for c in g:
                rows[p, ogd + 4 * h + c] += 1
    return rows


def _codes(goods: tuple[str, ...]) -> list[int]:
    return sorted(CODE[g] for g in goods)


def card_tables(cards: tuple[Card, ...], types: tuple[str, ...]) -> Any:
    """The cards a deck can hold as :class:`Cards` (``types``: the card type index order)."""
    K = len(cards)
    t: dict[str, Any] = {}
    attacks = [list(c.meteors or ()) if c.type == "meteor_swarm" else list(c.shots or ()) for c in cards]
    planets = [list(c.planets or ()) for c in cards]
    lines = [list(c.lines or ()) for c in cards]
    t["CI"] = np.array([[types.index(c.type), c.strength or 0, c.days or 0, c.credits or 0, c.crew_penalty or 0,
                         c.goods_penalty or 0, c.crew_cost or 0, c.crew_required or 0, len(c.goods or ()),
                         len(planets[i]), len(attacks[i]), len(lines[i])] for i, c in enumerate(cards)], dtype=np.int64)
    t["cgoods"] = _pad([_codes(c.goods or ()) for c in cards], 0)
    NP = max([len(p) for p in planets] + [1])
    G = max([len(g) for p in planets for g in p] + [1])
    nplg = np.zeros((K, NP), dtype=np.int64)
    plg = np.zeros((K, NP, G), dtype=np.int64)
    for i, ps in enumerate(planets):
        for j, g in enumerate(ps):
            nplg[i, j] = len(g)
            plg[i, j, : len(g)] = _codes(g)
    t["nplg"], t["plg"] = nplg, plg
    t["ATT"] = _rows([[[KINDS.index(a.kind) for a in att], [DIRECTIONS.index(a.side) for a in att]] for att in attacks],
                     0)
    NLN = max([len(x) for x in lines] + [1])
    S = max([len(ln.shots) for x in lines for ln in x] + [1])
    ln_ = np.zeros((K, 4, NLN), dtype=np.int64)
    ls = np.zeros((K, 2, NLN, S), dtype=np.int64)
    for i, x in enumerate(lines):
        for j, ln in enumerate(x):
            ln_[i, :, j] = (CRITERIA.index(ln.criterion), PENALTIES.index(ln.penalty), ln.amount or 0, len(ln.shots))
            for s, a in enumerate(ln.shots):
                ls[i, :, j, s] = (KINDS.index(a.kind), DIRECTIONS.index(a.side))
    t["LN"], t["LS"] = ln_, ls
    return Cards(**{k: np.ascontiguousarray(t[k], dtype=np.int64) for k in CARD_FIELDS})
