"""Test-wide settings: the on-disk odds cache (and, where bytecode is off, the bytecode) go to folders
of the test session, never the user's, removed at its end; the engine is compiled once before the
tests; the cross-checks against ../shared (tests/reference/) are collected only where it exists."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

# users never have ../shared (the reference game facts and the contract's examples; CI has them):
# without it the folder is not collected at all, so the suite a user runs skips nothing
collect_ignore = [] if (Path(__file__).resolve().parents[2] / "shared").is_dir() else ["reference"]


def _session_folder(prefix: str) -> str:
    """A temporary folder for this test run, removed when the process that made it (the one that
    started the suite) ends."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, True)
    return folder


if "SHIPCHECK_CACHE_DIR" not in os.environ:  # the test processes inherit the starting process's
    os.environ["SHIPCHECK_CACHE_DIR"] = _session_folder("shipcheck-test-cache-")

# Where bytecode is off (PYTHONDONTWRITEBYTECODE or -B, as on the project's machines), each of the
# suite's ~160 Python processes would compile shipcheck and the test modules from source again: they
# share one bytecode folder for the run instead (PYTHONPYCACHEPREFIX, removed at the end), so the
# checkout still gets no __pycache__. A prefix of the user's own is left as it is.
if sys.dont_write_bytecode and not sys.pycache_prefix and not os.environ.get("PYTEST_XDIST_WORKER"):
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"] = _session_folder("shipcheck-test-bytecode-")
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# A suite started as a background job (`cmd &` in a script, nohup) inherits Ctrl-C ignored, and so
# would every command the tests start: the tests that press Ctrl-C on a run would wait in vain. The
# tests' own processes take Ctrl-C as a terminal's foreground job does (an exec resets a handler to
# the default, where an ignored signal would stay ignored).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    """Compile the engine once, in the process that starts the suite, before any test runs: each test
    process then loads it from the cache (``shipcheck compile``; nothing where it is cached already:
    the cache's key holds the sources' folder, so another checkout's marks do not count)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from shipcheck import runtime

    if not runtime.compiled() or all(runtime.cached(e) for e in ("round", "joint", "exact")):
        return
    import subprocess
    import sys

    # two processes: the round engine in one, the exact engines in the other (two cores)
    code = "from shipcheck.cli.setup import {}; {}()"
    procs = [subprocess.Popen([sys.executable, "-c", code.format(f, f)]) for f in ("compile_round", "compile_exact")]
    for p in procs:
        p.wait()


@pytest.fixture(autouse=True)
def _no_width_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts without ``COLUMNS`` (errors then stay one line each, as a script reads them);
    a test about widths sets it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium for the browser tests: a failure in CI, where .ci/run installs it; skipped
    elsewhere when it is missing."""
    from cdp import find_chromium

    path = find_chromium()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: .ci/run installs Debian's chromium")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return path
