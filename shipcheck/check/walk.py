"""Finding ship files in folders, the way ruff finds Python files, and checking many at once.

A folder is walked recursively for ``*.toml`` files. Hidden folders (``.git``, ``.venv``, ...),
virtual environments (any folder holding ``pyvenv.cfg``) and a few build folders are skipped;
``.gitignore`` files are respected (those of the folder walked, of every folder below it, and of
its parents up to the repository root); ``exclude`` patterns (gitignore syntax, relative to the
folder the configuration or the command runs from) leave out more. A TOML file that is not a ship
file — no ``format`` key (``pyproject.toml``, a taplo config), a board file (it has ``cells``), or
a file with neither ``class``, ``board`` nor placed tiles (a tile catalogue) — is skipped and
counted, not reported as unreadable. A file named on the command line is always
read.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SKIP_DIRS = frozenset({"__pycache__", "node_modules", "venv", "__pypackages__", "site-packages", "build", "dist"})


@dataclass
class Found:
    """The result of a walk: ship files to check, and the TOML files skipped as not ship files."""

    files: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)  # TOML files that are not ship files
    ignored: int = 0  # paths left out by .gitignore or exclude


def bad_pattern(patterns: Sequence[str]) -> int | None:
    """The index of the first pattern gitignore syntax cannot read (``!`` alone, a lone ``\\``), or None."""
    if not any("!" in p or "\\" in p for p in patterns):  # only these two can be unreadable: no
        return None  # pathspec to import for a config's plain patterns (check's start, ~10 ms)
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines(list(patterns))
        return None
    except ValueError:  # pathspec's GitIgnorePatternError: find which one
        for n, line in enumerate(patterns):
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except ValueError:
                return n
        return 0


def _spec(lines: Sequence[str], *, file: Path | None = None, key: str = "exclude") -> Any:
    """The patterns compiled; one gitignore syntax cannot read is an :class:`InputError` naming it
    (and its file and line, for a .gitignore)."""
    import pathspec

    from shipcheck.errors import InputError, printable

    n = bad_pattern(lines)
    if n is not None:
        raise InputError("a pattern gitignore syntax cannot read", file=printable(str(file)) if file else None,
                         line=n + 1 if file else None, key=None if file else key, value=lines[n],
                         expected="a gitignore pattern, e.g. drafts/ or *.old.toml (a lone ! or \\ matches nothing)")
    return pathspec.GitIgnoreSpec.from_lines(list(lines))


def _read_gitignore(folder: Path) -> Any | None:
    p = folder / ".gitignore"
    try:
        text = p.read_text(encoding="utf-8") if p.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None
    return None if text is None else _spec(text.splitlines(), file=p)


def _parent_gitignores(folder: Path) -> list[tuple[Path, Any]]:
    """The .gitignore files of a folder's parents, up to the repository root (a folder with .git);
    none outside a repository, as git would have it."""
    here = folder.resolve()
    if os.path.exists(here / ".git"):  # (os.path: False, not an error, where a folder cannot be read)
        return []
    out: list[tuple[Path, Any]] = []
    for parent in here.parents:
        spec = _read_gitignore(parent)
        if spec is not None:
            out.append((parent, spec))
        if os.path.exists(parent / ".git"):
            return out
    return []


def _ignored(path: Path, is_dir: bool, specs: Sequence[tuple[Path, Any]]) -> bool:
    for base, spec in specs:
        try:
            rel = path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + ("/" if is_dir else "")):
            return True
    return False


def classify(path: Path) -> str:
    """``"ship"``, ``"board"`` or ``"other"`` (not a ship file); unreadable TOML counts as a ship
    file so that its error is reported."""
    from shipcheck.errors import InputError, read_text_file, read_toml
    from shipcheck.shipfile import SHIP_BYTES

    try:  # read safely: a walked folder may hold anything (huge files, FIFOs, 5,000-digit numbers)
        doc = read_toml(read_text_file(path, what="file", limit=SHIP_BYTES), path)
    except InputError:
        return "ship"
    if "cells" in doc:
        return "board"
    tiles = doc.get("tile")
    placed = isinstance(tiles, list) and any(isinstance(t, dict) and "at" in t for t in tiles)
    return "ship" if "format" in doc and ("class" in doc or "board" in doc or placed) else "other"


def find_ship_files(paths: Sequence[str | Path], *, exclude: Sequence[str] = (), root: str | Path | None = None,
                    respect_gitignore: bool = True) -> Found:
    """Ship files named in ``paths`` or found in the folders among them (see the module docstring)."""
    root_path = Path(root) if root is not None else Path.cwd()
    if exclude and bad_pattern(exclude) is not None:
        _spec(exclude)  # raises, naming the pattern, even when only files are named
    excl: list[tuple[Path, Any]] = []  # compiled for the first folder walked (files named skip it)
    found = Found()
    for name in paths:
        p = Path(name)
        if not os.path.isdir(p):
            found.files.append(p)  # (one that cannot be read is said so when it is loaded)
            continue
        if exclude and not excl:
            excl = [(root_path, _spec(exclude))]
        # the patterns are read from the root (the settings' folder, or the working one); for a
        # folder outside it, from that folder (gitignore's own rule: a path is matched from its base)
        inside = p.resolve().is_relative_to(root_path.resolve())
        specs: list[tuple[Path, Any]] = list(excl) if inside or not excl else [(p, excl[0][1])]
        if respect_gitignore:
            specs += _parent_gitignores(p)
        # a folder that cannot be listed is reported like a file that cannot be read
        for folder, dirs, files in os.walk(p, onerror=functools.partial(_unlisted, found, p)):
            here = Path(folder)
            local = list(specs)
            if respect_gitignore:
                own = _read_gitignore(here)
                if own is not None:
                    local.append((here, own))
                    specs.append((here, own))
            keep = []
            for d in sorted(dirs):
                sub = here / d
                if d.startswith(".") or d in SKIP_DIRS or os.path.exists(sub / "pyvenv.cfg"):
                    continue
                if _ignored(sub, True, local):
                    found.ignored += 1
                    continue
                keep.append(d)
            dirs[:] = keep
            for f in sorted(files):
                if not f.endswith(".toml") or f.startswith("."):
                    continue
                fp = here / f
                if _ignored(fp, False, local):
                    found.ignored += 1
                    continue
                (found.files if classify(fp) == "ship" else found.skipped).append(fp)
    return found


def _unlisted(found: Found, top: Path, exc: OSError) -> None:
    found.files.append(Path(exc.filename or top))


def _strings(value: Any, key: str, what: str) -> list[str] | None:
    """None, one string (one item: never read letter by letter) or a list or tuple of strings."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if not isinstance(value, (list, tuple, set, frozenset)) or not all(isinstance(v, str) for v in value):
        from shipcheck.errors import InputError, short_repr

        raise InputError(f"bad `{key}`", key=key, value=short_repr(value),
                         expected=f"{what}: a string or a list of them")
    return list(value)


