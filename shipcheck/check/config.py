"""Project settings for `shipcheck check`: ``[tool.shipcheck]`` in ``pyproject.toml`` or a
``shipcheck.toml``, as ruff reads ``[tool.ruff]``.

The settings file is looked for from the current folder upwards; in each folder a
``shipcheck.toml`` (top-level keys, or a ``[tool.shipcheck]`` table) comes before a
``pyproject.toml`` that has a ``[tool.shipcheck]`` table. ``--config FILE`` names one instead.
Command-line options always win over the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shipcheck.errors import InputError, read_text_file, read_toml

KEYS = ("select", "ignore", "edition", "exclude", "output-format")
SETTINGS_BYTES = 4 * 1024 * 1024  # the largest settings file (a pyproject.toml) read
OUTPUT_FORMATS = ("text", "concise", "json", "json-lines", "github", "sarif")


@dataclass(frozen=True)
class Settings:
    """What a settings file says; None for what it leaves to the defaults."""

    path: Path | None = None  # the file read, if any
    select: frozenset[str] | None = None
    ignore: frozenset[str] | None = None
    edition: str | None = None
    exclude: tuple[str, ...] = ()
    output_format: str | None = None
    root: Path = field(default_factory=Path.cwd)  # the folder `exclude` patterns are relative to


def _table(path: Path) -> tuple[dict[str, Any] | None, str]:
    text = read_text_file(path, what="settings file", limit=SETTINGS_BYTES)
    doc = read_toml(text, path)
    tool = doc.get("tool", {})
    if isinstance(tool, dict) and isinstance(tool.get("shipcheck"), dict):
        return tool["shipcheck"], text
    if path.name == "shipcheck.toml":
        return {k: v for k, v in doc.items() if k != "tool"}, text
    return None, text


def find_settings_file(start: str | Path | None = None) -> Path | None:
    """The settings file for a run started in ``start`` (default: the current folder), if any."""
    here = Path(start or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        for name in ("shipcheck.toml", "pyproject.toml"):
            cand = folder / name
            if cand.is_file() and (name == "shipcheck.toml" or _table(cand)[0] is not None):
                return cand
    return None


def load_settings(path: str | Path | None = None, *, start: str | Path | None = None) -> Settings:
    """Read a settings file (``path``, or the one found from ``start``); empty settings if none."""
    from shipcheck.check.rules import RULES

    p = Path(path) if path is not None else find_settings_file(start)
    if p is None:
        return Settings()
    table, text = _table(p)
    if table is None:
        if path is not None:
            raise InputError("no [tool.shipcheck] table in this file", file=p, key="--config",
                             expected="a shipcheck.toml or a pyproject.toml with [tool.shipcheck]")
        return Settings()
    lines = text.splitlines()
    first = next((n for n, ln in enumerate(lines) if re.match(r"^\s*\[tool\.shipcheck\]", ln)), 0)

    def err(msg: str, key: str, value: Any, expected: str) -> InputError:
        pat = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=")
        line = next((n + 1 for n in range(first, len(lines)) if pat.match(lines[n])), None)
        return InputError(msg, file=p, line=line, key=key, value=value, expected=expected)

    for k in table:
        if k not in KEYS:
            raise err("unknown setting", k, table[k], "one of " + ", ".join(KEYS))

    def codes(key: str) -> frozenset[str] | None:
        v = table.get(key)
        if v is None:
            return None
        if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
            raise err(f"`{key}` must be a list of rule codes", key, v, 'e.g. ["C1", "C2"]')
        bad = [c for c in v if c.upper() not in RULES]
        if bad:
            raise err(f"unknown rule code in `{key}`", key, bad[0], "codes from `shipcheck rules`: " + ", ".join(RULES))
        return frozenset(c.upper() for c in v)

    edition = table.get("edition")
    if edition is not None and edition not in ("2007", "2021"):
        raise err("unknown edition", "edition", edition, '"2007" or "2021"')
    exclude = table.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(x, str) for x in exclude):
        raise err("`exclude` must be a list of patterns", "exclude", exclude, 'e.g. ["drafts/", "*.old.toml"]')
    from shipcheck.check.walk import bad_pattern

    n = bad_pattern(exclude)
    if n is not None:
        raise err("a pattern in `exclude` gitignore syntax cannot read", "exclude", exclude[n],
                  'gitignore patterns, e.g. ["drafts/", "*.old.toml"] (a lone ! or \\ matches nothing)')
    fmt = table.get("output-format")
    if fmt is not None and fmt not in OUTPUT_FORMATS:
        raise err("unknown output format", "output-format", fmt, "one of " + ", ".join(OUTPUT_FORMATS))
    return Settings(path=p, select=codes("select"), ignore=codes("ignore"), edition=edition,
                    exclude=tuple(exclude), output_format=fmt, root=p.parent)
