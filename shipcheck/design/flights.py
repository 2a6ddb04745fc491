"""Flying candidate ships: whole rounds on common random numbers, here, in worker processes or on Dask.

A candidate is flown by :func:`shipcheck.simulate_round` with the search's one flight seed, so every
candidate meets the same decks and dice (common random numbers) and the difference of two means
is a paired comparison. A flight depends only on the ship's text, the runs and that seed, never on
where it runs: batches are flown whole and their means come back in order, so the search decides
the same on one worker, on many, or on a Dask cluster.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Flights", "FlightSpec"]


@dataclass(frozen=True)
class FlightSpec:
    """What every flight of one search shares: the round, the opponents (ship texts; None: the
    default field), the seed and a rules file."""

    round: str
    opponents: tuple[str, ...] | None
    seed: int
    rules: str | None


def fly_text(text: str, runs: int, spec: FlightSpec) -> float:
    """The mean credits of the ship written as ``text`` over ``runs`` rounds (worker entry point)."""
    from shipcheck.round import simulate_round
    from shipcheck.shipfile import parse_ship

    ship = parse_ship(text)
    opponents = None if spec.opponents is None else [parse_ship(o) for o in spec.opponents]
    r = simulate_round(ship, round=spec.round, opponents=opponents, runs=runs, seed=spec.seed, rules=spec.rules)
    return float(r.ship_result.credits_mean)


def _quiet_worker() -> None:
    # a Ctrl-C in the terminal reaches the whole process group: the parent alone decides
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Flights:
    """Flies batches of ship texts and remembers every mean (a ship flown twice at the same runs is
    not flown again). ``flown`` counts the flights made."""

    def __init__(self, spec: FlightSpec, *, workers: int | None = None, scheduler: Any = None) -> None:
        self.spec = spec
        self.workers = workers
        self.scheduler = scheduler
        self.flown = 0
        self._cache: dict[tuple[str, int], float] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None
        self._own_client = False

    def __enter__(self) -> Flights:
        if self.scheduler is not None:
            self._client, self._own_client = _client(self.scheduler)
        elif self.workers is not None and self.workers > 1:
            import multiprocessing

            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_quiet_worker)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._pool is not None:
            # interrupted: flights not started are cancelled; those under way end on their own
            self._pool.shutdown(wait=exc[0] is None, cancel_futures=True)
        if self._client is not None and self._own_client:
            self._client.close()

    def mean(self, text: str, runs: int) -> float | None:
        return self._cache.get((text, runs))

    def fly(self, texts: Sequence[str], runs: int) -> list[float]:
        """The mean credits of each ship, in order."""
        todo = list(dict.fromkeys(t for t in texts if (t, runs) not in self._cache))
        if todo:
            if self._client is not None:
                futures = self._client.map(fly_text, todo, [runs] * len(todo), [self.spec] * len(todo), pure=False)
                means = self._client.gather(futures)
            elif self._pool is not None:
                means = list(self._pool.map(fly_text, todo, [runs] * len(todo), [self.spec] * len(todo)))
            else:
                means = [fly_text(t, runs, self.spec) for t in todo]
            for t, m in zip(todo, means):
                self._cache[(t, runs)] = float(m)
            self.flown += len(todo)
        return [self._cache[(t, runs)] for t in texts]


def _client(scheduler: Any) -> tuple[Any, bool]:
    """A Dask client for ``scheduler``: a Client as it is, or an address (a client of our own)."""
    try:
        from dask.distributed import Client
    except ImportError:  # pragma: no cover - the dask extra is installed with the tests
        raise ImportError("the Dask backend needs the optional dependency: pip install 'shipcheck[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    if isinstance(scheduler, (str, Path)):
        return Client(str(scheduler), timeout=10), True
    from shipcheck.errors import InputError

    raise InputError("bad scheduler", key="scheduler", value=scheduler,
                     expected="a Dask scheduler address (tcp://host:port) or a dask.distributed.Client")
