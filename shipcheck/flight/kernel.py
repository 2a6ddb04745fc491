"""The exact engine's driver: flight states packed into ints, transitions worked out by the engine.

A :class:`Kernel` is built once per :class:`~shipcheck.flight.chain.FlightModel` (``model.kernel``). It
packs a state ``(mask, charges, crew)`` into one int (the layout of :mod:`shipcheck.engine.exact`:
the mask in the low bits, then a field per battery and 3 bits per crew slot, in words of 63 bits),
so states hash as ints and the compiled pass (:func:`shipcheck.engine.exact.forward`) takes them as
words. Every rule is the engine's (:mod:`shipcheck.engine`). The kernel memoises: per attack kind
and side, a state's rolls are grouped by their *effect* (which tiles they would damage from which
side) before anything is played, and a state's transitions are kept.

The engine's functions run compiled where the compiled engine is loaded in the process, as plain
Python otherwise: the same rules either way (docs/architecture.md, "Compiled or plain Python"). The
flight model has no cards, so no Techie's free charge (:mod:`shipcheck.round.cardodds` counts him).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from shipcheck import runtime

if TYPE_CHECKING:
    import numpy as np

    from shipcheck.cards import Attack
    from shipcheck.model import Ship, Tile

SMALL, LARGE, LIGHT, HEAVY = "small-meteor", "large-meteor", "light-shot", "heavy-shot"
#: a state's crew entry for a tile holding an alien (its colour is the tile's ``crew``). Not 1: a cabin
#: an alien left may take woken sleepers, and one woken human must not read as an alien
ALIEN = -1
CREW_BITS = 3
CREW_FIELD = (1 << CREW_BITS) - 1  # encodes ALIEN (-1); humans and sleepers 0..6 as themselves
WORD_BITS = 63

Effect = tuple[int, tuple[tuple[int, int], ...]]  # board side, ((line, tile hit), ...) of damaging hits
State = tuple[int, tuple[int, ...], tuple[int, ...] | None]  # (tiles aboard, charges per battery, crew)


class Model(Protocol):
    """What a kernel reads of its flight model (:class:`~shipcheck.flight.chain.FlightModel`, which
    builds it: the kernel imports nothing above it)."""

    ship: Ship
    n: int
    full: int
    tiles: tuple[Tile, ...]
    batteries: tuple[int, ...]
    battery_range: tuple[int, ...]
    cabins: tuple[int, ...]
    stasis: tuple[int, ...]
    supports: dict[int, int]  # per alien: its life supports, a bit each
    adj: tuple[int, ...]
    group: tuple[int, ...]
    multi_hull: bool
    track_crew: bool
    dynamic_crew: bool

    def initial(self) -> State: ...


@dataclass(frozen=True)
class Outcome:
    """A group of dice results that send the attack down the same lines from the same side."""

    prob: Fraction
    side: int  # board side the attack comes from
    direction: str  # ship-relative side after any redirection
    value: int  # the roll that picked the line(s)
    lines: tuple[int, ...]  # grid lines hit (columns from N/S, rows from E/W), in grid order

    def describe(self, board: Any) -> str:
        if not self.lines:
            return f"roll {self.value} from the {self.direction}: miss"
        kind = "column" if self.side in (0, 2) else "row"
        if board.index_cells:
            lines = ", ".join(f"{kind} {j} (0-based)" for j in self.lines)
        else:
            labels = board.columns if self.side in (0, 2) else board.rows
            lines = ", ".join(f"{kind} {labels[j][0]}" for j in self.lines)
        return f"roll {self.value} from the {self.direction}: {lines}"


@dataclass(frozen=True)
class Decision:
    """What the player does against one roll.

    ``shield``: activate a shield (1 charge) for every line; ``boosted``: a boosted shield (2 charges)
    for every line no cannon stops; ``cannons``: per line, the tile fired at it or -1;
    ``draws``: the batteries (indices into :attr:`FlightModel.batteries`) each charge comes from.
    """

    shield: bool = False
    boosted: bool = False
    cannons: tuple[int, ...] = ()
    draws: tuple[int, ...] = ()


class Live(NamedTuple):
    """An attack as the forward pass reads it (:meth:`Kernel.live`)."""

    kind: str  # the attack's kind (Attack.kind formats a string at each call)
    outs: tuple[tuple[int, int, int, tuple[int, ...]], ...]  # Kernel.outcomes
    seen: dict[int, tuple[tuple[Any, int], ...]]  # Kernel.effects by mask
    memo: dict[int, tuple[tuple[int, int], ...]]  # Kernel.transitions by packed state


def bits(x: int) -> list[int]:
    """The indices of the set bits of ``x``, lowest first."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


