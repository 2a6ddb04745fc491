"""The `shipcheck` command line: a thin Typer layer over the library.

Every command parses its arguments, calls the library, and prints either text for people or the
JSON of ``docs/contract`` for scripts. Exit codes: 0 done (for `check`: legal), 1 `check` found an
error-severity violation (or `fix` found no legal result), 2 bad input or usage. Bad input never
shows a traceback: :func:`main` turns :class:`~shipcheck.errors.InputError` and click's usage
errors into one line on stderr.
"""

from __future__ import annotations

import json
import os
import sys
import tomllib
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .errors import InputError
from .model import KINDS, Ship
from .render import legend, render_board, render_ship
from .rules import RULES, CheckReport, check
from .shipfile import catalogue_entries, load_ship, parse_ship
from .topology import BUILTIN_CLASSES, Board, builtin_board, builtin_names

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_USAGE = 2


def _version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("shipcheck")
    except (ImportError, PackageNotFoundError):
        return "0.1.0"


class Format(StrEnum):
    text = "text"
    json = "json"


class Edition(StrEnum):
    e2007 = "2007"
    e2021 = "2021"


FormatOpt = Annotated[Format, typer.Option("--format", "-f", help="text for people, json for scripts.")]

app = typer.Typer(
    name="shipcheck",
    help="Check Galaxy Trucker ships against every construction rule, fix them, and compute flight odds.\n\n"
    "Example: shipcheck check examples/blue-round1.toml",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


# -- output helpers -------------------------------------------------------------------------------
def _out() -> Console:
    return Console(file=sys.stdout, highlight=False, soft_wrap=True)



def _print(obj: Any = "") -> None:
    _out().print(obj, markup=False) if isinstance(obj, str) else _out().print(obj)


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def _color() -> bool:
    return _out().is_terminal and "NO_COLOR" not in os.environ


def _codes(text: str | None, option: str) -> set[str] | None:
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


def _version_callback(value: bool) -> None:
    if value:
        sys.stdout.write(f"shipcheck {_version()}\n")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", "-V", help="Print the version and exit.",
                                         callback=_version_callback, is_eager=True)] = False,
) -> None:
    """Check Galaxy Trucker ships against every construction rule, fix them, and compute flight odds.

    Exit codes: 0 done (legal ship), 1 a rule error found, 2 bad input or usage.

    Example: shipcheck check examples/blue-round1.toml
    """


# -- describing a ship ----------------------------------------------------------------------------
def _board_desc(board: Board) -> str:
    return ", ".join([f"level {board.level}", f"dice {board.dice}", *board.features()])


def _header(ship: Ship, path: str) -> str:
    b = ship.board
    placed = sum(1 for t in ship.tiles if not t.implied)
    parts = [path]
    if ship.name:
        parts.append(f"“{ship.name}”")
    what = f"class {b.name}" if ship.board_ref in BUILTIN_CLASSES else f"board file {ship.board_ref}"
    line = " ".join(parts) + f" — {what} ({_board_desc(b)}), edition {ship.edition}, {placed} tile"
    line += "" if placed == 1 else "s"
    if ship.front and b.choose_front:
        line += f", front {ship.front}"
    if ship.dice:
        line += f", dice {list(ship.dice)}"
    if ship.aside:
        line += f", {len(ship.aside)} set aside"
    return line


def _provisional(board: Board) -> str | None:
    if board.verified:
        return None
    return f"warning: board {board.name} is provisional (verified = false)" + (f": {board.note}" if board.note else "")


def _draw(ship: Ship, marks: dict[int, str] | None = None) -> None:
    _print(render_ship(ship, marks=marks, color=_color()))


def _marks(report: CheckReport) -> dict[int, str]:
    marks: dict[int, str] = {}
    for v in sorted(report.violations, key=lambda v: v.severity != "error"):
        for i in v.cells:
            marks.setdefault(i, v.code)
    return marks


def _violation_lines(report: CheckReport) -> list[Text]:
    b = report.ship.board
    lines = []
    for v in report.violations:
        style = "bold red" if v.severity == "error" else "yellow"
        t = Text()
        t.append(f"{v.code} {v.rule.name:<22}", style=style if _color() else None)
        t.append(f" {' '.join(b.cell_text(i) for i in v.cells)}  ")
        t.append(v.message)
        lines.append(t)
    return lines


