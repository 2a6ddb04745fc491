"""One rule, one home (issue 19): a rule of flight changed in the one function that holds it moves
every feature that flies it, and nothing else needs changing.

The package is copied to a temporary folder, one rule is edited in the text of its one home (the
function docs/architecture.md names for it), and the copy is run in a fresh process as plain
Python (``SHIPCHECK_JIT=0``: no numba compile of the edited engine). The rule: against a large
meteor, a cannon that bears and fires destroys it (``shipcheck.engine.defence.left_open``).
Edited so that the fired cannon no longer stops the meteor, the exact odds (``odds --card``), the
Monte Carlo flight (``simulate --card``), whole rounds (``simulate --round``) and the report's heat
map of meteor losses all lose more components; with the rule written back they give the first
numbers again, digit for digit.

The optimal policy of ``odds --policy optimal`` weighs its candidate defences by the same
function (``kernel.Kernel.left_open``), so its odds move too.

Two more rules are changed the same way, each in its one home:

- which means of defence a roll offers (``shipcheck.engine.defence.offers``): with no cannon offered
  against a large meteor, the default policy (the engine's ``decide_default``), the optimal
  policy's search (``odds.OptimalPolicy``, through ``kernel.offers``) and the Monte Carlo flight
  all lose more;
- which connectors are exposed (``shipcheck.topology.exposed_connectors``): counted also where a
  tile stands across them, the checker's count and a whole round's stardust (the engine's
  ``engine.hull.exposed``) both move;
- which components were lost (``shipcheck.engine.hull.lost_tiles``): with the second tile never
  counted as lost, its chance of a loss is 0 in the exact odds (``OddsResult.p_lost``), the Monte
  Carlo flight and a whole round, and the components lost fall in all three.
- an alien's bonus (``shipcheck.engine.layout.alien_bonus``): with no bonus unless the Manager is
  aboard, the freighter's purple alien adds nothing to the firepower ``stats`` shows, nor to the
  engine's firepower in a whole round (whose numbers move).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIP = "examples/class-I-scout.toml"  # a double cannon at the nose: large meteors from the front are shot
HOME = "shipcheck/engine/defence.py"
FUNCTION = "left_open"
#: the rule as written: a cannon fired at a line stops what comes down it (after checking it bears)
RULE = """            if not stops(kind, CANNON) or not _bears(S, p, x, c, side, tol, tmp[SIT + SIT_LINE + li]):
                raise ValueError("that cannon does not bear on that line")
            continue
"""
#: the rule changed: the cannon still fires (and its charge is spent), the meteor comes through
CHANGED = """            if not stops(kind, CANNON) or not _bears(S, p, x, c, side, tol, tmp[SIT + SIT_LINE + li]):
                raise ValueError("that cannon does not bear on that line")
"""

#: which defences a roll offers: a cannon that bears against a large meteor ...
OFFERS = """    if means == BOOSTED:
        return stops(kind, BOOSTED) and not stops(kind, SHIELD)
    return stops(kind, means)
"""
#: ... changed: no cannon is offered (what a fired cannon stops is left as it was)
OFFERS_CHANGED = """    if means == BOOSTED:
        return stops(kind, BOOSTED) and not stops(kind, SHIELD)
    return stops(kind, means) and means != CANNON
"""
#: an exposed connector: one with no tile across it ...
EXPOSED = "    return present & connectors & ~faced\n"
#: ... changed: every connector counts, a tile across it or not
EXPOSED_CHANGED = "    return present & connectors\n"

#: the components lost: every tile neither aboard, in a half that left nor in one away ...
LOST = "    return ((_i(1) << S[p, V, N_]) - 1) & ~mask & ~left & ~away\n"
#: ... changed: the second tile is never lost
LOST_CHANGED = "    return ((_i(1) << S[p, V, N_]) - 1) & ~mask & ~left & ~away & ~_i(2)\n"

#: the head of each script run in the copy: the command line, its JSON read back
_CLI = r"""
import contextlib, io, json, sys
import shipcheck
from shipcheck.cli import main

def cli(*args, ok=(0, None)):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(list(args))
        except SystemExit as exc:
            assert exc.code in ok, exc.code
    return json.loads(out.getvalue())
