"""Rules no other test derives by hand (issue 18, Rules item 5): five-player enemies, combat zones and
sabotage (the second winner's smaller reward, the second-weakest's lighter penalty), an epidemic
with an occupied cabin next to no other (under either reading of the rule), and the options `--five-player`, `--opponent-policy` and
`check --config`.

Everything goes through the public API (``simulate_round`` with a fixed deck, ``odds --card``) or
the command line. Each whole-round case is flown by the engine compiled and as plain Python
(``shipcheck.runtime.state.force``, docs/architecture.md). The ships are small class I ships
(pilot cabin on (7,7); columns and rows 5-9 are the 2d6 sums that name them); round 1 rules: start
spacing 2 (the leader on 0, then -2, -4, -6, -8), arrival 4-3-2-1 (five-player rules: 4-4-3-2-1),
best-looking +2 (five-player rules: the two lowest exposed-connector counts, ties included). Days
lost count empty spaces only (occupied ones are skipped), the ship further back moving first.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from clikit import run

import shipcheck
from shipcheck import runtime
from shipcheck.round import CAUSES

# -- the ships ---------------------------------------------------------------------------------------


def tile(at: tuple[int, int], kind: str, sides: str, **kw: object) -> str:
    extra = "".join(f"{k} = {json.dumps(v)}\n" for k, v in kw.items())
    return f'\n[[tile]]\nat = [{at[0]}, {at[1]}]\nkind = "{kind}"\nsides = "{sides}"\n{extra}'


def text(name: str, tiles: str) -> str:
    return f'format = 1\nclass = "I"\nname = "{name}"\n' + tiles


#: crew 2, engine power 2, firepower 1: a front cannon over the pilot cabin, a structural module on
#: its left, an engine under each
SCOUT = (tile((7, 7), "start_cabin", "1031") + tile((7, 6), "cannon", "0010") + tile((6, 7), "structural", "0130")
         + tile((6, 8), "engine", "1000") + tile((7, 8), "engine", "1000"))
#: crew 4 (a cabin on the left), engine power 1, firepower 2 (two front cannons)
GUARD = (tile((7, 7), "start_cabin", "1011") + tile((7, 6), "cannon", "0010") + tile((6, 6), "cannon", "0010")
         + tile((6, 7), "cabin", "1100") + tile((7, 8), "engine", "1000"))
#: crew 2, engine power 2, firepower 0; a shield turned to cover the rear and the left, a battery of 2
SHIELDED = (tile((7, 7), "start_cabin", "0111") + tile((6, 7), "battery", "0110", cells=2)
            + tile((8, 7), "shield", "0100", rot=180) + tile((6, 8), "engine", "1000") + tile((7, 8), "engine", "1000"))
#: crew 2, engine power 1, firepower 6 with three charges (three front double cannons, batteries 3 + 2)
GUNNER = (tile((7, 7), "start_cabin", "3333") + tile((6, 6), "double_cannon", "0030")
          + tile((7, 6), "double_cannon", "0030") + tile((8, 6), "double_cannon", "0030")
          + tile((6, 7), "battery", "3300", cells=3) + tile((8, 7), "battery", "3003", cells=2)
          + tile((7, 8), "engine", "1000"))
#: crew 2, engine power 1, firepower 0: a pilot cabin and an engine
PLAIN = tile((7, 7), "start_cabin", "0010") + tile((7, 8), "engine", "1000")
#: crew 2: a pilot cabin with structural modules on three sides and an engine below: five squares
#: a saboteur's pair of rolls can name
CROSS = (tile((7, 7), "start_cabin", "1111") + tile((6, 7), "structural", "0100") + tile((8, 7), "structural", "0001")
         + tile((7, 6), "structural", "0010") + tile((7, 8), "engine", "1000"))
#: crew 2 + 2 + 2: the pilot cabin joined to a cabin on its right; on its left a structural module,
#: then a cabin joined to that module only (no other cabin next to it)
LONER = (tile((7, 7), "start_cabin", "0111") + tile((8, 7), "cabin", "0001") + tile((6, 7), "structural", "0101")
         + tile((5, 7), "cabin", "0100") + tile((7, 8), "engine", "1000"))
#: PLAIN with a 3-slot cargo hold on the right of the pilot cabin
HOLD = tile((7, 7), "start_cabin", "0110") + tile((8, 7), "cargo", "0001", slots=3) + tile((7, 8), "engine", "1000")


def ships(*kinds: str) -> list[shipcheck.Ship]:
    """One ship per tile set, named P0, P1, ... in launch order; each legal, no exposed connector."""
    out = []
    for i, tiles in enumerate(kinds):
        s = shipcheck.parse_ship(text(f"P{i}", tiles))
        rep = shipcheck.check(s)
        assert rep.legal and rep.exposed_connectors == 0, (i, rep.violations)
        out.append(s)
    return out


def write(folder: Path, *kinds: str) -> list[str]:
    """The same ships as files, for the command line."""
    paths = []
    for i, tiles in enumerate(kinds):
        p = folder / f"P{i}.toml"
        p.write_text(text(f"P{i}", tiles), encoding="utf-8")
        paths.append(str(p))
    return paths


@pytest.fixture(params=["compiled", "plain"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each whole-round case on the engine compiled and as plain Python."""
    if request.param == "plain":
        monkeypatch.setattr(runtime.state, "force", "plain")
    return str(request.param)


