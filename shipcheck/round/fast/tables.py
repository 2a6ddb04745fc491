"""The round compiled to integer tables for the compiled kernel (:mod:`.kernel`).

The ships are one ``int64`` array ``S[player, row, column]`` and the cards one array
``C[card, row, column]`` (the rows are named below): one array, not a tuple of them, because every
compiled call passes its arguments by value. The tables are read off the same
:class:`~shipcheck.round.state.ShipModel` and :class:`~shipcheck.flight.FlightModel` objects (and
the flight model's compiled :class:`~shipcheck.kernel.Kernel`) the memoised engine uses, so both
engines start from one description of each ship; the rules that act on them are written twice
(in :mod:`.kernel`, and in :mod:`shipcheck.round.state`, the flight model and the card modules)
and held to the same numbers by ``tests/test_round_fast.py``.

A player's state in a run is one row of ``int64``: ``[mask, gone, spent, charges per battery, crew
per tile, goods per hold and colour]`` (offsets in row :data:`OFFS`), the round state of
:mod:`shipcheck.round.state` with the goods of a hold as counts per colour (a hold's goods are a
sorted tuple there, so the two say the same). ``spent`` is the Techie's free charge used on the
current card; the kernel has no ``away`` (the built-in policies never jump to hyperspace).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shipcheck.cards import Attack, Card
from shipcheck.model import ALIENS

from ..cards.sabotage import named_squares
from ..rulebook import RoundRules
from ..state import CODE, SPECIALISATIONS, ShipModel

__all__ = ["card_tables", "initial_rows", "ship_tables"]

KINDS = ("small-meteor", "large-meteor", "light-shot", "heavy-shot")
DIRECTIONS = ("front", "right", "rear", "left")
CRITERIA = ("crew", "engine_power", "firepower")
PENALTIES = ("days", "crew", "goods", "shots")
MAX_TILES = 62  # masks are int64 words

# The ships: one array S[player, row, column] (a single array keeps the compiled calls cheap).
V = 0  # the player's numbers, in columns:
N_, MULTI, SPEC, ASIDE, CAP, NHULL, CREWTILES, BOOSTABLE, BOOSTERS, NBAT, NHOLD, NENG, NCAN, NCB, NFUR, CABMASK = range(16)
ALMASK = 16  # ALMASK + colour: cabins of an alien of that colour at launch
LIFE = 19  # LIFE + colour: life supports of that colour
ALIENTILES = 22  # tiles of an alien at launch (FlightModel.supports' keys)
# per tile (columns: tiles); EFF + side, SNB + side: connector and neighbouring tile per side
ADJ, GIDX, CABIN, LUXURY, ALIENCOL, SUPPORTS, EFF, SNB = 1, 2, 3, 4, 5, 6, 7, 11
GMASK, HCAB, HTGT, HCHM = 15, 16, 17, 18  # per hull: its tiles, cabins, cabins sleepers wake into, chambers
BATTILE, BATCAP, BATHOLD = 19, 20, 21  # per battery
HOLDTILE, HOLDNORM, HOLDSPEC, HOLDBAT = 22, 23, 24, 25  # per hold
ENGTILE, ENGPOW, ENGDBL = 26, 27, 28  # per engine
CANTILE, CANVAL, CANDBL, CANFWD = 29, 30, 31, 32  # per cannon
CBTILE, FURTILE = 33, 34  # cannon boosters, reactor furnaces
OFFS = 35  # columns 0-3: offsets of the charges, crew and goods in a state row, and its width
LINEM = 36  # + side: the tiles of each line (columns: lines)
VULN = 40  # + attack kind: the tiles a hit damages (columns: sides)
COVER = 44  # shields covering each side (columns: sides)
SQTILE = 45  # the first tile on each square (columns: squares)
OCELL = 46  # + attack direction: the outcome of each dice pair (columns 0-35)
OSIDE, OTOL, ONL = 50, 54, 58  # + direction: each outcome's board side, bearing tolerance, number of lines
OLINES = 62  # + 4 * direction + j: each outcome's line j
NLMAX = 2  # lines one roll names (kernel.flight_step keeps two hits; the packaged boards name at most 2)
SAB = 78  # + column roll: the square a sabotage names for each row roll (columns 0-35)
BRG = 114  # + side * 2 * LMAX + tolerance * LMAX + line: cannons bearing on a large meteor (free ones first)
LMAX = 12
BRGFREE = 4 * 2 * LMAX  # the same rows + BRGFREE: whether each is a free cannon
EPI = BRG + 2 * BRGFREE  # per tile: the tiles an epidemic spreads to from it (the rules' [cards] epidemic)
ROWS = EPI + 1

# The cards: one array C[card, row, column].
CI, CGOODS, NPLG = 0, 1, 2  # the card's numbers (columns below); its goods; goods per planet
CTYPE, CSTR, CDAYS, CCRED, CCREWPEN, CGOODSPEN, CCREWCOST, CCREWREQ, NGOODS, NPL, NATT, NLINE = range(12)
PLG = 3  # + planet: its goods
NPMAX = 6
ATTK, ATTD = 9, 10  # kind and direction of each meteor or shot
LCRIT, LPEN, LAMT, LNS = 11, 12, 13, 14  # per combat line: criterion, penalty, amount, shots
LSK, LSD = 15, 19  # + line: kind and direction of each of its shots
LNMAX = 4
CROWS = 23


def ship_tables(models: list[ShipModel], rules: RoundRules) -> np.ndarray:
    """The players' ships as one ``int64`` array ``S[player, row, column]`` (rows above)."""
    P = len(models)
    N = max(m.n for m in models)
    B = max([len(m.batteries) for m in models] + [1])
    H = max([len(m.holds) for m in models] + [1])
    size = max(m.ship.board.size for m in models)
    L = max(max(m.ship.board.width, m.ship.board.height) for m in models)
    if L > LMAX:
        raise ValueError(f"a board of {L} lines (the fast path takes at most {LMAX})")
    W = max(64, size + 1, 36)
    S = np.zeros((P, ROWS, W), dtype=np.int64)
    och, ocr = 3, 3 + B
    ogd = ocr + N
    S[:, OFFS, :4] = (och, ocr, ogd, ogd + 4 * H)
    S[:, ALIENCOL] = -1
    S[:, SNB:SNB + 4] = -1
    S[:, SQTILE] = -1
    S[:, BRG:BRG + BRGFREE] = -1
    kern = [m.fm.kernel for m in models]
    hold_of = [{k: h for h, (k, _, _, _) in enumerate(m.holds)} for m in models]

    def row(p: int, r: int, values: Any) -> None:
        values = list(values)
        S[p, r, : len(values)] = values

    for p, m in enumerate(models):
        kr = kern[p]
        cap = rules.cap_for(m.ship.board.name, m.ship.board.max_penalty)[0]
        row(p, V, [m.n, int(m.multi), -1 if m.specialisation is None else SPECIALISATIONS.index(m.specialisation),
                   m.aside, -1 if cap is None else cap, len(m.hulls), sum(1 << k for k in m.fm.crew_tiles),
                   kr.boostable, kr.booster_mask, len(m.batteries), len(m.holds), len(m.engines), len(m.cannons),
                   len(m.cannon_boosters), len(m.furnaces), sum(1 << k for k in m.cabins)]
            + [sum(1 << k for k, c in m.alien_colour.items() if c == col) for col in ALIENS]
            + [m.life[c] for c in ALIENS] + [sum(1 << k for k in m.fm.supports)])
        row(p, ADJ, m.adj)
        row(p, EPI, m.adj if rules.epidemic == "joined" else m.near)
        row(p, GIDX, [m.hulls.index(g) for g in m.group])
        row(p, CABIN, [int(k in m.cabins) for k in range(m.n)])
        row(p, LUXURY, [int(k in m.luxury) for k in range(m.n)])
        row(p, ALIENCOL, [ALIENS.index(m.alien_colour[k]) if k in m.alien_colour else -1 for k in range(m.n)])
        row(p, SUPPORTS, [m.fm.supports.get(k, 0) for k in range(m.n)])
        for side in range(4):
            row(p, EFF + side, [int(bool(t.eff[side])) for t in m.tiles])
            row(p, SNB + side, [m.side_nb[k][side] for k in range(m.n)])
        # per hull, in the sorted order of ShipModel.hulls (FlightModel.hull_crew's order)
        row(p, GMASK, [sum(1 << k for k in range(m.n) if m.group[k] == h) for h in m.hulls])
        for r, i in ((HCAB, 0), (HTGT, 1), (HCHM, 2)):
            row(p, r, [sum(1 << k for k in hc[i]) for hc in m.fm.hull_crew])
        row(p, BATTILE, m.batteries)
        row(p, BATCAP, [m.tiles[k].capacity for k in m.batteries])
        row(p, BATHOLD, [hold_of[p].get(k, -1) if m.tiles[k].kind == "battery_hold" else -1 for k in m.batteries])
        for r, i in ((HOLDTILE, 0), (HOLDNORM, 1), (HOLDSPEC, 2), (HOLDBAT, 3)):
            row(p, r, [h[i] for h in m.holds])
        for r, i in ((ENGTILE, 0), (ENGPOW, 1), (ENGDBL, 2)):
            row(p, r, [int(e[i]) for e in m.engines])
        for r, i in ((CANTILE, 0), (CANVAL, 1), (CANDBL, 2)):
            row(p, r, [int(c[i]) for c in m.cannons])
        row(p, CANFWD, [int(m.forward[c[0]]) for c in m.cannons])
        row(p, CBTILE, m.cannon_boosters)
        row(p, FURTILE, m.furnaces)
        # sabotage: the square named by two rolls, and the tile on a square
        S[p, SAB:SAB + 36, :36] = named_squares(m.ship.board, size)
        for k, sq in enumerate(m.fm.squares):
            if S[p, SQTILE, sq] < 0:  # the first tile on a square, as the memoised engine looks it up
                S[p, SQTILE, sq] = k
        # the flight kernel's geometry (shipcheck.kernel.Kernel)
        for side in range(4):
            for line, lm in kr.lines[side].items():
                S[p, LINEM + side, line] = lm
            S[p, COVER, side] = kr.cover[side]
            for ki, kind in enumerate(KINDS):
                S[p, VULN + ki, side] = kr.vuln[(kind, side)]
            for tol in range(2):
                for line in range(L):
                    r = BRG + side * 2 * LMAX + tol * LMAX + line
                    for j, (c, free) in enumerate(kr.bearing(side, tol, line)):
                        S[p, r, j] = c
                        S[p, r + BRGFREE, j] = int(free)
        # dice: per attack direction, the outcome of each of the 36 pairs, and each outcome's side,
        # bearing tolerance and lines (the flight model's outcomes, shared with the exact engine)
        for d, direction in enumerate(DIRECTIONS):
            attack = Attack("small", direction)
            S[p, OCELL + d, :36] = m.fm.outcomes(attack)[1]
            for o, (_w, side, tol, lines) in enumerate(kr.outcomes(attack)):
                if len(lines) > NLMAX:
                    raise ValueError(f"an outcome of {len(lines)} lines (the fast path takes at most {NLMAX})")
                S[p, OSIDE + d, o] = side
                S[p, OTOL + d, o] = tol
                S[p, ONL + d, o] = len(lines)
                for j, line in enumerate(lines):
                    S[p, OLINES + 4 * d + j, o] = line
    return S