"""

#: run in the copy: the four features, as a user asks for them
SCRIPT = _CLI + "from shipcheck.report import report\n" + r"""
ship = sys.argv[1]
odds = cli("odds", ship, "--card", "I-11", "--format", "json", "--no-cache")
card = cli("simulate", ship, "--card", "I-11", "--runs", "20000", "--seed", "3", "--format", "json")
rnd = cli("simulate", ship, "--round", "1", "--runs", "400", "--seed", "3", "--format", "json")
optimal = cli("odds", ship, "--card", "I-11", "--policy", "optimal", "--format", "json", "--no-cache")
heat = report(ship, runs=10, seed=1, recommendations=False).ships[0].to_dict()["meteors"]["heat_maps"]
print(json.dumps({
    "file": shipcheck.__file__,
    "odds": odds["fractions"]["expected_lost"],
    "odds_survive": odds["fractions"]["p_survive"],
    "optimal": optimal["fractions"]["expected_lost"],
    "card": card["expected_lost"],
    "round": rnd["expected_lost"],
    "heat": {d: sum(t["p_lost"] for t in m["p_lost"]) for d, m in heat.items()},
}))
"""


#: run in the copy: what the other two rules move
SCRIPT_MORE = _CLI + r"""
ship = sys.argv[1]
odds = cli("odds", ship, "--card", "I-11", "--format", "json", "--no-cache")
optimal = cli("odds", ship, "--card", "I-11", "--policy", "optimal", "--format", "json", "--no-cache")
card = cli("simulate", ship, "--card", "I-11", "--runs", "20000", "--seed", "3", "--format", "json")
check = cli("check", ship, "--format", "json", ok=(0, 1, None))
rnd = cli("simulate", ship, "--round", "1", "--runs", "400", "--seed", "3", "--format", "json")
print(json.dumps({
    "file": shipcheck.__file__,
    "odds": odds["fractions"]["expected_lost"],
    "optimal": optimal["fractions"]["expected_lost"],
    "card": card["expected_lost"],
    "exposed": check["exposed_connectors"],
    "stardust_days": rnd["by_card_type"]["stardust"]["expected_days"],
    "round_credits": rnd["credits"]["mean"],
    "round_lost": rnd["expected_lost"],
    "second_tile": [odds["tiles"][1]["p_lost"], card["tiles"][1]["p_lost"], rnd["tiles"][1]["p_lost"]],
}))
"""


#: an alien's bonus: 2 (3 with the Manager) above a power of 0 ...
ALIEN = """    return 3 if manager else 2
"""
#: ... changed: no bonus without the Manager
ALIEN_CHANGED = """    return 3 if manager else 0
"""
ALIEN_SHIP = "examples/class-II-freighter.toml"  # a purple alien aboard

#: run in the copy: what an alien's bonus moves
SCRIPT_ALIEN = _CLI + r"""
ship = "examples/class-II-freighter.toml"
stats = cli("stats", ship, "--format", "json")
rnd = cli("simulate", ship, "--round", "2", "--runs", "300", "--seed", "3", "--format", "json")
print(json.dumps({
    "file": shipcheck.__file__,
    "firepower": [stats["firepower"]["min"], stats["firepower"]["max"]],
    "engine_power": [stats["engine_power"]["min"], stats["engine_power"]["max"]],
    "round": [rnd["credits"]["mean"], rnd["expected_lost"], rnd["p_survive"]],
}))
"""


def _copy(dest: Path) -> Path:
    """The package, its game data and the ship, copied to ``dest``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "shipcheck", dest / "shipcheck", ignore=ignore)
    shutil.copytree(ROOT / "tiles", dest / "tiles", ignore=ignore)
    (dest / "examples").mkdir()
    shutil.copy(ROOT / SHIP, dest / SHIP)
    shutil.copy(ROOT / ALIEN_SHIP, dest / ALIEN_SHIP)
    (dest / "alien.py").write_text(SCRIPT_ALIEN, encoding="utf-8")
    (dest / "features.py").write_text(SCRIPT, encoding="utf-8")
    (dest / "more.py").write_text(SCRIPT_MORE, encoding="utf-8")
    return dest


