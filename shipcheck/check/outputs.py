"""Machine formats of `shipcheck check`: concise lines, JSON lines, GitHub annotations and SARIF.

Each violation is located as ``file:line`` where the line is the ``[[tile]]`` entry of the first
square it names (line 1 when that square's tile is not written in the file, e.g. an implied pilot
cabin or an empty start square).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shipcheck.check.rules import RULES, CheckReport, Violation

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


@dataclass
class Checked:
    """One ship file checked: its path as given, the report, and the line of each square's tile."""

    path: str
    report: CheckReport
    lines: dict[int, int] = field(default_factory=dict)

    def line(self, v: Violation) -> int:
        for i in v.cells:
            if i in self.lines:
                return self.lines[i]
        return 1

    def to_dict(self) -> dict[str, Any]:
        d = self.report.to_dict(self.path)
        for vd, v in zip(d["violations"], self.report.violations, strict=True):
            vd["line"] = self.line(v)
        return d


@dataclass
class Unreadable:
    """A file that could not be loaded: its path and the one-line message."""

    path: str
    message: str
    line: int | None = None


def concise(results: list[Checked], unreadable: list[Unreadable]) -> str:
    """``path:line:col: CODE message`` per violation (and per unreadable file), ruff's concise form."""
    out = []
    for c in results:
        for v in c.report.violations:
            out.append(f"{c.path}:{c.line(v)}:1: {v.code} [{v.rule.name}] {v.message}")
    for u in unreadable:
        out.append(f"{u.path}:{u.line or 1}:1: input error: {u.message}")
    return "\n".join(out) + ("\n" if out else "")


def json_lines(results: list[Checked], unreadable: list[Unreadable]) -> str:
    """One JSON object a line: the `check --format json` object of each ship (with `line` per
    violation), then ``{"ship": ..., "error": ...}`` for each unreadable file."""
    out = [json.dumps(c.to_dict(), ensure_ascii=False) for c in results]
    out += [json.dumps({"ship": u.path, "error": u.message}, ensure_ascii=False) for u in unreadable]
    return "\n".join(out) + ("\n" if out else "")


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github(results: list[Checked], unreadable: list[Unreadable]) -> str:
    """GitHub Actions workflow commands: ``::error file=...,line=...,title=...::message``."""
    out = []
    for c in results:
        for v in c.report.violations:
            level = "error" if v.severity == "error" else "warning"
            out.append(f"::{level} file={_gh_prop(c.path)},line={c.line(v)},col=1,"
                       f"title={_gh_prop(f'shipcheck {v.code} ({v.rule.name})')}::{_gh_data(v.message)}")
    for u in unreadable:
        out.append(f"::error file={_gh_prop(u.path)},line={u.line or 1},title=shipcheck input error::"
                   f"{_gh_data(u.message)}")
    return "\n".join(out) + ("\n" if out else "")


def _uri(path: str) -> str:
    p = Path(path)
    return p.as_posix() if not p.is_absolute() else p.as_uri()


def sarif(results: list[Checked], unreadable: list[Unreadable], *, version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log, as GitHub code scanning reads it."""
    index = {code: k for k, code in enumerate(RULES)}
    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": f"{r.summary} {r.why}"},
            "help": {"text": f"{r.why} See `shipcheck rules {r.code}`."},
            "defaultConfiguration": {"level": "error" if r.severity == "error" else "warning"},
            "properties": {"tags": ["galaxy-trucker", "construction"]},
        }
        for r in RULES.values()
    ]
    res = []
    for c in results:
        for v in c.report.violations:
            b = c.report.ship.board
            res.append({
                "ruleId": v.code,
                "ruleIndex": index[v.code],
                "level": "error" if v.severity == "error" else "warning",
                "message": {"text": v.message},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(c.path)},
                                                    "region": {"startLine": c.line(v), "startColumn": 1}}}],
                "properties": {"squares": [b.cell_text(i) for i in v.cells]},
            })
    notes = [{"level": "error", "message": {"text": u.message},
              "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(u.path)},
                                                  "region": {"startLine": u.line or 1}}}]}
             for u in unreadable]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "shipcheck", "version": version, "rules": rules}},
            "invocations": [{"executionSuccessful": not unreadable, "toolExecutionNotifications": notes}],
            "results": res,
        }],
    }
