"""The outcome of many rounds: per player the summaries (exact counts, streamed chunk by chunk) and,
when asked for, the raw per-run arrays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shipcheck.flight.montecarlo import RunsNotKept, mean_ci
from shipcheck.flight.montecarlo import _wilson as _wilson_any
from shipcheck.flight.tally import Counts
from shipcheck.model import Ship
from shipcheck.round.chunks import CAUSES
from shipcheck.round.deck import Deck
from shipcheck.round.rulebook import RoundRules

__all__ = ["RUN_BYTES", "SOURCES", "PlayerResult", "PlayerTally", "RoundResult", "RoundRuns", "RunsNotKept",
           "by_source_lines", "mean_ci", "paired"]

PERCENTILES = (5, 25, 50, 75, 95)
#: bytes one run keeps per player: credits, card credits, days and the five sources (4 each), lost
#: (2), survived, cause and place (1 each), twice over while the chunks are joined, rounded up
RUN_BYTES = 80
SOURCES = ("cards", "goods", "arrival", "best_looking", "penalty")  # engine.SOURCES (contract §5.1)
CARD_TYPE_COLUMNS = ("drawn", "expected_lost", "expected_credits", "expected_days", "p_gave_up", "expected_goods_value")
_SHIP_SUMMARIES = frozenset((
    "credits", "card_credits", "lost", "survived", "gave_up", "days", "place", "finished", "p_survive",
    "p_survive_ci", "p_finish", "p_finish_ci", "expected_lost", "expected_lost_ci", "expected_lost_se",
    "lost_distribution", "credits_mean", "credits_ci", "credits_percentiles", "credits_distribution",
    "gave_up_shares", "by_card_type", "card_types", "tile_lost", "sources", "source_runs", "place_shares",
    "runs_kept", "tally",
))
#: the per-run arrays and what reads them: listed by ``dir()`` only when they were kept
_PER_RUN = frozenset(("credits", "card_credits", "lost", "survived", "gave_up", "days", "place", "finished",
                      "sources", "source_runs"))


def _wilson(k: int, n: int) -> tuple[float, float]:
    lo, hi = _wilson_any(k, n)
    return float(lo), float(hi)


def paired(a: Any, b: Any) -> tuple[float, tuple[float, float]]:
    """Mean of ``a - b`` run by run and its 95 % interval.

    With common random numbers (two ships flown on one seed meet the same decks and dice, see
    :func:`~shipcheck.round.simulate_round`) the per-run differences vary far less than the credits
    themselves, so small differences between ship variants are measured reliably.
    """
    return mean_ci(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))


@dataclass
class PlayerTally:
    """One player's runs as exact counts, added up chunk by chunk (memory independent of the runs):
    how many runs gave each credits total, components lost, final position (``days``), place and
    cause of giving up; the runs survived; the sums of card credits and of each source of credits."""

    credits: Counts = field(default_factory=Counts)
    lost: Counts = field(default_factory=Counts)
    days: Counts = field(default_factory=Counts)
    place: Counts = field(default_factory=Counts)
    gave_up: Counts = field(default_factory=Counts)
    survived: int = 0
    card_credits: int = 0
    sources: tuple[int, ...] = (0,) * len(SOURCES)

    @classmethod
    def of(cls, credits: Any, card_credits: Any, lost: Any, survived: Any, gave_up: Any, days: Any, place: Any,
           sources: Any) -> PlayerTally:
        """The counts of per-run arrays (``sources``: ``(runs, 5)``)."""
        src = np.asarray(sources).reshape(-1, len(SOURCES))
        return cls(Counts.of(credits), Counts.of(lost), Counts.of(days), Counts.of(place), Counts.of(gave_up),
                   int(np.count_nonzero(survived)), int(np.sum(card_credits, dtype=np.int64)),
                   tuple(int(v) for v in src.sum(axis=0, dtype=np.int64)))

    def merge(self, other: PlayerTally) -> PlayerTally:
        for name in ("credits", "lost", "days", "place", "gave_up"):
            getattr(self, name).merge(getattr(other, name))
        self.survived += other.survived
        self.card_credits += other.card_credits
        self.sources = tuple(a + b for a, b in zip(self.sources, other.sources))
        return self

    @property
    def runs(self) -> int:
        return self.credits.n


@dataclass(frozen=True, eq=False)
class RoundRuns:
    """One player's per-run arrays (``simulate_round(..., keep_runs=True)``), one entry per run."""

    credits: np.ndarray
    card_credits: np.ndarray
    lost: np.ndarray
    survived: np.ndarray
    gave_up: np.ndarray
    days: np.ndarray
    place: np.ndarray
    sources: np.ndarray


