"""Construction commands: show, check, fix, rules."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from shipcheck.check.rules import RULES, check
from shipcheck.cli._common import (
    EXIT_USAGE,
    EXIT_VIOLATIONS,
    STDIN,
    as_options,
    codes,
    command,
    draw,
    echo,
    error_lines,
    exit_with,
    header,
    input_error_lines,
    marks_of,
    print_json,
    print_rich,
    provisional,
    read_ship,
    ship_text,
    summary,
    violation_lines,
)
from shipcheck.cli._options import Editions, FormatOpt, QuietOpt, ShipArg
from shipcheck.errors import InputError, printable, suggest
from shipcheck.render import legend
from shipcheck.shipfile import board_from, edit_ship_text, parse_ship, save_text


# -- show -----------------------------------------------------------------------------------------
@command("show")
def show(ship: ShipArg) -> None:
    """Draw a ship on its board.

    Each square shows the tile's kind code and its sides after rotation; see the legend line.

    \b
    Example:
      shipcheck show examples/blue-round1.toml
    """
    s = read_ship(ship)
    echo(header(s, ship))
    warn = provisional(s.board)
    if warn:
        echo(warn)
    draw(s)
    echo(legend())


# -- check ----------------------------------------------------------------------------------------
OUTPUT_FORMATS = ("text", "concise", "json", "json-lines", "github", "sarif")


OutputFormat = Literal["text", "concise", "json", "json-lines", "github", "sarif"]


@command("check")
def check_cmd(
    ships: Annotated[list[str], typer.Argument(metavar="SHIP...", show_default=False)],
    fmt: Annotated[OutputFormat | None, typer.Option(
        "--format", "-f", metavar="FORMAT", show_default=False,
        help="text for people, concise (file:line: CODE message), json for scripts, json-lines, github (Actions "
             "annotations) or sarif (code scanning).  [default: text]")] = None,
    output_format: Annotated[OutputFormat | None, typer.Option(
        "--output-format", metavar="FORMAT", show_default=False,
        help="The same as --format (the name of the `output-format` setting).")] = None,
    select: Annotated[str | None, typer.Option(metavar="CODES", show_default=False,
                                               help="Only these rule codes, comma-separated (e.g. C1,C2).")] = None,
    ignore: Annotated[str | None, typer.Option(metavar="CODES", show_default=False,
                                               help="Leave out these rule codes, comma-separated (e.g. W1).")] = None,
    edition: Annotated[Editions | None, typer.Option(
        "--edition", "-e", show_default=False,
        help="The edition of ship files that do not name one.  [default: 2007]")] = None,
    exclude: Annotated[list[str] | None, typer.Option(
        metavar="PATTERN", show_default=False,
        help="Leave out files and folders matching this pattern (gitignore syntax; repeatable).")] = None,
    config: Annotated[str | None, typer.Option(
        metavar="FILE", show_default=False,
        help="Read settings from this file instead of the shipcheck.toml or pyproject.toml found.")] = None,
    do_draw: Annotated[bool, typer.Option("--draw/--no-draw",
                                          help="Draw each ship with its offending squares marked (text output).")]
    = True,
    quiet: QuietOpt = False,
) -> None:
    """Check ships (files, or folders searched for ship files) against every construction rule.

    Folders are walked as ruff walks them: .gitignore is respected, hidden folders and virtual
    environments are skipped, and TOML files that are not ship files (no `format` key, or a board
    file) are skipped and counted. Settings come from [tool.shipcheck] in pyproject.toml or from a
    shipcheck.toml (select, ignore, edition, exclude, output-format); options win over them.

    Exit 0 when every ship is legal (warnings allowed), 1 when some ship breaks an error rule, 2 when a
    file cannot be read.

    \b
    Examples:
      shipcheck check examples/blue-round1.toml
      shipcheck check examples/ --format json --ignore W1
      shipcheck check ships/ --output-format github
    """
    from shipcheck.check.config import load_settings
    from shipcheck.check.outputs import Checked, Unreadable
    from shipcheck.check.walk import find_ship_files
    from shipcheck.cli._common import spinner
    from shipcheck.shipfile import tile_lines

    settings = load_settings(config)
    sel = codes(select, "--select") if select else settings.select
    ign = codes(ignore, "--ignore") if ignore else settings.ignore
    if fmt is not None and output_format is not None and fmt != output_format:
        raise InputError("--format and --output-format are one option given twice", key="--output-format",
                         value=output_format, expected=f"the same format as --format ({fmt}), or only one of them")
    form = output_format or fmt or settings.output_format or "text"
    if ships.count(STDIN) > 1:
        raise InputError("standard input (`-`) is read once", key="SHIPS", value=STDIN, expected="one `-`")
    found = find_ship_files(ships, exclude=[*settings.exclude, *(exclude or ())], root=settings.root)
    many = len(ships) > 1 or any(os.path.isdir(p) for p in ships)
    if not found.files and not found.skipped:
        raise InputError("no ship files (*.toml) here", file=ships[0] if len(ships) == 1 else None)
    results: list[Checked] = []
    unreadable: list[Unreadable] = []
    with spinner(f"checking {len(found.files)} ship files"):
        for f in found.files:
            try:
                text, name, base = ship_text(str(f))
                s = parse_ship(text, file=name, base_dir=base, edition=edition or settings.edition or "2007")
                results.append(Checked(str(f), check(s, select=sel, ignore=ign), tile_lines(text, s.board)))
            except InputError as exc:  # every mistake of the file, one entry each
                unreadable.extend(Unreadable(str(f), line, e.line) for e, line in zip(exc.errors, input_error_lines(exc)))
                if exc.omitted:
                    unreadable.append(Unreadable(str(f), input_error_lines(exc)[-1], None))
            except Exception as exc:  # a bug in one file must not cost the other files their results
                unreadable.append(Unreadable(str(f), f"{printable(str(f))}: internal error ({type(exc).__name__}: "
                                             f"{printable(str(exc))[:200]}); please report it", None))
    if form != "text" or unreadable:
        for u in unreadable:
            if form in ("text", "json"):
                error_lines([u.message])
    _print_check(form, results, unreadable, many, do_draw, len(found.skipped), quiet)
    if unreadable:
        exit_with(EXIT_USAGE)
    if any(not c.report.legal for c in results):
        exit_with(EXIT_VIOLATIONS)


def _print_check(form: str, results: list[Any], unreadable: list[Any], many: bool, do_draw: bool,
                 skipped: int, quiet: bool = False) -> None:
    from shipcheck.check import outputs

    if form == "json":
        objs = [c.to_dict() for c in results]
        if many:
            print_json(objs)
        elif objs:
            print_json(objs[0])
    elif form == "json-lines":
        sys.stdout.write(outputs.json_lines(results, unreadable))
    elif form == "concise":
        sys.stdout.write(outputs.concise(results, unreadable))
        n = sum(len(c.report.violations) for c in results)
        sys.stderr.write(f"{n} violation{'' if n == 1 else 's'} in {len(results)} ship{'' if len(results) == 1 else 's'}"
                         + (f"; {skipped} TOML file(s) skipped (not ship files)" if skipped else "") + "\n")
    elif form == "github":
        sys.stdout.write(outputs.github(results, unreadable))
    elif form == "sarif":
        from shipcheck.cli._common import version

        print_json(outputs.sarif(results, unreadable, version=version()))
    else:
        for k, c in enumerate(results):
            r = c.report
            if k:
                echo()
            echo(header(r.ship, c.path))
            if do_draw:
                draw(r.ship, marks_of(r))
            for line in violation_lines(r):
                echo(line)
            echo(summary(r))
            for note in () if quiet else r.notes:
                echo(printable(f"note: {note}"))
        if many and (len(results) > 1 or skipped or unreadable):
            n_illegal = sum(1 for c in results if not c.report.legal)
            echo()
            echo(f"{len(results)} ship{'' if len(results) == 1 else 's'} checked: {len(results) - n_illegal} legal, "
                 f"{n_illegal} illegal" + (f"; {len({u.path for u in unreadable})} unreadable" if unreadable else "")
                 + (f"; {skipped} TOML file{'' if skipped == 1 else 's'} skipped (not ship files)" if skipped else ""))


# -- fix ------------------------------------------------------------------------------------------
@command("fix")
def fix_cmd(
    ship: ShipArg,
    write: Annotated[Path | None, typer.Option("--write", metavar="OUT", show_default=False,
                                               help="Write the fixed ship to this file.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUT if it exists.")] = False,
    keep: Annotated[list[str] | None, typer.Option(
        "--keep", metavar="SQUARE", show_default=False,
        help="Never take off the tile on this square (COL,ROW, e.g. 7,8) when a legal ship keeps it; "
             "repeatable.")] = None,
    alternatives: Annotated[int, typer.Option(
        "--alternatives", min=0, metavar="K",
        help="Also list up to K other repairs as good (as few lost, the same --keep squares kept).")] = 0,
    fmt: FormatOpt = "text",
) -> None:
    """Find the fewest components to take off so the ship passes inspection.

    Components that fall off with a removed one count as lost too. Crew errors (A codes) are reported,
    not mended by removal.

    With --keep, the tiles on those squares stay whenever some legal ship keeps them, even when that
    costs more components than the minimum (the output says how many more). --alternatives K lists
    other repairs as good; --write writes the first.

    Exit 0 when a legal ship remains; 1 (writing nothing) when no removal makes the ship legal, e.g. a
    pilot cabin off its start square.

    \b
    Examples:
      shipcheck fix examples/mistakes/loose-piece.toml
      shipcheck fix my-ship.toml --write my-ship-fixed.toml
      shipcheck fix examples/mistakes/cannon-blocked.toml --keep 7,6 --alternatives 3
    """
    from shipcheck.check.fix import fix as fix_ship

    text, name, base = ship_text(ship)
    s = parse_ship(text, file=name, base_dir=base)
    if write is not None and str(write) == STDIN:
        raise InputError("--write names a file (`-` is standard input's name, not standard output's)",
                         key="--write", value=STDIN, expected="a file name, e.g. fixed.toml")
    if write is not None and os.path.lexists(write) and not force:
        raise InputError("output file exists (use --force to overwrite it)", file=printable(str(write)),
                         key="--write", expected="a new file name")
    from shipcheck.cli._common import spinner

    with spinner("finding the fewest components to lose"):
        try:
            res = fix_ship(s, keep=keep or [], alternatives=alternatives)
        except InputError as exc:
            raise as_options(exc, {"keep": "--keep", "alternatives": "--alternatives"}) from None
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
            implied = " (the pilot cabin on the start square among them)" if any(t.implied for t in s.tiles) else ""
            echo(f"lost: {res.lost} component{'s' if res.lost != 1 else ''}, kept: {res.kept} tiles{implied}")
            if res.keep:
                kept_ok = [b.cell_text(i) for i in res.keep if i not in res.keep_lost]
                if kept_ok:
                    echo(f"kept as asked: {', '.join(kept_ok)}")
                if res.keep_lost:
                    echo(f"no legal ship keeps: {', '.join(b.cell_text(i) for i in res.keep_lost)}")
                if res.min_lost is not None and res.lost is not None and res.lost > res.min_lost:
                    echo(f"the minimum without --keep is {res.min_lost} lost")
            for k, alt in enumerate(res.alternatives, 2):
                parts = [f"take off {named(alt.cut)}"] if alt.cut else []
                if alt.fell_off:
                    parts.append(f"falls off {named(alt.fell_off)}")
                echo(f"repair {k}: {'; '.join(parts)}")
            if alternatives and not res.alternatives:
                echo("no other repair is as good")
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
        rebased = board_from(s, write.parent).board_ref
        out = edit_ship_text(text, s, res.removed, board_ref=rebased if rebased != s.board_ref else None,
                             base_dir=write.parent)
        save_text(write, out, overwrite=force)
        if fmt == "text":
            echo(f"wrote {printable(str(write))}")


# -- rules ----------------------------------------------------------------------------------------
def _rule_dict(code: str) -> dict[str, Any]:
    r = RULES[code]
    return {"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary, "why": r.why,
            "fixable": r.fixable, "bad": r.bad, "good": r.good}


@command("rules")
def rules_cmd(
    code: Annotated[str | None, typer.Argument(metavar="[CODE]", show_default=False)] = None,
    fmt: FormatOpt = "text",
) -> None:
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
