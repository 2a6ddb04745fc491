"""``design``: build the ship that earns most in a round (contract §7), as text or JSON."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from shipcheck.cli._common import EXIT_OK, as_options, command, draw, echo, exit_with, print_json
from shipcheck.cli._options import FormatOpt, QuietOpt, opponent_opt, round_opt, rules_opt, seed_opt
from shipcheck.errors import InputError, printable

EXIT_INTERRUPTED = 130


def _bar(width: int, value: float, top: float) -> str:
    return "█" * max(0, round(width * value / top)) if top > 0 else ""


def history_lines(history: Any, width: int = 40) -> list[str]:
    """The convergence as text: the best mean so far at each point where it rose."""
    out: list[str] = []
    last = None
    top = max((m for _, m in history), default=0.0)
    for e, m in history:
        if m != last:
            out.append(f"  {e:>6} {m:7.2f} {_bar(width, m, top)}")
            last = m
    return out


class _Ticker:
    """Progress on a terminal (stderr): candidates flown, the best mean so far, time left."""

    def __init__(self) -> None:
        self.on = sys.stderr.isatty()
        self.shown = False

    def __call__(self, p: Any) -> None:
        if not self.on:
            return
        best = "-" if p.best is None else f"{p.best:.2f}"
        rate = p.elapsed / p.evaluations if p.evaluations else 0.0
        left = rate * (p.budget - p.evaluations)
        if p.time_limit is not None:
            left = min(left, max(0.0, p.time_limit - p.elapsed))
        sys.stderr.write(f"\rdesign: {p.evaluations}/{p.budget} candidates flown, best mean {best}, "
                         f"about {left:.0f} s left \x1b[K")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


@command("design")
def design_cmd(
    cls: Annotated[str | None, typer.Option("--class", metavar="C", show_default=False,
                                            help="The ship class (board) to design for: I, II, III, ...")] = None,
    edition: Annotated[str | None, typer.Option("--edition", "-e", show_default=False,
                                                help="The tile catalogue: 2007 (default) or 2021.")] = None,
    pile: Annotated[str | None, typer.Option("--pile", metavar="FILE", show_default=False,
                                             help="A pile file: its [[tile]] entries (id, or kind and sides; no at) "
                                                  "are the only tiles the design may use.")] = None,
    start: Annotated[str | None, typer.Option("--from", metavar="SHIP", show_default=False,
                                              help="A legal half-built ship: its tiles stay where they are.")] = None,
    rnd: Annotated[str | None, round_opt()] = None,
    opponents: Annotated[list[str] | None, opponent_opt("An opponent ship (repeatable). Default: the class's "
                                                         "field.")] = None,
    seed: Annotated[int | None, seed_opt("the same seed and budget give the same ship")] = None,
    budget: Annotated[int | None, typer.Option("--budget", metavar="N", min=1, show_default=False,
                                               help="Candidate ships flown.  [default: 2,400]")] = None,
    seconds: Annotated[float | None, typer.Option("--time", metavar="SECONDS", min=0.001, show_default=False,
                                                  help="Stop early after this long (not reproducible).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", metavar="N", min=1, show_default=False,
                                                help="Worker processes (default 1).")] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", metavar="ADDRESS", show_default=False,
                                                  help="A Dask scheduler's address ('local': a local cluster): fly the candidates there.")] = None,
    out: Annotated[Path | None, typer.Option("--out", metavar="FILE", show_default=False,
                                             help="Write the designed ship here.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    plot: Annotated[bool, typer.Option("--plot", help="Draw the search's convergence (text output).")] = False,
    rules_file: Annotated[str | None, rules_opt()] = None,
    quiet: QuietOpt = False,
    fmt: FormatOpt = "text",
) -> None:
    """Design a complete legal ship that earns as much as it can in the round against the field.

    Candidates are compared on the same decks and dice; the same --seed and --budget give the same
    ship on any --workers count or Dask cluster. Ctrl-C keeps the best ship so far, writes it to
    --out and exits 130. See docs/design.md for how it searches.

    \b
    Examples:
      shipcheck design --class II --seed 7 --out designed.toml
      shipcheck design --from my-half-ship.toml --budget 300 --format json
    """
    from shipcheck.design import BUDGET, design
    from shipcheck.shipfile import board_from, dump_ship, save_text

    if workers is not None and scheduler is not None:
        raise InputError("give --workers or --scheduler, not both", key="--scheduler", value=scheduler,
                         expected="one of the two")
    if out is not None and str(out) == "-":
        raise InputError("--out names a file (`-` is not standard output here: the text output draws the ship)",
                         key="--out", value="-", expected="a file name, e.g. designed.toml")
    if out is not None and os.path.lexists(out) and not force:
        raise InputError("output file exists (use --force to overwrite it)", file=printable(str(out)),
                         key="--out", expected="a new file name")
    if out is not None and (os.path.isdir(out) or not os.path.isdir(out.parent or ".")):
        # said now, not after the whole search has flown
        raise InputError(f"cannot write there ({'a folder' if os.path.isdir(out) else 'no such folder'})",
                         file=printable(str(out)), key="--out", expected="a file name in an existing folder")
    ticker = _Ticker()
    t0 = time.monotonic()
    try:
        r = design(cls, start=start, edition=edition, pile=pile, round=rnd, opponents=opponents or None,
                   budget=budget or BUDGET, time_limit=seconds, seed=seed, workers=workers, scheduler=scheduler,
                   rules=rules_file, progress=ticker)
    except ImportError as exc:
        raise InputError(str(exc), key="--scheduler", value=scheduler, expected="the dask extra installed") from None
    except InputError as exc:  # the library's argument names, as the options that gave them
        raise as_options(exc, {"time_limit": "--time", "budget": "--budget", "workers": "--workers", "seed": "--seed",
                               "start": "--from", "pile": "--pile", "cls": "--class", "edition": "--edition",
                               "opponents": "--opponent", "round": "--round", "rules": "--rules"}) from None
    finally:
        ticker.close()
    ship = r.ship if out is None else board_from(r.ship, out.parent)  # (its board file named from there)
    text = dump_ship(ship, comment=f"designed by `shipcheck design --class {r.cls} --seed {r.seed} "
                                     f"--budget {r.budget}`: {r.credits:.2f} credits a round")
    if out is not None:
        save_text(out, text, overwrite=force)
    if fmt == "json":
        print_json({**r.to_dict(), "ship": str(out) if out else None,
                    "seconds": round(time.monotonic() - t0, 1)})
    else:
        _text(r, out, plot, quiet)
    exit_with(EXIT_INTERRUPTED if r.stopped == "interrupted" else EXIT_OK)


def _text(r: Any, out: Path | None, plot: bool, quiet: bool) -> None:
    echo(f"designed class {r.cls} ship, round {r.round}, tiles from {r.tiles_from}: {len(r.ship.tiles)} tiles")
    draw(r.ship)
    stop = {"time": " (stopped by --time: not reproducible)",
            "interrupted": " (interrupted: the best ship so far)"}.get(r.stopped or "", "")
    echo(f"search: {r.evaluations} of {r.budget} candidates flown, seed {r.seed}{stop}")
    if r.stopped == "interrupted":
        echo(f"credits: about {r.credits:.2f} (the search's estimate)")
    else:
        lo, hi = r.credits_ci
        echo(f"credits: mean {r.credits:.2f}  95 % CI [{lo:.2f}, {hi:.2f}]  ("
             + ", ".join(f"{k.replace('_', ' ')} {v:+.2f}" for k, v in r.by_source.items()) + ")")
        echo("beside the field: " + ", ".join(f"{n} {c:.2f}" for n, c in r.field))
    lines = history_lines(r.history, width=40 if plot else 0)
    if lines:
        echo("best mean so far (candidates flown, credits):")
        for line in lines if plot else lines[-3:]:
            echo(line.rstrip())
    if out is not None:
        echo(f"wrote {printable(str(out))}")
    else:
        from shipcheck.shipfile import dump_ship

        echo(dump_ship(r.ship).rstrip())
    if not quiet:
        for n in r.notes:
            echo(f"note: {n}")
