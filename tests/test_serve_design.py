"""The workbench's Design action (``POST /api/design``): ``shipcheck.design`` in a worker process,
its progress streamed, the same ship as the library for a seed and a budget, a legal ship of
catalogue tiles; Cancel keeps the best ship so far and ends the worker, as does a client that goes
away; one design at a time (429); bad input a 400 before anything starts. Tiny budgets."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import tomllib
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from proctools import alive

pytest.importorskip("httpx", reason="the test client needs httpx (a test extra)")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient  # noqa: E402

import shipcheck  # noqa: E402
from shipcheck.serve.app import create_app  # noqa: E402
from shipcheck.serve.jobs import Job  # noqa: E402
from shipcheck.serve.oddsjobs import Pool  # noqa: E402
from shipcheck.serve.workspace import Workspace  # noqa: E402
from shipcheck.shipfile import dump_ship, load_ship, parse_ship  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TOKEN = "t0k3n-for-the-design-tests-xxxxxxxxxxxx"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("design")
    shutil.copy(EXAMPLES / "blue-round1.toml", d / "blue.toml")
    shutil.copy(EXAMPLES / "mistakes" / "loose-piece.toml", d / "loose.toml")
    shutil.copy(EXAMPLES / "building" / "class-I-start.toml", d / "start.toml")
    return d


@pytest.fixture(scope="module")
def pool() -> Iterator[Pool]:
    p = Pool()
    yield p
    p.close()


@pytest.fixture(scope="module")
def client(folder: Path, pool: Pool) -> Iterator[Any]:
    app = create_app(Workspace.start(folder), TOKEN, host="testserver", pool=pool)
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        yield c


def doc(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def events(lines: Iterator[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines if line.strip()]


def design(client: Any, body: dict[str, Any]) -> list[dict[str, Any]]:
    with client.stream("POST", "/api/design", json=body) as r:
        assert r.status_code == 200, r.read()
        return events(r.iter_lines())


def catalogue_ids(ship: shipcheck.Ship) -> list[str | None]:
    return [t.id for t in ship.tiles if not t.implied]


@pytest.fixture(scope="module")
def new_one(client: Any) -> list[dict[str, Any]]:
    return design(client, {"class": "I", "budget": 30, "seed": 3})


def test_a_new_ship_streams_its_progress(new_one: list[dict[str, Any]]) -> None:
    assert new_one[0] == {"type": "started", "job": "design"}
    progress = [e for e in new_one if e["type"] == "progress"]
    assert {e["total"] for e in progress} == {30}
    done = [e["done"] for e in progress]
    assert done == sorted(done) and done[0] == 0 and done[-1] == 30
    assert "flying candidates" in {e["stage"] for e in progress}
    best = [e["best"] for e in progress if e["best"] is not None]
    assert best and best == sorted(best)  # the best mean so far never falls
    assert new_one[-1]["type"] == "result" and not Job.registry


def test_a_new_ship_is_the_librarys_ship_legal_of_catalogue_tiles(client: Any, new_one: list[dict[str, Any]]) -> None:
    r = new_one[-1]["result"]
    assert (r["class"], r["seed"], r["budget"], r["evaluations"], r["stopped"]) == ("I", 3, 30, 30, None)
    assert r["command"] == "shipcheck design --class I --seed 3 --budget 30"
    ship = parse_ship(r["toml"])
    assert tomllib.loads(r["toml"]) == r["doc"]
    lib = shipcheck.design("I", seed=3, budget=30)  # the same API: the same ship, the same numbers
    assert dump_ship(ship) == dump_ship(lib.ship)
    assert r["credits"]["mean"] == pytest.approx(lib.credits) and r["history"] == [list(h) for h in lib.history]
    ids = catalogue_ids(ship)
    assert None not in ids and max(Counter(ids).values()) == 1
    checked = client.post("/api/check?name=designed.toml", content=r["toml"].encode()).json()
    assert checked["legal"] is True and checked["violations"] == []


def test_completing_this_ship_keeps_its_tiles_and_name(client: Any, folder: Path) -> None:
    blue = load_ship(folder / "blue.toml")
    evs = design(client, {"ship": doc(folder / "blue.toml"), "path": "blue.toml", "budget": 4, "seed": 1})
    r = evs[-1]["result"]
    assert r["command"] == "shipcheck design --from blue.toml --seed 1 --budget 4"
    ship = parse_ship(r["toml"])
    assert ship.name == blue.name and r["ship"] == "blue.toml"
    assert shipcheck.check(ship).legal
    placed = {(int(t.at), t.id, t.rot) for t in ship.tiles}
    assert {(int(t.at), t.id, t.rot) for t in blue.tiles} <= placed
    assert len(ship.tiles) >= len(blue.tiles)


def test_completing_an_empty_board_designs_a_new_one(client: Any, new_one: list[dict[str, Any]]) -> None:
    evs = design(client, {"ship": {"format": 1, "class": "I"}, "budget": 30, "seed": 3})
    r = evs[-1]["result"]
    assert r["command"] == "shipcheck design --class I --seed 3 --budget 30"  # the field's ships may start it
    assert r["toml"] == new_one[-1]["result"]["toml"]


def _worker_pids(pool: Pool) -> list[int]:
    with pool.lock:
        return [w.proc.pid for w in pool.busy if w.proc.pid is not None]


def test_cancel_keeps_the_best_ship_so_far_and_ends_the_worker(client: Any, pool: Pool, folder: Path) -> None:
    # completing a ship of 7 tiles: its starting ships build in a fraction of a new one's time
    body = {"ship": doc(folder / "start.toml"), "path": "start.toml", "budget": 5000, "seed": 5}
    seen: list[dict[str, Any]] = []
    best_seen = threading.Event()

    def run() -> None:
        with client.stream("POST", "/api/design", json=body, headers={"X-Shipcheck-Client": "page-d"}) as r:
            for line in r.iter_lines():
                if line.strip():
                    seen.append(json.loads(line))
                    if seen[-1].get("best") is not None:
                        best_seen.set()

    t = threading.Thread(target=run)
    t.start()
    assert best_seen.wait(120), seen
    pids = _worker_pids(pool)
    assert len(pids) == 1
    # a second design while one runs: 429, as for exact odds
    second = client.post("/api/design", json={"class": "II", "budget": 5})
    assert second.status_code == 429
    assert second.json()["errors"] == ["too many design jobs at once; key `job`; value 'design' (expected at most 1 "
                                       "running (cancel one first))"]
    # the page's Cancel: only its design (another kind, another page: untouched)
    assert client.post("/api/cancel?client=page-d&kind=round").json() == {"cancelled": 0}
    assert client.post("/api/cancel?client=page-e&kind=design").json() == {"cancelled": 0}
    assert client.post("/api/cancel?client=page-d&kind=design").json() == {"cancelled": 1}
    t.join(60)
    assert not t.is_alive()
    last = seen[-1]
    assert last["type"] == "result", last
    r = last["result"]
    assert r["stopped"] == "interrupted" and 0 < r["evaluations"] < 5000 and r["history"]
    assert r["credits"]["mean"] == r["history"][-1][1]  # the search's estimate of the best ship so far
    assert shipcheck.check(parse_ship(r["toml"])).legal
    assert not Job.registry
    deadline = time.monotonic() + 10
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive(pids) == []  # the worker was ended, not kept
    assert not any(w.proc.pid in pids for w in pool.idle)


def test_a_client_that_goes_away_ends_the_design_and_its_worker(client: Any, pool: Pool) -> None:
    with client.stream("POST", "/api/design", json={"class": "II", "budget": 5000, "seed": 1}) as r:
        for line in r.iter_lines():
            if line.strip() and json.loads(line).get("stage") == "building the starting ships":
                break
        pids = _worker_pids(pool)
    assert len(pids) == 1
    deadline = time.monotonic() + 30
    while (Job.registry or alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Job.registry and alive(pids) == []


@pytest.mark.parametrize("body, first", [
    ({}, "give `ship` (complete this ship) or `class` (a new one), not both and not neither; key `class`"),
    ({"class": "I", "ship": {"format": 1, "class": "I"}}, "give `ship` (complete this ship) or `class`"),
    ({"class": "V"}, "unknown ship class; key `class`; value 'V'"),
    ({"class": "II", "edition": "1999"}, "bad `edition`"),
    ({"class": "II", "budget": 0}, "bad `budget`"),
    ({"class": "II", "budget": 20_001}, "bad `budget`"),
    ({"class": "II", "budget": "ten"}, "bad `budget`"),
    ({"class": "II", "seed": -1}, "bad `seed`"),
    ({"class": "II", "round": "9"}, "bad `round`"),
    ({"class": "II", "opponents": ["../outside.toml"]}, "path leaves the folder the workbench was started in"),
    ({"class": "II", "opponents": "blue.toml"}, "bad `opponents`"),
    ({"ship": {"format": 1, "class": "I", "tile": [{"at": [7, 7], "id": "2007:9999"}]}},
     "<input>: [[tile]] #1: no such tile in the catalogue; key `id`; value '2007:9999'"),
])
def test_bad_input_is_a_400_before_anything_starts(client: Any, body: dict[str, Any], first: str) -> None:
    r = client.post("/api/design", json=body)
    assert r.status_code == 400, r.text
    errors = r.json()["errors"]
    assert errors and errors[0].startswith(first), errors
    assert not Job.registry


def test_an_illegal_ship_is_refused_with_a_way_out(client: Any, folder: Path) -> None:
    r = client.post("/api/design", json={"ship": doc(folder / "loose.toml"), "path": "loose.toml"})
    assert r.status_code == 400
    assert r.json()["errors"][0].startswith("the ship to complete is not legal: mend it first")


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"], ids=["sigterm", "ctrl-c"])
def test_stopping_the_server_while_it_designs_leaves_no_process(tmp_path: Path, sig: str) -> None:
    import signal

    from proctools import children, group
    from test_serve_limits import gone, start, workers

    s = start(tmp_path)
    try:
        status, r = s.open_stream("/api/design", {"class": "II", "budget": 5000, "seed": 2}, "page-s")
        assert status == 200
        for line in r:
            if line.strip() and json.loads(line).get("stage") == "building the starting ships":
                break
        assert len(workers(s.proc.pid)) == 1
        before = [s.proc.pid, *children(s.proc.pid)]
        # a terminal's Ctrl-C reaches the whole group, the worker too
        err = s.stop(getattr(signal, sig), within=15, whole_group=sig == "SIGINT")
    finally:
        if s.proc.poll() is None:
            os.killpg(s.proc.pid, signal.SIGKILL)
    assert s.proc.returncode == 0, err
    assert "Traceback" not in err and "workbench stopped" in err, err
    gone([*before, *group(s.proc.pid)])
    r.close()
