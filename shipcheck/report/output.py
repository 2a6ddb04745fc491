"""Writing a report folder: the page, each figure as PNG and SVG, the data as JSON, and a manifest.

The manifest (``.shipcheck-report.json``) lists every file the report wrote with its SHA-256. A
later report into the same folder overwrites only files listed there and still unchanged; any
other file in the way is the user's (a symlink too), and the write stops before touching anything.
Each file is written atomically (a temporary file renamed into place), so an interrupted report
never leaves a cut-off page, and a file that appears meanwhile is never replaced.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from shipcheck.errors import InputError, printable
from shipcheck.report.encode import DPI as DPI  # kept importable from here
from shipcheck.report.encode import render
from shipcheck.report.html import Document, data_uri
from shipcheck.shipfile import save_text

MANIFEST = ".shipcheck-report.json"
NAME_MAX = 255  # bytes of one file name on the usual file systems
WRITTEN_BY = "shipcheck report"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _ours(path: Path, digest: str | None) -> bool:
    """``path`` is a regular file (not a symlink) with the content the report wrote."""
    return digest is not None and path.is_file() and not path.is_symlink() and _sha(path.read_bytes()) == digest


def _manifest_doc(out: Path) -> Any:
    path = out / MANIFEST
    if path.is_symlink() or not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def read_manifest(out: Path) -> dict[str, str]:
    """Files the report wrote into ``out`` before, with their hashes (empty when there is none)."""
    doc = _manifest_doc(out)
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def foreign_files(out: Path) -> list[str]:
    """Names in an existing folder that no report wrote there (its manifest aside): the user's own
    files, among which a report would be scattered (empty for a new folder or a report folder)."""
    try:  # (a name too long to look up is refused, with its reason, when the report is written)
        if not out.is_dir() or out.is_symlink():
            return []
        ours = set(read_manifest(out)) | {MANIFEST}
        return sorted(p.name for p in out.iterdir() if p.name not in ours)
    except OSError:
        return []


def inline_images(figures: dict[str, Any]) -> dict[str, str]:
    """Each figure as an SVG data URI (crisp on any screen)."""
    from shipcheck.report.html import data_uri

    return {k: data_uri(render(fig, "svg"), "image/svg+xml") for k, fig in figures.items()}


def report_files(rep: Document) -> dict[str, bytes]:
    """Every file of the report folder, by name."""
    files: dict[str, bytes] = {}
    images: dict[str, str] = {}
    for key, fig in rep.figures().items():
        svg = render(fig, "svg")
        files[f"{key}.svg"] = svg
        files[f"{key}.png"] = render(fig, "png")
        images[key] = data_uri(svg, "image/svg+xml")
    # the phone's figures live in the page only (the files beside it are the wide ones)
    phone = {key: data_uri(render(fig, "svg"), "image/svg+xml") for key, fig in rep.figures(phone=True).items()}
    files["index.html"] = rep.html(images, phone).encode("utf-8")
    files["report.json"] = (json.dumps(rep.to_dict(), indent=1, sort_keys=False) + "\n").encode("utf-8")
    return files


def file_names(rep: Document) -> list[str]:
    """The names of the files :func:`report_files` gives, in its order, without drawing."""
    return [f"{k}.{ext}" for k in rep.figure_names() for ext in ("svg", "png")] + ["index.html", "report.json"]


def drawn_files(rep: Document) -> dict[str, bytes]:
    """:func:`report_files` of ``rep``, drawn once per report: a report does not change, so writing
    it again (another folder, or the same one) draws nothing twice."""
    files = rep.__dict__.get("_drawn_files")
    if files is None:
        files = rep.__dict__["_drawn_files"] = report_files(rep)
    return files  # type: ignore[no-any-return]


def check_folder(out: Path) -> None:
    """Refuse, before anything is drawn, a report folder that cannot be made: a file where the
    folder or one of its parents should be, or a name longer than the file system takes."""
    shown = printable(str(out))
    if "\x00" in str(out):
        raise InputError("cannot write the report there (the path holds a NUL byte)", file=shown.replace("\x00", ""))
    for part in out.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise InputError(f"a folder name of the report path is too long ({len(os.fsencode(part))} bytes)",
                             file=shown, value=part, expected=f"names of at most {NAME_MAX} bytes")
    for folder in (*reversed(out.parents), out):
        if os.path.lexists(folder) and not folder.is_dir():
            what = "the report folder is a file" if folder == out else f"{printable(str(folder))} is a file, not a folder"
            raise InputError(what, file=shown, expected="a folder (or a new name) for --out")


def write_report(rep: Document, out: Path) -> list[Path]:
    """Write the report into ``out`` (created if needed); returns the paths written."""
    check_folder(out)
    old = read_manifest(out)
    manifest_path = out / MANIFEST
    doc = _manifest_doc(out)
    if os.path.lexists(manifest_path) and not (isinstance(doc, dict) and doc.get("written_by") == WRITTEN_BY):
        raise InputError("a file that shipcheck did not write is in the way; nothing was written",
                         file=manifest_path, expected="another folder, or that file moved away")
    # refused before anything is drawn (the names are known from the report alone)
    for name in file_names(rep):
        target = out / name
        if os.path.lexists(target) and not _ours(target, old.get(name)):
            raise InputError(
                "a file that shipcheck did not write (or that changed since) is in the way; nothing was written",
                file=target, expected="another folder, or that file moved away")
    files = drawn_files(rep)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make the report folder ({exc.strerror or exc})", file=printable(str(out)),
                         expected="a folder you may write in, for --out") from None
    for name, digest in old.items():
        stale = out / name
        if name not in files and "/" not in name and _ours(stale, digest):
            stale.unlink()
    written = []
    for name, data in files.items():
        target = out / name
        save_text(target, data, overwrite=os.path.lexists(target))
        written.append(target)
    manifest = {"written_by": WRITTEN_BY, "files": {n: _sha(d) for n, d in sorted(files.items())}}
    save_text(manifest_path, json.dumps(manifest, indent=1) + "\n", overwrite=os.path.lexists(manifest_path))
    return written
