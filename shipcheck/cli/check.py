"""Construction commands: show, check, fix, rules."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from ..errors import InputError, printable, read_text_file, read_toml, suggest
from ..model import Ship
from ..render import legend
from ..rules import RULES, CheckReport, check
from ..shipfile import SHIP_BYTES, edit_ship_text, load_ship, parse_ship, save_text
from ..topology import BOARD_BYTES, BUILTIN_CLASSES
from ._common import (
    EXIT_USAGE,
    EXIT_VIOLATIONS,
    as_options,
    codes,
    draw,
    echo,
    exit_with,
    format_option,
    header,
    marks_of,
    print_json,
    print_rich,
    provisional,
    report_input_error,
    ship_argument,
    summary,
    violation_lines,
)


# -- show -----------------------------------------------------------------------------------------
@click.command("show")
@ship_argument
def show(ship: str) -> None:
    """Draw a ship on its board.

    Each square shows the tile's kind code and its sides after rotation; see the legend line.

    \b
    Example:
      shipcheck show examples/blue-round1.toml
    """
    s = load_ship(ship)
    echo(header(s, ship))
    warn = provisional(s.board)
    if warn:
        echo(warn)
    draw(s)
    echo(legend())


# -- check ----------------------------------------------------------------------------------------
def _is_board_file(path: Path) -> bool:
    try:
        doc = read_toml(read_text_file(path, what="file", limit=BOARD_BYTES), path)
    except InputError:
        return False  # not readable as a board: load_ship will say what is wrong with it
    return "cells" in doc


def _expand(paths: tuple[str, ...]) -> tuple[list[Path], bool]:
    """Ship files named or found under directories; whether the output is a list."""
    files: list[Path] = []
    many = len(paths) > 1
    for name in paths:
        p = Path(name)
        if p.is_dir():
            many = True
            found = sorted(q for q in p.rglob("*.toml") if q.is_file() and not _is_board_file(q))
            if not found:
                raise InputError("no ship files (*.toml) in this folder", file=p)
            files.extend(found)
        else:
            files.append(p)
    return files, many


@click.command("check")
@click.argument("ships", nargs=-1, required=True, metavar="SHIP...", type=click.Path(path_type=str))
@format_option
@click.option("--select", metavar="CODES", help="Only these rule codes, comma-separated (e.g. C1,C2).")
@click.option("--ignore", metavar="CODES", help="Leave out these rule codes, comma-separated (e.g. W1).")
@click.option("--draw/--no-draw", "do_draw", default=True, show_default=True,
              help="Draw each ship with its offending squares marked.")
def check_cmd(ships: tuple[str, ...], fmt: str, select: str | None, ignore: str | None, do_draw: bool) -> None:
    """Check ships (files, or folders of *.toml ship files) against every construction rule.

    Exit 0 when every ship is legal (warnings allowed), 1 when some ship breaks an error rule, 2 when a
    file cannot be read.

    \b
    Examples:
      shipcheck check examples/blue-round1.toml
      shipcheck check examples/ --format json --ignore W1
    """
    sel = codes(select, "--select")
    ign = codes(ignore, "--ignore")
    files, many = _expand(ships)
    reports: list[tuple[str, CheckReport]] = []
    bad = 0
    for f in files:
        try:
            reports.append((str(f), check(load_ship(f), select=sel, ignore=ign)))
        except InputError as exc:
            bad += 1
            report_input_error(exc)
        except Exception as exc:  # a bug in one file must not cost the other files their results
            bad += 1
            sys.stderr.write(f"shipcheck: error: {printable(str(f))}: internal error ({type(exc).__name__}: "
                             f"{printable(str(exc))[:200]}); please report it\n")
    if fmt == "json":
        objs = [r.to_dict(p) for p, r in reports]
        if many:
            print_json(objs)
        elif objs:
            print_json(objs[0])
    else:
        for k, (p, r) in enumerate(reports):
            if k:
                echo()
            echo(header(r.ship, p))
            if do_draw:
                draw(r.ship, marks_of(r))
            for line in violation_lines(r):
                echo(line)
            echo(summary(r))
            for note in r.notes:
                echo(printable(f"note: {note}"))
        if many and len(reports) > 1:
            n_illegal = sum(1 for _, r in reports if not r.legal)
            echo()
            echo(f"{len(reports)} ships checked: {len(reports) - n_illegal} legal, {n_illegal} illegal"
                 + (f"; {bad} unreadable" if bad else ""))
    if bad:
        exit_with(EXIT_USAGE)
    if any(not r.legal for _, r in reports):
        exit_with(EXIT_VIOLATIONS)


# -- fix ------------------------------------------------------------------------------------------
def _rebase_board(ship: Ship, src: Path, out: Path) -> Ship:
    """Point a ship's `board = "path"` at the same file when written next to ``out``."""
    ref = ship.board_ref
    if ref is None or ref in BUILTIN_CLASSES:
        return ship
    target = (src.parent / ref).resolve()
    new = os.path.relpath(target, out.resolve().parent)
    return replace(ship, board_ref=Path(new).as_posix())


@click.command("fix")
@ship_argument
@click.option("--write", "-w", metavar="OUT", type=click.Path(path_type=Path),
              help="Write the fixed ship to this file.")
