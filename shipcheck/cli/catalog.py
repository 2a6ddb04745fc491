"""Catalogue commands: tiles, boards, cards."""

from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from ..model import KINDS
from ..render import render_board
from ..shipfile import catalogue_entries
from ..topology import Board, builtin_board, builtin_names
from ._common import echo, edition_option, format_option, print_json, print_rich


@click.command("tiles")
@edition_option("catalogue")
@click.option("--kind", "-k", metavar="KIND", help="Only tiles of this kind, e.g. engine.")
@format_option
def tiles_cmd(edition: str, kind: str | None, fmt: str) -> None:
    """List the tile catalogue of an edition (the tiles a ship file names by `id`).

    Sides are printed N E S W at rotation 0: 0 smooth, 1 single, 2 double, 3 universal.

    \b
    Examples:
      shipcheck tiles --kind engine
      shipcheck tiles --edition 2021 --format json
    """
    if kind is not None and kind not in KINDS:
        raise InputError("unknown tile kind", key="--kind", value=kind, expected="one of " + ", ".join(KINDS))
    try:
        rows = catalogue_entries(edition)
    except (OSError, KeyError) as exc:
        raise InputError(f"the {edition} tile catalogue is not available ({exc})") from None
    if kind is not None:
        rows = [r for r in rows if r["kind"] == kind]
    if fmt == "json":
        print_json(rows)
        return
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=f"tiles, edition {edition}" + (f", kind {kind}" if kind else ""))
    for col in ("id", "kind", "sides", "code", "attributes"):
        table.add_column(col)
    for r in rows:
        attrs = ", ".join(f"{k}={v}" for k, v in r.items() if k not in ("id", "kind", "sides"))
        table.add_row(r["id"], r["kind"], r["sides"], KINDS[r["kind"]].code, attrs)
    print_rich(table)
    echo(f"{len(rows)} tile{'s' if len(rows) != 1 else ''}")


def _all_boards() -> list[Board]:
    out = []
    for name in builtin_names():
        out.append(builtin_board("II", "2021") if name == "II-2021" else builtin_board(name))
    return out


@click.command("boards")
@format_option
def boards_cmd(fmt: str) -> None:
    """List the built-in ship boards (ship classes) with their shapes.

    Provisional boards (verified = false) come from secondary sources.

    \b
    Examples:
      shipcheck boards
      shipcheck boards --format json
    """
    bs = _all_boards()
    if fmt == "json":
        print_json([b.to_dict() for b in bs])
        return
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title="built-in boards")
    for col in ("name", "level", "dice", "squares", "cap", "topology", "verified"):
        table.add_column(col, no_wrap=col in ("name", "verified"))
    for b in bs:
        topo = b.features()
        squares = sum(1 for i in range(b.size) if b.char(i) != ".")
        table.add_row(b.name, str(b.level), b.dice, str(squares),
                      "-" if b.max_penalty is None else str(b.max_penalty), ", ".join(topo) or "flat",
                      "yes" if b.verified else "no")
    print_rich(table)
    echo("cap: the most credits lost components cost at the end of the flight; verified no: provisional geometry")
    for b in bs:
        echo()
        echo(f"{b.name}" + (f" ({b.edition} edition)" if b.edition else "") + ("" if b.verified else " (provisional)"))
        echo(render_board(b))


_CARD_BASE = ("id", "edition", "level", "index", "type", "learning")


def _card_value(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(_card_value(x) for x in v)
    if isinstance(v, dict):
        return "(" + " ".join(f"{k}={_card_value(x)}" for k, x in v.items()) + ")"
    return str(v)


@click.command("cards")
@edition_option("card set")
@click.option("--level", "-l", type=int, metavar="LEVEL", help="Only cards of this flight level (1-3).")
@click.option("--type", "-t", "card_type", metavar="TYPE", help="Only cards of this type, e.g. meteor_swarm.")
@format_option
def cards_cmd(edition: str, level: int | None, card_type: str | None, fmt: str) -> None:
    """List the adventure cards of an edition.

    \b
    Examples:
      shipcheck cards --level 1
      shipcheck cards --type meteor_swarm --format json
    """
    from ..cards import CARD_TYPES, load_cards

    if card_type is not None and card_type not in CARD_TYPES:
        raise InputError("unknown card type", key="--type", value=card_type,
                         expected="one of " + ", ".join(CARD_TYPES))
    if level is not None and level < 1:
        raise InputError("bad level", key="--level", value=level, expected="a flight level 1, 2 or 3")
    try:
        all_cards = load_cards(edition)
    except (OSError, KeyError) as exc:
        raise InputError(f"the {edition} cards are not available ({exc})") from None
    sel = [c for c in all_cards
           if (level is None or c.level == level) and (card_type is None or c.type == card_type)]
    if fmt == "json":
        print_json([c.to_dict() for c in sel])
        return
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=f"adventure cards, edition {edition}")
    for col in ("id", "level", "type", "details"):
        table.add_column(col, overflow="fold")
    for c in sel:
        d = c.to_dict()
        details = "; ".join(f"{k} {_card_value(v)}" for k, v in d.items() if k not in _CARD_BASE)
        table.add_row(c.id + (" (learning)" if c.learning else ""), str(c.level), c.type, details)
    print_rich(table)
    echo(f"{len(sel)} card{'s' if len(sel) != 1 else ''}")
