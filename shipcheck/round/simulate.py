"""``simulate_round``: Monte Carlo of whole rounds, the library call behind ``simulate --round``."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from shipcheck.errors import InputError
from shipcheck.model import Ship

from .deck import Deck, build_deck, fixed_deck, load_deck_file
from .engine import Chunk, Job, build_table, run_chunk
from .field import default_field
from .policy import RoundPolicy, resolve_policy
from .race import Table
from .result import PlayerResult, RoundResult
from .rulebook import round_key, round_rules

__all__ = ["simulate_round"]

Progress = Callable[[int, int], Any]


def _ship(s: Any, what: str) -> Ship:
    if isinstance(s, Ship):
        return s
    if isinstance(s, (str, Path)):
        from shipcheck.shipfile import load_ship

        return load_ship(s)
    raise TypeError(f"{what} must be a Ship or a ship file path, not {type(s).__name__}")


def _deck(deck: Any, rules: Any, edition: str | None) -> Deck:
    if deck is None:
        return build_deck(rules, edition)
    if isinstance(deck, Deck):
        return deck
    if isinstance(deck, (str, Path)):
        d = load_deck_file(deck)
        if edition is not None and d.edition != edition:
            raise InputError("the deck file's edition is not the one asked for", file=str(deck), key="edition",
                             value=d.edition, expected=edition)
        return d
    if isinstance(deck, Sequence) and all(isinstance(c, str) for c in deck):
        return fixed_deck(list(deck), edition)
    raise TypeError("`deck` must be None (drawn), a Deck, a deck file path or a list of card ids")


# -- chunks on the chosen backend ------------------------------------------------------------------
_TABLES: dict[bytes, Table] = {}


def _table_for(blob: bytes) -> tuple[Table, Job]:
    hit = _TABLES.get(blob)
    job: Job = pickle.loads(blob)
    if hit is None:
        if len(_TABLES) >= 4:
            _TABLES.pop(next(iter(_TABLES)))
        hit = _TABLES[blob] = build_table(job)
    return hit, job


def _chunk_rng(seed: int, index: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(index,)))


def _task(blob: bytes, seed: int, index: int, n: int) -> Chunk:
    """One chunk in a worker process; the table of states and memos is kept per worker."""
    table, job = _table_for(blob)
    return run_chunk(table, job.deck, _chunk_rng(seed, index), n)


def _run(job: Job, seed: int, plan: list[tuple[int, int]], workers: int | None, scheduler: Any,
         progress: Progress | None, runs: int) -> list[Chunk]:
    out: list[Chunk] = []
    done = 0

    def got(c: Chunk) -> None:
        nonlocal done
        out.append(c)
        done += c.credits.shape[1]
        if progress is not None:
            progress(done, runs)

    if scheduler is None and (workers is None or workers == 1 or len(plan) == 1):
        table = build_table(job)
        for i, n in plan:
            got(run_chunk(table, job.deck, _chunk_rng(seed, i), n))
        return out
    try:
        blob = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # any pickling failure means the same thing here
        raise InputError("the policies must be picklable to run on several workers or a Dask scheduler",
                         key="policy") from e
    if scheduler is None:
        from concurrent.futures import ProcessPoolExecutor

        from shipcheck.montecarlo import _mp_context

        with ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context()) as ex:
            for c in ex.map(_task, [blob] * len(plan), [seed] * len(plan), [i for i, _ in plan],
                            [n for _, n in plan]):
                got(c)
        return out
    import logging

    try:
        import distributed
    except ImportError as e:
        raise ImportError("the Dask backend needs the optional dependency: pip install 'shipcheck[dask]'") from e
    cluster = None
    if isinstance(scheduler, distributed.Client):
        client, own = scheduler, False
    elif scheduler == "local":
        cluster = distributed.LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=logging.ERROR)
        client, own = distributed.Client(cluster), True
    else:
        client, own = distributed.Client(scheduler), True
    try:
        blob_f = client.scatter(blob, broadcast=True)
        futures = [client.submit(_task, blob_f, seed, i, n, pure=False) for i, n in plan]
        for f in futures:
            got(f.result())
    finally:
        if own:
            client.close()
        if cluster is not None:
            cluster.close()
    return out


# -- the API ----------------------------------------------------------------------------------------
def simulate_round(
    ship: Ship | str | Path,
    *,
    round: int | str = 1,
    opponents: Sequence[Ship | str | Path] | None = None,
    deck: Deck | str | Path | Sequence[str] | None = None,
    edition: str | None = None,
    runs: int = 10_000,
    rng: Any = None,
    seed: int | None = None,
    batch: int = 32_768,
    workers: int | None = None,
    scheduler: Any = None,
    policy: str | RoundPolicy = "default",
    opponent_policy: str | RoundPolicy | None = None,
    progress: Progress | None = None,
    rules: str | Path | None = None,
    five_player: bool | None = None,
) -> RoundResult:
    """Fly whole rounds of Galaxy Trucker: the ship and its opponents through adventure decks.

    Parameters
    ----------
    ship
        The ship (player 1, the leader at the start): a :class:`~shipcheck.model.Ship` or a file.
    round
        ``1``, ``2``, ``3``, ``"3a"`` or ``"learning"``: the deck, start positions and rewards.
    opponents
        Ships flying with it, in launch order (at most 4). None: the default field of the ship's
        class shipped with the tool (:func:`shipcheck.round.field.default_field`); ``[]``: alone.
    deck
        None: every run draws a deck as the rules build it; a deck file, a list of card ids or a
        :class:`~shipcheck.round.deck.Deck` fixes the cards and their order.
    edition
        The card edition (``"2007"``, ``"2021"``); default the ship's.
    runs, rng, seed, batch
        Number of rounds and the random stream, as :func:`shipcheck.simulate`: chunk ``i`` of
        ``batch`` runs draws from ``SeedSequence(seed, spawn_key=(i,))``, so the numbers depend on
        the seed and the batch only. With one seed, run ``r`` sees the same deck and dice whatever
        the ships and policies (see :mod:`shipcheck.round.engine`).
    workers, scheduler
        A process pool (``workers=N``) or Dask (``scheduler="local"``, an address or a Client).
    policy, opponent_policy
        ``"default"`` (contract §5), ``"racing"`` or a :class:`~shipcheck.round.policy.RoundPolicy`
        for the ship; the opponents fly ``opponent_policy`` (default ``"default"``).
    progress
        ``progress(done_runs, total_runs)`` after each chunk.
    rules
        A TOML file overriding the round's numbers (``tiles/rounds.toml``).
    five_player
        Five-player rules (digest §12); default: on with five players ("4 = 5" with True).

    Examples
    --------
    >>> from shipcheck.shipfile import load_ship
    >>> r = simulate_round(load_ship("examples/class-I-scout.toml"), round=1, runs=2000, seed=1)
    >>> 0 <= r.p_finish <= 1
    True
    """
    from shipcheck.montecarlo import _positive_int, _seed_of

    key = round_key(round)
    runs = _positive_int("runs", runs)
    batch = _positive_int("batch", batch)
    if workers is not None:
        workers = _positive_int("workers", workers)
    if progress is not None and not callable(progress):
        raise TypeError("`progress` must be a callable(done_runs, total_runs) or None.")
    s = _seed_of(rng, seed)
    me = _ship(ship, "`ship`")
    notes: list[str] = []
    rr = round_rules(key, rules)
    if opponents is None:
        others, note = default_field(me, rr.level)
        notes.append(note)
    else:
        others = [_ship(o, "an opponent") for o in opponents]
    if len(others) > 4:
        raise InputError("too many opponents", key="opponents", value=len(others), expected="at most 4 (5 players)")
    ships = (me, *others)
    d = _deck(deck, rr, edition or (None if deck is not None else me.edition))
    pol = resolve_policy(policy)
    opp = resolve_policy(opponent_policy if opponent_policy is not None else "default")
    five = len(ships) == 5 if five_player is None else bool(five_player)
    job = Job(ships, (pol,) + (opp,) * len(others), rr, d, five)
    plan = []
    i = done = 0
    while done < runs:
        n = min(batch, runs - done)
        plan.append((i, n))
        i += 1
        done += n
    chunks = _run(job, s, plan, workers, scheduler, progress, runs)
    notes += _notes(job, ships)
    return _assemble(job, key, s, batch, chunks, tuple(notes))


def _notes(job: Job, ships: tuple[Ship, ...]) -> list[str]:
    from shipcheck.rules import check

    rr = job.rules
    out = rr.notes()
    table = build_table(job)
    for i, (sh, m) in enumerate(zip(ships, table.models)):
        who = "the ship" if i == 0 else f"opponent {i} ({sh.name or sh.source or 'unnamed'})"
        cap, why = rr.cap_for(sh.board.name, sh.board.max_penalty)
        if why:
            out.append(f"provisional cap for {who}: {why}")
        if not sh.board.verified:
            out.append(f"{who} flies an unverified board ({sh.board.name}): geometry is provisional")
        if sh.board.level != rr.level:
            out.append(f"{who} is a class {sh.board.name} ship in a level-{rr.level} round")
        if not check(sh).legal:
            out.append(f"{who} is illegal: it flies as written (the inspection would remove components first)")
        out += [f"{who}: {n}" for n in m.notes]
        if m.multi and m.engine_boosters:
            out.append(f"{who}: on a ship of several hulls an engine booster sends the whole ship to hyperspace")
    return out


def _assemble(job: Job, key: str, seed: int, batch: int, chunks: list[Chunk], notes: tuple[str, ...]) -> RoundResult:
    players = []
    for p, sh in enumerate(job.ships):
        def cat(name: str, p: int = p) -> np.ndarray:
            a = np.concatenate([getattr(c, name)[p] for c in chunks])
            a.setflags(write=False)
            return a

        by_type = np.asarray(np.sum([c.by_type[p] for c in chunks], axis=0, dtype=np.int64))
        tile_lost = np.sum([c.tile_lost[p] for c in chunks], axis=0, dtype=np.int64).reshape(len(sh.tiles))
        name = sh.name or (Path(sh.source).stem if sh.source else f"player {p + 1}")
        players.append(PlayerResult(name, sh, job.policies[p].name, cat("credits"), cat("card_credits"), cat("lost"),
                                    cat("survived"), cat("gave_up"), cat("days"), cat("place"), tile_lost, by_type))
    runs = len(players[0].credits)
    return RoundResult(tuple(players), key, job.rules, job.deck, runs, seed, batch, job.five, notes)
