"""The `shipcheck` command line: a thin click layer over the library.

Commands live in the modules of this package and are imported only when they run (a lazy click
group), so ``shipcheck check`` pays for what `check` uses and nothing else. Every command parses its
arguments, calls the library and prints text for people or the JSON of the contract for scripts.

Exit codes: 0 done (for `check`: legal), 1 `check` found an error-severity violation (or `fix` found
no legal result), 2 bad input or usage. Bad input never shows a traceback: :func:`main` turns
:class:`~shipcheck.errors.InputError` and click's usage errors into one line on stderr.

To add a command: write it in a module here (a ``click.command``), and add its name to
:data:`COMMANDS` as ``"name": "module:attribute"``.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

from ..errors import InputError
from ._common import EXIT_OK, EXIT_USAGE, EXIT_VIOLATIONS, report_input_error, version

__all__ = ["COMMANDS", "EXIT_OK", "EXIT_USAGE", "EXIT_VIOLATIONS", "cli", "main"]

#: command name -> "module:attribute" in this package, in the order `--help` lists them
COMMANDS: dict[str, str] = {
    "show": "check:show",
    "check": "check:check_cmd",
    "fix": "check:fix_cmd",
    "place": "place:place_cmd",
    "rules": "check:rules_cmd",
    "stats": "flight:stats_cmd",
    "odds": "flight:odds_cmd",
    "simulate": "flight:simulate_cmd",
    "report": "report:report_cmd",
    "tiles": "catalog:tiles_cmd",
    "boards": "catalog:boards_cmd",
    "cards": "catalog:cards_cmd",
    "new": "authoring:new_cmd",
    "schema": "authoring:schema_cmd",
    "serve": "serve:serve_cmd",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        cmd = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
        assert isinstance(cmd, click.Command)
        return cmd


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"shipcheck {version()}")
        ctx.exit(EXIT_OK)


@click.group(cls=LazyGroup, no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", "-V", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help="Print the version and exit.")
def cli() -> None:
    """Check Galaxy Trucker ships against every construction rule, fix them, and compute flight odds.

    Exit codes: 0 done (legal ship), 1 a rule error found, 2 bad input or usage.

    \b
    Example:
      shipcheck check examples/blue-round1.toml
    """


app = cli  # the name earlier versions used


def main(argv: list[str] | None = None) -> NoReturn:
    """Console entry point: run the CLI, turning bad input into exit 2 without a traceback."""
    try:
        rv: Any = cli.main(args=argv, prog_name="shipcheck", standalone_mode=False)
    except InputError as exc:
        report_input_error(exc)
        sys.exit(EXIT_USAGE)
    except click.exceptions.NoArgsIsHelpError as exc:
        sys.stdout.write(exc.ctx.get_help() + "\n" if exc.ctx is not None else "")
        sys.exit(EXIT_USAGE)
    except click.UsageError as exc:
        ctx = exc.ctx
        hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        message = " ".join(exc.format_message().split())
        sys.stderr.write(f"shipcheck: error: {message}{hint}\n")
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        sys.stderr.write(f"shipcheck: error: {' '.join(exc.format_message().split())}\n")
        sys.exit(EXIT_USAGE)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        sys.stderr.write("shipcheck: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(EXIT_OK)
    sys.exit(rv if isinstance(rv, int) else EXIT_OK)
