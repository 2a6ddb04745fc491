"""What each endpoint does, as plain functions of the workspace and the request's JSON.

Every function here takes decoded input and returns a JSON-ready value, or raises
:class:`~shipcheck.errors.InputError` for bad input (answered 400 with the same lines the command
line prints). The web layer (:mod:`.app`) only decodes, authorises and encodes. Long work
(:func:`round_job`, :func:`credits_job`, :func:`report_job`) returns a function for a
:class:`~.jobs.Job`, which reports progress and stops when cancelled.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import Any

from shipcheck import validate as valid
from shipcheck.check.rules import RULES, check
from shipcheck.defaults import ROUNDS, RUNS_COMPARE, RUNS_ROUND, default_round
from shipcheck.errors import InputError, suggest
from shipcheck.model import Ship
from shipcheck.serve.jobs import Cancelled, Job
from shipcheck.serve.oddsjobs import Pool
from shipcheck.serve.refusals import boolean, jsonable, strings, text
from shipcheck.serve.shipdoc import UNNAMED, doc_of, kinds, ship_from_doc, ship_from_text, view
from shipcheck.serve.workspace import Workspace
from shipcheck.shipfile import EDITIONS, board_from, dump_ship, rewrite_ship_text, save_text, tile_lines
from shipcheck.topology import BUILTIN_CLASSES

#: bounds of the work one request may ask for
LIMITS = {"round_runs": 200_000, "credits_runs": 5_000, "report_runs": 20_000, "attacks": 12, "cards": 6,
          "opponents": 4, "design_budget": 20_000}
#: the keys each endpoint's JSON body may hold (docs/workbench.md); any other is refused by name
SHIP_KEYS = ("ship", "path")
KEYS = {
    "open": ("path",), "new": ("class", "edition", "name"), "analyze": SHIP_KEYS, "fix": SHIP_KEYS,
    "odds": (*SHIP_KEYS, "attacks", "cards", "opponents", "assume_weakest"), "place": (*SHIP_KEYS, "tile"),
    "credits": (*SHIP_KEYS, "tile", "runs", "seed"),
    "round": (*SHIP_KEYS, "round", "runs", "seed", "edition", "opponents"),
    "design": (*SHIP_KEYS, "class", "edition", "budget", "seed", "round", "opponents"),
    "report": (*SHIP_KEYS, "round", "runs", "seed"), "toml": SHIP_KEYS, "save": (*SHIP_KEYS, "to", "overwrite"),
    "save/check": (*SHIP_KEYS, "to", "overwrite"),
}
#: the kinds of long work (:class:`~.jobs.Job`): ``POST /api/cancel?kind=`` names one
JOBS = ("odds", "credits", "round", "design", "report")
BATCH = 1024  # chunks of whole rounds: a progress report (and a chance to cancel) every chunk
ATTACK_KINDS = ("small-meteor", "large-meteor", "light-shot", "heavy-shot")
DIRECTIONS = ("front", "right", "rear", "left")


# -- reading the request's ship --------------------------------------------------------------------
def origin(ws: Workspace, body: dict[str, Any]) -> tuple[str, Path]:
    """The name results give the ship, and the folder its `board` path is read from: the file it
    came from (``body["path"]``) when there is one, else the start folder."""
    name = text(body, "path")
    if not name:
        return UNNAMED, ws.root
    p = ws.path(name)
    return ws.display(p), p.parent


def ship_of(ws: Workspace, body: dict[str, Any]) -> tuple[Ship, str]:
    if "ship" not in body:
        raise InputError("missing `ship`", key="ship", expected="the ship as an object with the keys of a ship file")
    name, base = origin(ws, body)
    return ship_from_doc(body["ship"], ws, name=name, base=base), name


#: how results name a ship that was never saved, and has no name either
NOT_SAVED = "this ship (not saved)"


def shown_name(ship: Ship, name: str) -> str:
    """How results name the request's ship: its file, else its name (not saved), never ``<input>``."""
    if name != UNNAMED:
        return name
    return f"{ship.name} (not saved)" if ship.name else NOT_SAVED


