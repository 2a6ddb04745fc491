"""Exact counts of whole-number outcomes, added up chunk by chunk.

Every summary the command line prints of many runs (a mean and its interval, percentiles, a
distribution, a share) is a sum or a count, and the outcomes are whole numbers (credits, components
lost, days, places, causes): :class:`Counts` keeps how many runs gave each value, so a result's
memory does not grow with its runs. The mean is exact (the sum of whole numbers, divided once); the
standard error is worked out from the exact sum of squares.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Z95", "Counts", "sums_mean_ci", "sums_mean_se"]

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def sums_mean_se(n: int, total: int, total_sq: int) -> float:
    """The standard error of the mean, s / sqrt(n) (s the sample deviation; 0 for fewer than two), of
    ``n`` whole numbers known by their sum and the sum of their squares (what a summary streamed
    chunk by chunk keeps): the sample variance is worked out exactly before its square root, so it
    is the correctly rounded value that ``numpy.std(ddof=1) / sqrt(n)`` approximates."""
    if n < 2:
        return 0.0
    return math.sqrt(Fraction(n * total_sq - total * total, n * (n - 1))) / math.sqrt(n)


def sums_mean_ci(n: int, total: int, total_sq: int) -> tuple[float, tuple[float, float]]:
    """The mean of ``n`` whole numbers known by their sum and the sum of their squares, and its 95 %
    normal interval, mean +- 1.96 standard errors (:func:`sums_mean_se`)."""
    m, h = total / n, Z95 * sums_mean_se(n, total, total_sq)
    return m, (m - h, m + h)


class Counts:
    """How many runs gave each whole-number value (a histogram), added up chunk by chunk."""

    __slots__ = ("counts",)

    def __init__(self, counts: dict[int, int] | None = None) -> None:
        self.counts: dict[int, int] = dict(counts or {})

    @classmethod
    def of(cls, values: Any) -> Counts:
        """The counts of an array of whole numbers."""
        c = cls()
        c.add(values)
        return c

    def add(self, values: Any) -> Counts:
        """Count the values of an array of whole numbers (booleans count as 0 and 1)."""
        a = np.asarray(values)
        if a.size:
            if a.dtype == np.bool_:
                a = a.astype(np.int8)
            vals, cnt = np.unique(a, return_counts=True)
            for v, n in zip(vals.tolist(), cnt.tolist()):
                self.counts[v] = self.counts.get(v, 0) + n
        return self

    def merge(self, other: Counts) -> Counts:
        for v, n in other.counts.items():
            self.counts[v] = self.counts.get(v, 0) + n
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counts) and self.counts == other.counts

    def __repr__(self) -> str:
        return f"Counts({dict(sorted(self.counts.items()))})"

    # -- sums ----------------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Runs counted."""
        return sum(self.counts.values())

    @property
    def total(self) -> int:
        """The sum of the values (exact)."""
        return sum(v * c for v, c in self.counts.items())

    def count(self, value: int) -> int:
        return self.counts.get(value, 0)

    def count_where(self, values: Iterable[int]) -> int:
        """Runs whose value is one of ``values``."""
        return sum(self.counts.get(v, 0) for v in values)

    # -- summaries -----------------------------------------------------------------------------------
    @property
    def mean(self) -> float:
        n = self.n
        return self.total / n if n else math.nan

    @property
    def squares(self) -> int:
        """The sum of the values' squares (exact)."""
        return sum(v * v * c for v, c in self.counts.items())

    @property
    def se(self) -> float:
        """Standard error of the mean (:func:`sums_mean_se`)."""
        return sums_mean_se(self.n, self.total, self.squares)

    @property
    def ci(self) -> tuple[float, float]:
        """The mean's 95 % normal interval (:func:`sums_mean_ci`)."""
        return sums_mean_ci(self.n, self.total, self.squares)[1]

    def distribution(self) -> dict[int, float]:
        """Share of runs per value (values that occurred only), in order."""
        n = self.n
        return {v: c / n for v, c in sorted(self.counts.items())}

    def percentile(self, q: float) -> int:
        """The ``q`` percentile as ``numpy.percentile(..., method="inverted_cdf")``: the smallest value
        with at least ``q`` % of the runs at or below it."""
        n = self.n
        need = max(1, math.ceil(Fraction(q).limit_denominator(10**6) * n / 100))
        seen = 0
        for v, c in sorted(self.counts.items()):
            seen += c
            if seen >= need:
                return v
        return max(self.counts)
