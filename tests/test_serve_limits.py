"""The workbench's limits, against a real server on 127.0.0.1: numbers too long to read, a forged
``Host``, a ship too complex to parse, a cancel without its client id, a flood of exact-odds
questions (one computed in a worker process, the rest refused 429, the server answering meanwhile
and staying small) and a signal stopping it all, no process left behind; and what a script may send
(only the keys an endpoint reads, text of Unicode characters, true or false for a yes or no)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from proctools import alive, children, group

ROOT = Path(__file__).resolve().parents[1]
HAULER = ROOT / "examples" / "class-III-hauler.toml"
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
#: twelve attacks round the class III hauler: tens of seconds of exact odds, most of a gigabyte
TWELVE = ["large-meteor:front", "small-meteor:left", "heavy-shot:rear", "light-shot:right"] * 3
POST_JSON = ["/api/open", "/api/new", "/api/analyze", "/api/fix", "/api/odds", "/api/place", "/api/place/credits",
             "/api/round", "/api/report", "/api/design", "/api/toml", "/api/save", "/api/save/check"]


@dataclass
class Server:
    proc: subprocess.Popen[str]
    port: int
    token: str
    folder: Path

    def request(self, method: str, path: str, body: bytes | None = None, *, host: str | None = None,
                headers: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, Any]:
        """One request; ``(status, JSON answer)`` (a stream's lines as a list)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.putrequest(method, path, skip_host=True)
            conn.putheader("Host", f"127.0.0.1:{self.port}" if host is None else host)
            conn.putheader("Authorization", f"Bearer {self.token}")
            for k, v in (headers or {}).items():
                conn.putheader(k, v)
            conn.putheader("Content-Length", str(len(body or b"")))
            conn.endheaders(body)
            r = conn.getresponse()
            raw = r.read()
            if r.getheader("content-type", "").startswith("application/x-ndjson"):
                return r.status, [json.loads(x) for x in raw.splitlines() if x.strip()]
            return r.status, json.loads(raw)
        finally:
            conn.close()

    def open_stream(self, path: str, body: Any, client: str) -> tuple[int, http.client.HTTPResponse]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("POST", path, json.dumps(body).encode(), {"Authorization": f"Bearer {self.token}",
                                                               "X-Shipcheck-Client": client,
                                                               "Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, r

    def stop(self, sig: int = signal.SIGTERM, *, within: float = 20, whole_group: bool = False) -> str:
        if whole_group:
            os.killpg(self.proc.pid, sig)  # as a terminal's Ctrl-C reaches the whole group
        else:
            self.proc.send_signal(sig)
        try:
            _, err = self.proc.communicate(timeout=within)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.communicate()
            pytest.fail(f"the server did not stop within {within} s of the signal")
        return err


def start(folder: Path) -> Server:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "shipcheck", "serve", "--no-browser", "--port", "0"], cwd=folder,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    base, _, token = url.partition("/?token=")
    assert token, url
    return Server(proc, int(base.rsplit(":", 1)[1]), token, folder)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("limits")
    (d / "hauler.toml").write_text(HAULER.read_text(encoding="utf-8"), encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Server]:
    s = start(folder)
    try:
        yield s
    finally:
        err = s.stop()
        assert s.proc.returncode == 0 and "Traceback" not in err, err


def hauler() -> dict[str, Any]:
    return tomllib.loads(HAULER.read_text(encoding="utf-8"))


# -- 1. numbers too long to read ---------------------------------------------------------------------
@pytest.mark.parametrize("path", POST_JSON)
def test_an_integer_of_4400_digits_is_a_400_that_says_so_on_every_endpoint(server: Server, path: str) -> None:
    huge = "9" * 4400
    for body in (f'{{"ship": {{"format": 1, "class": "I"}}, "seed": {huge}, "path": "hauler.toml"}}',
                 f'{{"ship": {{"format": 1, "class": "I", "name": "x", "dice": {huge}}}}}', f"[{huge}]"):
        status, answer = server.request("POST", path, body.encode(), headers={"Content-Type": "application/json"})
        assert status == 400, (path, answer)
        assert answer["errors"] == ["request body holds a number too long to read; key `body` (expected numbers of "
                                    "at most 4300 digits)"]


def test_an_integer_of_4400_digits_in_a_ship_file_is_a_400(server: Server) -> None:
    for path in ("/api/check?name=big.toml", "/api/stats?name=big.toml"):
        status, answer = server.request("POST", path, f'format = 1\nclass = "I"\ndice = {"9" * 4400}\n'.encode())
        assert status == 400 and "number too long to read" in answer["errors"][0], answer


# -- 4. the Host header --------------------------------------------------------------------------------
def test_a_request_for_another_host_is_refused_and_changes_nothing(server: Server) -> None:
    port = server.port
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", f"localhost:{port + 1}",
                 f"127.0.0.1.evil.example:{port}", "127.0.0.1", f"[::2]:{port}", "", "a:b:c"):
        status, answer = server.request("POST", "/api/save", json.dumps({"ship": hauler(), "to": "forged.toml"}).encode(),
                                        host=host, headers={"Content-Type": "application/json"})
        assert status == 403, (host, answer)
        assert answer["errors"][0].startswith("request for another host refused"), answer
        assert f"127.0.0.1:{port}" in answer["errors"][0]
        status, _ = server.request("GET", "/api/session", host=host)
        assert status == 403
    assert not (server.folder / "forged.toml").exists()
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}", f"[::1]:{port}"):
        status, answer = server.request("GET", "/api/session", host=host)
        assert status == 200, (host, answer)


