"""Designing a whole ship: ``shipcheck design`` (contract §7, docs/design.md).

:func:`design` searches for the complete legal ship that earns most in a round against the field,
from the catalogue, a pile or a half-built ship; :mod:`.tiles` says which tiles it may use,
:mod:`.moves` how ships are built and changed, :mod:`.flights` how candidates are flown (common
random numbers, workers or Dask), :mod:`.search` the search and its :class:`DesignResult`.
"""

from __future__ import annotations

from shipcheck.design.search import BUDGET, DesignResult, Progress, design
from shipcheck.design.tiles import Pool, catalogue_pool, pile_pool

__all__ = ["BUDGET", "DesignResult", "Pool", "Progress", "catalogue_pool", "design", "pile_pool"]
