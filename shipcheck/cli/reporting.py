"""The `report` command: a strategy report as one self-contained page with its figures."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from shipcheck.cli._common import command, echo, notes, print_json
from shipcheck.cli._options import (
    RUNS_COMPARE,
    Editions,
    FormatOpt,
    NotesOpt,
    QuietOpt,
    deck_opt,
    edition_opt,
    opponent_opt,
    round_opt,
    rules_opt,
    runs_opt,
    seed_opt,
)

if TYPE_CHECKING:
    from shipcheck.report import Report


def slug(text: str) -> str:
    """A folder name from a ship's name: ``"Blue, round 1"`` -> ``"blue-round-1"``."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "ship"


@command("report")
def report_cmd(
    ship: Annotated[str, typer.Argument(metavar="SHIP", show_default=False)],
    other: Annotated[str | None, typer.Argument(metavar="[SHIP2]", show_default=False)] = None,
    rnd: Annotated[str | None, round_opt()] = None,
    opponents: Annotated[list[str] | None, opponent_opt(
        "An opponent's ship file, repeatable (at most 4). Default: the field shipped for the class.")] = None,
    deck: Annotated[str | None, deck_opt()] = None,
    edition: Annotated[Editions | None, edition_opt("Which cards. Default: the ship file's edition.")] = None,
    runs: Annotated[int | None, runs_opt(f"Rounds flown for each ship and each change tried.  [default: {RUNS_COMPARE:,}]")] = None,
    seed: Annotated[int | None, seed_opt("the same seed gives the same report")] = None,
    rules_file: Annotated[str | None, rules_opt()] = None,
    no_advice: Annotated[bool, typer.Option("--no-advice", help="Skip the search for better variants (the slow "
                                                                "part).")] = False,
    out: Annotated[str | None, typer.Option(
        "--out", metavar="DIR", show_default=False,
        help="Folder to write into; one that holds other files gets a folder named after the ship inside it. "
             "Default: reports/<ship name>/ (reports/<a>-vs-<b>/ for two ships).")] = None,
    all_notes: NotesOpt = False,
    quiet: QuietOpt = False,
    fmt: FormatOpt = "text",
) -> None:
    """A strategy report: what to change, the credits a round earns, the ship drawn, its meteor risks
    square by square, its parameters and checks, as one self-contained page (index.html) with every
    figure beside it as PNG and SVG.

    Given two ships, compares them side by side on the same decks and dice. Files the report did not
    write itself are never overwritten (the folder keeps a manifest of what it wrote), and a --out
    folder holding other files gets the report in a folder of its own inside it, named after the ship.

    \b
    Examples:
      shipcheck report examples/class-II-freighter.toml --seed 1
      shipcheck report examples/blue-round1.toml examples/class-I-scout.toml --out /tmp/blue-vs-scout
    """
    from shipcheck.cli._common import STDIN, read_ship, spinner
    from shipcheck.errors import InputError, printable
    from shipcheck.report import report as make_report
    from shipcheck.report.output import foreign_files

    with spinner("report") as stage:
        if ship == other == STDIN:
            raise InputError("standard input (`-`) is read once", key="SHIP", value=STDIN, expected="one `-`")
        first = read_ship(ship) if ship == STDIN else ship  # `-`: standard input
        second = read_ship(other) if other == STDIN else other
        rep = make_report(first, second, round=rnd, opponents=list(opponents) if opponents else None, deck=deck,
                          edition=edition, runs=runs or RUNS_COMPARE, seed=seed, recommendations=not no_advice,
                          progress=stage, rules=rules_file)
        name = "-vs-".join(slug(s.name) for s in rep.ships)
        folder = Path(out) if out else Path("reports") / name
        others = foreign_files(folder) if out else []
        if others:  # a working folder: the report goes into a folder of its own inside it, never among them
            folder = folder / name
        stage("drawing the figures")
        written = rep.write(folder)
    if fmt == "json":
        print_json({"out": str(folder), "files": [str(p) for p in written], **rep.to_dict()})
        return
    if others:
        echo(f"{printable(out or '')} holds other files ({len(others)}): the report goes into its own folder "
             f"{printable(str(folder))}")
    say(rep, folder, written, quiet=quiet, all_notes=all_notes)


def say(rep: Report, folder: Path, written: list[Path], *, quiet: bool = False, all_notes: bool = False) -> None:
    """The text ``shipcheck report`` prints about report ``rep``, written into ``folder`` (the
    ``written`` files), folded to the terminal's width; ``quiet`` leaves the notes out, ``all_notes``
    lists every provisional value."""
    from shipcheck.report.figures import pct, round_name

    seed_used = rep.settings.get("seed")
    echo(f"{rep.settings.get('runs', 0):,} rounds a ship, seed {seed_used} (repeat with --seed {seed_used})")
    for s in rep.ships:
        verdict = "legal" if s.check.legal else "ILLEGAL"
        line = f"{s.name}: {verdict}, {s.check.exposed_connectors} exposed connectors"
        if s.round is not None:
            r = s.round
            line += (f"; {round_name(rep.round)}: {r.credits.mean:.1f} credits on average, finishes {pct(r.p_finish)}, "
                     f"loses {r.lost.mean:.1f} components")
        echo(line)
        if s.advice is not None and s.advice.best is not None:
            e = s.advice.best
            echo(f"  best change: {e.variant.text} ({e.credits:+.2f} credits, 95% interval "
                 f"{e.credits_ci[0]:+.2f} to {e.credits_ci[1]:+.2f})")
        elif s.advice is not None:
            echo(f"  no single change surely earns more ({s.advice.screened} legal variants tried)")
    if rep.comparison is not None:
        c = rep.comparison
        echo(f"{rep.ships[1].name} minus {rep.ships[0].name}: {c.credits:+.2f} credits per round "
             f"({c.credits_ci[0]:+.2f} to {c.credits_ci[1]:+.2f}), same decks and dice")
    notes(rep.notes, listed=all_notes, quiet=quiet)
    echo(f"wrote {len(written)} files; open {folder / 'index.html'}")
