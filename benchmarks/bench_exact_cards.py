"""Every 2007 card with meteors or shots on the full class III example ships, exactly.

Row of issue #12: "exact odds, any 2007 card on a full class III ship" (target: 20 ms, the worst
was combat zone III-16 on the class III example). Prints each card's time with the integer kernel
and with the slow reference of the tests (``tests/oracle/reference.py``), in the same process.

    python benchmarks/bench_exact_cards.py [--repeat 7]
"""

from __future__ import annotations

import argparse

from engine_timing import FULL_CLASS_III, exact_vs_fractions, header

from shipcheck.cards import load_cards
from shipcheck.shipfile import load_ship


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    header("bench_exact_cards")
    cards = [c for c in load_cards("2007") if c.attacks()]
    print("| ship | card | attacks | final states | kernel ms | Fraction engine ms | speed-up |")
    print("|---|---|---:|---:|---:|---:|---:|")
    worst = (0.0, "")
    for path in FULL_CLASS_III:
        ship = load_ship(path)
        for card in cards:
            atk = card.attacks()
            tn, tb, r = exact_vs_fractions(ship, atk, args.repeat)
            worst = max(worst, (tn, f"{card.full_id} on {path.stem}"))
            print(f"| {path.stem} | {card.full_id} | {len(atk)} | {len(r.weights)} | {tn * 1e3:.2f} | "
                  f"{tb * 1e3:.2f} | {tb / tn:.1f}x |")
    print()
    print(f"slowest: {worst[0] * 1e3:.2f} ms ({worst[1]})")


if __name__ == "__main__":
    main()
