"""Test-wide settings: the on-disk odds cache goes to a folder of the test session, never the user's;
the cross-checks against ../shared (tests/reference/) are collected only where ../shared exists."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import pytest

# users never have ../shared (the reference game facts and the contract's examples; CI has them):
# without it the folder is not collected at all, so the suite a user runs skips nothing
collect_ignore = [] if (Path(__file__).resolve().parents[2] / "shared").is_dir() else ["reference"]

os.environ.setdefault("SHIPCHECK_CACHE_DIR", tempfile.mkdtemp(prefix="shipcheck-test-cache-"))

# A suite started as a background job (`cmd &` in a script, nohup) inherits Ctrl-C ignored, and so
# would every command the tests start: the tests that press Ctrl-C on a run would wait in vain. The
# tests' own processes take Ctrl-C as a terminal's foreground job does (an exec resets a handler to
# the default, where an ignored signal would stay ignored).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    """On a fresh install, start building the compiled round engine at full priority as the suite
    starts (a command's ahead-of-need builder runs niced, and the suite's workers would leave it
    little of the two cores): the tests that fly rounds fly plain only until it is done."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from shipcheck import prebuild

    if (prebuild.built() and not prebuild.aot_wanted()) or prebuild.failed() or prebuild.busy():
        return
    if os.environ.get("SHIPCHECK_JIT", "").strip().lower() in ("0", "off", "no", "false", "plain"):
        return
    prebuild.start()


@pytest.fixture(scope="session", autouse=True)
def _round_engine_compiled_once() -> None:
    """Every test process waits for the compiled round engine before its first test: on a fresh
    install one builder process compiles it (numba, about 45 s of CPU; started as the suite begins,
    see :func:`pytest_configure`) while the workers wait, then each loads it from numba's disk
    cache. Rounds flown before it is ready would fly as plain Python, 40 times slower (the tests of
    that path set it up themselves: tests/test_round_first_use.py, tests/test_engine_modes.py)."""
    import time

    from shipcheck import engine, prebuild

    engine.warm(900.0)
    # then the builder's compile ahead of time (shipcheck.aot, some 20 s more), so that every
    # test's round flies on the same engine whichever test runs first
    end = time.monotonic() + 600.0
    while prebuild.busy() and time.monotonic() < end:
        time.sleep(0.5)


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
