"""The exact minimum repair of a ship, as at the pre-flight inspection (rules digest §5).

`fix` finds the fewest lost components (removed by hand plus fallen off) that leave a ship with no
construction error: an integer program solved by HiGHS (``highspy``, imported only when a ship needs
repair). A tile is kept or not; B1 and E1 tiles go, pairs breaking C1, C2, C3, E2 or K1 exclude
each other, a catalogue tile is kept once (T1), and each hull group's kept tiles stay one piece (a
flow from one root). The conflicts are read from :func:`shipcheck.check.rules.check` itself, so the
program and the checker agree. The pilot cabin stays on boards with a start square (a B2 ship cannot
be fixed), and a tiny bonus for earlier squares makes the answer deterministic. ``keep`` squares
outweigh all other tiles together; ``alternatives`` come from solving again with cuts.

The program in full: docs/architecture.md, "The minimal repair".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from shipcheck.check.rules import FIXABLE, RULES, CheckReport, Layout, Violation, check
from shipcheck.errors import check_type
from shipcheck.model import Ship

CONSTRUCTION = FIXABLE  # B1, C1, C2, C3, E1, E2, K1, S1, T1: the codes removal mends
CREW = frozenset({"A1", "A2", "A3"})
_SINGLE = frozenset({"B1", "E1"})  # a tile breaking one of these can never be kept
_PAIR = frozenset({"C1", "C2", "C3", "E2", "K1"})  # the two squares can never both be kept
_ORDER = {c: k for k, c in enumerate(RULES)}


@dataclass(frozen=True, repr=False)
class FixResult:
    """The minimum repair of a ship; squares are grid indices."""

    ship: Ship
    legal_before: bool
    fixable: bool
    lost: int | None
    removed: tuple[int, ...] = ()
    cut: tuple[int, ...] = ()
    fell_off: tuple[int, ...] = ()
    kept: int = 0
    fixed: Ship | None = None
    crew: tuple[Violation, ...] = ()
    reason: str = ""
    why: dict[int, list[str]] = field(default_factory=dict)
    keep: tuple[int, ...] = ()  # squares asked to be kept
    keep_lost: tuple[int, ...] = ()  # of those, the ones no legal ship keeps
    min_lost: int | None = None  # the fewest lost without preferences (``lost`` when no ``keep``)
    alternatives: tuple[FixResult, ...] = ()  # other repairs as good, each without alternatives

    def __repr__(self) -> str:
        if self.legal_before:
            what = "legal already"
        elif not self.fixable:
            what = "cannot be fixed by removing components"
        else:
            parts = []
            if self.cut:
                parts.append("take off " + " ".join(map(repr, self.cut)))
            if self.fell_off:
                parts.append("falls off " + " ".join(map(repr, self.fell_off)))
            what = f"lose {self.lost}" + (f" ({'; '.join(parts)})" if parts else "")
        return f"<FixResult: {what}, {self.kept} kept>"

    def marks(self) -> dict[int, str]:
        """The squares the repair loses, tagged as ``shipcheck fix`` draws them: ``RM`` taken off,
        ``X`` falls off with it."""
        return {i: "RM" if i in self.cut else "X" for i in self.removed}

    def _repr_html_(self) -> str:
        from html import escape

        from shipcheck.render import render_ship

        lines = [escape(repr(self))]
        if self.reason:
            lines.append(escape(self.reason))
        lines += [escape(f"repair {k}: {a!r}") for k, a in enumerate(self.alternatives, start=2)]
        return (f"<p>{'<br>'.join(lines)}</p><p>before (RM: take off, X: falls off with it):</p>"
                + render_ship(self.ship, marks=self.marks()).html())

    def to_dict(self, path: str | None = None) -> dict[str, Any]:
        """The contract's ``fix --format json`` object."""
        name = self.ship.board.cell_name
        shown = self.fixed if self.fixed is not None else self.ship
        return {
            "ship": path if path is not None else self.ship.source,
            "legal_before": self.legal_before,
            "lost": self.lost,
            "removed": [name(i) for i in self.removed],
            "kept": self.kept,
            "fixable": self.fixable,
            "cut": [name(i) for i in self.cut],
            "fell_off": [name(i) for i in self.fell_off],
            "crew_violations": [v.to_dict(shown) for v in self.crew],
            "why": [{"at": name(i), "codes": self.why.get(i, [])} for i in self.removed],
            "reason": self.reason,
            "keep": [name(i) for i in self.keep],
            "keep_lost": [name(i) for i in self.keep_lost],
            "min_lost": self.min_lost,
            "alternatives": [{"lost": a.lost, "removed": [name(i) for i in a.removed], "kept": a.kept,
                              "cut": [name(i) for i in a.cut], "fell_off": [name(i) for i in a.fell_off]}
                             for a in self.alternatives],
        }


