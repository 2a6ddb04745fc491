"""Flight commands: stats, odds, simulate."""

from __future__ import annotations

import functools
import json
from typing import Any

import click

from ..errors import InputError, printable
from ..model import Ship
from ..rules import check
from ..shipfile import load_ship
from ._common import (
    as_options,
    draw,
    echo,
    format_option,
    header,
    pct,
    print_json,
    progress_bar,
    provisional,
    ship_argument,
)

_ATTACK_HELP = ("An attack, repeatable, in order: small-meteor, large-meteor, light-shot or heavy-shot, from "
                "front, rear, left or right.")
_CARD_HELP = ("A card whose meteors or shots to fly through: I-09, III-10, 2021:II-10 (see `shipcheck cards`). "
              "Pirates: all shots taken; combat zone: the shots of its shots line.")
_POLICY_HELP = ("default: a careful player (docs/flight-model.md); optimal: battery decisions that maximise survival, then "
                "minimise losses.")


def attack_options(f: Any, *, rounds: bool = False) -> Any:
    choices = ["default", "optimal", "racing"] if rounds else ["default", "optimal"]
    help_ = _POLICY_HELP + (" With --round: default or racing (engines first, days kept)." if rounds else "")
    f = click.option("--policy", type=click.Choice(choices), default="default", show_default=True, help=help_)(f)
    f = click.option("--card", "-c", metavar="ID", help=_CARD_HELP)(f)
    return click.option("--attack", "-a", "attack", multiple=True, metavar="KIND:FROM", help=_ATTACK_HELP)(f)


def flight_attacks(ship: Ship, attack: tuple[str, ...], card: str | None) -> tuple[list[Any], str]:
    """The attacks named by ``--attack`` or ``--card``, and a line describing them."""
    from ..cards import find_card
    from ..flight import parse_attack

    if bool(attack) == bool(card):
        raise InputError("give --attack KIND:FROM (repeatable) or --card ID, not both and not neither",
                         key="--attack/--card", value=None, expected="one of the two")
    if attack:
        atk = [parse_attack(a, key="--attack") for a in attack]
        return atk, ", ".join(str(a) for a in atk)
    assert card is not None
    try:
        c = find_card(card) if ":" in card else find_card(card, ship.edition)
    except InputError as exc:
        raise as_options(exc, {"card": "--card"}) from None
    atk = list(c.attacks())
    if not atk:
        raise InputError(f"card {c.full_id} ({c.type}) has no meteors or shots", key="--card", value=card,
                         expected="a meteor swarm, pirates or combat zone card")
    return atk, f"card {c.full_id} ({c.type}): " + ", ".join(str(a) for a in atk)


def flight_header(s: Ship, path: str, what: str) -> None:
    echo(header(s, path))
    warn = provisional(s.board)
    if warn:
        echo(warn)
    report = check(s)
    if not report.legal:
        cs = ", ".join(sorted({v.code for v in report.errors}))
        echo(f"note: the ship is not legal ({cs}); the odds are for the ship as built")
    echo(f"attacks: {what}")


def draw_losses(ship: Ship, p_lost: list[tuple[int, Any]]) -> None:
    """The ship with each square's chance of being lost: a whole percentage and a heat colour."""
    from ..render import heat_legend, heat_marks

    tags, styles = heat_marks(p_lost)
    draw(ship, tags, styles)
    echo(heat_legend())


def dist_lines(dist: dict[int, Any], fractions: bool) -> list[str]:
    out = []
    top = max((float(v) for v in dist.values()), default=1.0) or 1.0
    for k, v in dist.items():
        bar = "█" * max(1, round(30 * float(v) / top)) if float(v) > 0 else ""
        frac = f"  ({v})" if fractions else ""
        out.append(f"  lost {k:>2}: {pct(v)} {bar}{frac}")
    return out


@click.command("stats")
@ship_argument
@format_option
def stats_cmd(ship: str, fmt: str) -> None:
    """Ship parameters: crew, engine and cannon power per charge spent, shields, cargo, exposed
    connectors, and where each kind of attack can hit.

    \b
    Example:
      shipcheck stats examples/class-II-freighter.toml
    """
    from ..stats import render_stats
    from ..stats import stats as ship_stats

    s = load_ship(ship)
    st = ship_stats(s)
    if fmt == "json":
        d = st.to_dict()
        d["ship"] = ship
        print_json(d)
        return
    echo(header(s, ship))
    warn = provisional(s.board)
    if warn:
        echo(warn)
    import shutil

    # the title holds the ship's name: cleaned of control characters
    text = render_stats(st, width=shutil.get_terminal_size((100, 24)).columns)
    echo("\n".join(printable(line) for line in text.splitlines()))


