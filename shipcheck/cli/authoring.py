"""Authoring commands: new (a starter ship) and schema (the JSON Schemas for editors)."""

from __future__ import annotations

import sys

import click

from ..topology import BUILTIN_CLASSES
from ._common import edition_option


@click.command("new")
@click.option("--class", "cls", required=True, type=click.Choice(BUILTIN_CLASSES), metavar="CLASS",
              help="The ship class (a built-in board): " + ", ".join(BUILTIN_CLASSES) + ".")
@edition_option("tile catalogue and board (the 2021 class II board has another shape)")
@click.option("--name", metavar="NAME", help="The ship's name.")
def new_cmd(cls: str, edition: str, name: str | None) -> None:
    """Print a commented starter ship of a class: a small legal ship to build on.

    \b
    Examples:
      shipcheck new --class II > my-ship.toml
      shipcheck new --class II --edition 2021 --name "Red, round 2"
    """
    from ..starter import starter_ship

    sys.stdout.write(starter_ship(cls, edition=edition, name=name))


@click.command("schema")
@click.argument("which", type=click.Choice(["ship", "board"]), metavar="ship|board")
def schema_cmd(which: str) -> None:
    """Print the JSON Schema of ship files or board files, for editors (taplo, Even Better TOML).

    \b
    Examples:
      shipcheck schema ship > ship.schema.json
      shipcheck schema board > board.schema.json
    """
    from ..schema import schema_path

    sys.stdout.write(schema_path(which).read_text(encoding="utf-8"))