def construction_errors(report: CheckReport) -> list[Violation]:
    """The violations `fix` mends by removal."""
    return [v for v in report.violations if v.code in CONSTRUCTION]


def _pilot_required(ship: Ship) -> int | None:
    """Square of the pilot cabin when the contract makes `fix` keep it (boards with a start square)."""
    pilot = ship.pilot
    if ship.board.start is not None and pilot is not None and pilot.at == ship.board.start:
        return pilot.at
    return None


def square_of(board: Any, value: Any, *, key: str = "keep") -> int:
    """A square as a grid index, from a grid index (int), board labels ``(col, row)`` (grid indices
    ``{"col": i, "row": j}`` on boards that name squares so), or text such as ``"7,8"`` or ``"(7,8)"``."""
    from shipcheck.errors import InputError

    names = {}
    for i in range(board.size):
        n = board.cell_name(i)
        names[(n["col"], n["row"]) if isinstance(n, dict) else tuple(n)] = i
    v = value
    if isinstance(v, str):
        parts = [p.strip() for p in v.strip().strip("()[]{}").replace(";", ",").split(",")]
        named = dict(p.split("=", 1) for p in parts if "=" in p)
        try:
            if named:  # col=..., row=... in either order (read by position, row=5,col=0 swapped them)
                v = (int(named["col"]), int(named["row"])) if set(named) == {"col", "row"} and len(parts) == 2 else None
            else:
                v = tuple(int(p) for p in parts)
        except ValueError:
            v = None
    elif isinstance(v, dict):
        v = (v.get("col"), v.get("row"))
    elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v < board.size:
        return v
    if isinstance(v, (tuple, list)) and tuple(v) in names:
        return names[tuple(v)]
    first = next(i for i in range(board.size) if board.buildable(i))
    example = board.cell_name(first)
    shown = f"col={example['col']},row={example['row']} (grid indices)" if isinstance(example, dict) \
        else f"{example[0]},{example[1]} (the board's labels)"
    raise InputError("not a square of the board", key=key, value=value, expected=f"a square as COL,ROW, e.g. {shown}")


def fix(ship: Ship, *, keep: Any = (), alternatives: int = 0) -> FixResult:
    """The fewest lost components that leave ``ship`` free of construction errors.

    ``keep``: a square or a list of squares (board labels ``(col, row)``, grid indices or text ``"7,8"``;
    a tuple of two numbers is one label) whose tiles the
    repair must not remove when a legal ship keeps them (when none does, it keeps as many as it
    can and lists the rest in ``keep_lost``). ``alternatives``: also find up to this many other
    repairs as good (the same tiles lost in number, the same ``keep`` squares kept).
    """
    from shipcheck.errors import InputError

    check_type(ship, Ship, "ship", "a Ship (see load_ship)")
    if isinstance(keep, (str, int, dict)) or (isinstance(keep, tuple) and len(keep) == 2
                                              and all(type(k) is int for k in keep)):
        keep = [keep]  # one square; a tuple of two numbers is a label, (7, 8), as results print it
    elif not isinstance(keep, Iterable):
        raise InputError("bad squares to keep", key="keep", value=keep,
                         expected="a square or a list of squares, e.g. [(7, 8)] or [\"7,8\"]")
    want = tuple(ship.board.square(i) for i in sorted({square_of(ship.board, k) for k in keep}))
    tiles = ship.by_index
    for i in want:
        if i not in tiles:
            raise InputError("no tile on the square to keep", key="keep", value=ship.board.cell_text(i),
                             expected="a square holding a tile")
    if isinstance(alternatives, bool) or not isinstance(alternatives, int) or alternatives < 0:
        raise InputError("bad number of alternatives", key="alternatives", value=alternatives,
                         expected="a whole number, 0 or more")
    report = check(ship)
    n = len(ship.tiles)
    b2 = [v for v in report.violations if v.code == "B2"]
    if b2:
        return FixResult(ship, legal_before=False, fixable=False, lost=None, kept=n,
                         crew=tuple(v for v in report.violations if v.code in CREW),
                         reason=b2[0].message + "; removing components cannot mend this", keep=want)
    errors = construction_errors(report)
    if not errors:
        return FixResult(ship, legal_before=report.legal, fixable=True, lost=0, kept=n, fixed=ship,
                         crew=tuple(v for v in report.violations if v.code in CREW),
                         reason="no construction error: nothing to remove", keep=want, min_lost=0)

    sets = _solve(ship, report, keep=set(want), count=1 + alternatives)
    min_lost = n - len(_solve(ship, report)[0]) if want else n - len(sets[0])
    results = [_result(ship, report, errors, kept, want, min_lost) for kept in sets]
    return replace(results[0], alternatives=tuple(results[1:]))


