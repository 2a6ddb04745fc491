"""Start-up: `import shipcheck` loads no heavy library, and the light commands load Typer and nothing
heavier.

Whole-process time is what a user feels; it is measured in ``benchmarks/bench_startup.py`` (`check`
against ``python -c "import typer"``). Here we assert the cause that keeps it low: which modules a
command imports (``python -X importtime``). Typer is the command line's floor; rich (which Typer
loads only for help and errors), pydantic (which later Typer versions use to coerce every option)
and click itself (Typer carries its own) stay out; so does pathspec when only files are named (the
repository's own ``exclude`` setting applies to folders walked).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLUE = ROOT / "examples" / "blue-round1.toml"
HEAVY = {"numpy", "scipy", "pandas", "matplotlib", "rich", "multiprocessing", "concurrent", "distributed",
         "dask", "pydantic", "numba", "llvmlite", "click", "pathspec"}


def imported_modules(*args: str, full: bool = False) -> set[str]:
    """Top-level names (``full``: whole names) of every module a Python process imports (from -X importtime)."""
    proc = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            names.add(name if full else name.split(".")[0])
    assert names, proc.stderr[-2000:]
    return names


def test_import_shipcheck_is_light() -> None:
    assert not imported_modules("-c", "import shipcheck") & (HEAVY | {"typer"})


def test_import_cli_is_light() -> None:
    loaded = imported_modules("-c", "import shipcheck.cli")
    assert "typer" in loaded and not loaded & HEAVY


@pytest.mark.parametrize("args", [["check", str(BLUE)], ["show", str(BLUE)], ["check", "--format", "json", str(BLUE)],
                                  ["rules", "C1"],
                                  # a usage error is said before the engines are imported
                                  ["simulate", str(BLUE)], ["odds", str(BLUE)]],
                         ids=lambda a: " ".join(a[:1] + [x for x in a[1:] if x.startswith("-")]))
def test_light_commands_import_nothing_heavy(args: list[str]) -> None:
    heavy = imported_modules("-m", "shipcheck", *args) & HEAVY
    assert not heavy, f"`shipcheck {' '.join(args)}` imports {sorted(heavy)}"


def test_small_exact_odds_start_no_compiler() -> None:
    # the rules of flight live once, in the engine's functions over numpy arrays (shipcheck.engine):
    # exact odds read them there, as plain Python for a small question, with no numba started
    args = ["odds", str(BLUE), "--card", "I-09"]
    heavy = imported_modules("-m", "shipcheck", *args) & HEAVY
    assert not heavy - {"numpy"}, f"`shipcheck {' '.join(args)}` imports {sorted(heavy)}"


def test_small_exact_odds_load_no_masked_arrays() -> None:
    # np.unique of a plain array loads numpy.ma (10 ms of a small question): the summaries do without
    loaded = imported_modules("-m", "shipcheck", "odds", str(ROOT / "examples" / "class-I-scout.toml"), "--attack",
                              "small-meteor:front", "--no-cache", full=True)
    assert "numpy" in loaded and "numpy.ma" not in loaded


def test_public_names_load_lazily_and_resolve() -> None:
    code = ("import shipcheck, sys; assert 'shipcheck.flight.odds' not in sys.modules; "
            "import shipcheck.check.fix; f = shipcheck.fix; assert callable(f) and f.__module__ == 'shipcheck.check.fix'; "
            "assert shipcheck.stats.__module__ == 'shipcheck.flight.stats'; "
            "assert set(shipcheck.__all__) <= set(dir(shipcheck)); "
            "[getattr(shipcheck, n) for n in shipcheck.__all__]")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_all_lists_every_lazy_name() -> None:
    import shipcheck

    assert sorted(shipcheck.__all__) == sorted(shipcheck._EXPORTS)
