"""Flight commands: stats, odds, simulate."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from shipcheck.check.rules import check
from shipcheck.cli._common import (
    as_options,
    command,
    draw,
    echo,
    header,
    notes,
    pct,
    print_json,
    progress_bar,
    provisional,
    read_ship,
    width,
)
from shipcheck.cli._options import (
    RUNS_FLIGHT,
    RUNS_ROUND,
    Editions,
    FormatOpt,
    NotesOpt,
    QuietOpt,
    ShipArg,
    deck_opt,
    edition_opt,
    opponent_opt,
    round_opt,
    rules_opt,
    runs_opt,
    seed_opt,
)
from shipcheck.errors import InputError, printable
from shipcheck.model import Ship
from shipcheck.shipfile import load_ship

if TYPE_CHECKING:
    from shipcheck.flight.montecarlo import SimulationResult

_ATTACK_HELP = ("An attack, repeatable, in order: small-meteor, large-meteor, light-shot or heavy-shot, from "
                "front, rear, left or right.")
_CARD_HELP = ("A card to fly through, repeatable (the cards one after another): I-09, III-10, 2021:II-10 (see "
              "`shipcheck cards`). Meteor swarms, and pirates, smugglers, slavers and combat zones played for "
              "real: the fight is decided by the ship's firepower (win, tie: nothing, lose: the penalty); a "
              "combat zone's lines hit the weakest ship (give --opponent, or --assume-weakest).")
_POLICY_HELP = ("default: a careful player (docs/flight-model.md); optimal: battery decisions that maximise survival, then "
                "minimise losses.")


AttackOpt = Annotated[list[str] | None, typer.Option("--attack", "-a", metavar="KIND:FROM", show_default=False,
                                                    help=_ATTACK_HELP)]
CardOpt = Annotated[list[str] | None, typer.Option("--card", "-c", metavar="ID", show_default=False, help=_CARD_HELP)]
WeakestOpt = Annotated[bool, typer.Option(
    "--assume-weakest", help="With --card and no --opponent: take the ship to be the weakest on every combat-zone "
                             "line (alone, a ship ignores combat zones).")]


def flight_cards(ship: Ship, card: list[str] | tuple[str, ...]) -> list[Any]:
    """The cards named by ``--card``, in order."""
    from shipcheck.cards import find_card

    out = []
    for cid in card:
        try:
            out.append(find_card(cid) if ":" in cid else find_card(cid, ship.edition))
        except InputError as exc:
            raise as_options(exc, {"card": "--card"}) from None
    return out


def one_source(attack: list[str], card: list[str], *, rounds: bool = False) -> None:
    """``--attack`` or ``--card``, not both, not neither (``rounds``: or ``--round``, checked by the
    caller): a usage error said before anything slow is imported."""
    if bool(attack) == bool(card):
        what = "--attack KIND:FROM or --card ID (each repeatable)" + (", not both" if attack else "") + (
            ", or --round N for whole rounds" if rounds and not attack else "")
        raise InputError(f"give {what}", key="--attack/--card" + ("/--round" if rounds else ""), value=None,
                         expected="one of them")


def flight_attacks(ship: Ship, attack: list[str], card: list[str], opponents: list[str] = [],  # noqa: B006
                   assume_weakest: bool = False, *, rounds: bool = False) -> tuple[list[Any], str, list[Any]]:
    """The attacks named by ``--attack`` or by ``--card`` meteor swarms, a line describing them, and
    the cards when one of them has decisions (enemies, combat zones: flown by the round model, the
    only use of ``--opponent`` and ``--assume-weakest`` besides ``--round``)."""
    from shipcheck.flight.chain import parse_attack

    one_source(attack, card, rounds=rounds)
    if attack:
        _no_fight(opponents, assume_weakest, rounds)
        atk = [parse_attack(a, key="--attack") for a in attack]
        return atk, ", ".join(str(a) for a in atk), []
    from shipcheck.round.cardodds import CARD_TYPES  # (the round's layer: not for --attack alone)

    cards = flight_cards(ship, card)
    for c in cards:
        if c.type not in CARD_TYPES:
            raise InputError(f"card {c.full_id} ({c.type}) has no meteors, shots or fight", key="--card", value=c.id,
                             expected="meteor swarms, pirates, smugglers, slavers or combat zones (fly other cards "
                                      "with `simulate --round N --deck FILE`)")
    what = "; ".join(f"card {c.full_id} ({c.type.replace('_', ' ')})" + (
        ": " + ", ".join(str(a) for a in c.meteors) if c.type == "meteor_swarm" else "") for c in cards)
    if all(c.type == "meteor_swarm" for c in cards):
        _no_fight(opponents, assume_weakest, rounds)
        return [a for c in cards for a in c.meteors], what, []
    return [], what, cards


def _no_fight(opponents: list[str], assume_weakest: bool, rounds: bool) -> None:
    """Refuse --opponent and --assume-weakest where no card has a fight or a combat zone."""
    if opponents or assume_weakest:
        uses = "--round, or --card" if rounds else "--card"
        raise InputError(f"--opponent and --assume-weakest go with {uses} enemies or combat zones",
                         key="--opponent" if opponents else "--assume-weakest",
                         expected=f"{uses} with a pirates, smugglers, slavers or combat zone card")


def card_outcome_lines(events: list[dict[str, Any]]) -> list[str]:
    """One line per card with a decision: the fight's outcome, or the combat-zone lines that hit."""
    out = []
    for e in events:
        if e["type"] == "combat_zone":
            hits = ", ".join(f"line {i + 1} {float(p) * 100:.1f} %" for i, p in enumerate(e["hit"]))
            out.append(f"  {e['card']} combat zone: hit the ship on {hits}")
        elif e["type"] != "meteor_swarm":
            out.append(f"  {e['card']} {e['type']}: win {float(e['win']) * 100:.1f} %, "
                       f"tie {float(e['tie']) * 100:.1f} %, lose {float(e['lose']) * 100:.1f} %")
    return out