def _result(ship: Ship, report: CheckReport, errors: list[Violation], keep: set[int], want: tuple[int, ...],
            min_lost: int) -> FixResult:
    n = len(ship.tiles)
    squares = sorted(t.at for t in ship.tiles)
    lost_sq = tuple(i for i in squares if i not in keep)
    adj = Layout.of(ship).adj
    cut = tuple(i for i in lost_sq if any(j in keep for j in adj[i]))
    fell = tuple(i for i in lost_sq if i not in cut)
    why: dict[int, set[str]] = {}
    for v in errors:
        for c in v.cells:
            why.setdefault(c, set()).add(v.code)
    fixed = ship.without(set(lost_sq))
    after = check(fixed)
    left = construction_errors(after)
    if left:  # the program and the checker disagree: a bug, never a user error
        raise RuntimeError(f"fix left construction errors: {[(v.code, v.cells) for v in left]}")
    keep_lost = tuple(i for i in want if i in lost_sq)
    reason = f"{len(cut)} removed, {len(fell)} fell off"
    if keep_lost:
        reason += "; no legal ship keeps " + ", ".join(ship.board.cell_text(i) for i in keep_lost)
    if len(lost_sq) > min_lost:
        reason += f"; keeping the squares asked for costs {len(lost_sq) - min_lost} more than the minimum"
    return FixResult(
        ship, legal_before=report.legal, fixable=True, lost=len(lost_sq), removed=lost_sq, cut=cut,
        fell_off=fell, kept=n - len(lost_sq), fixed=fixed,
        crew=tuple(v for v in after.violations if v.code in CREW),
        reason=reason,
        why={i: sorted(why.get(i, ()), key=_ORDER.__getitem__) for i in lost_sq},
        keep=want, keep_lost=keep_lost, min_lost=min_lost,
    )


