"""Exact odds of every meteor-swarm card of levels I-III on the example ships.

Prints the time per card, the number of damage states, and the speed-up of the Markov chain over
enumerating every dice sequence (11^k sums for k meteors) where that is feasible.

    python benchmarks/bench_odds.py [--max-sequences 200000]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shipcheck.cards import load_cards  # noqa: E402
from shipcheck.flight.chain import DEFAULT_POLICY, FlightModel  # noqa: E402
from shipcheck.flight.odds import odds  # noqa: E402
from shipcheck.shipfile import load_ship  # noqa: E402


def enumerate_sequences(ship, attacks):  # type: ignore[no-untyped-def]
    """Every dice sequence walked separately, without memoising states (the baseline)."""
    m = FlightModel(ship)
    surv = Fraction(0)
    lost = Fraction(0)

    def walk(st, ai, p):  # type: ignore[no-untyped-def]
        nonlocal surv, lost
        if ai == len(attacks):
            surv += p * (m.humans(st) > 0)
            lost += p * m.lost(st)
            return
        a = attacks[ai]
        outs, _ = m.outcomes(a)
        for o in outs:
            if not o.lines:
                walk(st, ai + 1, p * o.prob)
                continue
            sit = m.situation(st, a, ai, o)
            walk(m.apply(sit, DEFAULT_POLICY.decide(sit)), ai + 1, p * o.prob)

    walk(m.initial(), 0, Fraction(1))
    return surv, lost


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-sequences", type=int, default=200_000)
    args = ap.parse_args()
    ships = sorted((ROOT / "examples").glob("*.toml"))
    print(f"# bench_odds  {datetime.date.today()}  {platform.platform()}  {platform.processor() or ''} "
          f"cpus={os.cpu_count()} python={platform.python_version()}")
    print()
    print("| ship | card | meteors | states | exact s | sequences | naive s | speed-up |")
    print("|---|---|---|---|---|---|---|---|")
    cards = [c for c in load_cards("2007") if c.type == "meteor_swarm"]
    for path in ships:
        ship = load_ship(path)
        for card in cards:
            atk = card.attacks()
            t0 = time.perf_counter()
            r = odds(ship, atk)
            t_exact = time.perf_counter() - t0
            m = FlightModel(ship)
            seqs = 1
            for a in atk:
                seqs *= sum(1 for o in m.outcomes(a)[0])
            naive, speed = "-", "-"
            if seqs <= args.max_sequences:
                t0 = time.perf_counter()
                s, lo = enumerate_sequences(ship, atk)
                t_naive = time.perf_counter() - t0
                assert s == r.p_survive and lo == r.expected_lost, "naive and exact disagree"
                naive, speed = f"{t_naive:.3f}", f"{t_naive / t_exact:.1f}x"
            print(f"| {path.stem} | {card.full_id} | {len(atk)} | {len(r.distribution)} | {t_exact:.3f} | "
                  f"{seqs} | {naive} | {speed} |")


if __name__ == "__main__":
    main()
