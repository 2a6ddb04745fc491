"""Input errors: a bad file or argument is reported, never a traceback.

:class:`InputError` is the one error type for bad input, from files and from library arguments
alike (a :class:`ValueError`). A file with several mistakes raises one :class:`InputError` whose
:attr:`~InputError.errors` holds them all, in file order. :class:`UnknownNameError` (also a
:class:`KeyError`) is the InputError of a look-up by name (a card id, a board class, an edition).

This module also holds the safe file reader used for every file the tool opens
(:func:`read_text_file`): regular files only, with a size limit, UTF-8 text.
"""

from __future__ import annotations

import os
import re
import reprlib
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_ERRORS",
    "InputError",
    "Collector",
    "Locator",
    "ShipFormatError",
    "UnknownNameError",
    "bounded_depth",
    "check_type",
    "printable",
    "read_text_file",
    "read_toml",
    "short_repr",
    "shown_value",
    "suggest",
    "utf8_text",
]

MAX_DEPTH = 32  # arrays and tables nested deeper than this are refused (meta data included)
MAX_ERRORS = 100  # errors kept per file; the rest are counted
VALUE_CHARS = 60  # a value shown in a message is cut to about this many characters


# -- text for messages ----------------------------------------------------------------------------
# C0 and C1 controls, DEL, and the invisible format characters that reorder or hide text
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def printable(text: str) -> str:
    """``text`` with control characters and bidi overrides removed, so a name from a file cannot
    clear a terminal, set its title or reorder what is shown. Tabs and newlines become spaces."""
    return _UNSAFE.sub("", str(text).replace("\t", " ").replace("\n", " "))


class _ShortRepr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = VALUE_CHARS
        self.maxother = VALUE_CHARS
        self.maxlist = self.maxtuple = self.maxset = 6
        self.maxdict = 4

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 200:  # repr() of a huge int is slow, and refused past 4,300 digits
            return f"<an integer of about {round(x.bit_length() * 0.30103)} digits>"
        return super().repr_int(x, level)


_REPR = _ShortRepr()


def short_repr(value: Any) -> str:
    """A repr cut to a readable length: long strings and lists elided, deep nesting cut, huge
    integers described; never fails."""
    try:
        return _REPR.repr(value)
    except Exception:  # a value whose repr fails is still reported
        return f"<{type(value).__name__}>"


def suggest(word: Any, choices: Iterable[str]) -> str | None:
    """The choice closest to ``word`` (difflib, or the same word in another case), if one is close."""
    import difflib

    if not isinstance(word, str) or not word or len(word) > 100:
        return None
    options = [c for c in choices if isinstance(c, str)]
    for c in options:
        if c.lower() == word.lower():
            return c
    hit = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return hit[0] if hit else None