# -- 5. a ship too complex to parse ---------------------------------------------------------------------
def test_a_ship_of_a_million_numbers_is_refused_before_it_is_parsed(server: Server) -> None:
    text = 'format = 1\nclass = "I"\n[meta]\nx = [' + ",".join(["0"] * 1_000_000) + "]\n"
    assert len(text) < 2 * 1024 * 1024
    status, answer = server.request("POST", "/api/check?name=big.toml", text.encode())
    assert status == 400, answer
    assert answer["errors"] == ["big.toml: ship too complex for the workbench (1,000,004 items) (expected at most "
                                "20,000 array items, keys and tables; a class III ship has about 240)"]
    doc = {"format": 1, "class": "I", "meta": {"x": [0] * 1_000_000}}
    status, answer = server.request("POST", "/api/analyze", json.dumps({"ship": doc}).encode())
    assert status == 400 and "too complex" in answer["errors"][0], answer
    status, answer = server.request("POST", "/api/check?name=h.toml", HAULER.read_bytes())
    assert status == 200 and answer["legal"] is True


# -- 6. cancel names its page -----------------------------------------------------------------------------
def test_cancel_without_a_client_id_is_refused(server: Server) -> None:
    status, answer = server.request("POST", "/api/cancel")
    assert status == 400 and "missing client id" in answer["errors"][0]
    assert server.request("POST", "/api/cancel?client=nobody") == (200, {"cancelled": 0})
    assert server.request("POST", "/api/cancel", headers={"X-Shipcheck-Client": "nobody"}) == (200, {"cancelled": 0})


# -- 2 and 3. exact odds: a job in a worker, bounded; a signal stops it all ------------------------------------
def workers(pid: int) -> list[int]:
    """The server's worker processes (spawned by multiprocessing; its resource tracker aside)."""
    out = []
    for child in children(pid):
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmd:
            out.append(child)
    return out


def rss_tree(pid: int) -> int:
    """Resident bytes of a process and its children."""
    total = 0
    for p in (pid, *children(pid)):
        try:
            total += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            pass
    return total