def _solve(ship: Ship, report: CheckReport, *, keep: set[int] = frozenset(),  # type: ignore[assignment]
           count: int = 1) -> list[set[int]]:
    """Squares of up to ``count`` optimal kept sets (the integer program of the module docstring),
    the best first; ``keep`` squares weigh more than all the other tiles together."""
    tiles = ship.by_index
    hulls = ship.board.hulls(ship.dice)
    banned = {c for v in report.violations if v.code in _SINGLE for c in v.cells}
    # a tile on no hull is B1 already; banning it here keeps every candidate in a group
    banned |= {i for i in tiles if hulls[i] is None}
    cands = sorted(i for i in tiles if i not in banned)
    pos = {sq: k for k, sq in enumerate(cands)}
    n = len(cands)
    if n == 0:
        return [set()]
    root_sq = _pilot_required(ship)
    root = pos.get(root_sq) if root_sq is not None else None

    pairs = set()
    for viol in report.violations:
        if viol.code in _PAIR:
            a, b = viol.cells
            if a in pos and b in pos:
                pairs.add((min(pos[a], pos[b]), max(pos[a], pos[b])))
    # joins and pieces among the candidates only: the checker's own layout of that subset
    sub = Layout.of(ship, {sq: tiles[sq] for sq in cands})
    nbrs = {pos[sq]: {pos[j] for j in sub.adj[sq]} for sq in cands}
    comp_of = [0] * n
    for label, piece in enumerate(sub.pieces()):
        for sq in piece:
            comp_of[pos[sq]] = label
    groups: dict[int, list[int]] = {}
    for k, sq in enumerate(cands):
        groups.setdefault(hulls[sq], []).append(k)  # type: ignore[arg-type]

    p = _Program(n)
    if root is not None:
        p.lo[root] = 1.0  # the pilot cabin stays (contract)
    for a, b in sorted(pairs):
        p.row([(a, 1.0), (b, 1.0)], -INF, 1.0)
    for viol in report.violations:  # T1: one copy of a catalogue tile at most (none if one is set aside)
        if viol.code == "T1":
            aside = any(a.id == tiles[viol.cells[0]].id for a in ship.aside)
            group = [(pos[c], 1.0) for c in viol.cells if c in pos]
            if group:
                p.row(group, -INF, 0.0 if aside else 1.0)
    for _h, members in sorted(groups.items()):
        if len(members) >= 2:
            _connect(p, members, root, nbrs, comp_of)

    # maximise kept tiles (the keep squares first); a tiny bonus (summing below 1/4) keeps earlier
    # squares on ties
    cost = [0.0] * p.nvar
    pref = [k for k in range(n) if cands[k] in keep]
    for k in range(n):
        cost[k] = -(1.0 + (n - k) / (2.0 * n * (n + 1)) + (n + 1.0 if cands[k] in keep else 0.0))
    out: list[set[int]] = []
    x = p.solve(cost)
    while True:
        chosen = [k for k in range(n) if x[k] > 0.5]
        out.append({cands[k] for k in chosen})
        if len(out) >= count:
            return out
        if len(out) == 1:  # the others keep as many tiles, and as many keep squares
            p.row([(k, 1.0) for k in range(n)], len(chosen), len(chosen))
            if pref:
                kept_pref = sum(1 for k in chosen if k in pref)
                p.row([(k, 1.0) for k in pref], kept_pref, kept_pref)
        # a cut excluding this kept set: it differs in at least one tile
        inside = set(chosen)
        p.row([(k, 1.0 if k in inside else -1.0) for k in range(n)], -INF, len(inside) - 1.0)
        try:
            x = p.solve(cost)
        except _Infeasible:
            return out


INF = float("inf")


class _Infeasible(Exception):
    """The program has no solution (only once cuts exclude every optimal kept set)."""


@cache
def _quiet_highs_class() -> Any:
    """``highspy.Highs`` turning its output off before it can print.

    ``Highs()`` writes HiGHS's banner to the C stdout when its constructor registers the solver's
    callbacks (``enableCallbacks``), before a caller could turn ``output_flag`` off; the subclass
    turns it off just before that registration, through the public option.
    """
    import highspy

    class QuietHighs(highspy.Highs):  # type: ignore[misc]
        def enableCallbacks(self) -> None:
            self.setOptionValue("output_flag", False)
            super().enableCallbacks()

    return QuietHighs


def _quiet_highs() -> Any:
    """A silent HiGHS solver (``output_flag`` off from its construction on)."""
    h = _quiet_highs_class()()
    h.setOptionValue("output_flag", False)  # also where a later highspy registers no callbacks
    return h


class _Program:
    """Variables (the first ``n`` are the binaries x) and sparse rows of a MILP being built."""

    def __init__(self, n: int) -> None:
        self.nvar = n
        self.lo = [0.0] * n
        self.hi = [1.0] * n
        self.integ = [1] * n
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.vals: list[float] = []
        self.rlo: list[float] = []
        self.rhi: list[float] = []

    def var(self, lb: float, ub: float, integer: bool = False) -> int:
        self.lo.append(lb)
        self.hi.append(ub)
        self.integ.append(1 if integer else 0)
        self.nvar += 1
        return self.nvar - 1

    def row(self, terms: list[tuple[int, float]], lb: float, ub: float) -> None:
        r = len(self.rlo)
        for col, a in terms:
            self.rows.append(r)
            self.cols.append(col)
            self.vals.append(a)
        self.rlo.append(lb)
        self.rhi.append(ub)

    def solve(self, cost: list[float]) -> list[float]:
        """Minimise ``cost @ x`` to proven optimality (no gap); the values of all variables."""
        import highspy

        h = _quiet_highs()
        h.setOptionValue("mip_rel_gap", 0.0)
        lp = highspy.HighsLp()
        lp.num_col_ = self.nvar
        lp.num_row_ = len(self.rlo)
        lp.col_cost_ = cost
        lp.col_lower_ = self.lo
        lp.col_upper_ = self.hi
        lp.row_lower_ = self.rlo
        lp.row_upper_ = self.rhi
        start = [0] * (len(self.rlo) + 1)
        for r in self.rows:  # rows are added in order: entries of row r are contiguous
            start[r + 1] += 1
        for r in range(len(self.rlo)):
            start[r + 1] += start[r]
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.num_col_ = self.nvar
        lp.a_matrix_.num_row_ = len(self.rlo)
        lp.a_matrix_.start_ = start
        lp.a_matrix_.index_ = self.cols
        lp.a_matrix_.value_ = self.vals
        integer, continuous = highspy.HighsVarType.kInteger, highspy.HighsVarType.kContinuous
        lp.integrality_ = [integer if i else continuous for i in self.integ]
        h.passModel(lp)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            raise _Infeasible
        if status != highspy.HighsModelStatus.kOptimal:
            raise RuntimeError(f"the repair program was not solved: {h.modelStatusToString(status)}")
        return list(h.getSolution().col_value)


