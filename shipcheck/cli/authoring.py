"""Authoring commands: new (a starter ship) and schema (the JSON Schemas for editors)."""

from __future__ import annotations

import sys
from typing import Annotated, Literal

import typer

from shipcheck.cli._common import command
from shipcheck.cli._options import Editions, edition_opt
from shipcheck.errors import InputError
from shipcheck.topology import BUILTIN_CLASSES


@command("new")
def new_cmd(
    cls: Annotated[str, typer.Option("--class", metavar="CLASS", show_default=False,
                                     help="The ship class (a built-in board): " + ", ".join(BUILTIN_CLASSES) + ".")],
    edition: Annotated[Editions, edition_opt("The tile catalogue and board (the 2021 class II board has another "
                                             "shape).")] = "2007",
    name: Annotated[str | None, typer.Option(metavar="NAME", show_default=False, help="The ship's name.")] = None,
) -> None:
    """Print a commented starter ship of a class: a small legal ship to build on.

    \b
    Examples:
      shipcheck new --class II > my-ship.toml
      shipcheck new --class II --edition 2021 --name "Red, round 2"
    """
    from shipcheck.check.starter import starter_ship

    if cls not in BUILTIN_CLASSES:
        raise InputError("unknown ship class", key="--class", value=cls, expected="one of " + ", ".join(BUILTIN_CLASSES))
    sys.stdout.write(starter_ship(cls, edition=edition, name=name))


@command("schema")
def schema_cmd(
    which: Annotated[Literal["ship", "board"], typer.Argument(metavar="ship|board", show_default=False)],
) -> None:
    """Print the JSON Schema of ship files or board files, for editors (taplo, Even Better TOML).

    \b
    Examples:
      shipcheck schema ship > ship.schema.json
      shipcheck schema board > board.schema.json
    """
    from shipcheck.check.schema import schema_path

    sys.stdout.write(schema_path(which).read_text(encoding="utf-8"))