def load(ws: Workspace, name: str, key: str = "opponents") -> Ship:
    """A ship file of the workspace (an opponent), its board path confined like the ship's."""
    p = ws.path(name, key=key)
    from shipcheck.errors import read_text_file
    from shipcheck.shipfile import SHIP_BYTES

    return ship_from_text(read_text_file(p, what="ship file", limit=SHIP_BYTES), ws, name=ws.display(p),
                          base=p.parent)


# -- the session and the catalogues -----------------------------------------------------------------
def session(ws: Workspace) -> dict[str, Any]:
    named = None
    if ws.named is not None:
        named = {"path": ws.display(ws.named), "exists": ws.named.is_file()}
    from shipcheck._version import __version__

    return {"version": __version__, "root": str(ws.root), "named": named, **_session()}


@functools.cache
def _session() -> dict[str, Any]:
    """What ``GET /api/session`` says that never changes (worked out once: the page asks it often,
    and it must answer at once while jobs run)."""
    from shipcheck.design import BUDGET as DESIGN_BUDGET
    from shipcheck.report.palette import palette

    return {
        "classes": list(BUILTIN_CLASSES), "editions": list(EDITIONS), "rounds": list(ROUNDS),
        "attack_kinds": list(ATTACK_KINDS), "directions": list(DIRECTIONS), "kinds": kinds(),
        "palette": palette(), "rules": [{"code": r.code, "name": r.name, "severity": r.severity,
                                          "summary": r.summary} for r in RULES.values()],
        "limits": LIMITS, "defaults": {"round_runs": RUNS_ROUND, "compare_runs": RUNS_COMPARE,
                                       "design_budget": DESIGN_BUDGET},
    }


def files(ws: Workspace) -> dict[str, Any]:
    return {"root": str(ws.root), "files": ws.ship_files()}


def tiles(edition: str, kind: str | None = None, sides: str | None = None, any_rotation: bool = False
          ) -> dict[str, Any]:
    """The catalogue of an edition, as ``shipcheck tiles`` lists it; ``sides`` finds the tiles that
    show those sides (``rot`` to write for each), in any rotation with ``any_rotation``."""
    from shipcheck.model import KINDS
    from shipcheck.shipfile import catalogue_entries, find_tiles

    if edition not in EDITIONS:
        raise InputError("unknown edition", key="edition", value=edition, expected='"2007" or "2021"',
                         hint=suggest(edition, EDITIONS))
    rows = catalogue_entries(edition)
    if kind:
        if kind not in KINDS:
            raise InputError("unknown tile kind", key="kind", value=kind, expected="one of " + ", ".join(KINDS),
                             hint=suggest(kind, KINDS))
        rows = [r for r in rows if r["kind"] == kind]
    if sides:
        if len(sides) != 4 or any(c not in "0123" for c in sides):
            raise InputError("bad sides", key="sides", value=sides,
                             expected="4 digits N E S W: 0 smooth, 1 single, 2 double, 3 universal")
        found = dict(find_tiles(sides, edition=edition, any_rotation=any_rotation))
        rows = [{**r, "rot": found[r["id"]]} for r in rows if r["id"] in found]
    return {"edition": edition, "tiles": rows}


def cards(edition: str) -> dict[str, Any]:
    from shipcheck.cards import load_cards
    from shipcheck.round.cardodds import CARD_TYPES

    if edition not in EDITIONS:
        raise InputError("unknown edition", key="edition", value=edition, expected='"2007" or "2021"')
    return {"edition": edition, "cards": [{**c.to_dict(), "full_id": c.full_id, "flyable": c.type in CARD_TYPES}
                                          for c in load_cards(edition)]}


def rule(code: str) -> dict[str, Any]:
    """`rules CODE`: the rule's text, and its bad and good examples drawn and checked."""
    key = code.upper()
    if key not in RULES:
        raise InputError("unknown rule code", key="CODE", value=code, expected="one of " + ", ".join(RULES),
                         hint=suggest(code, RULES))
    from shipcheck.shipfile import parse_ship

    r = RULES[key]
    out: dict[str, Any] = {"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary,
                           "why": r.why, "fixable": r.fixable, "source": r.source}
    for which, src in (("bad", r.bad), ("good", r.good)):
        s = parse_ship(src, file=f"<rule {key} {which} example>")
        rep = check(s)
        out[which] = {"toml": src.strip(), "check": rep.to_dict(f"<{which} example>"), "view": view(s, rep)}
    return out


