"""The engine flies the same rules compiled or as plain Python (where numba cannot be imported or is
switched off); where no cache folder can be written it compiles in memory. Each mode gives the same
numbers, and says how it ran."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shipcheck import engine, runtime
from shipcheck.round.chunks import ROLLS, Job, build_table
from shipcheck.round.deck import build_deck
from shipcheck.round.field import default_field
from shipcheck.round.policy import DefaultPolicy, RacingPolicy
from shipcheck.round.rulebook import round_rules
from shipcheck.shipfile import load_ship

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("credits", "lost", "survived", "gave_up", "days", "place", "card_credits", "sources", "by_type",
          "tile_lost")

ROUND = """
import json, sys
import shipcheck
r = shipcheck.simulate_round("examples/class-II-freighter.toml", round=2, runs=60, seed=4, batch=32, keep_runs=True)
print(json.dumps({"credits": r.credits.tolist(), "lost": r.lost.tolist(), "notes": list(r.notes)}))
"""


def fly(code: str, env: dict[str, str] | None = None, prelude: str = "") -> dict:
    proc = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("path,rnd,policy,seed", [
    ("examples/class-I-scout.toml", "1", DefaultPolicy(), 7),
    ("examples/class-II-freighter.toml", "2", DefaultPolicy(), 8),
    ("examples/class-IIA-twins.toml", "2", RacingPolicy(), 7),
    ("examples/class-III-hauler.toml", "3", DefaultPolicy(), 7),
    ("examples/class-III-hauler.toml", "3", RacingPolicy(), 9),
    ("examples/class-IIIa-longboat.toml", "3a", DefaultPolicy(), 10),
])
def test_the_plain_engine_gives_the_compiled_numbers(path, rnd, policy, seed):
    """Fixed ships, drawn decks and dice (seeded): the plain copy of the engine (on the int64 tables
    as the exact odds call it, and on Python ints as a round flies it) and the compiled one fill the
    same arrays, run for run."""
    if not runtime.compiled():
        pytest.skip(f"the compiled engine is not available here: {runtime.reason()}")
    me = load_ship(path)
    rules = round_rules(rnd)
    others, _ = default_field(me, rules.level)
    deck = build_deck(rules, me.edition)
    job = Job((me, *others), (policy,) + (DefaultPolicy(),) * len(others), rules, deck, False)
    table = build_table(job)
    t = table.tables(deck.cards)
    g = np.random.default_rng(seed)
    decks = deck.draw(g, 40).astype(np.int64)
    rolls = g.integers(0, 36, size=(40, decks.shape[1], ROLLS)).astype(np.int64)
    outs = []
    for plain, ints in ((True, False), (True, True), (False, False)):
        out = engine.Outputs(table.P, 40, 12, 6, 5, max(m.n for m in table.models))
        with np.errstate(over="ignore"):
            if ints:
                engine._call(engine._module("run", True), engine.python_ints(t), decks.astype(object),
                             rolls.astype(object), out)
            else:
                engine._call(engine._module("run", plain), t, decks, rolls, out)
        outs.append(out)
    for f in FIELDS:
        assert np.array_equal(getattr(outs[0], f), getattr(outs[2], f)), f
        assert np.array_equal(getattr(outs[1], f), getattr(outs[2], f)), f


@pytest.mark.slow
def test_without_numba_rounds_still_fly_and_say_why():
    compiled = fly(ROUND)
    blocked = "import sys\nsys.modules['numba'] = None  # import numba raises ImportError\n"
    plain = fly(ROUND, prelude=blocked)
    assert plain["credits"] == compiled["credits"] and plain["lost"] == compiled["lost"]
    assert any("numba is not importable" in n for n in plain["notes"])
    assert not any("plain Python" in n for n in compiled["notes"])
    off = fly(ROUND, env={runtime.ENV: "0"})
    assert off["credits"] == compiled["credits"] and any(runtime.ENV in n for n in off["notes"])


NO_CACHE = """
import json, numpy as np
from shipcheck import engine, runtime
popcount = engine.function("bits", "popcount", plain=False)  # a small compiled function (no cache)
ok = runtime.load("bits", lambda: popcount(np.int64(7)), what="compiling", estimate=1.0)
print(json.dumps({"ok": ok, "value": int(popcount(np.int64(7))), "notes": runtime.notes(),
                  "cache": str(runtime.state.cache)}))
"""


def test_with_no_writable_cache_folder_it_compiles_in_memory_and_says_so(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # the cache folder would have to be made inside a file
    out = fly(NO_CACHE, env={"NUMBA_CACHE_DIR": str(blocker / "cache")})
    if not runtime.compiled():
        pytest.skip(f"numba is not available: {runtime.reason()}")
    assert out["ok"] and out["value"] == 3 and out["cache"] == "None"
    assert sum("compiled in memory" in n for n in out["notes"]) == 1
    assert not list(tmp_path.rglob("*.nbi"))
