"""Exact odds of one card on a full class III ship: the integer kernel against the Fraction engine.

Row of issue #12: "exact odds, 7 meteors of level-III card 10 on a class III ship" (target: at least
10x a plain-Python Fraction state DP). The baseline is the engine as it was
(``forward_fractions`` of ``tests/oracle/reference.py``: public states, Fraction weights, each roll played
through Situation, decide and apply, memoised per state and roll), run in the same process on a
fresh flight model each time, as ``odds`` builds one. Both must give the same distribution.

    python benchmarks/bench_exact_card.py [--card III-10] [--repeat 15]
"""

from __future__ import annotations

import argparse

from engine_timing import FULL_CLASS_III, exact_vs_fractions, header

from shipcheck.cards import find_card
from shipcheck.shipfile import load_ship


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--card", default="III-10")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    header("bench_exact_card")
    card = find_card(args.card)
    atk = card.attacks()
    print(f"card {card.full_id}: {', '.join(str(a) for a in atk)}")
    print()
    print("| ship | states expanded | kernel ms | Fraction engine ms | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for path in FULL_CLASS_III:
        ship = load_ship(path)
        tn, tb, r = exact_vs_fractions(ship, atk, args.repeat)
        print(f"| {path.stem} | {r.states_expanded} | {tn * 1e3:.2f} | {tb * 1e3:.2f} | {tb / tn:.1f}x |")


if __name__ == "__main__":
    main()
