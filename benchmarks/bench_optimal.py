"""The optimal policy on level-III cards and full class III ships, and the unreduced search.

Row of issue #12: "odds --policy optimal, level-III cards on full class III ships" (target: 1 s,
exact optimum). Prints the time of ``odds(..., policy="optimal")`` (the reduced search, the forward
pass and the default policy's baseline figures included), the (attack, state) values it worked
out, and, for the cards given with ``--unreduced``, the time and states of the search over every
decision and every way of paying (``UnreducedOptimal`` of ``tests/oracle/reference.py``), run once in the same
process; the two optima must be equal.

    python benchmarks/bench_optimal.py [--unreduced III-10,III-16] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
from functools import partial

from engine_timing import FULL_CLASS_III, cpu, header
from oracle.reference import UnreducedOptimal  # the slow reference lives in the tests

from shipcheck.cards import find_card
from shipcheck.flight.chain import FlightModel
from shipcheck.flight.odds import odds
from shipcheck.shipfile import load_ship

CARDS = ("III-03", "III-09", "III-10", "III-11", "III-16")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--unreduced", default="III-10,III-16", help="cards to run the unreduced search on (hauler)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    header("bench_optimal")
    unreduced = {c for c in args.unreduced.split(",") if c}
    print("| ship | card | optimal s | states | p_survive | E[lost] | unreduced s | unreduced states | speed-up |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    worst = 0.0
    for path in FULL_CLASS_III:
        ship = load_ship(path)
        for cid in CARDS:
            atk = find_card(cid).attacks()
            runs = [cpu(partial(odds, ship, atk, policy="optimal")) for _ in range(args.repeat)]
            t = statistics.median(x for x, _ in runs)
            r = runs[-1][1]
            worst = max(worst, t)
            extra = "| - | - | - |"
            if cid in unreduced and path == FULL_CLASS_III[0]:
                m = FlightModel(ship)
                full = UnreducedOptimal(m, atk)
                tu, v = cpu(partial(full.value, 0, m.initial()))
                assert v == (r.p_survive, -r.expected_lost), "the reduced and the unreduced optimum differ"
                extra = f"| {tu:.1f} | {full.states} | {tu / t:.0f}x |"
            print(f"| {path.stem} | {cid} | {t:.3f} | {r.states_explored} | {float(r.p_survive):.6f} | "
                  f"{float(r.expected_lost):.4f} {extra}")
    print()
    print(f"slowest: {worst:.3f} s")


if __name__ == "__main__":
    main()
