"""The files the workbench may touch: the folder it was started in, and the ship file it was given.

Every path a request names goes through :meth:`Workspace.path`: a relative path inside the folder
(or the named file's own path). Absolute paths elsewhere, ``..``, NUL bytes and any symbolic link on
the way are refused with an :class:`~shipcheck.errors.InputError`, so a page, or a script holding
the token, can neither read nor write outside what the user pointed the server at.

The workspace also remembers the files it opened and the text it read from them: saving over a
file is allowed without asking only when the workbench opened it and it has not changed on disk
since (or when the user named it on the command line and it did not exist yet).
"""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from dataclasses import dataclass, field
from pathlib import Path

from shipcheck.errors import InputError, printable, read_text_file
from shipcheck.shipfile import SHIP_BYTES

#: ship files listed at most (a start folder may be a home folder)
MAX_LISTED = 500
#: characters of a path a request may name
MAX_PATH = 1024


def _board_of(ship: Path) -> set[Path]:
    """The board file a ship file names with ``board = "..."`` (none for a built-in class)."""
    import tomllib

    try:
        ref = tomllib.loads(read_text_file(ship, what="ship file", limit=SHIP_BYTES)).get("board")
    except (InputError, tomllib.TOMLDecodeError):
        return set()
    if not isinstance(ref, str) or not ref or "\x00" in ref:
        return set()
    return {Path(os.path.normpath(ship.parent / ref))}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Workspace:
    """The start folder, the file named on the command line (if any) and what was opened."""

    root: Path
    named: Path | None = None
    opened: dict[Path, str] = field(default_factory=dict)  # path -> digest of the text read or written
    boards: set[Path] = field(default_factory=set)  # board files outside the folder the named ship uses
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def start(cls, folder: str | Path, ship: str | Path | None = None) -> Workspace:
        root = Path(folder).resolve()
        named = None
        if ship is not None:
            p = Path(ship)
            named = (p if p.is_absolute() else root / p)
            named = named.parent.resolve() / named.name  # the folder resolved, never the file (a link stays one)
        ws = cls(root, named)
        if named is not None:
            ws.boards |= _board_of(named)
        return ws

    def board_allowed(self, target: Path) -> bool:
        """Whether a ship may read the board file ``target`` though it is outside the folder: the
        named ship's own board file."""
        return Path(os.path.normpath(target)) in self.boards

    # -- paths -----------------------------------------------------------------------------------
    def display(self, p: Path) -> str:
        """A path as the page shows it: relative to the start folder, else as named."""
        try:
            return p.relative_to(self.root).as_posix()
        except ValueError:
            return str(p)

    def path(self, name: object, *, key: str = "path") -> Path:
        """The file a request names, checked: inside the start folder (no symbolic link on the way),
        or the file named on the command line."""
        if not isinstance(name, str) or not name.strip():
            raise InputError("bad file path", key=key, value=name, expected="a path inside the start folder")
        if len(name) > MAX_PATH or "\x00" in name:
            raise InputError("bad file path", key=key, value=printable(name[:80].replace("\x00", "")),
                             expected=f"a path of at most {MAX_PATH} characters, without NUL bytes")
        p = Path(name)
        if p.is_absolute():
            if self.named is not None and p == self.named:
                return p
            try:
                p = p.relative_to(self.root)
            except ValueError:
                raise InputError("path outside the folder the workbench was started in", key=key, value=name,
                                 expected=f"a path inside {self.root}") from None
        elif self.named is not None and (self.root / p) == self.named:
            return self.named
        if any(part == ".." for part in p.parts):
            raise InputError("path leaves the folder the workbench was started in", key=key, value=name,
                             expected="a path inside the start folder, without `..`")
        full = self.root
        for part in p.parts:
            full = full / part
            try:
                st = os.lstat(full)
            except FileNotFoundError:
                break  # what does not exist yet cannot be a link
            except OSError as exc:
                raise InputError(f"cannot use this path ({exc.strerror or exc})", key=key, value=name) from None
            if stat.S_ISLNK(st.st_mode):
                raise InputError("path goes through a symbolic link", key=key, value=name,
                                 expected="a path without symbolic links (the workbench never follows them)")
        return self.root / p

    # -- files -----------------------------------------------------------------------------------
    def read(self, name: object) -> tuple[Path, str]:
        """The text of a ship file a request names; remembered as opened."""
        p = self.path(name)
        text = read_text_file(p, what="ship file", limit=SHIP_BYTES)
        with self.lock:
            self.opened[p] = digest(text)
        return p, text

    def may_write(self, p: Path) -> str | None:
        """Why writing ``p`` needs the user's confirmation, or None when it does not."""
        if not os.path.lexists(p):
            return None
        if p.is_symlink() or not p.is_file():
            return "it is not a regular file"
        with self.lock:
            known = self.opened.get(p)
        if known is None:
            return "the file exists and the workbench did not open it"
        try:
            now = digest(read_text_file(p, what="ship file", limit=SHIP_BYTES))
        except InputError:
            return "the file exists and cannot be read back"
        if now != known:
            return "the file changed on disk since the workbench opened it"
        return None

    def wrote(self, p: Path, text: str) -> None:
        with self.lock:
            self.opened[p] = digest(text)

    def ship_files(self) -> list[str]:
        """Ship files in the start folder (as ``shipcheck check FOLDER`` finds them), and the named one."""
        from shipcheck.check.walk import find_ship_files

        found = find_ship_files([self.root], root=self.root).files
        out = []
        for f in found:
            shown = self.display(f)
            if f.is_symlink() or not shown.isprintable() or shown != shown.encode("utf-8", "replace").decode():
                continue  # (a name no request could give back: not UTF-8, or holding control characters)
            out.append(shown)
            if len(out) >= MAX_LISTED:
                break
        if self.named is not None and self.named.is_file():
            shown = self.display(self.named)
            if shown not in out:
                out.insert(0, shown)
        return out