@click.option("--force", is_flag=True, help="Overwrite OUT if it exists.")
@format_option
def fix_cmd(ship: str, write: Path | None, force: bool, fmt: str) -> None:
    """Find the fewest components to take off so the ship passes inspection.

    Components that fall off with a removed one count as lost too. Crew errors (A codes) are reported,
    not mended by removal.

    Exit 0 when a legal ship remains; 1 (writing nothing) when no removal makes the ship legal, e.g. a
    pilot cabin off its start square.

    \b
    Examples:
      shipcheck fix examples/mistakes/loose-piece.toml
      shipcheck fix my-ship.toml --write my-ship-fixed.toml
    """
    from ..fix import fix as fix_ship

    src = Path(ship)
    text = read_text_file(src, what="ship file", limit=SHIP_BYTES)
    s = parse_ship(text, file=src, base_dir=src.parent)
    if write is not None and os.path.lexists(write) and not force:
        raise InputError("output file exists (use --force to overwrite it)", file=printable(str(write)),
                         key="--write", expected="a new file name")
    res = fix_ship(s)
    b = s.board
    if fmt == "json":
        print_json(res.to_dict(ship))
    else:
        echo(header(s, ship))
        why = res.why or {}

        def named(cells: Any) -> str:
            out = []
            for i in cells:
                cs = why.get(i)
                out.append(b.cell_text(i) + (f" [{', '.join(cs)}]" if cs else ""))
            return ", ".join(out) or "nothing"

        if res.legal_before:
            echo("legal already: nothing to take off.")
        elif not res.fixable:
            echo("cannot be fixed by removing components" + (f": {res.reason}" if res.reason else "."))
        elif not res.removed:
            echo("nothing to take off" + (f": {res.reason}" if res.reason else "."))
        else:
            if res.cut:
                echo(f"take off: {named(res.cut)}")
            if res.fell_off:
                echo(f"falls off with it: {named(res.fell_off)}" if res.cut
                     else f"falls off (joined to nothing): {named(res.fell_off)}")
            echo(f"lost: {res.lost} component{'s' if res.lost != 1 else ''}, kept: {res.kept}")
        for v in res.crew:
            echo(f"crew: {v.code} {v.message} (mend it by placing the crew differently; `fix` removes nothing for it)")
        if res.fixable and res.fixed is not None:
            if res.removed:
                echo("before (RM: take off, X: falls off with it):")
                draw(s, {i: "RM" if i in res.cut else "X" for i in res.removed})
                echo("after:")
            draw(res.fixed)
    if not res.fixable or res.fixed is None:
        exit_with(EXIT_VIOLATIONS)
        return
    if write is not None:
        # the user's file, edited: the removed tiles go, comments and key order stay
        rebased = _rebase_board(s, src, write).board_ref
        out = edit_ship_text(text, s, res.removed, board_ref=rebased if rebased != s.board_ref else None,
                             base_dir=write.parent)
        try:
            save_text(write, out, overwrite=force)
        except InputError as exc:
            raise as_options(exc, {"path": "--write"}) from None
        if fmt == "text":
            echo(f"wrote {printable(str(write))}")


# -- rules ----------------------------------------------------------------------------------------
def _rule_dict(code: str) -> dict[str, Any]:
    r = RULES[code]
    return {"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary, "why": r.why,
            "fixable": r.fixable, "bad": r.bad, "good": r.good}


@click.command("rules")
@click.argument("code", required=False, metavar="[CODE]")
@format_option
def rules_cmd(code: str | None, fmt: str) -> None:
    """List the construction rules, or explain one (CODE, e.g. C1) with a bad and a good example ship.

    \b
    Examples:
      shipcheck rules
      shipcheck rules C2
    """
    if code is None:
        if fmt == "json":
            print_json([_rule_dict(c) for c in RULES])
            return
        from rich import box
        from rich.table import Table

        table = Table(box=box.SIMPLE_HEAD, title="shipcheck rules", show_lines=False)
        for col in ("code", "name", "severity", "summary"):
            table.add_column(col, overflow="fold")
        for r in RULES.values():
            table.add_row(r.code, r.name, r.severity, r.summary)
        print_rich(table)
        echo("Explain one: shipcheck rules CODE")
        return
    key = code.upper()
    if key not in RULES:
        raise InputError("unknown rule code", key="CODE", value=code, expected="one of " + ", ".join(RULES),
                         hint=suggest(code, RULES))
    r = RULES[key]
    examples = [("bad", parse_ship(r.bad, file=f"<rule {key} bad example>")),
                ("good", parse_ship(r.good, file=f"<rule {key} good example>"))]
    if fmt == "json":
        d = _rule_dict(key)
        for which, s in examples:
            d[f"{which}_report"] = check(s).to_dict(f"<{which} example>")
        print_json(d)
        return
    echo(f"{r.code} {r.name} ({r.severity})")
    echo()
    echo(r.summary)
    echo()
    echo(f"Why it matters: {r.why}")
    if not r.fixable:
        echo("`fix` does not mend it by removing components.")
    for which, s in examples:
        rep = check(s)
        echo()
        echo(f"{'Bad' if which == 'bad' else 'Good'} ship:")
        echo()
        echo("\n".join("    " + ln for ln in (r.bad if which == "bad" else r.good).strip().splitlines()))
        echo()
        draw(s, marks_of(rep))
        for line in violation_lines(rep):
            echo(line)
        echo(summary(rep))