def check_many(paths: Sequence[str | Path] | str | Path, *, select: Iterable[str] | None = None,
               ignore: Iterable[str] | None = None, exclude: Sequence[str] = ()) -> Any:
    """Check ship files and folders of them; a pandas DataFrame with one row per ship file.

    Columns: ``path``, ``name``, ``class``, ``status`` (``legal``, ``illegal`` or ``unreadable``),
    ``legal`` (None when unreadable), ``errors``, ``warnings``, ``codes`` (the codes found, comma-
    separated), ``exposed_connectors`` and ``error`` (the input error of an unreadable file). TOML
    files that are not ship files are skipped; their paths are in ``df.attrs["skipped"]``.
    """
    import pandas as pd

    from shipcheck.check.rules import check
    from shipcheck.errors import InputError
    from shipcheck.shipfile import load_ship
    from shipcheck.validate import instance

    if isinstance(paths, (str, Path)):
        paths = [paths]
    instance(paths, (list, tuple), key="paths", expected="a file or folder path, or a list of them")
    for p in paths:
        instance(p, (str, Path), key="paths", expected="file and folder paths (str or Path)")
    found = find_ship_files(paths, exclude=_strings(exclude, "exclude", "gitignore patterns") or ())
    sel, ign = _strings(select, "select", "rule codes"), _strings(ignore, "ignore", "rule codes")
    rows = []
    for f in found.files:
        row: dict[str, Any] = {"path": str(f), "name": None, "class": None, "status": "unreadable", "legal": None,
                               "errors": 0, "warnings": 0, "codes": "", "exposed_connectors": None, "error": None}
        try:
            ship = load_ship(f)
        except InputError as exc:
            row["error"] = "\n".join(e.text for e in exc.errors)  # every mistake of the file
            rows.append(row)
            continue
        r = check(ship, select=sel, ignore=ign)
        row.update(name=ship.name, **{"class": ship.board.name}, status="legal" if r.legal else "illegal",
                   legal=r.legal, errors=len(r.errors), warnings=len(r.warnings),
                   codes=",".join(dict.fromkeys(v.code for v in r.violations)),
                   exposed_connectors=r.exposed_connectors)
        rows.append(row)
    cols = ["path", "name", "class", "status", "legal", "errors", "warnings", "codes", "exposed_connectors", "error"]
    df = pd.DataFrame(rows, columns=cols)
    df.attrs["skipped"] = [str(p) for p in found.skipped]
    return df
