"""Catalogue commands: tiles, boards, cards."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from shipcheck.cli._common import command, echo, print_json, print_rich, table
from shipcheck.cli._options import Editions, FormatOpt, edition_opt
from shipcheck.errors import InputError, suggest
from shipcheck.model import KIND_EXPECTED, KINDS
from shipcheck.render import render_board
from shipcheck.shipfile import catalogue_entries
from shipcheck.topology import Board, builtin_board, builtin_names


@command("tiles")
def tiles_cmd(
    edition: Annotated[Editions, edition_opt("Which catalogue.")] = "2007",
    kind: Annotated[str | None, typer.Option("--kind", metavar="KIND", show_default=False,
                                             help="Only tiles of this kind, e.g. engine.")] = None,
    sides: Annotated[str | None, typer.Option(
        metavar="NESW", show_default=False,
        help="Only tiles with these connectors, 4 digits N E S W as the tile lies (0 smooth, 1 single, 2 double, "
             "3 universal; barrels and exhausts are 0), e.g. 1113.")] = None,
    any_rotation: Annotated[bool, typer.Option(
        "--any-rotation", help="With --sides: also tiles that show these connectors once turned; the `rot` to write is given.")]
    = False,
    tile_id: Annotated[str | None, typer.Option("--id", metavar="ID", show_default=False,
                                                help="Draw one tile (e.g. 2007:5) in its four rotations.")] = None,
    kinds: Annotated[bool, typer.Option("--kinds", help="List the tile kinds a ship file may name, with the "
                                                         "edition's copies of each.")] = False,
    fmt: FormatOpt = "text",
) -> None:
    """List the tile catalogue of an edition (the tiles a ship file names by `id`), find a tile by
    its connectors, or draw one.

    Sides are printed N E S W at rotation 0: 0 smooth, 1 single, 2 double, 3 universal.

    \b
    Examples:
      shipcheck tiles --kind engine
      shipcheck tiles --sides 1113 --any-rotation
      shipcheck tiles --id 2007:5
      shipcheck tiles --kinds
      shipcheck tiles --edition 2021 --format json
    """
    from shipcheck.shipfile import find_tiles

    if kind is not None and kind not in KINDS:
        raise InputError("unknown tile kind", key="--kind", value=kind, expected=KIND_EXPECTED,
                         hint=suggest(kind, KINDS))
    if kinds:
        _kinds(edition, fmt)
        return
    if tile_id is not None:
        _draw_tile(tile_id, edition, fmt)
        return
    if any_rotation and sides is None:
        raise InputError("--any-rotation needs --sides", key="--any-rotation", expected="--sides NESW as well")
    try:
        rows = catalogue_entries(edition)
    except (OSError, KeyError) as exc:
        raise InputError(f"the {edition} tile catalogue is not available ({exc})") from None
    if sides is not None:
        if len(sides) != 4 or any(ch not in "0123" for ch in sides):
            raise InputError("bad side string", key="--sides", value=sides,
                             expected='4 digits 0-3 in the order N E S W, e.g. "1113"')
        rots = dict(find_tiles(sides, edition=edition, any_rotation=any_rotation))
        rows = [dict(r, rot=rots[r["id"]]) for r in rows if r["id"] in rots]
    if kind is not None:
        rows = [r for r in rows if r["kind"] == kind]
    if fmt == "json":
        print_json(rows)
        return
    from rich import box
    from rich.table import Table

    title = f"tiles, edition {edition}" + (f", kind {kind}" if kind else "") + (f", sides {sides}" if sides else "")
    table = Table(box=box.SIMPLE_HEAD, title=title)
    cols = ["id", "kind", "sides", "code", "attributes"] + (["rot"] if sides else [])
    for col in cols:
        table.add_column(col)
    for r in rows:
        attrs = ", ".join(f"{k}={v}" for k, v in r.items() if k not in ("id", "kind", "sides", "rot"))
        cells = [r["id"], r["kind"], r["sides"], KINDS[r["kind"]].code, attrs] + ([str(r["rot"])] if sides else [])
        table.add_row(*cells)
    print_rich(table)
    echo(f"{len(rows)} tile{'s' if len(rows) != 1 else ''}")
    if sides and not any_rotation and not rows:
        echo("none as printed; try --any-rotation for tiles that show these connectors once turned")


def _kinds(edition: str, fmt: str) -> None:
    """Every kind of the ship format: its code in drawings, what it is, the edition's copies."""
    counts: dict[str, int] = {}
    for r in catalogue_entries(edition):
        counts[r["kind"]] = counts.get(r["kind"], 0) + 1
    if fmt == "json":
        print_json([{"kind": k, "code": info.code, "description": info.description, "copies": counts.get(k, 0)}
                    for k, info in KINDS.items()])
        return
    rows = [[k, info.code, str(counts.get(k, 0)), info.description] for k, info in KINDS.items()]
    table(["kind", "code", f"in {edition}", "what"], rows, left=(0, 1, 3), text=3)
    echo(f"{len(KINDS)} kinds; those with no copy in the {edition} catalogue come from the expansions (see "
         "docs/ship-format.md)")


