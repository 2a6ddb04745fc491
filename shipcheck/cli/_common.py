"""What the command modules share: exit codes, options, output and the ship header.

Nothing here imports numpy, rich or the flight engines: `check` and `show` start with Typer and
the core modules only (Typer imports rich only to format help and errors).
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import typer
from typer.core import TyperCommand

from shipcheck.check.rules import RULES, CheckReport
from shipcheck.errors import InputError, printable
from shipcheck.model import Ship
from shipcheck.render import Styled, render_ship
from shipcheck.topology import BUILTIN_CLASSES, Board

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_USAGE = 2

F = TypeVar("F", bound=Callable[..., Any])


def version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version

        return dist_version("shipcheck")
    except (ImportError, PackageNotFoundError):
        from shipcheck._version import __version__

        return __version__


def input_error_lines(exc: InputError) -> list[str]:
    """One line per error found (a file with several mistakes reports them all)."""
    return exc.lines()


def report_input_error(exc: InputError) -> None:
    """Write every error of ``exc`` to stderr, one ``shipcheck: error: ...`` line each (folded as
    :func:`error_lines` says)."""
    error_lines(input_error_lines(exc))


def error_lines(lines: list[str]) -> None:
    """``shipcheck: error: LINE`` on stderr for each line. On a terminal, or when ``COLUMNS`` gives a
    width, each folds to the width with its continuation lines indented; read by a script (stderr not
    a terminal, no ``COLUMNS``) each error stays one line, for grep."""
    wrap = sys.stderr.isatty() or os.environ.get("COLUMNS", "").strip().isdigit()
    sys.stderr.write("".join(f"{part}\n" for line in lines
                             for part in (fold(f"shipcheck: error: {line}") if wrap else [f"shipcheck: error: {line}"])))


def as_options(exc: InputError, options: dict[str, str]) -> InputError:
    """The library's error for an argument, renamed to the command-line option that gave it
    (``{"seed": "--seed"}``); other errors are returned as they are (:func:`shipcheck.validate.as_option`)."""
    from shipcheck.validate import as_option

    return as_option(exc, options)


#: a SHIP argument naming standard input: ``git show HEAD:ship.toml | shipcheck check -``
STDIN = "-"


def ship_text(path: str) -> tuple[str, str, Path]:
    """The text of the ship file ``path`` names, the name errors give it and the folder its `board`
    path is read from: ``-`` reads standard input (its board paths from the working folder)."""
    from shipcheck.errors import read_text_file, utf8_text
    from shipcheck.shipfile import SHIP_BYTES

    if path != STDIN:
        return read_text_file(path, what="ship file", limit=SHIP_BYTES), path, Path(path).parent
    if sys.stdin is None:
        raise InputError("no standard input to read the ship file from", key="SHIP", value=STDIN,
                         expected="a ship file's path, or a ship piped in")
    data = sys.stdin.buffer.read(SHIP_BYTES + 1)
    if len(data) > SHIP_BYTES:
        raise InputError("ship file too large", file="<stdin>", expected=f"at most {SHIP_BYTES} bytes")
    return utf8_text(data, what="ship file", file="<stdin>"), "<stdin>", Path.cwd()


def read_ship(path: str) -> Ship:
    """The ship a SHIP argument names: a ship file, or ``-`` for standard input."""
    from shipcheck.shipfile import load_ship, parse_ship

    if path != STDIN:
        return load_ship(path)
    text, name, base = ship_text(path)
    return parse_ship(text, file=name, base_dir=base)


def exit_with(code: int) -> None:
    """End the command with an exit code (0 returns normally)."""
    if code:
        raise typer.Exit(code)


# -- commands -------------------------------------------------------------------------------------
def fold_shell(line: str, w: int) -> list[str]:
    """An example command line folded to the width with shell continuations (``\\``)."""
    lead = len(line) - len(line.lstrip(" "))
    out: list[str] = []
    cur = " " * lead
    for word in line.split():
        if cur.strip() and len(cur) + 1 + len(word) + 2 > w:
            out.append(cur + " \\")
            cur = " " * (lead + 4) + word
        else:
            cur = cur + (" " if cur.strip() else "") + word
    out.append(cur)
    return out


def short_help(text: str, limit: int) -> str:
    """The first sentence of a command's help for the list of commands, at most ``limit`` characters:
    parentheses are left out before the sentence is cut, and a cut never falls inside one."""
    words = text.partition("\n\n")[0].split()
    for i, word in enumerate(words):
        if word.endswith(".") and word not in ("e.g.", "i.e.") and (i == len(words) - 1 or not words[i + 1][0].islower()):
            words = words[:i + 1]
            break
    line = " ".join(words)
    if len(line) > limit:
        line = re.sub(r"\s*\([^()]*\)", "", line)
    if len(line) <= limit:
        return line
    cut = line[:max(limit - 3, 1)].rsplit(" ", 1)[0]
    if cut.count("(") > cut.count(")"):
        cut = cut[:cut.rindex("(")].rstrip()
    return cut.rstrip(",;:") + "..."


class FittedCommand(TyperCommand):
    """A command whose help fits the terminal: example lines fold with shell continuations; its line
    in the list of commands is never cut inside a parenthesis (:func:`short_help`)."""

    def get_short_help_str(self, limit: int = 45) -> str:
        return short_help(self.short_help or self.help or "", limit)

    def get_help(self, ctx: Any) -> str:
        w = width()
        lines = []
        for line in super().get_help(ctx).splitlines():
            lines += fold_shell(line, w) if len(line) > w and line.lstrip().startswith("shipcheck ") else [line]
        return "\n".join(lines)


def command(name: str) -> Callable[[F], F]:
    """Make ``f`` the Typer command ``name``: the lazy group in ``shipcheck.cli`` builds it from
    ``f.typer_app`` when the command is first used (see :func:`shipcheck.cli.build`)."""

    def deco(f: F) -> F:
        app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                          context_settings={"help_option_names": ["-h", "--help"]})
        app.command(name, cls=FittedCommand)(f)
        f.typer_app = app  # type: ignore[attr-defined]
        return f

    return deco


def codes(text: str | None, option: str) -> set[str] | None:
    """A comma-separated list of rule codes from an option; unknown codes are input errors."""
    if not text:
        return None
    out = set()
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        code = part.upper()
        if code not in RULES:
            raise InputError(f"unknown rule code in {option}", key=option, value=part,
                             expected="codes from `shipcheck rules`: " + ", ".join(RULES))
        out.add(code)
    return out


# -- output ---------------------------------------------------------------------------------------
def color() -> bool:
    """Colour on a terminal unless NO_COLOR is set."""
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def width() -> int:
    """The terminal's width: ``COLUMNS``, else the terminal's, else 80."""
    import shutil

    return max(30, shutil.get_terminal_size((80, 24)).columns)


def fold(line: str, w: int | None = None, *, indent: int = 2) -> list[str]:
    """One line folded to the width: words move to lines indented ``indent`` more than the first;
    a word longer than a line (a long path) is split."""
    import textwrap

    w = w or width()
    if len(line) <= w:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    # "12 %" and "seed 7" stay on one line: a non-breaking space holds them while the words move
    glued = _GLUE.sub("\xa0", line.strip())
    out = textwrap.wrap(glued, w, initial_indent=" " * lead, subsequent_indent=" " * (lead + indent),
                        break_on_hyphens=False)
    return [x.replace("\xa0", " ") for x in out] or [line]


_GLUE = re.compile(r"(?<=\d) (?=%)|(?<=\bseed) (?=\d)")


def echo(obj: Any = "") -> None:
    """Print a line folded to the terminal's width, :class:`Styled` text in colour on a terminal.
    Multi-line text (a drawing) is printed as it is."""
    if isinstance(obj, Styled):
        if "\n" not in obj.plain and len(obj.plain) > width():
            obj = obj.plain  # folded without colour rather than cut
        else:
            typer.echo(obj.ansi() if color() else obj.plain)
            return
    text = str(obj)
    if "\n" in text:
        typer.echo(text)
        return
    for line in fold(text):
        typer.echo(line)


def note(text: str) -> None:
    """A note: one line, folded with an indent."""
    echo(printable(f"note: {text}"))


def notes(items: Any, *, listed: bool = False, quiet: bool = False) -> None:
    """A command's notes after its answer. Cautions print in full; provisional values (two or more)
    are counted on one line that says ``--notes`` lists them (``listed``: print every note;
    ``quiet``: none). ``--format json`` keeps every note whatever the flags."""
    if quiet:
        return
    items = list(items)
    held = [] if listed else [n for n in items if "provisional" in n]
    if len(held) < 2:
        held = []
    for n in items:
        if n not in held:
            echo(f"note: {n}")
    if held:
        echo(f"note: {len(held)} values are provisional: `--notes` lists them")


def table(head: list[str], rows: list[list[str]], *, drop: tuple[int, ...] = (), text: int | None = None,
          left: tuple[int, ...] = (), indent: int = 0) -> None:
    """A plain table fitted to the width: the columns in ``drop`` are left out, in that order, until
    it fits; then the free-text column ``text`` (the last) folds under its own start. Numbers align
    right, the columns in ``left`` left."""
    w = width()
    cols = list(range(len(head)))
    everything = [head, *rows]

    def widths(cs: list[int]) -> dict[int, int]:
        return {c: max(len(r[c]) for r in everything) for c in cs}

    def total(cs: list[int]) -> int:
        # the free-text column may fold: it needs a few words' room, not its whole length
        ws = widths(cs)
        return indent + sum(min(v, 36) if c == text else v for c, v in ws.items()) + 2 * (len(cs) - 1)

    for c in drop:
        if total(cols) <= w:
            break
        cols.remove(c)
    ws = widths(cols)
    fixed = [c for c in cols if c != text]
    start = indent + sum(ws[c] for c in fixed) + 2 * len(fixed)
    room = max(12, w - start) if text in cols else 0
    for r in everything:
        cells = [r[c].ljust(ws[c]) if c in left else r[c].rjust(ws[c]) for c in fixed]
        line = " " * indent + "  ".join(cells)
        if text in cols:
            import textwrap

            # a " / " between two lists stays between two words, never alone at a line's end or start
            parts = [x.replace("\xa0", " ") for x in textwrap.wrap(r[text].replace(" / ", "\xa0/\xa0"), room,
                                                                   break_on_hyphens=False)] or [""]
            typer.echo((line + "  " + parts[0]).rstrip())
            for part in parts[1:]:
                typer.echo(" " * start + part)
        else:
            typer.echo(line.rstrip())


#: the rich displays showing on stderr now; a compile's bar pauses them (:func:`compile_progress`)
_LIVE: list[Any] = []
_PAUSED = threading.Event()


def _show(live: Any) -> None:
    if not _PAUSED.is_set():
        live.start()
        _LIVE.append(live)


def _hide(live: Any) -> None:
    if live in _LIVE:
        _LIVE.remove(live)
        live.stop()


@contextmanager
def compile_progress(what: str, estimate: float) -> Iterator[None]:
    """Shown while the engine compiles (:data:`shipcheck.runtime.state` ``.progress``): on a terminal
    a bar that moves with the time it usually takes, else one line on stderr."""
    if not sys.stderr.isatty():
        typer.echo(f"shipcheck: {what}...", err=True)
        yield
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=Console(stderr=True),
                   transient=True)
    task = bar.add_task(what, total=estimate)
    done = threading.Event()
    t0 = time.monotonic()

    def move() -> None:
        while not done.wait(0.25):  # the compile tells nothing of its progress: time, up to 95 %
            bar.update(task, completed=min(time.monotonic() - t0, 0.95 * estimate))

    mover = threading.Thread(target=move, name="shipcheck-compile-bar", daemon=True)
    _PAUSED.set()  # a spinner or a bar of the command waits while this one shows
    paused = list(_LIVE)
    for live in paused:
        _hide(live)
    bar.start()
    mover.start()
    try:
        yield
    finally:
        done.set()
        mover.join()
        bar.stop()
        _PAUSED.clear()
        for live in paused:
            _show(live)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def print_rich(renderable: Any) -> None:
    """Print a rich renderable (a table) to stdout; rich is imported only here. A table's columns
    are at least as wide as their longest word and fold rather than cut a word short: on a narrow
    terminal cells wrap between words, never to "topol…"."""
    from rich.console import Console
    from rich.table import Table

    if isinstance(renderable, Table):
        renderable.pad_edge = False  # two more characters for the cells
        for col in renderable.columns:
            col.overflow = "fold"
    Console(file=sys.stdout, highlight=False, soft_wrap=False, width=width()).print(renderable)


def pct(p: Any) -> str:
    """A probability as ``" 97.22 %"``. An uncertain one (strictly between 0 and 1) never shows as
    100.00 % or 0.00 %: it gets the digits it needs (``99.9963 %``), and past 12 of them
    ``>99.999999999999 %`` or ``<0.000000000001 %``."""
    text = f"{float(p) * 100:6.2f} %"
    if not 0 < p < 1 or text not in ("100.00 %", "  0.00 %"):
        return text
    for digits in range(3, 13):
        text = f"{float(p) * 100:6.{digits}f}"
        if float(text) not in (0.0, 100.0):
            return text + " %"
    return (">99." + "9" * 12 if p > 0.5 else "<0." + "0" * 11 + "1") + " %"


# -- describing a ship ----------------------------------------------------------------------------
def board_desc(board: Board) -> str:
    return ", ".join([f"level {board.level}", f"dice {board.dice}", *board.features()])


def header(ship: Ship, path: str) -> str:
    """The ship's first line; names from files are cleaned of control characters (they could
    clear the screen or retitle the terminal)."""
    b = ship.board
    parts = [printable(path)]
    if ship.name:
        parts.append(f"“{printable(ship.name)}”")
    what = (f"class {b.name}" if ship.board_ref in BUILTIN_CLASSES
            else f"board file {printable(str(ship.board_ref))}")
    line = " ".join(parts) + f" — {what} ({board_desc(b)}), edition {ship.edition}, {ship.tile_count_text()}"
    if ship.front and b.choose_front:
        line += f", front {ship.front}"
    if ship.dice:
        line += f", dice {list(ship.dice)}"
    if ship.aside:
        line += f", {len(ship.aside)} set aside"
    return line


def provisional(board: Board) -> str | None:
    if board.verified:
        return None
    return printable(f"warning: board {board.name} is provisional (verified = false)"
                     + (f": {board.note}" if board.note else ""))


def draw(ship: Ship, marks: dict[int, str] | None = None, styles: dict[int, str] | None = None) -> None:
    """The ship drawn on its board; with narrower squares when the usual drawing would not fit."""
    from shipcheck.render import narrow_cells

    pic = render_ship(ship, marks=marks, color=color(), mark_styles=styles)
    if max(len(line.rstrip()) for line in pic.plain.splitlines()) > width():
        with narrow_cells():
            pic = render_ship(ship, marks=marks, color=color(), mark_styles=styles)
    typer.echo("\n".join(line.rstrip() for line in (pic.ansi() if color() else pic.plain).splitlines()))


def marks_of(report: CheckReport) -> dict[int, str]:
    marks: dict[int, str] = {}
    for v in sorted(report.violations, key=lambda v: v.severity != "error"):
        for i in v.cells:
            marks.setdefault(i, v.code)
    return marks


def violation_lines(report: CheckReport) -> list[Styled]:
    b = report.ship.board
    lines = []
    for v in report.violations:
        t = Styled()
        t.append(f"{v.code} {v.rule.name:<22}", "bold red" if v.severity == "error" else "yellow")
        t.append(f" {' '.join(b.cell_text(i) for i in v.cells)}  ")
        t.append(v.message)
        lines.append(t)
    return lines


def summary(report: CheckReport) -> str:
    ne, nw = len(report.errors), len(report.warnings)
    head = "legal" if report.legal else "ILLEGAL"
    counts = f"{ne} error{'s' if ne != 1 else ''}, {nw} warning{'s' if nw != 1 else ''}"
    e = report.exposed_connectors
    return f"{head}: {counts}, {e} exposed connector{'s' if e != 1 else ''}"


@contextmanager
def spinner(description: str, *, delay: float = 1.0) -> Iterator[Callable[[str], None]]:
    """A transient spinner on stderr for work that may take a while; it shows only after ``delay``
    seconds and only on a terminal, so quick runs and pipes print nothing. Yields ``update(text)``
    to say which stage the work is in."""
    import threading

    if not sys.stderr.isatty():
        yield lambda text: None
        return
    from rich.console import Console

    status = Console(stderr=True).status(description)
    started = threading.Event()

    def start() -> None:
        started.set()
        _show(status)

    timer = threading.Timer(delay, start)
    timer.daemon = True
    timer.start()
    try:
        yield lambda text: status.update(text)
    finally:
        timer.cancel()
        if started.is_set():
            _hide(status)


@contextmanager
def progress_bar(description: str = "simulating", *, delay: float = 1.0) -> Iterator[Callable[[int, int], None]]:
    """A ``progress(done, total)`` callback drawing a transient rich bar on stderr.

    The bar appears only once ``delay`` seconds have passed, so short runs print nothing, and it
    disappears when the block ends.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(description, total=None)
    t0 = time.monotonic()
    started = False

    def update(done: int, total: int) -> None:
        nonlocal started
        if not started and time.monotonic() - t0 >= delay:
            _show(bar)
            started = True
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        if started:
            _hide(bar)
