"""The building-phase command: place."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from shipcheck.cli._common import command, draw, echo, header, notes, print_json, provisional, read_ship, table
from shipcheck.cli._options import (
    RUNS_COMPARE,
    FormatOpt,
    NotesOpt,
    QuietOpt,
    ShipArg,
    round_opt,
    rules_opt,
    runs_opt,
    seed_opt,
)
from shipcheck.defaults import MAX_ROLLOUTS
from shipcheck.errors import InputError

_TILE_HELP = ('The tile in hand: a catalogue id ("2007:5", see `shipcheck tiles`) or KIND:SIDES with sides '
              "N E S W as printed, and the kind's attributes after another colon: cannon:0111, "
              "battery:1113:cells=3, cargo:1010:slots=2, life_support:0300:color=purple, "
              "mixed_cargo:1111:slots=3,special_slots=1.")


def _fmt(x: Any, signed: bool = True) -> str:
    if x is None:
        return "-"
    v = float(x)
    if v == int(v):
        return f"{int(v):+d}" if signed else str(int(v))
    return f"{v:+.3f}" if signed else f"{v:.3f}"


@command("place")
def place_cmd(
    ship: ShipArg,
    tile: Annotated[str, typer.Argument(metavar="TILE", show_default=False)],
    rnd: Annotated[str | None, round_opt("The round whose cards weigh the exact loss and fly the credits: 1, 2, 3, "
                                         "3a or learning. Default: the level of the ship's board.")] = None,
    top: Annotated[int | None, typer.Option("--top", "-k", min=1, metavar="K", show_default=False,
                                            help="List only the best K placements.")] = None,
    weigh: Annotated[str | None, typer.Option(
        "--weigh", metavar="NAME=X,...", show_default=False,
        help="Weights of the score: weld, exposed, blocked, loss, survive, engine, firepower, crew, cargo, battery "
             "(defaults weld=1,exposed=0.5,blocked=0.5,loss=1,survive=20,engine=0.5,firepower=0.5,crew=0.5,"
             "cargo=0.5,battery=0.25), and of the look-ahead in the rank, outlook=1 (0: rank without "
             "looking ahead).")] = None,
    show_n: Annotated[int | None, typer.Option("--show", min=1, metavar="N", show_default=False,
                                               help="Draw the ship with the N-th placement welded.")] = None,
    exact: Annotated[bool, typer.Option(
        "--exact/--no-exact",
        help="Work out the exact loss and survival over the round's attack cards (the slow part).")] = True,
    credits: Annotated[bool, typer.Option(
        "--credits/--no-credits",
        help="Fly every placement through whole rounds (the same decks and dice for every placement) and rank by "
             "the change in expected credits; --no-credits ranks by the score alone, without flying a round.")]
    = True,
    runs: Annotated[int | None, runs_opt(f"Rounds flown per placement (with --credits).  [default: {RUNS_COMPARE:,}]")] = None,
    seed: Annotated[int | None, seed_opt("the same seed gives the same ranking")] = None,
    rollouts: Annotated[int, typer.Option(
        "--rollouts", min=0, max=MAX_ROLLOUTS, metavar="N",
        help="Also play the next 24 draws out in N seeded rollouts and weigh the tiles they weld (20 each) in "
             "the rank (32 is a good number; 0: not).")] = 0,
    rules_file: Annotated[str | None, rules_opt("A TOML file overriding the round's provisional numbers (track, "
                                                "rewards, caps, deck, card rules) for the rounds flown and the "
                                                "deck weighing the exact loss; see docs/rounds.md.")] = None,
    all_notes: NotesOpt = False,
    quiet: QuietOpt = False,
    fmt: FormatOpt = "text",
) -> None:
    """Rank every square and rotation where TILE can be welded onto SHIP.

    SHIP may be half built and need not be legal yet; a placement is listed when it adds no rule
    break (on the board, joined by a legal connector, no C1 C2 C3 E1 E2 K1, blocking no barrel or
    exhaust). Each placement shows the change in exposed connectors, in exact expected loss and
    survival over the round's meteor swarms and shots, in engine power, firepower, crew, cargo and
    battery cells, the attacks it shields or exposes, a score (weights: --weigh), and the change in
    expected credits over whole rounds (the same decks and dice for every placement), which ranks
    them; --no-credits ranks by the score alone. The board drawing marks each candidate square with
    its best rank.

    \b
    Examples:
      shipcheck place examples/building/class-I-start.toml cannon:0111
      shipcheck place examples/building/class-I-start.toml 2007:5 --top 3 --format json
      shipcheck place examples/building/class-III-half.toml shield:1111 --no-credits --weigh loss=3 --show 1
    """
    from shipcheck.advice import advise

    s = read_ship(ship)
    from shipcheck.cli._common import spinner

    with spinner("weighing every square and rotation"):
        a = advise(s, tile, round=rnd, top=top, weigh=weigh, exact=exact, credits=credits, runs=runs or RUNS_COMPARE, seed=seed,
                   rules=rules_file, rollouts=rollouts)
    if show_n is not None and show_n > len(a.placements):
        raise InputError("no such placement", key="--show", value=show_n,
                         expected=f"1 to {len(a.placements)}" if a.placements else "no --show: nothing can be placed")
    if fmt == "json":
        print_json(a.to_dict())
        return
    echo(header(s, ship))
    warn = provisional(s.board)
    if warn:
        echo(warn)
    if show_n is not None:
        p = a.placements[show_n - 1]
        echo(f"placement {show_n}: {a.to_dict()['tile']} at {p.square}, rot {p.rot}")
        draw(p.ship, {int(p.index): str(show_n)})
    else:
        draw(s, a.marks())
    echo(f"tile {a.to_dict()['tile']}; round {a.round} attack cards"
         + ("" if exact else " (exact loss not worked out: --no-exact)")
         + (f"; credits from {a.runs:,} rounds a placement, seed {a.seed}" if a.seed is not None else ""))
    if a.placements:
        cred_head = ["credits", "95% interval"] if credits else []
        head = ["rank", "square", "rot", "value", *cred_head, "score", "room", "exposed", "blocked", "loss", "survive", "engine",
                "fire", "crew", "cargo", "cells", "shields / exposes"]
        rows = []
        for p in a.placements:
            pr = p.params
            # "shields / exposes": a side with nothing reads "-", never a slash left hanging
            cover = (f"{', '.join(p.shields) or '-'} / {', '.join(p.exposes) or '-'}"
                     if p.shields or p.exposes else "")
            cred = [f"{p.credits:+.2f}", f"{p.credits_ci[0]:+.2f}..{p.credits_ci[1]:+.2f}"] \
                if p.credits is not None and p.credits_ci is not None else ["-", "-"] if credits else []
            room = "-" if p.growth is None else str(p.growth.room) + (" closed" if p.growth.closed else "")
            rows.append([str(p.rank), p.square, str(p.rot), f"{p.value:.1f}", *cred, f"{p.score:+.2f}", room, _fmt(p.exposed),
                         str(p.blocked),
                         _fmt(p.loss), _fmt(p.survive), _fmt(pr["engine"]), _fmt(pr["firepower"]), _fmt(pr["crew"]),
                         _fmt(pr["cargo"]), _fmt(pr["battery"]), cover + (" (alien may board)" if p.alien else "")])
        # on a narrow terminal the lesser columns go first (--format json has them all)
        order = ["cells", "cargo", "crew", "fire", "engine", "blocked", "survive", "score", "95% interval", "exposed",
                 "room"]
        table(head, rows, drop=tuple(head.index(c) for c in order if c in head), text=len(head) - 1, left=(1,))
    echo("ranked by: " + a.ranking)
    echo("advice: " + a.reason)
    notes(a.notes, listed=all_notes, quiet=quiet)  # after the answer, as simulate --round and report print them