def _summary(report: CheckReport) -> str:
    ne, nw = len(report.errors), len(report.warnings)
    head = "legal" if report.legal else "ILLEGAL"
    counts = f"{ne} error{'s' if ne != 1 else ''}, {nw} warning{'s' if nw != 1 else ''}"
    e = report.exposed_connectors
    return f"{head}: {counts}, {e} exposed connector{'s' if e != 1 else ''}"


# -- show -----------------------------------------------------------------------------------------
@app.command()
def show(ship: Annotated[Path, typer.Argument(help="A ship file (format 1).", metavar="SHIP")]) -> None:
    """Draw a ship on its board.

    Each square shows the tile's kind code and its sides after rotation; see the legend line.

    Example: shipcheck show examples/blue-round1.toml
    """
    s = load_ship(ship)
    _print(_header(s, str(ship)))
    warn = _provisional(s.board)
    if warn:
        _print(warn)
    _draw(s)
    _print(legend())


# -- check ----------------------------------------------------------------------------------------
def _is_board_file(path: Path) -> bool:
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return "cells" in doc


def _expand(paths: list[Path]) -> tuple[list[Path], bool]:
    """Ship files named or found under directories; whether the output is a list."""
    files: list[Path] = []
    many = len(paths) > 1
    for p in paths:
        if p.is_dir():
            many = True
            found = sorted(q for q in p.rglob("*.toml") if q.is_file() and not _is_board_file(q))
            if not found:
                raise InputError("no ship files (*.toml) in this folder", file=p)
            files.extend(found)
        else:
            files.append(p)
    return files, many


@app.command("check")
def check_cmd(
    ships: Annotated[list[Path], typer.Argument(help="Ship files, or folders searched for *.toml ship files.",
                                                metavar="SHIP")],
    fmt: FormatOpt = Format.text,
    select: Annotated[str | None, typer.Option("--select", help="Only these rule codes, comma-separated "
                                               "(e.g. C1,C2).")] = None,
    ignore: Annotated[str | None, typer.Option("--ignore", help="Leave out these rule codes, comma-separated "
                                               "(e.g. W1).")] = None,
    draw: Annotated[bool, typer.Option("--draw/--no-draw", help="Draw each ship with its offending squares "
                                       "marked.")] = True,
) -> None:
    """Check ships against every construction rule.

    Exit 0 when every ship is legal (warnings allowed), 1 when some ship breaks an error rule, 2 when a file cannot be read.

    Examples:

      shipcheck check examples/blue-round1.toml

      shipcheck check examples/ --format json --ignore W1
    """
    sel = _codes(select, "--select")
    ign = _codes(ignore, "--ignore")
    files, many = _expand(ships)
    reports: list[tuple[str, CheckReport]] = []
    bad = 0
    for f in files:
        try:
            s = load_ship(f)
        except InputError as exc:
            bad += 1
            sys.stderr.write(f"shipcheck: error: {_input_error_text(exc)}\n")
            continue
        reports.append((str(f), check(s, select=sel, ignore=ign)))
    if fmt == Format.json:
        objs = [r.to_dict(p) for p, r in reports]
        if many:
            _print_json(objs)
        elif objs:
            _print_json(objs[0])
    else:
        for k, (p, r) in enumerate(reports):
            if k:
                _print()
            _print(_header(r.ship, p))
            if draw:
                _draw(r.ship, _marks(r))
            for line in _violation_lines(r):
                _print(line)
            _print(_summary(r))
            for note in r.notes:
                _print(f"note: {note}")
        if many and len(reports) > 1:
            n_illegal = sum(1 for _, r in reports if not r.legal)
            _print()
            _print(f"{len(reports)} ships checked: {len(reports) - n_illegal} legal, {n_illegal} illegal"
                   + (f"; {bad} unreadable" if bad else ""))
    if bad:
        raise typer.Exit(EXIT_USAGE)
    if any(not r.legal for _, r in reports):
        raise typer.Exit(EXIT_VIOLATIONS)


# -- fix ------------------------------------------------------------------------------------------
def _rebase_board(ship: Ship, src: Path, out: Path) -> Ship:
    """Point a ship's `board = "path"` at the same file when written next to ``out``."""
    ref = ship.board_ref
    if ref is None or ref in BUILTIN_CLASSES:
        return ship
    target = (src.parent / ref).resolve()
    new = os.path.relpath(target, out.resolve().parent)
    return replace(ship, board_ref=Path(new).as_posix())


