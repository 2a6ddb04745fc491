"""Strategy reports: the ship, its risks and what to change, as figures and one self-contained page.

:func:`report` gathers every figure's data (:mod:`.data`), flies the round (:mod:`shipcheck.round`)
and searches for better variants (:mod:`.recommend`); :class:`Report` draws the figures
(:mod:`.plots`, matplotlib, imported only when drawing) and writes the page (:mod:`.html`)::

    rep = shipcheck.report(ship, seed=1)   # numbers only: rep.ships[0].round.credits ...
    figs = rep.figures()                   # {"ship": Figure, "credits": Figure, ...}
    rep.write("reports/my-ship")           # index.html, PNG and SVG files, report.json

``shipcheck.report`` is the function (the package keeps public functions over submodules of the
same name); this package is reached with ``from shipcheck.report import ...``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from shipcheck.check.fix import FixResult, fix
from shipcheck.check.rules import CheckReport, check
from shipcheck.defaults import MAX_RUNS_COMPARE, RUNS_COMPARE
from shipcheck.flight.stats import stats
from shipcheck.model import Ship
from shipcheck.report.figures import (
    merge_notes,
    meteor_data,
    round_data,
    round_name,
    ship_data,
    ship_title,
    swarm_weights,
)
from shipcheck.report.recommend import recommend
from shipcheck.report.ships import Comparison, ShipReport
from shipcheck.round.result import paired

__all__ = ["Report", "ShipReport", "report"]

DIRECTIONS = ("front", "right", "rear", "left", "all")
RUNS = RUNS_COMPARE  # rounds flown for the figures, and for each change the search measures (see recommend)


@dataclass(frozen=True, repr=False)
class Report:
    """A report on one ship, or two compared side by side; :meth:`figures` draws, :meth:`write` saves."""

    ships: tuple[ShipReport, ...]
    round: str
    edition: str
    notes: tuple[str, ...] = ()
    settings: dict[str, Any] = field(default_factory=dict)
    comparison: Comparison | None = None

    @property
    def title(self) -> str:
        names = " vs ".join(s.name for s in self.ships)
        return f"{names}: {round_name(self.round)} report"

    def __repr__(self) -> str:
        names = " vs ".join(repr(s.name) for s in self.ships)
        runs, seed = self.settings.get("runs"), self.settings.get("seed")
        head = f"<Report {names}: {round_name(self.round)}, {runs} runs, seed {seed}"
        if self.comparison is not None:
            c = self.comparison
            return f"{head}; second minus first {c.credits:+.2f} credits ({c.credits_ci[0]:+.2f} to {c.credits_ci[1]:+.2f})>"
        s = self.ships[0]
        tail = repr(s)[len(f"<ShipReport {s.name!r}: "):-1]
        return f"{head}; {tail}>"

    def _repr_html_(self) -> str:
        from shipcheck.report.html import notebook

        return notebook(self)

    def figures(self, *, phone: bool = False) -> dict[str, Any]:
        """Every figure as a matplotlib ``Figure``, keyed by file stem (``"ship"``, ``"heat-front"``,
        ``"credits"``...; with two ships each key is prefixed ``a-`` / ``b-``, and the two ships share
        each figure's colour scale and axes). ``phone=True`` lays them out for a phone (3.5 inches
        wide, no text under 8.7 points: what the page shows on a narrow screen)."""
        return {key: draw() for key, draw in self._figure_makers(phone).items()}

    def figure_names(self) -> list[str]:
        """The keys of :meth:`figures`, nothing drawn (a report folder's file names)."""
        return list(self._figure_makers(False))

    def _figure_makers(self, phone: bool) -> dict[str, Callable[[], Any]]:
        from shipcheck.report import plots

        look = plots.PHONE if phone else plots.WIDE
        sc = plots.shared_scales(self.ships) if len(self.ships) > 1 else plots.NO_SCALES
        out: dict[str, Callable[[], Any]] = {}
        for prefix, s in self._prefixed():
            out[f"{prefix}ship"] = partial(plots.ship_figure, s.view, look)
            if s.advice is not None and s.advice.measured:
                out[f"{prefix}changes"] = partial(plots.recommendations_figure, s.advice, look, sc.changes)
            if s.round is not None:
                if any(p.by_source for p in s.round.players):
                    out[f"{prefix}sources"] = partial(plots.sources_figure, s.round, look, sc.sources)
                out[f"{prefix}credits"] = partial(plots.credits_figure, s.round, look, sc.credits)
                out[f"{prefix}losses"] = partial(plots.losses_figure, s.round, look, sc.lost)
                out[f"{prefix}cards"] = partial(plots.card_types_figure, s.round, look, sc.cards)
                if len(s.round.players) > 1:
                    out[f"{prefix}field"] = partial(plots.field_figure, s.round, look, sc.field)
            for d in DIRECTIONS:
                out[f"{prefix}heat-{d}"] = partial(plots.heat_figure, s.meteors, s.view, d, look, sc.heat)
        return out

    def _prefixed(self) -> list[tuple[str, ShipReport]]:
        if len(self.ships) == 1:
            return [("", self.ships[0])]
        return [(f"{'ab'[k]}-", s) for k, s in enumerate(self.ships)]

    def to_dict(self) -> dict[str, Any]:
        from shipcheck._version import __version__

        out: dict[str, Any] = {
            "shipcheck": __version__,
            "round": int(self.round) if self.round.isdigit() else self.round,
            "edition": self.edition,
            "settings": self.settings,
            "notes": list(self.notes),
            "ships": [s.to_dict() for s in self.ships],
        }
        if self.comparison is not None:
            c = self.comparison
            out["comparison"] = {"credits": c.credits, "credits_ci": list(c.credits_ci), "lost": c.lost,
                                 "lost_ci": list(c.lost_ci), "runs": c.runs}
        return out

    def html(self, images: dict[str, str] | None = None, phone: dict[str, str] | None = None) -> str:
        """The page; ``images`` maps figure keys to ``src`` values (data URIs), ``phone`` the same
        figures laid out for a phone (shown on narrow screens); both drawn when omitted."""
        from shipcheck.report.html import page

        return page(self, images, phone)

    def write(self, out: str | Path) -> list[Path]:
        """Write ``index.html``, every figure as PNG and SVG, and ``report.json`` into ``out``.

        A file this function did not write before (per the folder's manifest), or one changed since,
        is never overwritten: :class:`~shipcheck.errors.InputError` names it and nothing is written.
        """
        from shipcheck.report.output import write_report

        return write_report(self, Path(out))


Progress = Callable[[str], Any]


def _ship_to_fly(sh: Ship, rep: CheckReport, notes: list[str]) -> tuple[FixResult | None, Ship]:
    """The repair of an illegal ship (or None) and the ship that flies: the minimal fix's, or the ship
    as written when no removal mends it; says which in ``notes``."""
    if rep.legal:
        return None, sh
    repair = fix(sh)
    if repair.fixed is not None:
        notes.append(f"{ship_title(sh)} is illegal: its flight figures are for the ship the minimal fix "
                     f"leaves ({repair.lost} component(s) removed at the inspection)")
        return repair, repair.fixed
    notes.append(f"{ship_title(sh)} is illegal and no removal mends it: its flight figures are for the "
                 "ship as written")
    return repair, sh


def _provisional_notes(ships: Sequence[ShipReport], round_notes: Iterable[str], notes: list[str]) -> None:
    """Add every provisional value to ``notes`` once: a board's own note (from the check) stands for
    the round's "flies an unverified board" lines about it."""
    boards = set()
    for sr in ships:
        for n in sr.check.notes:
            if "provisional" in n:
                notes.append(n)
                boards.add(sr.ship.board.name)
    for note in round_notes:
        m = re.search(r"flies an unverified board \(([^)]*)\)", note)
        if m is None or m.group(1) not in boards:
            notes.append(note)


def report(
    ship: Ship | str | Path,
    other: Ship | str | Path | None = None,
    *,
    round: int | str | None = None,
    opponents: Sequence[Ship | str | Path] | None = None,
    deck: Any = None,
    edition: str | None = None,
    runs: int = RUNS,
    seed: int | None = None,
    rng: Any = None,
    recommendations: bool = True,
    progress: Progress | None = None,
    rules: str | Path | None = None,
) -> Report:
    """The data of a strategy report on ``ship`` (and ``other``, compared side by side).

    Parameters
    ----------
    ship, other
        Ships or ship files. An illegal ship flies as the minimal fix leaves it.
    round
        ``1``, ``2``, ``3``, ``"3a"`` or ``"learning"``; default the level of the ship's board (``"3a"``
        for class IIIa).
    opponents, deck, edition
        As :func:`shipcheck.simulate_round`: None flies the default field and drawn decks; the
        edition defaults to the ship's.
    runs, seed, rng
        Rounds flown for the round's figures, and the random stream (an int seed, or as
        :func:`shipcheck.simulate`); every ship and every variant flies the same decks and dice.
    recommendations
        Search legal single changes ranked by their effect on credits (the slow part).
    progress
        ``progress(stage)`` is called with a word as each stage starts, and again with the same word
        after each chunk of rounds it flies; an exception it raises stops the report (the workbench's
        cancel).
    rules
        A rules file overriding the round's provisional numbers, as :func:`shipcheck.simulate_round`
        takes it.
    """
    from shipcheck import validate as valid
    from shipcheck.defaults import default_round
    from shipcheck.round import build_deck, round_rules, simulate_round
    from shipcheck.round.result import RUN_BYTES
    from shipcheck.validate import seed_of

    loaded: list[tuple[Ship, str | None]] = []
    for name, given in (("ship", ship), ("other", other)):
        if given is None and name == "other":
            continue
        sh = valid.ship(given, key=name)
        loaded.append((sh, sh.source if isinstance(given, Ship) else str(given)))
    first = loaded[0][0]
    key = valid.round_key(round if round is not None else default_round(first.board))
    ed = valid.edition(edition) or first.edition
    opp = valid.opponents(opponents)
    told = valid.callback(progress, key="progress", expected="a callable(stage) or None", args=1)
    now = [""]  # the stage the work is in, said again after each chunk of rounds flown

    def say(stage: str) -> None:
        now[0] = stage
        if told is not None:
            told(stage)

    tick = None if told is None else (lambda done, total: told(now[0]))
    recommendations = bool(valid.flag(recommendations, key="recommendations"))
    # the figures keep every ship's runs, and one flight more is in the air, up to five players each
    runs = valid.runs(runs, minimum=10, maximum=MAX_RUNS_COMPARE, run_bytes=(len(loaded) + 1) * 5 * RUN_BYTES,
                      what="keeping the per-run results of")
    s = seed_of(rng, seed)
    rules_path = valid.rules(rules)
    round_numbers = round_rules(key, rules_path)
    the_deck = valid.deck(deck, edition=edition)
    if the_deck is None:
        the_deck = build_deck(round_numbers, ed)
    weights = swarm_weights(the_deck)

    def fly(sh: Ship, policy: str, n: int, sd: int) -> Any:
        return simulate_round(sh, round=key, opponents=opp, deck=the_deck, runs=n, seed=sd, policy=policy,
                              rules=rules_path, keep_runs=True, progress=tick)  # paired comparisons: every run

    ships = []
    notes: list[str] = []
    results = []
    for sh, path in loaded:
        say(f"checking {ship_title(sh)}")
        rep = check(sh)
        repair, flown = _ship_to_fly(sh, rep, notes)
        say("exact meteor odds")
        meteors = meteor_data(flown, round=key, edition=the_deck.edition, cards=weights)
        say(f"flying {runs:,} rounds")
        result = fly(flown, "default", runs, s)
        results.append(result)
        advice = None
        if recommendations:
            say("searching for better variants")
            from shipcheck.round.policy import POLICIES

            # the figures' own flight is the final measurement's baseline: same runs, same seed
            advice = recommend(flown, lambda v, pol, n, sd: fly(v, pol, n, sd).players[0], runs=runs, seed=s,
                               policies=tuple(POLICIES), base=result.players[0])
        ships.append(ShipReport(ship=sh, check=rep, fix=repair, stats=stats(sh), view=ship_data(sh, rep),
                                meteors=meteors, flown=flown, result=result, round=round_data(result),
                                advice=advice, path=path))
    _provisional_notes(ships, results[0].notes, notes)
    comparison = None
    if len(results) == 2:
        a, b = results[0].players[0], results[1].players[0]
        c, cci = paired(b.credits, a.credits)
        lo, lci = paired(b.lost, a.lost)
        comparison = Comparison(c, cci, lo, lci, runs)
    settings = {"round": int(key) if key.isdigit() else key, "edition": the_deck.edition, "deck": the_deck.describe(), "runs": runs, "seed": s,
                "opponents": [p.name for p in results[0].players[1:]]}
    if rules_path is not None:
        settings["rules"] = str(rules_path)
    return Report(tuple(ships), key, the_deck.edition, merge_notes(notes), settings, comparison)
