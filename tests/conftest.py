"""Test-wide settings: the on-disk odds cache goes to a folder of the test session, never the user's."""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("SHIPCHECK_CACHE_DIR", tempfile.mkdtemp(prefix="shipcheck-test-cache-"))


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