# -- a ship, studied -------------------------------------------------------------------------------
def check_text(ws: Workspace, body: str, name: str, select: str | None, ignore: str | None) -> dict[str, Any]:
    """``POST /api/check``: what ``shipcheck check FILE --format json`` prints for a ship file's text."""
    from shipcheck.check.outputs import Checked

    s = ship_from_text(body, ws, name=name)
    rep = check(s, select=_codes(select, "select"), ignore=_codes(ignore, "ignore"))
    return Checked(name, rep, tile_lines(body, s.board)).to_dict()


def stats_text(ws: Workspace, body: str, name: str) -> dict[str, Any]:
    """``POST /api/stats``: what ``shipcheck stats FILE --format json`` prints."""
    from shipcheck.flight.stats import stats

    d = stats(ship_from_text(body, ws, name=name)).to_dict()
    d["ship"] = name
    return jsonable(d)


def _codes(value: str | None, key: str) -> set[str] | None:
    if not value:
        return None
    out = set()
    for part in value.replace(" ", ",").split(","):
        if part and part.upper() not in RULES:
            raise InputError(f"unknown rule code in `{key}`", key=key, value=part,
                             expected="codes from `shipcheck rules`: " + ", ".join(RULES))
        if part:
            out.add(part.upper())
    return out


def analysis(ship: Ship, name: str) -> dict[str, Any]:
    """Everything the page shows after an edit: the check (rule breaks, exposed connectors), the
    ship's parameters and the drawing. The minimal repair of an illegal ship is not in it: it takes
    an integer program (tens of milliseconds on a broken class III ship), so the page asks
    ``POST /api/fix`` for it once the edit is drawn."""
    from shipcheck.check.outputs import Checked
    from shipcheck.flight.stats import stats

    t0 = time.perf_counter()
    rep = check(ship)
    out: dict[str, Any] = {
        "check": Checked(name, rep).to_dict(),
        "stats": jsonable({**stats(ship).to_dict(), "ship": name}),
        "view": view(ship, rep),
        "tiles": ship.tile_count_text(),
    }
    out["ms"] = round((time.perf_counter() - t0) * 1000, 2)
    return out


