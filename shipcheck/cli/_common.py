"""What the command modules share: exit codes, options, output and the ship header.

Nothing here imports numpy, rich or the flight engines: `check` and `show` start with Typer and
the core modules only (Typer imports rich only to format help and errors).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import typer

from ..errors import InputError, printable
from ..model import Ship
from ..render import Styled, render_ship
from ..rules import RULES, CheckReport
from ..topology import BUILTIN_CLASSES, Board

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
        from .. import __version__

        return __version__


def input_error_lines(exc: InputError) -> list[str]:
    """One line per error found (a file with several mistakes reports them all)."""
    return exc.lines()


def report_input_error(exc: InputError) -> None:
    """Write every error of ``exc`` to stderr, one ``shipcheck: error: ...`` line each."""
    sys.stderr.write("".join(f"shipcheck: error: {line}\n" for line in input_error_lines(exc)))


def as_options(exc: InputError, options: dict[str, str]) -> InputError:
    """The library's error for an argument, renamed to the command-line option that gave it
    (``{"seed": "--seed"}``); other errors are returned as they are (:func:`shipcheck.validate.as_option`)."""
    from ..validate import as_option

    return as_option(exc, options)


def exit_with(code: int) -> None:
    """End the command with an exit code (0 returns normally)."""
    if code:
        raise typer.Exit(code)


# -- commands -------------------------------------------------------------------------------------
def command(name: str) -> Callable[[F], F]:
    """Make ``f`` the Typer command ``name``: the lazy group in ``shipcheck.cli`` builds it from
    ``f.typer_app`` when the command is first used (see :func:`shipcheck.cli.build`)."""

    def deco(f: F) -> F:
        app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                          context_settings={"help_option_names": ["-h", "--help"]})
        app.command(name)(f)
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


def echo(obj: Any = "") -> None:
    """Print a line: a string as it is, :class:`Styled` text in colour on a terminal."""
    if isinstance(obj, Styled):
        typer.echo(obj.ansi() if color() else obj.plain)
    else:
        typer.echo(obj)


def round_compile_note() -> None:
    """Say on stderr when the round engine is about to be compiled (its first use)."""
    from ..round.fast import compile_note

    note = compile_note()
    if note:
        typer.echo(f"shipcheck: {note}", err=True)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def print_rich(renderable: Any) -> None:
    """Print a rich renderable (a table) to stdout; rich is imported only here."""
    from rich.console import Console

    Console(file=sys.stdout, highlight=False, soft_wrap=False).print(renderable)


def pct(p: Any) -> str:
    return f"{float(p) * 100:6.2f} %"


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
    echo(render_ship(ship, marks=marks, color=color(), mark_styles=styles))


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
        status.start()

    timer = threading.Timer(delay, start)
    timer.daemon = True
    timer.start()
    try:
        yield lambda text: status.update(text)
    finally:
        timer.cancel()
        if started.is_set():
            status.stop()


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
            bar.start()
            started = True
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        if started:
            bar.stop()
