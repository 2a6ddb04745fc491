"""What a report holds of each ship (:class:`ShipReport`) and of two ships compared
(:class:`Comparison`): values below the page and the files that show them (:mod:`.html`,
:mod:`.output`), which :class:`shipcheck.report.Report` hands them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shipcheck.report.figures import (
    MeteorData,
    RoundView,
    ShipView,
    Table,
    check_table,
    fix_table,
    round_table,
    ship_title,
    stats_table,
    swarm_table,
)

if TYPE_CHECKING:
    from shipcheck.check.fix import FixResult
    from shipcheck.check.rules import CheckReport
    from shipcheck.flight.stats import ShipStats
    from shipcheck.model import Ship
    from shipcheck.report.recommend import Recommendations

__all__ = ["Comparison", "ShipReport"]


@dataclass(frozen=True, repr=False)
class ShipReport:
    """Everything the report shows about one ship.

    ``result`` is the raw :class:`~shipcheck.round.RoundResult` (per-run arrays of every player);
    ``round`` the numbers its figures show; ``advice`` the ranked what-if changes.
    """

    ship: Ship
    check: CheckReport
    fix: FixResult | None  # the minimal repair, when the ship is illegal
    stats: ShipStats
    view: ShipView
    meteors: MeteorData
    flown: Ship  # the ship that flies: the repaired one when the written one is illegal
    result: Any = field(default=None, repr=False)
    round: RoundView | None = None
    advice: Recommendations | None = None
    path: str | None = None

    @property
    def name(self) -> str:
        return ship_title(self.ship)

    def __repr__(self) -> str:
        parts = ["legal" if self.check.legal else "ILLEGAL"]
        if self.round is not None:
            r = self.round
            parts.append(f"credits {r.credits.mean:.2f} ({r.credits.ci[0]:.2f} to {r.credits.ci[1]:.2f})")
            parts.append(f"finishes {r.p_finish:.1%}")
        if self.advice is not None:
            best = self.advice.best
            parts.append(f"best change {best.variant.text!r} {best.credits:+.2f}" if best is not None
                         else "no single change earns more")
        return f"<ShipReport {self.name!r}: {', '.join(parts)}>"

    def tables(self) -> dict[str, Table]:
        """The page's tables: ``check``, ``fix`` (illegal ships only), ``round``, ``stats``, ``swarms``."""
        out = {"check": check_table(self.check)}
        if self.fix is not None:
            out["fix"] = fix_table(self.fix)
        if self.round is not None:
            out["round"] = round_table(self.round)
        out["stats"] = stats_table(self.stats)
        out["swarms"] = swarm_table(self.meteors)
        return out

    def to_dict(self) -> dict[str, Any]:
        m = self.meteors
        name = self.ship.board.cell_name
        return {
            "ship": self.path,
            "name": self.name,
            "class": self.ship.board.name,
            "legal": self.check.legal,
            "exposed_connectors": self.check.exposed_connectors,
            "check": self.check.to_dict(self.path),
            "fix": self.fix.to_dict(self.path) if self.fix is not None else None,
            "stats": self.stats.to_dict(),
            "round": self.result.to_dict() if self.result is not None else None,
            "field_gap": self.round.gap.to_dict() if self.round is not None and self.round.gap is not None else None,
            "recommendations": self.advice.to_dict(self.flown) if self.advice is not None else None,
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
                                            "p_lost": [{"at": name(sq), "p_lost": float(p)} for sq, p in h.p_lost]}
                              for h in m.maps},
            },
        }


@dataclass(frozen=True)
class Comparison:
    """Two ships flown on the same decks and dice: the second minus the first, run by run."""

    credits: float
    credits_ci: tuple[float, float]
    lost: float
    lost_ci: tuple[float, float]
    runs: int
