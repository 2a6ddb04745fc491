"""The repository itself: no merge left half done."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXT = {".py", ".md", ".toml", ".yaml", ".yml", ".txt", ".json", ".html", ".cfg", ""}
SKIP = {".git", ".venv", "venv", "build", "dist", "node_modules", "test-artifacts", "__pycache__"}
MARKER = re.compile(r"^(<{7}|>{7})( |$)|^={7}$", re.M)


def text_files() -> Iterator[Path]:
    """The checkout's text files, outside the folders in SKIP and any virtual environment (a folder
    holding ``pyvenv.cfg``, whatever its name): those are not descended into."""
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP and not os.path.exists(os.path.join(folder, d, "pyvenv.cfg")))
        for n in sorted(names):
            p = Path(folder, n)
            if p.suffix in TEXT and p.is_file():
                yield p


def test_no_merge_conflict_markers() -> None:
    hits = []
    for p in text_files():
        if p.stat().st_size > 2_000_000:
            continue
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        hits += [f"{p.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}" for m in MARKER.finditer(text)]
    assert not hits, "merge conflict markers: " + ", ".join(hits)


def test_check_dot_in_the_checkout_reads_every_ship(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`shipcheck check .` here checks every ship (exit 0 or 1: examples/mistakes and tests/cases are
    illegal on purpose); the deliberately malformed files are excluded in [tool.shipcheck]."""
    from clikit import run

    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "check", ".", "--output-format", "concise")
    assert code == 1, err
    assert "input error" not in out + err and "shipcheck: error" not in err
    assert "tests/malformed" not in out and "examples/mistakes/" in out
