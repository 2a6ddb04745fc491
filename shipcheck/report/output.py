"""Writing a report folder: the page, each figure as PNG and SVG, the data as JSON, and a manifest.

The manifest (``.shipcheck-report.json``) lists every file the report wrote with its SHA-256. A
later report into the same folder overwrites only files listed there and still unchanged; any
other file in the way is the user's, and the write stops before touching anything.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from . import Report

MANIFEST = ".shipcheck-report.json"
DPI = 120


def render(fig: Any, fmt: str) -> bytes:
    """A figure as PNG or SVG bytes; the same figure gives the same bytes (no dates, fixed ids)."""
    import matplotlib

    buf = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {}
    with matplotlib.rc_context({"svg.hashsalt": "shipcheck", "svg.fonttype": "path"}):
        fig.savefig(buf, format=fmt, dpi=DPI, metadata=metadata,
                    facecolor="white")
    return buf.getvalue()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_manifest(out: Path) -> dict[str, str]:
    """Files the report wrote into ``out`` before, with their hashes (empty when there is none)."""
    path = out / MANIFEST
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def report_files(rep: Report) -> dict[str, bytes]:
    """Every file of the report folder, by name."""
    from .html import data_uri

    files: dict[str, bytes] = {}
    images: dict[str, str] = {}
    for key, fig in rep.figures().items():
        svg = render(fig, "svg")
        files[f"{key}.svg"] = svg
        files[f"{key}.png"] = render(fig, "png")
        images[key] = data_uri(svg, "image/svg+xml")
    files["index.html"] = rep.html(images).encode("utf-8")
    files["report.json"] = (json.dumps(rep.to_dict(), indent=1, sort_keys=False) + "\n").encode("utf-8")
    return files


def write_report(rep: Report, out: Path) -> list[Path]:
    """Write the report into ``out`` (created if needed); returns the paths written."""
    if out.exists() and not out.is_dir():
        raise InputError("the report folder is a file", file=out, expected="a folder (or a new name) for --out")
    files = report_files(rep)
    old = read_manifest(out)
    for name in files:
        target = out / name
        if target.exists() and (name not in old or not target.is_file() or _sha(target.read_bytes()) != old[name]):
            raise InputError(
                "a file that shipcheck did not write (or that changed since) is in the way; nothing was written",
                file=target, expected="another --out folder, or move that file away")
    out.mkdir(parents=True, exist_ok=True)
    for name, digest in old.items():
        stale = out / name
        if name not in files and stale.is_file() and "/" not in name and _sha(stale.read_bytes()) == digest:
            stale.unlink()
    written = []
    for name, data in files.items():
        (out / name).write_bytes(data)
        written.append(out / name)
    manifest = {"written_by": "shipcheck report", "files": {n: _sha(d) for n, d in sorted(files.items())}}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return written