def fly(fleet: list[shipcheck.Ship], deck: list[str], *, runs: int = 50, seed: int = 1,
        five: bool | None = None, rules: Path | None = None) -> shipcheck.RoundResult:
    return shipcheck.simulate_round(fleet[0], opponents=fleet[1:], round=1, deck=deck, runs=runs, seed=seed,
                                    five_player=five, rules=rules, keep_runs=True)


def same(a: np.ndarray) -> int:
    """The value of a per-run array that must be the same in every run (no dice decide it)."""
    assert (a == a[0]).all(), np.unique(a)
    return int(a[0])


def column(r: shipcheck.RoundResult, name: str) -> list[int]:
    return [same(getattr(p, name)) for p in r.players]


def near(count: int, runs: int, p: F, k: float = 4.0) -> bool:
    """``count`` successes out of ``runs`` within ``k`` standard errors of the probability ``p``."""
    return abs(count / runs - float(p)) <= k * math.sqrt(float(p) * (1 - float(p)) / runs)


# -- five-player enemies ----------------------------------------------------------------------------------
def test_five_players_an_enemy_is_beaten_twice_the_second_winner_one_credit_less(engine: str) -> None:
    # I-03 pirates: strength 5, 4 credits, 1 day. P0 and P1 spend three charges each for firepower 6
    # and win: P0 takes 4 credits, P1 (the second winner) 3; the pirates, beaten twice, are gone before
    # P2 (a gunner too) and the unarmed P3, P4. Both winners lose a day, the one further back first:
    # P1 -2 -> -3, P0 0 -> -1. Places 1-5 in launch order: 4, 4, 3, 2, 1; all best-looking (+2).
    r = fly(ships(GUNNER, GUNNER, GUNNER, PLAIN, PLAIN), ["I-03"])
    assert r.five_player
    assert column(r, "card_credits") == [4, 3, 0, 0, 0]
    assert column(r, "days") == [-1, -1, 0, 0, 0]
    assert column(r, "credits") == [4 + 4 + 2, 3 + 4 + 2, 3 + 2, 2 + 2, 1 + 2]
    assert column(r, "lost") == [0] * 5


def test_four_players_an_enemy_is_beaten_once_unless_four_play_as_five(engine: str) -> None:
    fleet = ships(GUNNER, GUNNER, GUNNER, PLAIN)
    r = fly(fleet, ["I-03"])
    # P0 wins and the pirates are gone: P1 never fights. Places 1-4: 4, 3, 2, 1.
    assert not r.five_player
    assert column(r, "card_credits") == [4, 0, 0, 0]
    assert column(r, "days") == [-1, 0, 0, 0]
    assert column(r, "credits") == [4 + 4 + 2, 3 + 2, 2 + 2, 1 + 2]
    # the "4 = 5" variant: the five-player rules with four ships (arrival 4, 4, 3, 2)
    r = fly(fleet, ["I-03"], five=True)
    assert r.five_player
    assert column(r, "card_credits") == [4, 3, 0, 0]
    assert column(r, "credits") == [4 + 4 + 2, 3 + 4 + 2, 3 + 2, 2 + 2]