@click.command("odds")
@ship_argument
@attack_options
@click.option("--no-cache", is_flag=True,
              help="Compute again instead of reading the on-disk cache of exact results (SHIPCHECK_NO_CACHE=1 "
              "turns the cache off).")
@format_option
def odds_cmd(ship: str, attack: tuple[str, ...], card: str | None, policy: str, no_cache: bool, fmt: str) -> None:
    """Exact odds of a sequence of attacks: survival, components lost, each square's risk.

    Every dice outcome is enumerated (a Markov chain over damage states, in exact fractions). Results
    are cached on disk, so asking the same question again is instant (see docs/flight-model.md).

    \b
    Examples:
      shipcheck odds examples/class-II-freighter.toml --attack large-meteor:front --attack small-meteor:left
      shipcheck odds examples/class-III-hauler.toml --card III-10 --policy optimal
    """
    from fractions import Fraction

    from .. import cache
    from ..odds import POLICY_NOTE
    from ..odds import odds as exact_odds
    from ._common import spinner

    s = load_ship(ship)
    atk, what = flight_attacks(s, attack, card)
    key = cache.odds_key(s, atk, policy)
    d = None if no_cache else cache.load(key)
    if d is None:
        with spinner(f"computing exact odds ({policy} policy)"):
            d = exact_odds(s, atk, policy=policy).to_dict()
        cache.store(key, d)
    if fmt == "json":
        print_json({"ship": ship, **d})
        return
    frac = d["fractions"]
    p_survive, expected = Fraction(frac["p_survive"]), Fraction(frac["expected_lost"])
    lost = {int(k): Fraction(v) for k, v in frac["lost_distribution"].items()}
    where = {json.dumps(s.board.cell_name(i)): i for i in range(s.board.size)}
    p_lost = [(where[json.dumps(t["at"])], t["p_lost"]) for t in d["tiles"]]
    flight_header(s, ship, what)
    echo(f"policy: {POLICY_NOTE if d['policy'] == 'default' else 'optimal (dynamic programming over damage states)'}")
    draw_losses(s, p_lost)
    echo(f"survive:        {pct(p_survive)}  ({p_survive})")
    echo(f"expected lost:  {float(expected):.4f}  ({expected})")
    for line in dist_lines(lost, True):
        echo(line)
    baseline, differences = d.get("default_policy"), d.get("differences", [])
    if baseline is not None:
        echo(f"default policy: survive {baseline['p_survive'] * 100:.2f} %, "
             f"expected lost {baseline['expected_lost']:.4f}")
        if not differences:
            echo("the optimal decisions are the default's everywhere they matter")
        for diff in differences[:10]:
            echo(f"  attack {diff['attack']} ({diff['attack_kind']}), {diff['roll']} "
                 f"[p={diff['probability']:.4f}]: default {diff['default']} -> optimal {diff['optimal']}")
        if len(differences) > 10:
            echo(f"  ... {len(differences) - 10} more (see --format json)")


@click.command("simulate")
@ship_argument
@functools.partial(attack_options, rounds=True)
@click.option("--runs", "-n", type=click.IntRange(min=1), default=100_000, show_default=True, metavar="N",
              help="Number of flights to sample.")
@click.option("--seed", "-s", type=click.IntRange(min=0), metavar="SEED",
              help="Seed; the same seed gives the same numbers on any number of workers. Random if omitted.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
              help="Local worker processes.")
@click.option("--dask", is_flag=True, help="Run on Dask (pip install 'shipcheck[dask]'): on --scheduler if "
              "given, else on a local cluster of --workers processes.")
@click.option("--scheduler", metavar="ADDRESS",
              help="A Dask scheduler address (implies --dask); 'local' starts a local cluster.")
@click.option("--precision", type=float, metavar="WIDTH",
              help="Run until the 95 % interval of p_survive is this narrow (ignores --runs).")
@click.option("--batch", type=click.IntRange(min=1), metavar="RUNS",
              help="Runs per chunk (bounds memory; part of what the seed means). Default 65536; rounds 4096.")
@click.option("--round", "-r", "round_", metavar="N",
              help="Fly whole rounds instead: 1, 2, 3, 3a or learning (deck, start, rewards of that round).")
@click.option("--opponent", "-o", "opponents", multiple=True, metavar="FILE",
              help="With --round: an opponent's ship file, repeatable (up to 4), in launch order after SHIP. "
                   "Default: the class's field shipped with the tool.")
@click.option("--deck", metavar="FILE", help="With --round: a deck file fixing the cards and their order.")
@click.option("--edition", "-e", type=click.Choice(["2007", "2021"]),
              help="With --round: the card edition (default: the ship's).")
