"""Strategy reports: the ship, its risks and what to change, as figures and one self-contained page.

:func:`report` gathers every figure's data (:mod:`.data`), and :class:`Report` draws the figures
(:mod:`.plots`, matplotlib, imported only when drawing) and writes the page (:mod:`.html`)::

    rep = shipcheck.report(ship)          # numbers only: rep.ships[0].meteors.maps ...
    figs = rep.figures()                  # {"ship": Figure, "heat-front": Figure, ...}
    rep.write("reports/my-ship")          # index.html, PNG and SVG files, report.json

``shipcheck.report`` is the function (the package keeps public functions over submodules of the
same name); this package is reached with ``from shipcheck.report import ...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..fix import FixResult, fix
from ..model import Ship
from ..rules import CheckReport, check
from ..stats import ShipStats, stats
from .data import (
    MeteorData,
    ShipView,
    Table,
    check_table,
    fix_table,
    meteor_data,
    ship_data,
    ship_title,
    stats_table,
    swarm_table,
    swarm_weights,
)

__all__ = ["Report", "ShipReport", "report"]

DIRECTIONS = ("front", "right", "rear", "left", "all")


@dataclass(frozen=True)
class ShipReport:
    """Everything the report shows about one ship."""

    ship: Ship
    check: CheckReport
    fix: FixResult | None  # the minimal repair, when the ship is illegal
    stats: ShipStats
    view: ShipView
    meteors: MeteorData
    flown: Ship  # the ship that flies: the repaired one when the written one is illegal
    path: str | None = None

    @property
    def name(self) -> str:
        return ship_title(self.ship)

    def tables(self) -> dict[str, Table]:
        """The page's tables: ``check``, ``fix`` (illegal ships only), ``stats`` and ``swarms``."""
        out = {"check": check_table(self.check)}
        if self.fix is not None:
            out["fix"] = fix_table(self.fix)
        out["stats"] = stats_table(self.stats)
        out["swarms"] = swarm_table(self.meteors)
        return out

    def to_dict(self) -> dict[str, Any]:
        m = self.meteors
        return {
            "ship": self.path,
            "name": self.name,
            "class": self.ship.board.name,
            "legal": self.check.legal,
            "exposed_connectors": self.check.exposed_connectors,
            "check": self.check.to_dict(self.path),
            "fix": self.fix.to_dict(self.path) if self.fix is not None else None,
            "stats": self.stats.to_dict(),
            "meteors": {
                "round": m.round,
                "edition": m.edition,
                "p_survive": float(m.p_survive),
                "expected_lost": float(m.expected_lost),
                "swarms": [{"card": s.card, "in_deck": float(s.in_deck), "p_survive": float(s.p_survive),
                            "expected_lost": float(s.expected_lost),
                            "lost_distribution": {str(k): float(p) for k, p in s.lost_distribution}}
                           for s in m.swarms],
                "heat_maps": {h.direction: {"meteors": float(h.meteors),
                                            "p_lost": [{"at": self.ship.board.cell_name(sq), "p_lost": float(p)}
                                                       for sq, p in h.p_lost]}
                              for h in m.maps},
            },
        }


@dataclass(frozen=True)
class Report:
    """A report on one ship, or two compared side by side; :meth:`figures` draws, :meth:`write` saves."""

    ships: tuple[ShipReport, ...]
    round: int
    edition: str
    notes: tuple[str, ...] = ()
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def title(self) -> str:
        names = " vs ".join(s.name for s in self.ships)
        return f"{names}: round {self.round} report"

    def figures(self) -> dict[str, Any]:
        """Every figure as a matplotlib ``Figure``, keyed by file stem (``"ship"``, ``"heat-front"``...;
        with two ships each key is prefixed ``a-`` / ``b-``)."""
        from . import plots

        out: dict[str, Any] = {}
        for prefix, s in self._prefixed():
            out[f"{prefix}ship"] = plots.ship_figure(s.view)
            for d in DIRECTIONS:
                out[f"{prefix}heat-{d}"] = plots.heat_figure(s.meteors, s.view, d)
        return out

    def _prefixed(self) -> list[tuple[str, ShipReport]]:
        if len(self.ships) == 1:
            return [("", self.ships[0])]
        return [(f"{'ab'[k]}-", s) for k, s in enumerate(self.ships)]

    def to_dict(self) -> dict[str, Any]:
        from .. import __version__

        return {
            "shipcheck": __version__,
            "round": self.round,
            "edition": self.edition,
            "settings": self.settings,
            "notes": list(self.notes),
            "ships": [s.to_dict() for s in self.ships],
        }

    def html(self, images: dict[str, str] | None = None) -> str:
        """The page; ``images`` maps figure keys to ``src`` values (data URIs); drawn when omitted."""
        from .html import page

        return page(self, images)

    def write(self, out: str | Path) -> list[Path]:
        """Write ``index.html``, every figure as PNG and SVG, and ``report.json`` into ``out``.

        A file this function did not write before (per the folder's manifest), or one changed since,
        is never overwritten: :class:`~shipcheck.errors.InputError` names it and nothing is written.
        """
        from .output import write_report

        return write_report(self, Path(out))


def _ship_report(ship: Ship, *, round: int, edition: str, path: str | None) -> ShipReport:
    rep = check(ship)
    repair = None
    flown = ship
    if not rep.legal:
        repair = fix(ship)
        if repair.fixed is not None:
            flown = repair.fixed
    return ShipReport(
        ship=ship, check=rep, fix=repair, stats=stats(ship), view=ship_data(ship, rep),
        meteors=meteor_data(flown, round=round, edition=edition), flown=flown, path=path,
    )


def report(ship: Ship | str | Path, other: Ship | str | Path | None = None, *, round: int | None = None,
           edition: str | None = None) -> Report:
    """The data of a strategy report on ``ship`` (and ``other``, compared side by side).

    ``round`` defaults to the level of the ship's board (class I: round 1...); ``edition`` to the
    ship's. Ship files are loaded from paths. An illegal ship flies as the minimal fix leaves it.
    """
    from ..shipfile import load_ship

    loaded: list[tuple[Ship, str | None]] = []
    for given in (ship, other):
        if given is None:
            continue
        if isinstance(given, Ship):
            loaded.append((given, given.source))
        else:
            loaded.append((load_ship(given), str(given)))
    first = loaded[0][0]
    rnd = round if round is not None else min(first.board.level, 3)
    ed = edition or first.edition
    try:
        swarm_weights(rnd, ed)
    except ValueError as exc:
        raise InputError(str(exc), key="round", value=rnd, expected="a round whose card levels the edition has "
                         "(2021: rounds 1 and 2)") from None
    ships = tuple(_ship_report(sh, round=rnd, edition=ed, path=p) for sh, p in loaded)
    notes = []
    for s in ships:
        if s.fix is not None:
            if s.fix.fixed is not None:
                notes.append(f"{s.name} is illegal: its flight figures are for the ship the minimal fix leaves "
                             f"({s.fix.lost} component(s) removed at the inspection)")
            else:
                notes.append(f"{s.name} is illegal and cannot be fixed by removal: its flight figures are for "
                             "the ship as written")
        if not s.ship.board.verified:
            notes.append(f"board {s.ship.board.name} is provisional (geometry from secondary sources)")
    return Report(ships, rnd, ed, tuple(notes), {"round": rnd, "edition": ed})