# -- five-player combat zone ------------------------------------------------------------------------------
# I-16, then I-17 and I-18 (abandoned ships taking 3 and 2 crew for 4 and 3 credits and a day; a ship
# takes one only when a human is left aboard after paying).
CZ_FLEET = (SCOUT, SCOUT, GUARD, GUARD, SHIELDED)
CZ_DECK = ["I-16", "I-17", "I-18"]


def test_five_players_a_combat_zone_hits_the_two_weakest_the_second_more_lightly(engine: str) -> None:
    # crew 2, 2, 4, 4, 2; engine power 2, 2, 1, 1, 2; firepower 1, 1, 2, 2, 0.
    # Line 1, fewest crew -> 3 days: P0, P1, P4 tie on 2, the two further ahead are hit: P0 the full
    #   3 days, P1 one fewer (2). P1 moves first: -2 -> -3, -4 is P2's, -5. P0: 0 -> -1, -2, -3.
    # Line 2, lowest engine power -> 2 crew: P2 and P3 (1), P2 ahead: P2 loses 2 (2 left), P3 1 (3 left).
    # Line 3, lowest firepower -> light and heavy shot from the rear: P4 (0) takes both; of P0 and P1
    #   (1 each) P0 is ahead (-3 against -5) and takes only the light shot (it ignores the first heavy).
    # I-17 (3 crew): nobody keeps a human after paying 3. I-18 (2 crew): only P3 (3 humans) takes it:
    #   +3 credits, a day (-6 -> -7). Had P3 lost the full 2 crew it could not pay; had it lost none it
    #   would take I-17 (+4) and then not I-18.
    r = fly(ships(*CZ_FLEET), CZ_DECK, runs=3600)
    assert column(r, "days") == [-3, -3, 0, -1, 0]
    assert column(r, "card_credits") == [0, 0, 0, 3, 0]
    assert column(r, "gave_up") == [0] * 5
    assert column(r, "place") == [1, 3, 2, 4, 5]  # on -3, -5, -4, -7, -8
    # the shots: P0 loses the engine the light shot meets from the rear (column 6 or 7: 11/36), never
    # more; P1, P2, P3 are not shot at; P4's shield stops the light shot (a charge) and the heavy one
    # destroys the first component of its column (6, 7 or 8: 16/36)
    p0, p4 = r.players[0].lost, r.players[4].lost
    assert set(p0.tolist()) <= {0, 1} and near(int(p0.sum()), r.runs, F(11, 36))
    assert [same(p.lost) for p in r.players[1:4]] == [0, 0, 0]
    assert set(p4.tolist()) <= {0, 1} and near(int(p4.sum()), r.runs, F(16, 36))


def test_four_players_a_combat_zone_hits_only_the_weakest(engine: str) -> None:
    # without P4: line 1 hits P0 alone, the full 3 days: 0 -> -1, -2 (P1) skipped, -3, -4 (P2)
    # skipped, -5. Line 2: P2 alone loses 2 crew. Line 3: P0 (-5) and P1 (-2) tie on firepower 1 and
    # P1 is ahead: P1 takes both shots. I-17: P3 (4 humans) pays 3 for 4 credits and a day (-6 -> -7),
    # so I-18 finds no one with 3 humans.
    r = fly(ships(*CZ_FLEET[:4]), CZ_DECK)
    assert not r.five_player
    assert column(r, "days") == [-5, 0, 0, -1]
    assert column(r, "card_credits") == [0, 0, 0, 4]
    assert same(r.players[0].lost) == 0