def flight_header(s: Ship, path: str, what: str, quiet: bool = False) -> None:
    echo(header(s, path))
    warn = provisional(s.board)
    if warn:
        echo(warn)
    report = check(s)
    if not report.legal and not quiet:
        cs = ", ".join(sorted({v.code for v in report.errors}))
        echo(f"note: the ship is not legal ({cs}); the odds are for the ship as built")
    echo(f"attacks: {what}")


def techie_note(s: Ship, quiet: bool = False) -> None:
    """Said where the single-ship flight model flies the attacks: it has no cards, so no Techie."""
    if s.cyan_specialisation == "techie" and not quiet:
        echo("note: the cyan Techie's free first charge of each card is not counted here (attacks given "
             "one by one, or the optimal policy, fly the single-ship flight model, which has no cards); "
             "`--card` with the default policy, and `simulate --round`, count it")


def draw_losses(ship: Ship, p_lost: list[tuple[int, Any]]) -> None:
    """The ship with each square's chance of being lost: a whole percentage and a heat colour."""
    from shipcheck.render import heat_legend, heat_marks

    tags, styles = heat_marks(p_lost)
    draw(ship, tags, styles)
    echo(heat_legend())


def estimate_lines(r: Any) -> None:
    """Survival, expected loss (95 % intervals) and the loss distribution of sampled runs (a Monte
    Carlo result or one player's rounds)."""
    echo("(estimated from the runs)")
    lo, hi = r.p_survive_ci
    echo(f"survive:        {pct(r.p_survive)}  95 % CI [{lo * 100:.2f} %, {hi * 100:.2f} %]")
    lo, hi = r.expected_lost_ci
    echo(f"expected lost:  {r.expected_lost:.4f}  95 % CI [{lo:.4f}, {hi:.4f}]")
    for line in dist_lines(r.lost_distribution, False):
        echo(line)


def dist_lines(dist: dict[int, Any], fractions: bool) -> list[str]:
    out = []
    top = max((float(v) for v in dist.values()), default=1.0) or 1.0
    for k, v in dist.items():
        bar = "█" * max(1, round(30 * float(v) / top)) if float(v) > 0 else ""
        frac = f"  ({v})" if fractions else ""
        out.append(f"  lost {k:>2}: {pct(v)} {bar}{frac}")
    return out


@command("stats")
def stats_cmd(ship: ShipArg, quiet: QuietOpt = False, fmt: FormatOpt = "text") -> None:
    """Ship parameters: crew, engine and cannon power per charge spent, shields, cargo, exposed
    connectors, and where each kind of attack can hit.

    \b
    Example:
      shipcheck stats examples/class-II-freighter.toml
    """
    from shipcheck.flight.stats import render_stats
    from shipcheck.flight.stats import stats as ship_stats

    s = read_ship(ship)
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
    # the title holds the ship's name: cleaned of control characters
    text = render_stats(st, width=width(), quiet=quiet)
    echo("\n".join(printable(line) for line in text.splitlines()))