@click.option("--rules", "rules_file", metavar="FILE",
              help="With --round: a TOML file overriding the round's provisional numbers (track, rewards, caps).")
@click.option("--opponent-policy", default="default", show_default=True, metavar="NAME",
              help="With --round: how the opponents play (default or racing).")
@click.option("--five-player", is_flag=True,
              help="With --round: five-player rules with four players (the '4 = 5' variant).")
@format_option
def simulate_cmd(ship: str, attack: tuple[str, ...], card: str | None, policy: str, runs: int, seed: int | None,
                 workers: int, dask: bool, scheduler: str | None, precision: float | None, batch: int | None,
                 round_: str | None, opponents: tuple[str, ...], deck: str | None, edition: str | None,
                 rules_file: str | None, opponent_policy: str, five_player: bool, fmt: str) -> None:
    """Monte Carlo odds over the same model as `odds`, with 95 % intervals; or whole rounds.

    With --round, SHIP and its opponents race through adventure decks (every card type, the track,
    giving up) and every run ends in credits: a histogram, survival, losses by card type, one line
    per opponent. --policy is then default (contract §5) or racing.

    \b
    Examples:
      shipcheck simulate examples/class-III-hauler.toml --card III-10 --runs 200000 --seed 7
      shipcheck simulate examples/blue-round1.toml --attack large-meteor:front --precision 0.001 --workers 2
      shipcheck simulate examples/blue-round1.toml --card I-09 --dask --workers 2 --seed 1
      shipcheck simulate examples/class-I-scout.toml --round 1 --runs 2000 --seed 1
    """
    from ..montecarlo import simulate as mc

    if dask and scheduler is None:
        scheduler = "local"
    round_only = {"--opponent": bool(opponents), "--deck": deck is not None, "--edition": edition is not None,
                  "--rules": rules_file is not None, "--five-player": five_player,
                  "--opponent-policy": opponent_policy != "default"}
    if round_ is not None:
        if attack or card or precision is not None:
            raise InputError("--round flies whole decks: it takes no --attack, --card or --precision "
                             "(a deck file is how to fly given cards)", key="--round", value=round_,
                             expected="--round without --attack, --card, --precision")
        from .round import run as run_round

        run_round(ship, round_=round_, opponents=opponents, deck=deck, rules=rules_file, edition=edition,
                  policy=policy, opponent_policy=opponent_policy, five_player=five_player, runs=runs, seed=seed,
                  workers=workers, scheduler=scheduler, batch=batch or 4096, fmt=fmt)
        return
    used = [k for k, v in round_only.items() if v]
    if used:
        raise InputError(f"{', '.join(used)} only go with --round", key=used[0], expected="--round N as well")
    if policy not in ("default", "optimal"):
        raise InputError(f"{policy} is a round policy", key="--policy", value=policy,
                         expected="default or optimal (racing goes with --round)")
    batch = batch or 65_536
    s = load_ship(ship)
    atk, what = flight_attacks(s, attack, card)
    if precision is not None and not 0 < precision < 1:
        raise InputError("bad precision", key="--precision", value=precision, expected="a width between 0 and 1")
    try:
        with progress_bar() as bar:
            r = mc(s, atk, runs=runs, seed=seed, workers=workers, scheduler=scheduler, precision=precision,
                   batch=batch, policy=policy, progress=bar)
    except ImportError as exc:
        raise InputError(str(exc), key="--scheduler", value=scheduler, expected="the dask extra installed") from None
    except InputError as exc:
        raise as_options(exc, {k: f"--{k}" for k in ("runs", "seed", "workers", "scheduler", "precision", "batch")}
                         | {"max_runs": "--runs"}) from None
    if fmt == "json":
        print_json({"ship": ship, **r.to_dict()})
        return
    flight_header(s, ship, what)
    echo(f"{r.runs} runs, seed {r.seed} (repeat with --seed {r.seed}{f' --batch {batch}' if batch != 65_536 else ''})")
    draw_losses(s, [(t.at, p) for t, p in zip(s.tiles, r.p_lost)])
    echo("(estimated from the runs)")
    lo, hi = r.p_survive_ci
    echo(f"survive:        {pct(r.p_survive)}  95 % CI [{lo * 100:.2f} %, {hi * 100:.2f} %]")
    lo, hi = r.expected_lost_ci
    echo(f"expected lost:  {r.expected_lost:.4f}  95 % CI [{lo:.4f}, {hi:.4f}]")
    for line in dist_lines(r.lost_distribution, False):
        echo(line)