@app.command()
def fix(
    ship: Annotated[Path, typer.Argument(help="A ship file.", metavar="SHIP")],
    write: Annotated[Path | None, typer.Option("--write", "-w", help="Write the fixed ship to this file.",
                                               metavar="OUT")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite OUT if it exists.")] = False,
    fmt: FormatOpt = Format.text,
) -> None:
    """Find the fewest components to take off so the ship passes inspection.

    Components that fall off with a removed one count as lost too. Crew errors (A codes) are reported, not mended by removal.

    Exit 0 when a legal ship remains; 1 (writing nothing) when no removal makes the ship legal, e.g. a pilot cabin off its start square.

    Examples:

      shipcheck fix examples/mistakes/loose-piece.toml

      shipcheck fix my-ship.toml --write my-ship-fixed.toml
    """
    from .fix import fix as fix_ship

    s = load_ship(ship)
    if write is not None and write.exists() and not force:
        raise InputError("output file exists (use --force to overwrite it)", file=write, key="--write",
                         value=str(write), expected="a new file name")
    res = fix_ship(s)
    b = s.board
    if fmt == Format.json:
        _print_json(res.to_dict(str(ship)))
    else:
        _print(_header(s, str(ship)))
        why = res.why or {}

        def named(cells: Any) -> str:
            out = []
            for i in cells:
                codes = why.get(i)
                out.append(b.cell_text(i) + (f" [{', '.join(codes)}]" if codes else ""))
            return ", ".join(out) or "nothing"

        if res.legal_before:
            _print("legal already: nothing to take off.")
        elif not res.fixable:
            _print("cannot be fixed by removing components" + (f": {res.reason}" if res.reason else "."))
        elif not res.removed:
            _print("nothing to take off" + (f": {res.reason}" if res.reason else "."))
        else:
            if res.cut:
                _print(f"take off: {named(res.cut)}")
            if res.fell_off:
                _print(f"falls off with it: {named(res.fell_off)}" if res.cut
                       else f"falls off (joined to nothing): {named(res.fell_off)}")
            _print(f"lost: {res.lost} component{'s' if res.lost != 1 else ''}, kept: {res.kept}")
        for v in res.crew:
            _print(f"crew: {v.code} {v.message} (mend it by placing the crew differently; `fix` removes nothing for it)")
        if res.fixable and res.fixed is not None:
            if res.removed:
                _print("before (RM: take off, X: falls off with it):")
                _draw(s, {i: "RM" if i in res.cut else "X" for i in res.removed})
                _print("after:")
            _draw(res.fixed)
    if not res.fixable or res.fixed is None:
        raise typer.Exit(EXIT_VIOLATIONS)
    if write is not None:
        fixed = _rebase_board(res.fixed, ship, write)
        removed = ", ".join(b.cell_text(i) for i in res.removed) or "nothing"
        try:
            from .shipfile import dump_ship

            text = dump_ship(fixed, comment=f"Fixed by shipcheck from {ship}: removed {removed}.")
            write.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the fixed ship ({exc.strerror or exc})", file=write) from None
        if fmt == Format.text:
            _print(f"wrote {write}")


# -- rules ----------------------------------------------------------------------------------------
def _rule_dict(code: str) -> dict[str, Any]:
    r = RULES[code]
    return {"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary, "why": r.why,
            "fixable": r.fixable, "bad": r.bad, "good": r.good}


@app.command()
def rules(
    code: Annotated[str | None, typer.Argument(help="A rule code, e.g. C1, to explain it with examples.",
                                               metavar="[CODE]")] = None,
    fmt: FormatOpt = Format.text,
) -> None:
    """List the construction rules, or explain one with a bad and a good example ship.

    Examples:

      shipcheck rules

      shipcheck rules C2
    """
    if code is None:
        if fmt == Format.json:
            _print_json([_rule_dict(c) for c in RULES])
            return
        table = Table(box=box.SIMPLE_HEAD, title="shipcheck rules", show_lines=False)
        for col in ("code", "name", "severity", "summary"):
            table.add_column(col, overflow="fold")
        for r in RULES.values():
            table.add_row(r.code, r.name, r.severity, r.summary)
        _out().print(table)
        _print("Explain one: shipcheck rules CODE")
        return
    key = code.upper()
    if key not in RULES:
        raise InputError("unknown rule code", key="CODE", value=code, expected="one of " + ", ".join(RULES))
    r = RULES[key]
    examples = [("bad", parse_ship(r.bad, file=f"<rule {key} bad example>")),
                ("good", parse_ship(r.good, file=f"<rule {key} good example>"))]
    if fmt == Format.json:
        d = _rule_dict(key)
        for which, s in examples:
            d[f"{which}_report"] = check(s).to_dict(f"<{which} example>")
        _print_json(d)
        return
    _print(f"{r.code} {r.name} ({r.severity})")
    _print()
    _print(r.summary)
    _print()
    _print(f"Why it matters: {r.why}")
    if not r.fixable:
        _print("`fix` does not mend it by removing components.")
    for which, s in examples:
        rep = check(s)
        _print()
        _print(f"{'Bad' if which == 'bad' else 'Good'} ship:")
        _print()
        _print("\n".join("    " + ln for ln in (r.bad if which == "bad" else r.good).strip().splitlines()))
        _print()
        _draw(s, _marks(rep))
        for line in _violation_lines(rep):
            _print(line)
        _print(_summary(rep))


# -- tiles ----------------------------------------------------------------------------------------
@app.command()
def tiles(
    edition: Annotated[Edition, typer.Option("--edition", "-e", help="Which catalogue.")] = Edition.e2007,
    kind: Annotated[str | None, typer.Option("--kind", "-k", help="Only tiles of this kind, e.g. engine.")] = None,
    fmt: FormatOpt = Format.text,
) -> None:
    """List the tile catalogue of an edition (the tiles a ship file names by `id`).

    Sides are printed N E S W at rotation 0: 0 smooth, 1 single, 2 double, 3 universal.

    Examples:

      shipcheck tiles --kind engine

      shipcheck tiles --edition 2021 --format json
    """
    if kind is not None and kind not in KINDS:
        raise InputError("unknown tile kind", key="--kind", value=kind, expected="one of " + ", ".join(KINDS))
    try:
        rows = catalogue_entries(edition.value)
    except (OSError, KeyError) as exc:
        raise InputError(f"the {edition.value} tile catalogue is not available ({exc})") from None
    if kind is not None:
        rows = [r for r in rows if r["kind"] == kind]
    if fmt == Format.json:
        _print_json(rows)
        return
    table = Table(box=box.SIMPLE_HEAD, title=f"tiles, edition {edition.value}" + (f", kind {kind}" if kind else ""))
    for col in ("id", "kind", "sides", "code", "attributes"):
        table.add_column(col)
    for r in rows:
        attrs = ", ".join(f"{k}={v}" for k, v in r.items() if k not in ("id", "kind", "sides"))
        table.add_row(r["id"], r["kind"], r["sides"], KINDS[r["kind"]].code, attrs)
    _out().print(table)
    _print(f"{len(rows)} tile{'s' if len(rows) != 1 else ''}")


# -- boards ---------------------------------------------------------------------------------------
def _all_boards() -> list[Board]:
    out = []
    for name in builtin_names():
        out.append(builtin_board("II", "2021") if name == "II-2021" else builtin_board(name))
    return out


@app.command()
def boards(fmt: FormatOpt = Format.text) -> None:
    """List the built-in ship boards (ship classes) with their shapes.

    Provisional boards (verified = false) come from secondary sources.

    Examples:

      shipcheck boards

      shipcheck boards --format json
    """
    bs = _all_boards()
    if fmt == Format.json:
        _print_json([b.to_dict() for b in bs])
        return
    table = Table(box=box.SIMPLE_HEAD, title="built-in boards")
    for col in ("name", "level", "dice", "squares", "cap", "topology", "verified"):
        table.add_column(col, no_wrap=col in ("name", "verified"))
    for b in bs:
        topo = b.features()
        squares = sum(1 for i in range(b.size) if b.char(i) != ".")
        table.add_row(b.name, str(b.level), b.dice, str(squares),
                      "-" if b.max_penalty is None else str(b.max_penalty), ", ".join(topo) or "flat",
                      "yes" if b.verified else "no")
    _out().print(table)
    _print("cap: the most credits lost components cost at the end of the flight; verified no: provisional geometry")
    for b in bs:
        _print()
        _print(f"{b.name}" + (f" ({b.edition} edition)" if b.edition else "") + ("" if b.verified else " (provisional)"))
        _print(render_board(b))


# -- cards ----------------------------------------------------------------------------------------
_CARD_BASE = ("id", "edition", "level", "index", "type", "learning")


@app.command()
def cards(
    edition: Annotated[Edition, typer.Option("--edition", "-e", help="Which card set.")] = Edition.e2007,
    level: Annotated[int | None, typer.Option("--level", "-l", help="Only cards of this flight level (1-3).")] = None,
    card_type: Annotated[str | None, typer.Option("--type", "-t", help="Only cards of this type, e.g. "
                                                  "meteor_swarm.")] = None,
    fmt: FormatOpt = Format.text,
) -> None:
    """List the adventure cards of an edition.

    Examples:

      shipcheck cards --level 1

      shipcheck cards --type meteor_swarm --format json
    """
    from .cards import CARD_TYPES, load_cards

    if card_type is not None and card_type not in CARD_TYPES:
        raise InputError("unknown card type", key="--type", value=card_type,
                         expected="one of " + ", ".join(CARD_TYPES))
    if level is not None and level < 1:
        raise InputError("bad level", key="--level", value=level, expected="a flight level 1, 2 or 3")
    try:
        all_cards = load_cards(edition.value)
    except (OSError, KeyError) as exc:
        raise InputError(f"the {edition.value} cards are not available ({exc})") from None
    sel = [c for c in all_cards
           if (level is None or c.level == level) and (card_type is None or c.type == card_type)]
    if fmt == Format.json:
        _print_json([c.to_dict() for c in sel])
        return
    table = Table(box=box.SIMPLE_HEAD, title=f"adventure cards, edition {edition.value}")
    for col in ("id", "level", "type", "details"):
        table.add_column(col, overflow="fold")
    for c in sel:
        d = c.to_dict()
        details = "; ".join(f"{k} {_card_value(v)}" for k, v in d.items() if k not in _CARD_BASE)
        table.add_row(c.id + (" (learning)" if c.learning else ""), str(c.level), c.type, details)
    _out().print(table)
    _print(f"{len(sel)} card{'s' if len(sel) != 1 else ''}")


def _card_value(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(_card_value(x) for x in v)
    if isinstance(v, dict):
        return "(" + " ".join(f"{k}={_card_value(x)}" for k, x in v.items()) + ")"
    return str(v)


# -- flights: stats, odds, simulate -----------------------------------------------------------------
class PolicyName(StrEnum):
    default = "default"
    optimal = "optimal"


AttackOpt = Annotated[list[str] | None, typer.Option(
    "--attack", "-a", metavar="KIND:FROM",
    help="An attack, repeatable, in order: small-meteor, large-meteor, light-shot or heavy-shot, "
    "from front, rear, left or right.")]
CardOpt = Annotated[str | None, typer.Option(
    "--card", "-c", metavar="ID",
    help="A card whose meteors or shots to fly through: I-09, III-10, 2021:II-10 (see `shipcheck cards`). "
    "Pirates: all shots taken; combat zone: the shots of its shots line.")]
PolicyOpt = Annotated[PolicyName, typer.Option(
    "--policy", help="default: the contract's careful player; optimal: battery decisions that maximise "
    "survival, then minimise losses.")]


def _flight_attacks(ship: Ship, attack: list[str] | None, card: str | None) -> tuple[list[Any], str]:
    from .cards import find_card
    from .flight import parse_attack

    if bool(attack) == bool(card):
        raise InputError("give --attack KIND:FROM (repeatable) or --card ID, not both and not neither",
                         key="--attack/--card", value=None, expected="one of the two")
    if attack:
        atk = [parse_attack(a) for a in attack]
        return atk, ", ".join(str(a) for a in atk)
    assert card is not None
    try:
        c = find_card(card) if ":" in card else find_card(card, ship.edition)
    except KeyError as exc:
        raise InputError("unknown card", key="--card", value=card,
                         expected=str(exc.args[0]) if exc.args else "a card id from `shipcheck cards`") from None
    atk = list(c.attacks())
    if not atk:
        raise InputError(f"card {c.full_id} ({c.type}) has no meteors or shots", key="--card", value=card,
                         expected="a meteor swarm, pirates or combat zone card")
    return atk, f"card {c.full_id} ({c.type}): " + ", ".join(str(a) for a in atk)


def _flight_header(s: Ship, path: Path, what: str) -> None:
    _print(_header(s, str(path)))
    warn = _provisional(s.board)
    if warn:
        _print(warn)
    report = check(s)
    if not report.legal:
        codes = ", ".join(sorted({v.code for v in report.errors}))
        _print(f"note: the ship is not legal ({codes}); the odds are for the ship as built")
    _print(f"attacks: {what}")


def _pct(p: Any) -> str:
    return f"{float(p) * 100:6.2f} %"


def _loss_marks(ship: Ship, p_lost: list[tuple[int, Any]]) -> dict[int, str]:
    return {sq: f"{round(float(p) * 100)}%" for sq, p in p_lost if float(p) > 0}


def _dist_lines(dist: dict[int, Any], fractions: bool) -> list[str]:
    out = []
    top = max((float(v) for v in dist.values()), default=1.0) or 1.0
    for k, v in dist.items():
        bar = "█" * max(1, round(30 * float(v) / top)) if float(v) > 0 else ""
        frac = f"  ({v})" if fractions else ""
        out.append(f"  lost {k:>2}: {_pct(v)} {bar}{frac}")
    return out


@app.command()
def stats(
    ship: Annotated[Path, typer.Argument(help="A ship file (format 1).", metavar="SHIP")],
    fmt: FormatOpt = Format.text,
) -> None:
    """Ship parameters: crew, engine and cannon power per charge spent, shields, cargo, exposed
    connectors, and where each kind of attack can hit.

    Example: shipcheck stats examples/class-II-freighter.toml
    """
    from .stats import render_stats
    from .stats import stats as ship_stats

    s = load_ship(ship)
    st = ship_stats(s)
    if fmt is Format.json:
        d = st.to_dict()
        d["ship"] = str(ship)
        _print_json(d)
        return
    _print(_header(s, str(ship)))
    warn = _provisional(s.board)
    if warn:
        _print(warn)
    _print(render_stats(st))


@app.command()
def odds(
    ship: Annotated[Path, typer.Argument(help="A ship file (format 1).", metavar="SHIP")],
    attack: AttackOpt = None,
    card: CardOpt = None,
    policy: PolicyOpt = PolicyName.default,
    fmt: FormatOpt = Format.text,
) -> None:
    """Exact odds of a sequence of attacks: survival, components lost, each square's risk.

    Every dice outcome is enumerated (a Markov chain over damage states, in exact fractions).

    Examples:
      shipcheck odds examples/class-II-freighter.toml --attack large-meteor:front --attack small-meteor:left
      shipcheck odds examples/class-III-hauler.toml --card III-10 --policy optimal
    """
    from .odds import POLICY_NOTE
    from .odds import odds as exact_odds

    s = load_ship(ship)
    atk, what = _flight_attacks(s, attack, card)
    r = exact_odds(s, atk, policy=policy.value)
    if fmt is Format.json:
        _print_json({"ship": str(ship), **r.to_dict()})
        return
    _flight_header(s, ship, what)
    _print(f"policy: {POLICY_NOTE if r.policy == 'default' else 'optimal (dynamic programming over damage states)'}")
    _draw(s, _loss_marks(s, r.p_lost()))
    _print("squares show the chance the component is lost")
    _print(f"survive:        {_pct(r.p_survive)}  ({r.p_survive})")
    _print(f"expected lost:  {float(r.expected_lost):.4f}  ({r.expected_lost})")
    for line in _dist_lines(r.lost_distribution, True):
        _print(line)
    if r.baseline is not None:
        _print(f"default policy: survive {r.baseline['p_survive'] * 100:.2f} %, "
               f"expected lost {r.baseline['expected_lost']:.4f}")
        if not r.differences:
            _print("the optimal decisions are the default's everywhere they matter")
        for diff in r.differences[:10]:
            _print(f"  attack {diff['attack']} ({diff['attack_kind']}), {diff['roll']} "
                   f"[p={diff['probability']:.4f}]: default {diff['default']} -> optimal {diff['optimal']}")
        if len(r.differences) > 10:
            _print(f"  ... {len(r.differences) - 10} more (see --format json)")


@app.command()
def simulate(
    ship: Annotated[Path, typer.Argument(help="A ship file (format 1).", metavar="SHIP")],
    attack: AttackOpt = None,
    card: CardOpt = None,
    runs: Annotated[int, typer.Option("--runs", "-n", min=1, help="Number of flights to sample.")] = 100_000,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed; the same seed gives the same "
                                             "numbers on any number of workers. Random if omitted.")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Local worker processes.")] = 1,
    dask: Annotated[bool, typer.Option(
        "--dask", help="Run on Dask (pip install 'shipcheck[dask]'): on --scheduler if given, else on a "
        "local cluster of --workers processes.")] = False,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="A Dask scheduler address (implies --dask); 'local' starts a local cluster.")] = None,
    precision: Annotated[float | None, typer.Option(
        "--precision", help="Run until the 95 %% interval of p_survive is this narrow (ignores --runs).")] = None,
    batch: Annotated[int, typer.Option("--batch", min=1, help="Runs per chunk (bounds memory; part of "
                                       "what the seed means).")] = 65_536,
    policy: PolicyOpt = PolicyName.default,
    fmt: FormatOpt = Format.text,
) -> None:
    """Monte Carlo odds over the same model as `odds`, with 95 % intervals.

    Examples:
      shipcheck simulate examples/class-III-hauler.toml --card III-10 --runs 200000 --seed 7
      shipcheck simulate examples/blue-round1.toml --attack large-meteor:front --precision 0.001 --workers 2
      shipcheck simulate examples/blue-round1.toml --card I-09 --dask --workers 2 --seed 1
    """
    from .montecarlo import rich_progress
    from .montecarlo import simulate as mc

    s = load_ship(ship)
    atk, what = _flight_attacks(s, attack, card)
    if dask and scheduler is None:
        scheduler = "local"
    if precision is not None and not 0 < precision < 1:
        raise InputError("bad precision", key="--precision", value=precision, expected="a width between 0 and 1")
    try:
        with rich_progress() as bar:
            r = mc(s, atk, runs=runs, seed=seed, workers=workers, scheduler=scheduler, precision=precision,
                   batch=batch, policy=policy.value, progress=bar)
    except ImportError as exc:
        raise InputError(str(exc), key="--scheduler", value=scheduler, expected="the dask extra installed") from None
    except OSError as exc:
        raise InputError(f"cannot reach the Dask scheduler ({exc})", key="--scheduler", value=scheduler,
                         expected="a running scheduler address, or 'local'") from None
    if fmt is Format.json:
        _print_json({"ship": str(ship), **r.to_dict()})
        return
    _flight_header(s, ship, what)
    _print(f"{r.runs} runs, seed {r.seed} (repeat with --seed {r.seed}{f' --batch {batch}' if batch != 65_536 else ''})")
    _draw(s, _loss_marks(s, [(sq, p) for sq, p in zip([t.at for t in s.tiles], r.p_lost)]))
    _print("squares show the estimated chance the component is lost")
    lo, hi = r.p_survive_ci
    _print(f"survive:        {_pct(r.p_survive)}  95 % CI [{lo * 100:.2f} %, {hi * 100:.2f} %]")
    lo, hi = r.expected_lost_ci
    _print(f"expected lost:  {r.expected_lost:.4f}  95 % CI [{lo:.4f}, {hi:.4f}]")
    for line in _dist_lines(r.lost_distribution, False):
        _print(line)


