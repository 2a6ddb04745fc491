"""Test-wide settings: the on-disk odds cache goes to a folder of the test session, never the user's;
the cross-checks against ../shared (tests/reference/) are collected only where ../shared exists."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# users never have ../shared (the reference game facts and the contract's examples; CI has them):
# without it the folder is not collected at all, so the suite a user runs skips nothing
collect_ignore = [] if (Path(__file__).resolve().parents[2] / "shared").is_dir() else ["reference"]

os.environ.setdefault("SHIPCHECK_CACHE_DIR", tempfile.mkdtemp(prefix="shipcheck-test-cache-"))