def initial_rows(models: list[ShipModel], S: np.ndarray) -> np.ndarray:
    """``(players, width)``: each player's launch state as a state row."""
    och, ocr, ogd, width = (int(v) for v in S[0, OFFS, :4])
    rows = np.zeros((len(models), width), dtype=np.int64)
    for p, m in enumerate(models):
        mask, charges, crew, goods, gone = m.initial()[:5]
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


def card_tables(cards: tuple[Card, ...], types: tuple[str, ...]) -> np.ndarray:
    """The cards a deck can hold as one ``int64`` array ``C[card, row, column]`` (``types``: the card
    type index order)."""
    attacks = [list(c.meteors or ()) if c.type == "meteor_swarm" else list(c.shots or ()) for c in cards]
    planets = [list(c.planets or ()) for c in cards]
    lines = [list(c.lines or ()) for c in cards]
    W = max([12, NPMAX] + [len(a) for a in attacks] + [len(g) for p in planets for g in p]
            + [len(ln.shots) for x in lines for ln in x] + [len(c.goods or ()) for c in cards])
    C = np.zeros((len(cards), CROWS, W), dtype=np.int64)
    for i, c in enumerate(cards):
        if len(planets[i]) > NPMAX or len(lines[i]) > LNMAX:
            raise ValueError(f"card {c.id}: more planets or combat lines than the fast path takes")
        C[i, CI, :12] = (types.index(c.type), c.strength or 0, c.days or 0, c.credits or 0, c.crew_penalty or 0,
                         c.goods_penalty or 0, c.crew_cost or 0, c.crew_required or 0, len(c.goods or ()),
                         len(planets[i]), len(attacks[i]), len(lines[i]))
        g = _codes(c.goods or ())
        C[i, CGOODS, : len(g)] = g
        for j, pg in enumerate(planets[i]):
            C[i, NPLG, j] = len(pg)
            C[i, PLG + j, : len(pg)] = _codes(pg)
        for j, a in enumerate(attacks[i]):
            C[i, ATTK, j] = KINDS.index(a.kind)
            C[i, ATTD, j] = DIRECTIONS.index(a.side)
        for j, ln in enumerate(lines[i]):
            C[i, LCRIT, j] = CRITERIA.index(ln.criterion)
            C[i, LPEN, j] = PENALTIES.index(ln.penalty)
            C[i, LAMT, j] = ln.amount or 0
            C[i, LNS, j] = len(ln.shots)
            for k, a in enumerate(ln.shots):
                C[i, LSK + j, k] = KINDS.index(a.kind)
                C[i, LSD + j, k] = DIRECTIONS.index(a.side)
    return C
