"""Ten meteors in a row on a full class III ship, exactly: the integer kernel against the Fraction engine.

Row of issue #12: "exact odds, 10 meteors in a row on a full class III ship" (target: 0.1 s). Four
sequences: ten small meteors from the front, ten large ones from the front, the seven of card
III-10 then the first three of III-11, and ten meteors turning round the ship. The baseline is
``shipcheck._reference.forward_fractions`` (the engine as it was), in the same process.

    python benchmarks/bench_exact_meteors.py [--repeat 5]
"""

from __future__ import annotations

import argparse

from engine_timing import FULL_CLASS_III, exact_vs_fractions, header

from shipcheck.cards import find_card
from shipcheck.flight import parse_attack
from shipcheck.shipfile import load_ship

SIDES = ("front", "right", "rear", "left")


def sequences() -> dict[str, list]:  # type: ignore[type-arg]
    return {
        "10 small front": [parse_attack("small-meteor:front")] * 10,
        "10 large front": [parse_attack("large-meteor:front")] * 10,
        "III-10 + III-11[:3]": list(find_card("III-10").attacks()) + list(find_card("III-11").attacks())[:3],
        "10 round the ship": [parse_attack(f"{'small' if i % 2 else 'large'}-meteor:{SIDES[i % 4]}")
                              for i in range(10)],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    header("bench_exact_meteors")
    print("| ship | meteors | final states | kernel s | Fraction engine s | speed-up |")
    print("|---|---|---:|---:|---:|---:|")
    worst = 0.0
    for path in FULL_CLASS_III:
        ship = load_ship(path)
        for name, atk in sequences().items():
            tn, tb, r = exact_vs_fractions(ship, atk, args.repeat)
            worst = max(worst, tn)
            print(f"| {path.stem} | {name} | {len(r.weights)} | {tn:.4f} | {tb:.4f} | {tb / tn:.1f}x |")
    print()
    print(f"slowest: {worst:.4f} s")


if __name__ == "__main__":
    main()
