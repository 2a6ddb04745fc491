"""Build the default opponents of `simulate --round` (``tiles/field/<class>/*.toml``).

Each ship is grown from the pilot cabin by a seeded greedy search over the 2007 catalogue (every
tile used at most once): at each step it tries random (tile, rotation, square) placements next to
the ship, keeps those after which the ship is still legal (``shipcheck.check``), and takes the one
its personality likes best. Personalities weigh tile kinds: a trader wants holds, a racer engines,
a fighter cannons; all want batteries, cabins and some shields. A purple or orange alien boards a
cabin joined to a life support of its colour when the ship has one.

    python tools/build_field.py            # writes tiles/field/{I,II,III,IIIa}/*.toml

The files are data: the tests check them legal; rebuilding them changes the default field.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from shipcheck.model import AsideTile  # noqa: E402
from shipcheck.rules import check  # noqa: E402
from shipcheck.shipfile import catalogue, parse_ship  # noqa: E402
from shipcheck.topology import builtin_board  # noqa: E402

# the share of the ship each personality wants of each group of kinds; a tile's weight is how far
# its group still is below its share, so every ship ends up balanced around its speciality
PERSONALITIES = {
    "trader": {"cargo": 0.30, "engine": 0.20, "cannon": 0.12, "cabin": 0.15, "battery": 0.10, "shield": 0.08,
               "other": 0.05},
    "racer": {"engine": 0.32, "battery": 0.15, "cabin": 0.15, "cannon": 0.12, "cargo": 0.12, "shield": 0.08,
              "other": 0.06},
    "fighter": {"cannon": 0.32, "battery": 0.15, "engine": 0.16, "cabin": 0.15, "cargo": 0.08, "shield": 0.08,
                "other": 0.06},
}
GROUP = {"engine": "engine", "double_engine": "engine", "cannon": "cannon", "double_cannon": "cannon",
         "cargo": "cargo", "special_cargo": "cargo", "cabin": "cabin", "battery": "battery", "shield": "shield",
         "structural": "other", "life_support": "other"}
ALIEN = {"racer": "orange", "fighter": "purple", "trader": None}
NAMES = {"trader": "Trader", "racer": "Racer", "fighter": "Fighter"}


def _text(cls: str, name: str, placed: list[tuple[tuple[int, int], str, int]], crew: dict[tuple[int, int], str],
          comment: str) -> str:
    lines = [f"# {c}" for c in comment.splitlines()]
    lines += ["format = 1", f'class = "{cls}"', f'name = "{name}"', ""]
    for at, tid, rot in placed:
        lines += ["[[tile]]", f"at = [{at[0]}, {at[1]}]", f'id = "{tid}"']
        if rot:
            lines.append(f"rot = {rot}")
        if at in crew:
            lines.append(f'crew = "{crew[at]}"')
        lines.append("")
    return "\n".join(lines)


def _eff(t: AsideTile, rot: int) -> list[int]:
    sides = t.sides
    k = rot // 90
    out = [0, 0, 0, 0]
    for i, ch in enumerate(sides):
        out[(i + k) % 4] = int(ch)
    return out


def _fits(t: AsideTile, rot: int, sq: tuple[int, int], placed: list[tuple[tuple[int, int], str, int]],
          cat: dict, neighbours) -> bool:  # type: ignore[no-untyped-def, type-arg]
    """A cheap test before the checker: every facing side matches and at least one joins."""
    eff = _eff(t, rot)
    at = {p: (tid, r) for p, tid, r in placed}
    joined = False
    for s, nsq in neighbours(sq):
        nb = at.get(nsq)
        if nb is None:
            continue
        other = _eff(cat[nb[0]], nb[1])[(s + 2) % 4]
        mine = eff[s]
        if (mine == 0) != (other == 0):
            return False
        if mine and other:
            if {mine, other} == {1, 2}:
                return False
            joined = True
    return joined


def grow(cls: str, personality: str, seed: int, size: int) -> str:
    rng = random.Random(seed)
    board = builtin_board(cls)
    cat = catalogue("2007")
    pool = [tid for tid, t in cat.items() if t.kind != "start_cabin"]
    weights = PERSONALITIES[personality]
    cols = [lab[0] for lab in board.columns]
    rows = [lab[0] for lab in board.rows]
    squares = [(cols[c], rows[r]) for r in range(board.height) for c in range(board.width)
               if board.buildable(r * board.width + c)]
    start = board.start
    assert start is not None
    pilot = (cols[start % board.width], rows[start // board.width])
    placed: list[tuple[tuple[int, int], str, int]] = [(pilot, "2007:33", 0)]
    used = {pilot}
    name = f"{NAMES[personality]} {cls}"

    def neighbours(at: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
        c, r = cols.index(at[0]), rows.index(at[1])
        out = []
        for s, (dc, dr) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            if 0 <= c + dc < len(cols) and 0 <= r + dr < len(rows):
                out.append((s, (cols[c + dc], rows[r + dr])))
        return out

    misses = 0
    while len(placed) < size and misses < 20:
        frontier = [sq for sq in squares if sq not in used and any(n in used for _, n in neighbours(sq))]
        if not frontier:
            break
        best = None
        for _ in range(400):
            tid = rng.choice(pool)
            group = GROUP[cat[tid].kind]
            have = sum(1 for _, t2, _ in placed[1:] if GROUP[cat[t2].kind] == group)
            w = 10 * max(0.02, weights[group] - have / max(1, len(placed)))
            sq = rng.choice(frontier)
            rots = [r for r in (0, 90, 180, 270) if _fits(cat[tid], r, sq, placed, cat, neighbours)]
            if not rots:
                continue
            rot = rng.choice(rots)
            trial = placed + [(sq, tid, rot)]
            if not check(parse_ship(_text(cls, name, trial, {}, ""))).legal:
                continue
            # growth: connectors facing buildable squares still empty keep the ship growing
            eff = _eff(cat[tid], rot)
            room = sum(1 for side, n in neighbours(sq) if eff[side] and n in squares and n not in used)
            score = w + 0.7 * room + rng.random()
            if best is None or score > best[0]:
                best = (score, sq, tid, rot)
        if best is None:
            misses += 1
            continue
        misses = 0
        _, sq, tid, rot = best
        placed.append((sq, tid, rot))
        used.add(sq)
        pool.remove(tid)
    crew: dict[tuple[int, int], str] = {}
    colour = ALIEN[personality]
    if colour and cls != "I":
        for at, tid, _ in placed:
            if cat[tid].kind == "cabin":
                text = _text(cls, name, placed, {at: colour}, "")
                if check(parse_ship(text)).legal:
                    crew[at] = colour
                    break
    comment = (f"{name}: a {personality} for class {cls}, one of the default opponents of `simulate --round`.\n"
               f"Grown by tools/build_field.py (seed {seed}) from 2007 catalogue tiles, each used once; legal.")
    return _text(cls, name, placed, crew, comment)


SIZES = {"I": 15, "II": 22, "III": 28, "IIIa": 28}


def main() -> None:
    for cls, size in SIZES.items():
        folder = ROOT / "tiles" / "field" / cls
        folder.mkdir(parents=True, exist_ok=True)
        for i, personality in enumerate(("trader", "racer", "fighter")):
            seed = 1000 * (list(SIZES).index(cls) + 1) + i
            text = grow(cls, personality, seed, size)
            ship = parse_ship(text)
            assert check(ship).legal, (cls, personality)
            (folder / f"{i + 1}-{personality}.toml").write_text(text, encoding="utf-8")
            print(f"{cls} {personality}: {len(ship.tiles)} tiles")


if __name__ == "__main__":
    main()
