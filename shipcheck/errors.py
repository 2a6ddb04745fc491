"""Input errors: a bad file is reported, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any


class InputError(ValueError):
    """A file or option that cannot be read as the format says.

    Carries the file, the TOML line where known, the key and the bad value, and what was
    expected, so the CLI can print one clear message and exit 2.
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
    ) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.key = key
        self.value = value
        self.expected = expected
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
        parts = [f"{where}: {self.message}"]
        if self.key is not None:
            parts.append(f"key `{self.key}`")
        if self.value is not None:
            parts.append(f"value {self.value!r}")
        text = "; ".join(parts)
        if self.expected:
            text += f" (expected {self.expected})"
        return text


# The name the style guide uses for parse errors; the same class.
ShipFormatError = InputError


def read_toml(text: str, file: str | Path | None) -> dict[str, Any]:
    """Parse TOML text; a syntax error becomes an :class:`InputError` with the parser's line."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", file=file, line=toml_error_line(exc)) from None


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

    def _table_starts(self, name: str) -> list[int]:
        pat = re.compile(r"^\s*\[\[\s*" + re.escape(name) + r"\s*\]\]")
        return [i for i, ln in enumerate(self.lines) if pat.match(ln)]

    def top_error(self, file: str | Path | None) -> Any:
        """A maker of :class:`InputError` for a top-level key of this text."""

        def err(msg: str, key: str | None = None, value: Any = None, expected: str | None = None) -> InputError:
            return InputError(msg, file=file, line=self.line_of(key) if key else None, key=key, value=value,
                              expected=expected)

        return err

    def line_of(self, key: str | None = None, table: str | None = None, index: int = 0) -> int | None:
        start, stop = 0, len(self.lines)
        if table is not None:
            starts = self._table_starts(table)
            if index >= len(starts):
                return None
            start = starts[index]
            stop = next(
                (i for i in range(start + 1, len(self.lines)) if re.match(r"^\s*\[", self.lines[i])),
                len(self.lines),
            )
            if key is None:
                return start + 1
        elif key is not None:
            # top-level keys stand before the first table header
            stop = next((i for i, ln in enumerate(self.lines) if re.match(r"^\s*\[", ln)), len(self.lines))
        if key is None:
            return None
        pat = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for i in range(start, stop):
            if pat.match(self.lines[i]):
                return i + 1
        return start + 1 if table is not None else None
