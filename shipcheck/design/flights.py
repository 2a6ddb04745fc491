"""Flying candidate ships: whole rounds on common random numbers, here, in worker processes or on Dask.

A candidate is flown by :func:`shipcheck.simulate_round` with the search's one flight seed, so every
candidate meets the same decks and dice (common random numbers) and the difference of two means
is a paired comparison. A flight depends only on the ship's text, the runs and that seed, never on
where it runs: batches are flown whole and their means come back in order, so the search decides
the same on one worker, on many, or on a Dask cluster.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from shipcheck.runtime.workers import chunk_runner, worker_payload

__all__ = ["Flights", "FlightSpec"]

_ANY = 1 << 30  # a search's flights are not counted ahead: the workers are capped by the CPUs alone


@dataclass(frozen=True)
class FlightSpec:
    """What every flight of one search shares: the round, the opponents (ship texts; None: the
    default field), the seed and a rules file."""

    round: str
    opponents: tuple[str, ...] | None
    seed: int
    rules: str | None


def fly_text(text: str, runs: int, spec: FlightSpec) -> float:
    """The mean credits of the ship written as ``text`` over ``runs`` rounds."""
    from shipcheck.round import simulate_round
    from shipcheck.shipfile import parse_ship

    ship = parse_ship(text)
    opponents = None if spec.opponents is None else [parse_ship(o) for o in spec.opponents]
    r = simulate_round(ship, round=spec.round, opponents=opponents, runs=runs, seed=spec.seed, rules=spec.rules)
    return float(r.ship_result.credits_mean)


def _fly_job(blob: bytes, seed: int, index: int, job: tuple[str, int]) -> float:
    """Worker entry point: one ship text and its runs; the spec arrives once per worker."""
    return fly_text(job[0], job[1], worker_payload(blob, lambda spec: spec))


class Flights:
    """Flies batches of ship texts and remembers every mean (a ship flown twice at the same runs is
    not flown again). ``flown`` counts the flights made. The workers (``workers`` processes, or a
    Dask ``scheduler``) are the runtime's (:func:`shipcheck.runtime.workers.chunk_runner`), started
    once for the whole search."""

    def __init__(self, spec: FlightSpec, *, workers: int | None = None, scheduler: Any = None) -> None:
        self.spec = spec
        self.workers = workers
        self.scheduler = scheduler
        self.flown = 0
        self._cache: dict[tuple[str, int], float] = {}
        self._stack = ExitStack()
        self._run: Any = None

    def __enter__(self) -> Flights:
        if self.scheduler is not None or (self.workers or 1) > 1:
            self._run = self._stack.enter_context(chunk_runner(
                _fly_job, self.spec, seed=self.spec.seed, n_chunks=_ANY, workers=self.workers,
                scheduler=self.scheduler, local=lambda i, job: fly_text(job[0], job[1], self.spec),
                what="the search's flights"))
        return self

    def __exit__(self, *exc: Any) -> None:
        # interrupted: flights not started are cancelled, the workers ended (the runtime's pool)
        self._stack.__exit__(*exc)

    def mean(self, text: str, runs: int) -> float | None:
        return self._cache.get((text, runs))

    def fly(self, texts: Sequence[str], runs: int) -> list[float]:
        """The mean credits of each ship, in order."""
        todo = list(dict.fromkeys(t for t in texts if (t, runs) not in self._cache))
        if todo:
            if self._run is not None:
                means = list(self._run(enumerate((t, runs) for t in todo)))
            else:
                means = [fly_text(t, runs, self.spec) for t in todo]
            for t, m in zip(todo, means):
                self._cache[(t, runs)] = float(m)
            self.flown += len(todo)
        return [self._cache[(t, runs)] for t in texts]