def _fly(tree: Path, script: str = "features.py") -> dict:
    """The features' numbers from the copy in ``tree``, as plain Python in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(tree), "SHIPCHECK_JIT": "0", "SHIPCHECK_NO_CACHE": "1",
           "SHIPCHECK_CACHE_DIR": str(tree / "cache")}
    proc = subprocess.run([sys.executable, script, SHIP], capture_output=True, text=True, cwd=tree, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert Path(out["file"]).resolve().is_relative_to(tree.resolve()), out["file"]  # the copy flew, not the checkout
    return out


def _edit(path: Path, old: str, new: str, function: str = FUNCTION) -> None:
    """Replace ``old`` by ``new`` in ``path``: once, inside ``function`` and nowhere else."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the rule's text is not found once in {path.name}: update this test with the rule"
    at = text[: text.index(old)].count("\n") + 1
    fn = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef) and n.name == function)
    assert fn.lineno <= at <= (fn.end_lineno or 0), f"the rule's text is outside {function}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_rule_changed_here_is_named_in_the_architecture_page() -> None:
    """docs/architecture.md names this function as the home of the cannon's defence."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("|") and "cannon" in line.lower()]
    assert any(f"engine.defence.{FUNCTION}" in row for row in rows), rows


@pytest.fixture(scope="module")
def flights(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict, dict]:
    """The features' numbers from the copy: as written, with the rule changed, and written back."""
    tree = _copy(tmp_path_factory.mktemp("one-home") / "tree")
    before = _fly(tree)
    home = tree / HOME
    _edit(home, RULE, CHANGED)
    changed = _fly(tree)
    _edit(home, CHANGED, RULE)
    after = _fly(tree)
    return before, changed, after


@pytest.mark.slow
def test_one_change_in_the_one_home_moves_every_feature(flights: tuple[dict, dict, dict]) -> None:
    before, changed, after = flights

    # exact odds: more components lost, no better survival
    assert Fraction(changed["odds"]) > Fraction(before["odds"])
    assert Fraction(changed["odds_survive"]) <= Fraction(before["odds_survive"])
    # Monte Carlo of the card, and whole rounds (the same seeds): more lost
    assert changed["card"] > before["card"] + 0.1
    assert changed["round"] > before["round"]
    # the report's heat maps: the front (where the cannons stood guard) and whole swarms lose more
    assert changed["heat"]["front"] > before["heat"]["front"]
    assert changed["heat"]["all"] > before["heat"]["all"]
    # meteors from the other sides meet no large meteor of a level-I swarm: those maps do not move
    for d in ("right", "rear", "left"):
        assert changed["heat"][d] == before["heat"][d]
    # written back, the rule gives the first numbers again
    assert after == {**before, "file": after["file"]}


@pytest.mark.slow
def test_the_optimal_policy_moves_with_the_rule_too(flights: tuple[dict, dict, dict]) -> None:
    before, changed, _ = flights
    assert Fraction(changed["optimal"]) > Fraction(before["optimal"])