@command("odds")
def odds_cmd(
    ship: ShipArg,
    attack: AttackOpt = None,
    card: CardOpt = None,
    policy: Annotated[Literal["default", "optimal"], typer.Option("--policy", "-p", help=_POLICY_HELP)] = "default",
    assume_weakest: WeakestOpt = False,
    opponents: Annotated[list[str] | None, opponent_opt(
        "With --card: an opponent's ship file, repeatable (combat zones hit the weakest ship; the ship leads, the "
        "opponents follow at the round's start spacing).")] = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Compute again instead of reading the on-disk cache of exact results "
                           "(SHIPCHECK_NO_CACHE=1 turns the cache off).")] = False,
    all_notes: NotesOpt = False,
    quiet: QuietOpt = False,
    fmt: FormatOpt = "text",
) -> None:
    """Exact odds of a sequence of attacks: survival, components lost, each square's risk.

    Every dice outcome is enumerated (a Markov chain over damage states, in exact fractions). Results
    are cached on disk, so asking the same question again is instant (see docs/flight-model.md).

    \b
    Examples:
      shipcheck odds examples/class-II-freighter.toml --attack large-meteor:front --attack small-meteor:left
      shipcheck odds examples/class-III-hauler.toml --card III-10 --policy optimal
      shipcheck odds examples/class-I-scout.toml --card I-03 --card I-16 --assume-weakest
    """
    one_source(attack or [], card or [])  # a usage error comes before the engines are imported
    from fractions import Fraction

    from shipcheck.cli._common import spinner
    from shipcheck.flight import oddscache as cache
    from shipcheck.flight.odds import POLICY_NOTE
    from shipcheck.flight.odds import odds as exact_odds

    attack, card, opponents = attack or [], card or [], opponents or []
    s = read_ship(ship)
    atk, what, cards = flight_attacks(s, attack, card, opponents, assume_weakest)
    if not cards and card and policy == "default" and s.cyan_specialisation == "techie":
        cards = flight_cards(s, card)  # meteor swarms as cards: the round model counts his free charge
    if cards:
        _card_odds(s, ship, cards, what, policy, opponents, assume_weakest, fmt, quiet, all_notes)
        return
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
    flight_header(s, ship, what, quiet)
    techie_note(s, quiet)
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


def _card_odds(s: Ship, path: str, cards: list[Any], what: str, policy: str, opponents: list[str],
               assume_weakest: bool, fmt: str, quiet: bool, listed: bool = False) -> None:
    """``odds --card`` with fights or combat zones: the exact round model (shipcheck.round.cardodds)."""
    from shipcheck.cli._common import spinner
    from shipcheck.round.cardodds import card_odds

    if policy != "default":
        raise InputError("--policy optimal searches battery decisions against attacks only; cards with fights "
                         "are flown under the default policy", key="--policy", value=policy, expected="default")
    with spinner("computing exact odds"):
        try:
            r = card_odds(s, cards, opponents=[load_ship(o) for o in opponents], assume_weakest=assume_weakest)
        except InputError as exc:  # the library's argument names, as the options that gave them
            raise as_options(exc, {"cards": "--card", "opponents": "--opponent",
                                   "assume_weakest": "--assume-weakest"}) from None
    if fmt == "json":
        print_json({"ship": path, **r.to_dict()})
        return
    flight_header(s, path, what, quiet)
    echo("policy: the round's default decisions (docs/rounds.md): the fewest charges that beat an enemy, else tie "
         "it; meteors and shots defended as in odds")
    for line in card_outcome_lines(list(r.events)):
        echo(line)
    notes(r.notes, listed=listed, quiet=quiet)
    draw_losses(s, r.p_lost())
    echo(f"survive:        {pct(r.p_survive)}  ({r.p_survive})")
    echo(f"expected lost:  {float(r.expected_lost):.4f}  ({r.expected_lost})")
    for line in dist_lines(r.lost_distribution, True):
        echo(line)


