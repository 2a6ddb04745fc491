"""Where ../shared is: the reference game facts and the contract's worked examples.

The tests of this folder are collected only where ../shared exists (``collect_ignore`` in
``tests/conftest.py``): CI has it, a user's clone does not, and the suite a user runs skips nothing.
"""

from __future__ import annotations

from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
REFERENCE = SHARED / "reference"
SPEC_EXAMPLES = SHARED / "spec" / "examples"