def analyze(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    s, name = ship_of(ws, body)
    return analysis(s, name)


def open_file(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    p, txt = ws.read(body.get("path"))
    name = ws.display(p)
    s = ship_from_text(txt, ws, name=name, base=p.parent)
    # TOML dates (in [meta]) travel as strings: JSON has no dates
    return {"path": name, "doc": jsonable(doc_of(txt)), "analysis": analysis(s, name)}


def new_ship(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    cls = valid.choice(body.get("class", "I"), BUILTIN_CLASSES, key="class", what="ship class")
    edition = valid.edition(body.get("edition", "2007")) or "2007"
    name = text(body, "name", limit=200)
    doc: dict[str, Any] = {"format": 1, "class": cls}
    if edition != "2007":
        doc["edition"] = edition
    if name:
        doc["name"] = name
    s = ship_from_doc(doc, ws)
    return {"path": None, "doc": doc, "analysis": analysis(s, UNNAMED)}


def fix_ship(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    """The minimal repair: what ``shipcheck fix --format json`` prints (``ms``: the server's time)."""
    from shipcheck.check.fix import fix

    s, name = ship_of(ws, body)
    t0 = time.perf_counter()
    out = fix(s).to_dict(name)
    out["ms"] = round((time.perf_counter() - t0) * 1000, 2)
    return out


# -- flying ----------------------------------------------------------------------------------------
def odds_job(ws: Workspace, body: dict[str, Any], pool: Pool) -> Any:
    """Exact odds of attacks in order (``attacks``) or of cards (``cards``), with each tile's chance
    of being lost (the heat map), as a job computed in a worker process of ``pool`` (the exact pass
    cannot be stopped from a thread; a worker can be killed)."""
    s, name = ship_of(ws, body)
    attacks = strings(body, "attacks", most=LIMITS["attacks"])
    card_ids = strings(body, "cards", most=LIMITS["cards"])
    if bool(attacks) == bool(card_ids):
        raise InputError("give `attacks` or `cards` (a list each), not both and not neither", key="attacks",
                         expected='attacks like ["large-meteor:front"] or cards like ["I-09"]')
    if attacks:
        from shipcheck.flight.chain import parse_attack

        args: tuple[Any, ...] = (s, [parse_attack(a, key="attacks") for a in attacks], None, (), False)
        what = f"{len(attacks)} attack{'s' if len(attacks) != 1 else ''}"
    else:
        from shipcheck.cards import find_card
        from shipcheck.round.cardodds import flyable
        from shipcheck.validate import as_option

        try:
            found = [find_card(c) if ":" in c else find_card(c, s.edition) for c in card_ids]
        except InputError as exc:
            raise as_option(exc, {"card": "cards", "edition": "cards"}) from None
        opponents = [load(ws, o) for o in strings(body, "opponents", most=LIMITS["opponents"])]
        weakest = boolean(body, "assume_weakest")
        flyable(found, opponents=bool(opponents), assume_weakest=weakest)  # a 400 before the job starts
        args = (s, None, found, opponents, weakest)
        what = f"{len(card_ids)} card{'s' if len(card_ids) != 1 else ''}"

    def work(job: Job) -> Any:
        from shipcheck.serve.oddsjobs import TooBig, WorkerFailed

        stage = f"computing the exact odds of {what}"
        job.progress(stage=stage, seconds=0.0)
        shown = [0.0]

        def tick(seconds: float) -> None:
            if seconds - shown[0] >= 0.5:
                shown[0] = seconds
                job.progress(stage=stage, seconds=round(seconds, 1))

        try:
            d = pool.run(exact_odds, args, stop=job.cancelled.is_set, tick=tick)
        except TooBig:
            from shipcheck.serve.oddsjobs import MAX_RSS

            raise InputError("the exact odds of this question need more memory than the workbench gives them",
                             key="attacks" if attacks else "cards", value=what,
                             expected=f"a computation within {MAX_RSS // 2**20} MB: fewer attacks or cards "
                                      "(or `shipcheck odds` on the command line)") from None
        except WorkerFailed as exc:
            raise RuntimeError(str(exc)) from None
        if d is None:
            raise Cancelled()
        d["ship"] = shown_name(s, name)
        return d

    return work


def exact_odds(ship: Ship, attacks: list[Any] | None, cards: list[Any] | None, opponents: list[Ship],
               assume_weakest: bool) -> dict[str, Any]:
    """What ``shipcheck odds --format json`` gives (run in a worker process), and ``seconds``."""
    t0 = time.perf_counter()
    if attacks is not None:
        from shipcheck.flight.odds import odds

        d = odds(ship, attacks).to_dict()
    else:
        from shipcheck.round.cardodds import card_odds

        d = card_odds(ship, cards or [], opponents=opponents, assume_weakest=assume_weakest).to_dict()
    d = jsonable(d)
    d["seconds"] = round(time.perf_counter() - t0, 4)
    return d


def place(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    """The placement advisor without flying rounds: every legal square and rotation of the tile in
    hand, ranked by score (``shipcheck place SHIP TILE --no-credits``)."""
    from shipcheck.advice import advise

    s, _ = ship_of(ws, body)
    tile = text(body, "tile", limit=200)
    if not tile:
        raise InputError("missing `tile`", key="tile", expected='a catalogue id ("2007:5") or KIND:SIDES')
    a = advise(s, tile, credits=False)
    return _advice(a)


def _advice(a: Any) -> dict[str, Any]:
    d = jsonable(a.to_dict())
    for p, pd in zip(a.placements, d["placements"]):
        pd["i"] = int(getattr(p, "index", p.at))  # the square's grid index, for the page's board
    return d


def credits_job(ws: Workspace, body: dict[str, Any]) -> Any:
    """The advisor's ranking by the round's credits (``shipcheck place``), as a job."""
    from shipcheck.advice import advise

    s, _ = ship_of(ws, body)
    tile = text(body, "tile", limit=200)
    if not tile:
        raise InputError("missing `tile`", key="tile", expected='a catalogue id ("2007:5") or KIND:SIDES')
    runs = _runs(body, 1000, LIMITS["credits_runs"])
    seed = valid.seed(body.get("seed"))
    from shipcheck.advice import parse_tile

    parse_tile(tile, s.edition)  # a bad tile is a 400 before the job starts

    def work(job: Job) -> Any:
        def progress(done: int, total: int) -> None:
            job.progress(done=done, total=total, stage="flying placements")

        from shipcheck.round.chunks import compile_note

        job.progress(done=0, total=1, stage=compile_note() or "finding placements")
        return _advice(advise(s, tile, credits=True, runs=runs, seed=seed, progress=progress))

    return work


def _runs(body: dict[str, Any], default: int, most: int) -> int:
    """``runs`` of a request: the library's check, and the workbench's bound."""
    return valid.count(body.get("runs", default), key="runs", minimum=10, maximum=most)


def round_job(ws: Workspace, body: dict[str, Any]) -> Any:
    """Whole rounds (``shipcheck simulate SHIP --round N``), as a job streaming its progress."""
    from shipcheck.round import simulate_round
    from shipcheck.validate import fresh_seed

    s, name = ship_of(ws, body)
    rnd = valid.round_key(body["round"]) if body.get("round") is not None else default_round(s.board)
    runs = _runs(body, RUNS_ROUND, LIMITS["round_runs"])
    given = valid.seed(body.get("seed"))
    seed = fresh_seed() if given is None else given
    edition = valid.edition(body.get("edition"))
    names = body.get("opponents")
    opponents = None if names is None else [load(ws, o) for o in strings(body, "opponents", most=LIMITS["opponents"])]
    command = _command(name, rnd, runs, seed, names or [], edition)

    def work(job: Job) -> Any:
        from shipcheck.round.chunks import compile_note

        note = compile_note()
        job.progress(done=0, total=runs, stage=note or "flying")

        def progress(done: int, total: int) -> None:
            job.progress(done=done, total=total, stage="flying")

        r = simulate_round(s, round=rnd, opponents=opponents, runs=runs, seed=seed, batch=BATCH, edition=edition,
                           progress=progress)
        d = jsonable(r.to_dict())
        d["ship"] = shown_name(s, name)
        if not s.name:
            d["name"] = d["ship"]  # the round names an unnamed ship by its file: here there is none
        d["command"] = command
        return d

    return work


def _command(name: str, rnd: str, runs: int, seed: int, opponents: list[str], edition: str | None) -> str:
    """The command line that flies the same rounds (same numbers, run for run)."""
    import shlex

    parts = ["shipcheck", "simulate", name if name != UNNAMED else "SHIP.toml", "--round", rnd, "--runs", str(runs),
             "--seed", str(seed), "--batch", str(BATCH)]
    for o in opponents:
        parts += ["--opponent", o]
    if edition:
        parts += ["--edition", edition]
    return " ".join(shlex.quote(p) for p in parts)


def report_job(ws: Workspace, body: dict[str, Any], written: set[Path]) -> Any:
    """A strategy report (``shipcheck report``) written to ``reports/<ship>/`` in the start folder."""
    import re

    s, name = ship_of(ws, body)
    rnd = valid.round_key(body["round"]) if body.get("round") is not None else None
    runs = _runs(body, RUNS_COMPARE, LIMITS["report_runs"])
    seed = valid.seed(body.get("seed"))
    title = s.name or (Path(name).stem if name != UNNAMED else f"class {s.board.name} ship")
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "ship"
    folder = ws.path(f"reports/{slug}", key="out")

    def work(job: Job) -> Any:
        from shipcheck.report import report

        def stage(what: str) -> None:
            job.progress(stage=what)

        rep = report(s, round=rnd, runs=runs, seed=seed, progress=stage)
        job.progress(stage="drawing the figures")
        files = rep.write(folder)
        written.add(folder)
        return {"out": ws.display(folder), "files": [ws.display(f) for f in files],
                "href": f"/reports/{slug}/index.html"}

    return work


# -- keeping ---------------------------------------------------------------------------------------
def _template(ws: Workspace, body: dict[str, Any], dest: Path | None = None) -> tuple[str | None, Path | None]:
    """The text of the file the ship came from, when the workbench opened it (to keep its comments);
    with no ``path``, that of ``dest`` when the workbench opened it (the file being replaced)."""
    name = text(body, "path")
    if not name and (dest is None or dest not in ws.opened):
        return None, None
    p = ws.path(name) if name else dest
    assert p is not None
    if p not in ws.opened:
        return None, p
    from shipcheck.errors import read_text_file
    from shipcheck.shipfile import SHIP_BYTES

    try:
        return read_text_file(p, what="ship file", limit=SHIP_BYTES), p
    except InputError:
        return None, p


def ship_text(ws: Workspace, body: dict[str, Any], dest: Path | None = None) -> tuple[Ship, str]:
    """The ship file text of the request's ship: the file it came from edited (comments and order
    kept), else written anew. ``dest``: where it will be saved (a board path is rewritten to stay
    right from there)."""
    s, _ = ship_of(ws, body)
    template, src = _template(ws, body, dest)
    base = dest.parent if dest is not None else src.parent if src is not None else ws.root
    if src is not None and base != src.parent:
        s = board_from(s, base)
    out = rewrite_ship_text(template, s, base_dir=base) if template is not None else dump_ship(s)
    return s, out


def toml(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    s, out = ship_text(ws, body)
    name = text(body, "path")
    stem = Path(name).name if name else (s.name or "ship")
    import re

    filename = stem if stem.endswith(".toml") else re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-") + ".toml"
    return {"text": out, "filename": filename}


class NeedsConfirmation(InputError):
    """Saving would replace a file the workbench did not open (or one changed on disk)."""


def _destination(ws: Workspace, body: dict[str, Any]) -> tuple[Path, str]:
    dest_name = text(body, "to")
    if not dest_name:
        raise InputError("missing `to`", key="to", expected="the path to save to, inside the start folder")
    if any(ord(c) < 32 or ord(c) == 127 for c in dest_name):
        raise InputError("file names hold no control characters", key="to", value=dest_name,
                         expected="a name of printable characters ending in .toml")
    dest = ws.path(dest_name, key="to")
    if dest.suffix != ".toml":
        raise InputError("ship files end in .toml", key="to", value=dest_name, expected="a name ending in .toml")
    return dest, dest_name


def save_check(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    """Whether saving to ``to`` would need the user's confirmation, and why (nothing is written)."""
    dest, _ = _destination(ws, body)
    return {"path": ws.display(dest), "exists": os.path.lexists(dest), "confirm": ws.may_write(dest)}


def save(ws: Workspace, body: dict[str, Any]) -> dict[str, Any]:
    """Write the ship to ``to`` (a path in the start folder, or the named file) atomically. Replacing
    an existing file needs ``overwrite: true`` unless the workbench opened it and it is unchanged."""
    dest, _ = _destination(ws, body)
    _, out = ship_text(ws, body, dest)
    why = ws.may_write(dest)
    confirmed = boolean(body, "overwrite")
    if why is not None and not confirmed:
        raise NeedsConfirmation(f"{why}: confirm to replace it", file=ws.display(dest), key="overwrite",
                                expected="overwrite: true to replace it")
    try:
        save_text(dest, out, overwrite=confirmed or os.path.lexists(dest))
    except InputError:
        if confirmed or not os.path.lexists(dest):
            raise
        raise NeedsConfirmation("the file appeared while the workbench saved: confirm to replace it",
                                file=ws.display(dest), key="overwrite", expected="overwrite: true to replace it"
                                ) from None
    ws.wrote(dest, out)
    return {"path": ws.display(dest), "text": out, "bytes": len(out.encode("utf-8"))}
