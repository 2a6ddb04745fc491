"""The repository itself: no merge left half done."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXT = {".py", ".md", ".toml", ".yaml", ".yml", ".txt", ".json", ".html", ".cfg", ""}
SKIP = {".git", ".venv", "venv", "build", "dist", "node_modules", "test-artifacts", "__pycache__"}
MARKER = re.compile(r"^(<{7}|>{7})( |$)|^={7}$", re.M)


def test_no_merge_conflict_markers() -> None:
    hits = []
    for p in ROOT.rglob("*"):
        if not p.is_file() or SKIP & set(p.relative_to(ROOT).parts) or p.suffix not in TEXT:
            continue
        if p.stat().st_size > 2_000_000:
            continue
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        hits += [f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}" for m in MARKER.finditer(text)]
    assert not hits, "merge conflict markers: " + ", ".join(hits)
