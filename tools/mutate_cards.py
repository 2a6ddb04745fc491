"""Mutation test of the cards' effects: does some targeted test fail when one line of a card's
effect changes?

The package, its game data and the tests are copied to a temporary folder; for each mutation in
:data:`MUTATIONS` one line of the engine (``shipcheck/engine/encounters.py`` and the fight in
``power.py``) is changed in the copy, the targeted tests (``tests/test_card_effects.py`` by
default) run against it as plain Python, and the line is put back. A mutation no test fails
*survives*: a rule the tests do not hold. The result is printed as a table (docs/architecture.md
keeps the last one); the exit status is 1 when a mutation survives.

    python tools/mutate_cards.py [--tests tests/test_card_effects.py ...] [--only NAME]
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDS = "shipcheck/engine/encounters.py"
POWER = "shipcheck/engine/power.py"


@dataclass(frozen=True)
class Mutation:
    """``old`` replaced by ``new`` in function ``function`` of ``path`` (found there once)."""

    name: str
    card: str  # the card types it touches
    path: str
    function: str
    old: str
    new: str


MUTATIONS = (
    Mutation("ship-takes-no-crew", "abandoned ship", CARDS, "offers",
             "lose_crew(S, p, x, cost, tmp)", "lose_crew(S, p, x, 0, tmp)"),
    Mutation("ship-gives-no-credits", "abandoned ship", CARDS, "offers",
             "F[F_CRED, p] += C[c, CI, CCRED] - second", "F[F_CRED, p] += 0"),
    Mutation("offer-costs-no-days", "abandoned ship, station", CARDS, "offers",
             "F[F_STEPS, p] = -C[c, CI, CDAYS]", "F[F_STEPS, p] = 0"),
    Mutation("station-loads-nothing", "abandoned station", CARDS, "offers",
             "                load(S, p, x, gd, tmp, prov)", "                pass"),
    Mutation("station-needs-no-crew", "abandoned station", CARDS, "offers",
             "crew_count(S, p, x) >= C[c, CI, CCREWREQ]", "True"),
    Mutation("planet-loads-nothing", "planets", CARDS, "planets",
             "load(S, p, x, gd, tmp, prov)", "pass"),
    Mutation("planet-costs-no-days", "planets", CARDS, "planets",
             "F[F_STEPS, p] = -C[c, CI, CDAYS]", "F[F_STEPS, p] = 0"),
    Mutation("planet-least-valuable", "planets", CARDS, "_planet_default",
             "g > best_g", "g < best_g"),
    Mutation("open-space-one-short", "open space", CARDS, "open_space",
             "move(F, p, value, R[R_TRACK])", "move(F, p, value - 1, R[R_TRACK])"),
    Mutation("open-space-never-gives-up", "open space", CARDS, "open_space",
             "F[F_OUT, p] = NO_ENGINES", "pass"),
    Mutation("stardust-costs-nothing", "stardust", CARDS, "stardust",
             "-exposed(S, p, X[p])", "0"),
    Mutation("epidemic-spares-all", "epidemic", CARDS, "epidemics",
             "epidemic(S, p, X[p])", "pass"),
    Mutation("sabotage-destroys-nothing", "sabotage", CARDS, "sabotage",
             "destroy(S, who, x, _i(1) << t, buf)", "pass"),
    Mutation("sabotage-hits-the-most-crew", "sabotage", CARDS, "sabotage",
             "F[F_VALUES, p] = crew_count(S, p, X[p])", "F[F_VALUES, p] = -crew_count(S, p, X[p])"),
    Mutation("enemy-reward-no-credits", "pirates, slavers", CARDS, "enemies",
             "F[F_CRED, p] += C[c, CI, CCRED] - second", "F[F_CRED, p] += 0"),
    Mutation("enemy-reward-no-days", "pirates, slavers, smugglers", CARDS, "enemies",
             "F[F_STEPS, p] = -C[c, CI, CDAYS]", "F[F_STEPS, p] = 0"),
    Mutation("smugglers-reward-no-goods", "smugglers", CARDS, "enemies",
             "                        load(S, p, x, gd, tmp, prov)", "                        pass"),
    Mutation("slavers-take-no-crew", "slavers", CARDS, "enemies",
             "lose_crew(S, p, x, C[c, CI, CCREWPEN], tmp)", "pass"),
    Mutation("smugglers-take-no-goods", "smugglers", CARDS, "enemies",
             "lose_goods(S, p, x, C[c, CI, CGOODSPEN])", "pass"),
    Mutation("pirates-shots-miss", "pirates", CARDS, "enemies",
             "flight_step(S, p, X[p], C[c, ATTK, j], C[c, ATTD, j], roll, j, buf, tmp)", "pass"),
    Mutation("a-tie-wins", "pirates, slavers, smugglers", POWER, "fight",
             "WIN if fp > target", "WIN if fp >= target"),
    Mutation("meteors-miss", "meteor swarm", CARDS, "meteor_swarm",
             "hit = flight_step(S, p, X[p], C[c, ATTK, j], C[c, ATTD, j], roll, j, buf, tmp)", "hit = 0"),
    Mutation("combat-days-spared", "combat zone", CARDS, "combat_zone",
             "F[F_STEPS, first] = -amt", "F[F_STEPS, first] = 0"),
    Mutation("combat-crew-spared", "combat zone", CARDS, "combat_zone",
             "lose_crew(S, who, X[who], n, tmp)", "pass"),
    Mutation("combat-goods-spared", "combat zone", CARDS, "combat_zone",
             "lose_goods(S, who, X[who], n)", "pass"),
    Mutation("combat-shots-miss", "combat zone", CARDS, "combat_zone",
             "flight_step(S, who, X[who], kind, d, roll, j, buf, tmp)", "pass"),
)


def copy_tree(dest: Path) -> Path:
    """The package, its game data, the tests and the project's settings, copied to ``dest``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for d in ("shipcheck", "tiles", "tests"):
        shutil.copytree(ROOT / d, dest / d, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def edit(path: Path, function: str, old: str, new: str) -> str:
    """Replace ``old`` by ``new`` in ``path``, once, inside ``function``; the text as it was."""
    text = path.read_text(encoding="utf-8")
    fn = next((n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef) and n.name == function), None)
    if fn is None:
        raise SystemExit(f"{path.name}: no function {function} (update tools/mutate_cards.py with the code)")
    lines = text.splitlines(keepends=True)
    body = "".join(lines[fn.lineno - 1:fn.end_lineno])
    if body.count(old) != 1:
        raise SystemExit(f"{path.name}: {old!r} is not found once in {function} (update tools/mutate_cards.py)")
    head, tail = "".join(lines[:fn.lineno - 1]), "".join(lines[fn.end_lineno:])
    path.write_text(head + body.replace(old, new) + tail, encoding="utf-8")
    return text


