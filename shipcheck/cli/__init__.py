"""The `shipcheck` command line: a thin Typer layer over the library.

Commands live in the modules of this package and are imported only when they run (a lazy Typer
group), so ``shipcheck check`` pays for Typer and what `check` uses, nothing else. Every command
parses its arguments, calls the library and prints text for people or the contract's JSON for
scripts; rich is imported only to draw help, errors and tables.

Exit codes: 0 done (for `check`: legal), 1 `check` found an error-severity violation (or `fix` found
no legal result), 2 bad input or usage. Bad input never shows a traceback: :func:`main` turns
:class:`~shipcheck.errors.InputError` and usage errors into one line on stderr.

To add a command: write a function in a module here, decorated with ``@command("name")`` from
``_common``, and add its name to :data:`COMMANDS` as ``"name": "module:function"``. Short flags
follow :data:`shipcheck.cli._options.SHORT_FLAGS`.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from shipcheck.cli._common import EXIT_OK, EXIT_USAGE, EXIT_VIOLATIONS, error_lines, report_input_error, version
from shipcheck.errors import InputError

__all__ = ["COMMANDS", "EXIT_OK", "EXIT_USAGE", "EXIT_VIOLATIONS", "app", "build", "cli", "main"]

#: command name -> "module:function" in this package, in the order `--help` lists them
COMMANDS: dict[str, str] = {
    "show": "checker:show",
    "check": "checker:check_cmd",
    "fix": "checker:fix_cmd",
    "place": "place:place_cmd",
    "design": "designing:design_cmd",
    "rules": "checker:rules_cmd",
    "stats": "fly:stats_cmd",
    "odds": "fly:odds_cmd",
    "simulate": "fly:simulate_cmd",
    "report": "reporting:report_cmd",
    "tiles": "catalog:tiles_cmd",
    "boards": "catalog:boards_cmd",
    "cards": "catalog:cards_cmd",
    "new": "authoring:new_cmd",
    "schema": "authoring:schema_cmd",
    "serve": "serving:serve_cmd",
    "compile": "setup:compile_cmd",
}


class _Interrupted(Exception):
    """A Ctrl-C inside a command (Typer would turn it into a silent exit 130)."""


class _PipeClosed(Exception):
    """The reader of stdout went away (``shipcheck tiles | head``)."""


def build(name: str) -> Any:
    """The click command Typer builds for ``name`` (imports its module)."""
    module, _, attr = COMMANDS[name].partition(":")
    fn = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    return typer.main.get_command(fn.typer_app)


class LazyGroup(TyperGroup):
    """A group whose commands are imported and built on first use."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, name: str) -> Any:
        return build(name) if name in COMMANDS else None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted from None
        except BrokenPipeError:
            raise _PipeClosed from None


app = typer.Typer(cls=LazyGroup, no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, context_settings={"help_option_names": ["-h", "--help"]})


def _version(value: bool) -> None:
    if value:
        typer.echo(f"shipcheck {version()}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    ctx: typer.Context,
    version_: Annotated[bool, typer.Option("--version", "-V", is_eager=True, callback=_version,
                                           help="Print the version and exit.")] = False,
) -> None:
    """Check Galaxy Trucker ships against every construction rule, fix them, and compute flight odds.

    Exit codes: 0 done (legal ship), 1 a rule error found, 2 bad input or usage. Short flags mean
    the same option in every command (docs/cli.md).

    \b
    Example:
      shipcheck check examples/blue-round1.toml
    """
    from shipcheck import runtime
    from shipcheck.cli._common import compile_progress

    runtime.state.progress = compile_progress  # the engine's first compile shows a bar


cli = typer.main.get_command(app)


def _usage_line(exc: Any) -> str:
    ctx = getattr(exc, "ctx", None)
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    message = " ".join(exc.format_message().split())
    return f"{message}{hint}"


def _lean_start() -> None:
    """One OpenBLAS thread (``OPENBLAS_NUM_THREADS=1``, kept where the user set it), before numpy is
    imported: each extra thread spins for about 0.1 s of CPU as it starts, and the command line
    multiplies no large matrices."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> NoReturn:
    """Console entry point: run the CLI, turning bad input into exit 2 without a traceback."""
    _lean_start()
    try:
        rv: Any = cli.main(args=argv, prog_name="shipcheck", standalone_mode=False)
    except InputError as exc:
        from shipcheck.validate import as_option

        report_input_error(as_option(exc))  # a library argument's name becomes the option's
        sys.exit(EXIT_USAGE)
    except typer.TyperException as exc:  # click's usage errors, as Typer carries them
        if type(exc).__name__ == "NoArgsIsHelpError":
            ctx = getattr(exc, "ctx", None)
            sys.stdout.write(ctx.get_help() + "\n" if ctx is not None else "")
        else:
            error_lines([_usage_line(exc) if getattr(exc, "ctx", None) is not None or exc.exit_code == 2
                         else " ".join(exc.format_message().split())])
        sys.exit(EXIT_USAGE)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, _Interrupted, KeyboardInterrupt):
        sys.stderr.write("shipcheck: interrupted\n")
        sys.exit(130)
    except (_PipeClosed, BrokenPipeError):
        sys.exit(EXIT_OK)
    sys.exit(rv if isinstance(rv, int) else EXIT_OK)