def _per_run(name: str, doc: str) -> Any:
    def get(self: PlayerResult) -> np.ndarray:
        if self.per_run is None:
            raise RunsNotKept(f"`{name}` is a per-run array, kept only by simulate_round(..., keep_runs=True)")
        return getattr(self.per_run, name)  # type: ignore[no-any-return]

    return property(get, doc=doc + " (``keep_runs=True`` only; else :class:`RunsNotKept`)")


@dataclass(frozen=True, eq=False, repr=False)
class PlayerResult:
    """One player's rounds: summaries, and the per-run arrays when they were kept.

    The summaries (``p_survive``, ``credits_mean``, ``by_source``, the distributions...) come from
    ``tally`` (:class:`PlayerTally`: exact counts added up chunk by chunk), so they take the same
    memory for a thousand runs as for a hundred million: ``tile_lost[k]`` runs in which tile ``k``
    (grid order) was lost; ``by_type`` totals per card type (see :attr:`by_card_type`); ``purse``
    the credits in the purse before the round (a run's credits never go below minus it).

    The per-run arrays are there only when the rounds were flown with ``keep_runs=True``
    (:attr:`runs_kept`; otherwise reading one raises :class:`RunsNotKept`): ``credits[r]`` the
    credits of run ``r`` (card rewards, arrival, best-looking, goods, bonuses, minus lost
    components); ``card_credits[r]`` the part earned from cards; ``lost[r]`` components that left
    the ship (set-aside ones not included); ``survived[r]`` a human aboard at the end;
    ``gave_up[r]`` the cause code (0 finished; see :data:`~shipcheck.round.chunks.CAUSES`);
    ``days[r]`` the final track position counted from the leader's start space (negative: behind
    it); ``place[r]`` the arrival place (0 when the ship gave up); ``sources[r]`` the credits of run
    ``r`` by source (:data:`SOURCES`, columns in that order; they add up to ``credits[r]``).
    """

    name: str
    ship: Ship
    policy: str
    tally: PlayerTally = field(repr=False)
    tile_lost: np.ndarray = field(repr=False)
    by_type: np.ndarray = field(repr=False)
    purse: int = 0
    per_run: RoundRuns | None = field(default=None, repr=False)

    credits = _per_run("credits", "Per run, the credits (the change of the purse).")
    card_credits = _per_run("card_credits", "Per run, the credits earned from cards.")
    lost = _per_run("lost", "Per run, the components that left the ship.")
    survived = _per_run("survived", "Per run, whether a human was aboard at the end.")
    gave_up = _per_run("gave_up", "Per run, the cause of giving up (0: finished; CAUSES).")
    days = _per_run("days", "Per run, the final track position from the leader's start space.")
    place = _per_run("place", "Per run, the arrival place (0: gave up).")
    sources = _per_run("sources", "Per run and source (SOURCES), the credits; they add up to ``credits``.")

    @classmethod
    def from_runs(cls, name: str, ship: Ship, policy: str, runs: RoundRuns, tile_lost: np.ndarray,
                  by_type: np.ndarray, purse: int = 0) -> PlayerResult:
        """A player's result from per-run arrays (the tally worked out from them)."""
        tally = PlayerTally.of(runs.credits, runs.card_credits, runs.lost, runs.survived, runs.gave_up, runs.days,
                               runs.place, runs.sources)
        return cls(name, ship, policy, tally, tile_lost, by_type, purse, runs)

    def __repr__(self) -> str:
        return (f"PlayerResult({self.name!r}, runs={self.runs}, p_survive={self.p_survive:.4g}, "
                f"p_finish={self.p_finish:.4g}, credits_mean={self.credits_mean:.4g})")

    @property
    def runs(self) -> int:
        return self.tally.runs

    @property
    def runs_kept(self) -> bool:
        """Whether the per-run arrays were kept (``keep_runs=True``)."""
        return self.per_run is not None

    def __dir__(self) -> list[str]:
        # what was not kept is not offered: everything dir() lists can be read
        names = set(super().__dir__())
        return sorted(names if self.runs_kept else names - _PER_RUN)

    @property
    def finished(self) -> np.ndarray:
        """Per run, whether the ship finished the flight (``keep_runs=True`` only)."""
        return self.gave_up == 0

    @property
    def p_survive(self) -> float:
        return self.tally.survived / self.runs

    @property
    def p_survive_ci(self) -> tuple[float, float]:
        return _wilson(self.tally.survived, self.runs)

    @property
    def p_finish(self) -> float:
        return self.tally.gave_up.count(0) / self.runs

    @property
    def p_finish_ci(self) -> tuple[float, float]:
        return _wilson(self.tally.gave_up.count(0), self.runs)

    @property
    def expected_lost(self) -> float:
        return self.tally.lost.mean

    @property
    def expected_lost_ci(self) -> tuple[float, float]:
        return self.tally.lost.ci

    @property
    def expected_lost_se(self) -> float:
        return self.tally.lost.se

    @property
    def lost_distribution(self) -> dict[int, float]:
        return self.tally.lost.distribution()

    @property
    def credits_mean(self) -> float:
        return self.tally.credits.mean

    @property
    def credits_ci(self) -> tuple[float, float]:
        return self.tally.credits.ci

    @property
    def credits_percentiles(self) -> dict[int, int]:
        return {q: self.tally.credits.percentile(q) for q in PERCENTILES}

    @property
    def credits_distribution(self) -> dict[int, float]:
        """Share of runs per whole credit amount (amounts that occurred only), in order."""
        return self.tally.credits.distribution()

    @property
    def by_source(self) -> dict[str, float]:
        """Mean credits per run by source (contract §5.1): ``cards`` (card rewards, luxury-cabin and
        Manager and Merchant bonuses), ``goods`` (sold at the end, half rounded up after giving up,
        and by IIA halves leaving), ``arrival``, ``best_looking`` and ``penalty`` (minus what the
        lost and set-aside components cost, capped as the board says and by the purse). Each run's
        parts add up to its credits exactly, so these add up to :attr:`credits_mean`."""
        return {k: v / self.runs for k, v in zip(SOURCES, self.tally.sources)}

    def source_runs(self, source: str) -> np.ndarray:
        """The per-run credits of one source (:data:`SOURCES`; per-run arrays: when kept)."""
        return self.sources[:, SOURCES.index(source)]

    @property
    def place_shares(self) -> dict[str, float]:
        """Share of runs per arrival place (``"#1"``, ``"#2"``...) and ``"gave up"`` (those that occurred)."""
        return {("gave up" if k == 0 else f"#{k}"): v for k, v in self.tally.place.distribution().items()}

    @property
    def gave_up_shares(self) -> dict[str, float]:
        """Share of runs per cause of giving up (causes that occurred only)."""
        n = self.runs
        return {CAUSES[i]: self.tally.gave_up.count(i) / n for i in range(1, len(CAUSES)) if self.tally.gave_up.count(i)}

    @property
    def by_card_type(self) -> Any:
        """A pandas DataFrame, one row per card type met (index ``type``): ``drawn`` (cards met per
        run), and per run ``expected_lost`` (components lost), ``expected_credits`` (credits earned
        on such cards during the flight), ``expected_days`` (track spaces moved), ``p_gave_up``
        (share of runs giving up on such a card) and ``expected_goods_value``: the sale value of
        the goods such cards loaded that were still aboard at the end (full price after a finished
        flight, half after giving up; goods of one colour leave the ship last loaded first). The
        JSON's ``by_card_type`` is :meth:`card_types` (the same numbers as a dict)."""
        import pandas as pd

        rows = self.card_types()
        return pd.DataFrame(list(rows.values()), index=pd.Index(list(rows), name="type"), columns=CARD_TYPE_COLUMNS)

    def card_types(self) -> dict[str, dict[str, float]]:
        """:attr:`by_card_type` as a dict of dicts: card type -> column -> value (the JSON's form)."""
        from shipcheck.round.chunks import TYPES

        out = {}
        n = self.runs
        for i, name in enumerate(TYPES):
            drawn, lost, credits, days, gave, goods_half = (int(x) for x in self.by_type[i])
            if drawn:
                out[name] = {"drawn": drawn / n, "expected_lost": lost / n, "expected_credits": credits / n,
                             "expected_days": days / n, "p_gave_up": gave / n,
                             "expected_goods_value": goods_half / (2 * n)}
        return out

    def credits_summary(self) -> dict[str, Any]:
        lo, hi = self.credits_ci
        return {"mean": self.credits_mean, "ci": [lo, hi], "by_source": self.by_source,
                "percentiles": {str(k): v for k, v in self.credits_percentiles.items()},
                "distribution": {str(k): v for k, v in self.credits_distribution.items()}}

    def to_dict(self) -> dict[str, Any]:
        b = self.ship.board
        return {
            "ship": self.ship.source,
            "name": self.name,
            "policy": self.policy,
            "p_survive": self.p_survive,
            "p_survive_ci": list(self.p_survive_ci),
            "p_finish": self.p_finish,
            "p_finish_ci": list(self.p_finish_ci),
            "expected_lost": self.expected_lost,
            "expected_lost_ci": list(self.expected_lost_ci),
            "lost_distribution": {str(k): v for k, v in self.lost_distribution.items()},
            "credits": self.credits_summary(),
            "card_credits": self.tally.card_credits / self.runs,
            "purse": self.purse,
            "gave_up": self.gave_up_shares,
            "tiles": [{"at": b.cell_name(t.at), "p_lost": int(c) / self.runs}
                      for t, c in zip(self.ship.tiles, self.tile_lost)],
        }


