"""A round where the engine runs plain: the progress callback of ``simulate_round`` moves within a
chunk (a slice at a time), and the command line's output says how the engine ran; a refused round
says only why, before any compile."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from shipcheck import engine, runtime
from shipcheck.round import simulate_round


def test_progress_moves_per_plain_slice_within_one_chunk(monkeypatch):
    monkeypatch.setattr(runtime.state, "force", "plain")
    seen: list[tuple[int, int]] = []
    runs = 2 * engine.PLAIN_SLICE + 5
    r = simulate_round("examples/class-I-scout.toml", round=1, runs=runs, seed=3, batch=4096,
                       progress=lambda done, total: seen.append((done, total)))
    done = [d for d, _ in seen]
    assert {t for _, t in seen} == {runs}
    assert done == sorted(done)
    assert done[-1] == runs and r.runs == runs
    # one chunk, yet the bar heard of the slices flown before it ended
    assert engine.PLAIN_SLICE in done and 2 * engine.PLAIN_SLICE in done


def test_progress_counts_the_runs_of_earlier_chunks(monkeypatch):
    monkeypatch.setattr(runtime.state, "force", "plain")
    seen: list[int] = []
    simulate_round("examples/class-I-scout.toml", round=1, runs=90, seed=3, batch=40,
                   progress=lambda done, total: seen.append(done))
    assert seen == sorted(seen)
    assert 40 in seen and 40 + engine.PLAIN_SLICE in seen and seen[-1] == 90


ROOT = Path(__file__).resolve().parents[1]
BLOCKED = """
import sys
sys.modules["numba"] = None  # import numba raises ImportError
sys.argv = ["shipcheck", "simulate", "examples/class-I-scout.toml", "--round", "1", "--runs", "40", "--seed", "1"]
from shipcheck.cli import main
main()
"""


def test_the_command_line_says_once_why_rounds_flew_as_plain_python():
    env = {k: v for k, v in os.environ.items() if k != "SHIPCHECK_JIT"}
    proc = subprocess.run([sys.executable, "-c", BLOCKED], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**env, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    notes = [line for line in proc.stdout.splitlines() if line.startswith("note: the rules flew as plain Python")]
    assert len(notes) == 1 and "numba is not importable" in " ".join(proc.stdout.split())  # lines fold


def test_a_refused_round_says_only_why_even_before_the_engine_is_built(tmp_path: Path):
    # an empty numba cache: the engine is not compiled, and a bad argument is refused
    # with its one line, without a "compiling the round engine" line before it
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    for args in (["simulate", "examples/class-I-scout.toml", "--round", "1", "--runs", str(10**12)],
                 ["simulate", "examples/class-I-scout.toml", "--round", "1", "--deck", str(tmp_path / "none.toml")],
                 ["place", "examples/class-I-scout.toml", "cannon:0111", "--runs", str(10**17)]):
        out = subprocess.run([sys.executable, "-m", "shipcheck", *args], env=env, capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 2, out.stderr
        assert "compiling" not in out.stderr and out.stderr.count("shipcheck: error:") == 1, out.stderr
