"""The engine's data: the layout of a player's state row, and the ship and card tables.

The rules (:mod:`shipcheck.engine`) read a ship from one ``int64`` array ``S[player, row, column]``
and the cards from one array ``C[card, row, column]`` (the rows are named below; one array, not a
tuple of them, because every compiled call passes its arguments by value). :func:`ship_tables`
reads them off the ship's description (:class:`~shipcheck.flight.chain.FlightModel`, the tile tables of
:class:`~shipcheck.round.state.ShipModel` and the line tables of the flight model's
:class:`~shipcheck.flight.kernel.Kernel`); nothing here is a rule.

A player's state in a run is one row of ``int64``: ``[mask, gone, spent, away, charges per battery,
crew per tile, goods per hold and colour]`` (offsets in row :data:`OFFS`; the fields are told at
:func:`initial_rows`). The numbers here are numpy integers, not Python ints: numba would compile a
function once more for every literal argument.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from shipcheck.cards import Attack, Card
from shipcheck.model import ALIENS, DIRECTION_SIDE
from shipcheck.runtime import PLAIN_SUFFIX
from shipcheck.topology import MAX_LINES_HIT, Side

__all__ = ["card_tables", "initial_rows", "roll_line", "ship_tables"]

# attack kinds, alien colours, specialisations, card types, causes (the orders of KINDS, ALIENS,
# SPECIALISATIONS, engine.TYPES and race.CAUSES; tests/test_round_fast.py checks them)
# the compiled engine's words are int64. Its plain copy (shipcheck.runtime.plain_package) takes Python's
# own ints: a round flies it on tables of Python ints (engine.python_ints), which numpy's int64
# constants would turn back into int64, and slower, at every operation they meet (the same values:
# no word of the engine overflows as plain Python, as masks stop at bit 61)
_i: Any = int if __name__.endswith(f"{PLAIN_SUFFIX}.layout") else np.int64
SMALL, LARGE, LIGHT, HEAVY = _i(0), _i(1), _i(2), _i(3)
PURPLE, ORANGE, CYAN = _i(0), _i(1), _i(2)
LAWYER, MANAGER, MERCHANT, TECHIE, DIPLOMAT = _i(0), _i(1), _i(2), _i(3), _i(4)
SPENT = 2  # the state row's column: the Techie's free charge used on this card
AWAY = 3  # the state row's column: the tiles of a half in hyperspace
NONE = _i(-2)  # no hull
(SLAVERS, SMUGGLERS, PIRATES, STARDUST, EPIDEMIC, SABOTAGE, OPEN_SPACE, METEOR_SWARM, PLANETS, COMBAT_ZONE,
 ABANDONED_SHIP, ABANDONED_STATION) = (_i(t) for t in range(12))
NO_HUMANS, NO_ENGINES, LAPPED, HYPERSPACE, VOLUNTARY = _i(1), _i(2), _i(3), _i(4), _i(5)
WIN, TIE, LOSE = _i(2), _i(1), _i(0)
ALIEN = _i(-1)
ANY = _i(-1)  # any hull / no cannon / no player
ZERO = _i(0)
WAKE_PLACES = 2
# regions of the scratch array (no allocation inside the loop): per hull (at most 8), per cannon and
# per hold (at most 64), goods counts, a roll's situation and a decision against it (SIT_*, DEC_*
# below), a crew order (per tile, at most 64), saved charges (per battery)
POWER, LIVE, NDBL, BYH, CV, CT, FN, FS, GAIN, LOAD, SAVE, KIND, SIT, DEC, ORDER, SAVE2, TMP = (
    0, 8, 16, 24, 32, 96, 160, 224, 288, 300, 312, 376, 377, 392, 432, 496, 560)
# a roll's situation (tmp[SIT + ...]): lines named, board side, bearing tolerance, the hull that
# defends (-1 any, -2 none), shields aboard covering the side (of that hull), a boosted one among
# them, and per line (at most 2) the line, the tile hit (-1: none) and whether it needs defending
SIT_NL, SIT_SIDE, SIT_TOL, SIT_HULL, SIT_SHIELDS, SIT_BOOSTED, SIT_LINE, SIT_HIT, SIT_NEED = 0, 1, 2, 3, 4, 5, 6, 8, 10
# a decision (tmp[DEC + ...]): shield, boosted shield, the cannon fired per line (-1: none), the
# charges drawn and from which batteries (flight.Decision)
DEC_SHIELD, DEC_BOOSTED, DEC_CANNON, DEC_NDRAW, DEC_DRAW = 0, 1, 2, 4, 5
DEC_DRAWS = 32  # the most charges one decision may draw
# decisions a player makes (RoundPolicy's methods and the flight policy), asked of Python for the
# players whose policy overrides them (bit d of the player's ``ask``), else the built-in code
(D_FLIGHT, D_OPEN_SPACE, D_FIGHT, D_COMBAT, D_REWARD, D_PLANET, D_SHIP, D_STATION, D_CREW, D_GIVE_UP,
 D_HYPERSPACE, D_DIPLOMAT) = (_i(t) for t in range(12))
DECISIONS = ("flight", "open_space", "fight", "combat", "take_reward", "planet", "abandoned_ship",
             "abandoned_station", "crew_order", "give_up", "hyperspace", "diplomat")
LAUNCH = _i(127)  # race.LAUNCH: the provenance of goods aboard at launch
OFF = _i(np.iinfo(np.int32).min // 2)
BIG = _i(np.iinfo(np.int64).max)
# G: the registers of a card rolled a roll at a time (cards.card_step): where it is (the attack
# index of the roll it waits for, its combat line), the players that roll strikes (0: none waits),
# the attack's kind and direction; the card's own numbers (the ships pirates beat; a combat line's
# weakest and second-weakest, those the Diplomat spared, the shot the second-weakest is spared);
# and what the first player met (G_FOUGHT: 1 + its fight's result; G_HIT: the combat lines that hit it)
G_J, G_LINE, G_WHO, G_KIND, G_DIR, G_BEATEN, G_FIRST, G_SECOND, G_SPARED, G_HEAVY, G_FOUGHT, G_HIT = range(12)
GN = 12
# F: a run's rows per player in one (F_ROWS, P) array, so that a card function is passed one array for
# them all (numba passes each array as several words and counts a reference to each argument at
# every call): track positions, the cause a player gave up for (0 while flying), credits from cards,
# credits of goods sold by halves that left, two rows of cards left in hyperspace (``F[F_HH]``: the
# ship's, ``F[F_HH + 1]``: a IIA half away), the values a Combat Zone line or a Sabotage compares;
# then the scratch rows of the track's moves (flight order, who is on, who moves, how far)
F_POS, F_OUT, F_CRED, F_SOLD, F_HH, F_VALUES, F_ORDER, F_ON, F_MOVERS, F_STEPS = 0, 1, 2, 3, 4, 6, 7, 8, 9, 10
F_ROWS = 11
# R: the race's numbers (R_TID: the key of the Python side of the players' decisions, jit.callback)
R_P, R_FIVE, R_WEAKEST, R_TRACK, R_BEST, R_LUXURY, R_TID = range(7)

# -- the tables ----------------------------------------------------------------------------------

COLOURS = ("red", "yellow", "green", "blue")
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
POLICY, ASK, TID = 23, 24, 25  # built-in policy (0 default, 1 racing), decisions asked of Python, the callback key
NEB = 26  # engine boosters
# per tile (columns: tiles); ACROSS + side: the tiles whose neighbour across that side is this one
ADJ, GIDX, CABIN, LUXURY, ALIENCOL, SUPPORTS, ACROSS = 1, 2, 3, 4, 5, 6, 7
CONNS = 11  # per side (columns 0-3): the tiles with a connector on that side; 4 + side: those with a tile across it
GMASK, HCAB, HTGT, HCHM = 12, 13, 14, 15  # per hull: its tiles, cabins, cabins sleepers wake into, chambers
BATTILE, BATCAP, BATHOLD = 16, 17, 18  # per battery
HOLDTILE, HOLDNORM, HOLDSPEC, HOLDBAT = 19, 20, 21, 22  # per hold
ENGTILE, ENGPOW, ENGDBL = 23, 24, 25  # per engine
CANTILE, CANVAL, CANDBL, CANFWD = 26, 27, 28, 29  # per cannon
CBTILE, FURTILE = 30, 31  # cannon boosters, reactor furnaces
OFFS = 32  # columns 0-3: offsets of the charges, crew and goods in a state row, and its width
LINEM = 33  # + side: the tiles of each line (columns: lines)
VULN = 37  # + attack kind: the tiles a hit damages (columns: sides)
COVER = 41  # shields covering each side (columns: sides)
SQTILE = 42  # the first tile on each square (columns: squares)
OCELL = 43  # + attack direction: the outcome of each dice pair (columns 0-35)
OSIDE, OTOL, ONL = 47, 51, 55  # + direction: each outcome's board side, bearing tolerance, number of lines
OLINES = 59  # + 4 * direction + j: each outcome's line j
NLMAX = MAX_LINES_HIT  # lines one roll names (kernel.flight_step keeps two hits; board files are held to it)
SAB = 75  # + column roll: the square a sabotage names for each row roll (columns 0-35)
BRG = 111  # + side * 2 * LMAX + tolerance * LMAX + line: cannons bearing on a large meteor (free ones first)
LMAX = 12
BRGFREE = 4 * 2 * LMAX  # the same rows + BRGFREE: whether each is a free cannon
EPI = BRG + 2 * BRGFREE  # per tile: the tiles an epidemic spreads to from it (the rules' [cards] epidemic)
EBTILE = EPI + 1  # engine boosters
ROWS = EBTILE + 1

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


class SoloRules:
    """The round numbers :func:`ship_tables` reads, for a ship on its own: the board's own cap, and
    an epidemic rule (``"adjacent"`` or ``"joined"``)."""

    def __init__(self, epidemic: str = "adjacent") -> None:
        self.epidemic = epidemic

    def cap_for(self, board_name: str, board_cap: int | None) -> tuple[int | None, None]:
        return board_cap, None


CABINS = ("start_cabin", "cabin", "luxury_cabin")
SPECIALISATIONS = ("lawyer", "manager", "merchant", "techie", "diplomat")


def engine_power(tile: Any) -> tuple[int, bool] | None:
    """An engine's power and whether it needs a charge (rules §7.1): a double engine 2 for one
    charge, an engine or a cannon engine 1; None for a tile that is no engine."""
    if tile.kind == "double_engine":
        return 2, True
    if tile.kind in ("engine", "cannon_engine"):
        return 1, False
    return None


def cannon_power(tile: Any, front: int) -> tuple[int, bool] | None:
    """A cannon's firepower in half units and whether it needs a charge (rules §7.2): a barrel to
    the ship's ``front`` side counts in full (2), any other half (1); a double cannon twice that for
    one charge, a bidirectional cannon its barrels for one charge; None for a tile that is no cannon."""
    if tile.kind not in ("cannon", "cannon_engine", "double_cannon", "bidirectional_cannon"):
        return None
    per = 2 if tile.kind == "double_cannon" else 1
    return sum(2 * per if s == front else per for s in tile.barrels), tile.kind in ("double_cannon",
                                                                                   "bidirectional_cannon")


def alien_bonus(power, manager):  # type: ignore[no-untyped-def]
    """What an alien adds to the power of its colour (rules §7): an orange alien to the engine
    power, a purple one to the firepower, 2 (3 with the Manager, Latest Models) when the power
    without it is above 0, else nothing. Whole units: a firepower in half units adds twice it.

    The one home of the rule: the engine (:mod:`shipcheck.engine.power`, compiled with it, whose
    power and firepower are ``stats``' ladders) and ``stats``' power with a charge for every double
    both ask it. Written in the subset of Python numba compiles."""
    if power <= 0:
        return 0
    return 3 if manager else 2


def hold_slots(tile: Any) -> tuple[int, int] | None:
    """A cargo hold's ordinary and special (red-capable) slots; a battery hold's slots are ordinary
    (its charges take them too); None for a tile that holds no goods."""
    slots = int(tile.attr("slots", 0) or 0)
    if tile.kind in ("cargo", "battery_hold"):
        return slots, 0
    if tile.kind == "special_cargo":
        return 0, slots
    if tile.kind == "mixed_cargo":
        sp = min(slots, int(tile.attr("special_slots", 0) or 0))
        return slots - sp, sp
    return None


class Description:
    """A ship's tiles as the engine's tables read them (:func:`ship_tables`): its cabins, aliens and
    life supports, batteries, cargo holds, engines, cannons (firepower in half units, rules §7.2),
    boosters, furnaces, cyan specialisation, neighbours, and what it pays for besides its losses; on
    top of the flight model ``fm`` (the tiles, their joins, hulls and crew)."""

    def __init__(self, ship: Any, fm: Any) -> None:
        self.ship = ship
        self.fm = fm
        tiles = fm.tiles
        self.tiles = tiles
        self.n = len(tiles)
        self.group = fm.group
        self.hulls = tuple(sorted({g for g in fm.group}))
        self.multi = fm.multi_hull
        self.adj = fm.adj
        front = int(ship.ship_side("front"))
        self.cabins = tuple(k for k, t in enumerate(tiles) if t.kind in CABINS)
        self.alien_colour = {k: t.crew for k, t in enumerate(tiles) if t.kind in CABINS and t.crew in ALIENS}
        self.luxury = tuple(k for k, t in enumerate(tiles) if t.kind == "luxury_cabin")
        self.life = {c: sum(1 << k for k, t in enumerate(tiles) if t.kind == "life_support" and t.attr("color") == c)
                     for c in ALIENS}
        self.batteries = fm.batteries
        self.battery_index = {k: i for i, k in enumerate(self.batteries)}
        # holds: (tile, ordinary slots, special slots, battery index or -1)
        self.holds = tuple((k, *h, self.battery_index[k] if t.kind == "battery_hold" else -1)
                           for k, t in enumerate(tiles) if (h := hold_slots(t)) is not None)
        # engines: (tile, power, needs a charge)
        self.engines = tuple((k, *e) for k, t in enumerate(tiles) if (e := engine_power(t)) is not None)
        # cannons: (tile, firepower in half units, needs a charge)
        self.cannons = tuple((k, *c) for k, t in enumerate(tiles) if (c := cannon_power(t, front)) is not None)
        self.forward = {k: front in tiles[k].barrels for k, _, _ in self.cannons}
        self.cannon_boosters = tuple(k for k, t in enumerate(tiles) if t.kind == "cannon_booster")
        self.engine_boosters = tuple(k for k, t in enumerate(tiles) if t.kind == "engine_booster")
        self.furnaces = tuple(k for k, t in enumerate(tiles) if t.kind == "reactor_furnace")
        meta = dict(ship.meta)
        spec = meta.get("cyan")
        self.specialisation = spec if isinstance(spec, str) and spec in SPECIALISATIONS else None
        self.notes: list[str] = []
        if any(c == "cyan" for c in self.alien_colour.values()):
            if self.specialisation is None:
                self.notes.append("cyan alien without a specialisation ([meta] cyan = \"manager\", \"merchant\", "
                                  "\"lawyer\", \"techie\", \"diplomat\"): no effect")
            elif self.specialisation == "diplomat":
                self.notes.append("cyan diplomat: the policy decides when to use him (once; the default and racing "
                                  "policies: the first lost fight against slavers or pirates, or the first "
                                  "combat-zone line of crew or shots to hit the ship; provisional)")
        # neighbour tile per side, for exposed connectors
        pos = {t.at: k for k, t in enumerate(tiles)}
        nb = ship.board.nb
        self.side_nb = tuple(tuple(pos.get(nb[t.at][s], -1) if nb[t.at][s] >= 0 else -1 for s in range(4))
                             for t in tiles)
        # tiles on the next square, joined or not (an epidemic "adjacent" reading, OQ14)
        self.near = tuple(sum(1 << j for j in set(row) if j >= 0) for row in self.side_nb)
        self.full = fm.full
        # components paid for at the end besides those lost in flight: set aside, and a pilot cabin
        # never placed on a board that counts it as lost (Ship.pilot_lost)
        self.aside = len(ship.aside) + int(ship.pilot_lost)


class Geometry:
    """A ship's tiles seen from each side, once per flight model: the tiles of each grid line, which
    tiles a hit of each attack kind damages (a small meteor only a connector; plating's smooth sides
    nothing), the shields covering each side, the shields joined to a booster, and per (side,
    tolerance, line) the cannons that bear on a large meteor there (free ones first, grid order)."""

    def __init__(self, fm: Any) -> None:
        tiles = fm.tiles
        n = fm.n
        full = fm.full
        w = fm.ship.board.width
        cols = [0] * w
        rows: dict[int, int] = {}
        plating = 0
        conn = [0, 0, 0, 0]
        bit = 1
        for t in tiles:
            r, c = divmod(t.at, w)
            cols[c] |= bit
            rows[r] = rows.get(r, 0) | bit
            for side in range(4):
                if t.eff[side]:
                    conn[side] |= bit
            if t.kind == "plating":
                plating |= bit
            bit <<= 1
        by_col = {c: x for c, x in enumerate(cols) if x}
        #: per board side, per grid line, the tiles of the line (columns from N and S, rows from E and W)
        self.lines: dict[int, dict[int, int]] = {0: by_col, 1: rows, 2: by_col, 3: rows}
        plated = [plating & ~x for x in conn]
        #: per (attack kind, side): the tiles a hit damages unless defended
        self.vuln: dict[tuple[str, int], int] = {}
        for side in range(4):
            self.vuln[(KINDS[0], side)] = conn[side]
            for kind in KINDS[1:]:
                self.vuln[(kind, side)] = full & ~plated[side]
        cover = [0, 0, 0, 0]
        for s in fm.shields:
            for side in tiles[s].covers:
                cover[side] |= 1 << s
        #: per side: the shields covering it
        self.cover = cover
        self.booster_mask = fm.boosters
        #: shields joined to a shield booster
        self.boostable = sum(1 << s for s in fm.shields if fm.adj[s] & fm.boosters)
        self._cannons = tuple((c, tiles[c].barrels, *divmod(tiles[c].at, w), fm.free_cannon[c]) for c in fm.cannons)
        self._bearing: dict[tuple[int, int, int], tuple[tuple[int, bool], ...]] = {}
        self.n = n

    def facing(self, side: int) -> tuple[tuple[int, bool], ...]:
        """The cannons (tile, fires free) with a barrel towards board ``side``: those that may bear
        on a large meteor from it, on some line (:meth:`bearing`), in grid order."""
        return tuple((c, is_free) for c, barrels, _, _, is_free in self._cannons if side in barrels)

    def bearing(self, side: int, tol: int, line: int) -> tuple[tuple[int, bool], ...]:
        """The cannons (tile, fires free) that bear on a large meteor down ``line`` from ``side``
        within ``tol`` lines (contract §4, :func:`tolerance`), free ones first, each group in grid
        order: those :meth:`facing` it on the line or ``tol`` lines beside it."""
        key = (side, tol, line)
        hit = self._bearing.get(key)
        if hit is None:
            free: list[tuple[int, bool]] = []
            paid: list[tuple[int, bool]] = []
            for c, barrels, r, col, is_free in self._cannons:
                if side in barrels and abs((col if side in (0, 2) else r) - line) <= tol:
                    (free if is_free else paid).append((c, is_free))
            hit = self._bearing[key] = tuple(free + paid)
        return hit


def tolerance(direction: str) -> int:
    """How many lines beside a large meteor's a cannon may stand and still bear on it (contract
    §4): 0 for a meteor from the front, 1 from the sides and the rear (:meth:`Geometry.bearing`)."""
    return 0 if direction == "front" else 1


def geometry(fm: Any) -> Geometry:
    """The flight model's :class:`Geometry`, built once."""
    g = fm.__dict__.get("_geometry")
    if g is None:
        g = fm.__dict__["_geometry"] = Geometry(fm)
    return g  # type: ignore[no-any-return]