def _simulate_cards(s: Ship, path: str, cards: list[Any], what: str, opponents: list[str],
                    assume_weakest: bool, runs: int, seed: int | None, workers: int, scheduler: str | None,
                    fmt: str, quiet: bool, listed: bool = False) -> None:
    """``simulate --card`` with fights or combat zones: the round engine on a fixed deck."""
    from shipcheck.round import simulate_round

    rnd = {1: "1", 2: "2"}.get(s.board.level, "3")
    with progress_bar() as bar:
        r = simulate_round(s, round=rnd, opponents=[load_ship(o) for o in opponents], deck=[c.id for c in cards],
                           edition=cards[0].edition, runs=runs, seed=seed, workers=workers, scheduler=scheduler,
                           progress=bar, assume_weakest=assume_weakest, keep_runs=False)
    keys = ("exact", "runs", "seed", "batch", "policy", "p_survive", "p_survive_ci", "expected_lost",
            "expected_lost_ci", "lost_distribution", "tiles", "by_card_type")
    d = r.to_dict()
    out = {"ship": path, "cards": [c.full_id for c in cards], **{k: d[k] for k in keys},
           "opponents": len(opponents), "assume_weakest": assume_weakest,
           "notes": [n for n in r.notes if "provisional" not in n and "default class" not in n]}
    if fmt == "json":
        print_json(out)
        return
    me = r.ship_result
    flight_header(s, path, what, quiet)
    echo(f"{r.runs} runs, seed {r.seed}; the round's default decisions (docs/rounds.md)")
    notes(out["notes"], listed=listed, quiet=quiet)
    draw_losses(s, [(t.at, c / r.runs) for t, c in zip(s.tiles, me.tile_lost)])
    estimate_lines(me)


