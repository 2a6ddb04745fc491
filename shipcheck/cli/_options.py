"""The options the commands share, and the one table of short flags.

A short flag means the same long option in every command that has it (:data:`SHORT_FLAGS`; the test
in ``tests/test_cli_flags.py`` reads every command's options against it, and ``docs/cli.md`` lists
it). ``--round``, ``--runs`` and ``--seed`` are checked by one function each, whatever the command.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import typer

from shipcheck.defaults import RUNS_COMPARE, RUNS_FLIGHT, RUNS_ROUND

#: short flag -> the long option it stands for, in every command
SHORT_FLAGS: dict[str, str] = {
    "-h": "--help",
    "-V": "--version",
    "-f": "--format",
    "-e": "--edition",
    "-q": "--quiet",
    "-r": "--round",
    "-n": "--runs",
    "-s": "--seed",
    "-o": "--opponent",
    "-d": "--deck",
    "-a": "--attack",
    "-c": "--card",
    "-p": "--policy",
    "-w": "--workers",
    "-k": "--top",
    "-l": "--level",
    "-t": "--type",
}

ROUND_CHOICES = ("1", "2", "3", "3a", "learning")


# -- the one validation of --round, --runs, --seed ------------------------------------------------
def round_value(value: str | None) -> str | None:
    """``--round``: 1, 2, 3, 3a or learning (None: the board's level, decided by the library)."""
    from shipcheck import validate

    return None if value is None else validate.round_key(value, key="--round")


def runs_value(value: int | None) -> int | None:
    """``--runs``: a whole number of runs, at least 1 (None: the command's default); the library
    checks the memory the runs would need."""
    from shipcheck import validate

    return None if value is None else validate.count(value, key="--runs")


def seed_value(value: int | None) -> int | None:
    """``--seed``: a whole number >= 0 (None: a random seed, which the output reports)."""
    from shipcheck import validate

    return validate.seed(value, key="--seed")


def _round_cb(value: str | None) -> str | None:
    return round_value(value)


def _runs_cb(value: int | None) -> int | None:
    return runs_value(value)


def _seed_cb(value: int | None) -> int | None:
    return seed_value(value)


# -- options --------------------------------------------------------------------------------------
Fmt = Literal["text", "json"]
Editions = Literal["2007", "2021"]

FormatOpt = Annotated[Fmt, typer.Option("--format", "-f", help="text for people, json for scripts.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Hide the notes (provisional values, cautions).")]
NotesOpt = Annotated[bool, typer.Option(
    "--notes", help="List every note. By default the provisional values are counted on one line; "
                    "--format json always lists them.")]
ShipArg = Annotated[str, typer.Argument(metavar="SHIP", show_default=False)]


def edition_opt(help: str) -> Any:
    return typer.Option("--edition", "-e", help=help)


def round_opt(help: str = "The round: 1, 2, 3, 3a or learning. Default: the level of the ship's board "
              "(3a for class IIIa).") -> Any:
    return typer.Option("--round", "-r", metavar="N", callback=_round_cb, help=help, show_default=False)


def runs_opt(help: str) -> Any:
    """``--runs N``; ``help`` states the default (one per kind of work, :mod:`shipcheck.defaults`)."""
    return typer.Option("--runs", "-n", metavar="N", callback=_runs_cb, show_default=False, help=help)


def seed_opt(what: str = "the same seed gives the same numbers") -> Any:
    return typer.Option("--seed", "-s", metavar="SEED", callback=_seed_cb, show_default=False,
                        help=f"Seed, 0 or more; {what}. Random if omitted; the output always says which.")


def opponent_opt(help: str) -> Any:
    return typer.Option("--opponent", "-o", metavar="FILE", help=help, show_default=False)


def rules_opt(help: str = "A TOML file overriding the round's provisional numbers (track, rewards, caps, "
              "card rules); see docs/rounds.md.") -> Any:
    return typer.Option("--rules", metavar="FILE", show_default=False, help=help)


def deck_opt(help: str = "A deck file fixing the cards and their order. Default: a fresh deck every run.") -> Any:
    return typer.Option("--deck", "-d", metavar="FILE", help=help, show_default=False)


__all__ = ["ROUND_CHOICES", "RUNS_COMPARE", "RUNS_FLIGHT", "RUNS_ROUND", "SHORT_FLAGS", "Editions", "Fmt",
           "FormatOpt", "NotesOpt", "QuietOpt", "ShipArg", "deck_opt", "edition_opt", "opponent_opt", "round_opt", "round_value",
           "rules_opt", "runs_opt", "runs_value", "seed_opt", "seed_value"]