def outcome_table(fm: Any, attack: Attack) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    """Per outcome of ``attack``: (weight out of 36, board side, bearing tolerance, lines); shared by
    every ship with the same board and front."""
    b = fm.ship.board
    cache = b.__dict__.setdefault("_kernel_outcomes", {})
    key = (int(fm.ship.front_side), attack.side)
    hit = cache.get(key)
    if hit is None:
        outs, _ = fm.outcomes(attack)
        hit = cache[key] = tuple(
            (o.prob.numerator * (36 // o.prob.denominator), o.side, tolerance(o.direction), o.lines)
            for o in outs)
    return hit  # type: ignore[no-any-return]


def roll_line(board: Any, front: int, direction: str | None, d1: int, d2: int
              ) -> tuple[int, str | None, int, tuple[int, ...]]:
    """Which grid lines a roll of two dice ``d1``, ``d2`` names on ``board`` (rules §8.2): the
    board side it comes from, its direction after any redirection, the value that picks the lines
    and the lines of that value (columns from N and S, rows from E and W). Two dice summed on a 2d6
    board; on a 1d6 board the first die, unless the board redirects an attack from ``direction``
    on it: then the second die, from the new direction. ``direction``: the attack's ship-relative
    side, the ship's front facing board side ``front``; None for sabotage's rolls, from board side
    ``front`` itself and never redirected. The one home of the rule: the flight model's outcomes
    (:func:`shipcheck.flight.chain.board_outcomes`) and sabotage's squares (:func:`named_squares`)."""
    value = d1 + d2 if board.dice == "2d6" else d1
    if direction is None:
        return front, None, value, board.lines_for(Side(front), value)
    if board.dice != "2d6":
        new = board.redirect_map().get(direction, {}).get(d1)
        if new is not None:
            direction, value = new, d2
    side = (DIRECTION_SIDE[direction] + front) % 4
    return side, direction, value, board.lines_for(Side(side), value)


def named_squares(board: Any, none: int) -> np.ndarray:
    """``(36, 36)``: the grid square a (column roll, row roll) pair of dice pair indices names on
    ``board`` (:func:`roll_line` from N and from E), ``none`` where it names none."""
    tab = np.full((36, 36), none, dtype=np.int64)
    cols = [roll_line(board, Side.N, None, a // 6 + 1, a % 6 + 1)[3] for a in range(36)]
    rows = [roll_line(board, Side.E, None, r // 6 + 1, r % 6 + 1)[3] for r in range(36)]
    for a in range(36):
        cs = cols[a]
        for r in range(36):
            rs = rows[r]
            if len(cs) == 1 and len(rs) == 1:
                tab[a, r] = rs[0] * board.width + cs[0]
    return tab


def _named_squares(board: Any, none: int) -> np.ndarray:
    cache = board.__dict__.setdefault("_named_squares", {})
    hit = cache.get(none)
    if hit is None:
        hit = cache[none] = named_squares(board, none)
    return hit  # type: ignore[no-any-return]


def ship_tables(models: list[Any], rules: Any) -> np.ndarray:
    """The players' ships (:class:`~shipcheck.round.state.ShipModel`) as one ``int64`` array
    ``S[player, row, column]`` (rows above), under the round's ``rules``."""
    N = max(m.n for m in models)
    B = max([len(m.batteries) for m in models] + [1])
    H = max([len(m.holds) for m in models] + [1])
    size = max(m.ship.board.size for m in models)
    L = max(max(m.ship.board.width, m.ship.board.height) for m in models)
    if L > LMAX:
        raise ValueError(f"a board of {L} lines (the fast path takes at most {LMAX})")
    W = max(64, size + 1, 36)
    S = np.empty((len(models), ROWS, W), dtype=np.int64)
    for p, m in enumerate(models):
        cap = rules.cap_for(m.ship.board.name, m.ship.board.max_penalty)[0]
        key = (N, B, H, size, L, W, cap, rules.epidemic)
        kept = m.__dict__.setdefault("_rows", {})  # the same opponents fly in every round of a search
        if key not in kept:
            kept[key] = _player_rows(m, key)
        S[p] = kept[key]
    return S


def _player_rows(m: Any, key: tuple[Any, ...]) -> np.ndarray:
    """One player's rows of :func:`ship_tables` (``key``: the table's sizes, the player's cap and the
    round's epidemic rule)."""
    N, B, H, size, L, W, cap, epidemic = key
    S = np.zeros((ROWS, W), dtype=np.int64)
    och, ocr = 4, 4 + B
    ogd = ocr + N
    S[OFFS, :4] = (och, ocr, ogd, ogd + 4 * H)
    S[ALIENCOL] = -1
    S[SQTILE] = -1
    S[BRG:BRG + BRGFREE] = -1
    hold_of = {k: h for h, (k, _, _, _) in enumerate(m.holds)}

    def row(r: int, values: Any) -> None:
        values = list(values)
        S[r, : len(values)] = values

    kr = geometry(m.fm)
    row(V, [m.n, int(m.multi), -1 if m.specialisation is None else SPECIALISATIONS.index(m.specialisation),
            m.aside, -1 if cap is None else cap, len(m.hulls), sum(1 << k for k in m.fm.crew_tiles),
            kr.boostable, kr.booster_mask, len(m.batteries), len(m.holds), len(m.engines), len(m.cannons),
            len(m.cannon_boosters), len(m.furnaces), sum(1 << k for k in m.cabins)]
        + [sum(1 << k for k, c in m.alien_colour.items() if c == col) for col in ALIENS]
        + [m.life[c] for c in ALIENS] + [sum(1 << k for k in m.fm.supports)])
    S[V, NEB] = len(m.engine_boosters)
    row(ADJ, m.adj)
    row(EPI, m.adj if epidemic == "joined" else m.near)
    row(GIDX, [m.hulls.index(g) for g in m.group])
    row(CABIN, [int(k in m.cabins) for k in range(m.n)])
    row(LUXURY, [int(k in m.luxury) for k in range(m.n)])
    row(ALIENCOL, [ALIENS.index(m.alien_colour[k]) if k in m.alien_colour else -1 for k in range(m.n)])
    row(SUPPORTS, [m.fm.supports.get(k, 0) for k in range(m.n)])
    for side in range(4):  # exposed connectors (hull.exposed)
        S[CONNS, side] = sum(1 << k for k, t in enumerate(m.tiles) if t.eff[side])
        S[CONNS, 4 + side] = sum(1 << k for k in range(m.n) if m.side_nb[k][side] >= 0)
        for k in range(m.n):
            j = m.side_nb[k][side]
            if j >= 0:
                S[ACROSS + side, j] |= 1 << k
    # per hull, in the sorted order of ShipModel.hulls (FlightModel.hull_crew's order)
    row(GMASK, [sum(1 << k for k in range(m.n) if m.group[k] == h) for h in m.hulls])
    for r, i in ((HCAB, 0), (HTGT, 1), (HCHM, 2)):
        row(r, [sum(1 << k for k in hc[i]) for hc in m.fm.hull_crew])
    row(BATTILE, m.batteries)
    row(BATCAP, [m.tiles[k].capacity for k in m.batteries])
    row(BATHOLD, [hold_of.get(k, -1) if m.tiles[k].kind == "battery_hold" else -1 for k in m.batteries])
    for r, i in ((HOLDTILE, 0), (HOLDNORM, 1), (HOLDSPEC, 2), (HOLDBAT, 3)):
        row(r, [h[i] for h in m.holds])
    for r, i in ((ENGTILE, 0), (ENGPOW, 1), (ENGDBL, 2)):
        row(r, [int(e[i]) for e in m.engines])
    for r, i in ((CANTILE, 0), (CANVAL, 1), (CANDBL, 2)):
        row(r, [int(c[i]) for c in m.cannons])
    row(CANFWD, [int(m.forward[c[0]]) for c in m.cannons])
    row(EBTILE, m.engine_boosters)
    row(CBTILE, m.cannon_boosters)
    row(FURTILE, m.furnaces)
    # sabotage: the square named by two rolls, and the tile on a square
    S[SAB:SAB + 36, :36] = _named_squares(m.ship.board, size)
    for k, sq in enumerate(m.fm.squares):
        if S[SQTILE, sq] < 0:  # the first tile on a square, as the memoised engine looks it up
            S[SQTILE, sq] = k
    # the flight geometry (Geometry)
    for side in range(4):
        for line, lm in kr.lines[side].items():
            S[LINEM + side, line] = lm
        S[COVER, side] = kr.cover[side]
        for ki, kind in enumerate(KINDS):
            S[VULN + ki, side] = kr.vuln[(kind, side)]
        for tol in range(2):
            for line in range(L):
                r = BRG + side * 2 * LMAX + tol * LMAX + line
                for j, (c, free) in enumerate(kr.bearing(side, tol, line)):
                    S[r, j] = c
                    S[r + BRGFREE, j] = int(free)
    # dice: per attack direction, the outcome of each of the 36 pairs, and each outcome's side,
    # bearing tolerance and lines (the flight model's outcomes, shared with the exact engine)
    for d, direction in enumerate(DIRECTIONS):
        attack = Attack("small", direction)
        S[OCELL + d, :36] = m.fm.outcomes(attack)[1]
        for o, (_w, side, tol, lines) in enumerate(outcome_table(m.fm, attack)):
            if len(lines) > NLMAX:
                raise ValueError(f"an outcome of {len(lines)} lines (the fast path takes at most {NLMAX})")
            S[OSIDE + d, o] = side
            S[OTOL + d, o] = tol
            S[ONL + d, o] = len(lines)
            for j, line in enumerate(lines):
                S[OLINES + 4 * d + j, o] = line
    return S


def initial_rows(models: list[Any], S: np.ndarray) -> np.ndarray:
    """``(players, width)``: each player's launch state as a state row: ``mask`` the tiles aboard,
    ``gone`` those of IIA halves that left the flight, ``spent`` the Techie's free charge used on the
    current card, ``away`` the tiles of a IIA half in hyperspace while the other flies (their fields
    wait untouched: every rule reads the tiles of ``mask`` only), the charges per battery, per tile
    its crew (humans, ``ALIEN``, or sleepers in a stasis chamber) and per cargo hold the goods of
    each colour (0 red ... 3 blue, most valuable first)."""
    och, ocr, ogd, width = (int(v) for v in S[0, OFFS, :4])
    rows = np.zeros((len(models), width), dtype=np.int64)
    for p, m in enumerate(models):
        mask, charges, crew, goods, gone = m.initial()[:5]
        rows[p, 0] = mask
        rows[p, 1] = gone  # (spent and away start at 0)
        rows[p, och: och + len(charges)] = charges
        rows[p, ocr: ocr + len(crew)] = crew  # ALIEN (-1) as itself
        for h, g in enumerate(goods):
            for c in g:
                rows[p, ogd + 4 * h + c] += 1
    return rows


def _codes(goods: tuple[str, ...]) -> list[int]:
    return sorted(COLOURS.index(g) for g in goods)


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
