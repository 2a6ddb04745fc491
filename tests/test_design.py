"""`shipcheck design` and shipcheck.design (contract §7), on class I (the quickest board to build on):
legal, catalogue tiles once, reproducible on any worker count and on Dask, the JSON keys, --out and
--force, Ctrl-C keeps the best ship so far. Past the catalogue's own tests the searches draw on a
small pile (the scout's tiles), whose starting ships build in a fraction of the catalogue's time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from clikit import run

import shipcheck
from shipcheck.design import design
from shipcheck.design.tiles import catalogue_pool, pile_pool
from shipcheck.shipfile import dump_ship, load_ship, parse_ship

BUDGET = 40
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def one() -> shipcheck.DesignResult:
    # class I: the smallest board builds its candidates quickest (the same search on every class)
    return design("I", seed=11, budget=BUDGET)


@pytest.fixture(scope="module")
def pile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pile file: the scout's tiles and a cargo hold of kind and sides."""
    scout = load_ship(Path(__file__).parent.parent / "examples" / "class-I-scout.toml")
    f = tmp_path_factory.mktemp("pile") / "pile.toml"
    f.write_text("".join(f'[[tile]]\nid = "{t.id}"\n\n' for t in scout.tiles if t.id)
                 + '[[tile]]\nkind = "cargo"\nsides = "3333"\nslots = 2\n')
    return f


@pytest.fixture(scope="module")
def piled(pile: Path) -> shipcheck.DesignResult:
    return design("I", pile=pile, seed=11, budget=BUDGET)


def _ids(ship: shipcheck.Ship) -> list[str | None]:
    return [t.id for t in ship.tiles if not t.implied]


def test_result_is_legal_and_each_catalogue_tile_once(one: shipcheck.DesignResult) -> None:
    assert shipcheck.check(one.ship).legal
    ids = _ids(one.ship)
    assert None not in ids
    assert max(Counter(ids).values()) == 1
    assert set(ids) <= {t.id for t in catalogue_pool("2007").tiles}
    # the file written loads back as the same tiles and passes check
    again = parse_ship(dump_ship(one.ship))
    assert shipcheck.check(again).legal and _ids(again) == ids


def test_result_summaries(one: shipcheck.DesignResult) -> None:
    assert one.evaluations <= BUDGET and one.budget == BUDGET and one.seed == 11
    assert "\n" not in repr(one) and repr(one).startswith("<DesignResult class I,")
    df = one.to_frame()
    assert list(df.columns) == ["evaluations", "best_mean"] and len(df) == len(one.history)
    best = [m for _, m in one.history]
    assert best == sorted(best)  # the best so far never falls
    assert abs(sum(one.by_source.values()) - one.credits) < 1e-6
    lo, hi = one.credits_ci
    assert lo <= one.credits <= hi
    assert [n for n, _ in one.field] == ["Trader I", "Racer I", "Fighter I"]


def test_same_seed_same_ship_on_two_workers(pile: Path, piled: shipcheck.DesignResult) -> None:
    two = design("I", pile=pile, seed=11, budget=BUDGET, workers=2)
    assert dump_ship(two.ship) == dump_ship(piled.ship)
    assert two.history == piled.history


def test_same_ship_on_a_dask_cluster(pile: Path, piled: shipcheck.DesignResult) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False) as cluster:
        r = design("I", pile=pile, seed=11, budget=BUDGET, scheduler=cluster.scheduler_address)
    assert dump_ship(r.ship) == dump_ship(piled.ship)


def test_another_seed_searches_otherwise(pile: Path, piled: shipcheck.DesignResult) -> None:
    other = design("I", pile=pile, seed=4, budget=BUDGET)
    assert other.history != piled.history


def test_a_pile_is_all_it_uses(pile: Path, piled: shipcheck.DesignResult) -> None:
    ids = [t.id for t in load_ship(Path(__file__).parent.parent / "examples" / "class-I-scout.toml").tiles if t.id]
    assert shipcheck.check(piled.ship).legal
    used = Counter(t.id or (t.kind, t.sides) for t in piled.ship.tiles if not t.implied)
    allowed = Counter(ids) + Counter({("cargo", "3333"): 1})
    assert not used - allowed
    assert piled.tiles_from == str(pile)


def test_a_pile_with_a_square_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "pile.toml"
    f.write_text('[[tile]]\nid = "2007:5"\nat = [7, 8]\n')
    code, _, err = run(capsys, "design", "--class", "I", "--pile", str(f), "--budget", "2")
    assert code == 2 and "pile.toml" in err and "`at`" in err and "pile.toml:3:" in err
    with pytest.raises(shipcheck.InputError):
        pile_pool(f, "2007")


def test_from_keeps_the_ship_and_adds(pile: Path) -> None:
    start = shipcheck.parse_ship('format = 1\nclass = "I"\n[[tile]]\nat = [7, 6]\nid = "2007:19"\n')
    assert shipcheck.check(start).legal
    r = design(start=start, pile=pile, seed=2, budget=8)
    assert r.ship.tile_at(start.tiles[0].at if not start.tiles[0].implied else start.tiles[1].at) is not None
    kept = {(int(t.at), t.id, t.rot) for t in start.tiles}
    assert kept <= {(int(t.at), t.id, t.rot) for t in r.ship.tiles}
    assert len(r.ship.tiles) > len(start.tiles) and shipcheck.check(r.ship).legal