# -- entry point ----------------------------------------------------------------------------------
def _input_error_text(exc: InputError) -> str:
    """The one-line message; errors in options name no file."""
    text = " ".join(str(exc).split())
    return text.removeprefix("<input>: ") if exc.file is None else text


def main(argv: list[str] | None = None) -> NoReturn:
    """Console entry point: run the app, turning bad input into exit 2 without a traceback."""
    try:
        rv = app(args=argv, prog_name="shipcheck", standalone_mode=False)
    except InputError as exc:
        sys.stderr.write(f"shipcheck: error: {_input_error_text(exc)}\n")
        sys.exit(EXIT_USAGE)
    except typer.TyperException as exc:
        # click's usage errors (unknown option, missing argument, bad choice): one line, exit 2
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError":
            text = exc.format_message().rstrip()  # typer's rich help is already printed
            if text:
                sys.stderr.write(text + "\n")
            sys.exit(EXIT_USAGE)
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        message = " ".join(exc.format_message().split())
        sys.stderr.write(f"shipcheck: error: {message}{hint}\n")
        sys.exit(EXIT_USAGE)
    except typer.Abort:
        sys.stderr.write("shipcheck: aborted\n")
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(EXIT_OK)
    sys.exit(rv if isinstance(rv, int) else EXIT_OK)


if __name__ == "__main__":  # pragma: no cover
    main()