def gone(pids: list[int]) -> None:
    """Every process of ``pids`` has ended, after a bounded wait (a worker's resource tracker ends
    when it reads the end of its pipe)."""
    import time

    deadline = time.monotonic() + 5
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive(pids) == []


def wait_computing(r: http.client.HTTPResponse) -> None:
    """Read a job's stream until its worker has been computing for a while."""
    for line in r:
        if line.strip():
            ev = json.loads(line)
            assert ev["type"] in ("started", "progress"), ev
            if ev.get("seconds", 0) >= 1:
                return
    pytest.fail("the stream ended before the odds were computed")


@linux
def test_exact_odds_are_a_cancellable_job_in_a_worker_process(server: Server) -> None:
    body = {"ship": hauler(), "path": "hauler.toml", "attacks": TWELVE}
    status, r = server.open_stream("/api/odds", body, "page-a")
    assert status == 200
    wait_computing(r)
    assert [j["kind"] for j in server.request("GET", "/api/jobs")[1]["jobs"]] == ["odds"]
    assert len(workers(server.proc.pid)) == 1
    # a second question while one is computed: 429, as for every job past its cap
    status, answer = server.request("POST", "/api/odds", json.dumps({"ship": hauler(), "attacks": TWELVE[:1]}).encode())
    assert status == 429 and answer["errors"] == ["too many odds jobs at once; key `job`; value 'odds' (expected at "
                                                  "most 1 running (cancel one first))"]
    assert server.request("POST", "/api/cancel?client=page-b") == (200, {"cancelled": 0})
    assert server.request("POST", "/api/cancel?client=page-a") == (200, {"cancelled": 1})
    rest = [json.loads(x) for x in r if x.strip()]
    assert rest[-1] == {"type": "cancelled"}
    assert server.request("GET", "/api/jobs")[1]["jobs"] == []
    assert workers(server.proc.pid) == []  # the cancelled worker was killed, not kept
    # small questions are answered, and the worker kept for the next
    for n in (1, 2):
        status, evs = server.request("POST", "/api/odds", json.dumps({"ship": hauler(), "attacks": TWELVE[:n]}).encode())
        assert status == 200 and evs[-1]["type"] == "result", evs
        assert 0 < evs[-1]["result"]["p_survive"] <= 1 and evs[-1]["result"]["ship"] == "Hauler (not saved)"