def test_interrupt_keeps_the_best_so_far(pile: Path) -> None:
    seen = []

    def stop(p: object) -> None:
        seen.append(p)
        if len(seen) == 3:
            raise KeyboardInterrupt

    r = design("I", pile=pile, seed=11, budget=BUDGET, progress=stop)
    assert r.stopped == "interrupted" and shipcheck.check(r.ship).legal
    assert r.evaluations < BUDGET


def test_cli_json_out_and_force(tmp_path: Path, capsys: pytest.CaptureFixture[str], pile: Path,
                                piled: shipcheck.DesignResult) -> None:
    out = tmp_path / "designed.toml"
    code, text, _ = run(capsys, "design", "--class", "I", "--pile", str(pile), "--seed", "11", "--budget", str(BUDGET),
                        "--out", str(out), "--format", "json")
    assert code == 0
    d = json.loads(text)
    for key in ("class", "edition", "round", "seed", "budget", "evaluations", "ship", "tiles", "credits", "field",
                "history"):
        assert key in d
    assert (d["class"], d["edition"], d["round"], d["seed"], d["budget"]) == ("I", "2007", 1, 11, BUDGET)
    assert d["ship"] == str(out) and d["tiles"] == len(piled.ship.tiles)
    assert set(d["credits"]) >= {"mean", "ci", "by_source"} and d["field"][0]["ship"] == "Trader I"
    assert d["history"] == [list(h) for h in piled.history]
    assert load_ship(out).tiles == piled.ship.tiles
    assert run(capsys, "check", str(out))[0] == 0
    before = out.read_text()
    code, _, err = run(capsys, "design", "--class", "I", "--seed", "4", "--budget", "3", "--out", str(out))
    assert code == 2 and "--force" in err and out.read_text() == before
    code, text, _ = run(capsys, "design", "--class", "I", "--pile", str(pile), "--seed", "4", "--budget", "3",
                        "--out", str(out), "--force", "--plot")
    assert code == 0 and out.read_text() != before and "best mean so far" in text


def test_from_a_ship_on_a_board_file_in_another_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # the board read from the ship's folder, whatever the working folder; written so that it reads from --out's
    ships, work, out = tmp_path / "ships", tmp_path / "work", tmp_path / "out"
    for d in (ships, work, out):
        d.mkdir()
    (ships / "b.toml").write_text((ROOT / "tiles" / "boards" / "I.toml").read_text(encoding="utf-8").replace(
        'name = "I"', 'name = "mine"'), encoding="utf-8")
    (ships / "s.toml").write_text('format = 1\nboard = "b.toml"\n', encoding="utf-8")
    monkeypatch.chdir(work)
    code, text, err = run(capsys, "design", "--from", str(ships / "s.toml"), "--budget", "2", "--seed", "1",
                          "--out", str(out / "d.toml"), "--format", "json")
    assert code == 0, err
    assert 'board = "../ships/b.toml"' in (out / "d.toml").read_text(encoding="utf-8")
    assert run(capsys, "check", str(out / "d.toml"))[0] == 0
    # a folder that does not exist is said before the search, not after it
    code, _, err = run(capsys, "design", "--class", "I", "--budget", "2", "--out", str(tmp_path / "no" / "d.toml"))
    assert code == 2 and "no such folder" in err and "--out" in err


def test_cli_time_stops_early_and_says_so(capsys: pytest.CaptureFixture[str], pile: Path) -> None:
    code, text, _ = run(capsys, "design", "--class", "I", "--pile", str(pile), "--seed", "1", "--budget", "100000",
                        "--time", "0.001", "--format", "json")
    d = json.loads(text)
    assert code == 0 and d["stopped"] == "time" and d["evaluations"] < 100000
    assert any("time limit" in n for n in d["notes"])
    assert d["tiles"] > 1  # out of time before any flight: the first starting ship, not the bare pilot


def test_cli_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "design", "--class", "XII", "--budget", "2")
    assert code == 2 and "XII" in err
    code, _, err = run(capsys, "design", "--budget", "2")
    assert code == 2 and "--class" in err
    code, _, err = run(capsys, "design", "--class", "I", "--workers", "2", "--scheduler", "tcp://x:1")
    assert code == 2 and "--scheduler" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGINT to a process group; /proc; a pty")
def test_ctrl_c_writes_the_best_so_far_and_exits_130(tmp_path: Path, pile: Path) -> None:
    # on two workers (the runtime's pool): the press reaches the whole group, the search keeps its
    # best ship, and no worker outlives the command. Its progress goes to a terminal (a pty): the
    # press comes as soon as it shows a best mean, a batch flown after the starting ships' race
    import pty
    import re

    from proctools import alive, group

    out = tmp_path / "best.toml"
    tty, term = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "shipcheck", "design", "--class", "I", "--pile", str(pile), "--seed",
                          "1", "--budget", "100000", "--workers", "2", "--out", str(out)], stdout=subprocess.PIPE,
                         stderr=term, start_new_session=True)
    os.close(term)
    shown = b""
    while not re.search(rb"best mean \d", shown):
        chunk = _read(tty, 120)
        assert chunk, shown
        shown += chunk
    members = group(p.pid)
    os.killpg(p.pid, signal.SIGINT)
    p.communicate(timeout=120)
    err = shown + _read(tty, 0)
    os.close(tty)
    assert p.returncode == 130, err
    assert shipcheck.check(load_ship(out)).legal
    assert len(members) > 1  # the workers had started
    deadline = time.monotonic() + 10
    while alive(members) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(members)


def _read(fd: int, wait: float) -> bytes:
    """What a pty's other end has written, waiting up to ``wait`` seconds for it (b"": nothing, or closed)."""
    import select

    got = b""
    while select.select([fd], [], [], wait)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        got += chunk
        wait = 0
    return got
