"""The workbench's JSON API through Starlette's test client: every endpoint, bad input answered as the
command line answers it, the token, a foreign Origin, and files outside the start folder."""

from __future__ import annotations

import json
import shutil
import tomllib
import warnings
from pathlib import Path
from typing import Any

import pytest
from clikit import run

pytest.importorskip("httpx", reason="the test client needs httpx (a test extra)")
with warnings.catch_warnings():  # newer Starlette would rather have httpx2 for its test client
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient  # noqa: E402

from shipcheck.serve.app import MAX_BODY, create_app  # noqa: E402
from shipcheck.serve.jobs import Job  # noqa: E402
from shipcheck.serve.workspace import Workspace  # noqa: E402
from shipcheck.shipfile import find_tiles, load_ship  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TOKEN = "t0k3n-for-the-tests-only-xxxxxxxxxxxx"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "ships"
    d.mkdir()
    shutil.copy(EXAMPLES / "blue-round1.toml", d / "blue.toml")
    shutil.copy(EXAMPLES / "class-III-hauler.toml", d / "hauler.toml")
    shutil.copy(EXAMPLES / "mistakes" / "loose-piece.toml", d / "loose.toml")
    (d / "sub").mkdir()
    shutil.copy(EXAMPLES / "class-I-scout.toml", d / "sub" / "scout.toml")
    (tmp_path / "outside.toml").write_text((EXAMPLES / "class-I-scout.toml").read_text(encoding="utf-8"),
                                           encoding="utf-8")
    return d


@pytest.fixture
def client(folder: Path) -> Any:
    with TestClient(create_app(Workspace.start(folder), TOKEN, host="testserver"), headers=AUTH) as c:
        yield c


def doc(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args)
    assert code in (0, 1), err
    return json.loads(out)


# -- the token and the Origin ------------------------------------------------------------------------
ENDPOINTS = [("GET", "/"), ("GET", "/api"), ("GET", "/api/session"), ("GET", "/api/files"), ("GET", "/api/tiles"),
             ("GET", "/api/cards"), ("GET", "/api/rules/C1"), ("GET", "/api/jobs"), ("GET", "/static/app.js"),
             ("POST", "/api/check"), ("POST", "/api/stats"), ("POST", "/api/open"), ("POST", "/api/new"),
             ("POST", "/api/analyze"), ("POST", "/api/fix"), ("POST", "/api/odds"), ("POST", "/api/place"),
             ("POST", "/api/place/credits"), ("POST", "/api/round"), ("POST", "/api/report"), ("POST", "/api/design"),
             ("POST", "/api/toml"),
             ("POST", "/api/save"), ("POST", "/api/save/check"), ("POST", "/api/cancel"), ("GET", "/nowhere")]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_every_request_without_the_token_is_refused(folder: Path, method: str, path: str) -> None:
    with TestClient(create_app(Workspace.start(folder), TOKEN, host="testserver")) as c:
        for headers, query in (({}, ""), ({"Authorization": "Bearer wrong"}, ""), ({}, "?token=wrong"),
                               ({"Authorization": TOKEN}, "")):
            r = c.request(method, path + query, headers=headers, content=b"{}")
            assert r.status_code == 401, (headers, query, r.text)
            assert r.json()["errors"]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_a_foreign_origin_is_refused_even_with_the_token(client: Any, method: str, path: str) -> None:
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": "http://testserver.evil"},
                    {"Sec-Fetch-Site": "cross-site"}):
        r = client.request(method, path, headers=headers, content=b"{}")
        assert r.status_code == 403, (headers, r.text)


@pytest.mark.parametrize(("value", "parts"), [
    (b"127.0.0.1:8765", ("127.0.0.1", 8765)), (b"LocalHost:80", ("localhost", 80)), (b"[::1]:8765", ("::1", 8765)),
    (b"example.org", ("example.org", None)), (b"[::1]", ("::1", None)), (b"", None), (b":80", None),
    (b"a:b", None), (b"[::1]x", None), (b"h:123456", None), (b"\xff:1", None)])
def test_host_headers_are_read_strictly(value: bytes, parts: Any) -> None:
    from shipcheck.serve.app import split_host

    assert split_host(value) == parts


