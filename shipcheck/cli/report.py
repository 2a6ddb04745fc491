"""The `report` command: a strategy report as one self-contained page with its figures."""

from __future__ import annotations

import re
from pathlib import Path

import click

from ._common import echo, format_option, print_json


def slug(text: str) -> str:
    """A folder name from a ship's name: ``"Blue, round 1"`` -> ``"blue-round-1"``."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "ship"


@click.command("report")
@click.argument("ship", metavar="SHIP", type=click.Path(path_type=str))
@click.argument("other", metavar="[SHIP2]", required=False, type=click.Path(path_type=str))
@click.option("--round", "-r", "rnd", type=click.IntRange(1, 3), metavar="N",
              help="The round (1-3) whose cards to fly. Default: the level of the ship's board.")
@click.option("--edition", "-e", type=click.Choice(["2007", "2021"]),
              help="Which cards. Default: the ship file's edition.")
@click.option("--out", "-o", metavar="DIR", type=click.Path(path_type=str),
              help="Folder to write into. Default: reports/<ship name>/ (reports/<a>-vs-<b>/ for two ships).")
@format_option
def report_cmd(ship: str, other: str | None, rnd: int | None, edition: str | None, out: str | None,
               fmt: str) -> None:
    """A strategy report: the ship drawn, its meteor risks square by square, its parameters and
    checks, written as one self-contained page (index.html) with every figure as PNG and SVG.

    Given two ships, compares them side by side. Files the report did not write itself are never
    overwritten (the folder keeps a manifest of what it wrote).

    \b
    Examples:
      shipcheck report examples/class-II-freighter.toml
      shipcheck report examples/blue-round1.toml examples/class-I-scout.toml --out /tmp/blue-vs-scout
    """
    from ..report import report as make_report
    from ..report.data import pct
    from ._common import spinner

    with spinner("drawing the report"):
        rep = make_report(ship, other, round=rnd, edition=edition)
    folder = Path(out) if out else Path("reports") / "-vs-".join(slug(s.name) for s in rep.ships)
    written = rep.write(folder)
    if fmt == "json":
        print_json({"out": str(folder), "files": [str(p) for p in written], **rep.to_dict()})
        return
    for s in rep.ships:
        m = s.meteors
        verdict = "legal" if s.check.legal else "ILLEGAL"
        echo(f"{s.name}: {verdict}, {s.check.exposed_connectors} exposed connectors; a round-{m.round} meteor "
             f"swarm: survive {pct(m.p_survive)}, {float(m.expected_lost):.2f} components lost on average")
    for note in rep.notes:
        echo(f"note: {note}")
    echo(f"wrote {len(written)} files; open {folder / 'index.html'}")