def test_the_exact_engine_spares_the_second_weakest_the_first_heavy_shot(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # `odds --card` flies P0 (the leader) and its opponents exactly. With five ships P0 is the
    # second-weakest on the firepower line: only the light shot, lost on 6 or 7 (11/36). With four
    # (no P4), P0 has moved behind P1 and is not hit: nothing lost.
    p = write(tmp_path, *CZ_FLEET)
    opponents = [a for o in p[1:] for a in ("--opponent", o)]
    code, out, err = run(capsys, "odds", p[0], "--card", "I-16", *opponents, "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["fractions"] == {"p_survive": "1", "expected_lost": "11/36"}
    assert d["lost_distribution"] == pytest.approx({"0": 25 / 36, "1": 11 / 36}, abs=1e-12)
    assert [o["hit"] for o in d["card_outcomes"]] == [[1.0, 0.0, 1.0]]
    code, out, err = run(capsys, "odds", p[0], "--card", "I-16", *opponents[:-2], "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert d["fractions"] == {"p_survive": "1", "expected_lost": "0"}
    assert [o["hit"] for o in d["card_outcomes"]] == [[1.0, 0.0, 0.0]]


# -- five-player sabotage ----------------------------------------------------------------------------------
# A pair of rolls names CROSS's pilot cabin (7,7), its modules (6,7), (8,7), (7,6) or its engine (7,8)
# with probability (6*6 + 5*6 + 5*6 + 6*5 + 6*5) / 36^2 = 13/108.
MISS = F(95, 108)
#: runs per case: the plain engine (run for run the compiled one's numbers, tests/test_engine_modes.py)
#: flies a fifth, still 4 standard errors from the wrong player's or the wrong count's odds
RUNS = {"compiled": 20_000, "plain": 4_000}


def test_five_players_sabotage_tries_three_pairs_on_the_weakest_two_on_the_second(engine: str) -> None:
    # crew 2, 2, 4, 4, 4: P0 (ahead) and P1 are the two with the fewest crew. The first two pairs of
    # rolls are the same for both; only P0 gets a third. P2-P4 are never hit.
    r = fly(ships(CROSS, CROSS, GUARD, GUARD, GUARD), ["III-04"], runs=RUNS[engine])
    hit0, hit1 = r.players[0].lost > 0, r.players[1].lost > 0
    assert near(int(hit0.sum()), r.runs, 1 - MISS**3)
    assert near(int(hit1.sum()), r.runs, 1 - MISS**2)
    assert not (hit1 & ~hit0).any()  # the same ship hit on the same pair in both
    assert [same(p.lost) for p in r.players[2:]] == [0, 0, 0]


def test_four_players_sabotage_hits_only_the_weakest_unless_four_play_as_five(engine: str) -> None:
    fleet = ships(CROSS, CROSS, GUARD, GUARD)
    r = fly(fleet, ["III-04"], runs=RUNS[engine])
    assert near(int((r.players[0].lost > 0).sum()), r.runs, 1 - MISS**3)
    assert [same(p.lost) for p in r.players[1:]] == [0, 0, 0]
    r = fly(fleet, ["III-04"], runs=RUNS[engine], five=True)
    assert near(int((r.players[1].lost > 0).sum()), r.runs, 1 - MISS**2)


# -- epidemic ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reading", ["default", "joined"])
def test_an_epidemic_spares_an_occupied_cabin_next_to_no_other(engine: str, reading: str, tmp_path: Path) -> None:
    # LONER alone: II-05 epidemic, I-01 slavers (firepower 0 < 6: 3 crew lost, humans first, cabins
    # in row-major order), I-18 abandoned ship (2 crew for 3 credits). The epidemic strikes occupied
    # cabins next to another (today's default, "adjacent") or joined to one ("joined", by a rules
    # file): either way the pilot cabin and its right-hand cabin lose one each, and the cabin behind
    # the structural module, next to no other cabin, keeps both: 1 + 1 + 2 = 4. The slavers take 3 (the far cabin's 2,
    # then the pilot cabin's 1): 1 left, too few for I-18. Had the far cabin lost one too, the slavers
    # would leave nobody (the ship gives up); had the epidemic spared everyone, 3 would be left and
    # I-18 taken. Alone: 1st (4), best-looking (2), nothing lost.
    rules = None
    if reading != "default":
        rules = tmp_path / "rules.toml"
        rules.write_text(f'format = 1\n[cards]\nepidemic = "{reading}"\n', encoding="utf-8")
    r = fly(ships(LONER), ["II-05", "I-01", "I-18"], rules=rules)
    assert any(f'epidemic = "{"adjacent" if reading == "default" else reading}"' in n for n in r.notes), r.notes
    assert column(r, "gave_up") == [0]
    assert column(r, "card_credits") == [0]
    assert column(r, "credits") == [4 + 2]
    # the control: without the epidemic the six crew keep three after the slavers, and I-18 is taken
    r = fly(ships(LONER), ["I-01", "I-18"])
    assert column(r, "card_credits") == [3]
    assert column(r, "gave_up") == [CAUSES.index("finished")]


# -- the command line -----------------------------------------------------------------------------------
def test_cli_five_player_flag_plays_four_ships_by_five_player_rules(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    p = write(tmp_path, GUNNER, GUNNER, GUNNER, PLAIN)
    deck = tmp_path / "deck.toml"
    deck.write_text('format = 1\nedition = "2007"\ncards = ["I-03"]\n', encoding="utf-8")
    base = ["simulate", p[0], "--round", "1", "--deck", str(deck), "--runs", "20", "--seed", "3", "--format", "json",
            *[a for o in p[1:] for a in ("--opponent", o)]]
    for flag, want in (([], [10, 5, 4, 3]), (["--five-player"], [10, 9, 5, 4])):
        code, out, err = run(capsys, *base, *flag)
        assert code == 0, err
        d = json.loads(out)
        assert d["rules"]["five_player"] is bool(flag)
        assert d["rules"]["arrival"] == ([4, 4, 3, 2] if flag else [4, 3, 2, 1])
        assert [d["credits"]["mean"], *(o["credits"]["mean"] for o in d["opponents"])] == want


def test_cli_opponent_policy_racing_never_lands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # I-13 planets (2 days): [red, red], [red, blue, blue], [yellow]. P0 has no hold and passes. P1
    # (a 3-slot hold, no special slot) lands on the yellow planet by default: 3 credits of goods, -2 ->
    # -4, still 2nd (3), best-looking (2): 8. Flying `racing`, it never lands: 3 + 2 = 5.
    p = write(tmp_path, PLAIN, HOLD)
    deck = tmp_path / "deck.toml"
    deck.write_text('format = 1\nedition = "2007"\ncards = ["I-13"]\n', encoding="utf-8")
    base = ["simulate", p[0], "--round", "1", "--deck", str(deck), "--opponent", p[1], "--runs", "10", "--seed", "1",
            "--format", "json"]
    for extra, policy, credits in (([], "default", 8.0), (["--opponent-policy", "racing"], "racing", 5.0)):
        code, out, err = run(capsys, *base, *extra)
        assert code == 0, err
        d = json.loads(out)
        (o,) = d["opponents"]
        assert (o["policy"], o["credits"]["mean"], d["policy"]) == (policy, credits, "default")
        assert d["credits"]["mean"] == 4 + 2
    code, out, err = run(capsys, *base, "--opponent-policy", "reckless")
    assert code == 2 and "--opponent-policy" in err and "'reckless'" in err and "default or racing" in err
    assert "Traceback" not in err


def test_cli_check_config_reads_the_settings_file_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # conf/shipcheck.toml ignores C2 (and S1: the piece the bad joint leaves loose) and excludes a draft that cannot be read, its pattern relative to
    # its own folder; the pyproject.toml of the folder the command runs in selects S1 only. A C2-only
    # ship passes under either, and fails (1) under a settings file that ignores nothing.
    root = Path(__file__).resolve().parents[1]
    conf = tmp_path / "conf"
    (conf / "ships").mkdir(parents=True)
    (conf / "ships" / "bad.toml").write_text(
        (root / "examples" / "mistakes" / "single-vs-double.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (conf / "ships" / "draft.toml").write_text('format = 1\nclass = "I"\n[[tile]]\nat = [7, 7]\nrot = 45\n',
                                               encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.shipcheck]\nselect = ["S1"]\n', encoding="utf-8")
    (conf / "shipcheck.toml").write_text('ignore = ["C2", "S1"]\nexclude = ["ships/draft.toml"]\n', encoding="utf-8")
    (tmp_path / "strict.toml").write_text('[tool.shipcheck]\nexclude = ["conf/ships/draft.toml"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check", "conf/ships", "--output-format", "concise")
    assert code == 2 and "draft.toml" in out + err  # the folder's pyproject.toml: S1 only, no exclude
    code, out, err = run(capsys, "check", "conf/ships", "--config", "conf/shipcheck.toml", "--output-format", "concise")
    assert code == 0, out + err
    assert "draft.toml" not in out + err and "C2" not in out
    code, out, err = run(capsys, "check", "conf/ships", "--config", "strict.toml", "--output-format", "concise")
    assert code == 1 and "C2" in out and "draft.toml" not in out + err
    code, out, err = run(capsys, "check", "conf/ships", "--config", "missing.toml")
    assert code == 2 and "missing.toml" in err
    (tmp_path / "other.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    code, out, err = run(capsys, "check", "conf/ships", "--config", "other.toml")
    assert code == 2 and "no [tool.shipcheck] table" in err
