"""`shipcheck serve` as a process: the address on the first line, a free port, bad input before
anything is served, and Ctrl-C or SIGTERM stopping it cleanly, a running job and all."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from clikit import run
from proctools import children, group

ROOT = Path(__file__).resolve().parents[1]
HAULER = ROOT / "examples" / "class-III-hauler.toml"
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _start(*args: str, cwd: Path = ROOT, browser: bool = False) -> tuple[subprocess.Popen[str], str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if browser:
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
    flags = [] if browser else ["--no-browser"]
    proc = subprocess.Popen([sys.executable, "-m", "shipcheck", "serve", *flags, *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def _call(url: str, path: str, body: Any = None, *, token: bool = True) -> Any:
    base, _, tok = url.partition("/?token=")
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers={"Authorization": f"Bearer {tok}"} if token else {})
    return urllib.request.urlopen(req, timeout=30)


def test_the_first_line_is_the_address_with_the_token_and_port_0_picks_a_free_port() -> None:
    proc, url = _start("--port", "0")
    try:
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{32,})", url)
        assert m, url
        assert int(m[1]) > 0
        with _call(url, "/api/session") as r:
            assert json.load(r)["root"] == str(ROOT)
        with pytest.raises(urllib.error.HTTPError) as e:
            _call(url, "/api/session", token=False)
        assert e.value.code == 401
        # a second server on its own free port, with another token
        proc2, url2 = _start("--port", "0")
        try:
            assert url2.split("?")[0] != url.split("?")[0] and url2.split("token=")[1] != m[2]
        finally:
            proc2.send_signal(signal.SIGTERM)
            proc2.communicate(timeout=20)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert out == "" and "Traceback" not in err


@linux
@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_stops_the_server_and_its_running_job_leaving_no_process(sig: int) -> None:
    proc, url = _start("--port", "0")
    ship = json.loads(json.dumps(__import__("tomllib").loads(HAULER.read_text(encoding="utf-8"))))
    stream = _call(url, "/api/round", {"ship": ship, "runs": 200_000, "seed": 1})
    for line in stream:
        if line.strip() and json.loads(line).get("done"):
            break  # rounds are being flown
    with _call(url, "/api/jobs") as r:
        assert [j["kind"] for j in json.load(r)["jobs"]] == ["round"]
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # a terminal's Ctrl-C reaches the whole group
    else:
        proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the server did not stop within 20 s")
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "workbench stopped" in err
    time.sleep(0.2)
    assert children(proc.pid) == [] and [p for p in group(proc.pid) if p != proc.pid] == []
    stream.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the graphical session is Linux's DISPLAY")
def test_without_a_graphical_session_no_browser_is_started() -> None:
    proc, url = _start(browser=True)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert url.startswith("http://127.0.0.1:") and "open the address below in a browser yourself" in err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_as_soon_as_the_address_is_printed_stops_it_cleanly(sig: int) -> None:
    proc, url = _start()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=20)
    assert url.startswith("http://") and proc.returncode == 0, err
    assert "Traceback" not in err and "workbench stopped" in err


def test_a_ship_that_cannot_be_read_is_refused_before_serving(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\nclass = "I"\n[[tile]]\nat = [7, 8]\nkind = "cabn"\nsides = "1111"\n', encoding="utf-8")
    code, out, err = run(capsys, "serve", str(bad), "--no-browser")
    assert code == 2 and out == ""
    assert "unknown tile kind" in err and "did you mean `cabin`?" in err


def test_a_port_in_use_is_an_input_error(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        code, out, err = run(capsys, "serve", "--no-browser", "--port", str(port))
    assert code == 2 and out == "" and "--port" in err and "cannot listen there" in err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "serve", "--help")
    assert code == 0 and "--no-browser" in out and "--port" in out and "--host" in out
