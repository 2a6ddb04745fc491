"""``simulate_round``: Monte Carlo of whole rounds, the library call behind ``simulate --round``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np

from shipcheck import validate as valid
from shipcheck.defaults import MAX_RUNS_ROUND, RUNS_ROUND, default_round
from shipcheck.errors import InputError
from shipcheck.model import Ship
from shipcheck.round.chunks import Chunk, Job, Table, build_table, run_chunk
from shipcheck.round.deck import Deck, build_deck
from shipcheck.round.field import default_field
from shipcheck.round.policy import RoundPolicy, resolve_policy
from shipcheck.round.result import RUN_BYTES, PlayerResult, PlayerTally, RoundResult, RoundRuns
from shipcheck.round.rulebook import round_key, round_rules
from shipcheck.runtime.workers import chunk_plan, chunk_rng, chunk_runner, worker_payload
from shipcheck.validate import seed_of

__all__ = ["simulate_round"]

Progress = Callable[[int, int], Any]

BATCH = 4096


def _deck(deck: Any, rules: Any, edition: str | None) -> Deck:
    d = valid.deck(deck, edition=edition)  # the one check of a deck argument
    return build_deck(rules, edition) if d is None else d


# -- chunks on the chosen backend ------------------------------------------------------------------
def _task(blob: bytes, seed: int, index: int, n: int) -> Chunk:
    """One chunk in a worker: the job's table (the players' models and the engine's arrays) is kept
    per worker."""
    held = worker_payload(blob, _build)
    if held[0] is None:
        held[0] = build_table(held[1])
    return run_chunk(held[0], held[1].deck, chunk_rng(seed, index), n)


def _build(job: Job) -> list[Any]:
    return [None, job]


class _Gather:
    """The chunks' results added up as they arrive: per player the tally (exact counts), the per-type
    totals and the tiles lost; the per-run arrays too when they are kept. Memory: the summaries,
    plus the runs only when kept."""

    PER_RUN = ("credits", "card_credits", "lost", "survived", "gave_up", "days", "place", "sources")

    def __init__(self, players: int, keep: bool) -> None:
        self.keep = keep
        self.tally = [PlayerTally() for _ in range(players)]
        self.by_type: list[Any] = [0] * players
        self.tile_lost: list[Any] = [0] * players
        self.runs: dict[str, list[list[np.ndarray]]] = {k: [[] for _ in range(players)] for k in self.PER_RUN}
        self.done = 0

    def add(self, c: Chunk) -> None:
        for p in range(len(self.tally)):
            self.tally[p].merge(PlayerTally.of(*(getattr(c, k)[p] for k in self.PER_RUN)))
            self.by_type[p] = self.by_type[p] + np.asarray(c.by_type[p], dtype=np.int64)
            self.tile_lost[p] = self.tile_lost[p] + np.asarray(c.tile_lost[p], dtype=np.int64)
            if self.keep:
                for k in self.PER_RUN:
                    self.runs[k][p].append(getattr(c, k)[p])
        self.done += c.credits.shape[1]

    def per_run(self, p: int) -> RoundRuns | None:
        if not self.keep:
            return None
        arrays = {}
        for k in self.PER_RUN:
            a = np.concatenate(self.runs[k][p])
            self.runs[k][p] = []
            a.setflags(write=False)
            arrays[k] = a
        return RoundRuns(**arrays)


def _run(job: Job, seed: int, batch: int, runs: int, workers: int | None, scheduler: Any,
         progress: Progress | None, keep: bool) -> _Gather:
    table: Table | None = None

    out = _Gather(len(job.ships), keep)

    def local(i: int, n: int) -> Chunk:
        nonlocal table
        if table is None:
            table = build_table(job)
        # the bar moves within a chunk too where the runs fly plain
        tick = None if progress is None else (lambda k: progress(out.done + k, runs))
        return run_chunk(table, job.deck, chunk_rng(seed, i), n, tick=tick)

    if scheduler is None and (workers or 1) > 1 and runs > batch:
        from shipcheck import engine

        engine.ready()  # compiled (or loaded) once here, before the workers start: they inherit it
    with chunk_runner(_task, job, seed=seed, n_chunks=-(-runs // batch), workers=workers, scheduler=scheduler,
                      local=local, what="the policies") as run, closing(run(chunk_plan(runs, batch))) as results:
        for c in results:
            out.add(c)
            if progress is not None:
                progress(out.done, runs)
    return out


# -- the API ----------------------------------------------------------------------------------------
def simulate_round(
    ship: Ship | str | Path,
    *,
    round: int | str | None = None,
    opponents: Sequence[Ship | str | Path] | None = None,
    deck: Deck | str | Path | Sequence[str] | None = None,
    edition: str | None = None,
    runs: int = RUNS_ROUND,
    rng: Any = None,
    seed: int | None = None,
    batch: int = BATCH,
    workers: int | None = None,
    scheduler: Any = None,
    policy: str | RoundPolicy = "default",
    opponent_policy: str | RoundPolicy | None = None,
    progress: Progress | None = None,
    rules: str | Path | None = None,
    five_player: bool | None = None,
    assume_weakest: bool = False,
    purse: int | Sequence[int] = 0,
    keep_runs: bool = False,
) -> RoundResult:
    """Fly whole rounds of Galaxy Trucker: the ship and its opponents through adventure decks.

    Parameters
    ----------
    ship
        The ship (player 1, the leader at the start): a :class:`~shipcheck.model.Ship` or a file.
    round
        ``1``, ``2``, ``3``, ``"3a"`` or ``"learning"``: the deck, start positions and rewards.
        Default: the level of the ship's board (``"3a"`` for class IIIa), as the command line.
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
        the ships and policies (see :mod:`shipcheck.round.chunks`).
    workers, scheduler
        A process pool (``workers=N``) or Dask (``scheduler="local"``, an address or a Client).
    policy, opponent_policy
        ``"default"`` (docs/rounds.md), ``"racing"`` or a :class:`~shipcheck.round.policy.RoundPolicy`
        for the ship; the opponents fly ``opponent_policy`` (default ``"default"``).
    progress
        ``progress(done_runs, total_runs)`` after each chunk. An exception it raises stops the run
        (worker processes included) and reaches the caller: how a caller cancels a long run.
    rules
        A TOML file overriding the round's numbers (``tiles/rounds.toml``).
    five_player
        Five-player rules (digest §12); default: on with five players ("4 = 5" with True).
    assume_weakest
        With no opponent, take the ship to be the weakest in combat zones and sabotage (a ship
        alone otherwise ignores them): what ``simulate --card`` does with ``--assume-weakest``.
    purse
        The credits in each player's purse before the round (one number for every player, or one
        per player, the ship first): the purse never goes below zero, so a run's credits (the
        change of the purse) are never below minus the purse, and the penalty for lost components
        takes no more than the purse holds (``by_source`` shows what was paid). Default 0.
    keep_runs
        Also keep the per-run arrays (``result.players[i].credits`` and the others, which
        :meth:`~shipcheck.round.result.RoundResult.to_frame` and paired comparisons need; about
        :data:`~shipcheck.round.result.RUN_BYTES` bytes a run and player). Off by default: every
        summary (and ``to_dict()``, ``by_source``) is an exact count added up chunk by chunk, so
        memory does not grow with the runs.

    Examples
    --------
    >>> from shipcheck.shipfile import load_ship
    >>> r = simulate_round(load_ship("examples/class-I-scout.toml"), round=1, runs=2000, seed=1)
    >>> 0 <= r.p_finish <= 1
    True
    """
    me = valid.ship(ship)
    key = round_key(round) if round is not None else default_round(me.board)
    count = valid.count(runs, key="runs")
    batch = valid.count(batch, key="batch")
    if workers is not None:
        workers = valid.count(workers, key="workers")
    progress = valid.callback(progress, key="progress", expected="a callable(done_runs, total_runs) or None",
                              args=2)
    five_player = valid.flag(five_player, key="five_player", none=True)
    assume_weakest = bool(valid.flag(assume_weakest, key="assume_weakest"))
    ed = valid.edition(edition)
    pol = resolve_policy(policy)
    opp = resolve_policy(opponent_policy if opponent_policy is not None else "default", key="opponent_policy")
    rules_path = valid.rules(rules)
    s = seed_of(rng, seed)
    given = valid.opponents(opponents)
    notes: list[str] = []
    rr = round_rules(key, rules_path)
    if given is None:
        others, note = default_field(me, rr.level)
        notes.append(note)
    else:
        others = given
    ships = (me, *others)
    keep = bool(valid.flag(keep_runs, key="keep_runs"))
    runs = valid.runs(count, maximum=MAX_RUNS_ROUND, run_bytes=RUN_BYTES * len(ships) if keep else 0,
                      what="keeping the per-run results of")
    d = _deck(deck, rr, ed or (None if deck is not None else me.edition))
    five = len(ships) == 5 if five_player is None else bool(five_player)
    purses = _purse(purse, len(ships))
    job = Job(ships, (pol,) + (opp,) * len(others), rr, d, five, assume_weakest, purses)
    if assume_weakest and not others:
        notes.append("the ship alone is taken to be the weakest in combat zones and sabotage (--assume-weakest)")
    gathered = _run(job, s, batch, runs, workers, scheduler, progress, keep)
    notes += _notes(job, ships)
    if scheduler is None and (workers is None or workers == 1 or -(-runs // batch) <= 1):
        # flown in this process (as chunk_runner runs it: the command line passes --workers 1): how
        # the engine ran here (plain Python and why, compiled in memory only)
        from shipcheck import runtime

        notes += runtime.notes()
    return _assemble(job, key, s, batch, gathered, tuple(notes))


def _purse(purse: Any, players: int) -> tuple[int, ...]:
    """Each player's purse from ``purse`` (one number for all, or one per player)."""
    values = [purse] * players if isinstance(purse, int) and not isinstance(purse, bool) else purse
    ok = isinstance(values, Sequence) and not isinstance(values, str) and len(values) == players and all(
        isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10**9 for v in values)
    if not ok:
        raise InputError("bad `purse`", key="purse", value=purse,
                         expected=f"a whole number of credits 0-10**9, or a list of {players} (one per player)")
    return tuple(int(v) for v in values)