def _draw_tile(tile_id: str, edition: str, fmt: str) -> None:
    from shipcheck.render import render_tiles
    from shipcheck.shipfile import catalogue

    ed = tile_id.split(":", 1)[0] if ":" in tile_id else edition
    if ed not in ("2007", "2021"):
        raise InputError("bad catalogue id", key="--id", value=tile_id, expected='"<edition>:<number>", e.g. "2007:5"')
    full = tile_id if ":" in tile_id else f"{edition}:{tile_id}"
    entry = catalogue(ed).get(full)
    if entry is None:
        raise InputError("no such tile in the catalogue", key="--id", value=tile_id,
                         expected=f"{ed}:1 to {ed}:{len(catalogue(ed))} (see shipcheck tiles)")
    if fmt == "json":
        print_json({"id": full, "kind": entry.kind, "sides": entry.sides, **dict(entry.attrs)})
        return
    attrs = ", ".join(f"{k}={v}" for k, v in entry.attrs)
    echo(f"{full}: {entry.kind} ({KINDS[entry.kind].code}), sides {entry.sides}" + (f", {attrs}" if attrs else ""))
    from shipcheck.cli._common import color

    echo(render_tiles(entry, color=color()))


def _all_boards() -> list[Board]:
    out = []
    for name in builtin_names():
        out.append(builtin_board("II", "2021") if name == "II-2021" else builtin_board(name))
    return out


@command("boards")
def boards_cmd(fmt: FormatOpt = "text") -> None:
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
    rows = []
    for b in bs:
        squares = sum(1 for i in range(b.size) if b.char(i) != ".")
        rows.append([b.name, str(b.level), b.dice, str(squares), "-" if b.max_penalty is None else str(b.max_penalty),
                     "yes" if b.verified else "no", ", ".join(b.features()) or "flat"])
    # the topology folds under its own start on a narrow terminal; nothing is cut short
    table(["name", "level", "dice", "squares", "cap", "verified", "topology"], rows, text=6, left=(0, 2, 5, 6))
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


def _card_detail(key: str, value: Any) -> str:
    if key == "planets":  # one group per planet: which goods each offers
        return "planets " + " | ".join(f"{n}: {', '.join(goods)}" for n, goods in enumerate(value, 1))
    return f"{key} {_card_value(value)}"


@command("cards")
def cards_cmd(
    edition: Annotated[Editions, edition_opt("Which card set.")] = "2007",
    level: Annotated[int | None, typer.Option("--level", "-l", metavar="LEVEL", show_default=False,
                                              help="Only cards of this flight level (1-3 in 2007, 1-2 in 2021).")]
    = None,
    card_type: Annotated[str | None, typer.Option("--type", "-t", metavar="TYPE", show_default=False,
                                                  help="Only cards of this type, e.g. meteor_swarm.")] = None,
    fmt: FormatOpt = "text",
) -> None:
    """List the adventure cards of an edition.

    \b
    Examples:
      shipcheck cards --level 1
      shipcheck cards --type meteor_swarm --format json
    """
    from shipcheck.cards import CARD_TYPES, load_cards

    if card_type is not None and card_type not in CARD_TYPES:
        raise InputError("unknown card type", key="--type", value=card_type,
                         expected="one of " + ", ".join(CARD_TYPES))
    try:
        all_cards = load_cards(edition)
    except (OSError, KeyError) as exc:
        raise InputError(f"the {edition} cards are not available ({exc})") from None
    levels = sorted({c.level for c in all_cards})
    if level is not None and level not in levels:
        raise InputError(f"no level {level} cards in the {edition} edition", key="--level", value=level,
                         expected="a flight level " + ", ".join(map(str, levels)))
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
        details = "; ".join(_card_detail(k, v) for k, v in d.items() if k not in _CARD_BASE)
        table.add_row(c.id + (" (learning)" if c.learning else ""), str(c.level), c.type, details)
    print_rich(table)
    echo(f"{len(sel)} card{'s' if len(sel) != 1 else ''}")
