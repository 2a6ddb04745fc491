"""The workbench's limits, against a real server on 127.0.0.1: numbers too long to read, a forged
``Host``, a ship too complex to parse, a cancel without its client id, a flood of exact-odds
questions (one computed in a worker process, the rest refused 429, the server answering meanwhile
and staying small) and a signal stopping it all, no process left behind."""

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