def _notes(job: Job, ships: tuple[Ship, ...]) -> list[str]:
    """The round's notes: one line per provisional value or caution, naming the ships it applies to."""
    from shipcheck.check.rules import check

    rr = job.rules
    out = rr.notes() + rr.card_rule_notes({c.type for c in job.deck.cards})
    table = build_table(job)
    shared: dict[str, list[str]] = {}  # a caution -> the ships it applies to, in launch order
    for i, sh in enumerate(ships):
        who = "the ship" if i == 0 else f"opponent {i} ({sh.name or sh.source or 'unnamed'})"
        _cap, why = rr.cap_for(sh.board.name, sh.board.max_penalty)
        if why:
            shared.setdefault(f"provisional cap: {why}", []).append(who)
        if not sh.board.verified:
            shared.setdefault(f"unverified board {sh.board.name}: geometry is provisional", []).append(who)
        if sh.board.level != rr.level:
            shared.setdefault(f"a class {sh.board.name} ship in a level-{rr.level} round", []).append(who)
    out += [f"{what} (for {_names(whos, len(ships))})" for what, whos in shared.items()]
    for i, (sh, m) in enumerate(zip(ships, table.models)):
        who = "the ship" if i == 0 else f"opponent {i} ({sh.name or sh.source or 'unnamed'})"
        if not check(sh).legal:
            out.append(f"{who} is illegal: it flies as written (the inspection would remove components first)")
        out += [f"{who}: {n}" for n in m.notes]
    return out


def _names(whos: list[str], players: int) -> str:
    if len(whos) == players > 1:
        return "every ship"
    return whos[0] if len(whos) == 1 else ", ".join(whos[:-1]) + " and " + whos[-1]


def _assemble(job: Job, key: str, seed: int, batch: int, g: _Gather, notes: tuple[str, ...]) -> RoundResult:
    players = []
    for p, sh in enumerate(job.ships):
        by_type = np.asarray(g.by_type[p], dtype=np.int64)
        tile_lost = np.asarray(g.tile_lost[p], dtype=np.int64).reshape(len(sh.tiles))
        name = sh.name or (Path(sh.source).stem if sh.source else f"player {p + 1}")
        players.append(PlayerResult(name, sh, job.policies[p].name, g.tally[p], tile_lost, by_type, job.purse[p],
                                    g.per_run(p)))
    return RoundResult(tuple(players), key, job.rules, job.deck, g.done, seed, batch, job.five, notes, job.purse)