# -- the error type -------------------------------------------------------------------------------
class InputError(ValueError):
    """Input that cannot be read as the format or the function says.

    Carries the file (None for a library argument), the TOML line where known, the key (or the
    argument's name), the bad value, what was expected and a "did you mean" hint, so the CLI can
    print one clear line per error and exit 2. ``errors`` holds every error found in the same
    file (``(self,)`` when there is one); :func:`str` gives the first, with a count of the others.

    With ``private=True`` (a file the user did not name, such as a board reached through a ship)
    the value is not kept, so no message can show it.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        key: str | None = None,
        value: Any = None,
        expected: str | None = None,
        hint: str | None = None,
        private: bool = False,
    ) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.key = key
        self.value = None if private else value
        self.expected = expected
        self.hint = hint
        self.private = private
        self.errors: tuple[InputError, ...] = (self,)
        self.omitted = 0  # errors found past MAX_ERRORS and not kept
        super().__init__(self.text)

    @property
    def text(self) -> str:
        """This error alone, on one line: ``file:line: message; key `k`; value v (expected e); did you mean `x`?``."""
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
        parts = [f"{where}: {self.message}"]
        if self.key is not None:  # (a key is the file's too: a megabyte of one is shortened like a value)
            parts.append(f"key `{self.key if len(self.key) <= 120 else self.key[:100] + '…'}`")
        if self.value is not None:
            parts.append(f"value {short_repr(self.value)}")
        text = "; ".join(parts)
        if self.expected:
            text += f" (expected {self.expected})"
        if self.hint:
            text += f"; did you mean `{self.hint}`?"
        return printable(" ".join(text.split()))

    def lines(self) -> list[str]:
        """Every error found, one line each (what the command line prints after ``shipcheck: error:``);
        an error about an option or argument names no file, and errors past the limit are counted."""
        out = [e.text.removeprefix("<input>: ") if e.file is None else e.text for e in self.errors]
        if self.omitted:
            out.append(f"{self.file or 'input'}: {self.omitted} more error{'s' if self.omitted != 1 else ''} not shown")
        return out

    def __str__(self) -> str:
        more = len(self.errors) - 1 + self.omitted
        return self.text + (f" [and {more} more error{'s' if more != 1 else ''} in .errors]" if more else "")

    @classmethod
    def many(cls, errors: list[InputError], omitted: int = 0) -> InputError:
        """One error standing for all of ``errors`` (the first, with ``errors`` set to all of them)."""
        first = errors[0]
        first.errors = tuple(errors)
        first.omitted = omitted
        first.args = (str(first),)
        return first


class UnknownNameError(InputError, KeyError):
    """An :class:`InputError` for a name that names nothing (a card id, a board class, an
    edition); also a :class:`KeyError`, as a failed look-up."""

    def __str__(self) -> str:  # KeyError would show the repr of the message
        return InputError.__str__(self)


# The name the style guide uses for parse errors; the same class.
ShipFormatError = InputError


class _Plain(str):
    """Text a message shows as it is, without quotes."""

    def __repr__(self) -> str:
        return str(self)


def shown_value(value: Any) -> Any:
    """A bad value as a message shows it: numbers and strings as they are, None as None, any other
    object as ``<its type>`` (its repr could be long, or fail)."""
    if value is None:
        return _Plain("None")
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return value
    return _Plain(f"<{type(value).__name__}>")


def check_type(value: Any, kind: type | tuple[type, ...], name: str, expected: str) -> None:
    """An :class:`InputError` naming the argument ``name`` when ``value`` is not of ``kind`` (a bool
    is not an int here unless ``kind`` names bool); :func:`shipcheck.validate.instance` is this check."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, kind) and not (isinstance(value, bool) and bool not in kinds):
        return
    raise InputError(f"bad `{name}`", key=name, value=shown_value(value), expected=expected)


class Collector:
    """Gathers the errors of one file so all of them are reported, not only the first."""

    def __init__(self) -> None:
        self.errors: list[InputError] = []
        self.omitted = 0

    def add(self, err: InputError) -> None:
        for e in err.errors:
            if len(self.errors) < MAX_ERRORS:
                self.errors.append(e)
            else:
                self.omitted += 1
        self.omitted += err.omitted

    @contextmanager
    def guard(self) -> Iterator[None]:
        """Record an :class:`InputError` raised in the block and carry on after it."""
        try:
            yield
        except InputError as exc:
            self.add(exc)

    def __len__(self) -> int:
        return len(self.errors) + self.omitted

    def raise_any(self) -> None:
        """Raise the errors gathered so far, if any, file by file in line order."""
        if self.errors:
            files = {e.file: n for n, e in reversed(list(enumerate(self.errors)))}
            ordered = sorted(self.errors, key=lambda e: (files[e.file], e.line or 0))
            raise InputError.many(ordered, self.omitted)