def test_the_other_rules_changed_here_are_named_in_the_architecture_page() -> None:
    """docs/architecture.md names these functions as the rules' one homes."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("|")]
    assert any("`engine.defence.offers`" in row and "defence" in row.lower() for row in rows), rows
    assert any("`topology.exposed_connectors`" in row and "exposed" in row.lower() for row in rows), rows
    assert any("`engine.hull.lost_tiles`" in row and "lost" in row.lower() for row in rows), rows


@pytest.fixture(scope="module")
def more(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """What the other two rules move in a copy: as written, with each changed in its one home
    (one at a time), and both written back."""
    tree = _copy(tmp_path_factory.mktemp("one-home-more") / "tree")
    out = {"before": _fly(tree, "more.py")}
    for name, rel, function, rule, changed in (
            ("offers", "shipcheck/engine/defence.py", "offers", OFFERS, OFFERS_CHANGED),
            ("exposed", "shipcheck/topology.py", "exposed_connectors", EXPOSED, EXPOSED_CHANGED),
            ("lost", "shipcheck/engine/hull.py", "lost_tiles", LOST, LOST_CHANGED)):
        _edit(tree / rel, rule, changed, function)
        out[name] = _fly(tree, "more.py")
        _edit(tree / rel, changed, rule, function)
    out["after"] = _fly(tree, "more.py")
    return out


@pytest.mark.slow
def test_which_defences_a_roll_offers_moves_the_default_and_the_optimal_odds(more: dict[str, dict]) -> None:
    before, changed = more["before"], more["offers"]
    # no cannon offered against the large meteors at the scout's nose: every policy loses more
    assert Fraction(changed["odds"]) > Fraction(before["odds"])
    assert Fraction(changed["optimal"]) > Fraction(before["optimal"])
    assert changed["card"] > before["card"] + 0.1
    # exposed connectors are another rule: not moved
    assert changed["exposed"] == before["exposed"]


@pytest.mark.slow
def test_exposed_connectors_move_the_checker_and_a_round_together(more: dict[str, dict]) -> None:
    before, changed = more["before"], more["exposed"]
    assert changed["exposed"] > before["exposed"]  # the checker's count
    assert changed["stardust_days"] < before["stardust_days"]  # a round's stardust: a day per exposed connector
    # the flight's odds know nothing of exposed connectors
    assert (changed["odds"], changed["optimal"], changed["card"]) == (before["odds"], before["optimal"], before["card"])
    # both written back: the first numbers again
    assert more["after"] == {**before, "file": more["after"]["file"]}


@pytest.mark.slow
def test_which_tiles_were_lost_moves_the_exact_odds_monte_carlo_and_rounds(more: dict[str, dict]) -> None:
    before, changed = more["before"], more["lost"]
    # the second tile (beside the scout's nose) is lost in some runs as written, in none with the rule changed
    assert all(p > 0 for p in before["second_tile"]), before["second_tile"]
    assert changed["second_tile"] == [0, 0, 0]
    # and the components lost, which count the same tiles, fall everywhere
    assert Fraction(changed["odds"]) < Fraction(before["odds"])
    assert changed["card"] < before["card"]
    assert changed["round_lost"] < before["round_lost"]


def test_the_alien_bonus_is_named_in_the_architecture_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("|")]
    assert any("`engine.layout.alien_bonus`" in row and "alien" in row.lower() for row in rows), rows


@pytest.mark.slow
def test_an_aliens_bonus_moves_stats_and_a_round_together(tmp_path: Path) -> None:
    tree = _copy(tmp_path / "tree")
    before = _fly(tree, "alien.py")
    home = tree / "shipcheck" / "engine" / "layout.py"
    _edit(home, ALIEN, ALIEN_CHANGED, "alien_bonus")
    changed = _fly(tree, "alien.py")
    _edit(home, ALIEN_CHANGED, ALIEN, "alien_bonus")
    after = _fly(tree, "alien.py")
    # the freighter's purple alien (no Manager aboard) adds 2 to the firepower as written, 0 changed
    assert [a - b for a, b in zip(before["firepower"], changed["firepower"])] == [2, 2]
    assert changed["engine_power"] == before["engine_power"]  # no orange alien aboard
    # the engine's firepower in a round's fights: the round's numbers move with it
    assert changed["round"] != before["round"]
    # written back: the first numbers again
    assert after == {**before, "file": after["file"]}


#: (module, text): a second copy of a rule the engine holds, which the module must not write again
SECOND_COPIES = (
    ("shipcheck/flight/stats.py", "_best_split"),  # stats' own hull split of its ladders
    ("shipcheck/flight/stats.py", "raw_ladder"),  # stats' own ladder sums
    ("shipcheck/flight/chain.py", "redirect_map"),  # the flight model's own roll-to-line
    ("shipcheck/flight/chain.py", "d1 + d2"),
    ("shipcheck/flight/odds.py", ".barrels"),  # the optimal search's own bearing
    ("shipcheck/flight/odds.py", 'direction == "front"'),  # ... and its own bearing tolerance
    ("shipcheck/flight/kernel.py", 'direction == "front"'),
)


@pytest.mark.parametrize("path,text", SECOND_COPIES)
def test_no_second_copy_of_a_rule_outside_the_engine(path: str, text: str) -> None:
    assert text not in (ROOT / path).read_text(encoding="utf-8"), f"{path} writes {text!r} again: ask the engine"


def test_the_rules_stats_flight_and_the_optimal_search_ask_are_named_in_the_architecture_page() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("|")]
    for home, words in (("`engine.layout.roll_line`", "roll"), ("`engine.layout.tolerance`", "bearing"),
                        ("`engine.layout.Geometry.facing`", "optimal search"),
                        ("`engine.power.engine`", "stats"), ("`engine.power.firepower`", "stats"),
                        ("`engine.crew.manager_with`", "stats")):
        assert any(home in row and words in row for row in rows), home

