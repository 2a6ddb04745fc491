"""``shipcheck compile``: compile the flight engine ahead of its first use (CI, container images)."""

from __future__ import annotations

import time

import typer

from shipcheck.cli._common import command


def compile_round() -> bool:
    """Compile (or load) the round engine."""
    from shipcheck import engine

    return engine.ready()


def compile_exact() -> dict[str, bool]:
    """Compile (or load) the exact engines, each with a small real question."""
    from shipcheck import runtime
    from shipcheck.cards import find_card
    from shipcheck.check.starter import starter_ship
    from shipcheck.flight.odds import prefer_compiled
    from shipcheck.round import cardodds as exact
    from shipcheck.shipfile import parse_ship

    ship = parse_ship(starter_ship("II"))
    done = {"exact": prefer_compiled(ship)}  # every function the exact passes and the policies call
    was, runtime.state.force = runtime.state.force, "compiled"
    try:
        exact.card_odds(ship, [find_card("II-09")])  # a meteor swarm: the joint engine
    finally:
        runtime.state.force = was
    done["joint"] = runtime.loaded("joint")
    return done


def _engines() -> dict[str, bool]:
    return {"round": compile_round(), **compile_exact()}


@command("compile")
def compile_cmd() -> None:
    """Compile the flight engine now, once, into the cache (otherwise it compiles on first use).

    For CI jobs and container images: later rounds and exact odds load it in about a second.
    Where numba is missing or SHIPCHECK_JIT=0, says so: the engine then runs as plain Python.

    \b
    Example:
      shipcheck compile
    """
    from shipcheck import runtime

    if not runtime.compiled():
        typer.echo(f"the engine runs as plain Python (nothing to compile): {runtime.reason()}")
        return
    t0 = time.monotonic()
    done = _engines()
    where = runtime.state.cache or "memory only (no writable cache folder)"
    typer.echo(f"compiled: {', '.join(k for k, v in done.items() if v)} in {time.monotonic() - t0:.1f} s")
    typer.echo(f"cache: {where}")  # (a path: on a line of its own)
    for note in runtime.notes():
        typer.echo(f"note: {note}", err=True)