def _connect(p: _Program, members: list[int], root: int | None, nbrs: dict[int, set[int]],
             comp_of: list[int]) -> None:
    """Rows keeping the kept tiles among ``members`` (one hull group) in one piece.

    A flow from one root sends a unit to every kept member over arcs between kept tiles; tiles of
    other groups may relay it. The root is the pilot cabin when it is in the group, else the first
    kept member. The component and degree rows are implied by the flow for integer x; they only
    tighten the relaxation, which makes HiGHS much faster on messy ships without a pilot.
    """
    big = float(len(members))
    member = set(members)
    fixed = root is not None and root in member
    comps = {comp_of[m] for m in members}
    nodes = [k for k in range(len(comp_of)) if comp_of[k] in comps]
    arcs = [(u, v) for u in nodes for v in sorted(nbrs[u])]
    flow = [p.var(0.0, big) for _ in arcs]
    for f, (u, v) in zip(flow, arcs, strict=True):
        p.row([(f, 1.0), (u, -big)], -INF, 0.0)
        p.row([(f, 1.0), (v, -big)], -INF, 0.0)
    inject: dict[int, int] = {}
    ys: dict[int, int] = {}
    if fixed:
        inject[root] = p.var(0.0, big)  # type: ignore[index]
    else:
        # root = first kept member: y is then fixed by x, so it needs no integrality, and the
        # solver does not branch over equivalent choices of root
        for k, m in enumerate(members):
            ys[m] = p.var(0.0, 1.0)
            inject[m] = p.var(0.0, big)
            p.row([(ys[m], 1.0), (m, -1.0)], -INF, 0.0)
            p.row([(inject[m], 1.0), (ys[m], -big)], -INF, 0.0)
            p.row([(ys[m], 1.0), (m, -1.0)] + [(u, 1.0) for u in members[:k]], 0.0, INF)
        p.row([(y, 1.0) for y in ys.values()], -INF, 1.0)
        for m in members:
            p.row([(y, 1.0) for y in ys.values()] + [(m, -1.0)], 0.0, INF)
    # all kept members in one component of the join graph
    if len(comps) > 1:
        z = {cc: p.var(0.0, 1.0, True) for cc in sorted(comps)}
        p.row([(zz, 1.0) for zz in z.values()], -INF, 1.0)
        for m in members:
            p.row([(m, 1.0), (z[comp_of[m]], -1.0)], -INF, 0.0)
    # a kept member other than the root has a kept joined neighbour
    for m in members:
        if fixed and m == root:
            continue
        terms = [(m, 1.0)] + [(u, -1.0) for u in sorted(nbrs[m])]
        if not fixed:
            terms.append((ys[m], -1.0))
        p.row(terms, -INF, 0.0)
    # conservation: inflow - outflow + injection = one unit for each kept member
    terms_at: dict[int, list[tuple[int, float]]] = {k: [] for k in nodes}
    for f, (u, v) in zip(flow, arcs, strict=True):
        terms_at[v].append((f, 1.0))
        terms_at[u].append((f, -1.0))
    for k in nodes:
        t = terms_at[k]
        if k in inject:
            t.append((inject[k], 1.0))
        if k in member:
            t.append((k, -1.0))
        if t:
            p.row(t, 0.0, 0.0)