@dataclass(frozen=True, eq=False, repr=False)
class RoundResult:
    """Monte Carlo outcome of whole rounds. ``players[0]`` is the ship, then the opponents.

    The summaries without a player (``p_survive``, ``credits_mean``...) are the ship's. ``seed``
    and ``batch`` repeat the run bit for bit (also on other worker counts).
    """

    players: tuple[PlayerResult, ...]
    round: str
    rules: RoundRules
    deck: Deck
    runs: int
    seed: int
    batch: int
    five_player: bool
    notes: tuple[str, ...] = ()
    purse: tuple[int, ...] = ()

    def __repr__(self) -> str:
        s = self.ship_result
        return (f"RoundResult(round={self.round!r}, runs={self.runs}, seed={self.seed}, players={len(self.players)}, "
                f"credits_mean={s.credits_mean:.4g}, p_survive={s.p_survive:.4g}, p_finish={s.p_finish:.4g})")

    @property
    def ship_result(self) -> PlayerResult:
        return self.players[0]

    @property
    def opponents(self) -> tuple[PlayerResult, ...]:
        return self.players[1:]

    def __getattr__(self, name: str) -> Any:
        # the ship's summaries read as the result's own: result.p_survive, result.credits_mean, ...
        if name in _SHIP_SUMMARIES:
            return getattr(self.players[0], name)
        raise AttributeError(name)

    def __dir__(self) -> list[str]:
        # the ship's summaries are attributes too: tab completion and help() list them
        ship = _SHIP_SUMMARIES if self.players[0].runs_kept else _SHIP_SUMMARIES - _PER_RUN
        return sorted(set(super().__dir__()) | ship)

    @property
    def by_source(self) -> Any:
        """A pandas DataFrame, one row per player (index: names, the ship first): the mean credits
        per run by source (:data:`SOURCES`) and their total ``credits``."""
        import pandas as pd

        rows = [{**p.by_source, "credits": p.credits_mean} for p in self.players]
        return pd.DataFrame(rows, index=pd.Index([p.name for p in self.players], name="player"),
                            columns=[*SOURCES, "credits"])

    def to_frame(self) -> Any:
        """One row per run and ship: ``ship`` (its name, as :attr:`by_source` names it; in launch
        order, the ship first), ``credits`` and their sources (``cards``, ``goods``, ``arrival``,
        ``best_looking``, ``penalty``: they add up to ``credits``, as in :attr:`by_source`), lost,
        days, place, survived, finished, gave-up cause. It needs the per-run arrays:
        ``simulate_round(..., keep_runs=True)`` (else :class:`RunsNotKept`)."""
        import pandas as pd

        if not self.players[0].runs_kept:
            raise RunsNotKept("to_frame() needs the per-run arrays: simulate_round(..., keep_runs=True) keeps them")

        names = [pr.name for pr in self.players]
        frames = []
        for pr in self.players:
            frames.append(pd.DataFrame({
                "run": np.arange(pr.runs),
                "ship": pr.name,
                "credits": pr.credits,
                **{k: pr.sources[:, j] for j, k in enumerate(SOURCES)},
                "lost": pr.lost,
                "days": pr.days,
                "place": pr.place,
                "survived": pr.survived,
                "finished": pr.finished,
                "gave_up": pd.Categorical.from_codes(pr.gave_up.astype(np.int64), categories=list(CAUSES)),
            }))
        out = pd.concat(frames, ignore_index=True)
        if len(set(names)) == len(names):  # grouped by ship, the ships come in launch order
            out["ship"] = pd.Categorical(out["ship"], categories=names, ordered=True)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``shipcheck simulate --round N --format json`` (contract §5)."""
        s = self.ship_result
        d: dict[str, Any] = {"exact": False, "round": int(self.round) if self.round.isdigit() else self.round,
                             "edition": self.deck.edition, "deck": self.deck.describe(), "runs": self.runs,
                             "seed": self.seed, "batch": self.batch}
        body = s.to_dict()
        for k in ("p_survive", "p_survive_ci", "expected_lost", "expected_lost_ci", "lost_distribution",
                  "p_finish", "p_finish_ci", "credits", "card_credits", "gave_up", "tiles", "policy"):
            d[k] = body[k]
        d["ship"] = s.ship.source
        d["name"] = s.name
        d["by_card_type"] = s.card_types()
        d["opponents"] = [o.to_dict() for o in self.opponents]
        for o in d["opponents"]:
            o.pop("tiles", None)
        r = self.rules
        d["rules"] = {"track": r.track, "start_positions": list(r.start_positions(len(self.players))),
                      "arrival": list(r.arrival_rewards(len(self.players), self.five_player)),
                      "best_looking": r.best_looking, "luxury": r.luxury, "five_player": self.five_player,
                      "source": r.source}
        d["rules"]["epidemic"] = r.epidemic
        d["purse"] = self.players[0].purse
        d["notes"] = list(self.notes)
        return d


def by_source_lines(result: RoundResult) -> list[str]:
    """A short text table of where the ship's credits come from, beside the field's (the opponents')
    mean: one line per source (contract §5.1) and the total."""
    me = result.ship_result
    field_ = result.opponents
    head = "credits by source (per run):   this ship" + ("   field" if field_ else "")
    out = [head]
    mine = me.by_source
    theirs = {k: sum(o.by_source[k] for o in field_) / len(field_) for k in SOURCES} if field_ else {}
    for k in SOURCES:
        line = f"  {k.replace('_', ' '):<28} {mine[k]:9.2f}"
        if field_:
            line += f" {theirs[k]:7.2f}"
        out.append(line)
    total = f"  {'total':<28} {me.credits_mean:9.2f}"
    if field_:
        total += f" {sum(o.credits_mean for o in field_) / len(field_):7.2f}"
    out.append(total)
    return out