def run_tests(tree: Path, tests: list[str]) -> tuple[bool, str]:
    """Whether the tests pass against the package in ``tree`` (plain Python), and pytest's last line."""
    env = {**os.environ, "PYTHONPATH": str(tree), "SHIPCHECK_JIT": "0", "SHIPCHECK_NO_CACHE": "1",
           "SHIPCHECK_CACHE_DIR": str(tree / "cache"), "SHIPCHECK_ENGINE_BUILDER": "0"}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--noconftest",
                           *tests], cwd=tree, env=env, capture_output=True, text=True, timeout=900)
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    return proc.returncode == 0, last


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests", nargs="+", default=["tests/test_card_effects.py"], help="the targeted tests")
    ap.add_argument("--only", action="append", help="run only the mutation of this name (repeatable)")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    with tempfile.TemporaryDirectory(prefix="mutate-cards-") as tmp:
        tree = copy_tree(Path(tmp) / "tree")
        where = subprocess.run([sys.executable, "-c", "import shipcheck; print(shipcheck.__file__)"], cwd=tree,
                               env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True)
        if not Path(where.stdout.strip()).resolve().is_relative_to(tree.resolve()):
            raise SystemExit(f"the copy is not the package imported: {where.stdout.strip()} {where.stderr}")
        ok, last = run_tests(tree, args.tests)
        if not ok:
            raise SystemExit(f"the targeted tests fail on the unchanged copy: {last}")
        rows = []
        for m in chosen:
            path = tree / m.path
            t0 = time.monotonic()
            before = edit(path, m.function, m.old, m.new)
            try:
                passed, last = run_tests(tree, args.tests)
            finally:
                path.write_text(before, encoding="utf-8")
            rows.append((m, "SURVIVES" if passed else "killed", time.monotonic() - t0))
            print(f"{m.name:30} {rows[-1][1]:9} {rows[-1][2]:5.1f} s  {last}", flush=True)
    survivors = [m for m, state, _ in rows if state == "SURVIVES"]
    print(f"\n{len(rows) - len(survivors)} of {len(rows)} mutations killed by {' '.join(args.tests)}")
    print("| mutation | card | the change (in its function) | result |\n|---|---|---|---|")
    for m, state, _ in rows:
        print(f"| {m.name} | {m.card} | `{m.function}`: `{m.old.strip()}` → `{m.new.strip()}` | {state} |")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