#: (module, name, plain) -> the engine's function (:meth:`Kernel._fn`)
_FUNCTIONS: dict[tuple[str, str, bool], Any] = {}


def _defence(name: str) -> Any:
    """A name of the engine's defence rules (:mod:`shipcheck.engine.defence`), from its plain copy:
    no numba started for a table of a few entries."""
    from shipcheck import engine

    return engine.function("defence", name, plain=True)


class Means(NamedTuple):
    """The means of defence a roll of one kind offers to choose (:func:`offers`)."""

    shield: bool
    boosted: bool
    cannon: bool


@cache
def offers(kind: str) -> Means:
    """The means of defence a roll of ``kind`` (``"large-meteor"``, ...) offers to choose: the
    engine's rule (:func:`shipcheck.engine.defence.offers`), asked once per process of its plain
    copy (no numba started), for the optimal policy's search, a policy's view of a roll and the
    grouping of rolls (the bearing tolerance matters only where a cannon is offered)."""
    from shipcheck.engine.layout import KINDS

    fn = _defence("offers")
    k = KINDS.index(kind)
    return Means(*(bool(fn(k, _defence(m))) for m in ("SHIELD", "BOOSTED", "CANNON")))


@cache
def cost(means: str, free: bool = False) -> int:
    """The charges ``means`` of defence (``"shield"``, ``"boosted"``, ``"cannon"``: one that fires
    ``free`` or not) costs: the engine's rule (:func:`shipcheck.engine.defence.cost`)."""
    return int(_defence("cost")(_defence(means.upper()), bool(free)))


