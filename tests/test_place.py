"""The placement advisor (shipcheck.advice): legal placements against brute force, hand-built
rankings, exact numbers against the exact engine run from scratch, input errors and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from clikit import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shipbuild import PILOT, ship, tile
from test_checker_properties import ship_texts

from shipcheck.advice import advise, legal_placements, parse_tile, parse_weights, place, weld
from shipcheck.advice.roundcards import round_cards
from shipcheck.check.rules import check
from shipcheck.errors import InputError
from shipcheck.flight.odds import odds
from shipcheck.model import KINDS, AsideTile, Ship
from shipcheck.shipfile import load_ship, parse_ship


def tile_key(s: Ship, at: int) -> tuple:
    t = s.tile_at(at)
    assert t is not None
    return (at, t.eff, tuple(sorted(t.barrels)), tuple(sorted(t.exhausts)), tuple(sorted(t.covers)))


def brute_force(s: Ship, hand: AsideTile) -> set[tuple]:
    """Every empty square and every rotation, judged by the checker: no error the ship did not have."""
    before = {v.key() for v in check(s).errors}
    out = set()
    for at in range(s.board.size):
        if s.tile_at(at) is not None:
            continue
        for rot in range(4):
            new = weld(s, hand, at, rot)
            if {v.key() for v in check(new).errors} <= before:
                out.add(tile_key(new, at))
    return out


def advisor_keys(s: Ship, hand: AsideTile) -> list[tuple]:
    return [tile_key(c.ship, c.at) for c in legal_placements(s, hand)]


def square(s: Ship, text: str) -> int:
    return next(i for i in range(s.board.size) if s.board.cell_text(i) == text)


HANDS = [k for k in sorted(KINDS) if k != "start_cabin"]


@st.composite
def hands(draw: st.DrawFn) -> AsideTile:
    kind = draw(st.sampled_from(HANDS))
    info = KINDS[kind]
    func = set(info.barrels + info.exhausts)
    sides = "".join("0" if s in func else str(draw(st.integers(0, 3))) for s in range(4))
    attrs = tuple(sorted((a, v[0]) for a, v in info.attrs.items() if v and a in info.required))
    if kind == "mixed_cargo":
        attrs = (("slots", 2), ("special_slots", 1))
    return AsideTile(kind=kind, sides=sides, attrs=attrs)


# -- legal placements -----------------------------------------------------------------------------
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(ship_texts(boards=["I", "II", "IA", "IIA", "IC", "IIIC", "IVC"], max_tiles=8), hands())
def test_legal_placements_equal_brute_force(text: str, hand: AsideTile) -> None:
    s = parse_ship(text)
    got = advisor_keys(s, hand)
    assert len(got) == len(set(got)), "a rotation giving the same tile is listed twice"
    assert set(got) == brute_force(s, hand)


@pytest.mark.parametrize("spec", ["cannon:0111", "engine:1101", "shield:1111", "2007:5", "structural:3333",
                                  "bidirectional_cannon:0030", "life_support:0300:color=purple"])
def test_legal_placements_on_a_ship_being_built(spec: str) -> None:
    s = ship(PILOT + tile((7, 6), "cabin", "1131") + tile((6, 7), "battery", "0113", cells=2)
             + tile((7, 8), "engine", "3000"))
    hand = parse_tile(spec)
    assert set(advisor_keys(s, hand)) == brute_force(s, hand)


def test_symmetric_tile_listed_once() -> None:
    s = ship(PILOT)
    # a structural 3333 looks the same in every rotation: one candidate a square
    cands = legal_placements(s, parse_tile("structural:3333"))
    assert sorted(c.at for c in cands) == sorted({c.at for c in cands})
    assert {c.rot for c in cands} == {0}
    # a 3030 pipe: a half turn gives the same tile
    pipes = legal_placements(s, parse_tile("structural:3030"))
    assert {c.rot for c in pipes} <= {0, 1}


def test_cannon_facing_a_cabin_is_never_listed() -> None:
    # a cabin north of the pilot; squares west and east of the cabin and of the pilot are open
    s = ship(PILOT + tile((7, 6), "cabin", "0333"))
    cands = legal_placements(s, parse_tile("cannon:0333"))
    assert cands
    for c in cands:
        for side in c.tile.barrels:
            j = s.board.nb[c.at][side]
            assert j < 0 or s.tile_at(j) is None, (c.at, c.rot)
    # beside the cabin, at (6, 6), the barrel turned east (rot 90) would face it: never listed
    west = square(s, "(6,6)")
    assert not any(c.at == west and c.rot == 1 for c in cands)
    assert any(c.at == west for c in cands)  # other turns of the cannon go there


def test_placements_do_not_add_to_an_illegal_ship() -> None:
    # the ship breaks C1 already; placements must leave that as it is and add nothing
    s = ship(PILOT + tile((8, 7), "structural", "0000"))
    assert not check(s).legal
    hand = parse_tile("structural:3333")
    assert set(advisor_keys(s, hand)) == brute_force(s, hand)
    a = advise(s, hand, exact=False, credits=False)
    assert a.notes and "illegal already" in a.notes[0]


# -- ranking ------------------------------------------------------------------------------------------
# The pilot cabin walled in by smooth sides, but for one single connector to the front at (7, 6); a
# battery (a shield needs a charge) west of the pilot.
WALLED = (PILOT + tile((7, 6), "structural", "1030") + tile((6, 7), "battery", "0100", cells=2)
          + tile((8, 7), "structural", "0001") + tile((7, 8), "structural", "1000"))


def test_shield_covering_the_only_exposed_side_wins() -> None:
    s = ship(WALLED)
    assert check(s).legal and check(s).exposed_by_side == (1, 0, 0, 0)
    # a vertical pipe shield fits only at (7, 5); turned 0 it covers front and right, turned 180 rear and left
    a = advise(s, "shield:3030", credits=False)
    assert [(p.at, p.rot) for p in a.placements] == [((7, 5), 0), ((7, 5), 180)]
    assert [(p.index, p.turns) for p in a.placements] == [(s.board.nb[s.board.nb[s.pilot.at][0]][0], 0),
                                                          (s.board.nb[s.board.nb[s.pilot.at][0]][0], 2)]
    best, other = a.placements
    assert best.rank == 1 and 0 in best.ship.tile_at(best.index).covers
    assert best.loss is not None and other.loss is not None and best.loss < other.loss
    # any tile at (7, 5) takes the front's hits for the tiles behind it; the covering shield also saves itself
    assert "small-meteor:front" in best.shields
    assert best.own is not None and other.own is not None and best.own < other.own
    assert "light-shot:rear" in other.shields and "light-shot:rear" not in best.shields
    assert best.exposed == other.exposed == 0  # the shield's N connector replaces the structural one


@pytest.mark.parametrize("hand", ["cannon:0111", "2007:5", "shield:3333"])
def test_exact_numbers_equal_the_engine_from_scratch(hand: str) -> None:
    # "2007:5" (sides 1113) and the shield of universal sides are all connectors: turns that keep the
    # joins fly alike and are worked out once; every placement's numbers must still be its own
    s = ship(PILOT + tile((7, 6), "cabin", "1131") + tile((6, 7), "battery", "0113", cells=2))
    rc = round_cards("1")
    a = advise(s, hand, round=1, credits=False)
    assert a.exact and a.placements

    def round_loss(x: Ship) -> tuple[Fraction, Fraction]:
        loss = sum((w * odds(x, c.attacks()).expected_lost for c, w in rc.cards), Fraction(0))
        surv = sum((w * odds(x, c.attacks()).p_survive for c, w in rc.cards), Fraction(0)) / rc.total_weight
        return loss, surv

    base_loss, base_surv = round_loss(s)
    for p in a.placements:
        loss, surv = round_loss(p.ship)
        assert p.loss == loss - base_loss and p.survive == surv - base_surv
        assert p.own is not None and 0 <= p.own <= loss
    assert check(a.placements[0].ship).legal


def test_scores_follow_the_weights() -> None:
    s = ship(PILOT)
    a = advise(s, "double_engine:3300", exact=False, credits=False, weigh="weld=0,engine=2,exposed=1,blocked=0.25")
    for p in a.placements:
        assert p.params["engine"] == 2
        assert p.score == pytest.approx(2 * 2 - 1 * p.exposed - 0.25 * p.blocked)
    assert [p.score for p in a.placements] == sorted((p.score for p in a.placements), reverse=True)


def test_set_aside_when_nothing_improves_or_fits() -> None:
    walled = ship(WALLED)
    # nothing joins a smooth-sided tile: set aside
    a = advise(walled, "structural:0000", exact=False, credits=False)
    assert a.placements == () and a.set_aside and "no legal placement" in a.reason
    # a plain structural tile with no worth given to welding it only adds exposed connectors
    b = advise(walled, "structural:3333", weigh="weld=0", exact=False, credits=False)
    assert b.placements and b.set_aside and "no placement improves" in b.reason
    assert not advise(walled, "structural:3000", exact=False, credits=False).set_aside  # it closes the open connector


def test_place_frame() -> None:
    s = ship(PILOT + tile((7, 6), "cabin", "1131"))
    df = place(s, "2007:5", round="learning", top=3, credits=False)
    assert list(df["rank"]) == [1, 2, 3]
    assert {"at", "square", "rot", "score", "exposed", "loss", "survive", "own", "engine", "firepower", "crew",
            "cargo", "battery", "shields", "exposes"} <= set(df.columns)
    assert set(df["rot"]) <= {0, 90, 180, 270}
    assert isinstance(df.attrs["set_aside"], bool)
    assert all(isinstance(a, list) and len(a) == 2 for a in df["at"])
    # numeric columns for pivots, the same square as `at`
    assert df["col"].dtype.kind == "i" and df["row"].dtype.kind == "i"
    assert [[c, r] for c, r in zip(df["col"], df["row"])] == list(df["at"])


def test_placements_name_squares_and_turns_as_ship_files_do() -> None:
    s = ship(WALLED)
    a = advise(s, "shield:3030", credits=False, exact=False)
    best = a.placements[0]
    assert best.at == (7, 5) and best.rot == 0 and a.placements[1].rot == 180
    assert best.square == "(7,5)" and repr(best.index) == "(7,5)"
    assert best.ship.tile_at(best.index) is not None and best.to_dict()["at"] == [7, 5]
    # one line each, naming the square and the turn
    assert "\n" not in repr(best) and "(7,5) rot 0" in repr(best)
    assert "\n" not in repr(a) and len(repr(a)) < 200 and "(7,5)" in repr(a)
    assert "<pre" in a._repr_html_() or "<table" in a._repr_html_() or "<div" in a._repr_html_()


# -- input ---------------------------------------------------------------------------------------------
def test_parse_tile() -> None:
    assert parse_tile("2007:5").kind == "battery"
    t = parse_tile("battery:1113:cells=3")
    assert (t.kind, t.sides, t.attrs) == ("battery", "1113", (("cells", 3),))
    assert parse_tile("mixed_cargo:1010:slots=3,special_slots=1").attrs == (("slots", 3), ("special_slots", 1))
    assert parse_tile("life_support:0300:color=purple").attrs == (("color", "purple"),)


@pytest.mark.parametrize("spec, word", [
    ("cannonx:0111", "unknown tile kind"), ("cannon:1111", "barrel"), ("battery:1113", "needs `cells`"),
    ("cargo:1111:slots=9", "slots"), ("2021:5", "another edition"), ("2007:999", "no such tile"),
    ("cannon:01", "side string"), ("battery:1113:cells", "attribute"),
    # what a ship file refuses in a tile's table, the tile in hand refuses too (it was dropped silently)
    ("cabin:1111:foo=1", "unknown tile attribute `foo`"), ("cabin:1111:crew=robots", "unknown tile attribute `crew`"),
    ("battery:1111:cells=2,charge=-1", "`charge`"), ("engine:1000:charge=7", "`charge`"),
    ("cabin:1111:kind=engine", "`kind`"), ("cabin:1111:id=2007:5", "`id`"),
    ("battery:1111:cells=2,cells=3", "repeated tile attribute `cells`"),
])
def test_bad_tiles(spec: str, word: str) -> None:
    with pytest.raises(InputError) as exc:
        parse_tile(spec)
    assert word in str(exc.value) and exc.value.key == "tile"


@pytest.mark.parametrize("tile", ["start_cabin:3333", "2007:31"])
def test_a_second_pilot_cabin_has_no_placement_and_says_why(tile: str) -> None:
    # it was ranked, and the ship it made was no ship file (two pilot cabins)
    start = load_ship(Path(__file__).resolve().parents[1] / "examples" / "building" / "class-I-start.toml")
    a = advise(start, tile, credits=False, exact=False)
    assert a.placements == () or list(a.placements) == []
    assert "pilot cabin already" in a.reason


def test_bad_weights_and_round() -> None:
    assert parse_weights("loss=3")["loss"] == 3.0
    for text in ("speed=1", "loss=fast"):
        with pytest.raises(InputError):
            parse_weights(text)
    with pytest.raises(InputError):
        round_cards("7")
    with pytest.raises(InputError):
        round_cards("3", "2021")  # the 2021 edition has no level-III cards


# -- the command ---------------------------------------------------------------------------------------

SHIP = "examples/building/class-I-start.toml"


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "place", SHIP, "cannon:0111", "--format", "json", "--top", "2", "--no-credits")
    assert code == 0
    doc = json.loads(out)
    assert len(doc["placements"]) == 2
    first = doc["placements"][0]
    assert {"at", "rot", "rank", "score", "exposed", "loss", "survive"} <= set(first)
    assert first["rank"] == 1 and first["rot"] in (0, 90, 180, 270)
    assert doc["placements"][0]["score"] >= doc["placements"][1]["score"]
    assert "credits" not in first


def test_cli_ranks_by_credits_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    # the round simulator is part of the package: without --no-credits the change in expected credits
    # over whole rounds joins the look-ahead's value that ranks the placements (issues #11, #29), the
    # same numbers as the library's default
    code, out, _ = run(capsys, "place", SHIP, "cannon:0111", "--format", "json", "--no-exact", "--runs", "200")
    assert code == 0
    doc = json.loads(out)
    creds = [p["credits"] for p in doc["placements"]]
    values = [p["value"] for p in doc["placements"]]
    assert creds and values == sorted(values, reverse=True) and "credits" in doc["ranking"]
    for p in doc["placements"]:
        look = p["room"] + 6 * p["options"] + 10 * p["fit"] + 20 * p["after"]
        assert p["value"] == pytest.approx(look + 0.3 * p["score"] + p["credits"])
    assert all(lo <= c <= hi for c, (lo, hi) in zip(creds, (p["credits_ci"] for p in doc["placements"])))
    # the seed is random unless given, and always reported: the library repeats the run from it
    assert doc["runs"] == 200 and isinstance(doc["seed"], int)
    lib = advise(load_ship(SHIP), "cannon:0111", exact=False, runs=200, seed=doc["seed"])
    assert lib.seed == doc["seed"] and [p.credits for p in lib.placements] == pytest.approx(creds)


def test_cli_text_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "place", SHIP, "2007:5", "--no-exact", "--no-credits")
    assert code == 0 and "rank" in out and "advice:" in out
    code, out, _ = run(capsys, "place", SHIP, "shield:1111", "--no-credits")
    assert code == 0 and " / " in out and not any(x.rstrip().endswith("/") or x.lstrip().startswith("/ ")
                                                  for x in out.splitlines())
    code, out, _ = run(capsys, "place", SHIP, "2007:5", "--no-exact", "--no-credits", "--show", "1")
    assert code == 0 and "placement 1:" in out and "BAT" in out


@pytest.mark.parametrize("args", [
    ("cannon:9999",), ("2007:5", "--weigh", "speed=2"), ("2007:5", "--round", "9"), ("2007:5", "--show", "99"),
    ("2007:5", "--runs", "0"), ("2007:5", "--seed", "-1"), ("2007:5", "--round", "4"),
])
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, out, err = run(capsys, "place", SHIP, *args, "--no-exact", "--no-credits")
    assert code == 2 and err.startswith("shipcheck: error:") and "Traceback" not in err


# -- ranking by credits (the round simulator) ---------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("hand", ["shield:3030", "battery:1113:cells=2"])
def test_credits_are_paired_differences_of_whole_rounds(hand: str) -> None:
    # WALLED takes tiles at (7, 5) only: the shield turned to the front or to the rear; the battery in
    # four turns that fly alike (all sides connectors), simulated once and reported for each
    import shipcheck.round as rnd
    s = ship(WALLED)
    a = advise(s, hand, exact=False, credits=True, runs=300, seed=5)
    assert a.placements
    creds = [p.credits for p in a.placements]
    assert all(c is not None for c in creds)
    assert creds == sorted(creds, reverse=True)  # type: ignore[type-var]
    base = rnd.simulate_round(s, round="1", runs=300, seed=5, keep_runs=True).ship_result  # the same seed: the same decks and dice
    for p in a.placements:
        r = rnd.simulate_round(p.ship, round="1", runs=300, seed=5, keep_runs=True).ship_result
        assert p.credits == pytest.approx(float((r.credits - base.credits).mean()))
        assert p.credits_ci is not None and p.credits_ci[0] <= p.credits <= p.credits_ci[1]
    assert a.set_aside == (a.placements[0].credits <= 0)  # type: ignore[operator]
    again = advise(s, hand, exact=False, credits=True, runs=300, seed=5)
    assert [p.credits for p in again.placements] == creds


# -- the round's rules file and its notes, as in simulate --round ------------------------------------
def test_place_says_what_is_provisional_and_takes_a_rules_file(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    # ranked by credits, place flies the round's provisional numbers: it says so, like simulate --round
    # does, and a rules file overrides them (a key it sets is no longer called provisional)
    args = ("place", SHIP, "cannon:0111", "--no-exact",
            "--runs", "20", "--seed", "1", "--round", "2")
    code, out, _ = run(capsys, *args)
    # by default the provisional values are counted on one line, the cautions printed in full
    assert code == 0 and "provisional track" not in out and "note: opponents: the default class I field" in out
    assert "values are provisional: `--notes` lists them" in out
    code, out, _ = run(capsys, *args, "--notes")
    assert code == 0 and "note: provisional track" in out and "--notes` lists" not in out
    rules = tmp_path / "rules.toml"
    rules.write_text("format = 1\n[round.2]\ntrack = 30\n", encoding="utf-8")
    code, out, _ = run(capsys, *args, "--rules", str(rules), "--notes")
    assert code == 0 and "provisional track" not in out and "provisional arrival" in out
    # the rules' deck weighs the exact loss: a round 1 drawing no level-I card meets no attack card
    rules.write_text("format = 1\n[round.1]\ndeck = { II = 8 }\n", encoding="utf-8")
    plain = advise(load_ship(SHIP), "cannon:0111", round=1, credits=False)
    other = advise(load_ship(SHIP), "cannon:0111", round=1, credits=False, rules=rules)
    assert [p.loss for p in plain.placements] != [p.loss for p in other.placements]
    rules.write_text("format = 1\n[round.2]\ntrak = 30\n", encoding="utf-8")
    code, out, err = run(capsys, *args, "--rules", str(rules))
    assert code == 2 and "rules.toml:3" in err and "did you mean `track`?" in err
    with pytest.raises(InputError) as exc:
        advise(load_ship(SHIP), "cannon:0111", credits=False, rules=5)
    assert exc.value.key == "rules"


def test_a_tile_the_ship_holds_already_has_no_placement_and_says_why() -> None:
    # each printed tile exists once (rule T1): 2007:1 welded at (8,7) cannot be placed again
    s = ship(PILOT + '\n[[tile]]\nat = [8, 7]\nid = "2007:1"\n')
    a = advise(s, "2007:1", credits=False, exact=False)
    assert a.placements == () and a.set_aside and "holds 2007:1 already" in a.reason and "T1" in a.reason
    assert advise(s, "2007:2", credits=False, exact=False).placements
