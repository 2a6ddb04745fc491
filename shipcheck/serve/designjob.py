"""The workbench's *Design* action: :func:`shipcheck.design` as a job in a worker process.

``POST /api/design`` completes the page's ship (``--from``) or designs a new one of a class, with
a budget and a seed, exactly as ``shipcheck design`` does. The search runs in a worker process of
the server's :class:`~.oddsjobs.Pool` and sends its progress (candidates flown of the budget, the
best mean so far) as it goes. Cancelled, the worker gets a Ctrl-C: the library keeps the best ship
so far and the job sends it as its result (``stopped: "interrupted"``); a worker that does not
answer within :data:`GRACE` seconds is killed. One design runs at a time (429 for a second).
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import Any

from shipcheck import validate as valid
from shipcheck.errors import InputError
from shipcheck.model import Ship
from shipcheck.serve import api
from shipcheck.serve.jobs import Cancelled, Job
from shipcheck.serve.oddsjobs import Pool, WorkerFailed, interruptible, report
from shipcheck.serve.refusals import jsonable, strings
from shipcheck.serve.shipdoc import UNNAMED
from shipcheck.serve.workspace import Workspace
from shipcheck.topology import BUILTIN_CLASSES

#: seconds an interrupted design has to send its best ship before its worker is killed
GRACE = 10.0


def design_job(ws: Workspace, body: dict[str, Any], pool: Pool) -> Any:
    """``{"ship", "path"}`` (complete this ship) or ``{"class", "edition"}`` (a new one), with
    ``budget``, ``seed``, ``round`` and ``opponents``: a job designing it in a worker of ``pool``."""
    from shipcheck.check.rules import check
    from shipcheck.design import BUDGET
    from shipcheck.validate import fresh_seed

    if ("ship" in body) == ("class" in body):
        raise InputError("give `ship` (complete this ship) or `class` (a new one), not both and not neither",
                         key="class", expected='{"ship": {...}} or {"class": "II"}')
    start: Ship | None = None
    named = shown = None  # the ship's name (kept), how results name it (its file)
    if "ship" in body:
        start, shown = api.ship_of(ws, body)
        named = start.name
        if not check(start).legal:
            raise InputError("the ship to complete is not legal: mend it first (the Check pane's repair)",
                             key="ship", value=api.shown_name(start, shown), expected="a legal ship")
        cls, edition = start.board.name, None
        if not start.aside and all(t.implied for t in start.tiles):
            # nothing to keep: designed as a new one of its class (the field's ships may start the search)
            edition, start = start.edition, None
    else:
        cls = valid.choice(body["class"], BUILTIN_CLASSES, key="class", what="unknown ship class")
        edition = valid.edition(body.get("edition")) or "2007"
    budget = valid.count(body.get("budget", BUDGET), key="budget", maximum=api.LIMITS["design_budget"])
    given = valid.seed(body.get("seed"))
    seed = fresh_seed() if given is None else given
    rnd = valid.round_key(body["round"]) if body.get("round") is not None else None
    names = strings(body, "opponents", most=api.LIMITS["opponents"]) if body.get("opponents") is not None else None
    opponents = None if names is None else [api.load(ws, o) for o in names]
    args = (cls if start is None else None, start, edition, rnd, opponents, budget, seed, named)
    command = _command(cls, edition, None if start is None else shown, rnd, names, budget, seed)

    def work(job: Job) -> Any:
        from shipcheck.round.chunks import compile_note

        job.progress(stage=compile_note() or "starting the designer", done=0, total=budget, best=None)

        def progress(p: dict[str, Any]) -> None:
            try:
                job.progress(**p)
            except Cancelled:  # cancelled: the pool interrupts the worker and waits for its best ship
                pass

        try:
            d = pool.run(run_design, args, stop=job.cancelled.is_set, tick=lambda _s: None, progress=progress,
                         grace=GRACE)
        except WorkerFailed as exc:
            raise RuntimeError(str(exc)) from None
        if d is None:
            raise Cancelled()
        if shown not in (None, UNNAMED):
            d["ship"] = shown
        d["command"] = command
        return d

    return work


def run_design(cls: str | None, start: Ship | None, edition: str | None, rnd: str | None,
               opponents: list[Ship] | None, budget: int, seed: int, name: str | None) -> dict[str, Any]:
    """:func:`shipcheck.design` in a worker: its progress reported to the server, a Ctrl-C keeping
    the best ship so far. The result's JSON (``shipcheck design --format json``) with ``doc``,
    the ship as the page holds it (named ``name`` when given), and ``toml``, its ship file."""
    from shipcheck.design import design
    from shipcheck.serve.shipdoc import doc_of
    from shipcheck.shipfile import dump_ship

    report({"stage": "building the starting ships", "done": 0, "total": budget, "best": None})

    def progress(p: Any) -> None:
        report({"stage": "flying candidates", "done": p.evaluations, "total": p.budget, "best": p.best,
                "seconds": round(p.elapsed, 1)})

    with interruptible():
        r = design(cls, start=start, edition=edition, round=rnd, opponents=opponents, budget=budget, seed=seed,
                   progress=progress)
    ship = replace(r.ship, name=name) if name else r.ship
    earns = f": {r.credits:.2f} credits a round" if r.history else ""
    text = dump_ship(ship, comment=f"designed by `shipcheck design` (seed {r.seed}, budget {r.budget}){earns}")
    return jsonable({**r.to_dict(), "ship": ship.name, "doc": doc_of(text), "toml": text})


def _command(cls: str, edition: str | None, source: str | None, rnd: str | None, opponents: list[str] | None,
             budget: int, seed: int) -> str:
    """The command line that designs the same ship (from the saved file, when completing one)."""
    parts = ["shipcheck", "design"]
    if source is None:
        parts += ["--class", cls] + (["--edition", edition] if edition and edition != "2007" else [])
    else:
        parts += ["--from", source if source != UNNAMED else "SHIP.toml"]
    if rnd is not None:
        parts += ["--round", rnd]
    for o in opponents or []:
        parts += ["--opponent", o]
    parts += ["--seed", str(seed), "--budget", str(budget)]
    return " ".join(shlex.quote(p) for p in parts)