@linux
@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_a_flood_of_exact_odds_is_refused_429_and_a_signal_stops_everything(tmp_path: Path, sig: int) -> None:
    s = start(tmp_path)
    body = json.dumps({"ship": hauler(), "attacks": TWELVE}).encode()
    statuses: list[int] = []
    streams: list[http.client.HTTPResponse] = []
    lock = threading.Lock()

    def ask() -> None:
        status, r = s.open_stream("/api/odds", json.loads(body), "flood")
        with lock:
            statuses.append(status)
            if status == 200:
                streams.append(r)
            else:
                assert json.loads(r.read())["errors"][0].startswith("too many")
                r.close()

    try:
        threads = [threading.Thread(target=ask) for _ in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert sorted(set(statuses)) == [200, 429] and statuses.count(200) == 1, statuses
        wait_computing(streams[0])
        for _ in range(5):  # the server answers while the worker computes
            assert s.request("GET", "/api/session", timeout=10)[0] == 200
        assert rss_tree(s.proc.pid) < 1.5 * 2**30
        assert len(workers(s.proc.pid)) == 1
        before = [s.proc.pid, *children(s.proc.pid)]
        err = s.stop(sig, within=10, whole_group=sig == signal.SIGINT)
    finally:
        if s.proc.poll() is None:
            os.killpg(s.proc.pid, signal.SIGKILL)
    assert s.proc.returncode == 0, err
    assert "Traceback" not in err and "workbench stopped" in err
    gone([*before, *group(s.proc.pid)])
    for r in streams:
        r.close()


# -- 7. what a script may send ------------------------------------------------------------------------
def post(server: Server, path: str, body: str) -> tuple[int, Any]:
    return server.request("POST", path, body.encode(), headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("path", POST_JSON)
def test_a_key_the_endpoint_does_not_read_is_refused_by_name(server: Server, path: str) -> None:
    status, answer = post(server, path, '{"shipp": 1}')
    assert status == 400, answer
    assert answer["errors"][0].startswith(f"unknown key in the body of {path}; key `shipp` (expected one of "), answer


def test_a_misspelt_count_is_not_read_as_the_default() -> None:
    from shipcheck.serve.api import KEYS

    # what the page sends for each job, and what the docs' table promises, is allowed; `run` is not
    assert "runs" in KEYS["round"] and "run" not in KEYS["round"]
    assert set(KEYS["odds"]) == {"ship", "path", "attacks", "cards", "opponents", "assume_weakest"}


def test_a_typo_names_the_key_it_meant(server: Server) -> None:
    status, answer = post(server, "/api/round", json.dumps({"ship": hauler(), "run": 10}))
    assert status == 400 and answer["errors"][0].endswith("did you mean `runs`?"), answer


@pytest.mark.parametrize("path", POST_JSON)
def test_a_lone_surrogate_is_a_400_on_every_endpoint(server: Server, path: str) -> None:
    key = {"/api/open": "path", "/api/new": "name", "/api/save": "to", "/api/save/check": "to"}.get(path, "path")
    status, answer = post(server, path, '{"' + key + '": "x\\udcff.toml"}')
    assert status == 400, (path, answer)
    assert answer["errors"] == [f"text that is not Unicode (a lone surrogate, as a \\ud800 escape gives); key `{key}`; "
                                "value 'x\\\\udcff.toml' (expected text of Unicode characters)"], answer


def test_a_lone_surrogate_deep_in_the_ship_or_in_a_key_writes_nothing(server: Server) -> None:
    before = sorted(p.name for p in server.folder.iterdir())
    doc = json.dumps({"format": 1, "class": "I", "name": "x"})
    for body in ('{"ship": ' + doc + ', "to": "x\\udcff.toml"}', '{"ship": {"format": 1, "class": "I", "\\ud800": 1}, '
                 '"to": "y.toml"}', '{"ship": {"format": 1, "class": "I", "meta": {"a": ["\\ud800"]}}, "to": "z.toml"}'):
        status, answer = post(server, "/api/save", body)
        assert status == 400 and "lone surrogate" in answer["errors"][0], answer
    assert "key `ship.meta.a`" in answer["errors"][0]
    assert sorted(p.name for p in server.folder.iterdir()) == before


@linux
def test_a_file_name_no_request_could_give_back_is_not_listed(server: Server) -> None:
    odd = os.path.join(os.fsencode(server.folder), b"odd\xff.toml")
    fd = os.open(odd, os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, HAULER.read_bytes())
    os.close(fd)
    try:
        status, answer = server.request("GET", "/api/files")
        assert status == 200 and "hauler.toml" in answer["files"], answer
        assert all("odd" not in f for f in answer["files"])
    finally:
        os.unlink(odd)


def test_a_token_of_any_characters_is_a_401_not_a_crash(server: Server) -> None:
    for token in ("%E2%82%AC", "%ff%fe", "%00"):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            conn.request("GET", f"/api/session?token={token}", headers={"Host": f"127.0.0.1:{server.port}"})
            r = conn.getresponse()
            assert r.status == 401 and json.loads(r.read())["errors"][0].startswith("missing or wrong token")
        finally:
            conn.close()


def test_yes_or_no_is_true_or_false_only(server: Server) -> None:
    for value in ('"no"', '"false"', "0", "null"):
        status, answer = post(server, "/api/odds", '{"ship": ' + json.dumps(hauler()) + ', "cards": ["I-16"], '
                              '"assume_weakest": ' + value + "}")
        assert status == 400 and "key `assume_weakest`" in answer["errors"][0], answer
        assert "expected true or false" in answer["errors"][0]
    status, answer = post(server, "/api/save", json.dumps({"ship": hauler(), "to": "yes.toml", "overwrite": "yes"}))
    assert status == 400 and "key `overwrite`" in answer["errors"][0], answer
    assert not (server.folder / "yes.toml").exists()


def test_a_card_question_is_refused_before_its_job_starts_in_the_api_s_own_words(server: Server) -> None:
    status, answer = post(server, "/api/odds", json.dumps({"ship": hauler(), "cards": ["III-16"]}))
    assert status == 400, answer  # a combat zone, no opponents: said before any job, not as a stream's error
    assert answer["errors"] == ["card 2007:III-16 (combat zone) hits the weakest ship: give the opponents (`opponents`), "
                                "or take the ship to be the weakest (`assume_weakest`); key `cards`; value 'III-16' "
                                "(expected `opponents` or `assume_weakest`)"]
    for cards, value in ((["bogus"], "bogus"), (["9999:I-09"], "9999")):
        status, answer = post(server, "/api/odds", json.dumps({"ship": hauler(), "cards": cards}))
        assert status == 400 and "key `cards`" in answer["errors"][0] and value in answer["errors"][0], answer


def test_nesting_too_deep_is_said_as_nesting(server: Server) -> None:
    deep = "[" * 900 + "]" * 900
    status, answer = post(server, "/api/analyze", '{"ship": {"format": 1, "class": "I", "meta": {"a": ' + deep + "}}}")
    assert status == 400 and answer["errors"][0].startswith("nested more than 32 levels deep; key `meta.a`"), answer


def test_saving_names_and_confirmations(server: Server) -> None:
    for to in ("new\n.toml", "tab\t.toml"):
        status, answer = post(server, "/api/save", json.dumps({"ship": hauler(), "to": to}))
        assert status == 400 and "control characters" in answer["errors"][0], answer
    # many saves at once to a new file, each confirmed: each is written, none told to confirm again
    results: list[int] = []

    def save() -> None:
        results.append(post(server, "/api/save", json.dumps({"ship": hauler(), "to": "race.toml",
                                                               "overwrite": True}))[0])

    threads = [threading.Thread(target=save) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 8
    assert tomllib.loads((server.folder / "race.toml").read_text(encoding="utf-8"))["name"] == hauler()["name"]


def test_strict_query_parameters(server: Server) -> None:
    status, answer = server.request("GET", "/api/tiles?sides=1311&any_rotation=maybe")
    assert status == 400 and "key `any_rotation`" in answer["errors"][0], answer
    status, answer = server.request("POST", "/api/cancel?client=x&kind=bogus")
    assert status == 400 and "key `kind`" in answer["errors"][0], answer
    status, answer = server.request("POST", "/api/check?name=" + "n" * 2000, HAULER.read_bytes())
    assert status == 400 and "key `name`" in answer["errors"][0], answer


def test_a_report_searching_for_variants_stops_when_cancelled(server: Server) -> None:
    scout = tomllib.loads((ROOT / "examples" / "class-I-scout.toml").read_text(encoding="utf-8"))
    status, r = server.open_stream("/api/report", {"ship": scout, "runs": 100, "seed": 1}, "page-r")
    assert status == 200
    searching = 0
    for line in r:
        if not line.strip():
            continue
        ev = json.loads(line)
        assert ev["type"] in ("started", "progress"), ev
        searching += ev.get("stage") == "searching for better variants"
        if searching == 2:  # the search says where it is as its variants fly: a point to stop at
            break
    assert server.request("POST", "/api/cancel?client=page-r&kind=report") == (200, {"cancelled": 1})
    rest = [json.loads(x) for x in r if x.strip()]
    assert rest[-1] == {"type": "cancelled"}
    assert not (server.folder / "reports").exists()
