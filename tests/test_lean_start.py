"""What a whole round's process spends before its first run: the command line keeps OpenBLAS to one
thread and loads the compiled engine without numba importing scipy's linear algebra
(``shipcheck.jit.no_blas_probe``); the numbers do not change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(code: str, env: dict[str, str]) -> dict:
    """``code`` in a fresh interpreter (nothing imported yet): the JSON its last line prints."""
    clean = {k: v for k, v in os.environ.items() if k not in ("SHIPCHECK_NUMBA_BLAS", "OPENBLAS_NUM_THREADS")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**clean, "PYTHONPATH": str(ROOT), **env}, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


PROBE = """
import json, sys, threading
from shipcheck import jit
seen = {}
def other():
    import scipy.linalg
    seen["other thread"] = "scipy.linalg" in sys.modules
with jit.no_blas_probe():
    try:
        import scipy.linalg
        seen["inside"] = "imported"
    except ModuleNotFoundError as exc:
        seen["inside"] = str(exc)
    t = threading.Thread(target=other)
    t.start()
    t.join()
import scipy.linalg
seen["after"] = scipy.linalg.__name__
print(json.dumps(seen))
"""


def test_the_probe_refuses_scipy_linalg_to_its_own_thread_and_only_while_it_runs():
    seen = run(PROBE, {"SHIPCHECK_NUMBA_BLAS": "0"})
    assert "scipy.linalg is not imported while the engine loads" in seen["inside"]
    assert seen["other thread"] is True
    assert seen["after"] == "scipy.linalg"


def test_without_the_setting_the_probe_changes_nothing():
    seen = run(PROBE, {})
    assert seen["inside"] == "imported"


COMMAND = """
import json, sys, io, contextlib
sys.argv = ["shipcheck", "simulate", "examples/class-I-scout.toml", "--round", "1", "--runs", "40",
            "--seed", "3", "-f", "json"]
from shipcheck import engine
from shipcheck.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main()
    except SystemExit as exc:
        code = exc.code
import os
print(json.dumps({"code": code, "compiled": engine.compiled_ready(), "linalg": "scipy.linalg" in sys.modules,
                  "blas": os.environ.get("OPENBLAS_NUM_THREADS"), "out": json.loads(out.getvalue())}))
"""

LIBRARY = """
import json, sys
import shipcheck
r = shipcheck.simulate_round("examples/class-I-scout.toml", round="1", runs=40, seed=3)
from shipcheck import engine
print(json.dumps({"compiled": engine.compiled_ready(), "linalg": "scipy.linalg" in sys.modules,
                  "credits": r.ship_result.credits_mean}))
"""


#: numba's engine, not the one compiled ahead of time (which starts no numba: tests/test_aot.py), as
#: a policy of one's own or an install without a C compiler loads it
NUMBA = {"SHIPCHECK_AOT": "0"}


def test_a_whole_round_command_loads_the_engine_lean_with_the_same_numbers():
    """The command line's process loads the compiled engine (built as the suite starts) without
    scipy.linalg and with one OpenBLAS thread; a library caller's process is left as it was; both
    fly the same numbers."""
    cmd = run(COMMAND, NUMBA)
    lib = run(LIBRARY, NUMBA)
    assert cmd["code"] == 0
    assert cmd["compiled"] is True and lib["compiled"] is True
    assert cmd["linalg"] is False
    assert cmd["blas"] == "1"
    assert lib["linalg"] is True  # numba looked for BLAS, as it does by itself
    assert cmd["out"]["credits"]["mean"] == lib["credits"]


def test_a_user_setting_is_kept():
    cmd = run(COMMAND, {"OPENBLAS_NUM_THREADS": "2", "SHIPCHECK_NUMBA_BLAS": "1", **NUMBA})
    assert cmd["blas"] == "2"
    assert cmd["linalg"] is True


EXACT = """
import json, time
from shipcheck import engine
from shipcheck.cards import find_card
from shipcheck.round.exact import card_odds
from shipcheck.shipfile import load_ship
ship, card = load_ship("examples/class-III-hauler.toml"), find_card("III-16")
seen = []
for _ in range(3):
    r = card_odds(ship, [card], assume_weakest=True)
    seen.append([engine.compiled_ready(), r.to_dict()["fractions"]])
print(json.dumps(seen))
"""


def test_exact_fight_odds_load_the_compiled_engine_from_a_process_s_second_pass():
    """A one-shot question flies plain (cheaper than loading the compiled engine); a process that
    asks again loads the compiled engine (built as the suite starts) and keeps it, with the same
    fractions; ``SHIPCHECK_EXACT_ENGINE=python`` keeps every pass plain."""
    seen = run(EXACT, {})
    assert [ready for ready, _ in seen] == [False, True, True]
    assert seen[0][1] == seen[1][1] == seen[2][1]
    plain = run(EXACT, {"SHIPCHECK_EXACT_ENGINE": "python"})
    assert [ready for ready, _ in plain] == [False, False, False]
    assert plain[0][1] == seen[0][1]
