"""Test-wide settings: the on-disk odds cache goes to a folder of the test session, never the user's."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SHIPCHECK_CACHE_DIR", tempfile.mkdtemp(prefix="shipcheck-test-cache-"))
