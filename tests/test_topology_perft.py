"""Exhaustive geometry counts ("perft") of the built-in boards against tests/perft/boards.counts.

The expected numbers are worked out by hand from the board files (the derivations are in the counts
file); the test recomputes them from the neighbour table ``Board.nb`` and ``Board.hulls()``. On a
mismatch it prints a per-cell breakdown (cell character, neighbour count, hull group), like a perft
"divide".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shipcheck.topology import Board, builtin_board, builtin_names

COUNTS = Path(__file__).resolve().parent / "perft" / "boards.counts"
_KEY = re.compile(r"^(?P<key>[a-z_]+)(?:\[(?P<dice>\d+(?:,\d+)*)\])?$")


def load_counts() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for line in COUNTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, *tokens = line.split()
        out[name] = dict(tok.split("=", 1) for tok in tokens)
    return out


def _pairs(board: Board) -> set[frozenset[int]]:
    return {frozenset((i, j)) for i in range(board.size) for j in board.nb[i] if j >= 0}


def _drawn(board: Board, i: int) -> bool:
    return board.char(i) != "."


def measure(board: Board, key: str, dice: tuple[int, ...]) -> str:
    """One count of the counts file, as the file writes it."""
    pairs = _pairs(board)
    seam = {p for p in pairs if _is_seam(board, p)}
    if key == "size":
        return f"{board.width}x{board.height}"
    if key == "squares":
        return str(sum(_drawn(board, i) for i in range(board.size)))
    if key == "buildable":
        return str(sum(board.buildable(i, dice) for i in range(board.size)))
    if key == "pairs":
        return str(len(pairs))
    if key == "drawn_pairs":
        return str(sum(all(_drawn(board, i) for i in p) for p in pairs))
    if key == "seam":
        return str(len(seam))
    if key == "seam_drawn":
        return str(sum(all(_drawn(board, i) for i in p) for p in seam))
    if key == "start":
        s = board.start
        return "-" if s is None else f"{s % board.width},{s // board.width}"
    hulls = board.hulls(dice)
    groups = {h for h in hulls if h is not None}
    if key == "hulls":
        return str(len(groups))
    if key == "hull_sizes":
        sizes = sorted(sum(1 for i in range(board.size) if hulls[i] == g and _drawn(board, i)) for g in groups)
        return ",".join(map(str, sizes))
    raise KeyError(key)


def _is_seam(board: Board, pair: frozenset[int]) -> bool:
    i, j = sorted(pair)
    return any(board.nb[i][s] == j and board.seam_side[i][s] for s in range(4))


def breakdown(board: Board, dice: tuple[int, ...]) -> str:
    """Per cell: its character, how many neighbours it has in the grid, and its hull group."""
    hulls = board.hulls(dice)
    lines = [f"board {board.name}, dice {list(dice)}: char / neighbours / hull group per cell"]
    for r in range(board.height):
        row = []
        for c in range(board.width):
            i = r * board.width + c
            n = sum(1 for j in board.nb[i] if j >= 0)
            h = "-" if hulls[i] is None else str(hulls[i])
            row.append(f"{board.char(i)}{n}{h:>2}")
        lines.append("  ".join(row))
    return "\n".join(lines)


COUNTS_BY_BOARD = load_counts()


def test_every_builtin_board_is_counted() -> None:
    assert set(COUNTS_BY_BOARD) == set(builtin_names())


@pytest.mark.parametrize("name", sorted(COUNTS_BY_BOARD))
def test_board_counts(name: str) -> None:
    board = builtin_board(name)
    expected = COUNTS_BY_BOARD[name]
    got = {}
    for token in expected:
        m = _KEY.match(token)
        assert m, f"bad key {token!r} in {COUNTS.name}"
        dice = tuple(int(x) for x in m["dice"].split(",")) if m["dice"] else ()
        got[token] = measure(board, m["key"], dice)
    if got != expected:
        diff = {k: (expected[k], got[k]) for k in expected if expected[k] != got[k]}
        dice_sets = {()} | {
            tuple(int(x) for x in m["dice"].split(","))
            for k in diff if (m := _KEY.match(k)) and m["dice"]
        }
        detail = "\n\n".join(breakdown(board, d) for d in sorted(dice_sets))
        pytest.fail(f"{name}: expected vs got {diff}\n{detail}")


@pytest.mark.parametrize("name", sorted(COUNTS_BY_BOARD))
def test_neighbour_table_is_symmetric(name: str) -> None:
    board = builtin_board(name)
    for i in range(board.size):
        for s, j in enumerate(board.nb[i]):
            if j >= 0:
                assert board.nb[j][(s + 2) % 4] == i, (i, s, j)
                assert board.seam_side[j][(s + 2) % 4] == board.seam_side[i][s]