def test_the_host_names_served(client: Any) -> None:
    from shipcheck.serve.app import host_names

    assert host_names("127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert host_names("[::1]") == host_names("::1") == {"127.0.0.1", "localhost", "::1"}
    assert "ships.lan" in host_names("ships.lan")
    assert {"127.0.0.1", "localhost", "::1"} < host_names("0.0.0.0")
    r = client.get("/api/session", headers={"Host": "evil.example"})
    assert r.status_code == 403 and r.json()["errors"][0].startswith("request for another host refused")
    assert client.get("/api/session", headers={"Host": "testserver:81"}).status_code == 403
    assert client.get("/api/session", headers={"Host": "testserver:80"}).status_code == 200


def test_the_token_in_the_query_or_a_header_and_the_same_origin_are_accepted(folder: Path) -> None:
    with TestClient(create_app(Workspace.start(folder), TOKEN, host="testserver")) as c:
        assert c.get(f"/api/session?token={TOKEN}").status_code == 200
        assert c.get("/api/session", headers=AUTH).status_code == 200
        assert c.get("/api/session", headers={**AUTH, "Origin": "http://testserver"}).status_code == 200


def test_nothing_changes_without_the_token(folder: Path) -> None:
    before = (folder / "blue.toml").read_bytes()
    with TestClient(create_app(Workspace.start(folder), TOKEN, host="testserver")) as c:
        for headers in ({}, {**AUTH, "Origin": "http://evil.example"}):
            r = c.post("/api/save", headers=headers, json={"ship": doc(folder / "loose.toml"), "to": "blue.toml",
                                                          "overwrite": True})
            assert r.status_code in (401, 403)
            r = c.post("/api/save", headers=headers, json={"ship": doc(folder / "loose.toml"), "to": "new.toml"})
            assert r.status_code in (401, 403)
    assert (folder / "blue.toml").read_bytes() == before
    assert not (folder / "new.toml").exists()


def test_answers_carry_headers_that_keep_the_token_in_the_page(client: Any) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["referrer-policy"] == "no-referrer"
    csp = page.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    # every module the page imports is mapped to an address carrying the token
    imports = json.loads(page.text.split('<script type="importmap"', 1)[1].split(">", 1)[1].split("</script>")[0])
    assert imports["imports"]["/static/board.js"] == f"/static/board.js?token={TOKEN}"
    assert "http" not in page.text.replace("http-equiv", "")  # nothing fetched from elsewhere
    for name in ("app.js", "board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_static_files_fetch_nothing_from_the_internet() -> None:
    static = ROOT / "shipcheck" / "serve" / "static"
    for f in static.rglob("*"):
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            assert "http://" not in text and "https://" not in text and "//cdn" not in text, f.name


# -- POST /api/check and /api/stats: the command line's JSON ------------------------------------------------
@pytest.mark.parametrize("command", ["check", "stats"])
@pytest.mark.parametrize("name", ["blue.toml", "hauler.toml", "loose.toml"])
def test_check_and_stats_answer_what_the_command_prints(client: Any, folder: Path, name: str, command: str,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(folder)
    expected = cli_json(capsys, command, name, "--format", "json")
    r = client.post(f"/api/{command}?name={name}", content=(folder / name).read_bytes())
    assert r.status_code == 200  # legal or not
    assert r.json() == expected
    if command == "check":
        assert r.json()["legal"] is (name != "loose.toml")


def _malformed() -> list[Path]:
    out = []
    for p in sorted((ROOT / "tests" / "malformed").glob("*.toml")):
        text = p.read_bytes()
        if b"board" in text or not p.name[0].isalpha():
            continue  # board files are read from the start folder only (see test_board_paths...)
        out.append(p)
    return out


@pytest.mark.parametrize("path", _malformed(), ids=lambda p: p.stem)
def test_bad_input_gets_the_command_lines_messages(tmp_path: Path, path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(path, tmp_path / path.name)
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "check", path.name, "--format", "json")
    with TestClient(create_app(Workspace.start(tmp_path), TOKEN, host="testserver"), headers=AUTH) as c:
        for endpoint in ("/api/check", "/api/stats"):
            r = c.post(f"{endpoint}?name={path.name}", content=path.read_bytes())
            if code == 2:
                assert r.status_code == 400, r.text
                assert r.json() == {"errors": [line.removeprefix("shipcheck: error: ") for line in err.splitlines()]}
            else:
                assert r.status_code == 200, r.text


def test_bad_bodies_are_400_with_errors_never_500(client: Any) -> None:
    cases = [
        ("/api/check", b"\xff\xfe not utf-8"),
        ("/api/check", b"format = 1\nclass = \"I\"\n[[tile]]\nat = [7, 8]\nkind = \"cabn\"\nsides = \"1111\"\n"),
        ("/api/analyze", b"not json"),
        ("/api/analyze", b"[1, 2]"),
        ("/api/analyze", b"{}"),
        ("/api/analyze", json.dumps({"ship": None}).encode()),
        ("/api/analyze", json.dumps({"ship": {"format": 1, "class": "I", "tile": [{"at": None}]}}).encode()),
        ("/api/analyze", json.dumps({"ship": {"format": 1, "class": "Z"}}).encode()),
        ("/api/analyze", json.dumps({"ship": {"format": 1, "class": "I"}, "path": 5}).encode()),
        ("/api/analyze", ("[" * 100_000 + "]" * 100_000).encode()),
        ("/api/odds", json.dumps({"ship": {"format": 1, "class": "I"}, "attacks": ["tiny-meteor:front"]}).encode()),
        ("/api/odds", json.dumps({"ship": {"format": 1, "class": "I"}}).encode()),
        ("/api/odds", json.dumps({"ship": {"format": 1, "class": "I"}, "cards": ["IX-99"]}).encode()),
        ("/api/place", json.dumps({"ship": {"format": 1, "class": "I"}, "tile": "2021:5"}).encode()),
        ("/api/round", json.dumps({"ship": {"format": 1, "class": "I"}, "runs": 10**9}).encode()),
        ("/api/round", json.dumps({"ship": {"format": 1, "class": "I"}, "round": "9"}).encode()),
        ("/api/round", json.dumps({"ship": {"format": 1, "class": "I"}, "opponents": ["nope.toml"]}).encode()),
        ("/api/new", json.dumps({"class": "XI"}).encode()),
        ("/api/save", json.dumps({"ship": {"format": 1, "class": "I"}, "to": "x.txt"}).encode()),
    ]
    for path, body in cases:
        r = client.post(path, content=body)
        assert r.status_code == 400, (path, body[:60], r.text)
        errors = r.json()["errors"]
        assert errors and all(isinstance(e, str) and e for e in errors)
    r = client.post("/api/analyze", json={"ship": {"format": 1, "class": "I", "tile": [{"at": [7, 8], "kind": "cabn",
                                                                                        "sides": "1111"}]}})
    assert r.json()["errors"] == ["<input>: [[tile]] #1: unknown tile kind; key `kind`; value 'cabn' (expected one of "
                                  "the 23 tile kinds `shipcheck tiles --kinds` lists); did you mean `cabin`?"]


def test_request_bodies_are_bounded(client: Any) -> None:
    r = client.post("/api/check", content=b"#" * (MAX_BODY + 1))
    assert r.status_code == 400 and "too large" in r.json()["errors"][0]
    r = client.post("/api/check", content=b"#" * (MAX_BODY - 10))  # past a ship file's own limit
    assert r.status_code == 400 and "ship file too large" in r.json()["errors"][0]

    def chunks() -> Any:  # no Content-Length: counted as it comes
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"#" * 65536

    r = client.post("/api/check", content=chunks())
    assert r.status_code == 400 and "too large" in r.json()["errors"][0]


# -- files: the start folder and the named file, nothing else -------------------------------------------------
def test_open_lists_and_reads_ship_files_of_the_start_folder(client: Any) -> None:
    files = client.get("/api/files").json()["files"]
    assert set(files) == {"blue.toml", "hauler.toml", "loose.toml", "sub/scout.toml"}
    r = client.post("/api/open", json={"path": "sub/scout.toml"}).json()
    assert r["path"] == "sub/scout.toml" and r["doc"]["class"] == "I"
    assert r["analysis"]["check"]["ship"] == "sub/scout.toml"


@pytest.mark.parametrize("path", ["../outside.toml", "sub/../../outside.toml", "/etc/passwd", "OUTSIDE",
                                  "sub/\x00x.toml", "x" * 2000])
def test_paths_leaving_the_start_folder_are_refused(client: Any, folder: Path, path: str) -> None:
    path = path.replace("OUTSIDE", str(folder.parent / "outside.toml"))
    for endpoint, body in (("/api/open", {"path": path}),
                           ("/api/save", {"ship": doc(folder / "blue.toml"), "to": path, "overwrite": True}),
                           ("/api/save/check", {"to": path}),
                           ("/api/analyze", {"ship": doc(folder / "blue.toml"), "path": path}),
                           ("/api/round", {"ship": doc(folder / "blue.toml"), "opponents": [path], "runs": 10})):
        r = client.post(endpoint, json=body)
        assert r.status_code == 400, (endpoint, r.text)
    assert "Scout" in (folder.parent / "outside.toml").read_text(encoding="utf-8")


def test_symbolic_links_are_refused_even_inside_the_folder(client: Any, folder: Path) -> None:
    (folder / "out-link.toml").symlink_to(folder.parent / "outside.toml")
    (folder / "in-link.toml").symlink_to(folder / "blue.toml")
    (folder / "dir-link").symlink_to(folder.parent)
    for path in ("out-link.toml", "in-link.toml", "dir-link/outside.toml", "dir-link/ships/blue.toml"):
        r = client.post("/api/open", json={"path": path})
        assert r.status_code == 400 and "symbolic link" in r.json()["errors"][0], r.text
        r = client.post("/api/save", json={"ship": doc(folder / "loose.toml"), "to": path, "overwrite": True})
        assert r.status_code == 400
    assert "Scout" in (folder.parent / "outside.toml").read_text(encoding="utf-8")
    assert "files" in client.get("/api/files").json()
    assert "out-link.toml" not in client.get("/api/files").json()["files"]


def test_board_paths_are_confined_too(client: Any, folder: Path) -> None:
    board = (ROOT / "shipcheck" / "tiles" / "boards" / "I.toml") if (ROOT / "shipcheck" / "tiles").exists() \
        else ROOT / "tiles" / "boards" / "I.toml"
    shutil.copy(board, folder.parent / "board.toml")
    shutil.copy(board, folder / "board.toml")
    outside = {"format": 1, "board": "../board.toml"}
    r = client.post("/api/analyze", json={"ship": outside})
    assert r.status_code == 400 and "board file refused" in r.json()["errors"][0]
    r = client.post("/api/check", content=b'format = 1\nboard = "/etc/hostname"\n')
    assert r.status_code == 400
    inside = {"format": 1, "board": "board.toml"}
    assert client.post("/api/analyze", json={"ship": inside}).status_code == 200


def test_the_named_file_may_be_outside_the_folder(folder: Path) -> None:
    named = folder.parent / "outside.toml"
    with TestClient(create_app(Workspace.start(folder, named), TOKEN, host="testserver"), headers=AUTH) as c:
        session = c.get("/api/session").json()
        assert session["named"] == {"path": str(named), "exists": True}
        assert c.post("/api/open", json={"path": str(named)}).status_code == 200
        assert str(named) in c.get("/api/files").json()["files"]
        assert c.post("/api/open", json={"path": str(folder.parent / "other.toml")}).status_code == 400


# -- saving -----------------------------------------------------------------------------------------
def test_save_keeps_comments_asks_before_replacing_and_writes_atomically(client: Any, folder: Path) -> None:
    opened = client.post("/api/open", json={"path": "blue.toml"}).json()
    ship = opened["doc"]
    ship["tile"] = [t for t in ship["tile"] if t["at"] != [8, 6]]
    ship["name"] = "Blue, lighter"
    r = client.post("/api/save", json={"ship": ship, "path": "blue.toml", "to": "blue.toml"})
    assert r.status_code == 200, r.text
    text = (folder / "blue.toml").read_text(encoding="utf-8")
    original = (EXAMPLES / "blue-round1.toml").read_text(encoding="utf-8")
    assert text.splitlines()[:4] == original.splitlines()[:4]  # the comments
    assert 'name = "Blue, lighter"' in text and "2007:144" not in text
    assert load_ship(folder / "blue.toml").name == "Blue, lighter"
    # a file the workbench did not open: 409, nothing written, unless confirmed
    before = (folder / "hauler.toml").read_bytes()
    r = client.post("/api/save", json={"ship": ship, "to": "hauler.toml"})
    assert r.status_code == 409 and r.json()["confirm"] is True
    assert "did not open" in r.json()["errors"][0]
    assert client.post("/api/save/check", json={"to": "hauler.toml"}).json()["confirm"]
    assert (folder / "hauler.toml").read_bytes() == before
    r = client.post("/api/save", json={"ship": ship, "to": "hauler.toml", "overwrite": True})
    assert r.status_code == 200 and load_ship(folder / "hauler.toml").name == "Blue, lighter"
    # a file changed on disk since it was opened asks again
    (folder / "blue.toml").write_text(original, encoding="utf-8")
    r = client.post("/api/save", json={"ship": ship, "path": "blue.toml", "to": "blue.toml"})
    assert r.status_code == 409 and "changed on disk" in r.json()["errors"][0]
    # a new file in a new place needs no question; no temporary file is left
    r = client.post("/api/save", json={"ship": ship, "to": "sub/new.toml"})
    assert r.status_code == 200 and (folder / "sub" / "new.toml").is_file()
    assert not [p for p in folder.rglob(".*")]
    assert client.post("/api/save", json={"ship": ship, "to": "nofolder/x.toml"}).status_code == 400


def test_saving_over_an_opened_file_keeps_its_comments_when_the_body_names_no_path(client: Any, folder: Path) -> None:
    (folder / "kept.toml").write_text((EXAMPLES / "blue-round1.toml").read_text(encoding="utf-8"), encoding="utf-8")
    ship = client.post("/api/open", json={"path": "kept.toml"}).json()["doc"]
    ship["name"] = "Blue, renamed"
    r = client.post("/api/save", json={"ship": ship, "to": "kept.toml"})  # a script's save: no `path`
    assert r.status_code == 200, r.text
    original = (EXAMPLES / "blue-round1.toml").read_text(encoding="utf-8")
    text = (folder / "kept.toml").read_text(encoding="utf-8")
    assert text.splitlines()[:4] == original.splitlines()[:4] and 'name = "Blue, renamed"' in text


def test_toml_gives_the_file_to_download(client: Any, folder: Path) -> None:
    client.post("/api/open", json={"path": "blue.toml"})
    r = client.post("/api/toml", json={"ship": doc(folder / "blue.toml"), "path": "blue.toml"}).json()
    assert r["filename"] == "blue.toml"
    assert r["text"] == (folder / "blue.toml").read_text(encoding="utf-8")  # unchanged: the file as it is
    r = client.post("/api/toml", json={"ship": {"format": 1, "class": "II", "name": "My / ship"}}).json()
    assert r["filename"] == "My-ship.toml" and 'class = "II"' in r["text"]


# -- studying a ship ---------------------------------------------------------------------------------
def test_new_and_analyze_give_check_stats_drawing_and_repair(client: Any, folder: Path) -> None:
    for cls in ("I", "II", "III", "IIIa", "IA", "IIA", "IC", "IIC", "IIIC", "IVC"):
        r = client.post("/api/new", json={"class": cls, "edition": "2007"})
        assert r.status_code == 200, (cls, r.text)
        view = r.json()["analysis"]["view"]
        assert len(view["squares"]) == view["board"]["width"] * view["board"]["height"]
    assert client.post("/api/new", json={"class": "II", "edition": "2021"}).json()["doc"]["edition"] == "2021"
    loose = client.post("/api/analyze", json={"ship": doc(folder / "loose.toml"), "path": "loose.toml"}).json()
    assert loose["check"]["legal"] is False
    assert loose["stats"]["ship"] == "loose.toml"
    assert loose["ms"] >= 0
    fixed = client.post("/api/fix", json={"ship": doc(folder / "loose.toml"), "path": "loose.toml"}).json()
    assert fixed["lost"] == 1 and fixed["removed"] == [[9, 9]] and fixed["ship"] == "loose.toml"
    tile = next(t for t in loose["view"]["tiles"] if t["at"] == [9, 9])
    assert "S1" in tile["codes"]


def test_tiles_search_by_sides_as_the_tiles_command(client: Any) -> None:
    all_tiles = client.get("/api/tiles?edition=2021").json()["tiles"]
    assert len(all_tiles) == 156
    found = client.get("/api/tiles?sides=1311&any_rotation=1").json()["tiles"]
    assert sorted((t["id"], t["rot"]) for t in found) == sorted(find_tiles("1311", any_rotation=True))
    engines = client.get("/api/tiles?kind=engine").json()["tiles"]
    assert engines and all(t["kind"] == "engine" for t in engines)
    assert client.get("/api/tiles?sides=12").status_code == 400
    assert client.get("/api/tiles?edition=1999").status_code == 400


def test_rules_cards_and_the_index(client: Any) -> None:
    c1 = client.get("/api/rules/c1").json()
    assert c1["code"] == "C1" and c1["bad"]["check"]["legal"] is False and c1["good"]["check"]["legal"] is True
    r = client.get("/api/rules/C9")
    assert r.status_code == 400 and "unknown rule code" in r.json()["errors"][0]
    cards = client.get("/api/cards?edition=2007").json()["cards"]
    assert len(cards) == 60 and any(c["flyable"] for c in cards)
    paths = {e["path"] for e in client.get("/api").json()["endpoints"]}
    assert {"/api/check", "/api/stats", "/api/round", "/api/save"} <= paths
    assert client.get("/nowhere").status_code == 404


def odds_events(client: Any, body: dict[str, Any]) -> list[dict[str, Any]]:
    with client.stream("POST", "/api/odds", json=body) as r:
        assert r.status_code == 200, r.read()
        return events(r)


def test_odds_of_attacks_and_cards_are_jobs_computed_in_a_worker(client: Any, folder: Path) -> None:
    import shipcheck

    ship = doc(folder / "blue.toml")
    evs = odds_events(client, {"ship": ship, "attacks": ["large-meteor:front", "small-meteor:left"]})
    assert evs[0] == {"type": "started", "job": "odds"}
    assert evs[1]["type"] == "progress" and evs[1]["stage"] == "computing the exact odds of 2 attacks"
    r = evs[-1]["result"]
    exact = shipcheck.odds(load_ship(folder / "blue.toml"), ["large-meteor:front", "small-meteor:left"])
    assert r["fractions"]["p_survive"] == str(exact.p_survive)
    assert r["tiles"] and all(0 <= t["p_lost"] <= 1 for t in r["tiles"])
    evs = odds_events(client, {"ship": ship, "cards": ["I-03"], "assume_weakest": True})
    assert evs[-1]["type"] == "result", evs[-1]
    evs = odds_events(client, {"ship": ship, "cards": ["I-03"], "opponents": ["sub/scout.toml"]})
    assert evs[-1]["type"] == "result", evs[-1]
    assert not Job.registry


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="the worker's memory is read in /proc")
def test_exact_odds_past_the_workers_memory_are_stopped_and_said(client: Any, folder: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from shipcheck.serve import oddsjobs as workers

    monkeypatch.setattr(workers, "MAX_RSS", 1)  # any worker is past it at the first look
    twelve = ["large-meteor:front", "small-meteor:left", "heavy-shot:rear", "light-shot:right"] * 3
    evs = odds_events(client, {"ship": doc(folder / "hauler.toml"), "attacks": twelve})
    assert evs[-1]["type"] == "error"
    assert evs[-1]["errors"][0].startswith("the exact odds of this question need more memory than the workbench "
                                           "gives them; key `attacks`; value '12 attacks'")
    assert not Job.registry


def test_place_ranks_legal_squares(client: Any, folder: Path) -> None:
    r = client.post("/api/place", json={"ship": {"format": 1, "class": "I"}, "tile": "2007:68"}).json()
    assert r["placements"] and r["placements"][0]["rank"] == 1
    assert all("i" in p for p in r["placements"])
    assert {tuple(p["at"]) for p in r["placements"] if p["rot"] == 0} >= {(7, 8)}


# -- jobs: streamed, cancellable ------------------------------------------------------------------------
def events(response: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in response.iter_lines() if line.strip()]


def test_a_round_streams_its_progress_and_gives_the_command_lines_numbers(client: Any, folder: Path) -> None:
    import shipcheck

    body = {"ship": doc(folder / "blue.toml"), "path": "blue.toml", "runs": 3000, "seed": 11, "round": "1"}
    with client.stream("POST", "/api/round", json=body) as r:
        assert r.status_code == 200
        evs = events(r)
    assert evs[0]["type"] == "started"
    progress = [e for e in evs if e["type"] == "progress"]
    assert [e["done"] for e in progress if e["done"]] == [1024, 2048, 3000]
    result = evs[-1]
    assert result["type"] == "result"
    lib = shipcheck.simulate_round(load_ship(folder / "blue.toml"), round=1, runs=3000, seed=11, batch=1024)
    assert result["result"]["credits"]["mean"] == pytest.approx(lib.credits_mean)
    assert result["result"]["command"] == ("shipcheck simulate blue.toml --round 1 --runs 3000 --seed 11 "
                                           "--batch 1024")
    assert len(result["result"]["opponents"]) == 3  # the default field
    for player in (result["result"], *result["result"]["opponents"]):
        parts = player["credits"]["by_source"]
        assert set(parts) == {"cards", "goods", "arrival", "best_looking", "penalty"}
        assert sum(parts.values()) == pytest.approx(player["credits"]["mean"])


def test_a_round_against_chosen_opponents(client: Any, folder: Path) -> None:
    body = {"ship": doc(folder / "blue.toml"), "runs": 50, "seed": 1, "opponents": ["sub/scout.toml"]}
    with client.stream("POST", "/api/round", json=body) as r:
        result = events(r)[-1]
    assert [o["ship"] for o in result["result"]["opponents"]] == ["sub/scout.toml"]


def test_an_unsaved_ship_is_named_sensibly_in_results(client: Any, folder: Path) -> None:
    unnamed = {k: v for k, v in doc(folder / "blue.toml").items() if k != "name"}
    for ship, shown in ((unnamed, "this ship (not saved)"), ({**unnamed, "name": "Mine"}, "Mine (not saved)")):
        with client.stream("POST", "/api/round", json={"ship": ship, "runs": 20, "seed": 1}) as r:
            result = events(r)[-1]["result"]
        assert result["ship"] == shown and result["name"] == (ship.get("name") or shown)
        assert "<input>" not in json.dumps(result)
        evs = odds_events(client, {"ship": ship, "attacks": ["small-meteor:left"]})
        assert evs[-1]["result"]["ship"] == shown


def test_a_job_is_cancelled_when_its_client_goes_away(client: Any, folder: Path) -> None:
    import time

    body = {"ship": doc(folder / "hauler.toml"), "runs": 200_000, "seed": 1}
    with client.stream("POST", "/api/round", json=body) as r:
        lines = r.iter_lines()
        for line in lines:
            if line.strip() and json.loads(line)["type"] == "progress" and json.loads(line).get("done"):
                break
    deadline = time.monotonic() + 15
    while Job.registry and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Job.registry


def test_cancel_stops_a_pages_jobs(client: Any, folder: Path) -> None:
    import threading
    import time

    body = {"ship": doc(folder / "hauler.toml"), "runs": 200_000, "seed": 1}
    seen: list[dict[str, Any]] = []

    def fly() -> None:
        with client.stream("POST", "/api/round", json=body, headers={"X-Shipcheck-Client": "page-1"}) as r:
            seen.extend(events(r))

    t = threading.Thread(target=fly)
    t.start()
    deadline = time.monotonic() + 60
    while not any(e.get("done") for e in seen) and time.monotonic() < deadline and not Job.registry:
        time.sleep(0.05)
    assert client.post("/api/cancel?client=other").json()["cancelled"] == 0
    assert client.post("/api/cancel?client=page-1").json()["cancelled"] == 1
    t.join(30)
    assert seen[-1]["type"] == "cancelled"


def test_the_credits_ranking_streams_and_the_report_is_written(client: Any, folder: Path) -> None:
    body = {"ship": {"format": 1, "class": "I"}, "tile": "2007:68", "runs": 50}
    with client.stream("POST", "/api/place/credits", json=body) as r:
        evs = events(r)
    assert evs[-1]["type"] == "result"
    assert all(p["credits"] is not None for p in evs[-1]["result"]["placements"])
    assert [e["done"] for e in evs if e.get("stage") == "flying placements"][-1] == \
        [e["total"] for e in evs if e.get("stage") == "flying placements"][-1]
    body = {"ship": doc(folder / "blue.toml"), "path": "blue.toml", "runs": 40, "seed": 1}
    with client.stream("POST", "/api/report", json=body) as r:
        evs = events(r)
    res = evs[-1]["result"]
    assert res["out"] == "reports/blue-round-1" and (folder / "reports" / "blue-round-1" / "index.html").is_file()
    page = client.get(res["href"])
    assert page.status_code == 200 and "<html" in page.text
    assert "unsafe-inline" in page.headers["content-security-policy"]
    assert client.get("/reports/other/index.html").status_code in (400, 404)
    assert client.get("/reports/blue-round-1/..%2F..%2Fblue.toml").status_code in (400, 404)
