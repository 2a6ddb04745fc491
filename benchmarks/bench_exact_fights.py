"""Exact odds of every fight card, in-process and warm: issue 19's "at most 50 ms" row.

Every card ``odds --card`` plays on the round engine's joint states (pirates, smugglers, slavers,
combat zones, and meteor swarms too), of both editions, on the class III examples, as
``shipcheck odds SHIP --card ID --assume-weakest`` computes it (``card_odds(..., assume_weakest=True)``,
no opponents). Each card is computed once (warm-up: numba loads or compiles the joint step), then
timed ``--repeat`` times in CPU seconds of this process; the figure is the median. Two engines:

- ``compiled``: the compiled engine loaded in this process (as in a process that has flown a round,
  the workbench, or a notebook);
- ``plain``: the same functions as plain Python (what a one-shot ``odds`` process uses: it does not
  start numba for one card).

Cards that ``odds`` refuses (sabotage: not a card of attacks or fights) are listed as such.

    python benchmarks/bench_exact_fights.py [--repeat 7] [--ships class-III-hauler,class-IIIa-longboat]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from engine_timing import ROOT, header

from shipcheck import engine, runtime
from shipcheck.cards import find_card, load_cards
from shipcheck.errors import InputError
from shipcheck.round.cardodds import card_odds
from shipcheck.shipfile import load_ship

FIGHTS = ("pirates", "smugglers", "slavers", "combat_zone", "sabotage")
TARGET_MS = 50.0


def median_cpu(fn: object, repeat: int) -> float:
    ts = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()  # type: ignore[operator]
        ts.append(time.process_time() - t0)
    return statistics.median(ts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--ships", default="class-III-hauler,class-IIIa-longboat")
    ap.add_argument("--meteors", action="store_true", help="time the meteor swarms too")
    a = ap.parse_args()
    header("bench_exact_fights")
    t0 = time.monotonic()
    ready = engine.compiled_call("joint", lambda: card_odds(load_ship(ROOT / "examples" / "class-III-hauler.toml"),
                                                            [find_card("III-16")], assume_weakest=True))[0]
    print(f"compiled engine ready: {ready} ({time.monotonic() - t0:.1f} s to load or compile)")
    types = FIGHTS + (("meteor_swarm",) if a.meteors else ())
    print()
    print("| ship | card | type | compiled ms | plain ms | plain / compiled |")
    print("|---|---|---|---:|---:|---:|")
    worst = {"compiled": (0.0, ""), "plain": (0.0, "")}
    refused = []
    for stem in a.ships.split(","):
        ship = load_ship(Path(ROOT / "examples" / f"{stem}.toml"))
        for edition in ("2007", "2021"):
            for card in load_cards(edition):
                if card.type not in types:
                    continue
                try:
                    card_odds(ship, [card], assume_weakest=True)  # warm-up: loads or compiles the joint step
                except InputError as exc:
                    refused.append(f"{card.full_id} ({card.type}): {exc}".splitlines()[0])
                    continue
                fast = median_cpu(lambda s=ship, c=card: card_odds(s, [c], assume_weakest=True), a.repeat)
                runtime.state.force = "plain"  # the plain copy, as one-shot odds
                try:
                    card_odds(ship, [card], assume_weakest=True)
                    slow = median_cpu(lambda s=ship, c=card: card_odds(s, [c], assume_weakest=True), a.repeat)
                finally:
                    runtime.state.force = None
                for k, v in (("compiled", fast), ("plain", slow)):
                    worst[k] = max(worst[k], (v, f"{card.full_id} on {stem}"))
                print(f"| {stem} | {card.full_id} | {card.type} | {fast * 1e3:.1f} | {slow * 1e3:.1f} | "
                      f"{slow / fast:.1f}x |", flush=True)
    print()
    for k, (v, what) in worst.items():
        print(f"slowest {k}: {v * 1e3:.1f} ms ({what}); target {TARGET_MS:.0f} ms: "
              f"{'met' if v * 1e3 <= TARGET_MS else 'missed'}")
    for r in refused:
        print(f"refused by odds --card: {r}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