@command("simulate")
def simulate_cmd(
    ship: ShipArg,
    attack: AttackOpt = None,
    card: CardOpt = None,
    policy: Annotated[Literal["default", "optimal", "racing"], typer.Option(
        "--policy", "-p", help=_POLICY_HELP + " With --round: default or racing (engines first, days kept).")]
    = "default",
    assume_weakest: WeakestOpt = False,
    runs: Annotated[int | None, runs_opt(
        f"Runs to sample: flights through the attacks or cards (default {RUNS_FLIGHT:,}), or whole rounds with "
        f"--round (default {RUNS_ROUND:,}).")] = None,
    seed: Annotated[int | None, seed_opt("the same seed gives the same numbers on any number of workers")] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, metavar="N", help="Local worker processes.")] = 1,
    dask: Annotated[bool, typer.Option(
        "--dask", help="Run on Dask (pip install 'shipcheck[dask]'): on --scheduler if given, else on a local cluster "
                       "of --workers processes.")] = False,
    scheduler: Annotated[str | None, typer.Option(
        metavar="ADDRESS", show_default=False,
        help="A Dask scheduler address (implies --dask); 'local' starts a local cluster.")] = None,
    precision: Annotated[float | None, typer.Option(
        metavar="WIDTH", show_default=False,
        help="Run until the 95 % interval of p_survive is this narrow (ignores --runs).")] = None,
    batch: Annotated[int | None, typer.Option(
        min=1, metavar="RUNS", show_default=False,
        help="Runs per chunk (bounds memory; part of what the seed means). Default 65536; rounds 4096.")] = None,
    round_: Annotated[str | None, round_opt(
        "Fly whole rounds instead: 1, 2, 3, 3a or learning (deck, start, rewards of that round).")] = None,
    opponents: Annotated[list[str] | None, opponent_opt(
        "With --round: an opponent's ship file, repeatable (up to 4), in launch order after SHIP. Default: the "
        "class's field shipped with the tool.")] = None,
    deck: Annotated[str | None, deck_opt("With --round: a deck file fixing the cards and their order.")] = None,
    edition: Annotated[Editions | None, edition_opt("With --round: the card edition (default: the ship's).")] = None,
    rules_file: Annotated[str | None, rules_opt(
        "With --round: a TOML file overriding the round's provisional numbers (track, rewards, caps, card "
        "rules).")] = None,
    opponent_policy: Annotated[str, typer.Option(metavar="NAME",
                                                 help="With --round: how the opponents play (default or racing).")]
    = "default",
    five_player: Annotated[bool, typer.Option(
        "--five-player", help="With --round: five-player rules with four players (the '4 = 5' variant).")] = False,
    purse: Annotated[int, typer.Option(
        min=0, max=10**9, metavar="N",
        help="With --round: credits in every player's purse before the round (the penalty takes no more than the "
             "purse holds).")] = 0,
    all_notes: NotesOpt = False,
    quiet: QuietOpt = False,
    fmt: FormatOpt = "text",
) -> None:
    """Monte Carlo odds over the same model as `odds`, with 95 % intervals; or whole rounds.

    With --round, SHIP and its opponents race through adventure decks (every card type, the track,
    giving up) and every run ends in credits: a histogram, survival, losses by card type, one line
    per opponent. --policy is then default (docs/rounds.md) or racing.

    \b
    Examples:
      shipcheck simulate examples/class-III-hauler.toml --card III-10 --runs 200000 --seed 7
      shipcheck simulate examples/blue-round1.toml --attack large-meteor:front --precision 0.001 --workers 2
      shipcheck simulate examples/blue-round1.toml --card I-09 --dask --workers 2 --seed 1
      shipcheck simulate examples/class-I-scout.toml --round 1 --runs 2000 --seed 1
    """
    attack, card, opponents = attack or [], card or [], opponents or []
    if round_ is None:
        one_source(attack, card, rounds=True)  # a usage error comes before the engines are imported
    if dask and scheduler is None:
        scheduler = "local"
    if round_ is not None:
        if attack or card or precision is not None or assume_weakest:
            raise InputError("--round flies whole decks: it takes no --attack, --card, --assume-weakest or "
                             "--precision (a deck file is how to fly given cards)", key="--round", value=round_,
                             expected="--round without --attack, --card, --assume-weakest, --precision")
        from shipcheck.cli.rounds import run as run_round

        run_round(ship, round_=round_, opponents=opponents, deck=deck, rules=rules_file, edition=edition,
                  policy=policy, opponent_policy=opponent_policy, five_player=five_player, runs=runs or RUNS_ROUND,
                  seed=seed, workers=workers, scheduler=scheduler, batch=batch or 4096, fmt=fmt, quiet=quiet,
                  purse=purse, listed=all_notes)
        return
    _refuse_round_only({"--deck": deck is not None, "--edition": edition is not None,
                        "--rules": rules_file is not None, "--five-player": five_player, "--purse": purse != 0,
                        "--opponent-policy": opponent_policy != "default"})
    if policy not in ("default", "optimal"):
        raise InputError(f"{policy} is a round policy", key="--policy", value=policy,
                         expected="default or optimal (racing goes with --round)")
    batch = batch or 65_536
    runs = runs or RUNS_FLIGHT
    s = read_ship(ship)
    atk, what, cards = flight_attacks(s, attack, card, opponents, assume_weakest, rounds=True)
    if not cards and card and policy == "default" and precision is None and s.cyan_specialisation == "techie":
        cards = flight_cards(s, card)  # as in `odds`: the round engine counts the Techie's free charge
    if cards:
        if policy != "default" or precision is not None:
            raise InputError("cards with fights fly under the default policy, for --runs runs",
                             key="--policy" if policy != "default" else "--precision",
                             expected="--policy default, no --precision")
        _simulate_cards(s, ship, cards, what, opponents, assume_weakest, runs, seed, workers, scheduler, fmt, quiet,
                        all_notes)
        return
    if precision is not None and not 0 < precision < 1:
        raise InputError("bad precision", key="--precision", value=precision, expected="a width between 0 and 1")
    from shipcheck.flight.montecarlo import simulate as mc

    try:
        with progress_bar() as bar:
            r = mc(s, atk, runs=runs, seed=seed, workers=workers, scheduler=scheduler, precision=precision,
                   batch=batch, policy=policy, progress=bar, keep_runs=False)
    except ImportError as exc:
        raise InputError(str(exc), key="--scheduler", value=scheduler, expected="the dask extra installed") from None
    except InputError as exc:
        raise as_options(exc, {k: f"--{k}" for k in ("runs", "seed", "workers", "scheduler", "precision", "batch")}
                         | {"max_runs": "--runs"}) from None
    if fmt == "json":
        print_json({"ship": ship, **r.to_dict()})
        return
    _show_flights(s, ship, what, r, batch=batch, precision=precision, quiet=quiet)


def _refuse_round_only(given: dict[str, bool]) -> None:
    """A usage error naming the round-only options given (True) without --round."""
    used = [k for k, v in given.items() if v]
    if used:
        raise InputError(f"{', '.join(used)} only go{'es' if len(used) == 1 else ''} with --round", key=used[0],
                         expected="--round N as well")


def _show_flights(s: Ship, ship: str, what: str, r: SimulationResult, *, batch: int, precision: float | None,
                  quiet: bool) -> None:
    """The text output of `simulate` over attacks: the header, the losses drawn and the estimates."""
    flight_header(s, ship, what, quiet)
    techie_note(s, quiet)
    echo(f"{r.runs} runs, seed {r.seed} (repeat with --seed {r.seed}{f' --batch {batch}' if batch != 65_536 else ''})")
    draw_losses(s, [(t.at, p) for t, p in zip(s.tiles, r.p_lost)])
    estimate_lines(r)
    lo, hi = r.p_survive_ci
    if precision is not None and hi - lo > precision and not quiet:
        echo(f"note: stopped at {r.runs:,} runs, the most --precision flies: the 95 % interval of p_survive is "
             f"{hi - lo:.2g} wide, not {precision:g}")
