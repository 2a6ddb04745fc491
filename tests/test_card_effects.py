"""What each card type does to a ship, derived by hand: its crew, goods, days, credits (and the
components lost, the charges left, whether it leaves the flight), not its credits alone.

Each case plays one card once on the engine's plain copy (:func:`shipcheck.engine.function`, the
rules a round flies) from the round's launch: the tables a round builds (``round.chunks``), the
card's own function (the one home the architecture page names), then what follows every card
(``engine.encounters.after_card``). ``tools/mutate_cards.py`` changes one line of a card's effect in a
copy of the package and runs this file: every change must fail some case here.

Ships (class I board, columns 5-9, rows 5-9; round 1: the leader starts on 0, the next on -2):
``tests/roundkit.py``'s A (crew 2, engine power 1, firepower 0), B (power 3), C (a 3-slot hold),
D (crew 4: a cabin left of the pilot cabin, first in grid order), E (2 exposed connectors), and
below a station crew (crew 6 and a hold), a trader (the gunship with a hold: firepower 1, 3, 5 for
0, 1, 2 charges) and a raider (three double cannons and three charges: firepower 2, 4, 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from shipcheck import engine
from shipcheck.engine import layout as L
from shipcheck.model import Ship
from shipcheck.round.chunks import CAUSES, ROLLS, Job, build_table
from shipcheck.round.deck import fixed_deck
from shipcheck.round.policy import resolve_policy
from shipcheck.round.rulebook import round_rules
from tests.roundkit import ENGINE, A, B, C, D, E, pair
from tests.shipbuild import ship, tile

COLOURS = ("red", "yellow", "green", "blue")

#: the engine function that plays each card type (as ``engine.run.play`` dispatches)
PLAYS = {"meteor_swarm": "rolled", "slavers": "rolled", "smugglers": "rolled", "pirates": "rolled",
         "combat_zone": "rolled", "abandoned_ship": "offers", "abandoned_station": "offers",
         "planets": "planets", "open_space": "open_space", "sabotage": "sabotage", "stardust": "stardust",
         "epidemic": "epidemics"}


def station_crew() -> Ship:
    """Pilot cabin with a cabin on each side (crew 6), a 3-slot hold above it, an engine below."""
    return ship(tile((7, 7), "start_cabin", "1111") + tile((6, 7), "cabin", "0100") + tile((8, 7), "cabin", "0001")
                + tile((7, 6), "cargo", "0010", slots=3) + ENGINE, extra='name = "station crew"\n')


def trader(goods: list[str] | None = None) -> Ship:
    """The gunship of ``tests/roundkit.py`` with a 3-slot hold below its structural module."""
    kw = {"goods": goods} if goods else {}
    return ship(
        tile((7, 7), "start_cabin", "3333") + tile((7, 6), "double_cannon", "0010")
        + tile((6, 7), "battery", "1100", cells=2) + tile((6, 6), "cannon", "0010")
        + tile((8, 7), "structural", "1011") + tile((8, 6), "double_cannon", "0010")
        + tile((8, 8), "cargo", "1000", slots=3, **kw) + ENGINE, extra='name = "trader"\n')


def raider() -> Ship:
    """Three forward double cannons above the pilot cabin's row, a battery of 3 charges: firepower
    0 free, 2 per charge, 6 with all three."""
    return ship(
        tile((7, 7), "start_cabin", "3333") + tile((7, 6), "double_cannon", "0010")
        + tile((6, 7), "battery", "1100", cells=3) + tile((6, 6), "double_cannon", "0010")
        + tile((8, 7), "structural", "1001") + tile((8, 6), "double_cannon", "0010") + ENGINE,
        extra='name = "raider"\n')


@dataclass(frozen=True)
class After:
    """One ship after the card."""

    crew: int
    goods: tuple[str, ...]  # most valuable first
    days: int  # track spaces moved (negative: back)
    credits: int  # from the card
    lost: int = 0  # components lost
    charges: int | None = None  # left in the batteries (None: not asked)
    out: str = ""  # the cause it left the flight for ("" while it flies)


def fn(module: str, name: str) -> Any:
    return engine.function(module, name, plain=True)


def play(card: str, ships: list[Ship], rolls: tuple[int, ...] = ()) -> list[After]:
    """Card ``card`` once for ``ships`` (in flight order) with the dice pairs ``rolls`` (the rest
    roll a double one: a sum of 2, no line on the class I board)."""
    deck = fixed_deck([card])
    job = Job(tuple(ships), (resolve_policy("default"),) * len(ships), round_rules("1"), deck, len(ships) == 5)
    t = build_table(job).tables(deck.cards)
    S, Cs, R, prices = t["S"], t["C"], t["R"], t["prices"]
    P, W = len(ships), int(S[0, L.OFFS, 3])
    X = t["init"].copy()
    F = np.zeros((L.F_ROWS, P), dtype=np.int64)
    F[L.F_POS] = t["start"]
    tmp = np.zeros(L.TMP, dtype=np.int64)
    w = (np.zeros(W, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(4, dtype=np.int64), tmp,
         np.full((P, 4, t["depth"]), L.LAUNCH, dtype=np.int64))
    ro = np.zeros(ROLLS, dtype=np.int64)
    ro[:len(rolls)] = rolls
    typ = deck.cards[0].type
    fn("encounters", "crewless")(S, R, X, F, prices, tmp)
    fn("encounters", "new_card")(S, R, X, F)
    tmp[L.KIND] = Cs[0, L.CI, L.CTYPE]
    how = PLAYS[typ]
    if how == "rolled":
        fn("encounters", how)(S, Cs, R, X, F, 0, ro, np.zeros(L.GN, dtype=np.int64), prices, w)
    elif how in ("offers", "planets"):
        fn("encounters", how)(S, Cs, R, X, F, 0, prices, w)
    elif how == "open_space":
        fn("encounters", how)(S, Cs, R, X, F, prices, w)
    elif how == "sabotage":
        fn("encounters", how)(S, Cs, R, X, F, prices, ro, w)
    else:
        fn("encounters", how)(S, R, X, F)
    tmp[L.KIND] = L.LAUNCH
    fn("encounters", "after_card")(S, R, X, F, prices, tmp)
    ogd = int(S[0, L.OFFS, 2])
    out = []
    for p in range(P):
        x = X[p]
        holds = int(S[p, L.V, L.NHOLD])
        counts = x[ogd:ogd + 4 * holds].reshape(holds, 4).sum(axis=0) if holds else np.zeros(4, dtype=np.int64)
        out.append(After(
            crew=int(fn("crew", "crew_count")(S, p, x)),
            goods=tuple(COLOURS[c] for c in range(4) for _ in range(int(counts[c]))),
            days=int(F[L.F_POS, p] - t["start"][p]),
            credits=int(F[L.F_CRED, p]),
            lost=int(fn("hull", "lost")(S, p, x)),
            charges=int(fn("charges", "all_charges")(S, p, x)),
            out=CAUSES[int(F[L.F_OUT, p])] if F[L.F_OUT, p] else ""))
    return out


def same(got: list[After], want: list[After]) -> None:
    """``got`` as ``want`` says (a charge count of None is not asked)."""
    for g, e in zip(got, want, strict=True):
        assert (g if e.charges is not None else After(**{**g.__dict__, "charges": None})) == e, (g, e)


#: (card, its type, ships, dice pairs, what each ship is left with), derived by hand
CASES = [
    # I-18 abandoned ship (crew 2, 3 credits, 1 day): D (crew 4) alone accepts: its cabin empties
    # (crew 2 left), 3 credits, back 1 day; no goods
    ("I-18", "abandoned_ship", [D], (), [After(crew=2, goods=(), days=-1, credits=3)]),
    # I-17 (crew 3, 4 credits): D keeps one human: crew 1, 4 credits, back 1
    ("I-17", "abandoned_ship", [D], (), [After(crew=1, goods=(), days=-1, credits=4)]),
    # A leading would be left without a human: it declines; D (second, on -2) pays 2 crew and moves
    # back one empty space, to -3
    ("I-18", "abandoned_ship", [A, D], (), [After(crew=2, goods=(), days=0, credits=0),
                                           After(crew=2, goods=(), days=-1, credits=3)]),
    # I-19 abandoned station (crew 5 needed, yellow + green, 1 day): the station crew (6) docks and
    # loads both, keeps its crew, back 1 day, no credits
    ("I-19", "abandoned_station", [station_crew], (),
     [After(crew=6, goods=("yellow", "green"), days=-1, credits=0)]),
    # C (crew 2) cannot dock: nothing changes
    ("I-19", "abandoned_station", [C], (), [After(crew=2, goods=(), days=0, credits=0)]),
    # I-13 planets (2 days): C's hold has no special slot, so red is worth nothing to it: the
    # yellow planet (3) beats [red, blue, blue] (2); it loads the yellow and loses 2 days
    ("I-13", "planets", [C], (), [After(crew=2, goods=("yellow",), days=-2, credits=0)]),
    # A has no hold: it does not land, loses no day
    ("I-13", "planets", [A], (), [After(crew=2, goods=(), days=0, credits=0)]),
    # I-05 open space: B (engine power 3) moves 3 forward; A (1) from -2 moves 1 (to -1)
    ("I-05", "open_space", [B, A], (), [After(crew=2, goods=(), days=3, credits=0),
                                       After(crew=2, goods=(), days=1, credits=0)]),
    # a ship without engine power gives up in open space, where it is (and keeps what it has)
    ("I-05", "open_space", [lambda: ship(tile((7, 7), "start_cabin", "0000"), extra='name = "drifter"\n')], (),
     [After(crew=2, goods=(), days=0, credits=0, out="no_engine_power")]),
    # I-04 stardust: E (2 exposed connectors) back 2 days; A (none) stays
    ("I-04", "stardust", [E, A], (), [After(crew=2, goods=(), days=-3, credits=0),
                                     After(crew=2, goods=(), days=0, credits=0)]),
    # II-05 epidemic: D's pilot cabin and cabin (2 + 2, next to each other) lose 1 each: crew 2
    ("II-05", "epidemic", [D], (), [After(crew=2, goods=(), days=0, credits=0)]),
    # A alone: its pilot cabin has no occupied cabin next to it: no loss
    ("II-05", "epidemic", [A], (), [After(crew=2, goods=(), days=0, credits=0)]),
    # III-04 sabotage: A (crew 2) has fewer than D (4): it rolls column 7 (3 + 4) and row 8 (4 + 4),
    # its engine's square: the engine is lost; crew, days and credits unchanged
    ("III-04", "sabotage", [A, D], (pair(3, 4), pair(4, 4)),
     [After(crew=2, goods=(), days=0, credits=0, lost=1), After(crew=4, goods=(), days=0, credits=0)]),
    # I-01 slavers (strength 6, crew 3): D (firepower 0) loses 3 crew: its cabin's 2, then 1 in the
    # pilot cabin; no days, no credits
    ("I-01", "slavers", [D], (), [After(crew=1, goods=(), days=0, credits=0)]),
    # II-01 slavers (strength 7, 8 credits, 2 days): the raider's 6 loses: crew 4 wanted, its 2 go
    # and it leaves the flight without humans; it declared nothing (no charge wins or ties)
    ("II-01", "slavers", [raider], (), [After(crew=0, goods=(), days=0, credits=0, charges=3, out="no_humans")]),
    # I-02 smugglers (strength 4, 2 goods): C (firepower 0) with yellow, green, blue loses the two
    # most valuable (yellow, green), keeps the blue
    ("I-02", "smugglers", [lambda: C(["yellow", "green", "blue"])], (),
     [After(crew=2, goods=("blue",), days=0, credits=0)]),
    # the trader wins with both charges (5 > 4): loads the yellow, green and blue, back 1 day
    ("I-02", "smugglers", [trader], (),
     [After(crew=2, goods=("yellow", "green", "blue"), days=-1, credits=0, charges=0)]),
    # I-03 pirates (strength 5, 4 credits, 1 day): the raider wins with three charges (6 > 5):
    # 4 credits, back 1 day
    ("I-03", "pirates", [raider], (), [After(crew=2, goods=(), days=-1, credits=4, charges=0)]),
    # the trader ties with both charges (5): nothing but the charges spent
    ("I-03", "pirates", [trader], (), [After(crew=2, goods=(), days=0, credits=0, charges=0)]),
    # A loses: the first light shot rolls column 7 (3 + 4) and destroys the pilot cabin (the engine
    # below it stays, a piece of its own); without humans A leaves
    ("I-03", "pirates", [A], (pair(3, 4),),
     [After(crew=0, goods=(), days=0, credits=0, lost=1, out="no_humans")]),
    # I-09 meteor swarm: the large meteor from the front rolls column 6 (3 + 3): B's structural
    # module there is destroyed and the engine below it (joined to it alone) falls off: 2 lost; the
    # small meteors roll a 2 (no line); crew, days and credits unchanged
    ("I-09", "meteor_swarm", [B], (pair(3, 3),), [After(crew=2, goods=(), days=0, credits=0, lost=2)]),
    # I-16 combat zone: crew -> 3 days: A (2) < D (4): A back 3 empty spaces from 0 (-1, -3, -4: D is
    # on -2); engine power -> 2 crew: both 1, D is ahead: D's cabin empties; firepower -> shots:
    # both 0, D ahead: both shots roll a 2 (no line)
    ("I-16", "combat_zone", [A, D], (), [After(crew=2, goods=(), days=-4, credits=0),
                                        After(crew=2, goods=(), days=0, credits=0)]),
    # the same, the light shot from the rear rolling column 7 (3 + 4): it meets D's engine (7,8)
    # first and destroys it; the heavy shot rolls a 2
    ("I-16", "combat_zone", [A, D], (pair(3, 4),), [After(crew=2, goods=(), days=-4, credits=0),
                                                   After(crew=2, goods=(), days=0, credits=0, lost=1)]),
    # II-16 combat zone: firepower -> 4 days: the trader (1) beats A (0): A back 4 from -2 (to -6);
    # engine power -> 3 goods: both 1, the trader is ahead: it loses its 3 goods; crew -> shots:
    # both 2, the trader ahead: the four shots roll a 2 (no line)
    ("II-16", "combat_zone", [lambda: trader(["yellow", "green", "blue"]), A], (),
     [After(crew=2, goods=(), days=0, credits=0), After(crew=2, goods=(), days=-4, credits=0)]),
]


def test_every_card_type_has_a_case() -> None:
    from shipcheck.cards import CARD_TYPES

    assert {typ for _, typ, *_ in CASES} == set(CARD_TYPES) == set(PLAYS)


@pytest.mark.parametrize("card,typ,ships,rolls,want", CASES,
                         ids=[f"{c}-{t}-{i}" for i, (c, t, *_) in enumerate(CASES)])
def test_what_the_card_does(card: str, typ: str, ships: list[Any], rolls: tuple[int, ...], want: list[After]
                            ) -> None:
    from shipcheck.cards import find_card

    assert find_card(card).type == typ
    same(play(card, [s() for s in ships], rolls), want)