# -- reading files --------------------------------------------------------------------------------
def read_text_file(path: str | Path, *, what: str, limit: int, private: bool = False) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes; an :class:`InputError` otherwise.

    Devices, FIFOs and folders are refused before anything is read (``/dev/zero`` would fill the
    memory, a FIFO would block forever), and so are paths with NUL bytes.
    """
    if not isinstance(path, (str, Path)):
        raise InputError(f"bad {what} path", key="path", value=type(path).__name__, expected="a str or Path")
    shown = printable(str(path))
    if "\x00" in str(path):
        raise InputError(f"cannot read {what} (the path holds a NUL byte)", file=shown.replace("\x00", ""))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise InputError(f"cannot read {what} ({exc.strerror or exc})", file=shown) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise InputError(f"cannot read {what} ({kind})", file=shown)
        if st.st_size > limit:
            raise InputError(f"{what} too large ({st.st_size} bytes)", file=shown,
                             expected=f"at most {limit} bytes")
        chunks = []
        size = 0
        while True:  # read to the end, but never past the limit (the file may grow meanwhile)
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise InputError(f"{what} too large (more than {limit} bytes)", file=shown,
                                 expected=f"at most {limit} bytes")
            chunks.append(chunk)
    except OSError as exc:
        raise InputError(f"cannot read {what} ({exc.strerror or exc})", file=shown) from None
    finally:
        os.close(fd)
    return utf8_text(b"".join(chunks), what=what, file=shown)


def utf8_text(data: bytes, *, what: str, file: str) -> str:
    """``data`` as UTF-8 text; an :class:`InputError` naming ``file`` and the line of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise InputError(f"{what} is not UTF-8 text", file=file, line=line, expected="a UTF-8 text file") from None


def read_toml(text: str, file: str | Path | None, *, private: bool = False) -> dict[str, Any]:
    """Parse TOML text into a document nested at most :data:`MAX_DEPTH` deep.

    Every failure is an :class:`InputError` with the line where known: a syntax error, an integer
    too long for Python to read (past 4,300 digits), nesting too deep for the parser.
    """
    import tomllib

    if not isinstance(text, str):
        raise InputError("bad `text`", key="text", value=type(text).__name__, expected="a str of TOML")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        bom = text.startswith("\ufeff")  # what some editors put first: TOML has no place for it
        raise InputError(f"not valid TOML: {exc}", file=file, line=toml_error_line(exc),
                         expected="no byte-order mark (U+FEFF) before the first line: save the file as UTF-8 "
                         "without one" if bom else None) from None
    except RecursionError:
        raise InputError("arrays or tables nested too deeply", file=file, line=_deep_line(text),
                         expected=f"at most {MAX_DEPTH} levels") from None
    except ValueError:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        import sys

        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
        m = re.search(r"\d{400,}", text)
        line = text.count("\n", 0, m.start()) + 1 if m else None
        raise InputError("number too long to read", file=file, line=line,
                         expected=f"a number of at most {limit} digits") from None
    bounded_depth(doc, file)
    return doc


def bounded_depth(doc: Any, file: str | Path | None = None) -> None:
    """Refuse a document (parsed TOML, or JSON shaped like it) nesting arrays and tables deeper than
    :data:`MAX_DEPTH`, naming the keys that lead there."""
    depth, path = _depth(doc)
    if depth > MAX_DEPTH:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep", file=file, key=".".join(path[:4]) + ("..." if len(path) > 4
                         else ""), expected=f"at most {MAX_DEPTH} levels of arrays and tables")


def _depth(doc: Any) -> tuple[int, list[str]]:
    """The deepest nesting of arrays and tables in ``doc`` and the keys leading there (no recursion)."""
    best, best_path = 0, []
    stack: list[tuple[Any, int, list[str]]] = [(doc, 0, [])]
    while stack:
        node, d, path = stack.pop()
        if d > best:
            best, best_path = d, path
        if d > MAX_DEPTH:
            continue  # deep enough to refuse; do not walk the rest
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    stack.append((v, d + 1, path + [str(k)]))
        elif isinstance(node, list):
            for v in node:
                if isinstance(v, (dict, list)):
                    stack.append((v, d + 1, path))
    return best, best_path