class Kernel:
    """Packed states and memoised transitions for one flight model, the rules the engine's."""

    def __init__(self, m: Model) -> None:
        from shipcheck.engine.layout import OFFS, SPEC, Description, SoloRules, V, geometry, ship_tables

        self.m = m
        self.warming = False  # compiled functions while the compiled exact engine is first loaded
        n = m.n
        self.n = n
        self.full = m.full
        self.desc = Description(m.ship, m)
        S = ship_tables([self.desc], SoloRules("adjacent"))
        S[0, V, SPEC] = -1  # the flight model has no cards: no Techie's free charge
        self.S = S
        # -- packing: fields within 63-bit words ----------------------------------------------------
        at = n
        self.btile = list(m.batteries)
        self.boff: list[int] = []
        self.bfield: list[int] = []
        spec = []
        for k in m.batteries:
            t = m.tiles[k]
            width = max(1, max(t.capacity, t.charges).bit_length())
            if at % WORD_BITS + width > WORD_BITS:
                at += WORD_BITS - at % WORD_BITS
            self.boff.append(at)
            self.bfield.append(((1 << width) - 1) << at)
            spec += [at // WORD_BITS, at % WORD_BITS, width]
            at += width
        self.charge_mask = sum(self.bfield)
        self.crew_slots = tuple(sorted({*m.cabins, *m.stasis, *m.supports}))
        self.coff: dict[int, int] = {}
        for k in self.crew_slots:
            if at % WORD_BITS + CREW_BITS > WORD_BITS:
                at += WORD_BITS - at % WORD_BITS
            self.coff[k] = at
            spec += [k, at // WORD_BITS, at % WORD_BITS]
            at += CREW_BITS
        self.words = max(1, -(-at // WORD_BITS))
        self.spec_list = [self.words, len(self.btile), len(self.crew_slots), *spec]
        self.bat_tiles = sum(1 << k for k in self.btile)
        # -- description the optimal policy reads ---------------------------------------------------
        g = geometry(m)
        self.geometry = g
        self.cover = g.cover
        self.booster_mask = g.booster_mask
        self.boostable = g.boostable
        self.adj = m.adj
        self.multi = m.multi_hull
        self.group = m.group
        groups = sorted(set(m.group))
        self.group_mask = {h: sum(1 << k for k in range(n) if m.group[k] == h) for h in groups}
        if self.multi:
            # batteries allowed to pay, per hull (None: any hull, on one-hull ships)
            self.pay: dict[int | None, tuple[int, ...]] = {
                h: tuple(i for i, k in enumerate(m.batteries) if m.group[k] == h) for h in groups}
            self.pay[None] = ()
        else:
            self.pay = {None: m.battery_range}
        self._p0 = self.pack(self.launch())
        # -- memos ----------------------------------------------------------------------------------
        self._live: dict[tuple[str, str], Live] = {}
        self._each: dict[tuple[str, str], dict[int, tuple[int, ...]]] = {}
        self._eff: dict[tuple[int, str, int, tuple[int, ...]], Any] = {}
        self._play: dict[tuple[int, Any, int], int] = {}
        self._open: dict[tuple[Any, ...], int] = {}
        self._destroy: dict[tuple[int, int], int] = {}
        self._humans: dict[int, int] = {}
        self._modes: dict[bool, _Mode] = {}
        self._lost: dict[int, int] = {}
        self._lost_tiles: dict[int, int] = {}
        self._attack_codes: dict[tuple[Attack, ...], tuple[np.ndarray, np.ndarray]] = {}
        # what the count of humans reads: the tiles aboard and the crew fields of the cabins
        self._cabin_fields = tuple((k, self.coff[k]) for k in self.desc.cabins if k in self.coff)
        self._cabin_bits = sum((1 << k) | CREW_FIELD << off for k, off in self._cabin_fields)
        self._ocr = int(S[0, OFFS, 1])

    # -- the engine's functions, compiled where loaded, else plain ---------------------------------
    @cached_property
    def spec(self) -> np.ndarray:
        import numpy as np

        return np.asarray(self.spec_list, dtype=np.int64)

    def _m(self) -> _Mode:
        """The engine's functions and their arrays: compiled where the compiled engine is loaded in
        the process (or being loaded), else plain Python on arrays of Python ints (numpy's int64
        scalars, read one by one, cost plain Python more than the rules' own work)."""
        plain = not (runtime.state.loaded or self.warming)
        hit = self._modes.get(plain)
        if hit is None:
            import numpy as np

            from shipcheck.engine.layout import OFFS, TMP

            dtype = object if plain else np.int64
            width = int(self.S[0, OFFS, 3])
            hit = self._modes[plain] = _Mode(
                self.S.astype(dtype), np.asarray(self.spec_list, dtype=dtype),
                tuple(np.zeros(n, dtype=dtype) for n in (self.words, self.words, width, 64, TMP)),  # type: ignore[arg-type]
                plain)
        return hit

    def to_words(self, p: int, out: np.ndarray) -> np.ndarray:
        for j in range(self.words):
            out[j] = p >> (WORD_BITS * j) & ((1 << WORD_BITS) - 1)
        return out

    def from_words(self, w: Sequence[int] | np.ndarray) -> int:
        p = 0
        for j, v in enumerate(w):
            p |= int(v) << (WORD_BITS * j)
        return p

    # -- packing ---------------------------------------------------------------------------------
    def launch(self) -> State:
        """The launch state with its crew written out (the flight model leaves it implied when it
        follows from the tiles aboard)."""
        from shipcheck.model import ALIENS

        mask, charges, crew = self.m.initial()
        if crew is None:
            crew = tuple(ALIEN if t.crew in ALIENS else t.humans + t.sleepers for t in self.m.tiles)
        return (mask, charges, crew)

    def initial(self) -> int:
        """:meth:`FlightModel.initial <shipcheck.flight.chain.FlightModel.initial>`, packed."""
        return self._p0

    def pack(self, st: State) -> int:
        mask, charges, crew = st
        p = mask
        for off, c in zip(self.boff, charges):
            p |= c << off
        if crew is None:
            launch = self.launch()[2]
            assert launch is not None
            crew = tuple(c if mask >> k & 1 else 0 for k, c in enumerate(launch))
        for k, off in self.coff.items():
            c = crew[k]
            p |= (CREW_FIELD if c < 0 else c) << off
        return p

    def unpack(self, p: int) -> State:
        """The state of a packed key, with the crew written out only where the flight model tracks it
        (where it does not, it follows from the tiles aboard: ``None``)."""
        mask = p & self.full
        charges = tuple((p & f) >> off for off, f in zip(self.boff, self.bfield))
        crew = self.crew_of(p) if (self.m.track_crew or self.m.dynamic_crew) else None
        return (mask, charges, crew)

    def crew_of(self, p: int) -> tuple[int, ...]:
        crew = [0] * self.n
        for k, off in self.coff.items():
            c = p >> off & CREW_FIELD
            crew[k] = -1 if c == CREW_FIELD else c
        return tuple(crew)

    def humans(self, p: int) -> int:
        """Awake humans aboard: the engine's count (:func:`shipcheck.engine.crew.humans`) on the
        state's row, kept per cabins aboard and their crew."""
        key = p & self._cabin_bits
        hit = self._humans.get(key)
        if hit is None:
            m = self._m()
            hit = self._humans[key] = int(m.fn("crew", "humans")(m.S, 0, self._cabin_row(key), -1))
        return hit

    def surviving_rows(self, keys: np.ndarray, weights: np.ndarray) -> int:
        """:meth:`surviving` of a distribution as the compiled pass leaves it (:meth:`forward_arrays`):
        the rows grouped by their cabins and crew with numpy, :meth:`humans` asked once a group."""
        import numpy as np

        word = (1 << WORD_BITS) - 1
        cabins = np.array([self._cabin_bits >> WORD_BITS * j & word for j in range(self.words)], dtype=np.int64)
        crew = keys & cabins
        order = np.lexsort(crew.T[::-1])
        crew, weights = crew[order], weights[order]
        starts = np.flatnonzero(np.concatenate(([True], (crew[1:] != crew[:-1]).any(axis=1))))
        sums = np.add.reduceat(weights, starts)
        return sum(int(w) for r, w in zip(crew[starts].tolist(), sums.tolist()) if self.humans(self.from_words(r)) > 0)

    def surviving(self, weights: dict[int, int]) -> int:
        """The weight of the states of ``weights`` (packed state -> weight) with an awake human aboard
        (:meth:`humans`), asked once per cabins aboard and their crew."""
        by = _grouped(weights, self._cabin_bits)
        return sum(w for key, w in by.items() if self.humans(key) > 0)

    def lost_weight(self, weights: dict[int, int]) -> int:
        """The sum of weight x components lost (:meth:`lost`) over ``weights`` (packed state ->
        weight): the engine's rule once per tiles aboard, on them all at once (an optimal search
        asks it of tens of thousands)."""
        import numpy as np

        by = _grouped(weights, self.full)
        lost = self.lost_tiles_of(np.fromiter(by, dtype=np.int64, count=len(by))).tolist()
        return sum(t.bit_count() * w for t, w in zip(lost, by.values()))

    def crew_count(self, p: int) -> int:
        """Crew: awake humans and aliens, the engine's count (:func:`shipcheck.engine.crew.crew_count`)."""
        m = self._m()
        return int(m.fn("crew", "crew_count")(m.S, 0, self._cabin_row(p & self._cabin_bits)))

    def _cabin_row(self, key: int) -> np.ndarray:
        """The state's row as the crew counts read it: the cabins aboard and their crew."""
        m = self._m()
        x = m.scratch[2]
        x[:] = 0
        x[0] = key & self.full
        ocr = self._ocr
        for k, off in self._cabin_fields:
            c = key >> off & CREW_FIELD
            x[ocr + k] = ALIEN if c == CREW_FIELD else c
        return x

    def lost(self, p: int) -> int:
        """Components lost: the engine's count (:func:`shipcheck.engine.hull.lost`; a flight state
        has no half that left the flight or waits in hyperspace), kept per tiles aboard."""
        mask = p & self.full
        hit = self._lost.get(mask)
        if hit is None:
            m = self._m()
            hit = self._lost[mask] = int(m.fn("hull", "lost_words")(m.S, 0, mask, 0, 0))
        return hit

    def lost_tiles(self, p: int) -> int:
        """The components lost, a bit per tile: the engine's (:func:`shipcheck.engine.hull.lost_tiles`),
        kept per tiles aboard."""
        mask = p & self.full
        hit = self._lost_tiles.get(mask)
        if hit is None:
            m = self._m()
            hit = self._lost_tiles[mask] = int(m.fn("hull", "lost_tiles")(m.S, 0, mask, 0, 0))
        return hit

    def lost_tiles_of(self, masks: np.ndarray) -> np.ndarray:
        """:meth:`lost_tiles` of an array of masks at once (the engine's rule, plain, on the array)."""
        return _function("hull", "lost_tiles", True)(self.S, 0, masks, 0, 0)  # type: ignore[no-any-return]

    # -- dice ------------------------------------------------------------------------------------
    def outcomes(self, attack: Attack) -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
        """Per outcome of ``attack``: (weight out of 36, board side, bearing tolerance, lines)."""
        from shipcheck.engine.layout import outcome_table

        return outcome_table(self.m, attack)

    def _situation(self, mask: int, kind: str, side: int, lines: tuple[int, ...]) -> Any:
        """The engine's situation of an attack down ``lines`` from ``side`` on ship ``mask``:
        (damaging hits ((line, tile), ...), defending hull or None, shields, boosted shield)."""
        key = (mask, kind, side, lines)
        hit = self._eff.get(key)
        if hit is None:
            m = self._m()
            from shipcheck.engine import layout as L

            _, _, x, _, tmp = m.scratch
            x[:] = 0
            x[0] = mask
            m.fn("defence", "situation_lines")(
                m.S, 0, x, L.KINDS.index(kind), side, 0, len(lines), lines[0] if lines else 0,
                lines[1] if len(lines) > 1 else -1, tmp)
            hits = tuple((int(tmp[L.SIT + L.SIT_LINE + i]), int(tmp[L.SIT + L.SIT_HIT + i]))
                         for i in range(len(lines)) if tmp[L.SIT + L.SIT_NEED + i])
            h = int(tmp[L.SIT + L.SIT_HULL])
            hull = sorted(set(self.group))[h] if self.multi and h >= 0 else None
            hit = self._eff[key] = (hits, hull, int(tmp[L.SIT + L.SIT_SHIELDS]), bool(tmp[L.SIT + L.SIT_BOOSTED]))
        return hit

    def effect(self, mask: int, kind: str, side: int, lines: tuple[int, ...]) -> Effect | None:
        """What a roll would damage if undefended, or None when it does nothing."""
        hits = self._situation(mask, kind, side, lines)[0]
        return (side, hits) if hits else None

    def bearing(self, side: int, tol: int, line: int) -> tuple[tuple[int, bool], ...]:
        return self.geometry.bearing(side, tol, line)

    def defence(self, mask: int, kind: str, eff: Effect) -> tuple[int | None, int, bool]:
        """Against ``eff`` (an attack of ``kind``): the hull that defends (None on a one-hull ship,
        or when the hits are in two hulls), the shields aboard covering its side, and whether one
        of them is boosted (the engine's situation)."""
        side, hits = eff
        _, hull, shields, boosted = self._situation(mask, kind, side, tuple(line for line, _ in hits))
        return hull, shields, boosted

    # -- transitions ----------------------------------------------------------------------------
    def live(self, attack: Attack) -> Live:
        key = (attack.kind, attack.side)
        hit = self._live.get(key)
        if hit is None:
            hit = self._live[key] = Live(attack.kind, self.outcomes(attack), {}, {})
        return hit

    def memo(self, attack: Attack) -> dict[int, tuple[tuple[int, int], ...]]:
        """The memo of :meth:`transitions` for ``attack``: packed state -> its next states."""
        return self.live(attack).memo

    def transitions(self, p: int, attack: Attack) -> tuple[tuple[int, int], ...]:
        """The next states of packed state ``p`` under the default policy, with weights out of 36."""
        live = self.live(attack)
        hit = live.memo.get(p)
        if hit is None:
            hit = live.memo[p] = self.expand(p, live.kind, live)
        return hit

    def expand(self, p: int, kind: str, live: Live) -> tuple[tuple[int, int], ...]:
        """:meth:`transitions` without the memo: group the rolls by effect, play each effect once."""
        nxt: dict[int, int] = {}
        for g, w in self.effects(p & self.full, live):
            q = p if g is None else self.play(p, kind, g[0], g[1])
            nxt[q] = nxt.get(q, 0) + w
        return tuple(nxt.items())

    def effects(self, mask: int, live: Live, *, memo: bool = True) -> tuple[tuple[Any, int], ...]:
        """The rolls of an attack grouped by effect on ship ``mask``: (((side, hits), tolerance) or
        None for no damage, total weight), memoised by mask (states that differ in charges share it)."""
        hit = live.seen.get(mask)
        if hit is not None:
            return hit
        large = offers(live.kind).cannon  # the bearing tolerance matters only to cannons
        groups: dict[Any, int] = {}
        none = 0
        for w, side, tol, lines in live.outs:
            eff = self.effect(mask, live.kind, side, lines) if lines else None
            if eff is None:
                none += w
                continue
            g = (eff, tol if large else 0)
            groups[g] = groups.get(g, 0) + w
        if none:
            groups[None] = none
        hit = tuple(groups.items())
        if memo:
            live.seen[mask] = hit
        return hit

    def each(self, p: int, attack: Attack) -> tuple[int, ...]:
        """The next packed state for each outcome index of ``attack`` (default policy)."""
        key = (attack.kind, attack.side)
        memo = self._each.get(key)
        if memo is None:
            memo = self._each[key] = {}
        hit = memo.get(p)
        if hit is not None:
            return hit
        kind = attack.kind
        mask = p & self.full
        large = offers(kind).cannon
        out = []
        for _, side, tol, lines in self.outcomes(attack):
            eff = self.effect(mask, kind, side, lines) if lines else None
            out.append(p if eff is None else self.play(p, kind, eff, tol if large else 0))
        res = memo[p] = tuple(out)
        return res

    def play(self, p: int, kind: str, eff: Effect, tol: int) -> int:
        """Contract §4's decision against a damaging roll (the engine's default policy), applied to
        packed state ``p``: the next packed state."""
        key = (p, (kind, eff), tol)
        hit = self._play.get(key)
        if hit is None:
            m = self._m()
            from shipcheck.engine.layout import KINDS

            a, b, x, buf, tmp = m.scratch
            side, hits = eff
            lines = [line for line, _ in hits]
            m.fn("exact", "play_lines")(m.S, m.spec, self.to_words(p, a), KINDS.index(kind), side, tol,
                                        len(lines), lines[0], lines[1] if len(lines) > 1 else -1, b, x, buf, tmp)
            hit = self._play[key] = self.from_words(b)
        return hit

    def left_open(self, p: int, kind: str, eff: Effect, tol: int, shield: bool, boosted: bool,
                  cannons: tuple[int, ...]) -> int:
        """The tiles (a bit each) a decision against a damaging roll leaves to be destroyed on packed
        state ``p`` (``cannons``: per line of ``eff``, the tile fired or -1): the engine's own rule
        of what each defence stops (:func:`shipcheck.engine.defence.left_open`), so a policy that
        weighs decisions (``optimal``) weighs them by the one home of the rule. It depends on the
        tiles aboard only, and is kept per those."""
        key = (p & self.full, kind, eff, tol, shield, boosted, cannons)
        hit = self._open.get(key)
        if hit is None:
            m = self._m()
            from shipcheck.engine.layout import KINDS

            a, _, x, _, tmp = m.scratch
            side, hits = eff
            lines = [line for line, _ in hits]
            write_decision(_Choice(shield, boosted, cannons, ()), len(lines), tmp)
            hit = self._open[key] = int(m.fn("exact", "left_open_key")(
                m.S, m.spec, self.to_words(p, a), KINDS.index(kind), side, tol, len(lines), lines[0],
                lines[1] if len(lines) > 1 else -1, x, tmp))
        return hit

    def destroy(self, p: int, destroyed: int, *, memo: bool = True) -> int:
        """Packed state ``p`` after the tiles in ``destroyed`` are destroyed (splits, crew, waking);
        kept for the next call unless ``memo`` is false."""
        key = (p, destroyed)
        hit = self._destroy.get(key)
        if hit is None:
            m = self._m()
            a, b, x, buf, _ = m.scratch
            m.fn("exact", "destroy_key")(m.S, m.spec, self.to_words(p, a), destroyed, b, x, buf)
            hit = self.from_words(b)
            if memo:
                self._destroy[key] = hit
        return hit

    def wake(self, mask: int, crew: tuple[int, ...]) -> tuple[int, ...]:
        """The crew once sleepers wake after a crew loss (:func:`shipcheck.engine.crew.wake`)."""
        m = self._m()
        a, b, x, _, _ = m.scratch
        p = self.pack((mask, (0,) * len(self.btile), crew))
        m.fn("exact", "wake_key")(m.S, m.spec, self.to_words(p, a), b, x)
        return self.crew_of(self.from_words(b))

    # -- a policy's decision, and the compiled pass ------------------------------------------------
    def situation(self, st: State, kind: str, o: Outcome) -> tuple[Any, ...]:
        """The engine's situation of outcome ``o`` of an attack of ``kind`` on state ``st``, as the
        fields of a :class:`~shipcheck.flight.chain.Situation` after (state, attack index, kind, outcome):
        hits, needs, shields, boosted, bearing, hull."""
        m = self._m()
        from shipcheck.engine import layout as L

        a, _, x, _, tmp = m.scratch
        tol = L.tolerance(o.direction)
        lines = o.lines
        m.fn("exact", "situation_of")(m.S, m.spec, self.to_words(self.pack(st), a), L.KINDS.index(kind),
                                      o.side, tol, len(lines), lines[0] if lines else 0,
                                      lines[1] if len(lines) > 1 else -1, x, tmp)
        nl = len(lines)
        hits = tuple(int(tmp[L.SIT + L.SIT_HIT + i]) for i in range(nl))
        needs = tuple(bool(tmp[L.SIT + L.SIT_NEED + i]) for i in range(nl))
        mask = st[0]
        bearing: list[tuple[int, ...]] = []
        cannon = offers(kind).cannon
        for i, line in enumerate(lines):
            if not cannon or hits[i] < 0:
                bearing.append(())
            else:
                bearing.append(tuple(c for c, _ in self.bearing(o.side, tol, line) if mask >> c & 1))
        h = int(tmp[L.SIT + L.SIT_HULL])
        hull = sorted(set(self.group))[h] if self.multi and h >= 0 else None
        return (hits, needs, bool(tmp[L.SIT + L.SIT_SHIELDS]), bool(tmp[L.SIT + L.SIT_BOOSTED]), tuple(bearing), hull)

    def default_decision(self, st: State, kind: str, o: Outcome) -> tuple[bool, bool, tuple[int, ...], tuple[int, ...]]:
        """Contract §4's decision against outcome ``o`` of an attack of ``kind`` on state ``st``, as
        the engine takes it (:func:`shipcheck.engine.defence.decide_default`): shield, boosted, a
        cannon per line of the outcome (-1: none), the batteries drawn from."""
        m = self._m()
        from shipcheck.engine import layout as L

        a, _, x, _, tmp = m.scratch
        lines = o.lines
        m.fn("exact", "default_of")(m.S, m.spec, self.to_words(self.pack(st), a),
                                    L.KINDS.index(kind), o.side, L.tolerance(o.direction),
                                    len(lines), lines[0] if lines else 0, lines[1] if len(lines) > 1 else -1,
                                    x, tmp)
        base = L.DEC
        cannons = tuple(int(tmp[base + L.DEC_CANNON + i]) for i in range(len(lines)))
        draws = tuple(int(tmp[base + L.DEC_DRAW + i]) for i in range(int(tmp[base + L.DEC_NDRAW])))
        return bool(tmp[base + L.DEC_SHIELD]), bool(tmp[base + L.DEC_BOOSTED]), cannons, draws

    def apply(self, st: State, kind: str, o: Outcome, d: Decision) -> State:
        """The state after outcome ``o`` of an attack of ``kind`` on state ``st``, given the player's
        decision, checked against the rules (a ValueError for one the rules do not allow)."""
        m = self._m()
        from shipcheck.engine import layout as L

        a, b, x, buf, tmp = m.scratch
        lines = o.lines
        write_decision(d, len(lines), tmp)
        m.fn("exact", "decide_key")(m.S, m.spec, self.to_words(self.pack(st), a),
                                    L.KINDS.index(kind), o.side, L.tolerance(o.direction),
                                    len(lines), lines[0] if lines else 0, lines[1] if len(lines) > 1 else -1,
                                    b, x, buf, tmp)
        return self.unpack(self.from_words(b))

    @cached_property
    def _dice(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per direction, for :func:`shipcheck.engine.exact.forward`: how many outcomes the dice give,
        how many of the 36 pairs give each, and one pair that does."""
        import numpy as np

        from shipcheck.engine import layout as L

        nout = np.zeros(4, dtype=np.int64)
        count = np.zeros((4, 36), dtype=np.int64)
        rep = np.zeros((4, 36), dtype=np.int64)
        for d in range(4):
            cells = self.S[0, L.OCELL + d, :36]
            nout[d] = int(cells.max()) + 1
            for r in range(35, -1, -1):
                count[d, cells[r]] += 1
                rep[d, cells[r]] = r
        return nout, count, rep

    def forward_compiled(self, attacks: Sequence[Attack], dist: dict[int, int]) -> tuple[dict[int, int], int]:
        """``dist`` (packed state -> weight) after ``attacks`` under the default policy on the
        compiled engine (numba is started), and the states expanded; the caller keeps the weights
        within int64 (36**12 < 2**63)."""
        out, expanded, _ = self.forward_arrays(attacks, dist)
        return out, expanded

    def forward_arrays(self, attacks: Sequence[Attack], dist: dict[int, int]
                       ) -> tuple[dict[int, int], int, tuple[np.ndarray, np.ndarray]]:
        """:meth:`forward_compiled`, and the same distribution as the compiled pass left it: its
        keys (``(n, words)`` int64) and weights, for summaries that need no Python int per state."""
        import numpy as np

        from shipcheck.engine import layout as L

        nout, count, rep = self._dice
        attacks = tuple(attacks)
        codes = self._attack_codes.get(attacks)
        if codes is None:  # (an optimal search asks the same tail once per ship it may start from)
            codes = self._attack_codes[attacks] = (
                np.array([L.KINDS.index(a.kind) for a in attacks], dtype=np.int64),
                np.array([L.DIRECTIONS.index(a.side) for a in attacks], dtype=np.int64))
        kinds, dirs = codes
        if self.words == 1:
            keys = np.fromiter(dist, dtype=np.int64, count=len(dist)).reshape(-1, 1)
        else:
            keys = np.zeros((len(dist), self.words), dtype=np.int64)
            for i, p in enumerate(dist):
                self.to_words(p, keys[i])
        weights = np.fromiter(dist.values(), dtype=np.int64, count=len(dist))
        keys, weights, expanded = self._fn_compiled("exact", "forward")(
            self.S, self.spec, keys, weights, kinds, dirs, nout, count, rep)
        packed = keys[:, 0].tolist()
        for j in range(1, self.words):
            packed = [p | c << WORD_BITS * j for p, c in zip(packed, keys[:, j].tolist())]
        return dict(zip(packed, weights.tolist())), int(expanded), (keys, weights)

    def _fn_compiled(self, module: str, name: str) -> Any:
        return _function(module, name, False)


def _function(module: str, name: str, plain: bool) -> Any:
    """The engine's function, compiled or plain, looked up once per process (a lookup costs as much
    as a small call)."""
    key = (module, name, plain)
    hit = _FUNCTIONS.get(key)
    if hit is None:
        from shipcheck import engine

        hit = _FUNCTIONS[key] = engine.function(module, name, plain=plain)
    return hit


class _Mode(NamedTuple):
    """The engine's tables, state layout and scratch rows, and its functions (:meth:`fn`), compiled
    or plain."""

    S: np.ndarray
    spec: np.ndarray
    scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    plain: bool

    def fn(self, module: str, name: str) -> Any:
        return _function(module, name, self.plain)


class _Choice(NamedTuple):
    """A decision's fields, as :class:`~shipcheck.flight.chain.Decision` holds them."""

    shield: bool
    boosted: bool
    cannons: tuple[int, ...]
    draws: tuple[int, ...]


def _grouped(weights: dict[int, int], bits: int) -> dict[int, int]:
    """``weights`` (packed state -> weight) summed by the part of each state within ``bits``."""
    by: dict[int, int] = {}
    get = by.get
    for p, w in weights.items():
        key = p & bits
        by[key] = get(key, 0) + w
    return by


def write_decision(dec: Decision | _Choice, lines: int, tmp: np.ndarray) -> None:
    """A :class:`~shipcheck.flight.chain.Decision` in the engine's layout (``tmp[DEC + ...]``): shield,
    boosted shield, a cannon per line (-1: none), the batteries drawn from."""
    from shipcheck.engine import layout as L

    if len(dec.draws) > L.DEC_DRAWS:
        raise ValueError(f"a decision draws {len(dec.draws)} charges (at most {L.DEC_DRAWS})")
    base = L.DEC
    tmp[base + L.DEC_SHIELD] = int(bool(dec.shield))
    tmp[base + L.DEC_BOOSTED] = int(bool(dec.boosted))
    cannons = list(dec.cannons)[:2] + [-1] * 2
    tmp[base + L.DEC_CANNON] = int(cannons[0])
    tmp[base + L.DEC_CANNON + 1] = int(cannons[1])
    tmp[base + L.DEC_NDRAW] = len(dec.draws)
    for i, b in enumerate(dec.draws):
        tmp[base + L.DEC_DRAW + i] = int(b)
