"""``simulate --round``: whole rounds, as text for people or contract §5's JSON."""

from __future__ import annotations

from shipcheck.cli._common import echo, header, notes, pct, print_json, progress_bar, provisional, table, width
from shipcheck.errors import InputError


def _histogram(dist: dict[int, float], width: int = 40, max_rows: int = 24) -> list[str]:
    """Credits histogram: whole amounts, or bins of several when the range is wide."""
    lo, hi = min(dist), max(dist)
    step = max(1, -(-(hi - lo + 1) // max_rows))
    bins: dict[int, float] = {}
    for k, v in dist.items():
        b = lo + (k - lo) // step * step
        bins[b] = bins.get(b, 0.0) + v
    top = max(bins.values())
    out = []
    for b in range(lo, hi + 1, step):
        v = bins.get(b, 0.0)
        label = f"{b:>4}" if step == 1 else f"{b:>4}..{b + step - 1:<4}"
        bar = "█" * round(width * v / top) if v else ""
        out.append(f"  {label} {v * 100:5.1f} % {bar}")
    return out


def _causes(shares: dict[str, float]) -> str:
    if not shares:
        return "never gave up"
    return "gave up: " + ", ".join(f"{k.replace('_', ' ')} {v * 100:.1f} %" for k, v in shares.items())


def run(ship: str, *, round_: str, opponents: list[str], deck: str | None, rules: str | None,
        edition: str | None, policy: str, opponent_policy: str, five_player: bool, runs: int, seed: int | None,
        workers: int, scheduler: str | None, batch: int, fmt: str, quiet: bool = False, purse: int = 0,
        listed: bool = False) -> None:
    from shipcheck.cli._common import read_ship
    from shipcheck.round import simulate_round
    from shipcheck.round.deck import card_label
    from shipcheck.round.result import by_source_lines
    from shipcheck.shipfile import load_ship

    s = read_ship(ship)
    others = [load_ship(o) for o in opponents] if opponents else None
    try:
        with progress_bar("flying rounds") as bar:
            r = simulate_round(s, round=round_, opponents=others, deck=deck, edition=edition, runs=runs, seed=seed,
                               batch=batch, workers=workers, scheduler=scheduler, policy=policy,
                               opponent_policy=opponent_policy, progress=bar, rules=rules,
                               five_player=True if five_player else None, purse=purse, keep_runs=False)
    except ImportError as exc:
        raise InputError(str(exc), key="--scheduler", value=scheduler, expected="the dask extra installed") from None
    if fmt == "json":
        print_json({"ship": ship, **{k: v for k, v in r.to_dict().items() if k != "ship"}})
        return
    me = r.ship_result
    echo(header(s, ship))
    warn = provisional(s.board)
    if warn:
        echo(warn)
    d = r.deck
    if d.fixed:
        what = f"deck {', '.join(card_label(c) for c in d.cards)} (fixed order)"
    elif d.learning:
        what = "the learning flight's 8 starred cards, shuffled"
    else:
        what = f"{d.size} cards drawn per run (" + ", ".join(
            f"{n} of level {'I' * lv}" for lv, n in r.rules.deck or ()) + ")"
    echo(f"round {r.round}, edition {d.edition}: {what}")
    echo(f"{r.runs} runs, seed {r.seed} (repeat with --seed {r.seed}{f' --batch {batch}' if batch != 4096 else ''})")
    names = [f"{i + 1}. {p.name}" + (" (this ship)" if i == 0 else "") for i, p in enumerate(r.players)]
    echo("players in launch order: " + ", ".join(names) + (" — five-player rules" if r.five_player else ""))
    echo(f"policies: this ship {me.policy}; opponents {opponent_policy if r.opponents else '-'}")
    echo("")
    lo, hi = me.credits_ci
    q = me.credits_percentiles
    echo(f"credits: mean {me.credits_mean:.2f}  95 % CI [{lo:.2f}, {hi:.2f}]  "
         f"5 %: {q[5]}  median: {q[50]}  95 %: {q[95]}")
    for line in _histogram(me.credits_distribution, width=max(10, min(40, width() - 30))):
        echo(line)
    flo, fhi = me.p_finish_ci
    for line in by_source_lines(r):
        echo(line)
    echo(f"finished:  {pct(me.p_finish)}  95 % CI [{flo * 100:.2f} %, {fhi * 100:.2f} %]  ({_causes(me.gave_up_shares)})")
    slo, shi = me.p_survive_ci
    echo(f"survived:  {pct(me.p_survive)}  95 % CI [{slo * 100:.2f} %, {shi * 100:.2f} %]")
    elo, ehi = me.expected_lost_ci
    echo(f"lost:      {me.expected_lost:.3f} components  95 % CI [{elo:.3f}, {ehi:.3f}]; "
         f"place: {', '.join(f'{k}: {v * 100:.0f} %' for k, v in me.place_shares.items())}")
    echo("")
    echo("by card type (per run):")
    # goods: the sale value of what the card type loaded that was still aboard at the end
    rows = [[t.replace("_", " "), f"{v['drawn']:.2f}", f"{v['expected_lost']:.3f}", f"{v['expected_credits']:.2f}",
             f"{v.get('expected_goods_value', 0.0):.2f}", f"{v['expected_days']:.2f}", f"{v['p_gave_up'] * 100:.2f} %"]
            for t, v in sorted(me.card_types().items(), key=lambda kv: -kv[1]["expected_lost"])]
    table(["card", "met", "lost", "credits", "goods", "days", "gave up"], rows, drop=(6, 5), left=(0,), indent=2)
    if r.opponents:
        echo("")
        echo("opponents:")
        rows = [[o.name, f"{o.credits_mean:.2f}", pct(o.p_finish).strip(), pct(o.p_survive).strip(),
                 f"{o.expected_lost:.2f}"] for o in r.opponents]
        table(["ship", "credits", "finished", "survived", "lost"], rows, drop=(3, 4), left=(0,), indent=2)
    if r.notes and not quiet:
        echo("")
        notes(r.notes, listed=listed)