def _deep_line(text: str) -> int | None:
    """The line where brackets first nest deeper than the limit, found by counting them."""
    depth = 0
    line = 1
    in_str = False
    for ch in text:
        if ch == "\n":
            line += 1
        elif ch == '"':
            in_str = not in_str
        elif not in_str and ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return line
        elif not in_str and ch in "]}":
            depth -= 1
    return None


def toml_error_line(exc: Exception) -> int | None:
    """The line number tomllib puts in its message, if any."""
    m = re.search(r"line (\d+)", str(exc))
    return int(m.group(1)) if m else None


class Locator:
    """Finds the TOML line of a key inside the n-th ``[[table]]`` of a source text.

    tomllib does not keep positions, so this scans the text; good enough for the hand-written
    files the format is meant for, and ``None`` when unsure.
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self._starts: dict[str, list[int]] = {}

    def _table_starts(self, name: str) -> list[int]:
        hit = self._starts.get(name)
        if hit is None:
            pat = re.compile(r"^\s*\[\[\s*" + re.escape(name) + r"\s*\]\]")
            hit = self._starts[name] = [i for i, ln in enumerate(self.lines) if pat.match(ln)]
        return hit

    def top_error(self, file: str | Path | None, *, private: bool = False) -> Any:
        """A maker of :class:`InputError` for a top-level key of this text."""

        def err(msg: str, key: str | None = None, value: Any = None, expected: str | None = None,
                hint: str | None = None) -> InputError:
            return InputError(msg, file=file, line=self.line_of(key) if key else None, key=key, value=value,
                              expected=expected, hint=hint, private=private)

        return err

    def line_in(self, header: str, key: str | None = None) -> int | None:
        """The line of ``key`` in the ``[header]`` table (``"round.1"``; parts may be quoted), or of
        the header itself; a dotted key (``1.track = 24`` under ``[round]``) is looked for as written.
        None when the table is not written as a header of its own."""
        parts = header.split(".")
        if key is not None:  # the key may be a table of its own: [round.3A]
            own = self.line_in(f"{header}.{key}")
            if own is not None:
                return own
        for cut in range(len(parts), 0, -1):  # [round.1] first, else [round] with `1.key =`
            head = r"\s*\.\s*".join(r'"?' + re.escape(p) + r'"?' for p in parts[:cut])
            pat = re.compile(r"^\s*\[\s*" + head + r"\s*\]\s*(#.*)?$")
            start = next((i for i, ln in enumerate(self.lines) if pat.match(ln)), None)
            if start is None:
                continue
            stop = next((i for i in range(start + 1, len(self.lines)) if re.match(r"^\s*\[", self.lines[i])),
                        len(self.lines))
            if key is None:
                return start + 1 if cut == len(parts) else None
            rest = [*parts[cut:], *([key] if key is not None else [])]
            name = r"\s*\.\s*".join(r'"?' + re.escape(p) + r'"?' for p in rest)
            kpat = re.compile(r"^\s*" + name + r"\s*[=.]")
            hit = next((i for i in range(start + 1, stop) if kpat.match(self.lines[i])), None)
            return hit + 1 if hit is not None else start + 1
        return None

    def line_of(self, key: str | None = None, table: str | None = None, index: int = 0) -> int | None:
        start, stop = 0, len(self.lines)
        if table is not None:
            starts = self._table_starts(table)
            if index >= len(starts):
                return None
            start = starts[index]
            stop = starts[index + 1] if index + 1 < len(starts) else len(self.lines)
            stop = next((i for i in range(start + 1, stop) if re.match(r"^\s*\[", self.lines[i])), stop)
            if key is None:
                return start + 1
        elif key is not None:
            # top-level keys stand before the first table header
            stop = next((i for i, ln in enumerate(self.lines) if re.match(r"^\s*\[", ln)), len(self.lines))
        if key is None:
            return None
        pat = re.compile(r"^\s*(?:" + re.escape(key) + r'|"' + re.escape(key) + r'")\s*=')
        for i in range(start, stop):
            if pat.match(self.lines[i]):
                return i + 1
        return start + 1 if table is not None else None
